// The service worker: the ledger keeps working when the table has no signal.
//
// Served at /sw.js by mighty_ledger/pages/views/app.py, which puts `self.APP_SHELL` (the static
// files to keep, the pages to keep, this version) in front of this file.
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
/* global APP_SHELL, MightyOutbox */
"use strict";

importScripts(APP_SHELL.outbox);

var STATIC_CACHE = "static-" + APP_SHELL.version;
var PAGES_CACHE = "pages"; // the player's pages outlive versions: they are what is readable offline
var STORED_AT = "X-Stored-At";
var REVISION = "X-Revision"; // the session's revision the kept page shows (data-live-revision)
var LANDING_MS = 3000; // after a Save the outbox kept, how long the board's network gets before the kept copy
var LAST_GROUP = "/last-group"; // a key in PAGES_CACHE: the group page /start opens offline
var KEEP_FRESH_MS = 5 * 60 * 1000; // a page asked to be kept is fetched again at most this often
var HASHED = /\.[0-9a-f]{12}(\.[^./]+)$/; // ManifestStaticFilesStorage's name.0123456789ab.css

self.addEventListener("install", function (event) {
  event.waitUntil(Promise.all([
    caches.open(STATIC_CACHE).then(function (cache) { return cache.addAll(APP_SHELL.static); }),
    keep(APP_SHELL.pages),
  ]));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("static-") === 0 && name !== STATIC_CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("message", function (event) {
  var message = event.data || {};
  if (message.type === "update") { self.skipWaiting(); }
  if (message.type === "keep") {
    event.waitUntil(keep(message.urls || [], true).then(function () {
      return keep(message.follows || [], true, message.revision);
    }));
  }
  if (message.type === "replay") { event.waitUntil(replay()); }
  if (message.type === "reachable") {
    // the phone says it is online: is the server there? (this worker's misses stay off the page's console)
    event.waitUntil(fetch(APP_SHELL.offline, { method: "HEAD", cache: "no-store" }).then(function (response) {
      return response.ok;
    }, function () { return false; }).then(function (ok) {
      event.source.postMessage({ type: "reachable", ok: ok });
    }));
  }
});

self.addEventListener("sync", function (event) {
  if (event.tag === "outbox") { event.waitUntil(replay()); }
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.method === "POST" && request.mode === "navigate") {
    event.respondWith(save(request, url));
    return;
  }
  if (request.method !== "GET") { return; }
  if (request.headers.get("Accept") === "text/event-stream") {
    // a live stream is never kept; offline, 204 tells the page to stop asking until it tries again
    if (!self.navigator.onLine) { event.respondWith(new Response(null, { status: 204 })); }
    return;
  }
  if (url.pathname.indexOf("/api/") === 0) { return; }
  if (url.pathname.indexOf(APP_SHELL.staticPrefix) === 0) {
    event.respondWith(staticFile(request, url));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  }
});

// --- static files ---------------------------------------------------------------------------

function staticFile(request, url) {
  return caches.open(STATIC_CACHE).then(function (cache) {
    return caches.match(request).then(function (kept) {
      if (kept) { return kept; }
      return fetch(request).then(function (response) {
        if (response.ok) { cache.put(request, response.clone()); }
        return response;
      }).catch(function () {
        // a page kept by an older version names an older hash of the same file
        var current = APP_SHELL.static.filter(function (name) {
          return name.replace(HASHED, "$1") === url.pathname.replace(HASHED, "$1");
        })[0];
        return (current && caches.match(current)) || Response.error();
      });
    });
  });
}

// --- pages ------------------------------------------------------------------------------------

function groupOf(pathname) {
  var match = /^\/g\/([^/]+)\//.exec(pathname);
  return match && match[1] !== "new" ? "/g/" + match[1] + "/" : null;
}

function stamped(response, revision) {
  // the time it was read travels with the kept copy, for "offline, as of 21:14", and the
  // session's revision it shows: its own (data-live-revision), or the board's that asked for it
  var headers = new Headers(response.headers);
  headers.set(STORED_AT, new Date().toISOString());
  return response.clone().text().then(function (html) {
    var drawn = /data-(?:live|session)-revision="(\d+)"/.exec(html);
    var at = drawn ? drawn[1] : revision;
    if (at !== undefined && at !== null && at !== "") { headers.set(REVISION, String(at)); }
    return new Response(html, { status: response.status, statusText: response.statusText, headers: headers });
  });
}

function store(url, response, revision) {
  var type = response.headers.get("Content-Type") || "";
  if (response.status !== 200 || response.type !== "basic" || response.redirected || type.indexOf("text/html") !== 0) {
    return Promise.resolve();
  }
  return Promise.all([caches.open(PAGES_CACHE), stamped(response, revision)]).then(function (both) {
    var cache = both[0];
    var kept = [cache.put(url.pathname + url.search, both[1])];
    var group = groupOf(url.pathname);
    if (group) { kept.push(cache.put(LAST_GROUP, new Response(group))); }
    return Promise.all(kept);
  });
}

function fromCache(request, url) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.match(url.pathname + url.search).then(function (kept) {
      // the hand form opened with its declarer tapped (?declarer=Ann) is the same form
      return kept || (url.search ? cache.match(url.pathname) : null);
    }).then(function (kept) {
      if (kept) { return offlineCopy(kept); }
      if (url.pathname === APP_SHELL.start) {
        return cache.match(LAST_GROUP).then(function (group) {
          return group ? group.text().then(function (path) { return Response.redirect(path, 302); }) : null;
        });
      }
      return null;
    }).then(function (answer) {
      return answer || cache.match(APP_SHELL.offline).then(function (fallback) {
        return fallback ? offlineCopy(fallback) : Response.error();
      });
    });
  });
}

