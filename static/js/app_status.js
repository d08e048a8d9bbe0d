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
(function () {
  "use strict";

  var status = document.getElementById("app-status");
  var Outbox = window.MightyOutbox;
  if (!status || !Outbox) { return; }
  var say = status.dataset;
  var text = status.querySelector("[data-status-text]");
  var updateButton = status.querySelector("[data-update]");
  var keptAt = document.documentElement.dataset.offlineAsOf || "";
  var PAGE = /^\/g\/([^/]+)\/(?:s\/(\d+)\/)?/.exec(window.location.pathname);
  var token = PAGE && PAGE[1] !== "new" ? PAGE[1] : null;
  var session = token && PAGE[2] ? PAGE[2] : null;
  var saving = false;
  var justSaved = false;
  var live = false; // the live stream (live.js) says when it opens and closes
  var worker = "serviceWorker" in navigator && window.isSecureContext;
  var numbered = []; // "saved as hand 7": what the server numbered lately (outbox.js keeps it a while)
  var KEPT_HANDS = 6; // the last hands' pages kept for corrections offline: the ones a table fixes
  // a form's request is surely over after the service worker's wait and a margin
  var SENDING_OVER_MS = (Number(say.saveTimeout) || 15000) + 15000;
  var kept = /^#kept-(\d+)$/.exec(window.location.hash); // a Save the outbox kept, landed here

  function words(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) { return values[name]; });
  }

  function clock(iso) {
    var at = new Date(iso);
    return isNaN(at) ? "" : at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  // --- the status line ------------------------------------------------------------------

  function heardNumbered(hands) {
    // the hands of this session the server numbered, each once
    var known = numbered.map(function (hand) { return hand.key; });
    hands.forEach(function (hand) {
      if (hand.session === session && known.indexOf(hand.key) < 0) { numbered.push(hand); known.push(hand.key); }
    });
    numbered.sort(function (a, b) { return a.number - b.number; });
  }

  function render(items) {
    var stopped = items.filter(Outbox.stopped);
    var waiting = items.length - stopped.length;
    var refused = stopped.filter(function (item) { return item.state === "refused"; }).length;
    var conflicts = stopped.length - refused;
    var parts = [];
    if (!navigator.onLine || keptAt) {
      parts.push(keptAt ? words(say.sayAsOf, { time: clock(keptAt) }) : say.sayOffline);
    } else if (saving) {
      parts.push(say.saySaving);
    } else {
      parts.push(live ? say.sayLive : say.sayOnline);
      if (justSaved && !waiting) { parts.push(say.saySaved); }
    }
    if (numbered.length) {
      parts.push(words(say.saySavedAs, { numbers: numbered.map(function (hand) { return hand.number; }).join(", ") }));
    }
    if (kept && waiting) { parts.push(say.sayKept); }
    if (waiting && !saving) { parts.push(words(say.sayWaiting, { count: waiting })); }
    if (refused) { parts.push(words(say.sayRefused, { count: refused })); }
    if (conflicts) { parts.push(words(say.sayConflicts, { count: conflicts })); }
    if (!updateButton.hidden) { parts.push(say.sayUpdate); }
    text.textContent = parts.join(" · ");
    status.dataset.state = !navigator.onLine || keptAt ? "offline" : saving ? "saving" : "online";
    status.hidden = false;
    if (window.MightyPending) { window.MightyPending.show(items); }
  }

  function refresh() {
    return Outbox.items().then(render, function () { render([]); });
  }

  function unparkLeftBehind() {
    // "sending" with no one to settle it: the outbox sends it (its key lands it once)
    return Outbox.items().then(function (items) {
      var over = Date.now() - SENDING_OVER_MS;
      return Promise.all(items.filter(function (item) {
        return item.state === "sending" && Date.parse(item.queuedAt) < over;
      }).map(function (item) { return Outbox.unpark(item.key); }));
    }).catch(function () {});
  }

  // --- sending the outbox ---------------------------------------------------------------------

  function heard(message) {
    if (message.state === "saving") { saving = true; }
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
      var shows = document.getElementById("board-rows") || document.getElementById("payments");
      if (session && message.saved.indexOf(session) >= 0 && shows) {
        window.location.reload();
        return Promise.resolve();
      }
    }
    return refresh();
  }

  function replay() {
    if (!navigator.onLine) { return refresh(); }
    if (worker) {
      return navigator.serviceWorker.ready.then(function (registration) {
        registration.active.postMessage({ type: "replay" });
      });
    }
    return Outbox.replay(heard);
  }

  function keepPages() {
    // while there is a network: this session's pages, for the table to read without one. The
    // session's own (settlement, payments, the forms) are fetched again when the session moved
    // since they were kept (its revision), so none is read offline hands behind the scoreboard
    if (!worker || !navigator.onLine || !token) { return; }
    var urls = [window.location.pathname + window.location.search];
    var follows = [];
    var nav = document.querySelector("[data-session-revision]");
    var revision = nav ? nav.dataset.sessionRevision : undefined;
    // the session's pages, and every form the board opens (a hand, a deal miss, the contract, its result)
    document.querySelectorAll(".session-nav a, #next-hand .actions a[href], #in-progress a[href]").forEach(function (link) {
      var href = link.getAttribute("href");
      // who pays whom, and the forms (the hand number they enter): what a new hand changes
      var moves = /\/(settle|payments)\/$/.test(href) || !link.closest(".session-nav");
      (moves && href !== window.location.pathname ? follows : urls).push(href);
    });
    if (session) { follows.push(PAGE[0] + "payments/"); }
    if (revision === undefined) { urls = urls.concat(follows); follows = []; }
    // the last hands, and their edit pages: a correction, a delete or a restore offline (a view
    // link has no edit pages: asking for them would only be refused)
    var rows = document.querySelectorAll("#board-rows tr[id^='hand-'] th a");
    Array.prototype.slice.call(rows, -KEPT_HANDS).forEach(function (link) {
      urls.push(link.getAttribute("href"));
      if (say.canEdit) { urls.push(link.getAttribute("href") + "edit/"); }
    });
    navigator.serviceWorker.ready.then(function (registration) {
      registration.active.postMessage({ type: "keep", urls: urls, follows: follows, revision: revision });
    });
  }

  function rememberGroup() {
    // the installed icon opens this group (/start, mighty_ledger/pages/views/app.py)
    if (!token) { return; }
    var secure = window.location.protocol === "https:" ? "; secure" : "";
    document.cookie = "last_group=" + encodeURIComponent(token) + "; path=" + (say.start || "/start") +
      "; max-age=31536000; samesite=lax" + secure;
  }

  // --- the service worker -----------------------------------------------------------------------

  function offerUpdate(waiting) {
    updateButton.hidden = false;
    updateButton.onclick = function () {
      navigator.serviceWorker.addEventListener("controllerchange", function () { window.location.reload(); });
      waiting.postMessage({ type: "update" });
    };
    refresh();
  }

  function register() {
    navigator.serviceWorker.register(say.worker, { scope: "/" }).then(function (registration) {
      if (registration.waiting && navigator.serviceWorker.controller) { offerUpdate(registration.waiting); }
      registration.addEventListener("updatefound", function () {
        var installing = registration.installing;
        installing.addEventListener("statechange", function () {
          if (installing.state === "installed" && navigator.serviceWorker.controller) { offerUpdate(installing); }
        });
      });
    }, function () {
      worker = false; // no service worker (a private window, an old browser): this page sends the outbox
      replay();
    });
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "outbox") { heard(event.data.state); }
      if (event.data && event.data.type === "reachable") {
        // the phone's "online" can come a moment before its requests get through: ask again
        if (event.data.ok) { back(); } else if (++unanswered < 5) { askIfBack(1500); }
      }
    });
  }

  var retries = 0; // replays in a row that did not reach the server while the phone said online
  var unanswered = 0; // "is the server back?" asked in vain since the phone said online
  var BACK_TRIES = "back-tries"; // reloads of kept copies in a row, so a half-there server is no loop

  function askIfBack(delay) {
    // a kept copy is old news once the server answers again; a form being filled stays as it is
    if (!keptAt || !worker || !navigator.onLine || document.getElementById("hand-form")) { return; }
    if (Number(window.sessionStorage.getItem(BACK_TRIES) || 0) >= 3) { return; }
    window.setTimeout(function () {
      navigator.serviceWorker.ready.then(function (registration) {
        registration.active.postMessage({ type: "reachable" });
      });
    }, delay);
  }

  function back() {
    if (!keptAt) { return; }
    window.sessionStorage.setItem(BACK_TRIES, String(Number(window.sessionStorage.getItem(BACK_TRIES) || 0) + 1));
    window.location.reload();
  }

  window.addEventListener("online", function () {
    if (!keptAt || document.getElementById("hand-form")) { keptAt = ""; }
    window.sessionStorage.removeItem(BACK_TRIES);
    unanswered = 0;
    askIfBack(0);
    replay();
    keepPages();
  });
  window.addEventListener("offline", refresh);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { replay(); }
  });
  document.addEventListener("outbox:changed", function () { replay(); });
  document.addEventListener("live:updated", refresh); // the live board swapped its rows: add ours again
  document.addEventListener("live:open", function () { live = true; refresh(); });
  document.addEventListener("live:closed", function () { live = false; refresh(); });
  // offline, a part of the page that loads itself (a chart, the payments) stays as it is
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!navigator.onLine) { event.preventDefault(); }
  });

  if (kept) {
    // said once: a reload or a link shared from here is the board as ever
    window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
  }
  if (document.documentElement.hasAttribute("data-not-sent")) {
    document.querySelectorAll("[data-not-sent-note]").forEach(function (note) { note.hidden = false; });
  }
  if (worker) { register(); }
  rememberGroup();
  if (!keptAt) { window.sessionStorage.removeItem(BACK_TRIES); }
  askIfBack(1000);
  refresh();
  if (session) {
    Outbox.lately(session).then(function (hands) {
      if (hands.length) { heardNumbered(hands); refresh(); }
    }, function () {});
  }
  unparkLeftBehind().then(replay);
  keepPages();
})();
