// Africana's panel: keep what someone is typing when the table's poll brings news.
// The live region is replaced when anybody acts; a form marked data-keep that was typed into
// is either left alone (while the person is still in it) or its values are carried over.
(function () {
  "use strict";
  if (window.africanaPanel) return;  // the panel re-inserts this script on every swap
  window.africanaPanel = true;

  document.addEventListener("input", function (event) {
    var form = event.target && event.target.closest && event.target.closest("form[data-keep]");
    if (form) form.dataset.dirty = "1";
  });

  // A row of number boxes marked data-grow gets one more empty box once all are filled, so
  // a player with many expedition cards never runs out of boxes (without JS, handing in the
  // sheet brings two spare boxes).
  document.addEventListener("input", function (event) {
    var row = event.target && event.target.closest && event.target.closest("[data-grow]");
    if (!row) return;
    var boxes = row.querySelectorAll("input");
    var last = boxes[boxes.length - 1];
    if (!last || last.value === "" || boxes.length > 40) return;
    var next = last.cloneNode(false);
    var index = parseInt(last.name.replace(/^.*-/, ""), 10) + 1;
    next.name = last.name.replace(/-\d+$/, "-" + index);
    next.id = last.id.replace(/-\d+$/, "-" + index);
    next.value = "";
    next.removeAttribute("aria-invalid");
    var label = last.getAttribute("aria-label") || "";
    next.setAttribute("aria-label", label.replace(/\d+(?=\D*$)/, String(index + 1)));
    row.appendChild(next);
  });

  function fromPoll(event) {
    var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    return elt && elt.classList && elt.classList.contains("poller");
  }

  var saved = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!fromPoll(event)) return;
    var live = document.getElementById("live");
    if (!live) return;
    var active = document.activeElement;
    var typing = active && active.closest && active.closest("form[data-dirty]");
    if (typing && live.contains(typing)) {  // still in the form: the next poll brings the news
      event.detail.shouldSwap = false;
      return;
    }
    saved = [];
    live.querySelectorAll("form[data-dirty][id]").forEach(function (form) {
      var values = [];
      form.querySelectorAll("input, select, textarea").forEach(function (input) {
        if (input.type === "hidden" || input.type === "submit" || !input.name) return;
        values.push({name: input.name, value: input.value, checked: input.checked, type: input.type});
      });
      saved.push({id: form.id, values: values});
    });
  });

  // After an entry is refused, bring the reason into view: the one next to the form, or the
  // one at the top of the panel.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (fromPoll(event)) return;
    var alert = document.querySelector("#live .af-inline-alert") ||
                document.querySelector("#live .alert[role=alert]");
    if (!alert) return;
    var box = alert.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      alert.scrollIntoView({block: "center"});
    }
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    if (!saved || !fromPoll(event)) return;
    var restore = saved;
    saved = null;
    restore.forEach(function (entry) {
      var form = document.getElementById(entry.id);
      if (!form) return;
      entry.values.forEach(function (v) {
        form.querySelectorAll("[name='" + CSS.escape(v.name) + "']").forEach(function (input) {
          if (v.type === "radio" || v.type === "checkbox") {
            if (input.value === v.value) input.checked = v.checked;
          } else if (input.type === v.type) {
            input.value = v.value;
          }
        });
      });
      form.dataset.dirty = "1";
      form.dispatchEvent(new Event("input", {bubbles: true}));  // the sheet's preview follows
    });
  });
  // A move's entry picked: bring its form into view (the choice itself is pure CSS).
  document.addEventListener("change", function (event) {
    var pick = event.target;
    if (!pick || pick.name !== "af-move" || !pick.checked) return;
    var form = document.getElementById({join: "af-join", expedition: "af-complete-exp",
      artifact: "af-artifact", guide: "af-guide", colour: "af-colour"}[pick.value]);
    if (form) form.scrollIntoView({block: "nearest", behavior: "smooth"});
  });
})();
