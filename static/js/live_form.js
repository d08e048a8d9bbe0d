// A hand form (or the contract's form, its first half) left open hears the table: when another
// phone saves a hand, edits or deletes one, or records the contract, the form learns it before
// the player taps Save. A correction of a saved hand left open only says that another phone
// changed that hand (Save then shows both side by side).
//
// A hand saved at the number this form enters is asked about, never followed: at a real table
// the player almost always meant that very hand. A dialog over the form (nothing on the form
// moves) shows it with its payments and two choices: "That's the hand I'm entering" goes to the
// board and drops this form's kept draft, nothing saved; "I'm entering the next hand" moves the
// form then, and only then: its hidden number, its title, and the dealer and who sits out while
// the player has not corrected them. The taps stay. The form's seen_hand_count never moves: the
// server asks again (partials/meanwhile_notice.html) about a hand equal to one saved since the
// form was opened, whatever was answered here.
//
// The session's event stream (live.js, told with regions "none") says only that something
// changed; the form then asks the server for the coming hand (GET hands/next/, the
// partials/next_hand.html fragment: the engine's table flow, and the words, never a second copy
// of them here). The question itself is question.js's, the same one the board asks.
import * as question from "./question.js";
import { draftName, write } from "./stores.js";

const form = document.getElementById("hand-form");
const following = Boolean(form && form.dataset.nextUrl);
const notice = document.getElementById("live-form-notice");
const dialog = document.getElementById("live-form-question");
const title = form && form.querySelector("[data-hand-title]");
const numberField = form && form.elements.number;
const inProgress = form && form.elements.in_progress;
let busy = false;
let contractChanged = false; // a contract was recorded, completed or thrown in since the last ask
let leaving = false; // saved: this phone's own hand is on its way, and the page with it
let again = false;
let playing = null; // the contract being played, as last heard (null: not asked yet)
let asked = null; // the answer the open question would move the form to
// the hand the form enters: its number field, else its title says it, else the form
let number = following && ((numberField && numberField.value) ||
  (title ? (title.textContent.match(/\d+/) || [""])[0] : (form.dataset.shownNumber || "")));

function checked(name) {
  return [...form.querySelectorAll(`input[name='${name}']`)].filter((input) => input.checked).map((input) => input.value);
}

function seating() {
  return { dealer: checked("dealer").join(), sittingOut: checked("sitting_out").sort().join() };
}

// what the server last gave for the dealer and who sits out: moved only while still as given
let given = following ? seating() : null;

function untouched() {
  const now = seating();
  return now.dealer === given.dealer && now.sittingOut === given.sittingOut;
}

function tick(name, values) {
  form.querySelectorAll(`input[name='${name}']`).forEach((input) => { input.checked = values.includes(input.value); });
}

function moveSeating(dealer, sittingOut) {
  const boxes = form.querySelectorAll("input[name='sitting_out']");
  const seatingMoved = boxes.length && checked("sitting_out").sort().join() !== sittingOut.slice().sort().join();
  if (seatingMoved) {
    tick("sitting_out", sittingOut);
    const names = form.querySelector("[data-sitting-out-names]");
    if (names) names.textContent = sittingOut.join(", ");
  }
  const dealerRadio = dealer && form.querySelector(`input[name='dealer'][value='${CSS.escape(dealer)}']`);
  // one event, as after one tap: hand_form.js redraws the dealer's line, the preview (htmx) and
  // the kept draft (drafts.js) follow
  if (dealerRadio && !dealerRadio.checked) {
    dealerRadio.checked = true;
    dealerRadio.dispatchEvent(new Event("input", { bubbles: true }));
  } else if (seatingMoved) {
    boxes[0].dispatchEvent(new Event("input", { bubbles: true }));
  }
  given = seating();
}

function say(text) {
  if (!notice || !text) return;
  notice.textContent = text;
  notice.hidden = false;
}

function lineOf(element) {
  return element ? element.textContent.replace(/\s+/g, " ").trim() : "";
}

// --- the question ------------------------------------------------------------------------------

