// The outbox: every write a player makes at the table goes through here, online or not, and stays
// on the phone until the server has answered it. One road for every kind:
//
//   hand      a new hand (or the result of the hand in progress, which completes it)
//   event     a deal miss or an all-pass
//   contract  the contract recorded when the auction ends (the hand in progress)
//   abandon   the hand in progress thrown in
//   edit      a correction of a saved hand, made on the version the phone had
//   delete, restore   a hand deleted or brought back, at the version the phone had
//   payment, unpay    a transfer marked as paid, and that mark undone
//
// A Save writes its entry here (saves.js), the page shows it at once where it lands (pending.js),
// and the page sends it at once: on every page load, when the phone is back online, when the page
// is seen again, and on a timer that backs off while anything waits. No service worker is needed.
// Each entry keeps:
// - what the player entered: a hand's or a contract's taps (`fields`), which the form turned into
//   HAND_JSON on the server (its preview, or GET .../hands/entry/ when sent), so the entry is the one
//   the form saves; the smaller ones (a deal miss, a delete, a payment) build theirs on the page;
// - its one-time key, sent as Idempotency-Key: one that was sent, cut, and sent again is recorded once;
// - the version it was made on, sent as If-Match (edits, deletes, restores): a hand another phone
//   changed meanwhile is refused with 409 and kept as a "conflict", for the player to open;
// - `after`: the entry it follows when it refers to something made on this phone and not sent yet
//   (the result of a contract, the restore of a delete, the undo of a payment), whose answer (an
//   id, a version) is written into it before it is sent;
// - the session's API and the link (partials/app_status.html), sent as "Authorization: Bearer".
// An entry the server refuses stays here with the server's words until the player fixes, copies or
// discards it; the entries after it in the same session wait behind it.
//
// One module because it is the one owner of what waits on the phone: the store, the order entries
// are sent in, and the requests that send them share what is in flight and whether the page is
// leaving, which no other module may read or change.
import * as stores from "./stores.js";

const STOPPED = new Set(["refused", "conflict"]); // states that wait for the player
const NEWS_MS = 2 * 60 * 1000; // "saved as hand 7" is said on the pages loaded for this long
const RETRY_MS = [1000, 2000, 4000, 8000, 15000]; // while something waits and the server was not reached
const BUSY_MS = 250; // the same request is being saved this moment (sent by a page that left)
const LOCK = "mighty-ledger-outbox"; // one sender among the phone's tabs (Web Locks)
// sent with an Idempotency-Key: sent twice, saved once and answered the same
const KEYED = new Set(["hand", "event", "contract", "abandon", "payment"]);

// --- the page's session, as Django drew it ---------------------------------------------------

export function here() {
  // partials/app_status.html: the link, its session, where its writes land and go
  const status = document.getElementById("app-status");
  const data = status ? status.dataset : {};
  return { token: data.token || "", group: data.group || "", session: data.session || "",
           board: data.board || "", payments: data.payments || "", api: data.api || "",
           sendTimeout: Number(data.sendTimeout) || 10000 };
}

// --- the store --------------------------------------------------------------------------------

let connection = null; // the page's one connection to the store, opened once

function open() {
  if (!connection) {
    connection = new Promise((resolve, reject) => {
      const request = indexedDB.open(stores.DATABASE, 2);
      request.onupgradeneeded = () => {
        const names = request.result.objectStoreNames;
        if (!names.contains(stores.OUTBOX)) request.result.createObjectStore(stores.OUTBOX, { keyPath: "id", autoIncrement: true });
        if (!names.contains(stores.NUMBERED)) request.result.createObjectStore(stores.NUMBERED, { keyPath: "key" });
      };
      request.onsuccess = () => {
        const database = request.result;
        // a newer version of the app opens it in another tab: this one lets go, and opens it again
        database.onversionchange = () => {
          database.close();
          connection = null;
        };
        resolve(database);
      };
      request.onerror = () => {
        connection = null;
        reject(request.error);
      };
    });
  }
  return connection;
}

