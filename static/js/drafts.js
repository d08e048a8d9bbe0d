// The hand form on a phone that may lose its connection or its page.
//
// - Draft: every tap is kept on the phone (localStorage) and put back after a reload, a
//   crash or the screen going off, until the hand is saved or the player starts again.
// - Offline: the live preview says the payments will be computed once back online (only the
//   server knows the rules), and Save puts the hand in the outbox (outbox.js) and opens the
//   scoreboard, where it waits at the end, pending. Save also queues while earlier hands of
//   the session still wait, so the server numbers them in the order they were played.
// - One-time key: the form's key goes with the draft, and is the outbox's Idempotency-Key,
//   so a hand the form saved whose answer never came is not saved a second time from here.
// - Online, Save first writes the hand into the outbox ("sending", outbox.js `park`), then the
//   form posts as ever: the service worker keeps it there, waiting, when the request is cut, times
//   out or meets a 5xx, and takes it out once the server answered (sw.js). The draft goes only
//   when the server had the hand or the outbox holds it; until then it is put back as it was.
// - Fix: a hand the server refused opens here (#fix-<id>) with its taps, to be saved again.
// - The same form records the contract (playing/new/) and corrects a saved hand (h/3/edit/):
//   offline, or behind entries still waiting, those queue too, the correction with the
//   version it was made on. A hand entered from a contract recorded offline (#after-<id>)
//   waits for that contract and completes it once both are sent. A correction another phone
//   overtook (#conflict-<id>) opens here with its taps and its old version, so saving it shows
//   the server's side-by-side choice.
(function () {
  "use strict";

  // a form's one line of news from this phone (a draft brought back, a hand queued, what is
  // missing), at the top of the form; queued_forms.js writes into the same line of its forms
  function noticeLine(form) {
    var box = form.querySelector("[data-draft-notice]") || form.insertAdjacentElement("afterbegin", document.createElement("div"));
    box.className = "draft-notice";
    box.dataset.draftNotice = "";
    box.dataset.testid = "draft-notice";
    box.setAttribute("role", "status");
    return box;
  }
  window.MightyFormNotice = noticeLine;

  var Outbox = window.MightyOutbox;
  var Keys = window.MightyFormKey; // the keys this phone has sent: a kept copy of the form must not reuse one
  var status = document.getElementById("app-status");
  if (!Outbox || !Keys || !status) { return; }
  var say = status.dataset;
  // the one-time key field the hand form carries (templates/partials/request_key.html)
  var KEY_FIELDS = "input[name='request_key'], input[name='idempotency_key']";
  var NEW_HAND = /^\/g\/([^/]+)\/s\/(\d+)\/hands\/new\/$/;
  // what else this form saves: the contract when the auction ends, a correction of hand 3
  var KINDS = [
    ["hand", NEW_HAND, "hands/entry/"],
    ["contract", /^\/g\/([^/]+)\/s\/(\d+)\/playing\/new\/$/, "playing/entry/"],
    ["edit", /^\/g\/([^/]+)\/s\/(\d+)\/h\/(\d+)\/edit\/$/, "hands/entry/"],
  ];

  function storage() {
    try { return window.localStorage; } catch (error) { return null; } // storage turned off
  }

  function read(name, fallback) {
    var store = storage();
    try { return (store && JSON.parse(store.getItem(name))) || fallback; } catch (error) { return fallback; }
  }

  function write(name, value) {
    var store = storage();
    if (!store) { return; }
    if (value === null) { store.removeItem(name); } else { store.setItem(name, JSON.stringify(value)); }
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  // --- on a scoreboard: a hand the form sent has arrived -------------------------------------

  function sentDrafts(base) {
    // the drafts of this session's forms that were sent: [name, draft]
    var store = storage();
    var found = [];
    for (var index = 0; store && index < store.length; index += 1) {
      var name = store.key(index);
      if (name.indexOf("draft:" + base) === 0) {
        var draft = read(name, null);
        if (draft && draft.sent) { found.push([name, draft]); }
      }
    }
    return found;
  }

  function settled(name, draft, keptCopy) {
    // a sent draft goes when the outbox holds its Save (a request that got no answer: sent from
    // there with its key) or, on a page the server drew, when the Save has left the outbox: the
    // server answered it. A Save no one answered yet stays a draft
    var looked = draft.key ? Outbox.withKey(draft.key) : Promise.resolve(null);
    return looked.then(function (entry) {
      if (entry && entry.state === "sending") { return Outbox.unpark(draft.key).then(function () { write(name, null); }); }
      if (entry || !keptCopy) { write(name, null); }
    }, function () { if (!keptCopy) { write(name, null); } });
  }

  var board = /^(\/g\/[^/]+\/s\/\d+\/)$/.exec(window.location.pathname);
  if (board) {
    // a Save of this session's forms lands on the scoreboard, saved or kept in the outbox
    sentDrafts(board[1]).forEach(function (sent) {
      settled(sent[0], sent[1], !!document.documentElement.dataset.offlineAsOf);
    });
  }

  // --- "this hand was saved as hand 8": the draft with that key is done with -------------------

  var savedPage = document.querySelector("[data-saved-key]");
  var inSession = /^(\/g\/[^/]+\/s\/\d+\/)/.exec(window.location.pathname);
  if (savedPage && inSession) {
    var done = read("draft:" + inSession[1] + "hands/new/", null);
    if (done && done.key === savedPage.dataset.savedKey) { write("draft:" + inSession[1] + "hands/new/", null); }
  }

  var form = document.getElementById("hand-form");
  if (!form) { return; }
  var action = new URL(form.action, window.location.href).pathname;
  var target = null; // [kind, link, session, number] of what Save makes, when it can wait offline
  var entryPath = "";
  KINDS.forEach(function (kind) {
    var match = kind[1].exec(action);
    if (match && !target) { target = [kind[0], match[1], match[2], match[3]]; entryPath = kind[2]; }
  });
  var sessionBase = target ? "/g/" + target[1] + "/s/" + target[2] + "/" : "";
  var after = null; // the contract recorded offline that this hand's result completes
  var conflict = null; // the correction another phone overtook, opened again
  var draftName = "draft:" + action;
  var keyField = form.querySelector(KEY_FIELDS);
  var preview = document.getElementById("preview");
  var fixing = null;
  var restoring = false;
  var filled = false; // taps were put back: the preview is asked for them
  var key;

  // --- the form's taps, kept and put back ---------------------------------------------------------

  function fields() {
    // what the player entered: the taps, not the page's bookkeeping (token, version, counts)
    var kept = [];
    new FormData(form).forEach(function (value, name) {
      var input = form.elements[name];
      var hidden = input && (input.type === "hidden" || (input[0] && input[0].type === "hidden"));
      if (!hidden && typeof value === "string") { kept.push([name, value]); }
    });
    return kept;
  }

  function restore(taps, onlyThese) {
    // onlyThese: the fields the taps name, the rest left as the form has them (a contract's taps
    // leave the hand form's own defaults, such as whose points are counted)
    restoring = true;
    filled = true;
    var values = {};
    taps.forEach(function (pair) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    Array.prototype.forEach.call(form.elements, function (input) {
      if (!input.name || input.type === "hidden" || input.type === "submit" || input.type === "button") { return; }
      if (onlyThese && !(input.name in values)) { return; }
      var given = values[input.name] || [];
      if (input.type === "radio" || input.type === "checkbox") {
        var checked = given.indexOf(input.value) >= 0;
        if (input.checked === checked) { return; }
        input.checked = checked;
      } else {
        var value = given.length ? given.shift() : "";
        if (input.value === value) { return; }
        input.value = value;
      }
      // the pickers and labels of the form's own scripts follow, as after a tap
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });
    restoring = false;
  }

  function keepDraft(sent) {
    if (restoring) { return; }
    write(draftName, { fields: fields(), key: key, fixing: fixing, after: after, sent: !!sent,
                       at: new Date().toISOString() });
  }

  function notice(message, withUndo) {
    var box = noticeLine(form);
    box.replaceChildren(document.createTextNode(message + " "));
    if (withUndo) {
      var again = box.appendChild(document.createElement("button"));
      again.type = "button";
      again.className = "link-button";
      again.textContent = say.sayDropDraft;
      again.addEventListener("click", function () {
        write(draftName, null);
        // a new form as the board opened it: the declarer tapped there (?declarer=Ann) stays
        var declarer = new URLSearchParams(window.location.search).get("declarer");
        window.location.replace(window.location.pathname + (declarer ? "?declarer=" + encodeURIComponent(declarer) : ""));
      });
    }
  }

  function useKey(chosen) {
    key = chosen;
    if (keyField) { keyField.value = key; }
    if (window.MightyFormKey) { window.MightyFormKey.show(key); } // Back or a reload asks about this key
  }

  function shownKey() {
    return new URLSearchParams(window.location.search).get("key");
  }

  function setVersion(version) {
    if (form.elements.version && version !== undefined && version !== null) { form.elements.version.value = version; }
  }

  function startAfter(id) {
    // the result of a contract recorded offline: its taps are the hand's first half
    return Outbox.item(id).then(function (contract) {
      if (!contract || contract.kind !== "contract") {
        window.history.replaceState(null, "", window.location.pathname + window.location.search);
        return start();
      }
      after = contract.id;
      useKey(newKey());
      restore(contract.fields, true);
      keepDraft(false);
      notice(say.sayAfterContract, false);
    });
  }

  function startConflict(id) {
    return Outbox.item(id).then(function (item) {
      if (!item) {
        window.history.replaceState(null, "", window.location.pathname + window.location.search);
        return start();
      }
      conflict = item.id;
      useKey(newKey());
      if (item.fields) { restore(item.fields); }
      setVersion(item.version); // the version it was made on: the server shows what changed since
      notice(say.sayConflictOpen + (item.message ? " " + item.message : ""), false);
    });
  }

  function start() {
    var follow = /^#after-(\d+)$/.exec(window.location.hash);
    if (follow && target && target[0] === "hand") { return startAfter(Number(follow[1])); }
    var overtaken = /^#conflict-(\d+)$/.exec(window.location.hash);
    if (overtaken && target && target[0] === "edit") { return startConflict(Number(overtaken[1])); }
    var fix = /^#fix-(\d+)$/.exec(window.location.hash);
    if (fix) {
      return Outbox.hand(Number(fix[1])).then(function (item) {
        if (!item) { // sent or discarded meanwhile: the form is a new hand's
          window.history.replaceState(null, "", window.location.pathname + window.location.search);
          return start();
        }
        fixing = item.id;
        useKey(newKey()); // a new hand for the server: the refused one's key may be spent
        restore(item.fields);
        keepDraft(false);
        notice(say.sayFixing + (item.message ? " " + item.message : ""), true);
      });
    }
    var draft = read(draftName, null);
    if (draft && keyField && draft.key === keyField.value && form.hasAttribute("data-sent-back")) {
      // the server sent this very form back (its problems beside the fields): the taps are on it
      useKey(draft.key);
      keepDraft(false);
      return Outbox.answered(draft.key).catch(function () {});
    }
    if (draft && draft.key && draft.sent) {
      // a Save the outbox holds is on the board, pending: this form is the next one's
      return Outbox.withKey(draft.key).then(function (entry) {
        if (!entry) { return startFrom(draft); }
        write(draftName, null);
        return (entry.state === "sending" ? Outbox.unpark(draft.key) : Promise.resolve()).then(function () {
          return startFrom(null);
        });
      }, function () { return startFrom(draft); });
    }
    return startFrom(draft);
  }

  function startFrom(draft) {
    if (draft && draft.key && draft.sent && navigator.onLine && shownKey() !== draft.key) {
      // the draft was sent and its answer never came: the server says whether it saved it
      // ("saved as hand 8") or shows the form again for this key, and the draft comes back
      var url = new URL(window.location.href);
      url.searchParams.set("key", draft.key);
      window.location.replace(url.pathname + url.search);
      return new Promise(function () {});
    }
    if (draft && draft.fields && draft.fields.length) {
      fixing = draft.fixing || null;
      after = draft.after || null;
      useKey(draft.key || newKey());
      restore(draft.fields);
      keepDraft(draft.sent);
      notice(say.sayRestored, true);
    } else {
      var given = keyField && keyField.value;
      useKey(given && !Keys.used(given) ? given : newKey());
      // a kept copy of the form, opened from the board's "who won the bid?" (?declarer=Ann)
      var declarer = new URLSearchParams(window.location.search).get("declarer");
      var seat = declarer && Array.prototype.filter.call(form.querySelectorAll("input[name='declarer']"),
        function (input) { return input.value === declarer; })[0];
      if (seat && !seat.checked) {
        seat.checked = true;
        seat.dispatchEvent(new Event("change", { bubbles: true }));
      }
      if (target && target[0] !== "edit") { return dealerAfterWaiting(); }
    }
    return Promise.resolve();
  }

  function numberAfterWaiting() {
    // "Hand 8 (waiting to be sent)": the server numbers the hands and deals waiting on this phone
    // first, in the order they were made, then this one (a refused hand being fixed comes after
    // those made before it); the number the page was drawn with knew none of them
    var title = form.querySelector("[data-hand-title]");
    if (!title || !window.MightyPending || !target || target[0] !== "hand") { return Promise.resolve(); }
    if (!title.dataset.drawnNumber) { title.dataset.drawnNumber = (title.textContent.match(/\d+/) || [""])[0]; }
    return Outbox.items().then(function (items) {
      var before = window.MightyPending.dealsWaiting(target[2], items).filter(function (item) {
        return !fixing || item.id < fixing;
      });
      var drawn = Number(title.dataset.drawnNumber);
      if (!before.length || !drawn) { return; }
      title.textContent = say.sayHandWaiting.replace("{number}", drawn + before.length);
    }, function () {});
  }

  function dealerAfterWaiting() {
    // a kept form knows the dealer as the server said it then: after the deals waiting on this
    // phone, the one the server will say (pending.js steps the table's flow rule)
    if (!window.MightyPending) { return Promise.resolve(); }
    return Outbox.items().then(function (items) {
      var next = window.MightyPending.nextAfter(target[2], items);
      if (!next) { return; }
      restoring = true; // the form's own answer, not a tap: no draft for it
      var seat = form.querySelector("input[name='dealer'][value='" + CSS.escape(next.dealer) + "']");
      if (seat && !seat.checked) {
        seat.checked = true;
        seat.dispatchEvent(new Event("input", { bubbles: true }));
        seat.dispatchEvent(new Event("change", { bubbles: true }));
      }
      // and who sits this one out, where the table has more seats than players
      form.querySelectorAll("input[name='sitting_out']").forEach(function (box) {
        var out = next.sitting_out.indexOf(box.value) >= 0;
        if (box.checked !== out) {
          box.checked = out;
          box.dispatchEvent(new Event("input", { bubbles: true }));
          box.dispatchEvent(new Event("change", { bubbles: true }));
        }
      });
      restoring = false;
    }, function () { restoring = false; });
  }

  // --- offline: the preview waits, Save queues ----------------------------------------------------

  function previewWaits() {
    if (!preview) { return; }
    var heading = preview.querySelector("h2");
    var line = document.createElement("p");
    line.className = "muted";
    line.dataset.testid = "preview-offline";
    line.textContent = say.sayPreviewOffline;
    preview.replaceChildren.apply(preview, heading ? [heading, line] : [line]);
  }

  function missing() {
    // the fields the form marks required (Django writes `required`) that are still empty
    var given = new FormData(form);
    var seen = {};
    var labels = [];
    form.querySelectorAll("[required]").forEach(function (input) {
      if (given.get(input.name) || seen[input.name]) { return; }
      seen[input.name] = true;
      var fieldset = input.closest("fieldset");
      var label = (fieldset && fieldset.querySelector("legend")) || form.querySelector("label[for='" + input.id + "']");
      labels.push(label ? label.textContent.trim() : input.name);
    });
    // a called card's partner (or "declarer alone") is asked for before the hand waits offline,
    // as the server would ask once back online
    var call = form.querySelector("input[name='call_type']:checked");
    var partners = document.getElementById("field-partners");
    if (partners && call && (call.value === "card" || call.value === "first_trick") &&
        !form.querySelector("input[name='partners']:checked")) {
      var legend = partners.querySelector("legend");
      labels.push(legend ? legend.textContent.trim() : "partners");
    }
    return labels;
  }

  function checkedLabel(name) {
    var input = form.querySelector("input[name='" + name + "']:checked");
    var label = input && form.querySelector("label[for='" + input.id + "']");
    return label ? label.textContent.trim() : input ? input.value : "";
  }

  function itemOf(waitingDeals) {
    // what this Save makes in the outbox; a new hand says the number it meant (its form's, after
    // the deals waiting before it on this phone, which the server numbers first)
    var contract = form.elements.contract_points;
    var kind = target[0];
    var drawn = form.elements.number && Number(form.elements.number.value);
    var item = {
      kind: kind,
      session: target[2],
      token: decodeURIComponent(target[1]),
      formUrl: action,
      boardUrl: sessionBase,
      entryUrl: sessionBase + entryPath,
      // opened from the hand in progress: saving completes it (mighty_ledger/pages/views/in_progress.py)
      inProgress: (form.elements.in_progress && form.elements.in_progress.value) || "",
      key: key,
      fields: fields(),
      summary: {
        declarer: (form.querySelector("input[name='declarer']:checked") || {}).value || "",
        contract: ((contract && contract.value) || "") + checkedLabel("contract_trump"),
      },
    };
    if (kind === "hand" && drawn) {
      item.meant = drawn + waitingDeals;
      // the hands the form knew of when opened: a hand saved since that is this very hand is asked
      // about too, when the form was moved on to the next number (live_form.js)
      var seen = form.elements.seen_hand_count && form.elements.seen_hand_count.value;
      if (seen !== undefined && seen !== "") { item.seen = Number(seen); }
    }
    if (after) { item.after = after; }
    return item;
  }

  function queue() {
    var empty = missing();
    if (empty.length) {
      notice(say.sayMissing.replace("{fields}", empty.join(", ")), false);
      return Promise.resolve();
    }
    var kind = target[0];
    var item;
    var ready = Outbox.items().then(function (items) {
      var deals = window.MightyPending ? window.MightyPending.dealsWaiting(target[2], items) : [];
      item = itemOf(deals.filter(function (deal) { return !fixing || deal.id < fixing; }).length);
    });
    if (kind === "edit") {
      // after a delete, restore or correction of the same hand still waiting: its answer's version
      ready = ready.then(function () {
        item.number = Number(target[3]);
        item.version = Number(form.elements.version.value);
        return window.MightyPending && window.MightyPending.lastTouching(item.session, item.number);
      }).then(function (last) {
        if (last) { item.after = last.id; }
      });
    }
    return ready.then(function () { return Outbox.add(item); }).then(function () {
      Keys.markUsed(key);
      write(draftName, null);
      return Promise.all([fixing && Outbox.discard(fixing), conflict && Outbox.discard(conflict)]);
    }).then(function () {
      if (navigator.serviceWorker && navigator.serviceWorker.controller) {
        navigator.serviceWorker.ready.then(function (registration) {
          // Background Sync: the browser sends the outbox when the network is back, page open or not
          if (registration.sync) { return registration.sync.register("outbox"); }
        }).catch(function () {});
      }
      notice(say.sayQueued, false);
      window.location.assign(item.boardUrl);
    });
  }

  function hasWaiting() {
    return Outbox.items().then(function (items) {
      return items.some(function (item) { return item.session === target[2] && !Outbox.stopped(item); });
    }, function () { return false; });
  }

  var waitingBefore = false;
  if (target) { hasWaiting().then(function (waiting) { waitingBefore = waiting; }); }
  document.addEventListener("outbox:changed", function () {
    if (target) { hasWaiting().then(function (waiting) { waitingBefore = waiting; }); }
  });

  form.addEventListener("submit", function (event) {
    var submitter = event.submitter;
    if (submitter && submitter.hasAttribute("formaction")) {
      if (!navigator.onLine) { event.preventDefault(); previewWaits(); } // the no-JavaScript preview button
      return;
    }
    if (!target) {
      if (!navigator.onLine) { event.preventDefault(); keepDraft(false); notice(say.sayEditOffline, false); }
      return;
    }
    if (navigator.onLine && (conflict || (!waitingBefore && !after))) {
      if (releasing) { releasing = false; return; } // the Save held back below, on its way now
      if (parking) { event.preventDefault(); return; } // a second tap while the first is written
      // the form posts as ever, once the outbox holds it (sw.js keeps it there if no answer comes);
      // the draft stays until then. An overtaken correction posts its old version: the server
      // answers with both side by side
      Keys.markUsed(key);
      keepDraft(true);
      event.preventDefault();
      parking = true;
      var sending = itemOf(0);
      if (target[0] === "edit") { sending.number = Number(target[3]); sending.version = Number(form.elements.version.value); }
      Promise.all([fixing && Outbox.discard(fixing), conflict && Outbox.discard(conflict)]).then(function () {
        return Outbox.park(sending);
      }).catch(function () { /* storage off: the form posts as it did */ }).then(function () {
        parking = false;
        releasing = true;
        if (submitter && form.requestSubmit) { form.requestSubmit(submitter); } else if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
      });
      return;
    }
    event.preventDefault();
    queue();
  });

  var releasing = false; // a Save parked in the outbox, submitted again: it goes to the server now
  var parking = false; // a Save being written into the outbox before it leaves

  form.addEventListener("input", function () { keepDraft(false); });
  form.addEventListener("change", function () { keepDraft(false); });

  // htmx asks the server for the preview: offline there is no one to ask
  form.addEventListener("htmx:beforeRequest", function (event) {
    if (!navigator.onLine) { event.preventDefault(); previewWaits(); }
  });
  form.addEventListener("htmx:sendError", previewWaits);

  function askPreview() {
    // taps put back before htmx had read the page fired their events to no one: asked once it has
    var ask = function () {
      if (!window.htmx || !navigator.onLine) { return; }
      restoring = true; // the form's own event, not a tap: the draft stays as it is
      window.htmx.trigger(form, "change");
      restoring = false;
    };
    // (htmx reads it on DOMContentLoaded, which follows this deferred script: "load" is after both)
    if (document.readyState === "complete") { ask(); } else { window.addEventListener("load", ask, { once: true }); }
  }

  start().then(function () {
    if (!navigator.onLine) { previewWaits(); } else if (filled) { askPreview(); }
    return numberAfterWaiting();
  });
})();
