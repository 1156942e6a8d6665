// Generated from static/js/src by scripts/bundle_js.py: edit the sources, then `make js`.
(function () {
  "use strict";

  // ==== state.js ================================================================================
  // The live table's behaviours that htmx does not cover. Every page also works without this file
  // (forms post, pages reload); with it, a phone stays current without losing what its player
  // touched, tells when it is offline and sends what was tapped meanwhile, and says "your turn".
  //
  // state.js: what the other files share. scripts/bundle_js.py puts every file of static/js/src,
  // this one first, inside one closure (static/js/app.js), so a function one file declares is
  // called by name from another: each file's first lines say which it uses and gives (all use
  // live, byId and visible; several the two constants below). Mutable state two files share lives
  // in Companion, below, and nowhere else: a variable any other file declares is its own.
  // htmx (static/js/vendor/htmx.min.js) is loaded before app.js: both are deferred, run in order.

  var OFFLINE_AFTER = 2; // failed polls in a row before the "no connection" banner
  var RETRIES = [2000, 5000, 15000, 30000, 60000]; // ms before each new try of the stream

  var Companion = {
    // The push stream (push.js opens, reads and drops it): its EventSource; on: it delivers (the
    // page does not poll: polling.js); heard: when its last message came; version and presence:
    // what it said last; tries: failed tries in a row; retryAt: no new try before this (ms; set
    // by polling.js too, when the browser goes on- or offline).
    push: { source: null, on: false, heard: 0, version: 0, presence: "", tries: 0, retryAt: 0 },
    // Failed polls in a row (connection.js counts them and shows the banner at OFFLINE_AFTER;
    // push.js and queue.js raise it when the stream went quiet or a tap could not be sent).
    failures: 0,
    // A tap kept unsent is being sent again (queue.js): offline.js asks no question meanwhile.
    resending: false
  };

  function live() { return document.getElementById("live"); }
  function byId(id) { return document.getElementById(id); }
  function visible() { return document.visibilityState === "visible"; }

  // ==== polling.js ==============================================================================
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

  // ==== push.js =================================================================================
  // push.js: the Server-Sent Events stream that says when to fetch, and when it is given up
  // for polls. Shared state: reads and writes Companion.push (all of it) and Companion.failures.
  // Uses poll, presence and isPoll (polling.js), setOffline (connection.js), sendUnsent
  // (queue.js). Gives openStream, closeStream and dropStream to the others.

  var FIRST_WITHIN = 3000; // ms: the push stream's first message must come within this...
  var SILENT_SLACK = 1500; // ms: ...and each next one within a heartbeat and this, or we poll

  // ---- push: one Server-Sent Events stream per visible page ---------------------------------
  // The stream only says "the table is at version N; these seats are online" (at once, on every
  // change, and as a heartbeat); the page then fetches its own live region as a poll does. If
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
    var parts = String(data).split(" ");
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
      if (!sending || Date.now() - sendingSince > 5000) poll();
    } else if (Companion.push.presence && parts[1] !== Companion.push.presence) {
      presence();
    }
    Companion.push.presence = parts[1] || "";
    if (first) sendUnsent();
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
    var got = /data-version="(\d+)"/.exec(e.detail.xhr.responseText || "");
    if (got && parseInt(got[1], 10) < Companion.push.version) setTimeout(poll, 0);
  });

  // ==== connection.js ===========================================================================
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
      tellSent(keyOf(e.detail), xhr.status);
      forget(keyOf(e.detail));
      if (isPoll(e.detail)) sendUnsent();
    } else if (isPoll(e.detail)) {
      Companion.failures += 1;
      if (Companion.failures >= OFFLINE_AFTER) setOffline(true);
    }
  });

  // ==== queue.js ================================================================================
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
  function loadUnsent() {
    try { return JSON.parse(sessionStorage.getItem(STORE) || "{}"); } catch (err) { return {}; }
  }
  function saveUnsent(all) {
    try { sessionStorage.setItem(STORE, JSON.stringify(all)); } catch (err) { /* private mode */ }
  }
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

  // ==== offline.js ==============================================================================
  // offline.js: taps made while offline. The same tap again is the first one (its key); another
  // value on the same form replaces the queued one only after the player says yes (the in-page
  // question, also used when a value costs something sent again); "sent" once it got through.
  // Shared state: reads Companion.resending. Uses loadUnsent, forget and labelOf (queue.js).
  // Gives twinKey, whatOf, sentWords and tellSent to the others.

  // ---- taps made while offline: one entry per form, an ask before another value, then "sent" ---
  // The same form tapped again with the same values while the first tap is unanswered is that
  // first tap: it is sent with the first one's key, so the server applies it once (also when
  // the first did reach it and only its answer was lost). Another value on the same form
  // replaces the queued one only after the player says so. Once a queued tap is answered, the
  // page says what was applied, in the game's words for that form (its data-sent) or in
  // general words with the button's label.
  function paramPairs(params) {
    // The values a tap sends, key aside, in one comparable string: from the [name, value]
    // pairs kept in sessionStorage, or from a request's (or a form's) FormData.
    var pairs = [];
    if (Array.isArray(params)) {
      params.forEach(function (pair) { if (pair[0] !== "key") pairs.push(pair[0] + "=" + pair[1]); });
    } else if (params && params.forEach) {
      params.forEach(function (value, name) {
        if (typeof value === "string" && name !== "key") pairs.push(name + "=" + value);
      });
    }
    return pairs.sort().join("&");
  }
  function queuedOn(all, path) {
    // This page's taps on that form that got no answer yet, oldest first.
    return Object.keys(all).filter(function (k) {
      return all[k].page === location.pathname && all[k].path === path;
    });
  }
  function twinKey(all, path, params) {
    var mine = paramPairs(params);
    var same = queuedOn(all, path).filter(function (k) { return paramPairs(all[k].params) === mine; });
    return same.length ? same[0] : null;
  }
  function formOf(elt) {
    if (!elt) return null;
    return elt.tagName === "FORM" ? elt : elt.form || (elt.closest && elt.closest("form"));
  }
  function fillIn(template, form, params) {
    // "{amount}" -> the value sent; a radio or a list shows the words next to it, not its value.
    return template.replace(/\{(\w+)\}/g, function (all, name) {
      var value = params && params.get ? params.get(name) : null;
      var field = value == null && form ? form.elements[name] : null; // asked before it is sent
      if (field && field.value != null) value = field.value;
      var choice = form && Array.prototype.find.call(form.elements, function (el) {
        return el.name === name && ((el.type === "radio" && el.checked) || el.tagName === "SELECT");
      });
      if (choice && choice.type === "radio") {
        var label = choice.closest("label");
        if (label && label.textContent.trim()) return label.textContent.replace(/\s+/g, " ").trim();
      } else if (choice && choice.selectedOptions && choice.selectedOptions[0]) {
        return choice.selectedOptions[0].textContent.trim();
      }
      return value == null ? "" : String(value);
    });
  }
  function whatOf(detail) {
    // The short name of a tap ("bid 2"), where the game gives one; else the button's label.
    var form = formOf(detail.elt);
    if (form && form.dataset.what) return fillIn(form.dataset.what, form, detail.parameters);
    return labelOf(detail);
  }
  function sentWords(detail) {
    var form = formOf(detail.elt);
    if (form && form.dataset.sent) return fillIn(form.dataset.sent, form, detail.parameters);
    var banner = byId("sent");
    var what = whatOf(detail);
    return banner && what ? banner.dataset.generic.replace("%(what)s", what) : "";
  }
  function tellSent(key, status) {
    var item = key && loadUnsent()[key];
    if (!item || !item.queued || status !== 200 || !item.sent) return;
    var banner = byId("sent");
    if (!banner) return;
    var line = document.createElement("p");
    line.textContent = item.sent;
    banner.append(line);
    banner.hidden = false;
    clearTimeout(tellSent.timer);
    tellSent.timer = setTimeout(function () { banner.hidden = true; banner.replaceChildren(); }, 8000);
  }
  function ask(q, onYes, about) {
    // A question in the page, where thumbs are (the browser's own dialog would speak the
    // browser's language): one button goes on, the other leaves everything as it was. Where a
    // yes costs something (q.careful), "no" is the button that stands out and has the focus.
    var box = byId("ask");
    if (!box) { onYes(); return; }
    box.replaceChildren();
    var p = document.createElement("p");
    p.id = "ask-text";
    p.textContent = q.text;
    var row = document.createElement("div");
    row.className = "row";
    var go = document.createElement("button");
    go.type = "button";
    go.id = "ask-yes";
    go.textContent = q.yes;
    var stay = document.createElement("button");
    stay.type = "button";
    stay.id = "ask-no";
    stay.textContent = q.no;
    (q.careful ? go : stay).className = "secondary";
    go.addEventListener("click", function () { box.hidden = true; onYes(); });
    stay.addEventListener("click", function () { box.hidden = true; if (q.otherwise) q.otherwise(); });
    row.append(go, stay);
    box.append(p, row);
    box.about = about; // the form asked about (the question goes when the form does)
    box.hidden = false;
    (q.careful ? stay : go).focus();
  }
  document.addEventListener("htmx:afterSettle", function () {
    // The table moved on and took the form away: a yes would send nothing, so no question.
    var box = byId("ask");
    if (box && !box.hidden && box.about && !document.body.contains(box.about)) box.hidden = true;
  });
  function formValues(form, submitter) {
    var data;
    try { data = new FormData(form, submitter || undefined); } catch (err) { data = new FormData(form); }
    return data;
  }
  // Before a tap leaves: the questions that may hold it back. Each check gives a question (its
  // words, its two buttons, what a yes does) or nothing; the tap goes out once each is answered
  // yes, and not at all on a no.
  function costlyRepeat(detail) {
    // A form may name a value that costs something when sent again (a bid just refused and
    // fined): sending exactly that asks first, and a yes adds the form's confirmation field.
    var form = formOf(detail.elt);
    var field = form && form.dataset.askField && form.elements[form.dataset.askField];
    if (!field || field.value.trim() !== form.dataset.askValue) return null;
    return {
      text: form.dataset.ask, yes: form.dataset.askYes, no: form.dataset.askNo, careful: true,
      otherwise: function () { field.value = ""; field.focus(); }, // "bid something else"
      then: function () {
        var yes = document.createElement("input");
        yes.type = "hidden";
        yes.name = form.dataset.askAdd;
        yes.value = "1";
        form.append(yes);
        return function () { yes.remove(); }; // once the request has read the form
      }
    };
  }
  function replaceQueued(detail) {
    // Only a game's entries replace one another (two notes written offline are two notes).
    var form = formOf(detail.elt);
    var box = byId("ask");
    if (!form || !box || Companion.resending || !/\/act\//.test(detail.path || "")) return null;
    var all = loadUnsent();
    var submitter = detail.triggeringEvent && detail.triggeringEvent.submitter;
    var mine = paramPairs(formValues(form, submitter));
    var others = queuedOn(all, detail.path).filter(function (k) {
      return all[k].state !== "sending" && paramPairs(all[k].params) !== mine;
    });
    if (!others.length) return null;
    return {
      text: box.dataset.replace.replace("%(old)s", all[others[0]].label || "…")
        .replace("%(new)s", whatOf(detail) || "…"),
      yes: box.dataset.replaceYes, no: box.dataset.replaceNo,
      then: function () { others.forEach(forget); }
    };
  }
  document.addEventListener("htmx:confirm", function (e) {
    var detail = e.detail;
    if (detail.verb !== "post" || detail.question || !formOf(detail.elt)) return;
    var questions = [costlyRepeat(detail), replaceQueued(detail)].filter(Boolean);
    if (!questions.length) return;
    e.preventDefault();
    var cleanUps = [];
    (function next(i) {
      if (i === questions.length) {
        detail.issueRequest(true);
        cleanUps.forEach(function (f) { f(); });
        return;
      }
      var q = questions[i];
      ask(q, function () {
        var cleanUp = q.then();
        if (cleanUp) cleanUps.push(cleanUp);
        next(i + 1);
      }, formOf(detail.elt));
    })(0);
  });

  // ==== morph_guard.js ==========================================================================
  // morph_guard.js: live updates keep what the player touched (the controls changed since their
  // form was rendered are not morphed; a bar offers the new state when their form is gone), and
  // a choice in the table menu closes the menu. Shared state: none (touched, pending and kept are
  // this file's). Uses isPoll (polling.js). htmx.onLoad: Idiomorph's settings, once.

  // ---- live updates keep what the player touched --------------------------------------------
  // The poll morphs the live region (idiomorph): unchanged parts stay, changed parts change.
  // Idiomorph would copy the server's value/checked into every control but the focused one, so
  // each control the player changed since its form was rendered is skipped. If the new state no
  // longer has such a control (the form is gone), the page is not changed under the player:
  // a bar says that the table changed, and one tap shows it.
  var touched = new WeakSet();
  function markTouched(e) {
    var t = e.target;
    var region = live();
    if (!t || !t.form || !region || !region.contains(t)) return;
    if (t.type === "radio" && t.name) {
      t.form.querySelectorAll('input[type="radio"]').forEach(function (r) { if (r.name === t.name) touched.add(r); });
    } else {
      touched.add(t);
    }
  }
  document.addEventListener("input", markTouched, true);
  document.addEventListener("change", markTouched, true);
  function touchedControls() {
    var region = live();
    if (!region) return [];
    return Array.prototype.filter.call(region.querySelectorAll("input, select, textarea"), function (el) {
      return touched.has(el) && el.type !== "hidden";
    });
  }
  function findIn(doc, el) {
    if (el.id) return doc.getElementById(el.id);
    var form = el.form && el.form.getAttribute("action");
    var candidates = doc.querySelectorAll("input, select, textarea");
    for (var i = 0; i < candidates.length; i += 1) {
      var c = candidates[i];
      if (c.name === el.name && (!form || (c.form && c.form.getAttribute("action") === form)) &&
          (el.type !== "radio" && el.type !== "checkbox" || c.value === el.value)) return c;
    }
    return null;
  }
  var pending = null;
  var kept = [];
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (!isPoll(e.detail) || !e.detail.shouldSwap) return;
    var html = e.detail.serverResponse;
    if (!html) return;
    var controls = touchedControls();
    if (!controls.length) return;
    var doc = new DOMParser().parseFromString(html, "text/html");
    var lost = controls.some(function (el) { return !findIn(doc, el); });
    if (lost) {
      e.detail.shouldSwap = false;
      pending = html;
      var bar = byId("changed");
      if (bar) bar.hidden = false;
      return;
    }
    // Whatever the morph keeps or rebuilds, the player's values are put back afterwards.
    kept = controls.map(function (el) {
      return { el: el, value: el.value, checked: el.checked };
    });
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    if (!isPoll(e.detail) || !kept.length) return;
    kept.forEach(function (saved) {
      var now = findIn(document, saved.el);
      if (!now) return;
      if (now.type === "radio" || now.type === "checkbox") now.checked = saved.checked;
      else now.value = saved.value;
      touched.add(now);
    });
    kept = [];
  });
  // A choice in the table menu closes the menu.
  document.addEventListener("click", function (e) {
    var item = e.target && e.target.closest && e.target.closest(".menu-item");
    var menu = item && item.closest("details");
    if (menu) menu.open = false;
  });
  document.addEventListener("click", function (e) {
    if (!e.target || e.target.id !== "changed-show" || !pending) return;
    var html = pending;
    pending = null;
    byId("changed").hidden = true;
    htmx.swap(live(), html, { swapStyle: "outerHTML" });
  });
  htmx.onLoad(function () {
    if (window.Idiomorph && !window.Idiomorph.companionGuard) {
      window.Idiomorph.companionGuard = true;
      window.Idiomorph.defaults.ignoreActiveValue = true;
      window.Idiomorph.defaults.callbacks.beforeNodeMorphed = function (oldNode) {
        if (oldNode.nodeType === 1 && touched.has(oldNode)) return false;
      };
    }
  });

  // ==== refusals.js =============================================================================
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
  // panel, off the screen), the refusal once it was refused (unless the game showed one
  // already, next to its form).
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
      var alerts = Array.prototype.slice.call(document.querySelectorAll("#live .alert"));
      if (alerts.length && !alerts.some(inView)) alerts[0].scrollIntoView({ block: "start" });
    }
  });

  // ==== turn.js =================================================================================
  // turn.js: your turn (the title, a vibration, a sound, the panel in view), and a seated phone
  // following its person to a rematch. Shared state: none (wasMyTurn is this file's). Gives
  // showWaitingPanel and beep to the others. Like invite.js and wide_tables.js, it runs on
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

  // ==== clock.js ================================================================================
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

  // ==== invite.js ===============================================================================
  // invite.js: the invitation, closed once every seat is taken and gone once the game is over.
  // Shared state: none (freeBefore is this file's).

  // ---- the invitation: closed once every seat is taken, gone once the game is over ---------
  // (It sits outside the live region: the region's data says how many seats are free.)
  var freeBefore = null;
  function syncInvite() {
    var region = live();
    var invite = byId("invite");
    if (!region || !invite || !region.dataset.seatsFree) return;
    var free = parseInt(region.dataset.seatsFree, 10);
    if (free === 0 && freeBefore > 0) invite.open = false;
    freeBefore = free;
    if (region.dataset.over === "yes") {
      invite.hidden = true;
      var item = byId("menu-invite");
      if (item) item.hidden = true;
    }
  }
  document.addEventListener("htmx:afterSettle", syncInvite);
  document.addEventListener("DOMContentLoaded", syncInvite);

  // ==== wide_tables.js ==========================================================================
  // wide_tables.js: a table wider than its frame scrolls inside it, with a line that says so.
  // Shared state: none.

  // ---- a table wider than its frame scrolls inside it, and says so ---------------------------
  // (Its first column stays put: app.css, .score-wrap.scrolls.) Checked again whenever the page
  // changes, a fold opens or the screen turns: a morph drops the line this adds.
  function markWideTables() {
    var words = document.body && document.body.dataset.scrollHint;
    document.querySelectorAll(".score-wrap").forEach(function (wrap) {
      wrap.classList.remove("scrolls"); // measured as laid out without it (no flip-flop)
      var wide = wrap.clientWidth > 0 && wrap.scrollWidth > wrap.clientWidth + 1;
      var line = wrap.previousElementSibling;
      var said = !!line && line.classList.contains("scroll-hint");
      wrap.classList.toggle("scrolls", wide);
      if (wide && !said && words) {
        line = document.createElement("p");
        line.className = "scroll-hint";
        line.textContent = words;
        wrap.before(line);
      } else if (!wide && said) {
        line.remove();
      }
    });
  }
  document.addEventListener("DOMContentLoaded", markWideTables);
  document.addEventListener("htmx:afterSettle", markWideTables);
  document.addEventListener("toggle", markWideTables, true); // a <details> opened or closed
  window.addEventListener("resize", markWideTables);

  // ==== keep_awake.js ===========================================================================
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

  // ==== home.js =================================================================================
  // home.js: the home page's form: as many name boxes as players within the game's limits, and
  // the host's time zone. Shared state: none.

  // ---- the home page: as many name boxes as players, within the game's limits --------------
  function syncNameSlots() {
    var players = byId("players");
    if (!players) return;
    var n = parseInt(players.value, 10) || 0;
    document.querySelectorAll(".name-slot").forEach(function (slot) {
      slot.hidden = parseInt(slot.dataset.slot, 10) > n;
    });
  }
  function syncPlayerLimits() {
    var game = byId("game");
    var players = byId("players");
    if (!game || !players || !game.dataset.limits) return;
    var limits = JSON.parse(game.dataset.limits)[game.value];
    if (!limits) return;
    players.min = limits[0];
    players.max = limits[1];
    var n = parseInt(players.value, 10);
    if (!(n >= limits[0])) players.value = limits[0];
    else if (n > limits[1]) players.value = limits[1];
    syncNameSlots();
    // The readings a table may switch: only the chosen game's (every game's without a script).
    document.querySelectorAll(".table-readings[data-games]").forEach(function (box) {
      box.hidden = box.dataset.games.split(" ").indexOf(game.value) < 0;
    });
  }
  document.addEventListener("input", function (event) {
    if (event.target && event.target.id === "players") syncNameSlots();
  });
  document.addEventListener("change", function (event) {
    if (event.target && event.target.id === "game") syncPlayerLimits();
  });
  document.addEventListener("DOMContentLoaded", syncPlayerLimits);

  // ---- the home page: the host's time zone dates the table's play in the exports -----------
  document.addEventListener("DOMContentLoaded", function () {
    var zone = byId("timezone");
    try {
      if (zone && !zone.value) zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (e) { /* no Intl: the server's zone */ }
  });

  // ==== copy.js =================================================================================
  // copy.js: the Copy button of "Text to paste" and the set-up guide's Print button (each shown
  // only where a script runs). Shared state: none.

  // ---- "Text to paste": a Copy button (shown only where a script runs) ---------------------------
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.querySelector("button[data-copy]");
    if (!button) return;
    var box = document.getElementById(button.dataset.copy);
    var done = document.getElementById("copy-done");
    button.hidden = false;
    button.addEventListener("click", function () {
      box.focus();
      box.select();
      var said = function () { if (done) done.textContent = button.dataset.copied; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(box.value).then(said, function () {
          if (document.execCommand("copy")) said();
        });
      } else if (document.execCommand("copy")) {
        said();
      }
    });
  });

  // ---- the set-up guide's Print button (the page prints without it too) -------------------------
  document.addEventListener("DOMContentLoaded", function () {
    var button = document.querySelector("button[data-print]");
    if (!button) return;
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });
})();