async function run(name, mode, work) {
  const database = await open();
  return new Promise((resolve, reject) => {
    const transaction = database.transaction(name, mode);
    const request = work(transaction.objectStore(name));
    transaction.oncomplete = () => resolve(request && request.result);
    transaction.onerror = () => reject(transaction.error);
    // a write the store refuses as it commits (the phone's storage full) fails with no request's error
    transaction.onabort = () => reject(transaction.error);
  });
}

export async function items() {
  const all = await run(stores.OUTBOX, "readonly", (store) => store.getAll());
  return all.sort((a, b) => a.id - b.id);
}

export function item(id) {
  return run(stores.OUTBOX, "readonly", (store) => store.get(id));
}

export function put(entry) {
  return run(stores.OUTBOX, "readwrite", (store) => store.put(entry));
}

export async function discard(id) {
  await run(stores.OUTBOX, "readwrite", (store) => store.delete(id));
  changed();
}

export async function withKey(key) {
  return (await items()).find((entry) => entry.key === key) || null;
}

export function stopped(entry) {
  return STOPPED.has(entry.state);
}

export function ofSession(all, session) {
  return all.filter((entry) => String(entry.session) === String(session));
}

export function waiting(all, session) {
  // what this phone still has to send for ``session``, in the order it was made
  return ofSession(all, session).filter((entry) => !stopped(entry));
}

export function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export async function queue(entry, { leaving: thenLeaving = false } = {}) {
  // a write made on this page: kept, then sent at once (``leaving``: by requests that outlive the
  // page, which goes where the write lands). One entry per key: the same Save tapped again, or
  // queued again by a page that did not hear the first, is the same entry
  if (thenLeaving) leaving = true;
  entry.key = entry.key || newKey();
  const same = await withKey(entry.key);
  if (same) return same.id;
  Object.assign(entry, { state: "waiting", queuedAt: new Date().toISOString() });
  const id = await put(entry).catch((error) => {
    if (thenLeaving) leaving = false; // not kept: the page stays, and so do its sends
    throw error;
  });
  if (!thenLeaving) {
    changed();
    return id;
  }
  // the page goes where the write lands: this one write is sent from here at once, by a request
  // that outlives the page (the page it goes to sends whatever else waits, and this one again if
  // no answer came: its key makes that safe)
  tell("outbox:changed");
  if (channel) channel.postMessage("changed");
  entry.id = id;
  depart(entry);
  return id;
}

function depart(entry) {
  const sender = KEYED.has(entry.kind) && navigator.onLine && SENDERS[entry.kind];
  if (!sender) {
    gone();
    return;
  }
  sender(entry).then(async (outcome) => {
    if (outcome.ok) await landed(entry, outcome, await items());
  }, () => {}).finally(gone);
}

export async function again(entry, change) {
  // a refused or overtaken entry sent again under a new key (the old one's answer is the server's)
  change(entry);
  Object.assign(entry, { key: newKey(), state: "waiting" });
  delete entry.message;
  await put(entry);
  changed();
}

// --- telling the pages ---------------------------------------------------------------------------

const channel = "BroadcastChannel" in window ? new BroadcastChannel(LOCK) : null;

function tell(name, detail = {}) {
  document.dispatchEvent(new CustomEvent(name, { detail }));
}

function changed() {
  // this page's modules redraw what waits, the phone's other tabs too, and the page sends it
  tell("outbox:changed");
  if (channel) channel.postMessage("changed");
  send();
}

// --- "saved as hand 7": the numbers the server gave lately -------------------------------------

function remember(numbered) {
  if (!numbered.length) return Promise.resolve();
  const at = Date.now();
  return run(stores.NUMBERED, "readwrite", (store) => {
    for (const hand of numbered) store.put({ ...hand, at });
  }).catch(() => { /* storage off: the page that sent them says them */ });
}

