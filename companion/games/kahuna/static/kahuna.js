// Kahuna's board: two small behaviours htmx does not cover. The page works without this file:
// each site is an ordinary link then, and the last play's highlight shows on every load.
(function () {
  "use strict";
  if (window.kahunaBoard) return;
  window.kahunaBoard = true;

  // A site's link carries no hx-get of its own (27 on every page and live update): a tap on one
  // is sent through htmx as hx-get would send it, its target, swap and push-url those its
  // element inherits, and the browser's own navigation is cancelled.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("svg.k-board a[href]");
    if (link && window.htmx && !(event.ctrlKey || event.metaKey || event.shiftKey)) {
      event.preventDefault();
      window.htmx.ajax("GET", link.getAttribute("href"), { source: link });
    }
  }, true);

  // The highlight of the last play runs once per device: the live region is swapped whenever
  // anything changes (a note, a drawn card), and the same play should not flash again.
  function settle(root) {
    var boards = (root || document).querySelectorAll("svg.k-board[data-key]");
    boards.forEach(function (board) {
      var play = board.getAttribute("data-play");
      var key = board.getAttribute("data-key");
      if (!play || !key) return;
      var seen = null;
      try { seen = sessionStorage.getItem(key); } catch (e) { return; }
      if (seen === play) {
        board.classList.add("seen");
      } else {
        try { sessionStorage.setItem(key, play); } catch (e) { /* private mode: flash again */ }
      }
    });
  }
  // The card question opens at the bottom of the screen: move the focus there (for keyboards and
  // screen readers) without scrolling the board away.
  function fromPoll(event) {
    var elt = event.detail && event.detail.elt;
    return !!(elt && elt.classList && elt.classList.contains("poller"));
  }
  function focusSheet(event) {
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
  }
  document.addEventListener("htmx:afterSettle", focusSheet);

  // The card question is opened by ?site=... in the tap's address, but the table's poll asks
  // for the live region without it: while a question is open, the poll carries its site too,
  // so news from the other phone updates the question instead of closing it.
  document.addEventListener("htmx:configRequest", function (event) {
    if (!fromPoll(event)) return;
    var sheet = document.getElementById("k-sheet");
    var site = sheet && sheet.getAttribute("data-site");
    if (site) event.detail.parameters["site"] = site;
  });
  // The region a push message brings is rendered without the open question's site: while one
  // is open, the page fetches instead (its poll, with the site).
  document.addEventListener("companion:streamregion", function (event) {
    var sheet = document.getElementById("k-sheet");
    if (sheet && sheet.getAttribute("data-site")) event.preventDefault();
  });

  // afterSwap runs before the browser paints the new content, so a seen play never flashes.
  document.addEventListener("htmx:afterSwap", function () { settle(document); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { settle(document); });
  } else {
    settle(document);
  }
})();
