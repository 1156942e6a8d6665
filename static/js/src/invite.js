// invite.js: the invitation, closed once every seat is taken and gone once the game is over.
// Shared state: none (freeBefore is this file's).

// ---- the invitation: closed once every seat is taken, gone once the game is over ---------
// (It sits outside the live region: the region's data says how many seats are free.)
var freeBefore = null;
function syncInvite() {
  var region = live();
  var invite = byId("invite");
  if (!region || !invite || !region.dataset.seatsFree) return;
  var free = parseInt(region.dataset.seatsFree, 10);
  if (free === 0 && freeBefore > 0) invite.open = false;
  freeBefore = free;
  if (region.dataset.over === "yes") {
    invite.hidden = true;
    var item = byId("menu-invite");
    if (item) item.hidden = true;
  }
}
document.addEventListener("htmx:afterSettle", syncInvite);
document.addEventListener("DOMContentLoaded", syncInvite);
