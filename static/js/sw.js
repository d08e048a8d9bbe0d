// The service worker: the ledger keeps working when the table has no signal.
//
// Served at /sw.js by mighty_ledger/pages/views/app.py, which puts `self.APP_SHELL` (the static
// files to keep, the pages to keep, this version) in front of this file. A module worker
// (app_status.js registers it so): it imports the outbox the pages import.
// - Static files: cache first. Their names carry a hash of their contents in production,
//   so a kept file is never stale; a page kept by an older version finds its files here
//   under their older names, or the current file of the same name.
// - Pages: network first; each page read is kept, and shown from here when the network
//   fails, marked with when it was kept ("offline, as of 21:14").
// - Never kept: the API, the live streams, anything but GET.
// - A form's Save (a POST navigation) is sent from here, and never ends on the browser's error
//   page. The page wrote what it makes into the outbox before it left ("sending": drafts.js,
//   queued_forms.js). Cut, timed out (APP_SHELL.saveTimeout) or answered 5xx: the outbox keeps
//   it, waiting, and the player lands on the board (the kept copy, if the server is not there)
//   with a line saying the Save waits on the phone (#kept-<id>). Answered: it leaves the outbox,
//   and the server's page says what became of it (saved, or the form with its problems). This
//   is the worker's job rather than a script posting the form, because the answer stays the
//   server's own page (its redirect, its form sent back, its "saved as hand 8"), as without
//   JavaScript; only a request that got no answer is the outbox's.
// - A page of a session is kept with the session's revision it shows (X-Revision): a kept copy
//   older than the kept board knows it (the settlement, the payments, the forms) is fetched
//   again while there is a network, and says so offline.
// - A new version waits: the page says "update available" and the player chooses when,
//   so no hand is cut in the middle of its entry.
// - The outbox (outbox.js) is replayed here, when a page asks and on Background Sync.
import * as outbox from "/static/js/outbox.js"; // by its plain name: the worker is served from the site's root

const { APP_SHELL } = self;
const STATIC_CACHE = `static-${APP_SHELL.version}`;
const PAGES_CACHE = "pages"; // the player's pages outlive versions: they are what is readable offline
const STORED_AT = "X-Stored-At";
const REVISION = "X-Revision"; // the session's revision the kept page shows (data-live-revision)
const LANDING_MS = 3000; // after a Save the outbox kept, how long the board's network gets before the kept copy
const LAST_GROUP = "/last-group"; // a key in PAGES_CACHE: the group page /start opens offline
const KEEP_FRESH_MS = 5 * 60 * 1000; // a page asked to be kept is fetched again at most this often
const HASHED = /\.[0-9a-f]{12}(\.[^./]+)$/; // ManifestStaticFilesStorage's name.0123456789ab.css
let landing = null; // the board a Save the outbox kept lands on, and until when

self.addEventListener("install", (event) => {
  event.waitUntil(Promise.all([
    caches.open(STATIC_CACHE).then((cache) => cache.addAll(APP_SHELL.static)),
    keep(APP_SHELL.pages),
  ]));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith("static-") && name !== STATIC_CACHE)
    .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "update") self.skipWaiting();
  if (message.type === "keep") {
    event.waitUntil(keep(message.urls || [], true).then(() => keep(message.follows || [], true, message.revision)));
  }
  if (message.type === "replay") event.waitUntil(replay());
  if (message.type === "reachable") {
    // the phone says it is online: is the server there? (this worker's misses stay off the page's console)
    event.waitUntil(fetch(APP_SHELL.offline, { method: "HEAD", cache: "no-store" })
      .then((response) => response.ok, () => false)
      .then((ok) => event.source.postMessage({ type: "reachable", ok })));
  }
});

self.addEventListener("sync", (event) => {
  if (event.tag === "outbox") event.waitUntil(replay());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && request.mode === "navigate") {
    event.respondWith(save(request, url));
    return;
  }
  if (request.method !== "GET") return;
  if (request.headers.get("Accept") === "text/event-stream") {
    // a live stream is never kept; offline, 204 tells the page to stop asking until it tries again
    if (!self.navigator.onLine) event.respondWith(new Response(null, { status: 204 }));
    return;
  }
  if (url.pathname.startsWith("/api/")) return;
  if (url.pathname.startsWith(APP_SHELL.staticPrefix)) {
    event.respondWith(staticFile(request, url));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  }
});

// --- static files ---------------------------------------------------------------------------

async function staticFile(request, url) {
  const cache = await caches.open(STATIC_CACHE);
  const kept = await caches.match(request);
  if (kept) return kept;
  try {
    const response = await fetch(request);
    if (response.ok) cache.put(request, response.clone());
    return response;
  } catch {
    // a page kept by an older version names an older hash of the same file
    const plain = url.pathname.replace(HASHED, "$1");
    const current = APP_SHELL.static.find((name) => name.replace(HASHED, "$1") === plain);
    return (current && caches.match(current)) || Response.error();
  }
}

// --- pages ------------------------------------------------------------------------------------

function groupOf(pathname) {
  const match = /^\/g\/([^/]+)\//.exec(pathname);
  return match && match[1] !== "new" ? `/g/${match[1]}/` : null;
}

async function stamped(response, revision) {
  // the time it was read travels with the kept copy, for "offline, as of 21:14", and the
  // session's revision it shows: its own (data-live-revision), or the board's that asked for it
  const headers = new Headers(response.headers);
  headers.set(STORED_AT, new Date().toISOString());
  const html = await response.clone().text();
  const drawn = /data-(?:live|session)-revision="(\d+)"/.exec(html);
  const at = drawn ? drawn[1] : revision;
  if (at !== undefined && at !== null && at !== "") headers.set(REVISION, String(at));
  return new Response(html, { status: response.status, statusText: response.statusText, headers });
}

