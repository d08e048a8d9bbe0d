// What waits in the outbox, shown where it will land. Each action a player made offline
// appears on the page that shows what it changes, marked pending, until the server has it:
//
// - a new hand, a deal miss or an all-pass: a row at the end of the scoreboard, drawn from the
//   server's own row (partials/scoreboard_row.html, handed to the page as <template id="waiting-row">);
// - a contract recorded: the hand in progress at the top of the board, with "Enter the result"
//   (the hand form, #after-<id>, whose hand completes this contract) and "Throw in";
// - the result of the hand in progress, or its throw-in: marked on the hand in progress;
// - a correction, a delete, a restore: marked on the hand's row (a delete with "Restore");
// - a payment marked paid, or undone: on the settlement's payments card.
// An entry the server refused, or a correction another phone overtook ("conflict"), stays at
// the end of the board with the server's words and what the player can do with it: Fix (its
// form again with its taps, a payment's amount, or the page where a delete or a throw-in is made
// again) and Discard; a payment also on the payments card.
//
// The next hand: a kept board knows it as the server said it before the deals waiting here.
// `nextAfter` steps the table's flow rule (flow.js, the engine's rule as data, in the page's
// "flow-rule" block) through each of them in order, carrying who opened and who sat out each
// one into the next; the board and the forms ask it, and only it. A delete or correction of the
// latest hand waiting here starts it from the coming hand as it stood before that hand (the
// page's "latest-hand" block).
import * as flow from "./flow.js";
import * as outbox from "./outbox.js";

const status = document.getElementById("app-status");
const say = status ? status.dataset : {};
const PAGE = /^\/g\/([^/]+)\/s\/(\d+)\//.exec(window.location.pathname);
const session = PAGE ? PAGE[2] : null;
const base = PAGE ? PAGE[0] : "";
const TOUCHES_A_HAND = new Set(["edit", "delete", "restore"]);
const DEALS = new Set(["hand", "event"]); // what moves the deal to the next seat

function words(template, values) {
  return (template || "").replace(/\{(\w+)\}/g, (whole, name) => values[name]);
}

function element(tag, className, content) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (content !== undefined && content !== null) made.textContent = content;
  return made;
}

function button(label, act, testid) {
  const made = element("button", "link-button", label);
  made.type = "button";
  if (testid) made.dataset.testid = testid;
  made.addEventListener("click", act);
  return made;
}

export function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

function changed() {
  document.dispatchEvent(new CustomEvent("outbox:changed"));
  if (navigator.serviceWorker && navigator.serviceWorker.controller) {
    navigator.serviceWorker.ready.then((registration) => {
      // Background Sync: the browser sends the outbox when the network is back, page open or not
      if (registration.sync) return registration.sync.register("outbox");
    }).catch(() => {});
  }
}

export async function queue(item) {
  // an action made from this page: into the outbox, behind everything waiting before it
  item.key = item.key || newKey();
  const id = await outbox.add(item);
  changed();
  return id;
}

function ofSession(items, which) {
  return items.filter((item) => item.session === which);
}

export async function lastTouching(which, number) {
  // the entry still waiting that last touched hand `number`: a new one follows it, at its version
  const items = await outbox.items();
  return ofSession(items, String(which)).filter((item) => TOUCHES_A_HAND.has(item.kind) && item.number === Number(number))
    .pop() || null;
}

function followers(items, item) {
  return items.filter((other) => other.after === item.id);
}

// --- the next dealer ------------------------------------------------------------------------

function taps(item, name) {
  return (item.fields || []).filter((pair) => pair[0] === name).map((pair) => pair[1]);
}

