// The small forms of the table, offline: a deal miss or an all-pass, throwing the hand in
// progress in, deleting or restoring a hand, correcting a deal miss, marking a payment paid
// or undoing it. Without a connection (or while earlier actions of the session still wait on
// this phone, so the server gets them in the order they were made) Save puts the action in
// the outbox (outbox.js) instead of posting it, and the page that shows it marks it pending
// (pending.js). These forms are a few fields each, so the API's JSON is built here; the hand
// and contract forms, which are more, let the server build theirs (drafts.js).
// With a connection and nothing waiting, every form posts as it always did, after it is written
// into the outbox ("sending"): the service worker keeps it there when its request gets no answer
// (cut, too slow, a 5xx) and lands the player on the board, saying so (sw.js). A form htmx sends
// (a payment marked or undone) stays on its page: a request that gets no answer is put in the
// outbox from here, with a line on the form.
import { noticeLine } from "./drafts.js";
import * as keys from "./form_key.js";
import * as outbox from "./outbox.js";
import * as pending from "./pending.js";

const status = document.getElementById("app-status");
const say = status ? status.dataset : {};
const SESSION = /^\/g\/([^/]+)\/s\/(\d+)\//;

// the form's address → what it does, and the outbox entry it makes
const ACTIONS = [
  [/events\/new\/$/, event],
  [/h\/(\d+)\/edit\/$/, eventEdit], // the hand form's own corrections are drafts.js's
  [/playing\/(\d+)\/abandon\/$/, abandon],
  [/h\/(\d+)\/delete\/$/, handChange("delete")],
  [/h\/(\d+)\/restore\/$/, handChange("restore")],
  [/payments\/mark\/$/, payment],
  [/payments\/(\d+)\/undo\/$/, unpay],
];

let waiting = new Set(); // the sessions where entries wait: a new action queues behind them
let releasing = null; // the form held back until the outbox held it, submitted again now
const sentByHtmx = new WeakMap(); // a form htmx is sending → the outbox entry it makes if no answer comes
const SAVE_TIMEOUT = Number(say.saveTimeout) || 15000;

function refreshWaiting() {
  return outbox.items().then((items) => {
    waiting = new Set(items.filter((item) => !outbox.stopped(item)).map((item) => item.session));
  }, () => {});
}

function formKey(form) {
  // the form's one-time key, unless a kept copy of it was already sent with it
  const field = form.querySelector("input[name='request_key']");
  const key = field && field.value;
  return !key || keys.used(key) ? pending.newKey() : key;
}

function value(form, name) {
  const field = form.elements[name]; // a row of radio buttons is a RadioNodeList: its value is the one ticked
  if (!field) return "";
  if (field.type === "radio" || field.type === "checkbox") return field.checked ? field.value : "";
  return field.value || "";
}

function missing(form) {
  const absent = [];
  for (const input of form.querySelectorAll("[required]")) {
    if (value(form, input.name)) continue;
    const fieldset = input.closest("fieldset");
    const label = (fieldset && fieldset.querySelector("legend")) || form.querySelector(`label[for='${input.id}']`);
    const text = label ? label.textContent.trim() : input.name;
    if (!absent.includes(text)) absent.push(text);
  }
  return absent;
}

function eventEntry(form, kind) {
  // EventForm.entry(): the dealer; for a deal miss who showed the hand and the fine
  const entry = { kind, dealer: value(form, "dealer") };
  if (kind === "deal_miss") {
    if (value(form, "shown_by")) entry.shown_by = value(form, "shown_by");
    if (value(form, "fine") !== "") entry.fine = Number(value(form, "fine"));
  }
  return entry;
}

function event(form) {
  const kind = value(form, "kind") || "deal_miss";
  return { kind: "event", eventKind: kind, key: formKey(form), entry: eventEntry(form, kind) };
}

function eventEdit(form, match) {
  if (form.id !== "event-form") return null;
  const entry = eventEntry(form, value(form, "kind"));
  delete entry.kind;
  return { kind: "edit", number: Number(match[1]), version: Number(value(form, "version")), entry };
}

function abandon(form, match) {
  return { kind: "abandon", inProgress: match[1], contractVersion: Number(value(form, "version")) };
}

function handChange(kind) {
  return (form, match) => {
    const version = value(form, "version");
    return { kind, number: Number(match[1]), version: version === "" ? null : Number(version) };
  };
}

function payment(form) {
  const entry = { from: value(form, "payer"), to: value(form, "payee"), amount: value(form, "amount") };
  if (value(form, "overpay") === "1") entry.overpay = true;
  return { kind: "payment", key: formKey(form), entry };
}

function unpay(form, match) {
  return { kind: "unpay", payment: Number(match[1]) };
}

async function follow(item) {
  // after a delete, restore or correction of the same hand still waiting: its answer's version
  if (!item.number) return item;
  const last = await pending.lastTouching(item.session, item.number);
  if (last) item.after = last.id;
  return item;
}

function notice(form, message) {
  noticeLine(form).textContent = message; // the form's line of news (drafts.js)
}

function placed(item, page, path) {
  item.session = page[2];
  item.token = decodeURIComponent(page[1]);
  item.boardUrl = page[0];
  item.formUrl = path;
  // where a Save the service worker keeps lands: the payments where they were marked, else the board
  item.landing = item.kind === "payment" || item.kind === "unpay" ? window.location.pathname : page[0];
  return item;
}

