// Serengeti: while a player types a bid, say before they send it whether it ends in a digit they
// own, is too low, or is more than their (private) chips. The server checks everything anyway.
(function () {
  "use strict";
  if (window.serengetiBidHint) return; // the panel is swapped in again on every change
  window.serengetiBidHint = true;

  function check(input) {
    var form = input.form;
    var out = form && form.querySelector(".sg-live");
    if (!out) return;
    var text = input.value.trim();
    out.textContent = "";
    out.className = "sg-live";
    if (!/^\d+$/.test(text)) return;
    var amount = parseInt(text, 10);
    var forbidden = (form.dataset.forbidden || "").split(",").filter(Boolean).map(Number);
    var least = parseInt(form.dataset.min, 10);
    var chips = parseInt(form.dataset.chips, 10);
    if (forbidden.indexOf(amount % 10) >= 0) {
      out.textContent = form.dataset.msgDigit.split("{d}").join(String(amount % 10));
      out.className = "sg-live sg-bad";
    } else if (amount < least) {
      out.textContent = form.dataset.msgLow;
      out.className = "sg-live sg-bad";
    } else if (amount > chips) {
      out.textContent = form.dataset.msgChips.split("{a}").join(String(amount));
      out.className = "sg-live sg-warn";
    }
  }

  document.addEventListener("input", function (event) {
    var input = event.target;
    if (input && input.id === "sg-amount") check(input);
  });
  // afterSettle, not afterSwap: htmx settles the "class" attribute of elements that keep their id
  // after the swap, which would wipe the warning's colour set any earlier.
  document.addEventListener("htmx:afterSettle", function () {
    var input = document.getElementById("sg-amount");
    if (input && input.value) check(input);
  });
})();

// The payout calculator: show only as many player rows as there are players.
(function () {
  "use strict";
  function syncSlots() {
    var players = document.getElementById("players");
    if (!players || !document.getElementById("payout-form")) return;
    var n = parseInt(players.value, 10) || 3;
    document.querySelectorAll(".calc-slot").forEach(function (slot) {
      slot.hidden = parseInt(slot.dataset.slot, 10) > Math.max(3, Math.min(5, n));
    });
  }
  document.addEventListener("input", function (event) {
    if (event.target && event.target.id === "players") syncSlots();
  });
  document.addEventListener("DOMContentLoaded", syncSlots);
})();
