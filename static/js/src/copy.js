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