async function store(url, response, revision) {
  const type = response.headers.get("Content-Type") || "";
  if (response.status !== 200 || response.type !== "basic" || response.redirected || !type.startsWith("text/html")) return;
  const [cache, copy] = await Promise.all([caches.open(PAGES_CACHE), stamped(response, revision)]);
  const kept = [cache.put(url.pathname + url.search, copy)];
  const group = groupOf(url.pathname);
  if (group) kept.push(cache.put(LAST_GROUP, new Response(group)));
  await Promise.all(kept);
}

async function fromCache(request, url) {
  const cache = await caches.open(PAGES_CACHE);
  // the hand form opened with its declarer tapped (?declarer=Ann) is the same form
  const kept = (await cache.match(url.pathname + url.search)) || (url.search ? await cache.match(url.pathname) : null);
  let answer = null;
  if (kept) {
    answer = await offlineCopy(kept);
  } else if (url.pathname === APP_SHELL.start) {
    const group = await cache.match(LAST_GROUP);
    answer = group ? Response.redirect(await group.text(), 302) : null;
  }
  if (answer) return answer;
  const fallback = await cache.match(APP_SHELL.offline);
  return fallback ? offlineCopy(fallback) : Response.error();
}

async function offlineCopy(kept, more = "") {
  // the page learns it is a kept copy, from when and of which revision, on its <html> element
  const at = kept.headers.get(STORED_AT) || "";
  const revision = kept.headers.get(REVISION) || "";
  const html = await kept.text();
  const marked = html.replace(/<html\b/i, `<html data-offline-as-of="${at}" data-offline-revision="${revision}"${more}`);
  return new Response(marked, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function page(request, url) {
  // the board a kept Save lands on: the server that missed the Save gets a moment, then the kept copy
  const soon = landing && landing.path === url.pathname && Date.now() < landing.until;
  if (soon) landing = null;
  const asked = fetch(request);
  return (soon ? within(asked, LANDING_MS) : asked).then((response) => {
    if (soon && response.status >= 500) return fromCache(request, url);
    if (response.type !== "opaqueredirect") store(url, response.clone());
    return response;
  }).catch(() => fromCache(request, url));
}

async function keep(urls, onlyIfOld, revision) {
  // with a revision (the board's): a copy of another revision is fetched again however fresh
  // the pages a player may want at the table without signal: fetched now, while there is one
  const cache = await caches.open(PAGES_CACHE);
  await Promise.all(urls.map(async (path) => {
    const url = new URL(path, self.location.origin);
    const kept = await cache.match(url.pathname + url.search);
    const at = kept && Date.parse(kept.headers.get(STORED_AT) || "");
    const same = revision === undefined || (kept && kept.headers.get(REVISION) === String(revision));
    if (onlyIfOld && at && same && Date.now() - at < KEEP_FRESH_MS) return;
    try {
      await store(url, await fetch(url.href, { credentials: "same-origin" }), revision);
    } catch { /* no network now: kept as it was */ }
  }));
}

// --- a form's Save ----------------------------------------------------------------------------

function within(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer in time")), ms);
    promise.then((value) => { clearTimeout(timer); resolve(value); },
                 (error) => { clearTimeout(timer); reject(error); });
  });
}

async function parked(body, url) {
  // what the page wrote before this Save left: the outbox entry of its form, with its key
  try {
    const form = await body;
    const key = form && form.get("request_key");
    const all = await outbox.items();
    return all.filter((entry) => {
      return entry.state === "sending" && entry.formUrl === url.pathname && (!key || entry.key === key);
    }).pop() || null;
  } catch {
    return null;
  }
}

function save(request, url) {
  const body = request.clone().formData().catch(() => null);
  return within(fetch(request), APP_SHELL.saveTimeout).then(async (response) => {
    if (response.status >= 500) return notSaved(body, url, response);
    // the server answered: its page says what became of the Save, which leaves the outbox
    try {
      const entry = await parked(body, url);
      if (entry) await outbox.discard(entry.id);
    } catch { /* storage off: nothing was kept */ }
    return response;
  }, () => notSaved(body, url, null));
}

async function notSaved(body, url, response) {
  // cut, no answer in time, or the server failing: the outbox sends it once the server answers
  // (with its key, so one that was saved after all is not saved twice)
  let entry = null;
  try {
    entry = await parked(body, url);
    if (entry) {
      entry.state = "waiting";
      await outbox.put(entry);
    }
  } catch {
    entry = null;
  }
  if (!entry) return response || unsent();
  if (self.registration.sync) self.registration.sync.register("outbox").catch(() => {});
  const path = entry.landing || entry.boardUrl;
  landing = { path, until: Date.now() + 30 * 1000 };
  return Response.redirect(new URL(`${path}#kept-${entry.id}`, self.location.origin).href, 303);
}

async function unsent() {
  // a form the outbox does not keep (a group's, a season's): the offline page says it was not saved
  const kept = await (await caches.open(PAGES_CACHE)).match(APP_SHELL.offline);
  return kept ? offlineCopy(kept, " data-not-sent") : Response.error();
}

// --- the outbox -------------------------------------------------------------------------------

async function tell(message) {
  const clients = await self.clients.matchAll({ includeUncontrolled: true, type: "window" });
  for (const client of clients) client.postMessage({ type: "outbox", state: message });
}

function replay() {
  return outbox.replay(tell);
}
