/* The replay of a finished game (templates/replay/_region.html): keyboard arrows, the slider,
   the language links following the step, and the table display playing the replay by itself.
   Without this script every control is a plain link or form and works the same. */
(function () {
  "use strict";

  function region() { return document.getElementById("replay"); }

  // Arrows step on a computer: left and right, Home and End (links, so htmx swaps the step).
  // A key pressed while a step is still on its way waits for it: each press is one step.
  var keys = [];
  var loading = false;
  function press(id) {
    var link = document.getElementById(id);
    if (!link || link.tagName !== "A") return;
    loading = !!window.htmx;
    link.click();
  }
  document.addEventListener("keydown", function (e) {
    if (!region() || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(t.tagName))) return;
    var id = { ArrowLeft: "replay-previous", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" }[e.key];
    if (!id) return;
    e.preventDefault();
    if (loading) keys.push(id);
    else press(id);
  });
  function nextKey() {
    loading = false;
    if (keys.length) press(keys.shift());
  }
  document.addEventListener("htmx:afterSettle", nextKey);
  document.addEventListener("htmx:responseError", function () { keys = []; loading = false; });
  document.addEventListener("htmx:sendError", function () { keys = []; loading = false; });

  // The slider: the step it is let go at (without this script, its Go button).
  document.addEventListener("change", function (e) {
    var input = e.target;
    if (input.id !== "replay-step-input" || !input.form) return;
    if (window.htmx) {
      var params = new URLSearchParams(new FormData(input.form)).toString();
      // the answer says the step's own address (HX-Push-Url)
      window.htmx.ajax("GET", input.form.action + "?" + params, { target: "#replay", swap: "outerHTML" });
    } else {
      input.form.submit();
    }
  });

  // A screen reader hears the new step: where it is and what happened (the region itself is
  // replaced, so the announcement lives outside it).
  document.addEventListener("htmx:afterSettle", function () {
    var r = region(), out = document.getElementById("replay-announce");
    if (!r || !out) return;
    var where = document.getElementById("replay-where");
    var what = r.querySelector(".replay-lines");
    out.textContent = [where, what].map(function (el) { return el ? el.textContent.replace(/\s+/g, " ").trim() : ""; }).join(" ");
  });

  // The language links lead back to the page they were shown on: after a swap, to this step.
  function followLanguages() {
    document.querySelectorAll(".langs a[href*='next=']").forEach(function (a) {
      var url = new URL(a.href, location.href);
      url.searchParams.set("next", location.pathname + location.search);
      a.href = url.pathname + url.search;
    });
  }
  document.addEventListener("htmx:pushedIntoHistory", followLanguages);

  // The table display plays the replay by itself: the next step every few seconds (the last
  // step is looked at again now and then: a phone may switch what the display shows).
  var timer = null;
  function schedule() {
    clearTimeout(timer);
    var r = region();
    if (!r || !r.dataset.play || !r.dataset.next || !window.htmx) return;
    timer = setTimeout(function () {
      var next = r.dataset.next;
      window.htmx.ajax("GET", next, { target: "#replay", swap: "outerHTML" }).then(function () {
        history.replaceState(null, "", next);
        followLanguages();
      }, schedule);
    }, parseInt(r.dataset.play, 10) || 3000);
  }
  document.addEventListener("htmx:afterSettle", schedule);
  document.addEventListener("DOMContentLoaded", schedule);
})();
