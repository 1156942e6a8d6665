// turn.js: your turn (the title, a vibration, a sound, the panel in view), and a seated phone
// following its person to a rematch, the next step brought into view. Shared state: none
// (wasMyTurn and lastStep are this file's). Uses isPoll (polling.js), inView (refusals.js).
// Gives showWaitingPanel and beep to the others. Like invite.js and wide_tables.js, it runs on
// DOMContentLoaded and on htmx:afterSettle, not htmx.onLoad: htmx:load comes before every
// afterSettle handler, and this panel's scroll must come after refusals.js's (the undo line).

// ---- your turn: the title, a vibration, a sound, the panel in view -----------------------
var wasMyTurn = null;
function showWaitingPanel(always) {
  var target = document.querySelector("#live [data-turn-panel]") || byId("your-turn") || byId("game-panel");
  if (always && !document.querySelector("#live [data-turn-panel]")) target = byId("game-panel") || target;
  if (target) target.scrollIntoView({ block: "start", behavior: "smooth" });
}
function beep() {
  if (localStorage.getItem("companion.sound") !== "on") return;
  try {
    var ctx = beep.ctx || (beep.ctx = new (window.AudioContext || window.webkitAudioContext)());
    var osc = ctx.createOscillator();
    var gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.15;
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.18);
  } catch (err) { /* no audio here */ }
}
function updateTurn() {
  var region = live();
  if (!region || !region.dataset.title) return;
  var mine = region.dataset.myTurn === "yes";
  document.title = mine ? region.dataset.titleTurn : region.dataset.title;
  if (mine && wasMyTurn === false) {
    if (navigator.vibrate) navigator.vibrate(200);
    beep();
  }
  if (mine && wasMyTurn !== true) showWaitingPanel();
  wasMyTurn = mine;
}
document.addEventListener("htmx:afterSettle", updateTurn);
// The table moved on by itself (a poll or the stream, not this phone's own entry, whose answer
// refusals.js puts in view): when what this phone may enter changed (its turn, its prompt) and
// the next step is out of view, it is brought into view, unless the player is typing. A phone
// left scrolled down at the auction's keypad thus shows what comes after it.
var lastStep = null;
function stepOf(region) {
  var prompt = byId("prompt");
  return region.dataset.myTurn + "|" + (prompt ? prompt.textContent : "");
}
function followStep(e) {
  var region = live();
  if (!region || !region.dataset.title) return;
  var step = stepOf(region);
  var typing = document.activeElement && /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
  if (lastStep !== null && step !== lastStep && isPoll(e.detail) && !typing) {
    var target = document.querySelector("#live [data-turn-panel]") || byId("prompt") || region;
    if (!inView(target)) target.scrollIntoView({ block: "start", behavior: "smooth" });
  }
  lastStep = step;
}
document.addEventListener("htmx:afterSettle", followStep);
document.addEventListener("DOMContentLoaded", function () { var r = live(); if (r) lastStep = stepOf(r); });
// A rematch started: a seated phone follows its person to the new table by itself.
function followRematch() {
  var region = live();
  if (region && region.dataset.rematch && !followRematch.going) {
    followRematch.going = true;
    setTimeout(function () { location.assign(region.dataset.rematch); }, 1200);
  }
}
document.addEventListener("htmx:afterSettle", followRematch);
document.addEventListener("DOMContentLoaded", followRematch);
document.addEventListener("DOMContentLoaded", updateTurn);
