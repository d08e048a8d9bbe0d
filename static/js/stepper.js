// −/+ buttons beside a number field, for one thumb: phones show no arrows on
// number inputs. Without this script the buttons stay hidden and the field
// still takes typed numbers. A step fires "input", which the live preview hears.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-step]");
  if (!button) return;
  const input = button.closest("[data-stepper]").querySelector("input");
  if (button.dataset.step === "up") input.stepUp(); else input.stepDown();
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
});

for (const button of document.querySelectorAll("[data-stepper] [data-step]")) {
  button.hidden = false;
}
