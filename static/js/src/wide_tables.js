// wide_tables.js: a table wider than its frame scrolls inside it, with a line that says so.
// Shared state: none.

// ---- a table wider than its frame scrolls inside it, and says so ---------------------------
// (Its first column stays put: app.css, .score-wrap.scrolls.) Checked again whenever the page
// changes, a fold opens or the screen turns: a morph drops the line this adds.
function markWideTables() {
  var words = document.body && document.body.dataset.scrollHint;
  document.querySelectorAll(".score-wrap").forEach(function (wrap) {
    wrap.classList.remove("scrolls"); // measured as laid out without it (no flip-flop)
    var wide = wrap.clientWidth > 0 && wrap.scrollWidth > wrap.clientWidth + 1;
    var line = wrap.previousElementSibling;
    var said = !!line && line.classList.contains("scroll-hint");
    wrap.classList.toggle("scrolls", wide);
    if (wide && !said && words) {
      line = document.createElement("p");
      line.className = "scroll-hint";
      line.textContent = words;
      wrap.before(line);
    } else if (!wide && said) {
      line.remove();
    }
  });
}
document.addEventListener("DOMContentLoaded", markWideTables);
document.addEventListener("htmx:afterSettle", markWideTables);
document.addEventListener("toggle", markWideTables, true); // a <details> opened or closed
window.addEventListener("resize", markWideTables);
