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
// - A new version waits: the page says "update available" and the player chooses when,
//   so no hand is cut in the middle of its entry.
// - The outbox (outbox.js) is replayed here, when a page asks and on Background Sync.
/* global APP_SHELL, MightyOutbox */
"use strict";

importScripts(APP_SHELL.outbox);

var STATIC_CACHE = "static-" + APP_SHELL.version;
var PAGES_CACHE = "pages"; // the player's pages outlive versions: they are what is readable offline
var STORED_AT = "X-Stored-At";
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
  if (message.type === "keep") { event.waitUntil(keep(message.urls || [], true)); }
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
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
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

function stamped(response) {
  // the time it was read travels with the kept copy, for "offline, as of 21:14"
  var headers = new Headers(response.headers);
  headers.set(STORED_AT, new Date().toISOString());
  return response.clone().blob().then(function (body) {
    return new Response(body, { status: response.status, statusText: response.statusText, headers: headers });
  });
}

function store(url, response) {
  var type = response.headers.get("Content-Type") || "";
  if (response.status !== 200 || response.type !== "basic" || response.redirected || type.indexOf("text/html") !== 0) {
    return Promise.resolve();
  }
  return Promise.all([caches.open(PAGES_CACHE), stamped(response)]).then(function (both) {
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

function offlineCopy(kept) {
  // the page learns it is a kept copy, and from when, on its <html> element
  var at = kept.headers.get(STORED_AT) || "";
  return kept.text().then(function (html) {
    var marked = html.replace(/<html\b/i, '<html data-offline-as-of="' + at + '"');
    return new Response(marked, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

function page(request, url) {
  return fetch(request).then(function (response) {
    if (response.type !== "opaqueredirect") { store(url, response.clone()); }
    return response;
  }).catch(function () {
    return fromCache(request, url);
  });
}

function keep(urls, onlyIfOld) {
  // the pages a player may want at the table without signal: fetched now, while there is one
  return caches.open(PAGES_CACHE).then(function (cache) {
    return Promise.all(urls.map(function (path) {
      var url = new URL(path, self.location.origin);
      return cache.match(url.pathname + url.search).then(function (kept) {
        var at = kept && Date.parse(kept.headers.get(STORED_AT) || "");
        if (onlyIfOld && at && Date.now() - at < KEEP_FRESH_MS) { return null; }
        return fetch(url.href, { credentials: "same-origin" })
          .then(function (response) { return store(url, response); })
          .catch(function () { return null; }); // no network now: kept as it was
      });
    }));
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
