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