export function lately(session) {
  // the hands of ``session`` the server numbered in the last two minutes, oldest first
  return run(stores.NUMBERED, "readonly", (store) => store.getAll()).then((all) => {
    const recent = Date.now() - NEWS_MS;
    return all.filter((hand) => hand.at >= recent && String(hand.session) === String(session))
      .sort((a, b) => a.number - b.number);
  }, () => []);
}

// --- sending -----------------------------------------------------------------------------------

async function verdict(response) {
  const body = await response.json().catch(() => null);
  if (response.ok) return { ok: true, body };
  if (response.status >= 500 || response.status === 408 || response.status === 429) return { later: true };
  const errors = (body && body.errors) || [];
  const codes = errors.map((error) => error.code);
  // the same request is being saved this moment: sent by a page that left before its answer
  if (codes.includes("request_in_progress")) return { busy: true };
  const message = errors.map((error) => error.message).filter(Boolean).join(" ") ||
    `${response.status} ${response.statusText}`;
  if (response.status === 409 && !codes.includes("idempotency_key_reused")) {
    // changed by another phone since this phone read it: the player chooses, never this loop
    return { conflict: true, message, codes, current: body && (body.hand || body.contract),
             next: body && body.next_number };
  }
  return { refused: true, message, codes };
}

function inTime() {
  // no answer in time: unanswered, sent again later with its key (saved once however it went)
  return AbortSignal.timeout(here().sendTimeout);
}

function apiOf(entry, path) {
  return (entry.api || `/api/v1/sessions/${entry.session}/`).replace(/\/$/, "") + path;
}

const departures = []; // pages waiting for a write to leave before they do (saves.js)

export function departed(ms = 400) {
  // resolved once the next write is on its way (a page leaving after it need not wait for its
  // answer), once a round ends without one, or after ``ms``
  return new Promise((resolve) => {
    departures.push(resolve);
    window.setTimeout(resolve, ms);
  });
}

function gone() {
  for (const resolve of departures.splice(0)) resolve();
}

function request(entry, method, path, body, extra = {}) {
  // the outbox's header: the history says the page made the change, not a client of the API
  // the server's words (a refusal's reason) in the page's language: the link is sent, not the cookie
  const headers = { "Content-Type": "application/json", Accept: "application/json",
                    "Accept-Language": document.documentElement.lang || "en",
                    Authorization: `Bearer ${entry.token}`, "X-Mighty-Ledger-Outbox": "1", ...extra };
  const sent = { method, credentials: "omit", headers, keepalive: leaving, signal: inTime() };
  if (body !== undefined) sent.body = JSON.stringify(body);
  const answer = fetch(apiOf(entry, path), sent);
  gone();
  return answer.then(verdict);
}

function post(entry, path, body) {
  return request(entry, "POST", path, body, { "Idempotency-Key": entry.key });
}

async function withEntry(entry, next) {
  // the taps as HAND_JSON: the form's preview gave it, or the form answers it now (pages/views/app.py)
  if (!entry.entry) {
    const query = new URLSearchParams(entry.fields);
    if (entry.kind === "edit") query.set("number", entry.number);
    const made = await fetch(`${entry.entryUrl}?${query}`, { credentials: "same-origin", signal: inTime(),
                                                             headers: { Accept: "application/json" } })
      .then(verdict);
    if (!made.ok) return made;
    entry.entry = made.body.entry; // kept: "copy" gives it, and every retry sends the same body
    await put(entry);
  }
  return next(entry.entry);
}

function version(entry) {
  // the version this entry was made on, or the one the entry it follows left the thing at
  return entry.made && entry.made.version !== undefined ? entry.made.version : entry.version;
}

function ifMatch(entry) {
  const at = version(entry);
  return at === undefined || at === null || at === "" ? {} : { "If-Match": `"${at}"` };
}

