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
// Loaded by every page and by the service worker (importScripts), which is the one that
// replays it when it can (Background Sync, or a page asking); a page without a service
// worker replays it itself. Each entry keeps:
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
(function (scope) {
  "use strict";

  var DATABASE = "mighty-ledger";
  var STORE = "outbox";
  var STOPPED = { refused: true, conflict: true }; // states that wait for the player
  var SENDING = "sending"; // a form's own request is out with it: not replayed meanwhile

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

  function run(mode, work, opening) {
    return (opening || open)().then(function (database) {
      var name = database.objectStoreNames[0];
      return new Promise(function (resolve, reject) {
        var transaction = database.transaction(name, mode);
        var request = work(transaction.objectStore(name));
        transaction.oncomplete = function () { database.close(); resolve(request.result); };
        transaction.onerror = function () { database.close(); reject(transaction.error); };
      });
    });
  }

  // --- "saved as hand 7": the numbers the server gave lately -----------------------------------
  // Kept in a database of their own for a while, so the page that loads after a replay (the board
  // reloads itself as its actions land, and a kept copy reloads when the server answers again)
  // still says them, whether or not the replay's last message reached the page before it went.
  var NEWS = "mighty-ledger-numbered";
  var NEWS_MS = 2 * 60 * 1000;

  function openNews() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(NEWS, 1);
      request.onupgradeneeded = function () { request.result.createObjectStore("numbered", { keyPath: "key" }); };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function eachNews(hands, write) {
    return run("readwrite", function (store) {
      var last;
      hands.forEach(function (hand) { last = write(store, hand); });
      return last;
    }, openNews);
  }

  function remember(numbered) {
    if (!numbered.length) { return Promise.resolve(); }
    var at = Date.now();
    return eachNews(numbered, function (store, hand) {
      return store.put({ key: hand.key, session: hand.session, number: hand.number, at: at });
    }).catch(function () { /* storage off: the replay's message says them */ });
  }

  function lately(session) {
    // the hands of ``session`` the server numbered in the last two minutes, oldest first
    return run("readonly", function (store) { return store.getAll(); }, openNews).then(function (all) {
      var recent = Date.now() - NEWS_MS;
      var stale = all.filter(function (hand) { return hand.at < recent; });
      if (stale.length) {
        eachNews(stale, function (store, hand) { return store.delete(hand.key); }).catch(function () {});
      }
      return all.filter(function (hand) { return hand.at >= recent && hand.session === String(session); })
        .sort(function (a, b) { return a.number - b.number; });
    }, function () { return []; });
  }

  function items() {
    return run("readonly", function (store) { return store.getAll(); }).then(function (all) {
      all.forEach(function (item) { item.kind = item.kind || "hand"; }); // kept before there were kinds
      return all.sort(function (a, b) { return a.id - b.id; });
    });
  }

  function item(id) {
    return run("readonly", function (store) { return store.get(id); });
  }

  function put(entry) {
    return run("readwrite", function (store) { return store.put(entry); });
  }

  function discard(id) {
    return run("readwrite", function (store) { return store.delete(id); });
  }

  function add(entry) {
    entry.kind = entry.kind || "hand";
    entry.state = "waiting";
    entry.queuedAt = new Date().toISOString();
    return put(entry);
  }

  function park(entry) {
    entry.kind = entry.kind || "hand";
    entry.state = SENDING;
    entry.queuedAt = new Date().toISOString();
    return put(entry);
  }

  function withKey(key, state) {
    return items().then(function (all) {
      return all.filter(function (entry) { return entry.key === key && (!state || entry.state === state); })[0] || null;
    });
  }

  function unpark(key) {
    // the form's request did not reach the server, or no one can tell: the outbox sends it
    return withKey(key, SENDING).then(function (entry) {
      if (!entry) { return null; }
      entry.state = "waiting";
      return put(entry).then(function () { return entry; });
    });
  }

  function answered(key) {
    // the server answered the form's own request (saved, or its problems sent back with the form)
    return withKey(key, SENDING).then(function (entry) { return entry ? discard(entry.id) : null; });
  }

  function stopped(entry) {
    return !!STOPPED[entry.state];
  }

  // --- sending --------------------------------------------------------------------------

  function errorsOf(body) {
    return (body && body.errors) || [];
  }

  function verdict(response) {
    return response.json().catch(function () { return null; }).then(function (body) {
      if (response.ok) { return { ok: true, body: body }; }
      if (response.status >= 500 || response.status === 408 || response.status === 429) {
        return { later: true }; // the server is restarting or busy: not the entry's fault
      }
      var errors = errorsOf(body);
      var codes = errors.map(function (error) { return error.code; });
      if (codes.indexOf("request_in_progress") >= 0) {
        return { later: true }; // the same request is being saved this very moment (a retry met it)
      }
      var message = errors.map(function (error) { return error.message; }).filter(Boolean).join(" ");
      message = message || response.status + " " + response.statusText;
      if (response.status === 409 && codes.indexOf("idempotency_key_reused") < 0) {
        // changed by another phone since this phone read it: the player chooses, never this loop
        return { conflict: true, message: message, current: body && (body.hand || body.contract), codes: codes,
                 next: body && body.next_number };
      }
      return { refused: true, message: message, codes: codes };
    });
  }

  function entryOf(entry) {
    if (entry.entry) { return Promise.resolve({ ok: true, body: { entry: entry.entry } }); }
    var query = new URLSearchParams(entry.fields);
    // a correction names its hand, whose fields the form does not ask are kept as they are
    if (entry.kind === "edit") { query.set("number", entry.number); }
    query = query.toString();
    return fetch(entry.entryUrl + "?" + query, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(verdict);
  }

  function headers(entry, extra) {
    // the outbox's header: the history says the page made the change, not a client of the API
    return Object.assign({ "Content-Type": "application/json", Accept: "application/json",
                           Authorization: "Bearer " + entry.token, "X-Mighty-Ledger-Outbox": "1" }, extra || {});
  }

  function api(entry, path) {
    return "/api/v1/sessions/" + entry.session + path;
  }

  function request(entry, method, url, body, extra) {
    var sent = { method: method, credentials: "omit", headers: headers(entry, extra) };
    if (body !== undefined) { sent.body = JSON.stringify(body); }
    return fetch(url, sent).then(verdict);
  }

  function post(entry, url, body) {
    return request(entry, "POST", url, body, { "Idempotency-Key": entry.key });
  }

  function withEntry(entry, next) {
    return entryOf(entry).then(function (made) {
      if (!made.ok) { return made; }
      entry.entry = made.body.entry; // kept: "copy" gives it, and a retry need not ask again
      return put(entry).then(function () { return next(entry.entry); });
    });
  }

  function version(entry) {
    // the version this entry was made on, or the one the entry it follows left the thing at
    return entry.made && entry.made.version !== undefined ? entry.made.version : entry.version;
  }

  function ifMatch(entry) {
    var at = version(entry);
    return at === undefined || at === null || at === "" ? {} : { "If-Match": '"' + at + '"' };
  }

  function contractOf(entry) {
    // a contract recorded offline too: its id is known once it was sent (written in by `after`)
    if (entry.after) { return entry.made ? Promise.resolve(entry.made) : Promise.resolve(null); }
    if (entry.contractVersion !== undefined) {
      return Promise.resolve({ id: entry.inProgress, version: entry.contractVersion });
    }
    // opened online, its result entered offline: completed at the version it has when first sent,
    // kept so that every retry sends the same body (the key's answer is recognised by it)
    var url = api(entry, "/contracts/" + entry.inProgress);
    return fetch(url, { credentials: "omit", headers: headers(entry) }).then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (contract) {
      entry.contractVersion = contract ? contract.version : 0;
      return put(entry).then(function () { return { id: entry.inProgress, version: entry.contractVersion }; });
    });
  }

  function missingFirst() {
    // what it follows was discarded from this phone before it was sent: nothing to refer to
    return Promise.resolve({ refused: true, message: "—" });
  }

  function sameValues(sent, kept) {
    // what this phone sent is what the server holds (it may hold more: seats, the system)
    return Object.keys(sent).every(function (name) {
      return JSON.stringify(sent[name]) === JSON.stringify(kept ? kept[name] : undefined);
    });
  }

  var SENDERS = {
    hand: function (entry) {
      return withEntry(entry, function (hand) {
        // the hand number its form showed (contract.md): another phone's hand there is asked about
        var meant = entry.meant ? { number: entry.meant } : {};
        if (entry.meant && typeof entry.seen === "number" && entry.seen < entry.meant) { meant.seen_hand_count = entry.seen; }
        if (!entry.inProgress && !entry.after) { return post(entry, api(entry, "/hands"), Object.assign({}, hand, meant)); }
        return contractOf(entry).then(function (contract) {
          if (!contract) { return missingFirst(); }
          var url = api(entry, "/contracts/" + contract.id + "/complete");
          return post(entry, url, Object.assign({}, hand, meant, { version: contract.version }));
        });
      });
    },
    event: function (entry) {
      return post(entry, api(entry, "/events"), entry.entry);
    },
    contract: function (entry) {
      return withEntry(entry, function (contract) { return post(entry, api(entry, "/contracts"), contract); });
    },
    abandon: function (entry) {
      return contractOf(entry).then(function (contract) {
        if (!contract) { return missingFirst(); }
        return post(entry, api(entry, "/contracts/" + contract.id + "/abandon"), { version: contract.version })
          .then(function (outcome) {
            // the first answer was lost (the page's own request): thrown in by exactly that one
            var now = outcome.current;
            if (outcome.conflict && now && now.status === "abandoned" && now.version === contract.version + 1) {
              return { ok: true, body: now };
            }
            return outcome;
          });
      });
    },
    edit: function (entry) {
      return withEntry(entry, function (hand) {
        var at = version(entry);
        var url = api(entry, "/hands/" + entry.number);
        return request(entry, "PUT", url, Object.assign({}, hand, { version: at }), ifMatch(entry))
          .then(function (outcome) {
            // the first answer was lost: the hand moved on by exactly this edit, and nothing else
            if (outcome.conflict && outcome.current && outcome.current.version === at + 1 &&
                sameValues(hand, outcome.current.entry)) {
              return { ok: true, body: outcome.current };
            }
            return outcome;
          });
      });
    },
    "delete": function (entry) {
      // deleting a deleted hand answers it as it is: a retry after a lost answer changes nothing
      return request(entry, "DELETE", api(entry, "/hands/" + entry.number), undefined, ifMatch(entry));
    },
    restore: function (entry) {
      return request(entry, "POST", api(entry, "/hands/" + entry.number + "/restore"), {}, ifMatch(entry));
    },
    payment: function (entry) {
      return post(entry, api(entry, "/payments"), entry.entry);
    },
    unpay: function (entry) {
      var id = entry.after ? entry.made && entry.made.id : entry.payment;
      if (!id) { return missingFirst(); }
      return request(entry, "DELETE", api(entry, "/payments/" + id)).then(function (outcome) {
        // undone already: by this very request, whose answer was lost
        return outcome.codes && outcome.codes.indexOf("already_undone") >= 0 ? { ok: true, body: {} } : outcome;
      });
    },
  };

  function send(entry) {
    var sender = SENDERS[entry.kind];
    return sender ? sender(entry) : Promise.resolve({ refused: true, message: "?" });
  }

  function madeOf(entry, body) {
    // what an entry that follows this one needs to know of it
    body = body || {};
    if (entry.kind === "hand" || entry.kind === "event") {
      return { number: body.number !== undefined ? body.number : body.hand, version: body.version };
    }
    return { id: body.id, version: body.version, number: body.number };
  }

  function handOver(entry, made, all) {
    // the entries that follow this one learn its answer before it leaves the outbox
    return all.filter(function (other) { return other.after === entry.id; }).reduce(function (done, other) {
      return done.then(function () {
        other.made = made;
        return put(other);
      });
    }, Promise.resolve());
  }

  function replayOnce(tell) {
    var saved = [];
    var numbered = [];
    var blocked = {}; // sessions whose earlier entry waits for the player: their later ones wait
    return items().then(function (all) {
      var waiting = all.filter(function (entry) { return !stopped(entry) && entry.state !== SENDING; });
      if (!waiting.length) { return { saved: saved, numbered: numbered, reached: true }; }
      return tell({ state: "saving" }).then(function () {
        return all.reduce(function (previous, entry) {
          return previous.then(function (going) {
            if (!going) { return false; }
            if (stopped(entry) || entry.state === SENDING) { blocked[entry.session] = true; }
            if (blocked[entry.session]) { return true; }
            return send(entry).then(function (outcome) {
              if (outcome.ok) {
                saved.push(entry.session);
                var made = madeOf(entry, outcome.body);
                if ((entry.kind === "hand" || entry.kind === "event") && made.number) {
                  numbered.push({ session: entry.session, number: made.number, key: entry.key });
                }
                return handOver(entry, made, all).then(function () { return discard(entry.id); })
                  .then(function () { return true; });
              }
              if (outcome.refused || outcome.conflict) {
                blocked[entry.session] = true;
                entry.state = outcome.conflict ? "conflict" : "refused";
                entry.message = outcome.message;
                if (outcome.current) { entry.current = outcome.current; }
                // another phone saved the hand this one meant: the number the server would give it now
                if (outcome.next) { entry.nextNumber = outcome.next; }
                return put(entry).then(function () { return true; });
              }
              return false; // the server is busy: later
            });
          });
        }, Promise.resolve(true)).then(function (going) {
          return { saved: saved, numbered: numbered, reached: going };
        }, function () {
          return { saved: saved, numbered: numbered, reached: false }; // no network after all: later
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
    var numbered = [];
    var reached = true;
    function round() {
      again = false;
      return replayOnce(tell).then(function (result) {
        saved = saved.concat(result.saved);
        numbered = numbered.concat(result.numbered);
        reached = result.reached;
        return again ? round() : null; // asked again meanwhile: after a cut answer, at once
      });
    }
    running = round().then(function () {
      running = null;
      var done = { state: "done", saved: saved, numbered: numbered, reached: reached };
      return remember(numbered).then(function () { return tell(done); }).then(function () { return done; });
    }, function (error) {
      running = null;
      throw error;
    });
    return running;
  }

  scope.MightyOutbox = {
    items: items, hands: items, item: item, hand: item, add: add, put: put, discard: discard,
    replay: replay, stopped: stopped, lately: lately, park: park, unpark: unpark, answered: answered,
    withKey: withKey,
  };
})(self);
