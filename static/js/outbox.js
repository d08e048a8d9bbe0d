// The outbox: every write a player makes while the server cannot be reached, kept in IndexedDB
// until the server has it, then sent in the order it was made. One outbox for every kind:
//
//   hand      a new hand (or the result of the hand in progress, which completes it)
//   event     a deal miss or an all-pass
//   contract  the contract recorded when the auction ends (the hand in progress)
//   abandon   the hand in progress thrown in
//   edit      a correction of a saved hand, made on the version the phone had
//   delete, restore   a hand deleted or brought back, at the version the phone had
//   payment, unpay    a transfer marked as paid, and that mark undone
//
// Imported by the pages' modules and by the service worker (sw.js), which is the one that
// replays it when it can (Background Sync, or a page asking); a page without a service
// worker replays it itself. It imports nothing: the worker has no page to ask. Each entry keeps:
// - what the player entered. A form that is more than a few fields (a hand, a contract) keeps
//   its taps, and once online the form itself turns them into HAND_JSON on the server
//   (GET .../hands/entry/, .../playing/entry/), so the entry is the very one the form saves;
//   the smaller ones (a deal miss, a delete, a payment) are built on the page;
// - its one-time key, sent as Idempotency-Key: a replay cut off before its answer and sent
//   again, or a form saved whose answer never arrived, is recorded once;
// - the version it was made on, sent as If-Match (edits, deletes, restores): a hand another
//   phone changed meanwhile is refused with 409 and kept here as a "conflict", for the player
//   to open, never retried blindly;
// - `after`: the entry it follows when it refers to something made offline too (the result of
//   a contract recorded offline, the restore of a delete, the undo of a payment). That entry's
//   answer (the contract's id, the hand's new version) is written into it before it is sent;
// - the link, sent as "Authorization: Bearer <token>" (mighty_ledger/api/auth.py).
// An entry the server refuses stays here with the server's words until the player fixes,
// copies or discards it; the entries after it in the same session wait behind it.
// A form saved with a connection is written here first, "sending" (`park`), before its request
// leaves: the service worker makes it "waiting" when the request is cut, times out or meets a
// 5xx, and takes it out when the server answered (sw.js). So a Save is on the phone until the
// server has it, whatever the request met; a "sending" one left behind (no service worker, a
// worker stopped mid-request) is made waiting by the next page (`unpark`), and its key makes
// the replay land on the hand the form may have saved after all.

const DATABASE = "mighty-ledger";
const STORE = "outbox";
const STOPPED = new Set(["refused", "conflict"]); // states that wait for the player
const SENDING = "sending"; // a form's own request is out with it: not replayed meanwhile

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run(mode, work, opening = open) {
  const database = await opening();
  const name = database.objectStoreNames[0];
  return new Promise((resolve, reject) => {
    const transaction = database.transaction(name, mode);
    const request = work(transaction.objectStore(name));
    transaction.oncomplete = () => { database.close(); resolve(request.result); };
    transaction.onerror = () => { database.close(); reject(transaction.error); };
  });
}

// --- "saved as hand 7": the numbers the server gave lately -----------------------------------
// Kept in a database of their own for a while, so the page that loads after a replay (the board
// reloads itself as its actions land, and a kept copy reloads when the server answers again)
// still says them, whether or not the replay's last message reached the page before it went.
const NEWS = "mighty-ledger-numbered";
const NEWS_MS = 2 * 60 * 1000;

function openNews() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(NEWS, 1);
    request.onupgradeneeded = () => { request.result.createObjectStore("numbered", { keyPath: "key" }); };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function eachNews(hands, write) {
  return run("readwrite", (store) => {
    let last;
    for (const hand of hands) last = write(store, hand);
    return last;
  }, openNews);
}

function remember(numbered) {
  if (!numbered.length) return Promise.resolve();
  const at = Date.now();
  return eachNews(numbered, (store, hand) => store.put({ key: hand.key, session: hand.session, number: hand.number, at }))
    .catch(() => { /* storage off: the replay's message says them */ });
}

export function lately(session) {
  // the hands of ``session`` the server numbered in the last two minutes, oldest first
  return run("readonly", (store) => store.getAll(), openNews).then((all) => {
    const recent = Date.now() - NEWS_MS;
    const stale = all.filter((hand) => hand.at < recent);
    if (stale.length) eachNews(stale, (store, hand) => store.delete(hand.key)).catch(() => {});
    return all.filter((hand) => hand.at >= recent && hand.session === String(session))
      .sort((a, b) => a.number - b.number);
  }, () => []);
}

export async function items() {
  const all = await run("readonly", (store) => store.getAll());
  for (const item of all) item.kind = item.kind || "hand"; // kept before there were kinds
  return all.sort((a, b) => a.id - b.id);
}

export function item(id) {
  return run("readonly", (store) => store.get(id));
}

export function put(entry) {
  return run("readwrite", (store) => store.put(entry));
}

