// The live table's behaviours that htmx does not cover. Every page also works without this file
// (forms post, pages reload); with it, a phone stays current without losing what its player
// touched, tells when it is offline and sends what was tapped meanwhile, and says "your turn".
//
// state.js: what the other files share. scripts/bundle_js.py puts every file of static/js/src,
// this one first, inside one closure (static/js/app.js), so a function one file declares is
// called by name from another: each file's first lines say which it uses and gives (all use
// live, byId and visible; several the two constants below). Mutable state two files share lives
// in Companion, below, and nowhere else: a variable any other file declares is its own.
// htmx and idiomorph's extension come first in app.js itself (scripts/bundle_js.py: VENDORED).

var OFFLINE_AFTER = 2; // failed polls in a row before the "no connection" banner
var RETRIES = [2000, 5000, 15000, 30000, 60000]; // ms before each new try of the stream

var Companion = {
  // The push stream (push.js opens, reads and drops it): its EventSource; on: it delivers (the
  // page does not poll: polling.js); heard: when its last message came; version and presence:
  // what it said last; tries: failed tries in a row; retryAt: no new try before this (ms; set
  // by polling.js too, when the browser goes on- or offline).
  push: { source: null, on: false, heard: 0, version: 0, presence: "", tries: 0, retryAt: 0, renew: false },
  // Failed polls in a row (connection.js counts them and shows the banner at OFFLINE_AFTER;
  // push.js and queue.js raise it when the stream went quiet or a tap could not be sent).
  failures: 0,
  // A tap kept unsent is being sent again (queue.js): offline.js asks no question meanwhile.
  resending: false
};

function live() { return document.getElementById("live"); }
function byId(id) { return document.getElementById(id); }
function visible() { return document.visibilityState === "visible"; }
// An object kept as JSON in sessionStorage under `name` (queue.js: the taps not sent yet;
// drafts.js: what was typed): {} when there is none, or it cannot be read (private mode).
function sessionObject(name) {
  try { return JSON.parse(sessionStorage.getItem(name) || "{}"); } catch (err) { return {}; }
}
function keepSessionObject(name, value) {
  try { sessionStorage.setItem(name, JSON.stringify(value)); } catch (err) { /* private mode */ }
}
