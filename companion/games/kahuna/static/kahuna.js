// Kahuna's board: what htmx does not cover. The page works without this file: each site's line
// is an ordinary link then, and the last play's highlight shows on every load.
(function () {
  "use strict";
  if (window.kahunaBoard) return;

  // A tap on the board goes to the site whose line is nearest (the first drawn of two as near),
  // if it is within 58 board units, and to none within 9 of an island's centre, where all its
  // sites are as near (drawing.site_at, TAP_REACH and ISLAND_CORE): the page carries the lines
  // alone, no tap areas. x, y: a point of the screen; the site's a.k-site (or g.k-site, not a
  // link), or null.
  function siteAt(board, x, y) {
    var p = new DOMPoint(x, y).matrixTransform(board.getScreenCTM().inverse());
    var v = board.viewBox.baseVal, sites = board.querySelectorAll(".k-site"), best = null, near = 58;
    x = p.x;
    y = p.y;
    if (x < 0 || y < 0 || x > v.width || y > v.height) return null;
    for (var s = 0; s < sites.length; s++) {
      // Its line ("M x y L x y", or "M x y Q x y x y": a straight one is a curve bent nowhere) as
      // 33 points along it, and the distance from the point to the pieces between them.
      var n = sites[s].querySelector("path").getAttribute("d").match(/-?[\d.]+/g).map(Number);
      if (n.length < 6) n.splice(2, 0, (n[0] + n[2]) / 2, (n[1] + n[3]) / 2);
      if (Math.hypot(x - n[0], y - n[1]) < 9 || Math.hypot(x - n[4], y - n[5]) < 9) return null;
      for (var i = 0, d = near, a = 0, b = 0; i <= 32; i++) {
        var t = i / 32, u = 1 - t, c = u * u * n[0] + 2 * u * t * n[2] + t * t * n[4],
          e = u * u * n[1] + 2 * u * t * n[3] + t * t * n[5], dx = c - a, dy = e - b;
        if (i) {
          t = Math.max(0, Math.min(1, ((x - a) * dx + (y - b) * dy) / (dx * dx + dy * dy)));
          d = Math.min(d, Math.hypot(a + t * dx - x, b + t * dy - y));
        }
        a = c;
        b = e;
      }
      if (d < near) {
        best = sites[s];
        near = d;
      }
    }
    return best;
  }
  window.kahunaBoard = siteAt;  // (the tests ask it too)

  // A site's link carries no hx-get of its own (27 on every page and live update): a tap is
  // sent through htmx as hx-get would send its site's link (the target, swap and push-url the
  // link inherits), and the browser's own navigation is cancelled. A key's click (Enter on a
  // focused site) is that site's.
  document.addEventListener("click", function (event) {
    var board = event.target.closest && event.target.closest("svg.k-board"), site;
    if (!board || !window.htmx || event.ctrlKey || event.metaKey || event.shiftKey) return;
    site = event.detail ? siteAt(board, event.clientX, event.clientY) : event.target.closest("a");
    event.preventDefault();
    if (site && site.hasAttribute("href")) {
      window.htmx.ajax("GET", site.getAttribute("href"), { source: site });
    }
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
