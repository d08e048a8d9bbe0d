// "Another phone saved hand 7: is that the hand you are entering?" One question, wherever the phone
// learns it: over a hand form left open, when the live stream says it first (live_form.js), and
// over the board, when the server says it of a Save that arrived second (pending.js). The server
// draws it (partials/next_hand.html, [data-asks]): the hand the other phone saved with its
// payments, and two choices, "That's the hand I'm entering" (data-choice="same") and "I'm entering
// the next hand" (data-choice="next"). Nothing behind it moves until the player answers.
//
// A tap already on its way as the question opens must not answer it: the choices are disabled for
// a moment, and shown so, then enabled.
export const SETTLE_MS = 600;

function hold(choices) {
  for (const choice of choices) {
    if (choice.tagName === "BUTTON") choice.disabled = true;
    else choice.setAttribute("aria-disabled", "true");
  }
  window.setTimeout(() => {
    for (const choice of choices) {
      choice.disabled = false;
      choice.removeAttribute("aria-disabled");
    }
  }, SETTLE_MS);
}

export function ask(dialog, body, answered) {
  // ``answered(choice, event)`` hears the player's answer; a link's default goes on unless prevented
  const opening = !dialog.open;
  dialog.replaceChildren(document.importNode(body, true));
  const heading = dialog.querySelector("[data-question-title]");
  if (heading) {
    heading.id = `${dialog.id}-title`;
    dialog.setAttribute("aria-labelledby", heading.id);
  }
  const choices = [...dialog.querySelectorAll("[data-choice]")];
  dialog.onclick = (event) => {
    const choice = event.target.closest("[data-choice]");
    if (!choice) return;
    if (choice.getAttribute("aria-disabled") === "true" || choice.disabled) {
      event.preventDefault();
      return;
    }
    answered(choice.dataset.choice, event);
  };
  // Escape is not an answer: the form would stay on a number another hand has now
  dialog.oncancel = (event) => event.preventDefault();
  if (!opening) return;
  hold(choices);
  dialog.showModal();
  // the safe answer first, for a keyboard and a screen reader: it leaves nothing saved
  const first = dialog.querySelector("[data-choice='same']");
  if (first) first.focus();
}

export function close(dialog) {
  if (dialog.open) dialog.close();
}

export function body(html) {
  // the question in a fragment the server drew, or null when it asks nothing
  return new DOMParser().parseFromString(html, "text/html").querySelector("[data-asks]");
}
