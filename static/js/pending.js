// What waits in the outbox, shown where it lands, at once, until the server has it:
//
// - a new hand, a deal miss or an all-pass: a row at the end of the scoreboard, drawn from the
//   server's own row (partials/scoreboard_row.html, handed to the page as <template id="waiting-row">);
//   once the server numbered it, the row says so until the board's own row for it is in;
// - a contract recorded: the hand in progress at the top of the board, with "Enter the result" and
//   "Throw in"; the result of the hand in progress, or its throw-in: marked on it;
// - a correction, a delete, a restore: marked on the hand's row (a delete with "Restore");
// - a payment marked paid, or undone: on the settlement's payments card.
// An entry the server refused stays at the end of the board with the server's words and what the
// player can do with it: Fix (its form again with its taps, a payment's amount) and Discard. A hand
// another phone saved first is asked about, with the same question a form left open asks
// (question.js): the same hand is discarded, another is sent again as the next.
import * as flow from "./flow.js";
import {
  button, copy, describe, discardButton, element, followers, mark, markWords, place, queueHere, say, words,
} from "./marks.js";
import { isDeal, nextAfter, shownNext, touchesAHand } from "./next_deal.js";
import * as outbox from "./outbox.js";
import { beyondOwed, fixPayment, showPayments } from "./pending_payments.js";
import * as question from "./question.js";
import * as stores from "./stores.js";

const status = document.getElementById("app-status");
const LANDED_MS = 10000; // a numbered row waits this long at most for the board's own
const landed = new Map(); // key → {entry, number, at}: sent, numbered, not on the board yet

// --- the coming hand ----------------------------------------------------------------------------

function showNext(all) {
  // the scoreboard's "Next: Ann deals, Bo bids first. Sitting out: Cy." after what waits here (a
  // hand form's own #next-hand is live_form.js's); its data-next-* too, which me.js reads
  const card = document.getElementById("board-rows") && document.querySelector("#next-hand[data-next-dealer]");
  // nothing of that waiting any more (sent, or taken back): the server's own, as drawn
  const next = card && (nextAfter(all, place.session) || shownNext());
  if (!next) return;
  const shown = JSON.parse(card.dataset.nextOut || "[]");
  const named = card.querySelectorAll("p strong");
  if (named[0]) named[0].textContent = next.dealer;
  if (named[1]) named[1].textContent = next.first_bidder;
  showSittingOut(named[0] && named[0].closest("p"), shown, next.sitting_out);
  card.dataset.nextDealer = next.dealer;
  card.dataset.nextOut = JSON.stringify(next.sitting_out);
  showDeclarerPicks(card, next.sitting_out);
}

function showSittingOut(line, shown, out) {
  // "Sitting out: Cy." ends the line, after the translated sentence: its names are the last ones there
  const text = line && line.lastChild;
  const names = shown.join(", ");
  if (!text || text.nodeType !== Node.TEXT_NODE || !names) return;
  const at = text.data.lastIndexOf(names);
  if (at >= 0) text.data = text.data.slice(0, at) + out.join(", ") + text.data.slice(at + names.length);
}

function showDeclarerPicks(card, sittingOut) {
  // "who won the bid?": one button per seat dealt in; the server drew them for its own next hand
  const picks = card.querySelector(".declarer-start .picks");
  const model = picks && picks.querySelector("a");
  const table = flow.session();
  if (!model || !table) return;
  picks.replaceChildren(...table.seats.filter((seat) => !sittingOut.includes(seat)).map((seat) => {
    const pick = model.cloneNode(true);
    const url = new URL(model.href, window.location.href);
    url.searchParams.set("declarer", seat);
    pick.href = url.pathname + url.search;
    pick.textContent = seat;
    return pick;
  }));
}

// --- what the player can do with an entry the server did not take -------------------------------

function fix(entry) {
  // where the refused action is made again: its form with its taps (a hand's, a deal miss's), the
  // payments card with its amount; a delete, restore, throw-in or undo is made again on its page
  if (entry.fields || entry.kind === "event") {
    window.location.assign(`${entry.formUrl}#fix=${entry.id}`);
  } else if (entry.kind === "payment") {
    if (document.getElementById("payments")) fixPayment(entry);
    else window.location.assign(`${place.payments}#fix=${entry.id}`);
  } else {
    outbox.discard(entry.id).then(() => window.location.assign(entry.page || place.board));
  }
}