async function contractOf(entry) {
  // a contract recorded on this phone too: its id is known once it was sent (written in by `after`)
  if (entry.after) return entry.made || null;
  if (entry.contractVersion !== undefined) return { id: entry.inProgress, version: entry.contractVersion };
  // its result entered on this phone: completed at the version it has when first sent, kept so that
  // every retry sends the same body (the key's answer is recognised by it)
  const response = await fetch(apiOf(entry, `/contracts/${entry.inProgress}`), { credentials: "omit", signal: inTime(),
    headers: { Accept: "application/json", Authorization: `Bearer ${entry.token}` } });
  const contract = response.ok ? await response.json() : null;
  entry.contractVersion = contract ? contract.version : 0;
  await put(entry);
  return { id: entry.inProgress, version: entry.contractVersion };
}

const MISSING_FIRST = { refused: true, message: "—" }; // what it follows was discarded unsent

function sameValues(sent, kept) {
  // what this phone sent is what the server holds (it may hold more: seats, the system)
  return Object.keys(sent).every((name) => JSON.stringify(sent[name]) === JSON.stringify(kept ? kept[name] : undefined));
}

const SENDERS = {
  hand: (entry) => withEntry(entry, async (hand) => {
    // the hand number its form showed: another phone's hand there is asked about (409)
    const meant = entry.meant ? { number: entry.meant } : {};
    if (entry.meant && typeof entry.seen === "number" && entry.seen < entry.meant) meant.seen_hand_count = entry.seen;
    if (!entry.inProgress && !entry.after) return post(entry, "/hands", { ...hand, ...meant });
    const contract = await contractOf(entry);
    if (!contract) return MISSING_FIRST;
    return post(entry, `/contracts/${contract.id}/complete`, { ...hand, ...meant, version: contract.version });
  }),
  event: (entry) => post(entry, "/events", entry.entry),
  contract: (entry) => withEntry(entry, (contract) => post(entry, "/contracts", contract)),
  abandon: async (entry) => {
    const contract = await contractOf(entry);
    if (!contract) return MISSING_FIRST;
    const outcome = await post(entry, `/contracts/${contract.id}/abandon`, { version: contract.version });
    // the first answer was lost: thrown in by exactly that one
    const now = outcome.current;
    if (outcome.conflict && now && now.status === "abandoned" && now.version === contract.version + 1) {
      return { ok: true, body: now };
    }
    return outcome;
  },
  edit: (entry) => withEntry(entry, async (hand) => {
    const at = version(entry);
    const outcome = await request(entry, "PUT", `/hands/${entry.number}`, { ...hand, version: at }, ifMatch(entry));
    // the first answer was lost: the hand moved on by exactly this edit, and nothing else
    if (outcome.conflict && outcome.current && outcome.current.version === at + 1 &&
        sameValues(hand, outcome.current.entry)) {
      return { ok: true, body: outcome.current };
    }
    return outcome;
  }),
  // deleting a deleted hand answers it as it is: a retry after a lost answer changes nothing
  delete: (entry) => request(entry, "DELETE", `/hands/${entry.number}`, undefined, ifMatch(entry)),
  restore: (entry) => request(entry, "POST", `/hands/${entry.number}/restore`, {}, ifMatch(entry)),
  payment: (entry) => post(entry, "/payments", entry.entry),
  unpay: async (entry) => {
    const id = entry.after ? entry.made && entry.made.id : entry.payment;
    if (!id) return MISSING_FIRST;
    const outcome = await request(entry, "DELETE", `/payments/${id}`);
    // undone already: by this very request, whose answer was lost
    return outcome.codes && outcome.codes.includes("already_undone") ? { ok: true, body: {} } : outcome;
  },
};

function madeOf(entry, body = {}) {
  // what an entry that follows this one needs to know of it
  if (entry.kind === "hand" || entry.kind === "event") {
    return { number: body.number !== undefined ? body.number : body.hand, version: body.version };
  }
  return { id: body.id, version: body.version, number: body.number };
}

