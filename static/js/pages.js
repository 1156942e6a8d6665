// Generated from static/js/src by scripts/bundle_js.py: edit the sources, then `make js`.
(function () {
  "use strict";

  // ==== home.js =================================================================================
  // home.js: the home page's form: as many name boxes as players within the game's limits, and
  // the host's time zone. In pages.js (the home page's own script), not app.js: it uses nothing
  // of app.js's files. Shared state: none.

  // ---- the home page: as many name boxes as players, within the game's limits --------------
  function syncNameSlots() {
    var players = document.getElementById("players");
    if (!players) return;
    var n = parseInt(players.value, 10) || 0;
    document.querySelectorAll(".name-slot").forEach(function (slot) {
      slot.hidden = parseInt(slot.dataset.slot, 10) > n;
    });
  }
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
    var zone = document.getElementById("timezone");
    try {
      if (zone && !zone.value) zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (e) { /* no Intl: the server's zone */ }
  });

  // ==== copy.js =================================================================================
  // copy.js: the Copy button of "Text to paste" and the set-up guide's Print button (each shown
  // only where a script runs). In pages.js, with home.js: only the pages that have them load it.
  // Shared state: none.

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