function sendOnline(event, form, item) {
  // the form posts as ever once the outbox holds it, under the key the form sends (if it has one)
  if (releasing === form) {
    releasing = null;
    return;
  }
  const field = form.querySelector("input[name='request_key']");
  if (form.hasAttribute("hx-post")) {
    // htmx posts the form's own key: a copy kept for later must carry that very key, or a second
    // tap on a card whose first answer was lost would be kept, and sent, as another payment
    if (field && field.value) item.key = field.value;
    sentByHtmx.set(form, item);
    return;
  }
  event.preventDefault();
  event.stopPropagation();
  item.key = (field && field.value) || pending.newKey();
  const submitter = event.submitter;
  outbox.park(item).catch(() => { /* storage off: it posts as it did */ }).then(() => {
    releasing = form;
    if (submitter) form.requestSubmit(submitter); else form.requestSubmit();
  });
}

async function keepFromHtmx(event) {
  // htmx got no answer (cut, too slow: status 0) or a 5xx: the outbox sends it when it can
  const form = event.detail && event.detail.elt;
  const item = form && sentByHtmx.get(form);
  const answer = event.detail.xhr ? event.detail.xhr.status : 0;
  if (!item || (answer > 0 && answer < 500)) return;
  sentByHtmx.delete(form);
  await pending.queue(await follow(item));
  if (item.key) keys.markUsed(item.key);
  if (form.isConnected) notice(form, say.sayKept);
}

async function queueOffline(form, item) {
  const field = form.querySelector("input[name='request_key']");
  const own = field && field.value;
  const items = await outbox.items();
  // this very form waits already (its answer was lost, say): a second tap is the same payment,
  // never a second one under a key of its own
  if (own && items.some((kept) => kept.key === own)) {
    notice(form, say.sayKept);
    return;
  }
  await pending.queue(await follow(item));
  if (item.key) keys.markUsed(item.key);
  if (item.kind === "payment" || item.kind === "unpay") return; // marked on this very card
  window.location.assign(item.boardUrl);
}

function submitted(event) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.id === "hand-form") return;
  const path = new URL(form.action, window.location.href).pathname;
  const page = SESSION.exec(path);
  if (!page) return;
  const online = navigator.onLine && !waiting.has(page[2]);
  const found = ACTIONS.map(([pattern, make]) => [pattern.exec(path), make]).find(([match]) => match);
  const item = found && found[1](form, found[0]);
  if (!item) return;
  placed(item, page, path);
  if (online) {
    sendOnline(event, form, item);
    return;
  }
  // in the capture phase: neither the page nor htmx posts it
  event.preventDefault();
  event.stopPropagation();
  const absent = missing(form);
  if (absent.length) {
    notice(form, say.sayMissing.replace("{fields}", absent.join(", ")));
    return;
  }
  queueOffline(form, item);
}

function dealerAfterWaiting() {
  // a kept deal-miss form names the dealer the server named then: after the deals waiting
  // here, the one the server will name (pending.js steps the table's flow rule)
  const form = document.getElementById("event-form");
  const page = form && SESSION.exec(new URL(form.action, window.location.href).pathname);
  if (!page || !/events\/new\/$/.test(form.action)) return;
  outbox.items().then((items) => {
    const next = pending.nextAfter(page[2], items);
    const seat = next && form.querySelector(`input[name='dealer'][value='${CSS.escape(next.dealer)}']`);
    if (seat) seat.checked = true;
  }, () => {});
}

function openConflict() {
  // a correction of a deal miss another phone overtook (#conflict-<id>): this phone's values at
  // the version they were made on, so saving shows what the hand is now, and nothing is lost;
  // a deal miss the server refused (#fix-<id>): its values, with the server's reason, to save again
  const form = document.getElementById("event-form");
  const asked = /^#(conflict|fix)-(\d+)$/.exec(window.location.hash);
  if (!form || !asked) return;
  outbox.item(Number(asked[2])).then((item) => {
    if (!item || (item.kind !== "edit" && item.kind !== "event")) return;
    for (const [name, kept] of Object.entries(item.entry)) {
      const field = form.elements[name];
      if (field && field.length && !field.tagName) {
        for (const input of field) input.checked = input.value === String(kept);
      } else if (field) {
        field.value = kept === null ? "" : kept;
      }
    }
    if (form.elements.version && item.version !== undefined) form.elements.version.value = item.version;
    notice(form, asked[1] === "fix" ? say.sayFixing + (item.message ? ` ${item.message}` : "") : say.sayConflictOpen);
    form.addEventListener("submit", () => outbox.discard(item.id));
  }, () => {});
}

if (status) {
  document.addEventListener("htmx:beforeSend", (event) => {
    // htmx waits for ever by default: a Save gets as long as the service worker gives a form's
    if (event.detail.xhr && sentByHtmx.has(event.detail.elt)) event.detail.xhr.timeout = SAVE_TIMEOUT;
  });
  document.addEventListener("htmx:afterRequest", keepFromHtmx);
  document.addEventListener("submit", submitted, true);
  document.addEventListener("outbox:changed", refreshWaiting);
  refreshWaiting();
  dealerAfterWaiting();
  openConflict();
}