export function discard(id) {
  return run("readwrite", (store) => store.delete(id));
}

function keep(entry, state) {
  entry.kind = entry.kind || "hand";
  entry.state = state;
  entry.queuedAt = new Date().toISOString();
  return put(entry);
}

export function add(entry) {
  return keep(entry, "waiting");
}

export function park(entry) {
  return keep(entry, SENDING);
}

export async function withKey(key, state) {
  const all = await items();
  return all.find((entry) => entry.key === key && (!state || entry.state === state)) || null;
}

export async function unpark(key) {
  // the form's request did not reach the server, or no one can tell: the outbox sends it
  const entry = await withKey(key, SENDING);
  if (!entry) return null;
  entry.state = "waiting";
  await put(entry);
  return entry;
}

export async function answered(key) {
  // the server answered the form's own request (saved, or its problems sent back with the form)
  const entry = await withKey(key, SENDING);
  return entry ? discard(entry.id) : null;
}

export function stopped(entry) {
  return STOPPED.has(entry.state);
}

// --- sending --------------------------------------------------------------------------

async function verdict(response) {
  const body = await response.json().catch(() => null);
  if (response.ok) return { ok: true, body };
  if (response.status >= 500 || response.status === 408 || response.status === 429) {
    return { later: true }; // the server is restarting or busy: not the entry's fault
  }
  const errors = (body && body.errors) || [];
  const codes = errors.map((error) => error.code);
  if (codes.includes("request_in_progress")) {
    return { later: true }; // the same request is being saved this very moment (a retry met it)
  }
  const message = errors.map((error) => error.message).filter(Boolean).join(" ") ||
    `${response.status} ${response.statusText}`;
  if (response.status === 409 && !codes.includes("idempotency_key_reused")) {
    // changed by another phone since this phone read it: the player chooses, never this loop
    return { conflict: true, message, current: body && (body.hand || body.contract), codes,
             next: body && body.next_number };
  }
  return { refused: true, message, codes };
}

