// keep_awake.js: the screen kept on while the table is open (a wake lock, or a muted video on
// a plain http address), and the page's two switches: keep awake and sound. Shared state: none
// (lock is this file's). Uses beep (turn.js). Gives keepAwake to the others.

// ---- keep the screen on while the table is open -------------------------------------------
var lock = null;
function awakeWanted() { return localStorage.getItem("companion.awake") !== "off"; }
function keepAwake() {
  if (!live() || !awakeWanted() || !visible()) return;
  if ("wakeLock" in navigator && window.isSecureContext) {
    if (!lock) navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      l.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* refused: nothing to do */ });
  } else {
    // Not a secure context (a plain http address on the table's Wi-Fi): a silent, muted video
    // playing keeps the screen awake on phones. It may only start on a tap: before the first
    // one it is not even fetched (a phone's first load stays small).
    var video = byId("keep-awake");
    var tapped = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (video && video.paused && tapped) video.play().catch(function () { /* waits for a tap */ });
  }
}
function stopAwake() {
  if (lock) { lock.release(); lock = null; }
  var video = byId("keep-awake");
  if (video) video.pause();
}
document.addEventListener("pointerdown", keepAwake, { passive: true });
document.addEventListener("DOMContentLoaded", keepAwake);

function setupToggle(id, storageKey, defaultOn, onChange) {
  var button = byId(id);
  if (!button) return;
  function render() {
    var on = (localStorage.getItem(storageKey) || (defaultOn ? "on" : "off")) === "on";
    button.textContent = on ? button.dataset.on : button.dataset.off;
    button.setAttribute("aria-pressed", on ? "true" : "false");
    return on;
  }
  button.hidden = false;
  render();
  button.addEventListener("click", function () {
    var on = !render();
    localStorage.setItem(storageKey, on ? "on" : "off");
    render();
    onChange(on);
  });
}
document.addEventListener("DOMContentLoaded", function () {
  setupToggle("wake-toggle", "companion.awake", true, function (on) { if (on) keepAwake(); else stopAwake(); });
  setupToggle("sound-toggle", "companion.sound", false, function (on) { if (on) beep(); });
});
