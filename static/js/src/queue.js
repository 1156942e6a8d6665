// queue.js: every submission (a POST) carries a key; what got no answer is kept in
// sessionStorage, offered again after a reload, and sent again once the connection is back.
// Shared state: reads and writes Companion.resending, raises Companion.failures, reads
// Companion.push.source. Uses dropStream (push.js), setOffline (connection.js), twinKey, whatOf
// and sentWords (offline.js). Gives keyOf, loadUnsent, forget, labelOf and sendUnsent to the
// others.

var STORE = "companion.unsent"; // sessionStorage: submissions that got no answer yet

// ---- every submission carries a key; what got no answer is kept and sent again ----------
function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  var bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
}
function keyOf(detail) {
  var params = detail && detail.requestConfig && detail.requestConfig.parameters;
  return params && params.get ? params.get("key") : null;
}
function loadUnsent() { return sessionObject(STORE); }
function saveUnsent(all) { keepSessionObject(STORE, all); }
function forget(key) {
  if (!key) return;
  var all = loadUnsent();
  if (all[key]) { delete all[key]; saveUnsent(all); }
  showUnsent();
}
function labelOf(detail) {
  // What the player will recognise: the button tapped, and what was typed with it.
  var event = detail.triggeringEvent;
  var button = event && event.submitter;
  var text = (button && button.textContent) || (detail.elt && detail.elt.getAttribute("aria-label")) || "";
  var form = detail.elt && (detail.elt.form || (detail.elt.tagName === "FORM" ? detail.elt : null));
  var typed = form && form.querySelector("input[type=text], input:not([type]), input[type=number], textarea");
  if (typed && typed.value) text += " (" + typed.value + ")";
  return text.replace(/\s+/g, " ").trim().slice(0, 80);
}
document.addEventListener("htmx:configRequest", function (e) {
  if (e.detail.verb !== "post") return;
  var params = e.detail.parameters;
  var all = loadUnsent();
  // The same tap again while the first is unanswered: the first one's key (see twinKey).
  if (!params.get("key")) params.set("key", twinKey(all, e.detail.path, params) || newKey());
  var key = params.get("key");
  var entries = [];
  params.forEach(function (value, name) { if (typeof value === "string") entries.push([name, value]); });
  var before = all[key] || {}; // a resend (htmx.ajax from the region) keeps the tap's words
  all[key] = { path: e.detail.path, params: entries, label: before.label || whatOf(e.detail),
               sent: before.sent || sentWords(e.detail), queued: !!before.queued,
               state: "sending", page: location.pathname };
  saveUnsent(all);
});
document.addEventListener("htmx:sendError", function (e) {
  var key = keyOf(e.detail);
  var all = loadUnsent();
  if (key && all[key]) { all[key].state = "waiting"; all[key].queued = true; saveUnsent(all); }
  Companion.failures = Math.max(Companion.failures, OFFLINE_AFTER);
  setOffline(true);
  showUnsent();
  // A tap that could not be sent: polls, not a stream that may still be open, say when the
  // connection is back (and send it then).
  if (Companion.push.source) dropStream(false);
});
function sendUnsent() {
  var all = loadUnsent();
  var keys = Object.keys(all).filter(function (k) {
    return all[k].state === "waiting" && all[k].page === location.pathname;
  });
  if (Companion.resending || !keys.length) return;
  Companion.resending = true;
  var item = all[keys[0]];
  var values = {};
  item.params.forEach(function (pair) { values[pair[0]] = pair[1]; });
  htmx.ajax("POST", item.path, { source: live() || document.body, target: "#live", swap: "outerHTML", values: values })
    .finally(function () { Companion.resending = false; showUnsent(); });
}
function showUnsent() {
  var banner = byId("unsent");
  if (!banner) return;
  var all = loadUnsent();
  var keys = Object.keys(all).filter(function (k) {
    return all[k].state !== "sending" && all[k].page === location.pathname;
  });
  banner.replaceChildren();
  keys.forEach(function (key) {
    var item = all[key];
    var p = document.createElement("p");
    var template = item.state === "waiting" ? banner.dataset.waiting : banner.dataset.failed;
    p.textContent = template.replace("%(what)s", item.label || "…");
    var row = document.createElement("div");
    row.className = "row";
    var again = document.createElement("button");
    again.type = "button";
    again.textContent = banner.dataset.send;
    again.addEventListener("click", function () {
      var fresh = loadUnsent();
      if (fresh[key]) { fresh[key].state = "waiting"; saveUnsent(fresh); }
      sendUnsent();
    });
    var drop = document.createElement("button");
    drop.type = "button";
    drop.className = "secondary";
    drop.textContent = banner.dataset.discard;
    drop.addEventListener("click", function () { forget(key); });
    row.append(again, drop);
    banner.append(p, row);
  });
  banner.hidden = keys.length === 0;
}
// After a reload, what was not sent before is offered again (not sent by itself).
document.addEventListener("DOMContentLoaded", function () {
  var all = loadUnsent();
  Object.keys(all).forEach(function (k) { all[k].state = "failed"; all[k].queued = true; });
  saveUnsent(all);
  showUnsent();
});
