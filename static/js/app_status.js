// The app around the pages: the service worker, the status line, and the outbox on the scoreboard.
//
// - Registers the service worker (static/js/sw.js, served at /sw.js). A new version waits
//   until the player taps "Reload" beside "update available".
// - The status line (templates/partials/app_status.html) tells the truth: online / offline,
//   a page shown as kept ("offline, as of 21:14"), hands waiting, saving…, all saved;
//   "online and live" while the live stream is open (live.js's live:open / live:closed).
//   A kept page is replaced by the real one once the server answers again.
// - Asks for the outbox to be sent on page load, when the phone is online again, and when
//   the page is seen again; the service worker sends it (or this page, without one).
// - Hands the outbox to pending.js, which shows each action waiting where it will land.
// - After a replay, says what the server numbered the hands it got ("saved as hand 7"): two
//   phones that saved hands offline learn the order the server put them in.
// - Asks the service worker to keep this session's pages (scores, settlement, payments,
//   changes, rules, the forms of the board, the last hands and their edit pages) while there
//   is a network, and remembers the group for /start.
// - A Save whose request got no answer lands here with #kept-<id> (sw.js): the line says it
//   waits on this phone until the server has it. A Save the page left "sending" in the outbox
//   and no one settled (no service worker, a worker stopped mid-request) is made waiting once
//   its request is surely over, so the outbox sends it with its key.
// Without JavaScript none of this exists, and every page works as it always did.
import * as outbox from "./outbox.js";
import * as pending from "./pending.js";

const status = document.getElementById("app-status");
const say = status ? status.dataset : {};
const text = status && status.querySelector("[data-status-text]");
const updateButton = status && status.querySelector("[data-update]");
let keptAt = document.documentElement.dataset.offlineAsOf || "";
const PAGE = /^\/g\/([^/]+)\/(?:s\/(\d+)\/)?/.exec(window.location.pathname);
const token = PAGE && PAGE[1] !== "new" ? PAGE[1] : null;
const session = token && PAGE[2] ? PAGE[2] : null;
let saving = false;
let justSaved = false;
let live = false; // the live stream (live.js) says when it opens and closes
let worker = "serviceWorker" in navigator && window.isSecureContext;
const numbered = []; // "saved as hand 7": what the server numbered lately (outbox.js keeps it a while)
const KEPT_HANDS = 6; // the last hands' pages kept for corrections offline: the ones a table fixes
// a form's request is surely over after the service worker's wait and a margin
const SENDING_OVER_MS = (Number(say.saveTimeout) || 15000) + 15000;
const kept = /^#kept-(\d+)$/.exec(window.location.hash); // a Save the outbox kept, landed here
let retries = 0; // replays in a row that did not reach the server while the phone said online
let unanswered = 0; // "is the server back?" asked in vain since the phone said online
const BACK_TRIES = "back-tries"; // reloads of kept copies in a row, so a half-there server is no loop

function words(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => values[name]);
}

function clock(iso) {
  const at = new Date(iso);
  return isNaN(at) ? "" : at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

// --- the status line ------------------------------------------------------------------

function heardNumbered(hands) {
  // the hands of this session the server numbered, each once
  for (const hand of hands) {
    if (hand.session === session && !numbered.some((known) => known.key === hand.key)) numbered.push(hand);
  }
  numbered.sort((a, b) => a.number - b.number);
}

function render(items) {
  const stopped = items.filter(outbox.stopped);
  const waiting = items.length - stopped.length;
  const refused = stopped.filter((item) => item.state === "refused").length;
  const conflicts = stopped.length - refused;
  const parts = [];
  if (!navigator.onLine || keptAt) {
    parts.push(keptAt ? words(say.sayAsOf, { time: clock(keptAt) }) : say.sayOffline);
  } else if (saving) {
    parts.push(say.saySaving);
  } else {
    parts.push(live ? say.sayLive : say.sayOnline);
    if (justSaved && !waiting) parts.push(say.saySaved);
  }
  if (numbered.length) parts.push(words(say.saySavedAs, { numbers: numbered.map((hand) => hand.number).join(", ") }));
  if (kept && waiting) parts.push(say.sayKept);
  if (waiting && !saving) parts.push(words(say.sayWaiting, { count: waiting }));
  if (refused) parts.push(words(say.sayRefused, { count: refused }));
  if (conflicts) parts.push(words(say.sayConflicts, { count: conflicts }));
  if (!updateButton.hidden) parts.push(say.sayUpdate);
  text.textContent = parts.join(" · ");
  status.dataset.state = !navigator.onLine || keptAt ? "offline" : saving ? "saving" : "online";
  status.hidden = false;
  pending.show(items);
}

function refresh() {
  return outbox.items().then(render, () => render([]));
}

async function unparkLeftBehind() {
  // "sending" with no one to settle it: the outbox sends it (its key lands it once)
  try {
    const over = Date.now() - SENDING_OVER_MS;
    const items = await outbox.items();
    await Promise.all(items.filter((item) => item.state === "sending" && Date.parse(item.queuedAt) < over)
      .map((item) => outbox.unpark(item.key)));
  } catch { /* storage off: nothing was parked */ }
}

// --- sending the outbox ---------------------------------------------------------------------

function heard(message) {
  if (message.state === "saving") saving = true;
  if (message.state === "done") {
    saving = false;
    // the server was not reached although the phone says online: try again a little later
    if (!message.reached && navigator.onLine && retries < 5) {
      retries += 1;
      window.setTimeout(replay, 2000 * retries);
    } else if (message.reached) {
      retries = 0;
    }
    justSaved = justSaved || message.saved.length > 0;
    heardNumbered(message.numbered || []);
    // the board or payments of a session that just got its actions: shown as the server has them
    // (the page loaded next says the numbers again: outbox.js keeps them a while)
    const shows = document.getElementById("board-rows") || document.getElementById("payments");
    if (session && message.saved.includes(session) && shows) {
      window.location.reload();
      return Promise.resolve();
    }
  }
  return refresh();
}

function replay() {
  if (!navigator.onLine) return refresh();
  if (worker) {
    return navigator.serviceWorker.ready.then((registration) => {
      registration.active.postMessage({ type: "replay" });
    });
  }
  return outbox.replay(heard);
}

function keepPages() {
  // while there is a network: this session's pages, for the table to read without one. The
  // session's own (settlement, payments, the forms) are fetched again when the session moved
  // since they were kept (its revision), so none is read offline hands behind the scoreboard
  if (!worker || !navigator.onLine || !token) return;
  let urls = [window.location.pathname + window.location.search];
  let follows = [];
  const nav = document.querySelector("[data-session-revision]");
  const revision = nav ? nav.dataset.sessionRevision : undefined;
  // the session's pages, and every form the board opens (a hand, a deal miss, the contract, its result)
  for (const link of document.querySelectorAll(".session-nav a, #next-hand .actions a[href], #in-progress a[href]")) {
    const href = link.getAttribute("href");
    // who pays whom, and the forms (the hand number they enter): what a new hand changes
    const moves = /\/(settle|payments)\/$/.test(href) || !link.closest(".session-nav");
    (moves && href !== window.location.pathname ? follows : urls).push(href);
  }
  if (session) follows.push(`${PAGE[0]}payments/`);
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
    registration.active.postMessage({ type: "keep", urls, follows, revision });
  });
}

