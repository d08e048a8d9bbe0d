// The app around the pages: the service worker, and the status line.
//
// - Registers the service worker (static/js/sw.js, served at /sw.js), which keeps the pages and
//   the app's files for reading without signal. A new version waits until the player taps
//   "Reload" beside "update available".
// - The status line (templates/partials/app_status.html) tells the truth: online / offline, a
//   page shown as kept ("offline, as of 21:14"), "online and live" while the live stream is open
//   (live.js's live:open / live:closed), saving…, what waits on this phone (the outbox's count,
//   exact), what the server refused, and what it numbered lately ("saved as hand 7": two phones
//   that saved offline learn the order the server put their hands in).
// - Asks the service worker to keep this session's pages (scores, settlement, payments, changes,
//   rules, the forms of the board, the last hands and their edit pages) while there is a network,
//   and remembers the group for /start.
// Sending what waits is the outbox's own (outbox.js). Without JavaScript none of this exists, and
// every page works as it always did.
import * as outbox from "./outbox.js";
import * as stores from "./stores.js";

const status = document.getElementById("app-status");
const say = status ? status.dataset : {};
const text = status && status.querySelector("[data-status-text]");
const updateButton = status && status.querySelector("[data-update]");
const place = outbox.here();
let keptAt = document.documentElement.dataset.offlineAsOf || "";
let saving = false;
let justSaved = false;
let live = false; // the live stream (live.js) says when it opens and closes
const worker = "serviceWorker" in navigator && window.isSecureContext;
const numbered = []; // "saved as hand 7": what the server numbered lately (outbox.js keeps it a while)
const KEPT_HANDS = 6; // the last hands' pages kept for corrections offline: the ones a table fixes
let unanswered = 0; // "is the server back?" asked in vain since the phone said online

function words(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => values[name]);
}

function clock(iso) {
  const at = new Date(iso);
  return isNaN(at) ? "" : at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

// --- the status line ------------------------------------------------------------------------------

function heardNumbered(hands) {
  // the hands of this session the server numbered, each once
  for (const hand of hands) {
    if (String(hand.session) === place.session && !numbered.some((known) => known.key === hand.key)) numbered.push(hand);
  }
  numbered.sort((a, b) => a.number - b.number);
}

function render(all) {
  const stopped = all.filter(outbox.stopped);
  const waiting = all.length - stopped.length;
  const refused = stopped.filter((entry) => entry.state === "refused").length;
  const conflicts = stopped.length - refused;
  const parts = [];
  if (!navigator.onLine || keptAt) {
    parts.push(keptAt ? words(say.sayAsOf, { time: clock(keptAt) }) : say.sayOffline);
  } else if (saving && waiting) {
    parts.push(say.saySaving);
  } else {
    parts.push(live ? say.sayLive : say.sayOnline);
    if (justSaved && !waiting) parts.push(say.saySaved);
  }
  if (numbered.length) parts.push(words(say.saySavedAs, { numbers: numbered.map((hand) => hand.number).join(", ") }));
  if (waiting) parts.push(words(say.sayWaiting, { count: waiting }));
  if (refused) parts.push(words(say.sayRefused, { count: refused }));
  if (conflicts) parts.push(words(say.sayConflicts, { count: conflicts }));
  if (!updateButton.hidden) parts.push(say.sayUpdate);
  text.textContent = parts.join(" · ");
  status.dataset.state = !navigator.onLine || keptAt ? "offline" : saving && waiting ? "saving" : "online";
  status.dataset.waiting = String(waiting);
  status.hidden = false;
}

function refresh() {
  return outbox.items().then(render, () => render([]));
}

// --- the pages kept for reading without signal ---------------------------------------------------

function keepPages() {
  // while there is a network: this session's pages, for the table to read without one. The
  // session's own (settlement, payments, the forms, the board) are fetched again when the session
  // moved since they were kept (its revision), so none is read offline hands behind the scoreboard
  if (!worker || !navigator.onLine || !place.token) return;
  let urls = [window.location.pathname + window.location.search];
  let follows = [];
  const nav = document.querySelector("[data-session-revision]");
  const revision = nav ? nav.dataset.sessionRevision : undefined;
  // the session's pages, and every form the board opens (a hand, a deal miss, the contract, its result)
  for (const link of document.querySelectorAll(".session-nav a, #next-hand .actions a[href], #in-progress a[href]")) {
    const href = link.getAttribute("href");
    // the board, who pays whom, and the forms (the hand number they enter): what a new hand changes.
    // The board kept fresh is the one a Save lands on at once (saves.js)
    const moves = link.hasAttribute("data-moves") || href === place.board || !link.closest(".session-nav");
    (moves && href !== window.location.pathname ? follows : urls).push(href);
  }
  if (place.payments) follows.push(place.payments);
  if (revision === undefined) {
    urls = urls.concat(follows);
    follows = [];
  }
  // the last hands, and their edit pages: a correction, a delete or a restore offline (a view
  // link has no edit pages: asking for them would only be refused)
  const rows = [...document.querySelectorAll("#board-rows tr[id^='hand-'] th a")];
  for (const link of rows.slice(-KEPT_HANDS)) {
    urls.push(link.getAttribute("href"));
    if (say.canEdit) urls.push(`${link.getAttribute("href")}edit/`);
  }
  navigator.serviceWorker.ready.then((registration) => {
    registration.active.postMessage({ type: "keep", urls, follows, revision, group: place.group });
  });
}

function rememberGroup() {
  // the installed icon opens this group (/start, mighty_ledger/pages/views/app.py)
  if (!place.token) return;
  const secure = window.location.protocol === "https:" ? "; secure" : "";
  document.cookie = `last_group=${encodeURIComponent(place.token)}; path=${say.start || "/start"}` +
    `; max-age=31536000; samesite=lax${secure}`;
}

// --- the service worker ---------------------------------------------------------------------------

function offerUpdate(waiting) {
  updateButton.hidden = false;
  updateButton.onclick = () => {
    navigator.serviceWorker.addEventListener("controllerchange", () => window.location.reload());
    waiting.postMessage({ type: "update" });
  };
  // once it no longer waits (taken by this tap, another tab's, or already on its way when this
  // page loaded on a busy phone), there is nothing left to offer: a Reload would tell no one
  waiting.addEventListener("statechange", () => {
    if (waiting.state === "installed") return;
    updateButton.hidden = true;
    refresh();
  });
  refresh();
}

function register() {
  navigator.serviceWorker.register(say.worker, { scope: "/", type: "module", updateViaCache: "none" })
    .then((registration) => {
      if (!registration) return; // refused without an error (a browser that blocks service workers)
      if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting);
      registration.addEventListener("updatefound", () => {
        const installing = registration.installing;
        installing.addEventListener("statechange", () => {
          if (installing.state === "installed" && navigator.serviceWorker.controller) offerUpdate(installing);
        });
      });
    }, () => { /* no service worker (a private window, an old browser): the pages work, online */ });
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (!event.data || event.data.type !== "reachable") return;
    // the phone's "online" can come a moment before its requests get through: ask again
    if (event.data.ok) back();
    else if (++unanswered < 5) askIfBack(1500);
  });
}