function moveToNext(next) {
  number = next.number;
  if (numberField) numberField.value = next.number;
  if (form.dataset.shownNumber) form.dataset.shownNumber = next.number;
  if (title && next.title) title.replaceChildren(...next.title);
  // a hand in progress another phone completed: this form's hand is another, the table's next
  if (inProgress && inProgress.value && next.contractDone) inProgress.value = "";
  if (untouched()) moveSeating(next.dealer, next.sittingOut);
  say(next.moved);
}

function close() {
  question.close(dialog);
  asked = null;
}

function dropDraft() {
  // the taps drafts.js keeps for this form: answered "the same hand", they are done with, or they
  // would come back the next time the form opens
  write(draftName(form.getAttribute("action")), null);
}

function answer(choice) {
  if (choice === "same") {
    leaving = true;
    dropDraft();
    return; // the link goes to the board
  }
  const next = asked;
  close();
  if (choice === "next" && next) moveToNext(next);
  const focus = title || form.querySelector("input:not([type=hidden])");
  if (focus) {
    if (focus === title) title.tabIndex = -1;
    focus.focus({ preventScroll: true });
  }
}

function apply(next) {
  const data = next.dataset;
  const body = next.querySelector("[data-asks]");
  if ("editing" in data) { // a correction: its number and dealer are the hand's own; it is only told
    say(lineOf(next.querySelector("[data-notice]")));
    // its Save shows both versions side by side, to choose (drafts.js)
    if ("changed" in data) form.dataset.overtaken = "";
    return;
  }
  playing = data.playing || "";
  if (body && dialog) {
    const titleText = next.querySelector("[data-title]");
    asked = {
      number: data.number, dealer: data.dealer, sittingOut: JSON.parse(data.sittingOut || "[]"),
      title: titleText ? [...titleText.childNodes].map((node) => document.importNode(node, true)) : null,
      moved: lineOf(next.querySelector("[data-moved]")),
      contractDone: "contractDone" in data,
    };
    question.ask(dialog, body, answer);
    return;
  }
  if (dialog && dialog.open) close(); // the hand asked about was deleted meanwhile
  // the same number: an earlier hand changed, so the dealer may have
  if (data.number === number && untouched()) moveSeating(data.dealer, JSON.parse(data.sittingOut || "[]"));
  say(lineOf(next.querySelector("[data-notice]")));
}

function askServer(event) {
  const what = (event && event.detail && event.detail.what) || "";
  if (what === "contract_changed") contractChanged = true;
  if (leaving) return;
  if (busy) {
    again = true;
    return;
  }
  busy = true;
  const url = new URL(form.dataset.nextUrl, window.location.href);
  if (form.dataset.editing) {
    url.searchParams.set("editing", form.dataset.editing);
    url.searchParams.set("version", (form.elements.version && form.elements.version.value) || "");
  }
  url.searchParams.set("shown", number);
  url.searchParams.set("dealer", given.dealer);
  if (form.dataset.formKind) url.searchParams.set("form", form.dataset.formKind);
  if (inProgress && inProgress.value) url.searchParams.set("in_progress", inProgress.value);
  if (playing !== null) url.searchParams.set("playing", playing);
  if (contractChanged) url.searchParams.set("what", "contract_changed");
  contractChanged = false;
  fetch(url.pathname + url.search, { cache: "no-store", credentials: "same-origin" })
    .then((response) => {
      if (!response.ok) return null; // a restart, a deleted session: the next change asks again
      return response.text().then((html) => {
        const next = new DOMParser().parseFromString(html, "text/html").getElementById("next-hand");
        if (next && !leaving) apply(next);
      });
    })
    .catch(() => { /* offline: the outbox and drafts.js have the form; the next change asks */ })
    .then(() => {
      busy = false;
      if (again) {
        again = false;
        askServer();
      }
    });
}

if (following) {
  // this phone's own Save is on its way, and the page with it (saves.js): the stream's news of it
  // asks nothing; a Save held back (a field still empty) leaves the form as it was
  document.addEventListener("outbox:leaving", () => { leaving = true; });
  window.addEventListener("pageshow", (event) => { if (event.persisted) leaving = false; });
  document.addEventListener("live:changed", askServer);
}