function summary(item, table, before) {
  // the deal waiting here in the shape flow.js takes (what `python -m scoring next` takes), with
  // who opened it and who sat it out as the step before decided: a throw-in's redeal is opened by
  // whoever opened it, with the same players out (reads.next_state carries them the same way)
  const seated = (seat) => table.seats.includes(seat);
  const opener = before ? before.first_bidder : null;
  const out = (before && before.sitting_out) || [];
  if (item.kind === "event") {
    const entry = item.entry;
    const event = { kind: entry.kind || item.eventKind, dealer: entry.dealer || table.first_dealer,
                    first_bidder: opener, sitting_out: out };
    // the server's: who showed the hand, or the dealer when nobody is named
    if (event.kind === "deal_miss") event.demander = entry.shown_by || event.dealer;
    return event;
  }
  const sittingOut = taps(item, "sitting_out");
  return {
    kind: "scored",
    dealer: taps(item, "dealer")[0] || table.first_dealer,
    declarer: taps(item, "declarer")[0],
    partners: taps(item, "partners").filter(seated),
    sitting_out: sittingOut.length ? sittingOut : out,
    first_bidder: opener,
    joker_holder: taps(item, "joker_holder").filter(seated)[0] || null,
  };
}

function shownNext() {
  // the coming hand as the server said it when the page was drawn, before the deals waiting here:
  // the scoreboard's next-hand card (its first values, kept while this module rewrites it), or
  // a form's dealer and seating as the server ticked them (not a draft's); null where neither is
  const card = document.querySelector("#next-hand[data-next-dealer]");
  if (card) {
    if (!card.dataset.serverNext) {
      const named = card.querySelectorAll("p strong"); // "Next: <strong>Ann</strong> deals, <strong>Bo</strong> bids first."
      card.dataset.serverNext = JSON.stringify({
        dealer: card.dataset.nextDealer, first_bidder: named[1] ? named[1].textContent.trim() : null,
        sitting_out: JSON.parse(card.dataset.nextOut || "[]"),
      });
    }
    return JSON.parse(card.dataset.serverNext);
  }
  if (!document.querySelector("input[name='dealer']")) return null;
  const ticked = (name) => [...document.querySelectorAll(`input[name='${name}']`)]
    .filter((input) => input.defaultChecked).map((input) => input.value);
  return { dealer: ticked("dealer")[0] || null, first_bidder: null, sitting_out: ticked("sitting_out") };
}

export function dealsWaiting(which, items) {
  // the hands, deal misses and all-passes of the session still to be sent, in order: the server
  // numbers them so, and deals the next hand after the last of them
  return ofSession(items, String(which)).filter((item) => DEALS.has(item.kind) && !outbox.stopped(item));
}

function latestHand() {
  // the latest live hand as the page was drawn, with the coming hand as it stood before it
  // (partials/latest_hand.html): what a delete or a correction of that hand goes back to
  const block = document.getElementById("latest-hand");
  try { return block ? JSON.parse(block.textContent) : null; } catch { return null; }
}

function latestChange(which, items, latest) {
  // the last delete, restore or correction of the latest hand still waiting here: its final word
  if (!latest) return null;
  return ofSession(items, String(which)).filter((item) => {
    return TOUCHES_A_HAND.has(item.kind) && item.number === latest.number && !outbox.stopped(item);
  }).pop() || null;
}

export function nextAfter(which, items) {
  // who deals, bids first and sits out after what waits on this phone, as the server will say
  // once it has it: from what the page was drawn with, or from the coming hand as it stood
  // before the latest hand when a delete or correction of that hand waits (the correction
  // stepped again), then each deal waiting stepped in order. null when nothing of that waits,
  // the page carries no flow rule, or a step needs what only the server can tell (whether the
  // hand was made): then the page's own answer stands
  const drawn = shownNext(); // read first: the board keeps the server's values before rewriting them
  const table = flow.session(); // the page's flow-rule block: {rule, seats, first_dealer}
  const deals = dealsWaiting(which, items);
  const latest = latestHand();
  let change = latestChange(which, items, latest);
  if (change && change.kind === "restore") change = null; // the hand stands as the page says
  if ((!deals.length && !change) || !table || !table.rule) return null;
  let state = change ? latest.before : drawn;
  const step = (item) => {
    if (!state) return;
    try {
      state = flow.next(table.rule, table.seats, summary(item, table, state), table.first_dealer);
    } catch {
      state = null; // a deal the engine would refuse, or a result the phone cannot know: the server will say
    }
  };
  if (change && change.kind === "edit") {
    // a corrected hand (the hand form's taps) or deal miss or all-pass (its entry)
    step(change.fields ? change : { kind: "event", eventKind: latest.kind, entry: change.entry });
  }
  deals.forEach(step);
  return state;
}

