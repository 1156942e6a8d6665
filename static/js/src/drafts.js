// drafts.js: what a player typed and has not sent yet (an amount, a number, a name) survives a
// reload of the page, as long as the table has not moved on since (the live region's version):
// kept in sessionStorage per page, put back into the same empty box of the same form, dropped
// once the form was sent. Shared state: none. Uses live, byId, sessionObject and
// keepSessionObject (state.js). Gives nothing.
var DRAFTS = "companion.drafts";
var TYPED = 'input[type=number], input[type=text], input:not([type]), textarea';

function readDrafts() { return sessionObject(DRAFTS); }
function writeDrafts(all) { keepSessionObject(DRAFTS, all); }
function draftField(el) {
  var form = el.form;
  return form && form.id && el.name && el.closest("#live") && el.matches(TYPED) ? form.id + " " + el.name : null;
}
document.addEventListener("input", function (e) {
  var field = draftField(e.target);
  var region = live();
  if (!field || !region) return;
  var all = readDrafts();
  var page = all[location.pathname] || {};
  if (page.version !== region.dataset.version) page = { version: region.dataset.version, fields: {} };
  if (e.target.value) page.fields[field] = e.target.value;
  else delete page.fields[field];
  all[location.pathname] = page;
  writeDrafts(all);
});
// Sent: what it held is no draft any more.
document.addEventListener("htmx:afterRequest", function (e) {
  var form = e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("form");
  if (!form || !form.id || !e.detail.successful) return;
  var all = readDrafts();
  var page = all[location.pathname];
  if (!page) return;
  Object.keys(page.fields).forEach(function (field) {
    if (field.indexOf(form.id + " ") === 0) delete page.fields[field];
  });
  writeDrafts(all);
});
document.addEventListener("DOMContentLoaded", function () {
  var region = live();
  var page = readDrafts()[location.pathname];
  if (!region || !page || page.version !== region.dataset.version) return;
  Object.keys(page.fields).forEach(function (field) {
    var parts = field.split(" ");
    var form = byId(parts[0]);
    var box = form && form.elements.namedItem(parts[1]);
    if (box && box.matches && box.matches(TYPED) && !box.value) box.value = page.fields[field];
  });
});