function askedAbout(entry) {
  // a hand another phone saved first, which the server asks about: the question can be drawn
  return entry.kind === "hand" && entry.state === "conflict" && entry.questionUrl && entry.current && entry.nextNumber;
}

function noteOf(entry, note, blocked) {
  // what the player can do about it: nothing but wait, or answer, Fix (Open), Copy and Discard
  if (!outbox.stopped(entry)) {
    note.append(element("span", "muted", blocked ? say.sayBlocked : say.sayPendingNote));
    return;
  }
  note.appendChild(element("p", "problem", entry.message)).dataset.testid = "refused-message";
  if (askedAbout(entry)) {
    note.append(button(say.sayAnswer, () => ask(entry), "answer-question"));
  } else if (entry.state === "conflict" && entry.kind === "edit") {
    // the hand's edit page with these taps and the old version: the server shows both sides
    note.append(button(say.sayOpen, () => window.location.assign(`${entry.formUrl}#conflict=${entry.id}`), "open-conflict"));
  } else {
    note.append(button(say.sayFix, () => fix(entry), "fix-refused"));
  }
  if (entry.state === "conflict" && entry.kind === "hand" && entry.nextNumber && !askedAbout(entry)) {
    note.append(button(say.saySaveNext, () => saveAsNext(entry), "save-as-next"));
  }
  note.append(button(say.sayCopy, () => copy(entry, note)), discardButton(entry));
}

function saveAsNext(entry) {
  // the player says theirs is another hand: only its number is checked now
  return outbox.again(entry, () => {
    entry.meant = entry.nextNumber;
    delete entry.seen;
  });
}

// --- the question, over the board ----------------------------------------------------------------

const dialog = document.getElementById("board-question");
let askedNow = null; // the entry the open question is about

async function ask(entry) {
  if (!dialog || askedNow === entry.id) return;
  askedNow = entry.id;
  const url = new URL(entry.questionUrl, window.location.href);
  url.searchParams.set("shown", entry.meant || "");
  url.searchParams.set("hand", entry.current.number);
  try {
    const response = await fetch(url.pathname + url.search, { cache: "no-store", credentials: "same-origin" });
    const body = response.ok ? question.body(await response.text()) : null;
    if (!body) throw new Error("nothing to ask");
    question.ask(dialog, body, (choice, event) => {
      event.preventDefault(); // "the same hand" links to the board: this is it
      question.close(dialog);
      askedNow = null;
      if (choice === "next") saveAsNext(entry); else outbox.discard(entry.id);
    });
  } catch {
    askedNow = null; // the row keeps its words and its buttons: the player answers there
  }
}

// --- rows at the end of the board -----------------------------------------------------------------

function pendingRow(template, entry, blocked) {
  // the server's row with its slots filled: who and what, the mark, and the note across the seats
  const row = template.content.firstElementChild.cloneNode(true);
  const slot = (name) => row.querySelector(`[data-slot='${name}']`);
  row.classList.add(entry.state);
  row.dataset.testid = isDeal(entry) ? "pending-hand" : "pending-action";
  row.dataset.state = entry.state;
  row.dataset.kind = entry.kind;
  row.dataset.key = entry.key;
  // the board's row it becomes, to take it away the moment that row comes in (dropLanded)
  const number = entry.state === "saved" ? entry.number : entry.kind === "hand" && entry.meant;
  if (number) row.dataset.landsAs = number;
  if (entry.kind === "hand") {
    row.dataset.declarer = entry.summary.declarer;
    slot("declarer").textContent = entry.summary.declarer;
    slot("contract").textContent = entry.summary.contract;
  } else {
    slot("declarer").remove();
    slot("contract").textContent = describe(entry);
  }
  if (entry.state === "saved") {
    slot("mark").textContent = words(say.saySavedAs, { numbers: entry.number });
    slot("note").remove();
    return row;
  }
  slot("mark").textContent = markWords(entry);
  noteOf(entry, slot("note"), blocked);
  return row;
}

function stillLanding() {
  // numbered by the server, and not on the board yet: shown as saved until the board's row comes
  const now = Date.now();
  const rows = [];
  for (const [key, seen] of landed) {
    if (ownRowShown(seen.number, null) || now - seen.at > LANDED_MS) landed.delete(key);
    else rows.push({ ...seen.entry, state: "saved", number: seen.number });
  }
  return rows;
}

