// The small forms of the table, offline: a deal miss or an all-pass, throwing the hand in
// progress in, deleting or restoring a hand, correcting a deal miss, marking a payment paid
// or undoing it. Without a connection (or while earlier actions of the session still wait on
// this phone, so the server gets them in the order they were made) Save puts the action in
// the outbox (outbox.js) instead of posting it, and the page that shows it marks it pending
// (pending.js). These forms are a few fields each, so the API's JSON is built here; the hand
// and contract forms, which are more, let the server build theirs (drafts.js).
// With a connection and nothing waiting, every form posts as it always did, after it is written
// into the outbox ("sending"): the service worker keeps it there when its request gets no answer
// (cut, too slow, a 5xx) and lands the player on the board, saying so (sw.js). A form htmx sends
// (a payment marked or undone) stays on its page: a request that gets no answer is put in the
// outbox from here, with a line on the form.
(function () {
  "use strict";

  var Outbox = window.MightyOutbox;
  var Pending = window.MightyPending;
  var Keys = window.MightyFormKey; // the keys this phone has sent (static/js/form_key.js)
  var status = document.getElementById("app-status");
  if (!Outbox || !Pending || !Keys || !status) { return; }
  var say = status.dataset;
  var SESSION = /^\/g\/([^/]+)\/s\/(\d+)\//;

  // the form's address → what it does, and the outbox entry it makes
  var ACTIONS = [
    [/events\/new\/$/, event],
    [/h\/(\d+)\/edit\/$/, eventEdit], // the hand form's own corrections are drafts.js's
    [/playing\/(\d+)\/abandon\/$/, abandon],
    [/h\/(\d+)\/delete\/$/, handChange("delete")],
    [/h\/(\d+)\/restore\/$/, handChange("restore")],
    [/payments\/mark\/$/, payment],
    [/payments\/(\d+)\/undo\/$/, unpay],
  ];

  var waiting = {}; // session → entries wait there: a new action queues behind them
  var releasing = null; // the form held back until the outbox held it, submitted again now
  var sentByHtmx = new WeakMap(); // a form htmx is sending → the outbox entry it makes if no answer comes
  var SAVE_TIMEOUT = Number(say.saveTimeout) || 15000;

  function refreshWaiting() {
    return Outbox.items().then(function (items) {
      waiting = {};
      items.forEach(function (item) { if (!Outbox.stopped(item)) { waiting[item.session] = true; } });
    }, function () {});
  }

  function formKey(form) {
    // the form's one-time key, unless a kept copy of it was already sent with it
    var field = form.querySelector("input[name='request_key']");
    var key = field && field.value;
    return !key || Keys.used(key) ? Pending.newKey() : key;
  }

  function value(form, name) {
    var field = form.elements[name]; // a row of radio buttons is a RadioNodeList: its value is the one ticked
    if (!field) { return ""; }
    if (field.type === "radio" || field.type === "checkbox") { return field.checked ? field.value : ""; }
    return field.value || "";
  }

  function missing(form) {
    var absent = [];
    form.querySelectorAll("[required]").forEach(function (input) {
      if (value(form, input.name)) { return; }
      var fieldset = input.closest("fieldset");
      var label = (fieldset && fieldset.querySelector("legend")) || form.querySelector("label[for='" + input.id + "']");
      var text = label ? label.textContent.trim() : input.name;
      if (absent.indexOf(text) < 0) { absent.push(text); }
    });
    return absent;
  }

  function eventEntry(form, kind) {
    // EventForm.entry(): the dealer; for a deal miss who showed the hand and the fine
    var entry = { kind: kind, dealer: value(form, "dealer") };
    if (kind === "deal_miss") {
      if (value(form, "shown_by")) { entry.shown_by = value(form, "shown_by"); }
      if (value(form, "fine") !== "") { entry.fine = Number(value(form, "fine")); }
    }
    return entry;
  }

  function event(form) {
    var kind = value(form, "kind") || "deal_miss";
    return { kind: "event", eventKind: kind, key: formKey(form), entry: eventEntry(form, kind) };
  }

  function eventEdit(form, match) {
    if (form.id !== "event-form") { return null; }
    var entry = eventEntry(form, value(form, "kind"));
    delete entry.kind;
    return { kind: "edit", number: Number(match[1]), version: Number(value(form, "version")), entry: entry };
  }

  function abandon(form, match) {
    return { kind: "abandon", inProgress: match[1], contractVersion: Number(value(form, "version")) };
  }

  function handChange(kind) {
    return function (form, match) {
      var version = value(form, "version");
      return { kind: kind, number: Number(match[1]), version: version === "" ? null : Number(version) };
    };
  }

  function payment(form) {
    var entry = { from: value(form, "payer"), to: value(form, "payee"), amount: value(form, "amount") };
    if (value(form, "overpay") === "1") { entry.overpay = true; }
    return { kind: "payment", key: formKey(form), entry: entry };
  }

  function unpay(form, match) {
    return { kind: "unpay", payment: Number(match[1]) };
  }

  function follow(item) {
    // after a delete, restore or correction of the same hand still waiting: its answer's version
    if (!item.number) { return Promise.resolve(item); }
    return Pending.lastTouching(item.session, item.number).then(function (last) {
      if (last) { item.after = last.id; }
      return item;
    });
  }

  function notice(form, message) {
    window.MightyFormNotice(form).textContent = message; // the form's line of news (drafts.js)
  }

  function placed(item, page, path) {
    item.session = page[2];
    item.token = decodeURIComponent(page[1]);
    item.boardUrl = page[0];
    item.formUrl = path;
    // where a Save the service worker keeps lands: the payments where they were marked, else the board
    item.landing = item.kind === "payment" || item.kind === "unpay" ? window.location.pathname : page[0];
    return item;
  }

  function sendOnline(event, form, item) {
    // the form posts as ever once the outbox holds it, under the key the form sends (if it has one)
    if (releasing === form) { releasing = null; return; }
    var field = form.querySelector("input[name='request_key']");
    if (form.hasAttribute("hx-post")) {
      // htmx posts the form's own key: a copy kept for later must carry that very key, or a second
      // tap on a card whose first answer was lost would be kept, and sent, as another payment
      if (field && field.value) { item.key = field.value; }
      sentByHtmx.set(form, item);
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    item.key = (field && field.value) || Pending.newKey();
    var submitter = event.submitter;
    Outbox.park(item).catch(function () { /* storage off: it posts as it did */ }).then(function () {
      releasing = form;
      if (submitter) { form.requestSubmit(submitter); } else { form.requestSubmit(); }
    });
  }

  function keptFromHtmx(event) {
    // htmx got no answer (cut, too slow: status 0) or a 5xx: the outbox sends it when it can
    var form = event.detail && event.detail.elt;
    var item = form && sentByHtmx.get(form);
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    if (!item || (status > 0 && status < 500)) { return; }
    sentByHtmx.delete(form);
    follow(item).then(Pending.queue).then(function () {
      if (item.key) { Keys.markUsed(item.key); }
      if (form.isConnected) { notice(form, say.sayKept); }
    });
  }

  document.addEventListener("htmx:beforeSend", function (event) {
    // htmx waits for ever by default: a Save gets as long as the service worker gives a form's
    if (event.detail.xhr && sentByHtmx.has(event.detail.elt)) { event.detail.xhr.timeout = SAVE_TIMEOUT; }
  });
  document.addEventListener("htmx:afterRequest", keptFromHtmx);

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || form.id === "hand-form") { return; }
    var path = new URL(form.action, window.location.href).pathname;
    var page = SESSION.exec(path);
    if (!page) { return; }
    var online = navigator.onLine && !waiting[page[2]];
    var match = null;
    var make = null;
    ACTIONS.forEach(function (action) {
      var found = !make && action[0].exec(path);
      if (found) { match = found; make = action[1]; }
    });
    var item = make && make(form, match);
    if (!item) { return; }
    placed(item, page, path);
    if (online) { sendOnline(event, form, item); return; }
    // in the capture phase: neither the page nor htmx posts it
    event.preventDefault();
    event.stopPropagation();
    var absent = missing(form);
    if (absent.length) { notice(form, say.sayMissing.replace("{fields}", absent.join(", "))); return; }
    var field = form.querySelector("input[name='request_key']");
    var own = field && field.value;
    Outbox.items().then(function (items) {
      // this very form waits already (its answer was lost, say): a second tap is the same payment,
      // never a second one under a key of its own
      if (own && items.some(function (kept) { return kept.key === own; })) { notice(form, say.sayKept); return null; }
      return follow(item).then(Pending.queue).then(function () {
        if (item.key) { Keys.markUsed(item.key); }
        if (item.kind === "payment" || item.kind === "unpay") { return; } // marked on this very card
        window.location.assign(item.boardUrl);
      });
    });
  }, true);

  function dealerAfterWaiting() {
    // a kept deal-miss form names the dealer the server named then: after the deals waiting
    // here, the one the server will name (pending.js steps the table's flow rule)
    var form = document.getElementById("event-form");
    var page = form && SESSION.exec(new URL(form.action, window.location.href).pathname);
    if (!page || !/events\/new\/$/.test(form.action)) { return; }
    Outbox.items().then(function (items) {
      var next = Pending.nextAfter(page[2], items);
      var seat = next && form.querySelector("input[name='dealer'][value='" + CSS.escape(next.dealer) + "']");
      if (seat) { seat.checked = true; }
    }, function () {});
  }

  function openConflict() {
    // a correction of a deal miss another phone overtook (#conflict-<id>): this phone's values at
    // the version they were made on, so saving shows what the hand is now, and nothing is lost;
    // a deal miss the server refused (#fix-<id>): its values, with the server's reason, to save again
    var form = document.getElementById("event-form");
    var asked = /^#(conflict|fix)-(\d+)$/.exec(window.location.hash);
    if (!form || !asked) { return; }
    Outbox.item(Number(asked[2])).then(function (item) {
      if (!item || (item.kind !== "edit" && item.kind !== "event")) { return; }
      Object.keys(item.entry).forEach(function (name) {
        var field = form.elements[name];
        if (field && field.length && !field.tagName) {
          Array.prototype.forEach.call(field, function (input) { input.checked = input.value === String(item.entry[name]); });
        } else if (field) {
          field.value = item.entry[name] === null ? "" : item.entry[name];
        }
      });
      if (form.elements.version && item.version !== undefined) { form.elements.version.value = item.version; }
      notice(form, asked[1] === "fix" ? say.sayFixing + (item.message ? " " + item.message : "") : say.sayConflictOpen);
      form.addEventListener("submit", function () { Outbox.discard(item.id); });
    }, function () {});
  }

  document.addEventListener("outbox:changed", refreshWaiting);
  refreshWaiting();
  dealerAfterWaiting();
  openConflict();
})();
