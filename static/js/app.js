// Small behaviours htmx does not cover. Everything works without this file too.
(function () {
  "use strict";

  // Do not let a poll wipe what someone is typing: skip the swap while an input inside the
  // live region has focus and holds a value. The next poll (or their own submit) brings the news.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var trigger = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!trigger || !trigger.classList || !trigger.classList.contains("poller")) return;
    var active = document.activeElement;
    var live = document.getElementById("live");
    if (active && live && live.contains(active) && active.matches("input, textarea, select") &&
        active.value !== "" && active.type !== "submit") {
      event.detail.shouldSwap = false;
    }
  });

  // On the home page, show only as many name boxes as there are players.
  function syncNameSlots() {
    var players = document.getElementById("players");
    if (!players) return;
    var n = parseInt(players.value, 10) || 0;
    document.querySelectorAll(".name-slot").forEach(function (slot) {
      slot.hidden = parseInt(slot.dataset.slot, 10) > n;
    });
  }
  document.addEventListener("input", function (event) {
    if (event.target && event.target.id === "players") syncNameSlots();
  });
  document.addEventListener("DOMContentLoaded", syncNameSlots);
})();
