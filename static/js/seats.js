// Seats by tapping the players clockwise, as they sit round the table, instead of
// eight drop-downs. The drop-downs stay in the form (hidden) and are what it posts;
// without this script they are shown and filled one by one. Each tapped player shows
// their seat number, and the line under the names says how many more the system needs.

const seats = document.querySelector("[data-seats]");

if (seats) {
  const selects = [...seats.querySelectorAll(".seat-grid select")];
  const buttons = [...seats.querySelectorAll("[data-player]")];
  const count = seats.querySelector("[data-seats-count]");
  const needed = Number(seats.dataset.seatsNeeded) || 0;
  let order = selects.map((select) => select.value).filter(Boolean);

  // the page's own words, in its language: "Tap 1 more player." / "Tap 3 more players."
  const moreToTap = (missing) => {
    const words = missing === 1 ? seats.dataset.moreOne : seats.dataset.moreOther;
    return words.replace(/\d+/, String(missing));
  };

  const draw = () => {
    selects.forEach((select, index) => { select.value = order[index] || ""; });
    for (const button of buttons) {
      const seat = order.indexOf(button.dataset.player);
      button.setAttribute("aria-pressed", String(seat >= 0));
      button.querySelector("[data-seat-number]").textContent = seat >= 0 ? String(seat + 1) : "";
    }
    if (count && needed) {
      count.textContent = order.length < needed ? moreToTap(needed - order.length) : seats.dataset.allSeated;
    }
  };

  seats.addEventListener("click", (event) => {
    const button = event.target.closest("[data-player]");
    if (button) {
      const name = button.dataset.player;
      order = order.includes(name) ? order.filter((seated) => seated !== name) : [...order, name].slice(0, selects.length);
      draw();
    } else if (event.target.closest("[data-seats-clear]")) {
      order = [];
      draw();
    }
  });

  seats.classList.add("seats-tapped");
  for (const hidden of seats.querySelectorAll("[data-seat-taps], [data-seats-help], [data-seats-count]")) hidden.hidden = false;
  seats.querySelector("[data-seats-no-js]").hidden = true;
  draw();
}

// another system has other rules: draw the page again with its controls, keeping what was filled in
const sessionForm = document.getElementById("session-form");
if (sessionForm) {
  sessionForm.addEventListener("change", (event) => {
    if (event.target.name !== "preset") return;
    const form = sessionForm;
    const query = new URLSearchParams();
    for (const name of ["preset", "played_on", "title", "first_dealer"]) {
      if (form.elements[name] && form.elements[name].value) query.set(name, form.elements[name].value);
    }
    for (const select of form.querySelectorAll(".seat-grid select")) {
      if (select.value) query.set(select.name, select.value);
    }
    window.location.search = query.toString();
  });
}
