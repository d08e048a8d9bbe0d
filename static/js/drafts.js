// The hand form on a phone that may lose its connection or its page.
//
// - Draft: every tap is kept on the phone (localStorage) and put back after a reload, a
//   crash or the screen going off, until the hand is saved or the player starts again.
// - Offline: the live preview says the payments will be computed once back online (only the
//   server knows the rules), and Save puts the hand in the outbox (outbox.js) and opens the
//   scoreboard, where it waits at the end, pending. Save also queues while earlier hands of
//   the session still wait, so the server numbers them in the order they were played.
// - One-time key: the form's key goes with the draft, and is the outbox's Idempotency-Key,
//   so a hand the form saved whose answer never came is not saved a second time from here.
// - Online, Save first writes the hand into the outbox ("sending", outbox.js `park`), then the
//   form posts as ever: the service worker keeps it there, waiting, when the request is cut, times
//   out or meets a 5xx, and takes it out once the server answered (sw.js). The draft goes only
//   when the server had the hand or the outbox holds it; until then it is put back as it was.
// - Fix: a hand the server refused opens here (#fix-<id>) with its taps, to be saved again.
// - The same form records the contract (playing/new/) and corrects a saved hand (h/3/edit/):
//   offline, or behind entries still waiting, those queue too, the correction with the
//   version it was made on. A hand entered from a contract recorded offline (#after-<id>)
//   waits for that contract and completes it once both are sent. A correction another phone
//   overtook (#conflict-<id>) opens here with its taps and its old version, so saving it shows
//   the server's side-by-side choice.
import * as keys from "./form_key.js";
import * as outbox from "./outbox.js";
import { dealsWaiting, lastTouching, newKey, nextAfter } from "./pending.js";

// a form's one line of news from this phone (a draft brought back, a hand queued, what is
// missing), at the top of the form; queued_forms.js writes into the same line of its forms
export function noticeLine(form) {
  const box = form.querySelector("[data-draft-notice]") ||
    form.insertAdjacentElement("afterbegin", document.createElement("div"));
  box.className = "draft-notice";
  box.dataset.draftNotice = "";
  box.dataset.testid = "draft-notice";
  box.setAttribute("role", "status");
  return box;
}

const status = document.getElementById("app-status");
const say = status ? status.dataset : {};
// the one-time key field the hand form carries (templates/partials/request_key.html)
const KEY_FIELDS = "input[name='request_key'], input[name='idempotency_key']";
// what this form saves: a new hand, the contract when the auction ends, a correction of hand 3
const KINDS = [
  ["hand", /^\/g\/([^/]+)\/s\/(\d+)\/hands\/new\/$/, "hands/entry/"],
  ["contract", /^\/g\/([^/]+)\/s\/(\d+)\/playing\/new\/$/, "playing/entry/"],
  ["edit", /^\/g\/([^/]+)\/s\/(\d+)\/h\/(\d+)\/edit\/$/, "hands/entry/"],
];

function storage() {
  try { return window.localStorage; } catch { return null; } // storage turned off
}

function read(name, fallback) {
  const store = storage();
  try { return (store && JSON.parse(store.getItem(name))) || fallback; } catch { return fallback; }
}

function write(name, value) {
  const store = storage();
  if (!store) return;
  if (value === null) store.removeItem(name); else store.setItem(name, JSON.stringify(value));
}

// --- on a scoreboard: a hand the form sent has arrived -------------------------------------

function sentDrafts(base) {
  // the drafts of this session's forms that were sent: [name, draft]
  const store = storage();
  const found = [];
  for (let index = 0; store && index < store.length; index += 1) {
    const name = store.key(index);
    if (name.startsWith(`draft:${base}`)) {
      const draft = read(name, null);
      if (draft && draft.sent) found.push([name, draft]);
    }
  }
  return found;
}

function settled(name, draft, keptCopy) {
  // a sent draft goes when the outbox holds its Save (a request that got no answer: sent from
  // there with its key) or, on a page the server drew, when the Save has left the outbox: the
  // server answered it. A Save no one answered yet stays a draft
  const looked = draft.key ? outbox.withKey(draft.key) : Promise.resolve(null);
  return looked.then((entry) => {
    if (entry && entry.state === "sending") return outbox.unpark(draft.key).then(() => write(name, null));
    if (entry || !keptCopy) write(name, null);
  }, () => { if (!keptCopy) write(name, null); });
}

