// Starting a club night: another system chosen has other rules, so the form is drawn again with
// that system's rule controls, keeping the players ticked and everything else filled in. It is the
// form's own "Show the rules of the system chosen" button, pressed for the player: without this
// script they press it themselves.
const form = document.getElementById("night-form");
const showRules = form ? form.querySelector("[data-show-rules]") : null;

if (showRules) {
  // the systems are radios in groups (partials/system_choice.html): any of them chosen
  form.addEventListener("change", (event) => {
    if (event.target.name === "preset") form.requestSubmit(showRules);
  });
}