function offlineCopy(kept, more) {
  // the page learns it is a kept copy, from when and of which revision, on its <html> element
  var at = kept.headers.get(STORED_AT) || "";
  var revision = kept.headers.get(REVISION) || "";
  return kept.text().then(function (html) {
    var marked = html.replace(/<html\b/i, '<html data-offline-as-of="' + at + '" data-offline-revision="' +
                              revision + '"' + (more || ""));
    return new Response(marked, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

function page(request, url) {
  // the board a kept Save lands on: the server that missed the Save gets a moment, then the kept copy
  var soon = landing && landing.path === url.pathname && Date.now() < landing.until;
  if (soon) { landing = null; }
  var asked = fetch(request);
  return (soon ? within(asked, LANDING_MS) : asked).then(function (response) {
    if (soon && response.status >= 500) { return fromCache(request, url); }
    if (response.type !== "opaqueredirect") { store(url, response.clone()); }
    return response;
  }).catch(function () {
    return fromCache(request, url);
  });
}

function keep(urls, onlyIfOld, revision) {
  // with a revision (the board's): a copy of another revision is fetched again however fresh
  // the pages a player may want at the table without signal: fetched now, while there is one
  return caches.open(PAGES_CACHE).then(function (cache) {
    return Promise.all(urls.map(function (path) {
      var url = new URL(path, self.location.origin);
      return cache.match(url.pathname + url.search).then(function (kept) {
        var at = kept && Date.parse(kept.headers.get(STORED_AT) || "");
        var same = revision === undefined || (kept && kept.headers.get(REVISION) === String(revision));
        if (onlyIfOld && at && same && Date.now() - at < KEEP_FRESH_MS) { return null; }
        return fetch(url.href, { credentials: "same-origin" })
          .then(function (response) { return store(url, response, revision); })
          .catch(function () { return null; }); // no network now: kept as it was
      });
    }));
  });
}

// --- a form's Save ----------------------------------------------------------------------------

var landing = null; // the board a Save the outbox kept lands on, and until when

function within(promise, ms) {
  return new Promise(function (resolve, reject) {
    var timer = setTimeout(function () { reject(new Error("no answer in time")); }, ms);
    promise.then(function (value) { clearTimeout(timer); resolve(value); },
                 function (error) { clearTimeout(timer); reject(error); });
  });
}

function parked(body, url) {
  // what the page wrote before this Save left: the outbox entry of its form, with its key
  return body.then(function (form) {
    var key = form && form.get("request_key");
    return MightyOutbox.items().then(function (all) {
      return all.filter(function (entry) {
        return entry.state === "sending" && entry.formUrl === url.pathname && (!key || entry.key === key);
      }).pop() || null;
    });
  }).catch(function () { return null; });
}

function save(request, url) {
  var body = request.clone().formData().catch(function () { return null; });
  return within(fetch(request), APP_SHELL.saveTimeout).then(function (response) {
    if (response.status >= 500) { return notSaved(body, url, response); }
    // the server answered: its page says what became of the Save, which leaves the outbox
    return parked(body, url).then(function (entry) {
      return entry ? MightyOutbox.discard(entry.id) : null;
    }).catch(function () {}).then(function () { return response; });
  }, function () {
    return notSaved(body, url, null);
  });
}

function notSaved(body, url, response) {
  // cut, no answer in time, or the server failing: the outbox sends it once the server answers
  // (with its key, so one that was saved after all is not saved twice)
  return parked(body, url).then(function (entry) {
    if (!entry) { return null; }
    entry.state = "waiting";
    return MightyOutbox.put(entry).then(function () { return entry; });
  }).catch(function () { return null; }).then(function (entry) {
    if (!entry) { return response || unsent(); }
    if (self.registration.sync) { self.registration.sync.register("outbox").catch(function () {}); }
    var path = entry.landing || entry.boardUrl;
    landing = { path: path, until: Date.now() + 30 * 1000 };
    return Response.redirect(new URL(path + "#kept-" + entry.id, self.location.origin).href, 303);
  });
}

function unsent() {
  // a form the outbox does not keep (a group's, a season's): the offline page says it was not saved
  return caches.open(PAGES_CACHE).then(function (cache) { return cache.match(APP_SHELL.offline); }).then(function (kept) {
    return kept ? offlineCopy(kept, " data-not-sent") : Response.error();
  });
}

// --- the outbox -------------------------------------------------------------------------------

function tell(message) {
  return self.clients.matchAll({ includeUncontrolled: true, type: "window" }).then(function (clients) {
    clients.forEach(function (client) { client.postMessage({ type: "outbox", state: message }); });
  });
}

function replay() {
  return MightyOutbox.replay(tell);
}
