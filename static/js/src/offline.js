// offline.js: taps made while offline. The same tap again is the first one (its key); another
// value on the same form replaces the queued one only after the player says yes (the in-page
// question, also used when a value costs something sent again), as does any other entry of the
// game; "sent" once it got through, or "not applied" with the table's reason.
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
function reasonOf(xhr) {
  // Why a queued tap was not applied, from the answer's region: what the table did meanwhile
  // (a 409: the newest line of its history) or the rules' refusal (the region's alert).
  try {
    var doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
    var banner = byId("sent");
    var newest = xhr.status === 409 && doc.querySelector("#live ol.log li:not(.undone)");
    if (newest && banner.dataset.meanwhile) {
      return banner.dataset.meanwhile.replace("%(what)s", newest.textContent.replace(/\s+/g, " ").trim());
    }
    var alert = doc.querySelector("#live .alert p");
    return alert ? alert.textContent.replace(/\s+/g, " ").trim() : "";
  } catch (err) { return ""; }
}
function tellSent(key, xhr) {
  // A queued tap, once answered, is said to be applied or not (with the table's reason): it
  // never just disappears from the "not sent yet" banner.
  var item = key && loadUnsent()[key];
  var banner = byId("sent");
  if (!item || !item.queued || !banner) return;
  var line = document.createElement("p");
  if (xhr.status === 200) {
    if (!item.sent) return;
    line.textContent = item.sent;
  } else if (xhr.status === 409 || xhr.status === 422) {
    line.className = "refused";
    line.textContent = banner.dataset.refused.replace("%(what)s", item.label || "…")
      .replace("%(why)s", reasonOf(xhr)).trim();
  } else {
    return;
  }
  banner.append(line);
  banner.hidden = false;
  clearTimeout(tellSent.timer);
  tellSent.timer = setTimeout(function () { banner.hidden = true; banner.replaceChildren(); }, 12000);
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
var MOVES = /\/(act\/|undo(\?|$))/; // a game's entries and the undo (not notes)
function replaceQueued(detail) {
  // A game's entries (and the undo) replace one another, whatever their kind: a bid waiting to
  // be sent and then a pass would both reach the table, the second against a table the first
  // changed. Two notes written offline are two notes.
  var form = formOf(detail.elt);
  var box = byId("ask");
  if (!form || !box || Companion.resending || !MOVES.test(detail.path || "")) return null;
  var all = loadUnsent();
  var submitter = detail.triggeringEvent && detail.triggeringEvent.submitter;
  var mine = paramPairs(formValues(form, submitter));
  var others = Object.keys(all).filter(function (k) {
    var item = all[k];
    return item.page === location.pathname && MOVES.test(item.path || "") && item.state !== "sending" &&
      !(item.path === detail.path && paramPairs(item.params) === mine);
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