function askIfBack(delay) {
  // a kept copy is old news once the server answers again; a form being filled stays as it is
  if (!keptAt || !worker || !navigator.onLine || document.getElementById("hand-form")) return;
  if (Number(stores.read(stores.BACK_TRIES, 0, "sessionStorage")) >= 3) return;
  window.setTimeout(() => {
    navigator.serviceWorker.ready.then((registration) => registration.active.postMessage({ type: "reachable" }));
  }, delay);
}

function back() {
  if (!keptAt) return;
  const card = document.getElementById("payments");
  if (document.querySelector("[data-live-fragments]:not([data-live-fragments=''])") || card) {
    // a page that asks for what changed itself stays (a question it shows now, the payments card's,
    // is not lost to a reload): the board's live regions (live.js), the payments card
    keptAt = "";
    document.dispatchEvent(new CustomEvent("live:refresh"));
    const asks = card && card.querySelector("[data-testid=payment-beyond-owed], [data-testid=payment-already-marked]");
    if (card && !asks && window.htmx) window.htmx.ajax("GET", place.payments, { target: card, swap: "outerHTML" });
    refresh();
    return;
  }
  stores.write(stores.BACK_TRIES, Number(stores.read(stores.BACK_TRIES, 0, "sessionStorage")) + 1, "sessionStorage");
  window.location.reload();
}

function start() {
  window.addEventListener("online", () => {
    if (!keptAt || document.getElementById("hand-form")) keptAt = "";
    stores.write(stores.BACK_TRIES, null, "sessionStorage");
    unanswered = 0;
    askIfBack(0);
    keepPages();
    refresh();
  });
  window.addEventListener("offline", refresh);
  document.addEventListener("outbox:changed", refresh);
  document.addEventListener("outbox:stopped", refresh);
  document.addEventListener("outbox:sending", () => { saving = true; refresh(); });
  document.addEventListener("outbox:sent", (event) => {
    saving = false;
    // a page that showed a kept copy and reached the server: the page as it is now
    if (event.detail.reached && keptAt && navigator.onLine) askIfBack(0);
    refresh();
  });
  document.addEventListener("outbox:landed", (event) => {
    justSaved = true;
    const { entry, number } = event.detail;
    if (number) heardNumbered([{ key: entry.key, session: entry.session, number }]);
    refresh();
  });
  document.addEventListener("live:open", () => { live = true; refresh(); });
  document.addEventListener("live:closed", () => { live = false; refresh(); });
  // offline, a part of the page that loads itself (a chart, the payments) stays as it is
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!navigator.onLine) event.preventDefault();
  });
  if (worker) register();
  rememberGroup();
  if (!keptAt) stores.write(stores.BACK_TRIES, null, "sessionStorage");
  askIfBack(1000);
  refresh();
  if (place.session) {
    outbox.lately(place.session).then((hands) => {
      if (!hands.length) return;
      heardNumbered(hands);
      refresh();
    }, () => {});
  }
  keepPages();
}

if (status) start();
