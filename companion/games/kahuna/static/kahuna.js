// Kahuna's board: what htmx does not cover. The page works without this file: each site's line
// is an ordinary link then, and the last play's highlight shows on every load.
(function () {
  "use strict";
  if (window.kahunaBoard) return;
  window.kahunaBoard = true;

  // With this script a tap anywhere on the board is sent as its place, so the lines themselves
  // take none (kahuna.css, .k-js): else the browser would move a finger's tap near one onto it.
  document.documentElement.classList.add("k-js");

  // A tap on the board goes to the site whose line is nearest: the server finds it
  // (drawing.site_at) from the tap's place in board units, added to the board's data-tap
  // address. A site's link carries no hx-get of its own: the request goes through htmx as hx-get
  // would send the link (the target, swap and push-url a link inherits), and the browser's own
  // navigation is cancelled. A key's click (Enter on a focused site) is that site's own link.
  document.addEventListener("click", function (event) {
    var board = event.target.closest && event.target.closest("svg.k-board[data-tap]"), link, p;
    if (!board || !window.htmx || event.ctrlKey || event.metaKey || event.shiftKey) return;
    link = event.target.closest("a") || board.querySelector("a");
    p = new DOMPoint(event.clientX, event.clientY).matrixTransform(board.getScreenCTM().inverse());
    event.preventDefault();
    window.htmx.ajax("GET", event.detail ? board.dataset.tap + Math.round(p.x) + "," + Math.round(p.y)
      : link.getAttribute("href"), { source: link });
  }, true);

  // The highlight of the last play runs once per device: the live region is swapped whenever
  // anything changes (a note, a drawn card), and the same play should not flash again.
  function settle() {
    document.querySelectorAll("svg.k-board[data-key]").forEach(function (board) {
      var play = board.dataset.play, key = board.dataset.key;
      if (!play || !key) return;
      try {
        if (sessionStorage.getItem(key) === play) board.classList.add("seen");
        else sessionStorage.setItem(key, play);
      } catch (e) { /* private mode: flash again */ }
    });
  }
  function fromPoll(event) {
    var elt = event.detail && event.detail.elt;
    return !!(elt && elt.classList && elt.classList.contains("poller"));
  }
  // The site of the card question open now, or null.
  function openSite() {
    var sheet = document.getElementById("k-sheet");
    return sheet && sheet.getAttribute("data-site");
  }
  // The card question opens at the bottom of the screen: move the focus there (for keyboards and
  // screen readers) without scrolling the board away.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (fromPoll(event)) return;  // news from the table must not pull the focus away
    var title = document.getElementById("k-sheet-title");
    if (title) title.focus({ preventScroll: true });
    // A site tapped low on the screen would sit under the question: scroll it up into view.
    var sheet = document.getElementById("k-sheet");
    var site = document.querySelector("svg.k-board .k-site.selected");
    if (sheet && site) {
      var hidden = site.getBoundingClientRect().bottom - sheet.getBoundingClientRect().top + 16;
      if (hidden > 0) window.scrollBy(0, hidden);
    }
  });

  // The card question is opened by ?site=... in the tap's address, but the table's poll asks
  // for the live region without it: while a question is open, the poll carries its site too,
  // so news from the other phone updates the question instead of closing it.
  document.addEventListener("htmx:configRequest", function (event) {
    if (fromPoll(event) && openSite()) event.detail.parameters.site = openSite();
  });
  // The region a push message brings is rendered without the open question's site: while one
  // is open, the page fetches instead (its poll, with the site).
  document.addEventListener("companion:streamregion", function (event) {
    if (openSite()) event.preventDefault();
  });

  // afterSwap runs before the browser paints the new content, so a seen play never flashes.
  document.addEventListener("htmx:afterSwap", settle);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", settle);
  else settle();
})();