async function landed(entry, outcome, all) {
  const made = madeOf(entry, outcome.body || {});
  for (const other of all.filter((kept) => kept.after === entry.id)) {
    other.made = made; // the entries that follow learn its answer before it leaves the outbox
    await put(other);
  }
  await run(stores.OUTBOX, "readwrite", (store) => store.delete(entry.id));
  const numbered = (entry.kind === "hand" || entry.kind === "event") && made.number ? made.number : null;
  if (numbered) await remember([{ key: entry.key, session: entry.session, number: numbered }]);
  tell("outbox:landed", { entry, made, number: numbered });
  if (channel) channel.postMessage("changed");
}

async function stop(entry, outcome) {
  entry.state = outcome.conflict ? "conflict" : "refused";
  entry.message = outcome.message;
  entry.codes = outcome.codes || [];
  if (outcome.current) entry.current = outcome.current;
  if (outcome.next) entry.nextNumber = outcome.next; // another phone saved the hand this one meant
  await put(entry);
  tell("outbox:stopped", { entry });
}

async function round() {
  // each waiting entry in order; a session whose earlier entry waits for its player waits behind it
  const blocked = new Set();
  const all = await items();
  for (const entry of all) {
    if (stopped(entry)) blocked.add(String(entry.session));
    if (blocked.has(String(entry.session))) continue;
    // a page leaving sends only what its key makes safe to send twice (the next page sends it again,
    // not knowing the answer); a correction, a delete or a restore is sent by the page it goes to
    if (leaving && !KEYED.has(entry.kind)) return "done";
    const sender = SENDERS[entry.kind];
    let outcome;
    try {
      outcome = sender ? await sender(entry) : { refused: true, message: entry.kind };
    } catch {
      return "unreached"; // no network after all
    }
    if (outcome.ok) {
      await landed(entry, outcome, all);
      tries = 0; // the server is there: a later miss waits the shortest time again
    } else if (outcome.refused || outcome.conflict) {
      blocked.add(String(entry.session));
      await stop(entry, outcome);
    } else {
      return outcome.busy ? "busy" : "unreached";
    }
  }
  return "done";
}

let running = null;
let more = false; // asked again while a round ran: once more after it, never beside it
let leaving = false; // the page is about to leave: its requests outlive it (keepalive)
let timer = null;
let tries = 0;

function exclusive(work) {
  // one sender among the phone's tabs; a browser without Web Locks has this tab's own guard only
  return navigator.locks ? navigator.locks.request(LOCK, work) : work();
}

async function rounds() {
  let last;
  do {
    more = false;
    tell("outbox:sending");
    last = await round();
  } while (more && last === "done");
  return last;
}

function later(last) {
  window.clearTimeout(timer);
  timer = null;
  if (last === "done") {
    tries = 0;
    return;
  }
  // offline: the "online" event sends it, and a slow look now and then should the event not come
  const wait = last === "busy" ? BUSY_MS : last === "offline" ? RETRY_MS[RETRY_MS.length - 1]
    : RETRY_MS[Math.min(tries, RETRY_MS.length - 1)];
  if (last !== "busy") tries += 1;
  timer = window.setTimeout(send, wait);
}

export function send() {
  // sends what waits, now; a call while a round runs makes it go round once more
  if (running) {
    more = true;
    return running;
  }
  running = items().then((all) => {
    if (!all.some((entry) => !stopped(entry))) return "done";
    if (!navigator.onLine) return "offline"; // the "online" event sends it
    return exclusive(rounds);
  }).catch(() => "unreached").then((last) => {
    running = null;
    gone();
    if (more) return send();
    later(last);
    tell("outbox:sent", { reached: last === "done" || last === "busy" });
    return last;
  });
  return running;
}

function start() {
  window.addEventListener("online", () => {
    tries = 0; // the line is back: at once, then from the shortest wait again
    send();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") send();
  });
  window.addEventListener("pagehide", () => { leaving = true; });
  window.addEventListener("pageshow", () => { leaving = false; });
  if (channel) channel.onmessage = () => tell("outbox:changed");
  send();
}

if (document.getElementById("app-status")) start();
