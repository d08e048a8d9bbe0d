// A table wider than the phone scrolls sideways inside its box (.table-scroll): the line
// under it ("Swipe the table sideways…") shows only while the table is wider than its box,
// so a table that fits says nothing. The box is in the tab order (tabindex="0" in the page,
// so a keyboard can scroll it without this module) only while there is something to scroll.
// The shaded edges in app.css need no script.

function mark() {
  for (const box of document.querySelectorAll(".table-scroll")) {
    const fits = box.scrollWidth <= box.clientWidth + 1;
    if (box.hasAttribute("tabindex")) box.tabIndex = fits ? -1 : 0;
    const hint = box.nextElementSibling;
    if (hint && hint.hasAttribute("data-scroll-hint")) hint.hidden = fits;
  }
}

mark();
window.addEventListener("resize", mark);
// a folded table (the chart's figures) has no width until it is opened; htmx brings the charts later
document.addEventListener("toggle", mark, true);
document.addEventListener("htmx:afterSettle", mark);
