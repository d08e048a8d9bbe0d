// The next question stays in view. On a phone the hand form's Save bar is sticky at the
// bottom of the screen: after a tap that answers one row (the called card's rank, say), the
// row that still needs an answer can sit under the bar, and the player has to scroll to find
// it. This brings the next unanswered row up just above the bar; it only ever scrolls down,
// and never when the row is already in view. Without it the form works the same.
//
// On a short screen the bar waits at the end of the form until the player's first tap (app.css):
// on first load it would cover the rows still to answer, the last of them under Save itself.

const form = document.getElementById("hand-form");

function shown(row) {
  return row.getClientRects().length > 0 && getComputedStyle(row).visibility !== "hidden";
}

function answered(row) {
  const choices = row.querySelectorAll("input[type=radio], input[type=checkbox]");
  if (choices.length) return [...choices].some((input) => input.checked);
  const box = row.querySelector("input[type=number], input[type=text]");
  return !box || box.value !== "";
}

// the rows of the form, outermost only: the called card's suit tabs belong to its row
function rows() {
  return [...form.querySelectorAll("fieldset.field")].filter((row) => shown(row));
}

function nextUnanswered(after) {
  const all = rows();
  const from = all.indexOf(after);
  return all.slice(from + 1).find((row) => !answered(row));
}

function keepInView(row) {
  const bar = form.querySelector(".save-bar");
  const limit = bar ? bar.getBoundingClientRect().top : window.innerHeight;
  const box = row.getBoundingClientRect();
  const gap = 8;
  if (box.bottom + gap <= limit) return;
  // the whole row above the bar when it fits the screen, else its heading at the top
  const by = Math.min(box.bottom + gap - limit, box.top - gap);
  if (by <= 0) return;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  window.scrollBy({ top: by, behavior: still ? "auto" : "smooth" });
}

if (form) {
  // the player's first tap here: on a short screen the Save bar stays at the end of the form
  // until then (app.css), so on first load it covers none of the rows still to answer
  const tapped = (event) => {
    if (event.isTrusted) form.dataset.tapped = "";
  };
  form.addEventListener("input", tapped);
  form.addEventListener("change", tapped);

  // Save stays under the thumb as the preview lands: a bar resting above the screen's bottom edge
  // (the form's end in view) moves down by all the preview grew (some 110 px for the first
  // payments), and a tap begun on Save would end beside it, taken by nothing. While a thumb is
  // down on Save, the page scrolls by as much instead, in the same frame (at any other time the
  // rows above stay where they are, for the next tap on them)
  let pressed = false;
  let restedOver = null;
  const bar = form.querySelector(".save-bar");
  // where the bar would rest: below what stands before it (the preview, swapped whole)
  const aboveBar = () => bar.previousElementSibling.getBoundingClientRect().bottom;
  form.addEventListener("pointerdown", (event) => { pressed = Boolean(event.target.closest(".save-bar button")); });
  window.addEventListener("pointerup", () => { pressed = false; });
  window.addEventListener("pointercancel", () => { pressed = false; });
  form.addEventListener("htmx:beforeSwap", () => {
    const rests = pressed && bar && bar.getBoundingClientRect().bottom < window.innerHeight - 1;
    restedOver = rests ? aboveBar() : null;
  });
  form.addEventListener("htmx:afterSwap", () => {
    if (restedOver === null) return;
    const grew = aboveBar() - restedOver;
    restedOver = null;
    if (grew) window.scrollBy({ top: grew, behavior: "instant" });
  });

  form.addEventListener("change", (event) => {
    const row = event.target.closest("fieldset.field");
    if (!row || !shown(row)) return;
    // after the styles of :has() have shown the rows this answer opens (the rank after a suit)
    requestAnimationFrame(() => {
      const next = nextUnanswered(row);
      if (next) keepInView(next);
    });
  });
}
