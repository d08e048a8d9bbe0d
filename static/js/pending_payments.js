// What waits in the outbox on the settlement's payments card: a payment marked paid, or undone, at
// once, until the server has it; one it refused, with its words, Fix (the amount) and Discard; one
// more than is owed, asked about by the card itself, as a Save of it once was.
import { button, discardButton, element, followers, mark, paymentWords, place, queueHere, say } from "./marks.js";
import * as outbox from "./outbox.js";

export function fixPayment(entry) {
  // the amount, to send again
  const line = document.querySelector(`[data-outbox-payment='${entry.id}']`);
  if (!line || line.querySelector("input")) return;
  const editor = line.appendChild(element("span", "actions"));
  const amount = editor.appendChild(element("input"));
  amount.type = "number";
  amount.min = "1";
  amount.value = entry.entry.amount;
  amount.setAttribute("aria-label", say.sayAmount);
  amount.dataset.testid = "fix-amount";
  editor.appendChild(button(say.saySendAgain, () => {
    if (!(Number(amount.value) > 0)) {
      amount.focus();
      return;
    }
    outbox.again(entry, () => { entry.entry = { ...entry.entry, amount: amount.value }; });
  }, "send-again"));
  amount.focus();
}

const asking = new Set(); // the refused payments this page has asked the card about

export function beyondOwed(entry) {
  // a payment more than is owed, or the wrong way round: the card asks, in its own words, as a Save
  // of it once did (pages/views/payments.py); the refused one goes, the card's answer is a new Save
  const card = document.getElementById("payments");
  if (!card || !window.htmx || asking.has(entry.id) ||
      !(entry.codes || []).some((code) => code === "overpayment" || code === "wrong_way")) return;
  asking.add(entry.id);
  const asked = new URLSearchParams({ payer: entry.entry.from, payee: entry.entry.to, amount: entry.entry.amount,
                                      drawn_after: entry.drawnAfter || "" });
  // the card is found when the answer is in, not when asked: a redraw for everyone may have put a new
  // one in its place meanwhile, and an answer swapped into the old one would be shown to nobody
  fetch(`${place.payments}?${asked}`, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
    .then((response) => (response.ok ? response.text() : Promise.reject(response.status)))
    .then((html) => {
      const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("payments");
      const shown = document.getElementById("payments");
      if (!fresh || !shown) return;
      const adopted = document.importNode(fresh, true);
      shown.replaceWith(adopted);
      window.htmx.process(adopted);
      outbox.discard(entry.id);
    })
    .catch(() => asking.delete(entry.id)); // asked again when the card is drawn again
}

function paymentLine(entry, all) {
  const line = element("li", "", `${paymentWords(entry)} `);
  line.dataset.outboxPayment = entry.id;
  line.appendChild(mark(entry));
  if (outbox.stopped(entry)) {
    // the server's reason, and what the player can do about it
    line.appendChild(element("p", "problem", entry.message)).dataset.testid = "refused-message";
    const actions = line.appendChild(element("span", "actions"));
    actions.append(button(say.sayFix, () => fixPayment(entry), "fix-refused"), discardButton(entry));
  } else if (followers(all, entry).length > 0) {
    line.appendChild(element("span", "muted", ` ${say.sayUnpaid}`));
  } else {
    line.appendChild(button(say.sayUndo, () => queueHere({ kind: "unpay", after: entry.id })));
  }
  return line;
}

export function showPayments(mine) {
  const card = document.getElementById("payments");
  document.getElementById("outbox-payments")?.remove();
  document.querySelectorAll(".outbox-mark-payment").forEach((old) => old.remove());
  if (!card) return;
  const list = element("ul", "payments pending");
  list.id = "outbox-payments";
  list.dataset.testid = "pending-payments";
  for (const entry of mine) {
    if (entry.kind === "payment") {
      if (outbox.stopped(entry)) beyondOwed(entry); // refused before this page was drawn, too
      list.appendChild(paymentLine(entry, mine));
    } else if (entry.kind === "unpay" && entry.payment) {
      const form = card.querySelector(`form[data-payment='${entry.payment}']`);
      const holder = form && form.closest("li");
      if (holder) {
        const note = holder.appendChild(element("span", "pending-mark outbox-mark-payment", `${say.sayUnpaid} · ${say.sayPending}`));
        note.dataset.testid = "pending-unpay";
        form.hidden = true;
      }
    }
  }
  if (list.children.length) card.appendChild(list);
  const fixing = Number(new URLSearchParams(window.location.hash.slice(1)).get("fix")); // the board's Fix
  const fixed = fixing && mine.find((entry) => entry.id === fixing && outbox.stopped(entry));
  if (fixed && fixed.kind === "payment") fixPayment(fixed);
}
