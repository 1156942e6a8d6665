// clock.js: the table clock counts on in the page. Each [data-clock] holds a seat's time on
// turn as the server worked it out when it made the region (data-seconds), and runs on while
// data-running says the seat is on the clock; each [data-bank] counts a time bank down the
// same way. Only the time elapsed on this phone since that figure arrived is added, so a phone
// whose own clock is wrong still counts right. With a bank, the phone whose turn it is warns
// at 30 s and 10 s left (a banner and, where allowed, the turn sound). Shared state: none.
// Uses live, byId and beep (turn.js).

var clockShown = { warned: {} };
function clockText(seconds) {
  var negative = seconds < 0;
  var whole = Math.round(Math.abs(seconds));
  var h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
  var text = (h ? h + ":" + (m < 10 ? "0" : "") + m : m) + ":" + (s < 10 ? "0" : "") + s;
  return (negative && whole ? "\u2212" : "") + text;
}
// The time elapsed since this element got its figure from the server: a swap of another part
// of the page (the players list every few seconds) leaves the figure, and its moment, as they
// were; a new figure (a morph changes the attribute in place) starts the count again.
function sinceFigure(el) {
  if (el.clockFigure !== el.dataset.seconds || el.clockRuns !== el.dataset.running) {
    el.clockFigure = el.dataset.seconds;
    el.clockRuns = el.dataset.running;
    el.clockAt = performance.now();
  }
  return el.dataset.running ? (performance.now() - el.clockAt) / 1000 : 0;
}
function tickClocks() {
  var region = live();
  if (!region) return;
  region.querySelectorAll("[data-clock]").forEach(function (el) {
    el.textContent = clockText((parseFloat(el.dataset.seconds) || 0) + sinceFigure(el));
  });
  region.querySelectorAll("[data-bank]").forEach(function (el) {
    var left = (parseFloat(el.dataset.seconds) || 0) - sinceFigure(el);
    el.textContent = clockText(left);
    var box = el.parentNode;
    if (box) box.classList.toggle("low", left < 30);
    if (box) box.classList.toggle("over", left < 0);
    if (el.dataset.running && region.dataset.myTurn === "yes") warnBank(left);
  });
}
function warnBank(left) {
  var banner = byId("bank-warning");
  [30, 10].forEach(function (mark) {
    if (left <= mark && left > mark - 5 && !clockShown.warned[mark]) {
      clockShown.warned[mark] = true;
      beep();
      if (banner) {
        banner.textContent = banner.dataset["left" + mark] || "";
        banner.hidden = false;
      }
    }
  });
  if (banner && left < 0) {
    banner.textContent = banner.dataset.over || "";
    banner.hidden = false;
  }
}
function startClocks() {
  var region = live();
  if (region && region.dataset.myTurn !== "yes") clockShown.warned = {};
  tickClocks();
  if (!startClocks.timer) startClocks.timer = setInterval(tickClocks, 1000);
}
document.addEventListener("DOMContentLoaded", startClocks);
document.addEventListener("htmx:afterSettle", startClocks);
