// connection.js: the "no connection" banner, shown after OFFLINE_AFTER failed polls in a row and
// turned into "back" once a request is answered; each answer also settles its tap in the unsent
// queue. Shared state: reads and writes Companion.failures. Uses isPoll (polling.js), keyOf,
// forget and sendUnsent (queue.js), tellSent (offline.js). Gives setOffline to the others.

// ---- connection --------------------------------------------------------------------------
function setOffline(offline) {
  var banner = byId("conn");
  if (!banner) return;
  if (offline) {
    banner.textContent = banner.dataset.offline;
    banner.classList.remove("back");
    banner.hidden = false;
  } else if (!banner.hidden) {
    banner.textContent = banner.dataset.back;
    banner.classList.add("back");
    setTimeout(function () { if (Companion.failures === 0) banner.hidden = true; }, 2500);
  }
}
document.addEventListener("htmx:afterRequest", function (e) {
  var xhr = e.detail.xhr;
  var answered = xhr && xhr.status > 0;
  if (answered) {
    if (Companion.failures >= OFFLINE_AFTER || (byId("conn") && !byId("conn").hidden)) setOffline(false);
    Companion.failures = 0;
    tellSent(keyOf(e.detail), xhr);
    forget(keyOf(e.detail));
    if (isPoll(e.detail)) sendUnsent();
  } else if (isPoll(e.detail)) {
    Companion.failures += 1;
    if (Companion.failures >= OFFLINE_AFTER) setOffline(true);
  }
});