function ownRowShown(number, declarer) {
  // the board's own row for a hand waiting here: once the server numbered it (declarer null), the
  // row with that number. Before, a hand the server stored before its answer reached this phone (the
  // answer was lost, or is on its way) is on a board drawn since at the number it meant, by the same
  // declarer, and the outbox confirms it with its key. Were it another phone's hand with the same
  // declarer, the server asks, and it shows again
  const row = number && document.getElementById(`hand-${number}`);
  if (!row || declarer === null) return Boolean(row);
  const who = row.querySelector(".who");
  return Boolean(who && who.title === declarer);
}

function onTheBoard(entry) {
  return entry.kind === "hand" && ownRowShown(entry.meant, entry.summary.declarer);
}

function dropLanded() {
  // the board's own row for one waiting here came in (a live step, a swap): the waiting row goes in
  // the same moment, not once the outbox is read again, so that the hand never shows twice
  for (const row of document.querySelectorAll("#outbox-rows tr[data-lands-as]")) {
    if (ownRowShown(row.dataset.landsAs, row.dataset.state === "saved" ? null : row.dataset.declarer)) row.remove();
  }
}

function showLanding() {
  // the rows a Save drew over this board a moment ago, on the page it was made on (saves.js): shown
  // again as the board loads, before the outbox is read, so that the hand does not blink out
  const landing = stores.read(stores.LANDING_ROWS, null, "sessionStorage");
  stores.write(stores.LANDING_ROWS, null, "sessionStorage");
  const rows = document.getElementById("board-rows");
  if (!landing || !rows || landing.board !== window.location.pathname || Date.now() - landing.at > LANDED_MS) return;
  rows.insertAdjacentHTML("afterend", landing.rows);
}

function showRows(mine) {
  const rows = document.getElementById("board-rows");
  const template = document.getElementById("waiting-row");
  if (!rows || !template) return;
  let outboxRows = document.getElementById("outbox-rows");
  if (!outboxRows) {
    outboxRows = element("tbody");
    outboxRows.id = "outbox-rows";
    rows.insertAdjacentElement("afterend", outboxRows);
  }
  let blocked = false;
  const shown = stillLanding().map((entry) => pendingRow(template, entry, false));
  for (const entry of mine) {
    const stopped = outbox.stopped(entry);
    if ((isDeal(entry) && !onTheBoard(entry)) || stopped) shown.push(pendingRow(template, entry, blocked && !stopped));
    blocked = blocked || stopped;
  }
  outboxRows.replaceChildren(...shown);
  const question = mine.find(askedAbout);
  if (question) ask(question);
}

// --- marks on the hands already on the board ------------------------------------------------------

function showMarks(mine) {
  document.querySelectorAll(".outbox-mark-holder").forEach((holder) => holder.remove());
  document.querySelectorAll("#board-rows tr[data-pending]").forEach((row) => { delete row.dataset.pending; });
  const last = new Map(); // hand number → the last waiting entry touching it
  for (const entry of mine) {
    if (touchesAHand(entry) && !outbox.stopped(entry)) last.set(entry.number, entry);
  }
  const changes = { edit: say.sayCorrection, delete: say.sayDeleted, restore: say.sayRestoredHand };
  for (const [number, entry] of last) {
    const row = document.getElementById(`hand-${number}`);
    const cell = row && row.querySelector(".what");
    if (!cell) continue;
    row.dataset.pending = entry.kind;
    const holder = cell.appendChild(element("span", "outbox-mark-holder"));
    holder.dataset.testid = `pending-${entry.kind}`;
    holder.append(" ", element("span", "pending-mark outbox-mark", `${changes[entry.kind]} · ${say.sayPending}`));
    if (entry.kind === "delete") {
      holder.append(button(say.sayRestore, () => {
        queueHere({ kind: "restore", number: entry.number, version: entry.version, after: entry.id });
      }, "restore-pending"));
    }
  }
}

// --- the hand in progress -------------------------------------------------------------------------

