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
  // When the game changes, keep the player count inside that game's limits.
  function syncPlayerLimits() {
    var game = document.getElementById("game");
    var players = document.getElementById("players");
    if (!game || !players || !game.dataset.limits) return;
    var limits = JSON.parse(game.dataset.limits)[game.value];
    if (!limits) return;
    players.min = limits[0];
    players.max = limits[1];
    var n = parseInt(players.value, 10);
    if (!(n >= limits[0])) players.value = limits[0];
    else if (n > limits[1]) players.value = limits[1];
    syncNameSlots();
  }
  document.addEventListener("input", function (event) {
    if (event.target && event.target.id === "players") syncNameSlots();
  });
  document.addEventListener("change", function (event) {
    if (event.target && event.target.id === "game") syncPlayerLimits();
  });
  document.addEventListener("DOMContentLoaded", syncPlayerLimits);
})();
