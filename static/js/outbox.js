// The outbox: hands saved on the phone while the server could not be reached, kept in
// IndexedDB until the server has them, then sent in the order they were saved.
//
// Loaded by every page and by the service worker (importScripts), which is the one that
// replays it when it can (Background Sync, or a page asking); a page without a service
// worker replays it itself. Each hand keeps:
// - the fields the player tapped, as the hand form posts them. Once online, the form turns
//   them into HAND_JSON on the server (GET .../hands/entry/), so the entry is the very one
//   the form saves, and the API checks it against the rules;
// - its one-time key, sent as Idempotency-Key: a replay cut off before its answer and sent
//   again, or a hand the form saved whose answer never arrived, is recorded once;
// - the link, sent as "Authorization: Bearer <token>" (mighty_ledger/api/auth.py).
// A hand the server refuses stays here with the server's words until the player fixes,
// copies or discards it; the hands after it in the same session wait behind it.
(function (scope) {
  "use strict";

  var DATABASE = "mighty-ledger";
  var STORE = "outbox";

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function run(mode, work) {
    return open().then(function (database) {
      return new Promise(function (resolve, reject) {
        var transaction = database.transaction(STORE, mode);
        var request = work(transaction.objectStore(STORE));
        transaction.oncomplete = function () { database.close(); resolve(request.result); };
        transaction.onerror = function () { database.close(); reject(transaction.error); };
      });
    });
  }

  function hands() {
    return run("readonly", function (store) { return store.getAll(); }).then(function (items) {
      return items.sort(function (a, b) { return a.id - b.id; });
    });
  }

  function hand(id) {
    return run("readonly", function (store) { return store.get(id); });
  }

  function put(item) {
    return run("readwrite", function (store) { return store.put(item); });
  }

  function discard(id) {
    return run("readwrite", function (store) { return store.delete(id); });
  }

  function add(item) {
    item.state = "waiting";
    item.queuedAt = new Date().toISOString();
    return put(item);
  }

  // --- sending --------------------------------------------------------------------------

  function verdict(response) {
    return response.json().catch(function () { return null; }).then(function (body) {
      if (response.ok) { return { ok: true, body: body }; }
      if (response.status >= 500 || response.status === 408 || response.status === 429) {
        return { later: true }; // the server is restarting or busy: not the hand's fault
      }
      var errors = (body && body.errors) || [];
      if (errors.some(function (error) { return error.code === "request_in_progress"; })) {
        return { later: true }; // the same hand is being saved this very moment (a retry met it)
      }
      var message = errors.map(function (error) { return error.message; }).filter(Boolean).join(" ");
      return { refused: true, message: message || response.status + " " + response.statusText };
    });
  }

  function entryOf(item) {
    if (item.entry) { return Promise.resolve({ ok: true, body: { entry: item.entry } }); }
    var query = new URLSearchParams(item.fields).toString();
    return fetch(item.entryUrl + "?" + query, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(verdict);
  }

  function headers(item) {
    return { "Content-Type": "application/json", Accept: "application/json", Authorization: "Bearer " + item.token };
  }

  function post(item, url, body) {
    var sent = headers(item);
    sent["Idempotency-Key"] = item.key;
    return fetch(url, { method: "POST", credentials: "omit", headers: sent, body: JSON.stringify(body) }).then(verdict);
  }

  function complete(item) {
    // a hand entered from the hand in progress completes it, as the form would have, at the version
    // it has now; a retry cut off before its answer is recognised by its key even once it is completed,
    // and a hand in progress another phone completed or threw in meanwhile refuses this one, with why
    var url = "/api/v1/sessions/" + item.session + "/contracts/" + item.inProgress;
    return fetch(url, { credentials: "omit", headers: headers(item) }).then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (contract) {
      return post(item, url + "/complete", Object.assign({}, item.entry, { version: contract ? contract.version : 0 }));
    });
  }

  function send(item) {
    return entryOf(item).then(function (made) {
      if (!made.ok) { return made; }
      item.entry = made.body.entry; // kept: "copy" gives it, and a retry need not ask again
      return put(item).then(function () {
        return item.inProgress ? complete(item) : post(item, item.apiUrl, item.entry);
      });
    });
  }

  function replayOnce(tell) {
    var saved = [];
    var blocked = {}; // sessions whose earlier hand was refused: their later hands wait
    return hands().then(function (items) {
      var waiting = items.filter(function (item) { return item.state !== "refused"; });
      if (!waiting.length) { return { saved: saved, reached: true }; }
      return tell({ state: "saving" }).then(function () {
        return items.reduce(function (previous, item) {
          return previous.then(function (going) {
            if (!going) { return false; }
            if (item.state === "refused") { blocked[item.session] = true; }
            if (blocked[item.session]) { return true; }
            return send(item).then(function (outcome) {
              if (outcome.ok) {
                saved.push(item.session);
                return discard(item.id).then(function () { return true; });
              }
              if (outcome.refused) {
                blocked[item.session] = true;
                item.state = "refused";
                item.message = outcome.message;
                return put(item).then(function () { return true; });
              }
              return false; // the server is busy: later
            });
          });
        }, Promise.resolve(true)).then(function (going) {
          return { saved: saved, reached: going };
        }, function () {
          return { saved: saved, reached: false }; // no network after all: later
        });
      });
    });
  }

  var running = null;
  var again = false;

  function replay(tell) {
    // one replay at a time; a call meanwhile runs once more after it, never beside it
    tell = tell || function () { return Promise.resolve(); };
    if (running) { again = true; return running; }
    var saved = [];
    var reached = true;
    function round() {
      again = false;
      return replayOnce(tell).then(function (result) {
        saved = saved.concat(result.saved);
        reached = result.reached;
        return again ? round() : null; // asked again meanwhile: after a cut answer, at once
      });
    }
    running = round().then(function () {
      running = null;
      var done = { state: "done", saved: saved, reached: reached };
      return tell(done).then(function () { return done; });
    }, function (error) {
      running = null;
      throw error;
    });
    return running;
  }

  scope.MightyOutbox = { hands: hands, hand: hand, add: add, put: put, discard: discard, replay: replay };
})(self);
