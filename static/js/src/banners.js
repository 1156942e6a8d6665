// banners.js: the banners at the bottom of the screen (no connection, a tap not sent yet, the
// table changed) never cover a control: the page gets room for them below its last line, and a
// control that sat where a banner appears is scrolled above it. Shared state: none. Gives
// nothing.
(function () {
  var banners = document.querySelector(".banners");
  if (!banners || !("ResizeObserver" in window)) return;
  var room = 0;
  new ResizeObserver(function () {
    var height = Math.ceil(banners.getBoundingClientRect().height);
    if (height === room) return;
    var grew = height > room;
    room = height;
    document.body.style.paddingBottom = height ? height + "px" : "";
    if (!grew || !height) return;
    // The control in use (or the turn's button) must stay above the banners.
    var active = document.activeElement;
    var control = active && active !== document.body ? active : document.querySelector("#live [data-turn-panel] button");
    if (!control) return;
    var box = control.getBoundingClientRect();
    var top = window.innerHeight - height;
    if (box.bottom > top && box.top < window.innerHeight) {
      window.scrollBy({ top: box.bottom - top + 8, behavior: "instant" });
    }
  }).observe(banners);
})();
