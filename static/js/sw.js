// The service worker: the ledger stays readable when the table has no signal.
//
// Served at /sw.js by mighty_ledger/pages/views/app.py, which puts `self.APP_SHELL` (the static
// files to keep, the pages to keep, this version) in front of this file. A module worker
// (app_status.js registers it so).
// - Static files: cache first. Their names carry a hash of their contents in production,
//   so a kept file is never stale; a page kept by an older version finds its files here
//   under their older names, or the current file of the same name.
// - Pages: network first; each page read is kept, and shown from here when the network
//   fails, marked with when it was kept ("offline, as of 21:14").
// - After a Save, the board it lands on is shown from here at once (saves.js tells which, just
//   before it goes there): the page then asks the server for what changed (live.js), and the
//   kept copy is read again behind it. The Save itself is the outbox's (outbox.js), sent by the
//   pages: this worker carries no form.
// - Never kept: the API, the live streams, anything but GET.
// - A page of a session is kept with the session's revision it shows (X-Revision): a kept copy
//   older than the kept board knows it (the settlement, the payments, the forms) is fetched
//   again while there is a network, and says so offline.
// - A new version waits: the page says "update available" and the player chooses when,
//   so no hand is cut in the middle of its entry.
import * as stores from "/static/js/stores.js"; // by its plain name: the worker is served from the site's root

const { APP_SHELL } = self;
const STATIC_CACHE = `${stores.STATIC_CACHE}${APP_SHELL.version}`;
// the player's pages outlive versions: they are what is readable offline
const { PAGES_CACHE, STORED_AT, REVISION, LAST_GROUP } = stores;
const LANDING_MS = 10000; // how long after a Save its board is shown from here
const KEEP_FRESH_MS = 5 * 60 * 1000; // a page asked to be kept is fetched again at most this often
const HASHED = /\.[0-9a-f]{12}(\.[^./]+)$/; // ManifestStaticFilesStorage's name.0123456789ab.css
let landing = null; // the board a Save lands on, and until when

self.addEventListener("install", (event) => {
  event.waitUntil(Promise.all([
    caches.open(STATIC_CACHE).then((cache) => cache.addAll(APP_SHELL.static)),
    keep(APP_SHELL.pages),
  ]));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith(stores.STATIC_CACHE) && name !== STATIC_CACHE)
    .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "update") self.skipWaiting();
  if (message.type === "keep") {
    // the page's group is the one /start opens offline
    const group = message.group ? caches.open(PAGES_CACHE).then((cache) => cache.put(LAST_GROUP, new Response(message.group)))
      : Promise.resolve();
    event.waitUntil(Promise.all([group, keep(message.urls || [], true)
      .then(() => keep(message.follows || [], true, message.revision))]));
  }
  if (message.type === "landing") {
    landing = { path: message.path, until: Date.now() + LANDING_MS };
    if (event.ports[0]) event.ports[0].postMessage("ready");
  }
  if (message.type === "reachable") {
    // the phone says it is online: is the server there? (this worker's misses stay off the page's console)
    event.waitUntil(fetch(APP_SHELL.offline, { method: "HEAD", cache: "no-store" })
      .then((response) => response.ok, () => false)
      .then((ok) => event.source.postMessage({ type: "reachable", ok })));
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
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
  await cache.put(url.pathname + url.search, copy);
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

async function offlineCopy(kept, landed = false) {
  // the page learns it is a kept copy, from when and of which revision, on its <html> element;
  // a board a Save landed on is shown from here while online: it asks the server what changed
  const at = kept.headers.get(STORED_AT) || "";
  const revision = kept.headers.get(REVISION) || "";
  const html = await kept.text();
  const mark = landed ? `data-landed="${at}"` : `data-offline-as-of="${at}" data-offline-revision="${revision}"`;
  let marked = html.replace(/<html\b/i, `<html ${mark}`);
  // the board a Save landed on is first painted once its scripts have drawn what waits (pending.js):
  // the hand the Save put on it does not blink out as it loads
  if (landed) marked = marked.replace(/<script type="module"/g, '<script type="module" blocking="render"');
  return new Response(marked, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

async function page(request, url) {
  // the board a Save just went to: shown from here at once, read again behind it
  if (landing && landing.path === url.pathname && Date.now() < landing.until && self.navigator.onLine) {
    landing = null;
    const kept = await (await caches.open(PAGES_CACHE)).match(url.pathname);
    if (kept) {
      fetch(request).then((response) => store(url, response), () => {});
      return offlineCopy(kept, true);
    }
  }
  try {
    const response = await fetch(request);
    if (response.type !== "opaqueredirect") store(url, response.clone());
    return response;
  } catch {
    return fromCache(request, url);
  }
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
