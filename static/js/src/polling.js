// polling.js: the live region and the seats list fetched every few seconds while the push stream
// does not deliver, and what the page does when it is shown again or goes on- or offline.
// Shared state: reads Companion.push.on, writes Companion.push.retryAt. Uses openStream and
// closeStream (push.js), setOffline (connection.js), showWaitingPanel (turn.js), keepAwake
// (keep_awake.js). Gives poll, presence and isPoll to the others.

var POLL_EVERY = 2000; // ms between polls of the live region while the page is visible
var PRESENCE_EVERY = 10000; // ms between refreshes of the seats list (who is online)

// ---- polling ----------------------------------------------------------------------------
// (A poll still on its way is not doubled: the poller has hx-sync="this:drop".)
function poll() {
  var region = live();
  var poller = region && region.querySelector(".poller");
  if (!poller || !visible()) return;
  htmx.trigger(poller, "poll");
}
function presence() {
  var seats = byId("seats-region");
  if (seats && visible()) htmx.trigger(seats, "presence");
}
// While the push stream delivers, it says when to fetch; otherwise the page polls.
setInterval(function () { if (!Companion.push.on) poll(); }, POLL_EVERY);
setInterval(function () { if (!Companion.push.on) presence(); }, PRESENCE_EVERY);
document.addEventListener("visibilitychange", function () {
  if (!visible()) { closeStream(); return; } // hidden: "away", and one connection fewer
  poll(); // back from sleep or another tab: show the table as it is now
  presence();
  openStream();
  keepAwake();
  if (live() && live().dataset.myTurn === "yes") showWaitingPanel();
});
window.addEventListener("online", function () { Companion.push.retryAt = 0; poll(); openStream(); });
window.addEventListener("offline", function () {
  // The polls (which count failures) say when the connection is back, not the stream.
  closeStream();
  Companion.push.retryAt = Date.now() + RETRIES[0];
  setOffline(true);
});

function isPoll(detail) {
  // The element that sent the request (in beforeSwap, detail.elt is the swap's target).
  var elt = detail && ((detail.requestConfig && detail.requestConfig.elt) || detail.elt);
  return !!(elt && elt.classList && elt.classList.contains("poller"));
}