function settleSentDrafts() {
  // a Save of this session's forms lands on the scoreboard, saved or kept in the outbox
  const board = /^(\/g\/[^/]+\/s\/\d+\/)$/.exec(window.location.pathname);
  if (!board) return;
  for (const [name, draft] of sentDrafts(board[1])) settled(name, draft, !!document.documentElement.dataset.offlineAsOf);
}

function forgetSavedDraft() {
  // "this hand was saved as hand 8": the draft with that key is done with
  const savedPage = document.querySelector("[data-saved-key]");
  const inSession = /^(\/g\/[^/]+\/s\/\d+\/)/.exec(window.location.pathname);
  if (!savedPage || !inSession) return;
  const name = `draft:${inSession[1]}hands/new/`;
  const done = read(name, null);
  if (done && done.key === savedPage.dataset.savedKey) write(name, null);
}

// --- the hand form --------------------------------------------------------------------------------

const form = document.getElementById("hand-form");
const action = form ? new URL(form.action, window.location.href).pathname : "";
// [kind, link, session, number] of what Save makes, when it can wait offline, and where it asks its entry
const [target, entryPath] = whatItSaves(action);
const sessionBase = target ? `/g/${target[1]}/s/${target[2]}/` : "";
const draftName = `draft:${action}`;
const keyField = form && form.querySelector(KEY_FIELDS);
const preview = document.getElementById("preview");
let after = null; // the contract recorded offline that this hand's result completes
let conflict = null; // the correction another phone overtook, opened again
let fixing = null;
let restoring = false;
let filled = false; // taps were put back: the preview is asked for them
let key;
let waitingBefore = false; // entries of the session wait already: Save queues behind them
let releasing = false; // a Save parked in the outbox, submitted again: it goes to the server now
let parking = false; // a Save being written into the outbox before it leaves

function whatItSaves(path) {
  for (const [kind, pattern, entry] of KINDS) {
    const match = pattern.exec(path);
    if (match) return [[kind, match[1], match[2], match[3]], entry];
  }
  return [null, ""];
}

// --- the form's taps, kept and put back ---------------------------------------------------------

function fields() {
  // what the player entered: the taps, not the page's bookkeeping (token, version, counts)
  const kept = [];
  new FormData(form).forEach((value, name) => {
    const input = form.elements[name];
    const hidden = input && (input.type === "hidden" || (input[0] && input[0].type === "hidden"));
    if (!hidden && typeof value === "string") kept.push([name, value]);
  });
  return kept;
}