function showNext(items) {
  // the scoreboard's "Next: Ann deals, Bo bids first. Sitting out: Cy." (a hand form's own
  // #next-hand is live_form.js's); its data-next-* too, which me.js reads
  const card = document.getElementById("board-rows") && document.querySelector("#next-hand[data-next-dealer]");
  // nothing of that waiting any more (sent, or taken back): the server's own, as drawn
  const next = card && (nextAfter(session, items) || shownNext());
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
  // "Sitting out: Cy." ends the line, after the translated sentence: its names are the last
  // ones shown there (a system where someone sits out names them before every hand)
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

// --- rows at the end of the board ------------------------------------------------------------

function describe(item) {
  const number = item.number ? `${words(say.sayHandNumber, { number: item.number })} · ` : "";
  switch (item.kind) {
    case "hand": return `${item.summary.declarer || ""} ${item.summary.contract || ""}`;
    case "event": return `${item.eventKind === "all_pass" ? say.sayPass : say.sayMiss} · ${item.entry.dealer || ""}`;
    case "contract": return `${item.summary.declarer || ""} ${item.summary.contract || ""} · ${say.sayPlaying}`;
    case "abandon": return say.sayThrownIn;
    case "edit": return number + say.sayCorrection;
    case "delete": return number + say.sayDeleted;
    case "restore": return number + say.sayRestoredHand;
    case "payment": return paymentWords(item);
    case "unpay": return say.sayUnpaid;
    default: return item.kind;
  }
}

function paymentWords(item) {
  return words(say.sayPaid, { payer: item.entry.from, payee: item.entry.to, amount: item.entry.amount });
}

function markWords(item) {
  if (item.state === "refused") return say.sayRefusedNote;
  return item.state === "conflict" ? say.sayConflictNote : say.sayPending;
}

function mark(item) {
  const made = element("span", "pending-mark outbox-mark", markWords(item));
  made.dataset.testid = "pending-mark";
  return made;
}

function copy(item, note) {
  const body = item.entry || Object.fromEntries(item.fields || []);
  const box = note.querySelector("textarea") || note.appendChild(element("textarea", "copy-box"));
  box.readOnly = true;
  box.value = JSON.stringify(body, null, 2);
  box.select();
  const done = () => box.insertAdjacentElement("afterend", element("span", "muted", say.sayCopied));
  if (navigator.clipboard) navigator.clipboard.writeText(box.value).then(done, () => {});
}

function discardButton(item) {
  return button(say.sayDiscard, () => {
    if (window.confirm(item.kind === "hand" ? say.sayDiscardConfirm : say.sayDiscardActionConfirm)) {
      outbox.discard(item.id).then(changed);
    }
  }, "discard-refused");
}

function sendAgain(item, change) {
  // under a new key: the refused or overtaken one's answer is the server's already
  change(item);
  item.key = newKey();
  item.state = "waiting";
  delete item.message;
  outbox.put(item).then(changed);
}

function fix(item) {
  // where the refused action is made again: its form with its taps (the hands', a deal miss's),
  // the payments card with its amount; a delete, restore, throw-in or undo is made again on its
  // page, this one discarded
  const payments = `${base}payments/`;
  if (item.fields || item.kind === "event") {
    window.location.assign(`${item.formUrl}#fix-${item.id}`);
    return;
  }
  if (item.kind === "payment") {
    if (window.location.pathname === payments || document.getElementById("payments")) {
      fixPayment(item);
    } else {
      window.location.assign(`${payments}#fix-${item.id}`);
    }
    return;
  }
  const page = item.kind === "unpay" ? payments : item.number ? `${base}h/${item.number}/` : base;
  outbox.discard(item.id).then(() => { changed(); window.location.assign(page); });
}

function fixPayment(item) {
  // the amount, to send again
  const line = document.querySelector(`[data-outbox-payment='${item.id}']`);
  if (!line || line.querySelector("input")) return;
  const editor = line.appendChild(element("span", "actions"));
  const amount = editor.appendChild(element("input"));
  amount.type = "number";
  amount.min = "1";
  amount.value = item.entry.amount;
  amount.setAttribute("aria-label", say.sayAmount);
  amount.dataset.testid = "fix-amount";
  editor.appendChild(button(say.saySendAgain, () => {
    if (!(Number(amount.value) > 0)) {
      amount.focus();
      return;
    }
    sendAgain(item, () => { item.entry = { ...item.entry, amount: amount.value }; });
  }, "send-again"));
  amount.focus();
}

function noteOf(item, note, blocked) {
  // what the player can do about it: nothing but wait, or Fix (Open), Copy and Discard
  if (item.state !== "refused" && item.state !== "conflict") {
    note.append(element("span", "muted", blocked ? say.sayBlocked : say.sayPendingNote));
    return;
  }
  note.appendChild(element("p", "problem", item.message)).dataset.testid = "refused-message";
  if (item.state === "conflict" && item.kind === "edit") {
    // the hand's edit page with these taps and the old version: the server shows both sides
    note.append(button(say.sayOpen, () => window.location.assign(`${item.formUrl}#conflict-${item.id}`), "open-conflict"));
  } else {
    note.append(button(say.sayFix, () => fix(item), "fix-refused"));
  }
  if (item.state === "conflict" && item.kind === "hand" && item.nextNumber) {
    // another phone saved the hand this one meant (item.current): the same hand is discarded,
    // a different one is saved as the next
    note.append(button(say.saySaveNext, () => sendAgain(item, () => {
      item.meant = item.nextNumber;
      delete item.seen; // the player said it is another hand: only its number is checked now
    }), "save-as-next"));
  }
  note.append(button(say.sayCopy, () => copy(item, note)), discardButton(item));
}

function pendingRow(template, item, blocked) {
  // the server's row with its slots filled: who and what, the mark, and the note across the seats
  const row = template.content.firstElementChild.cloneNode(true);
  const slot = (name) => row.querySelector(`[data-slot='${name}']`);
  row.classList.add(item.state);
  row.dataset.testid = DEALS.has(item.kind) ? "pending-hand" : "pending-action";
  row.dataset.state = item.state;
  row.dataset.kind = item.kind;
  if (item.kind === "hand") {
    slot("declarer").textContent = item.summary.declarer;
    slot("contract").textContent = item.summary.contract;
  } else {
    slot("declarer").remove();
    slot("contract").textContent = describe(item);
  }
  slot("mark").textContent = markWords(item);
  noteOf(item, slot("note"), blocked);
  return row;
}

function showRows(items) {
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
  const shown = [];
  for (const item of items) {
    const stopped = outbox.stopped(item);
    if (DEALS.has(item.kind) || stopped) shown.push(pendingRow(template, item, blocked && !stopped));
    blocked = blocked || stopped;
  }
  outboxRows.replaceChildren(...shown);
}

// --- marks on the hands already on the board ---------------------------------------------------

function showMarks(items) {
  document.querySelectorAll(".outbox-mark-holder").forEach((holder) => holder.remove());
  document.querySelectorAll("#board-rows tr[data-pending]").forEach((row) => { delete row.dataset.pending; });
  const last = new Map(); // hand number → the last waiting entry touching it
  for (const item of items) {
    if (TOUCHES_A_HAND.has(item.kind) && !outbox.stopped(item)) last.set(item.number, item);
  }
  const changes = { edit: say.sayCorrection, delete: say.sayDeleted, restore: say.sayRestoredHand };
  for (const [number, item] of last) {
    const row = document.getElementById(`hand-${number}`);
    const cell = row && row.querySelector(".what");
    if (!cell) continue;
    row.dataset.pending = item.kind;
    const holder = cell.appendChild(element("span", "outbox-mark-holder"));
    holder.dataset.testid = `pending-${item.kind}`;
    holder.append(" ", element("span", "pending-mark outbox-mark", `${changes[item.kind]} · ${say.sayPending}`));
    if (item.kind === "delete") {
      holder.append(button(say.sayRestore, () => {
        queue({ kind: "restore", session: item.session, token: item.token, number: item.number,
                version: item.version, after: item.id, boardUrl: item.boardUrl });
      }, "restore-pending"));
    }
  }
}

// --- the hand in progress ---------------------------------------------------------------------

function contractLine(contract, items) {
  // a contract recorded on this phone: "Enter the result" and "Throw in", or what followed it
  const next = followers(items, contract)[0];
  const line = element("div", "card playing pending");
  line.dataset.testid = "pending-contract";
  line.appendChild(element("p", "playing-now", `${describe(contract)} `)).appendChild(mark(contract));
  if (next) {
    line.appendChild(element("p", "muted", next.kind === "abandon" ? say.sayThrownIn : say.sayResultEntered));
    return line;
  }
  const actions = line.appendChild(element("div", "actions"));
  const enter = actions.appendChild(element("a", "button primary", say.sayEnterResult));
  enter.href = `${base}hands/new/#after-${contract.id}`;
  enter.dataset.testid = "complete-pending";
  actions.appendChild(button(say.sayThrowIn, () => {
    queue({ kind: "abandon", session: contract.session, token: contract.token, after: contract.id,
            boardUrl: contract.boardUrl });
  }, "abandon-pending"));
  return line;
}

function showInProgress(items) {
  const section = document.getElementById("in-progress");
  if (!section) return;
  document.getElementById("outbox-in-progress")?.remove();
  const lines = items.filter((item) => item.kind === "contract" && !outbox.stopped(item))
    .map((contract) => contractLine(contract, items));
  // the hand in progress the server knows, finished or thrown in on this phone
  const playing = section.querySelector("[data-testid='complete-hand']");
  const match = playing && /playing\/(\d+)\//.exec(playing.getAttribute("href"));
  const done = match && items.find((item) => {
    return !item.after && ((item.kind === "hand" && item.inProgress === match[1]) ||
                           (item.kind === "abandon" && String(item.inProgress) === match[1]));
  });
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

// --- payments ---------------------------------------------------------------------------------

function paymentLine(item, items) {
  const line = element("li", "", `${paymentWords(item)} `);
  line.dataset.outboxPayment = item.id;
  line.appendChild(mark(item));
  if (outbox.stopped(item)) {
    // the server's reason, and what the player can do about it
    line.appendChild(element("p", "problem", item.message)).dataset.testid = "refused-message";
    const actions = line.appendChild(element("span", "actions"));
    actions.append(button(say.sayFix, () => fixPayment(item), "fix-refused"), discardButton(item));
  } else if (followers(items, item).length > 0) {
    line.appendChild(element("span", "muted", ` ${say.sayUnpaid}`));
  } else {
    line.appendChild(button(say.sayUndo, () => {
      queue({ kind: "unpay", session: item.session, token: item.token, after: item.id, boardUrl: item.boardUrl });
    }));
  }
  return line;
}

function showPayments(items) {
  const card = document.getElementById("payments");
  document.getElementById("outbox-payments")?.remove();
  document.querySelectorAll(".outbox-mark-payment").forEach((old) => old.remove());
  if (!card) return;
  const list = element("ul", "payments pending");
  list.id = "outbox-payments";
  list.dataset.testid = "pending-payments";
  for (const item of items) {
    if (item.kind === "payment") {
      list.appendChild(paymentLine(item, items));
    } else if (item.kind === "unpay" && item.payment) {
      const form = card.querySelector(`form[action$='/payments/${item.payment}/undo/']`);
      const holder = form && form.closest("li");
      if (holder) {
        const note = holder.appendChild(element("span", "pending-mark outbox-mark-payment", `${say.sayUnpaid} · ${say.sayPending}`));
        note.dataset.testid = "pending-unpay";
        form.hidden = true;
      }
    }
  }
  if (list.children.length) card.appendChild(list);
  const asked = /^#fix-(\d+)$/.exec(window.location.hash); // the board's Fix of a refused payment
  const fixed = asked && items.find((item) => item.id === Number(asked[1]) && outbox.stopped(item));
  if (fixed && fixed.kind === "payment") fixPayment(fixed);
}

export function show(items) {
  if (!session || !status) return;
  const mine = ofSession(items, session);
  showRows(mine);
  showMarks(mine);
  showInProgress(mine);
  showPayments(mine);
  showNext(items);
}

if (status) {
  // the settlement's payments card arrives after the page (htmx): its pending payments with it
  document.addEventListener("htmx:afterSwap", () => outbox.items().then(show, () => {}));
  // a live board swaps its next-hand card for the server's: the deals still waiting step it again
  document.addEventListener("live:updated", () => outbox.items().then(show, () => {}));
}