function contractLine(contract, all) {
  // a contract recorded on this phone: "Enter the result" and "Throw in", or what followed it
  const next = followers(all, contract)[0];
  const line = element("div", "card playing pending");
  line.dataset.testid = "pending-contract";
  line.appendChild(element("p", "playing-now", `${describe(contract)} `)).appendChild(mark(contract));
  if (next) {
    line.appendChild(element("p", "muted", next.kind === "abandon" ? say.sayThrownIn : say.sayResultEntered));
    return line;
  }
  const actions = line.appendChild(element("div", "actions"));
  const enter = actions.appendChild(element("a", "button primary", say.sayEnterResult));
  enter.href = `${contract.resultUrl}#after=${contract.id}`;
  enter.dataset.testid = "complete-pending";
  actions.appendChild(button(say.sayThrowIn, () => {
    queueHere({ kind: "abandon", after: contract.id });
  }, "abandon-pending"));
  return line;
}

function showInProgress(mine) {
  const section = document.getElementById("in-progress");
  if (!section) return;
  document.getElementById("outbox-in-progress")?.remove();
  const lines = mine.filter((entry) => entry.kind === "contract" && !outbox.stopped(entry))
    .map((contract) => contractLine(contract, mine));
  // the hand in progress the server knows, finished or thrown in on this phone
  const playing = section.dataset.playing;
  const done = playing && mine.find((entry) => !entry.after &&
    ((entry.kind === "hand" || entry.kind === "abandon") && String(entry.inProgress) === playing));
  if (done) {
    const note = element("p", "muted", `${done.kind === "abandon" ? say.sayThrownIn : say.sayResultEntered} `);
    note.dataset.testid = "pending-in-progress";
    note.appendChild(mark(done));
    lines.push(note);
    section.querySelectorAll(".actions").forEach((actions) => { actions.hidden = true; });
  }
  const start = document.querySelector("[data-testid='start-hand']");
  const open = lines.some((line) => line.querySelector("[data-testid='complete-pending']"));
  if (start) start.hidden = open;
  if (!lines.length) return;
  const box = element("div");
  box.id = "outbox-in-progress";
  box.append(...lines);
  section.insertAdjacentElement("beforebegin", box);
}

// --- what landed, said once --------------------------------------------------------------------------

function news(entry) {
  // a correction, a deletion (with its Undo) or a throw-in the server took, said where the pages say
  // what a form did (base.html's messages)
  const words = { edit: say.sayChangedDone, delete: say.sayDeletedDone, abandon: say.sayThrownInDone }[entry.kind];
  if (!words) return;
  const main = document.querySelector("main");
  const list = document.querySelector("main > ul.messages") ||
    main.insertAdjacentElement("afterbegin", element("ul", "messages"));
  list.setAttribute("aria-live", "polite");
  const line = list.appendChild(element("li", "message message-success", `${words.replace("{number}", entry.number)} `));
  if (entry.kind === "delete") {
    line.appendChild(button(say.sayUndo, () => {
      line.remove();
      queueHere({ kind: "restore", number: entry.number });
    }, "undo"));
  }
}

// --- all of it --------------------------------------------------------------------------------------

function show(all) {
  const mine = outbox.ofSession(all, place.session);
  showRows(mine);
  showMarks(mine);
  showInProgress(mine);
  showPayments(mine);
  showNext(all);
}

export function redraw() {
  return outbox.items().then(show, () => show([]));
}

if (status && place.session) {
  // the server numbered an entry of this session: its row stays, marked saved, until the board's
  // own row is in; the board (and the payments card) are asked for what changed at once
  document.addEventListener("outbox:landed", (event) => {
    const { entry, number } = event.detail;
    if (String(entry.session) !== String(place.session)) return;
    if (number && isDeal(entry)) landed.set(entry.key, { entry, number, at: Date.now() });
    news(entry);
    const card = document.getElementById("payments");
    if (card && window.htmx && (entry.kind === "payment" || entry.kind === "unpay")) {
      window.htmx.ajax("GET", place.payments, { target: card, swap: "outerHTML" });
    }
    document.dispatchEvent(new CustomEvent("live:refresh"));
    redraw();
  });
  document.addEventListener("outbox:stopped", (event) => {
    if (event.detail.entry.kind === "payment") beyondOwed(event.detail.entry);
  });
  for (const name of ["outbox:changed", "outbox:stopped"]) document.addEventListener(name, redraw);
  for (const name of ["live:updated", "htmx:afterSwap"]) {
    document.addEventListener(name, () => {
      dropLanded();
      redraw();
    });
  }
  showLanding();
  dropLanded();
  redraw();
}
