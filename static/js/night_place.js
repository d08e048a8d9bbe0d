// "Where do I sit next": on a club night's tables and the group page, this phone's player sees
// their table and seat in the latest round ("Round 3: table 2, seat 4") with the way to that
// table's scoreboard, or that they sit the round out.
//
// The page carries everyone's place (templates/partials/night_places.html); this shows the line
// of the name chosen under "This phone is me" on a scoreboard, which stays on this phone
// (static/js/me.js keeps it) and is never sent. On the board of the table itself the line says
// so instead of offering the way there. Without JavaScript the fold with everyone's place is
// still there.
import { chosenIn } from "./me.js";

function show() {
  for (const card of document.querySelectorAll("[data-night-places]")) {
    const me = chosenIn(card.dataset.nightPlaces);
    const board = card.closest("[data-night-board]");
    const here = board ? board.dataset.nightBoard : "";
    let found = false;
    for (const line of card.querySelectorAll("[data-place-of]")) {
      const mine = me !== "" && line.dataset.placeOf === me;
      line.hidden = !mine;
      if (!mine) continue;
      found = true;
      const atThisTable = here !== "" && line.dataset.placeSession === here;
      for (const said of line.querySelectorAll("[data-place-here]")) said.hidden = !atThisTable;
      for (const way of line.querySelectorAll("[data-place-go]")) way.hidden = atThisTable;
    }
    const none = card.querySelector("[data-place-none]");
    if (none) none.hidden = me === "" || found;
    const unknown = card.querySelector("[data-place-unknown]");
    if (unknown) unknown.hidden = me !== "";
  }
}

// the places come after the page (htmx), and again after each change; the group page's live
// regions are swapped by static/js/live.js
document.addEventListener("htmx:afterSwap", show);
document.addEventListener("live:updated", show);
// a name chosen on this board (static/js/me.js keeps it first, in its own click handler)
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-me-seat], [data-me-clear]")) window.setTimeout(show, 0);
});
// chosen in another tab of this phone
window.addEventListener("storage", show);
show();
