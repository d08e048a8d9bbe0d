// What an entry waiting in the outbox looks like wherever it shows (pending.js, pending_payments.js):
// its words, its mark, and what the player can do with one the server did not take (Copy, Discard),
// in the words the page was drawn with (partials/app_status.html).
import * as outbox from "./outbox.js";

const status = document.getElementById("app-status");
export const say = status ? status.dataset : {};
export const place = outbox.here();

export function words(template, values) {
  return (template || "").replace(/\{(\w+)\}/g, (whole, name) => values[name]);
}

export function element(tag, className, content) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (content !== undefined && content !== null) made.textContent = content;
  return made;
}

export function button(label, act, testid) {
  const made = element("button", "link-button", label);
  made.type = "button";
  if (testid) made.dataset.testid = testid;
  made.addEventListener("click", act);
  return made;
}

export function followers(all, entry) {
  return all.filter((other) => other.after === entry.id);
}

export function describe(entry) {
  const number = entry.number ? `${words(say.sayHandNumber, { number: entry.number })} · ` : "";
  switch (entry.kind) {
    case "hand": return `${entry.summary.declarer || ""} ${entry.summary.contract || ""}`;
    case "event": return `${entry.eventKind === "all_pass" ? say.sayPass : say.sayMiss} · ${entry.entry.dealer || ""}`;
    case "contract": return `${entry.summary.declarer || ""} ${entry.summary.contract || ""} · ${say.sayPlaying}`;
    case "abandon": return say.sayThrownIn;
    case "edit": return number + say.sayCorrection;
    case "delete": return number + say.sayDeleted;
    case "restore": return number + say.sayRestoredHand;
    case "payment": return paymentWords(entry);
    case "unpay": return say.sayUnpaid;
    default: return entry.kind;
  }
}

export function paymentWords(entry) {
  const amount = entry.amountText || entry.entry.amount;
  return words(say.sayPaid, { payer: entry.entry.from, payee: entry.entry.to, amount });
}

export function markWords(entry) {
  if (entry.state === "refused") return say.sayRefusedNote;
  return entry.state === "conflict" ? say.sayConflictNote : say.sayPending;
}

export function mark(entry) {
  const made = element("span", "pending-mark outbox-mark", markWords(entry));
  made.dataset.testid = "pending-mark";
  return made;
}

export function copy(entry, note) {
  const body = entry.entry || Object.fromEntries(entry.fields || []);
  const box = note.querySelector("textarea") || note.appendChild(element("textarea", "copy-box"));
  box.readOnly = true;
  box.value = JSON.stringify(body, null, 2);
  box.select();
  const done = () => box.insertAdjacentElement("afterend", element("span", "muted", say.sayCopied));
  if (navigator.clipboard) navigator.clipboard.writeText(box.value).then(done, () => {});
}

export function discardButton(entry) {
  return button(say.sayDiscard, () => {
    if (window.confirm(entry.kind === "hand" ? say.sayDiscardConfirm : say.sayDiscardActionConfirm)) outbox.discard(entry.id);
  }, "discard-refused");
}

export function queueHere(entry) {
  return outbox.queue({ ...entry, session: place.session, token: place.token, api: place.api, board: place.board,
                        page: window.location.pathname });
}