function changedBy(input) {
  // the pickers and labels of the form's own modules follow, as after a tap
  input.dispatchEvent(new Event("input", { bubbles: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
}

function restore(taps, onlyThese) {
  // onlyThese: the fields the taps name, the rest left as the form has them (a contract's taps
  // leave the hand form's own defaults, such as whose points are counted)
  restoring = true;
  filled = true;
  const values = {};
  for (const [name, value] of taps) (values[name] = values[name] || []).push(value);
  for (const input of form.elements) {
    if (!input.name || input.type === "hidden" || input.type === "submit" || input.type === "button") continue;
    if (onlyThese && !(input.name in values)) continue;
    const given = values[input.name] || [];
    if (input.type === "radio" || input.type === "checkbox") {
      const checked = given.includes(input.value);
      if (input.checked === checked) continue;
      input.checked = checked;
    } else {
      const value = given.length ? given.shift() : "";
      if (input.value === value) continue;
      input.value = value;
    }
    changedBy(input);
  }
  restoring = false;
}

function keepDraft(sent) {
  if (restoring) return;
  write(draftName, { fields: fields(), key, fixing, after, sent: !!sent, at: new Date().toISOString() });
}

function notice(message, withUndo) {
  const box = noticeLine(form);
  box.replaceChildren(`${message} `);
  if (!withUndo) return;
  const again = box.appendChild(document.createElement("button"));
  again.type = "button";
  again.className = "link-button";
  again.textContent = say.sayDropDraft;
  again.addEventListener("click", () => {
    write(draftName, null);
    // a new form as the board opened it: the declarer tapped there (?declarer=Ann) stays
    const declarer = new URLSearchParams(window.location.search).get("declarer");
    window.location.replace(window.location.pathname + (declarer ? `?declarer=${encodeURIComponent(declarer)}` : ""));
  });
}

function useKey(chosen) {
  key = chosen;
  if (keyField) keyField.value = key;
  keys.show(key); // Back or a reload asks about this key
}

function shownKey() {
  return new URLSearchParams(window.location.search).get("key");
}

function setVersion(version) {
  if (form.elements.version && version !== undefined && version !== null) form.elements.version.value = version;
}

function forgetHash() {
  // what the address asked for is gone (sent or discarded meanwhile): the form is a new hand's
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  return start();
}

async function startAfter(id) {
  // the result of a contract recorded offline: its taps are the hand's first half
  const contract = await outbox.item(id);
  if (!contract || contract.kind !== "contract") return forgetHash();
  after = contract.id;
  useKey(newKey());
  restore(contract.fields, true);
  keepDraft(false);
  notice(say.sayAfterContract, false);
}

async function startConflict(id) {
  const item = await outbox.item(id);
  if (!item) return forgetHash();
  conflict = item.id;
  useKey(newKey());
  if (item.fields) restore(item.fields);
  setVersion(item.version); // the version it was made on: the server shows what changed since
  notice(say.sayConflictOpen + (item.message ? ` ${item.message}` : ""), false);
}

async function startFix(id) {
  const item = await outbox.item(id);
  if (!item) return forgetHash();
  fixing = item.id;
  useKey(newKey()); // a new hand for the server: the refused one's key may be spent
  restore(item.fields);
  keepDraft(false);
  notice(say.sayFixing + (item.message ? ` ${item.message}` : ""), true);
}

function start() {
  const follow = /^#after-(\d+)$/.exec(window.location.hash);
  if (follow && target && target[0] === "hand") return startAfter(Number(follow[1]));
  const overtaken = /^#conflict-(\d+)$/.exec(window.location.hash);
  if (overtaken && target && target[0] === "edit") return startConflict(Number(overtaken[1]));
  const fix = /^#fix-(\d+)$/.exec(window.location.hash);
  if (fix) return startFix(Number(fix[1]));
  const draft = read(draftName, null);
  if (draft && keyField && draft.key === keyField.value && form.hasAttribute("data-sent-back")) {
    // the server sent this very form back (its problems beside the fields): the taps are on it
    useKey(draft.key);
    keepDraft(false);
    return outbox.answered(draft.key).catch(() => {});
  }
  if (draft && draft.key && draft.sent) {
    // a Save the outbox holds is on the board, pending: this form is the next one's
    return outbox.withKey(draft.key).then((entry) => {
      if (!entry) return startFrom(draft);
      write(draftName, null);
      return (entry.state === "sending" ? outbox.unpark(draft.key) : Promise.resolve()).then(() => startFrom(null));
    }, () => startFrom(draft));
  }
  return startFrom(draft);
}

function startFrom(draft) {
  if (draft && draft.key && draft.sent && navigator.onLine && shownKey() !== draft.key) {
    // the draft was sent and its answer never came: the server says whether it saved it
    // ("saved as hand 8") or shows the form again for this key, and the draft comes back
    const url = new URL(window.location.href);
    url.searchParams.set("key", draft.key);
    window.location.replace(url.pathname + url.search);
    return new Promise(() => {});
  }
  if (draft && draft.fields && draft.fields.length) {
    fixing = draft.fixing || null;
    after = draft.after || null;
    useKey(draft.key || newKey());
    restore(draft.fields);
    keepDraft(draft.sent);
    notice(say.sayRestored, true);
    return Promise.resolve();
  }
  const given = keyField && keyField.value;
  useKey(given && !keys.used(given) ? given : newKey());
  // a kept copy of the form, opened from the board's "who won the bid?" (?declarer=Ann)
  const declarer = new URLSearchParams(window.location.search).get("declarer");
  const seat = declarer && [...form.querySelectorAll("input[name='declarer']")].find((input) => input.value === declarer);
  if (seat && !seat.checked) {
    seat.checked = true;
    seat.dispatchEvent(new Event("change", { bubbles: true }));
  }
  if (target && target[0] !== "edit") return dealerAfterWaiting();
  return Promise.resolve();
}

async function numberAfterWaiting() {
  // "Hand 8 (waiting to be sent)": the server numbers the hands and deals waiting on this phone
  // first, in the order they were made, then this one (a refused hand being fixed comes after
  // those made before it); the number the page was drawn with knew none of them
  const title = form.querySelector("[data-hand-title]");
  if (!title || !target || target[0] !== "hand") return;
  if (!title.dataset.drawnNumber) title.dataset.drawnNumber = (title.textContent.match(/\d+/) || [""])[0];
  let items;
  try { items = await outbox.items(); } catch { return; }
  const before = dealsWaiting(target[2], items).filter((item) => !fixing || item.id < fixing);
  const drawn = Number(title.dataset.drawnNumber);
  if (!before.length || !drawn) return;
  title.textContent = say.sayHandWaiting.replace("{number}", drawn + before.length);
}

async function dealerAfterWaiting() {
  // a kept form knows the dealer as the server said it then: after the deals waiting on this
  // phone, the one the server will say (pending.js steps the table's flow rule)
  let items;
  try { items = await outbox.items(); } catch { return; }
  const next = nextAfter(target[2], items);
  if (!next) return;
  restoring = true; // the form's own answer, not a tap: no draft for it
  try {
    const seat = form.querySelector(`input[name='dealer'][value='${CSS.escape(next.dealer)}']`);
    if (seat && !seat.checked) {
      seat.checked = true;
      changedBy(seat);
    }
    // and who sits this one out, where the table has more seats than players
    for (const box of form.querySelectorAll("input[name='sitting_out']")) {
      const out = next.sitting_out.includes(box.value);
      if (box.checked !== out) {
        box.checked = out;
        changedBy(box);
      }
    }
  } finally {
    restoring = false;
  }
}

// --- offline: the preview waits, Save queues ----------------------------------------------------

function previewWaits() {
  if (!preview) return;
  const heading = preview.querySelector("h2");
  const line = document.createElement("p");
  line.className = "muted";
  line.dataset.testid = "preview-offline";
  line.textContent = say.sayPreviewOffline;
  preview.replaceChildren(...(heading ? [heading, line] : [line]));
}

function missing() {
  // the fields the form marks required (Django writes `required`) that are still empty
  const given = new FormData(form);
  const seen = new Set();
  const labels = [];
  for (const input of form.querySelectorAll("[required]")) {
    if (given.get(input.name) || seen.has(input.name)) continue;
    seen.add(input.name);
    const fieldset = input.closest("fieldset");
    const label = (fieldset && fieldset.querySelector("legend")) || form.querySelector(`label[for='${input.id}']`);
    labels.push(label ? label.textContent.trim() : input.name);
  }
  // a called card's partner (or "declarer alone") is asked for before the hand waits offline,
  // as the server would ask once back online
  const call = form.querySelector("input[name='call_type']:checked");
  const partners = document.getElementById("field-partners");
  if (partners && call && (call.value === "card" || call.value === "first_trick") &&
      !form.querySelector("input[name='partners']:checked")) {
    const legend = partners.querySelector("legend");
    labels.push(legend ? legend.textContent.trim() : "partners");
  }
  return labels;
}

function checkedLabel(name) {
  const input = form.querySelector(`input[name='${name}']:checked`);
  const label = input && form.querySelector(`label[for='${input.id}']`);
  return label ? label.textContent.trim() : input ? input.value : "";
}

function itemOf(waitingDeals) {
  // what this Save makes in the outbox; a new hand says the number it meant (its form's, after
  // the deals waiting before it on this phone, which the server numbers first)
  const contract = form.elements.contract_points;
  const kind = target[0];
  const drawn = form.elements.number && Number(form.elements.number.value);
  const item = {
    kind,
    session: target[2],
    token: decodeURIComponent(target[1]),
    formUrl: action,
    boardUrl: sessionBase,
    entryUrl: sessionBase + entryPath,
    // opened from the hand in progress: saving completes it (mighty_ledger/pages/views/in_progress.py)
    inProgress: (form.elements.in_progress && form.elements.in_progress.value) || "",
    key,
    fields: fields(),
    summary: {
      declarer: (form.querySelector("input[name='declarer']:checked") || {}).value || "",
      contract: ((contract && contract.value) || "") + checkedLabel("contract_trump"),
    },
  };
  if (kind === "hand" && drawn) {
    item.meant = drawn + waitingDeals;
    // the hands the form knew of when opened: a hand saved since that is this very hand is asked
    // about too, when the form was moved on to the next number (live_form.js)
    const seen = form.elements.seen_hand_count && form.elements.seen_hand_count.value;
    if (seen !== undefined && seen !== "") item.seen = Number(seen);
  }
  if (after) item.after = after;
  return item;
}

function syncLater() {
  if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return;
  navigator.serviceWorker.ready.then((registration) => {
    // Background Sync: the browser sends the outbox when the network is back, page open or not
    if (registration.sync) return registration.sync.register("outbox");
  }).catch(() => {});
}

async function queue() {
  const empty = missing();
  if (empty.length) {
    notice(say.sayMissing.replace("{fields}", empty.join(", ")), false);
    return;
  }
  const deals = dealsWaiting(target[2], await outbox.items());
  const item = itemOf(deals.filter((deal) => !fixing || deal.id < fixing).length);
  if (target[0] === "edit") {
    // after a delete, restore or correction of the same hand still waiting: its answer's version
    item.number = Number(target[3]);
    item.version = Number(form.elements.version.value);
    const last = await lastTouching(item.session, item.number);
    if (last) item.after = last.id;
  }
  await outbox.add(item);
  keys.markUsed(key);
  write(draftName, null);
  await Promise.all([fixing && outbox.discard(fixing), conflict && outbox.discard(conflict)]);
  syncLater();
  notice(say.sayQueued, false);
  window.location.assign(item.boardUrl);
}

function hasWaiting() {
  return outbox.items().then((items) => items.some((item) => item.session === target[2] && !outbox.stopped(item)),
                             () => false);
}

function send(event) {
  const submitter = event.submitter;
  if (submitter && submitter.hasAttribute("formaction")) {
    if (!navigator.onLine) { // the no-JavaScript preview button
      event.preventDefault();
      previewWaits();
    }
    return;
  }
  if (!target) {
    if (!navigator.onLine) {
      event.preventDefault();
      keepDraft(false);
      notice(say.sayEditOffline, false);
    }
    return;
  }
  if (navigator.onLine && (conflict || (!waitingBefore && !after))) {
    if (releasing) { // the Save held back below, on its way now
      releasing = false;
      return;
    }
    if (parking) { // a second tap while the first is written
      event.preventDefault();
      return;
    }
    // the form posts as ever, once the outbox holds it (sw.js keeps it there if no answer comes);
    // the draft stays until then. An overtaken correction posts its old version: the server
    // answers with both side by side
    keys.markUsed(key);
    keepDraft(true);
    event.preventDefault();
    parking = true;
    const sending = itemOf(0);
    if (target[0] === "edit") {
      sending.number = Number(target[3]);
      sending.version = Number(form.elements.version.value);
    }
    Promise.all([fixing && outbox.discard(fixing), conflict && outbox.discard(conflict)])
      .then(() => outbox.park(sending))
      .catch(() => { /* storage off: the form posts as it did */ })
      .then(() => {
        parking = false;
        releasing = true;
        if (!form.requestSubmit) form.submit(); else if (submitter) form.requestSubmit(submitter); else form.requestSubmit();
      });
    return;
  }
  event.preventDefault();
  queue();
}

function askPreview() {
  // taps put back before htmx had read the page fired their events to no one: asked once it has
  const ask = () => {
    if (!window.htmx || !navigator.onLine) return;
    restoring = true; // the form's own event, not a tap: the draft stays as it is
    window.htmx.trigger(form, "change");
    restoring = false;
  };
  // (htmx reads it on DOMContentLoaded, which follows the page's modules: "load" is after both)
  if (document.readyState === "complete") ask(); else window.addEventListener("load", ask, { once: true });
}

function keepTheForm() {
  if (target) hasWaiting().then((waiting) => { waitingBefore = waiting; });
  document.addEventListener("outbox:changed", () => {
    if (target) hasWaiting().then((waiting) => { waitingBefore = waiting; });
  });
  form.addEventListener("submit", send);
  form.addEventListener("input", () => keepDraft(false));
  form.addEventListener("change", () => keepDraft(false));
  // htmx asks the server for the preview: offline there is no one to ask
  form.addEventListener("htmx:beforeRequest", (event) => {
    if (!navigator.onLine) {
      event.preventDefault();
      previewWaits();
    }
  });
  form.addEventListener("htmx:sendError", previewWaits);
  start().then(() => {
    if (!navigator.onLine) previewWaits(); else if (filled) askPreview();
    return numberAfterWaiting();
  });
}

if (status) {
  settleSentDrafts();
  forgetSavedDraft();
  if (form) keepTheForm();
}
