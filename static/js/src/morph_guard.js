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