function rememberGroup() {
  // the installed icon opens this group (/start, mighty_ledger/pages/views/app.py)
  if (!token) return;
  const secure = window.location.protocol === "https:" ? "; secure" : "";
  document.cookie = `last_group=${encodeURIComponent(token)}; path=${say.start || "/start"}` +
    `; max-age=31536000; samesite=lax${secure}`;
}

// --- the service worker -----------------------------------------------------------------------

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
  // a module worker (sw.js imports outbox.js), whose imports are fetched past the HTTP cache as
  // the worker itself is: a new version of the outbox comes with the worker that announces it
  navigator.serviceWorker.register(say.worker, { scope: "/", type: "module", updateViaCache: "none" })
    .then((registration) => {
      if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting);
      registration.addEventListener("updatefound", () => {
        const installing = registration.installing;
        installing.addEventListener("statechange", () => {
          if (installing.state === "installed" && navigator.serviceWorker.controller) offerUpdate(installing);
        });
      });
    }, () => {
      worker = false; // no service worker (a private window, an old browser): this page sends the outbox
      replay();
    });
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.type === "outbox") heard(event.data.state);
    if (event.data && event.data.type === "reachable") {
      // the phone's "online" can come a moment before its requests get through: ask again
      if (event.data.ok) {
        back();
      } else if (++unanswered < 5) {
        askIfBack(1500);
      }
    }
  });
}

function askIfBack(delay) {
  // a kept copy is old news once the server answers again; a form being filled stays as it is
  if (!keptAt || !worker || !navigator.onLine || document.getElementById("hand-form")) return;
  if (Number(window.sessionStorage.getItem(BACK_TRIES) || 0) >= 3) return;
  window.setTimeout(() => {
    navigator.serviceWorker.ready.then((registration) => {
      registration.active.postMessage({ type: "reachable" });
    });
  }, delay);
}

function back() {
  if (!keptAt) return;
  window.sessionStorage.setItem(BACK_TRIES, String(Number(window.sessionStorage.getItem(BACK_TRIES) || 0) + 1));
  window.location.reload();
}

function start() {
  window.addEventListener("online", () => {
    if (!keptAt || document.getElementById("hand-form")) keptAt = "";
    window.sessionStorage.removeItem(BACK_TRIES);
    unanswered = 0;
    askIfBack(0);
    replay();
    keepPages();
  });
  window.addEventListener("offline", refresh);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") replay();
  });
  document.addEventListener("outbox:changed", () => replay());
  document.addEventListener("live:updated", refresh); // the live board swapped its rows: add ours again
  document.addEventListener("live:open", () => { live = true; refresh(); });
  document.addEventListener("live:closed", () => { live = false; refresh(); });
  // offline, a part of the page that loads itself (a chart, the payments) stays as it is
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!navigator.onLine) event.preventDefault();
  });

  if (kept) {
    // said once: a reload or a link shared from here is the board as ever
    window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
  }
  if (document.documentElement.hasAttribute("data-not-sent")) {
    document.querySelectorAll("[data-not-sent-note]").forEach((note) => { note.hidden = false; });
  }
  if (worker) register();
  rememberGroup();
  if (!keptAt) window.sessionStorage.removeItem(BACK_TRIES);
  askIfBack(1000);
  refresh();
  if (session) {
    outbox.lately(session).then((hands) => {
      if (hands.length) {
        heardNumbered(hands);
        refresh();
      }
    }, () => {});
  }
  unparkLeftBehind().then(replay);
  keepPages();
}

if (status) start();
