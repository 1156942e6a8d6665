// refusals.js: every refusal is the app's own message (the browser's validation bubbles are
// off, on every form the page loads or a swap brings: htmx.onLoad), and after one's own entry
// or an undo the answer is in view. Shared state: none. Uses isPoll (polling.js),
// showWaitingPanel (turn.js).

// ---- every refusal is the app's own message ---------------------------------------------
// The browser's validation bubbles (in the browser's language, with no rule link) would stop
// a form before the app could say which rule and what is allowed: forms are sent as typed.
function noBubbles(root) {
  (root || document).querySelectorAll("form").forEach(function (form) { form.noValidate = true; });
}
// On the page as loaded and in whatever a swap brings (htmx.onLoad: both).
htmx.onLoad(function (elt) { noBubbles(elt.parentNode || document); });
// After an undo the view goes back to the panel that is waiting.
document.addEventListener("htmx:afterSettle", function (e) {
  var path = e.detail.requestConfig && e.detail.requestConfig.path;
  if (path && /\/undo(\?|$)/.test(path)) showWaitingPanel(true);
});
// After one's own entry the answer is in view: its undo line once it was applied (the page
// had scrolled the turn's panel to the top, and the new region puts the undo line above the
// panel, off the screen), the refusal once it was refused (the one shown: a game may show it
// next to its form instead of at the top).
function inView(el) {
  var box = el.getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
}
document.addEventListener("htmx:afterSettle", function (e) {
  var path = e.detail.requestConfig && e.detail.requestConfig.path;
  var xhr = e.detail.xhr;
  if (isPoll(e.detail) || !path || !/\/act\//.test(path) || !xhr) return;
  if (xhr.status === 200) {
    var undo = byId("undo-here");
    if (undo && !inView(undo)) undo.scrollIntoView({ block: "start" });
  } else {
    var alerts = Array.prototype.slice.call(document.querySelectorAll("#live .alert"))
      .filter(function (el) { return el.offsetParent !== null; }); // the one shown
    if (alerts.length && !alerts.some(inView)) alerts[0].scrollIntoView({ block: "start" });
  }
});
