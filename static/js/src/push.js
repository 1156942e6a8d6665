// push.js: the Server-Sent Events stream that says when to fetch, and when it is given up
// for polls. Shared state: reads and writes Companion.push (all of it) and Companion.failures.
// Uses poll, presence and isPoll (polling.js), setOffline (connection.js), sendUnsent
// (queue.js). Gives openStream, closeStream and dropStream to the others.

var FIRST_WITHIN = 3000; // ms: the push stream's first message must come within this...
var SILENT_SLACK = 1500; // ms: ...and each next one within a heartbeat and this, or we poll

// ---- push: one Server-Sent Events stream per visible page ---------------------------------
// The stream says "the table is at version N; these seats are online" (at once, on every
// change, and as a heartbeat). A change's message also carries this page's own live region, as
// its fetch would bring it (the server renders it for this stream): it is swapped in as a poll's
// answer is; without it (too large, a redirect due) the page fetches the region itself. If
// the first message or a heartbeat does not come in time (a proxy that buffers, a connection
// gone quiet) or the stream fails, the page polls every 2 s and tries the stream again later.
function pushUrl() { var region = live(); return region && region.dataset.push; }
function openStream() {
  if (Companion.push.source || !pushUrl() || !window.EventSource || !visible()) return;
  if (Date.now() < Companion.push.retryAt) return;
  var source = new EventSource(pushUrl());
  Companion.push.source = source;
  Companion.push.on = false;
  Companion.push.heard = Date.now();
  source.onmessage = function (e) { if (Companion.push.source === source) heard(e.data); };
  source.onerror = function () { if (Companion.push.source === source) dropStream(false); };
}
function closeStream() {
  if (Companion.push.source) Companion.push.source.close();
  Companion.push.source = null;
  Companion.push.on = false;
}
function dropStream(silent) {
  closeStream();
  Companion.push.retryAt = Date.now() + RETRIES[Math.min(Companion.push.tries, RETRIES.length - 1)];
  Companion.push.tries += 1;
  // Gone quiet: one failed poll now is enough to say the connection is lost.
  if (silent) Companion.failures = Math.max(Companion.failures, OFFLINE_AFTER - 1);
  poll();
}
function heard(data) {
  var text = String(data), cut = text.indexOf("\n");
  var region = cut < 0 ? "" : text.slice(cut + 1);
  var parts = (cut < 0 ? text : text.slice(0, cut)).split(" ");
  var first = !Companion.push.on;
  Companion.push.on = true;
  Companion.push.tries = 0;
  Companion.push.heard = Date.now();
  Companion.push.version = parseInt(parts[0], 10) || 0;
  if (navigator.onLine !== false && (Companion.failures || (byId("conn") && !byId("conn").hidden))) {
    Companion.failures = 0;
    setOffline(false);
  }
  if (behind()) {
    // This page's own tap on its way brings the new region itself (the stream is often
    // faster than the tap's answer): fetching it too would morph the page a second time,
    // under what the player opened meanwhile. Its answer is checked when it comes.
    if (!sending || Date.now() - sendingSince > 5000) {
      // "renew": the region waits for a cookie this page must get first (its fetch brings
      // it); the stream, opened with the old cookies, is opened again once it has.
      if (parts[2] === "renew") Companion.push.renew = true;
      if (!region || !swapRegion(region)) poll();
    }
  } else if (Companion.push.presence && parts[1] !== Companion.push.presence) {
    presence();
  }
  Companion.push.presence = parts[1] || "";
  if (first) sendUnsent();
}
// The region the stream brought, swapped in as the poll's answer would be: the same events
// (htmx:beforeSwap, afterSwap, afterSettle, afterRequest) with the poller as their element, so
// that what follows a poll (the morph guard, the turn's scroll, the connection's state) follows
// this too. False when it cannot (no poller, an older region) or a script of the page wants
// its own fetch (it cancels "companion:streamregion": its poll carries what the page has open,
// which the stream's region, rendered for the page's address, does not know): the page fetches.
function swapRegion(html) {
  var region = live(), poller = region && region.querySelector(".poller");
  var got = /data-version="(\d+)"/.exec(html);
  if (!poller || !got || +got[1] <= (+region.dataset.version || 0)) return false;
  if (!region.dispatchEvent(new CustomEvent("companion:streamregion", { bubbles: true, cancelable: true }))) return false;
  var detail = { elt: poller, target: region, requestConfig: { elt: poller }, shouldSwap: true,
                 serverResponse: html, xhr: { status: 200, responseText: html } };
  if (htmx.trigger(region, "htmx:beforeSwap", detail) && detail.shouldSwap) {
    htmx.swap(region, html, { swapStyle: "morph:outerHTML", ignoreTitle: true }, { eventInfo: detail, contextElement: poller });
    htmx.trigger(live() || document.body, "htmx:afterRequest", detail);
  }
  return true;
}
function behind() {
  var region = live();
  return !!region && Companion.push.version > (parseInt(region.dataset.version, 10) || 0);
}
var sending = 0; // this page's own requests on their way (taps, forms), polls aside
var sendingSince = 0; // (one that never ended does not stop the fetches for long)
document.addEventListener("htmx:beforeRequest", function (e) {
  if (isPoll(e.detail) || !e.detail.xhr) return;
  sending += 1;
  sendingSince = Date.now();
  // Counted off when its request ends, however it ends. Not by htmx:afterRequest: htmx
  // fires that on the button that was tapped, and when the answer removed that button
  // ("End my turn" is gone once the turn ended) the event never reaches the document, and
  // the page ignored the stream for seconds: a stale phone.
  e.detail.xhr.addEventListener("loadend", function () {
    sending = Math.max(0, sending - 1);
    // After the swap: is the page still behind what the stream said?
    if (Companion.push.on && !sending) setTimeout(function () { if (behind()) poll(); }, 50);
  });
});
function pushHeartbeat() {
  var region = live();
  return (parseFloat(region && region.dataset.heartbeat) || 2.5) * 1000;
}
setInterval(function () {
  if (!Companion.push.source) { openStream(); return; }
  var within = Companion.push.on ? pushHeartbeat() + SILENT_SLACK : FIRST_WITHIN;
  if (Date.now() - Companion.push.heard > within) dropStream(true);
}, 500);
document.addEventListener("DOMContentLoaded", openStream);
// A fetch the stream asked for came back older than the newest version heard (another
// change came while it was on its way, and that trigger was dropped): fetch once more.
document.addEventListener("htmx:afterRequest", function (e) {
  if (!Companion.push.on || !isPoll(e.detail) || !e.detail.xhr || e.detail.xhr.status !== 200) return;
  if (Companion.push.renew) {
    Companion.push.renew = false;
    closeStream();
    openStream();
  }
  var got = /data-version="(\d+)"/.exec(e.detail.xhr.responseText || "");
  if (got && parseInt(got[1], 10) < Companion.push.version) setTimeout(poll, 0);
});