function entryOf(entry) {
  if (entry.entry) return Promise.resolve({ ok: true, body: { entry: entry.entry } });
  const query = new URLSearchParams(entry.fields);
  // a correction names its hand, whose fields the form does not ask are kept as they are
  if (entry.kind === "edit") query.set("number", entry.number);
  return fetch(`${entry.entryUrl}?${query}`, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then(verdict);
}

function headers(entry, extra = {}) {
  // the outbox's header: the history says the page made the change, not a client of the API
  return { "Content-Type": "application/json", Accept: "application/json",
           Authorization: `Bearer ${entry.token}`, "X-Mighty-Ledger-Outbox": "1", ...extra };
}

function api(entry, path) {
  return `/api/v1/sessions/${entry.session}${path}`;
}

function request(entry, method, url, body, extra) {
  const sent = { method, credentials: "omit", headers: headers(entry, extra) };
  if (body !== undefined) sent.body = JSON.stringify(body);
  return fetch(url, sent).then(verdict);
}

function post(entry, url, body) {
  return request(entry, "POST", url, body, { "Idempotency-Key": entry.key });
}

async function withEntry(entry, next) {
  const made = await entryOf(entry);
  if (!made.ok) return made;
  entry.entry = made.body.entry; // kept: "copy" gives it, and a retry need not ask again
  await put(entry);
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
  // a contract recorded offline too: its id is known once it was sent (written in by `after`)
  if (entry.after) return entry.made || null;
  if (entry.contractVersion !== undefined) return { id: entry.inProgress, version: entry.contractVersion };
  // opened online, its result entered offline: completed at the version it has when first sent,
  // kept so that every retry sends the same body (the key's answer is recognised by it)
  const response = await fetch(api(entry, `/contracts/${entry.inProgress}`), { credentials: "omit", headers: headers(entry) });
  const contract = response.ok ? await response.json() : null;
  entry.contractVersion = contract ? contract.version : 0;
  await put(entry);
  return { id: entry.inProgress, version: entry.contractVersion };
}

function missingFirst() {
  // what it follows was discarded from this phone before it was sent: nothing to refer to
  return { refused: true, message: "—" };
}

function sameValues(sent, kept) {
  // what this phone sent is what the server holds (it may hold more: seats, the system)
  return Object.keys(sent).every((name) => JSON.stringify(sent[name]) === JSON.stringify(kept ? kept[name] : undefined));
}

const SENDERS = {
  hand: (entry) => withEntry(entry, async (hand) => {
    // the hand number its form showed (contract.md): another phone's hand there is asked about
    const meant = entry.meant ? { number: entry.meant } : {};
    if (entry.meant && typeof entry.seen === "number" && entry.seen < entry.meant) meant.seen_hand_count = entry.seen;
    if (!entry.inProgress && !entry.after) return post(entry, api(entry, "/hands"), { ...hand, ...meant });
    const contract = await contractOf(entry);
    if (!contract) return missingFirst();
    return post(entry, api(entry, `/contracts/${contract.id}/complete`), { ...hand, ...meant, version: contract.version });
  }),
  event: (entry) => post(entry, api(entry, "/events"), entry.entry),
  contract: (entry) => withEntry(entry, (contract) => post(entry, api(entry, "/contracts"), contract)),
  abandon: async (entry) => {
    const contract = await contractOf(entry);
    if (!contract) return missingFirst();
    const outcome = await post(entry, api(entry, `/contracts/${contract.id}/abandon`), { version: contract.version });
    // the first answer was lost (the page's own request): thrown in by exactly that one
    const now = outcome.current;
    if (outcome.conflict && now && now.status === "abandoned" && now.version === contract.version + 1) {
      return { ok: true, body: now };
    }
    return outcome;
  },
  edit: (entry) => withEntry(entry, async (hand) => {
    const at = version(entry);
    const outcome = await request(entry, "PUT", api(entry, `/hands/${entry.number}`), { ...hand, version: at }, ifMatch(entry));
    // the first answer was lost: the hand moved on by exactly this edit, and nothing else
    if (outcome.conflict && outcome.current && outcome.current.version === at + 1 &&
        sameValues(hand, outcome.current.entry)) {
      return { ok: true, body: outcome.current };
    }
    return outcome;
  }),
  // deleting a deleted hand answers it as it is: a retry after a lost answer changes nothing
  delete: (entry) => request(entry, "DELETE", api(entry, `/hands/${entry.number}`), undefined, ifMatch(entry)),
  restore: (entry) => request(entry, "POST", api(entry, `/hands/${entry.number}/restore`), {}, ifMatch(entry)),
  payment: (entry) => post(entry, api(entry, "/payments"), entry.entry),
  unpay: async (entry) => {
    const id = entry.after ? entry.made && entry.made.id : entry.payment;
    if (!id) return missingFirst();
    const outcome = await request(entry, "DELETE", api(entry, `/payments/${id}`));
    // undone already: by this very request, whose answer was lost
    return outcome.codes && outcome.codes.includes("already_undone") ? { ok: true, body: {} } : outcome;
  },
};

async function send(entry) {
  const sender = SENDERS[entry.kind];
  return sender ? sender(entry) : { refused: true, message: "?" };
}

function madeOf(entry, body = {}) {
  // what an entry that follows this one needs to know of it
  if (entry.kind === "hand" || entry.kind === "event") {
    return { number: body.number !== undefined ? body.number : body.hand, version: body.version };
  }
  return { id: body.id, version: body.version, number: body.number };
}

async function handOver(entry, made, all) {
  // the entries that follow this one learn its answer before it leaves the outbox
  for (const other of all.filter((kept) => kept.after === entry.id)) {
    other.made = made;
    await put(other);
  }
}

async function replayOnce(tell) {
  const saved = [];
  const numbered = [];
  const blocked = new Set(); // sessions whose earlier entry waits for the player: their later ones wait
  const all = await items();
  if (!all.some((entry) => !stopped(entry) && entry.state !== SENDING)) return { saved, numbered, reached: true };
  await tell({ state: "saving" });
  try {
    for (const entry of all) {
      if (stopped(entry) || entry.state === SENDING) blocked.add(String(entry.session));
      if (blocked.has(String(entry.session))) continue;
      const outcome = await send(entry);
      if (outcome.ok) {
        saved.push(entry.session);
        const made = madeOf(entry, outcome.body || {});
        if ((entry.kind === "hand" || entry.kind === "event") && made.number) {
          numbered.push({ session: entry.session, number: made.number, key: entry.key });
        }
        await handOver(entry, made, all);
        await discard(entry.id);
      } else if (outcome.refused || outcome.conflict) {
        blocked.add(String(entry.session));
        entry.state = outcome.conflict ? "conflict" : "refused";
        entry.message = outcome.message;
        if (outcome.current) entry.current = outcome.current;
        // another phone saved the hand this one meant: the number the server would give it now
        if (outcome.next) entry.nextNumber = outcome.next;
        await put(entry);
      } else {
        return { saved, numbered, reached: false }; // the server is busy: later
      }
    }
  } catch {
    return { saved, numbered, reached: false }; // no network after all: later
  }
  return { saved, numbered, reached: true };
}

let running = null;
let again = false;

async function rounds(tell) {
  const done = { state: "done", saved: [], numbered: [], reached: true };
  do {
    again = false;
    const result = await replayOnce(tell);
    done.saved.push(...result.saved);
    done.numbered.push(...result.numbered);
    done.reached = result.reached;
  } while (again); // asked again meanwhile: after a cut answer, at once
  return done;
}

export function replay(tell = () => Promise.resolve()) {
  // one replay at a time; a call meanwhile runs once more after it, never beside it
  if (running) {
    again = true;
    return running;
  }
  running = rounds(tell).then(async (done) => {
    running = null;
    await remember(done.numbered);
    await tell(done);
    return done;
  }, (error) => {
    running = null;
    throw error;
  });
  return running;
}
