// What waits in the outbox, shown where it will land. Each action a player made offline
// appears on the page that shows what it changes, marked pending, until the server has it:
//
// - a new hand, a deal miss or an all-pass: a row at the end of the scoreboard;
// - a contract recorded: the hand in progress at the top of the board, with "Enter the result"
//   (the hand form, #after-<id>, whose hand completes this contract) and "Throw in";
// - the result of the hand in progress, or its throw-in: marked on the hand in progress;
// - a correction, a delete, a restore: marked on the hand's row (a delete with "Restore");
// - a payment marked paid, or undone: on the settlement's payments card.
// An entry the server refused, or a correction another phone overtook ("conflict"), stays at
// the end of the board with the server's words and what the player can do with it: Fix (its
// form again with its taps, a payment's amount, or the page where a delete or a throw-in is made
// again) and Discard; a payment also on the payments card.
//
// The next hand: a kept board knows it as the server said it before the deals waiting here.
// `nextAfter` steps the table's flow rule (static/js/flow.js, the engine's rule as data, in the
// page's "flow-rule" block) through each of them in order, carrying who opened and who sat out
// each one into the next; the board and the forms ask it, and only it. A delete or correction
// of the latest hand waiting here starts it from the coming hand as it stood before that hand
// (the page's "latest-hand" block).
(function () {
  "use strict";

  var Outbox = window.MightyOutbox;
  var status = document.getElementById("app-status");
  if (!Outbox || !status) { return; }
  var say = status.dataset;
  var PAGE = /^\/g\/([^/]+)\/s\/(\d+)\//.exec(window.location.pathname);
  var session = PAGE ? PAGE[2] : null;
  var base = PAGE ? PAGE[0] : "";
  var TOUCHES_A_HAND = { edit: 1, "delete": 1, restore: 1 };
  var DEALS = { hand: 1, event: 1 }; // what moves the deal to the next seat

  function words(template, values) {
    return (template || "").replace(/\{(\w+)\}/g, function (whole, name) { return values[name]; });
  }

  function element(tag, className, content) {
    var made = document.createElement(tag);
    if (className) { made.className = className; }
    if (content !== undefined && content !== null) { made.textContent = content; }
    return made;
  }

  function button(label, act, testid) {
    var made = element("button", "link-button", label);
    made.type = "button";
    if (testid) { made.dataset.testid = testid; }
    made.addEventListener("click", act);
    return made;
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  function changed() {
    document.dispatchEvent(new CustomEvent("outbox:changed"));
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.ready.then(function (registration) {
        // Background Sync: the browser sends the outbox when the network is back, page open or not
        if (registration.sync) { return registration.sync.register("outbox"); }
      }).catch(function () {});
    }
  }

  function queue(item) {
    // an action made from this page: into the outbox, behind everything waiting before it
    item.key = item.key || newKey();
    return Outbox.add(item).then(function (id) { changed(); return id; });
  }

  function ofSession(items, which) {
    return items.filter(function (item) { return item.session === which; });
  }

  function lastTouching(which, number) {
    // the entry still waiting that last touched hand `number`: a new one follows it, at its version
    return Outbox.items().then(function (items) {
      return ofSession(items, String(which)).filter(function (item) {
        return TOUCHES_A_HAND[item.kind] && item.number === Number(number);
      }).pop() || null;
    });
  }

  function followers(items, item) {
    return items.filter(function (other) { return other.after === item.id; });
  }

  // --- the next dealer ------------------------------------------------------------------------

  function taps(item, name) {
    return (item.fields || []).filter(function (pair) { return pair[0] === name; }).map(function (pair) { return pair[1]; });
  }

  function summary(item, flow, before) {
    // the deal waiting here in the shape flow.js takes (what `python -m scoring next` takes), with
    // who opened it and who sat it out as the step before decided: a throw-in's redeal is opened by
    // whoever opened it, with the same players out (reads.next_state carries them the same way)
    var seated = function (seat) { return flow.seats.indexOf(seat) >= 0; };
    var opener = before ? before.first_bidder : null;
    var out = (before && before.sitting_out) || [];
    if (item.kind === "event") {
      var entry = item.entry;
      var event = { kind: entry.kind || item.eventKind, dealer: entry.dealer || flow.first_dealer,
                    first_bidder: opener, sitting_out: out };
      // the server's: who showed the hand, or the dealer when nobody is named
      if (event.kind === "deal_miss") { event.demander = entry.shown_by || event.dealer; }
      return event;
    }
    var sittingOut = taps(item, "sitting_out");
    return {
      kind: "scored",
      dealer: taps(item, "dealer")[0] || flow.first_dealer,
      declarer: taps(item, "declarer")[0],
      partners: taps(item, "partners").filter(seated),
      sitting_out: sittingOut.length ? sittingOut : out,
      first_bidder: opener,
      joker_holder: taps(item, "joker_holder").filter(seated)[0] || null,
    };
  }

  function shownNext() {
    // the coming hand as the server said it when the page was drawn, before the deals waiting here:
    // the scoreboard's next-hand card (its first values, kept while this script rewrites it), or
    // a form's dealer and seating as the server ticked them (not a draft's); null where neither is
    var card = document.querySelector("#next-hand[data-next-dealer]");
    if (card) {
      if (!card.dataset.serverNext) {
        var named = card.querySelectorAll("p strong"); // "Next: <strong>Ann</strong> deals, <strong>Bo</strong> bids first."
        card.dataset.serverNext = JSON.stringify({
          dealer: card.dataset.nextDealer, first_bidder: named[1] ? named[1].textContent.trim() : null,
          sitting_out: JSON.parse(card.dataset.nextOut || "[]"),
        });
      }
      return JSON.parse(card.dataset.serverNext);
    }
    var dealer = document.querySelector("input[name='dealer']");
    if (!dealer) { return null; }
    var ticked = function (name) {
      return Array.prototype.filter.call(document.querySelectorAll("input[name='" + name + "']"), function (input) {
        return input.defaultChecked;
      }).map(function (input) { return input.value; });
    };
    return { dealer: ticked("dealer")[0] || null, first_bidder: null, sitting_out: ticked("sitting_out") };
  }

  function dealsWaiting(which, items) {
    // the hands, deal misses and all-passes of the session still to be sent, in order: the server
    // numbers them so, and deals the next hand after the last of them
    return ofSession(items, String(which)).filter(function (item) {
      return DEALS[item.kind] && !Outbox.stopped(item);
    });
  }

  function latestHand() {
    // the latest live hand as the page was drawn, with the coming hand as it stood before it
    // (partials/latest_hand.html): what a delete or a correction of that hand goes back to
    var block = document.getElementById("latest-hand");
    try { return block ? JSON.parse(block.textContent) : null; } catch (error) { return null; }
  }

  function latestChange(which, items, latest) {
    // the last delete, restore or correction of the latest hand still waiting here: its final word
    if (!latest) { return null; }
    return ofSession(items, String(which)).filter(function (item) {
      return TOUCHES_A_HAND[item.kind] && item.number === latest.number && !Outbox.stopped(item);
    }).pop() || null;
  }

  function nextAfter(which, items) {
    // who deals, bids first and sits out after what waits on this phone, as the server will say
    // once it has it: from what the page was drawn with, or from the coming hand as it stood
    // before the latest hand when a delete or correction of that hand waits (the correction
    // stepped again), then each deal waiting stepped in order. null when nothing of that waits,
    // the page carries no flow rule, or a step needs what only the server can tell (whether the
    // hand was made): then the page's own answer stands
    var drawn = shownNext(); // read first: the board keeps the server's values before rewriting them
    var flow = window.MightyFlow && window.MightyFlow.session();
    var deals = dealsWaiting(which, items);
    var latest = latestHand();
    var change = latestChange(which, items, latest);
    if (change && change.kind === "restore") { change = null; } // the hand stands as the page says
    if ((!deals.length && !change) || !flow || !flow.rule) { return null; }
    var state = change ? latest.before : drawn;
    var step = function (item) {
      if (!state) { return; }
      try {
        state = window.MightyFlow.next(flow.rule, flow.seats, summary(item, flow, state), flow.first_dealer);
      } catch (error) {
        state = null; // a deal the engine would refuse, or a result the phone cannot know: the server will say
      }
    };
    if (change && change.kind === "edit") {
      // a corrected hand (the hand form's taps) or deal miss or all-pass (its entry)
      step(change.fields ? change : { kind: "event", eventKind: latest.kind, entry: change.entry });
    }
    deals.forEach(step);
    return state;
  }

  function showNext(items) {
    // the scoreboard's "Next: Ann deals, Bo bids first. Sitting out: Cy." (a hand form's own
    // #next-hand is live_form.js's); its data-next-* too, which me.js reads
    var card = document.getElementById("board-rows") && document.querySelector("#next-hand[data-next-dealer]");
    // nothing of that waiting any more (sent, or taken back): the server's own, as drawn
    var next = card && (nextAfter(session, items) || shownNext());
    if (!next) { return; }
    var shown = JSON.parse(card.dataset.nextOut || "[]");
    var named = card.querySelectorAll("p strong");
    if (named[0]) { named[0].textContent = next.dealer; }
    if (named[1]) { named[1].textContent = next.first_bidder; }
    showSittingOut(named[0] && named[0].closest("p"), shown, next.sitting_out);
    card.dataset.nextDealer = next.dealer;
    card.dataset.nextOut = JSON.stringify(next.sitting_out);
    showDeclarerPicks(card, next.sitting_out);
  }

  function showSittingOut(line, shown, out) {
    // "Sitting out: Cy." ends the line, after the translated sentence: its names are the last
    // ones shown there (a system where someone sits out names them before every hand)
    var text = line && line.lastChild;
    var names = shown.join(", ");
    if (!text || text.nodeType !== Node.TEXT_NODE || !names) { return; }
    var at = text.data.lastIndexOf(names);
    if (at >= 0) { text.data = text.data.slice(0, at) + out.join(", ") + text.data.slice(at + names.length); }
  }

  function showDeclarerPicks(card, sittingOut) {
    // "who won the bid?": one button per seat dealt in; the server drew them for its own next hand
    var picks = card.querySelector(".declarer-start .picks");
    var model = picks && picks.querySelector("a");
    var flow = window.MightyFlow && window.MightyFlow.session();
    if (!model || !flow) { return; }
    var buttons = flow.seats.filter(function (seat) { return sittingOut.indexOf(seat) < 0; }).map(function (seat) {
      var pick = model.cloneNode(true);
      var url = new URL(model.href, window.location.href);
      url.searchParams.set("declarer", seat);
      pick.href = url.pathname + url.search;
      pick.textContent = seat;
      return pick;
    });
    picks.replaceChildren.apply(picks, buttons);
  }

  // --- rows at the end of the board ------------------------------------------------------------

  function describe(item) {
    var number = item.number ? words(say.sayHandNumber, { number: item.number }) + " · " : "";
    switch (item.kind) {
      case "hand": return (item.summary.declarer || "") + " " + (item.summary.contract || "");
      case "event": return (item.eventKind === "all_pass" ? say.sayPass : say.sayMiss) + " · " + (item.entry.dealer || "");
      case "contract": return (item.summary.declarer || "") + " " + (item.summary.contract || "") + " · " + say.sayPlaying;
      case "abandon": return say.sayThrownIn;
      case "edit": return number + say.sayCorrection;
      case "delete": return number + say.sayDeleted;
      case "restore": return number + say.sayRestoredHand;
      case "payment": return paymentWords(item);
      case "unpay": return say.sayUnpaid;
      default: return item.kind;
    }
  }

  function paymentWords(item) {
    return words(say.sayPaid, { payer: item.entry.from, payee: item.entry.to, amount: item.entry.amount });
  }

  function mark(item) {
    var label = item.state === "refused" ? say.sayRefusedNote : item.state === "conflict" ? say.sayConflictNote : say.sayPending;
    var made = element("span", "pending-mark outbox-mark", label);
    made.dataset.testid = "pending-mark";
    return made;
  }

  function copy(item, note) {
    var body = item.entry || Object.fromEntries(item.fields || []);
    var box = note.querySelector("textarea") || note.appendChild(element("textarea", "copy-box"));
    box.readOnly = true;
    box.value = JSON.stringify(body, null, 2);
    box.select();
    var done = function () { box.insertAdjacentElement("afterend", element("span", "muted", say.sayCopied)); };
    if (navigator.clipboard) { navigator.clipboard.writeText(box.value).then(done, function () {}); }
  }

  function discardButton(item) {
    return button(say.sayDiscard, function () {
      if (window.confirm(item.kind === "hand" ? say.sayDiscardConfirm : say.sayDiscardActionConfirm)) {
        Outbox.discard(item.id).then(changed);
      }
    }, "discard-refused");
  }

  function fix(item) {
    // where the refused action is made again: its form with its taps (the hands', a deal miss's),
    // the payments card with its amount; a delete, restore, throw-in or undo is made again on its
    // page, this one discarded
    var payments = base + "payments/";
    if (item.fields || item.kind === "event") { window.location.assign(item.formUrl + "#fix-" + item.id); return; }
    if (item.kind === "payment") {
      if (window.location.pathname === payments || document.getElementById("payments")) { fixPayment(item); return; }
      window.location.assign(payments + "#fix-" + item.id);
      return;
    }
    var page = item.kind === "unpay" ? payments : item.number ? base + "h/" + item.number + "/" : base;
    Outbox.discard(item.id).then(function () { changed(); window.location.assign(page); });
  }

  function fixPayment(item) {
    // the amount, to send again under a new key (the refused one's answer is the server's already)
    var line = document.querySelector("[data-outbox-payment='" + item.id + "']");
    if (!line || line.querySelector("input")) { return; }
    var editor = line.appendChild(element("span", "actions"));
    var amount = editor.appendChild(element("input"));
    amount.type = "number";
    amount.min = "1";
    amount.value = item.entry.amount;
    amount.setAttribute("aria-label", say.sayAmount);
    amount.dataset.testid = "fix-amount";
    editor.appendChild(button(say.saySendAgain, function () {
      if (!(Number(amount.value) > 0)) { amount.focus(); return; }
      item.entry = Object.assign({}, item.entry, { amount: amount.value });
      item.key = newKey();
      item.state = "waiting";
      delete item.message;
      Outbox.put(item).then(changed);
    }, "send-again"));
    amount.focus();
  }

  function pendingRow(item, columns, blocked, items) {
    var row = element("tr", "pending " + item.state);
    row.dataset.testid = DEALS[item.kind] ? "pending-hand" : "pending-action";
    row.dataset.state = item.state;
    row.dataset.kind = item.kind;
    row.appendChild(element("th", "", "·")).scope = "row";
    var what = row.appendChild(element("td", "what"));
    if (item.kind === "hand") {
      what.appendChild(element("span", "who", item.summary.declarer));
      what.appendChild(document.createTextNode(" " + item.summary.contract + " "));
    } else {
      what.appendChild(document.createTextNode(describe(item) + " "));
    }
    what.appendChild(mark(item));
    var note = row.appendChild(element("td", "pending-note"));
    note.colSpan = columns;
    if (item.state === "refused" || item.state === "conflict") {
      note.appendChild(element("p", "problem", item.message)).dataset.testid = "refused-message";
      if (item.state === "conflict" && item.kind === "edit") {
        // the hand's edit page with these taps and the old version: the server shows both sides
        note.appendChild(button(say.sayOpen, function () {
          window.location.assign(item.formUrl + "#conflict-" + item.id);
        }, "open-conflict"));
      } else {
        note.appendChild(button(say.sayFix, function () { fix(item); }, "fix-refused"));
      }
      if (item.state === "conflict" && item.kind === "hand" && item.nextNumber) {
        // another phone saved the hand this one meant (item.current): the same hand is discarded,
        // a different one is saved as the next, under a new key (the old one's answer was the 409)
        note.appendChild(button(say.saySaveNext, function () {
          item.meant = item.nextNumber;
          delete item.seen; // the player said it is another hand: only its number is checked now
          item.key = newKey();
          item.state = "waiting";
          delete item.message;
          Outbox.put(item).then(changed);
        }, "save-as-next"));
      }
      note.appendChild(button(say.sayCopy, function () { copy(item, note); }));
      note.appendChild(discardButton(item));
    } else {
      note.appendChild(element("span", "muted", blocked ? say.sayBlocked : say.sayPendingNote));
    }
    return row;
  }

  function showRows(items) {
    var rows = document.getElementById("board-rows");
    if (!rows) { return; }
    var outboxRows = document.getElementById("outbox-rows");
    if (!outboxRows) {
      outboxRows = element("tbody");
      outboxRows.id = "outbox-rows";
      rows.insertAdjacentElement("afterend", outboxRows);
    }
    var columns = Math.max(1, rows.closest("table").querySelectorAll("thead th").length - 2);
    var blocked = false;
    var shown = [];
    items.forEach(function (item) {
      var stopped = Outbox.stopped(item);
      if (DEALS[item.kind] || stopped) { shown.push(pendingRow(item, columns, blocked && !stopped, items)); }
      blocked = blocked || stopped;
    });
    outboxRows.replaceChildren.apply(outboxRows, shown);
  }

  // --- marks on the hands already on the board ---------------------------------------------------

  function showMarks(items) {
    document.querySelectorAll(".outbox-mark-holder").forEach(function (holder) { holder.remove(); });
    document.querySelectorAll("#board-rows tr[data-pending]").forEach(function (row) { delete row.dataset.pending; });
    var last = {}; // hand number → the last waiting entry touching it
    items.forEach(function (item) {
      if (TOUCHES_A_HAND[item.kind] && !Outbox.stopped(item)) { last[item.number] = item; }
    });
    Object.keys(last).forEach(function (number) {
      var item = last[number];
      var row = document.getElementById("hand-" + number);
      var cell = row && row.querySelector(".what");
      if (!cell) { return; }
      row.dataset.pending = item.kind;
      var holder = cell.appendChild(element("span", "outbox-mark-holder"));
      holder.dataset.testid = "pending-" + item.kind;
      holder.appendChild(document.createTextNode(" "));
      var change = { edit: say.sayCorrection, "delete": say.sayDeleted, restore: say.sayRestoredHand }[item.kind];
      holder.appendChild(element("span", "pending-mark outbox-mark", change + " · " + say.sayPending));
      if (item.kind === "delete") {
        holder.appendChild(button(say.sayRestore, function () {
          queue({ kind: "restore", session: item.session, token: item.token, number: item.number,
                  version: item.version, after: item.id, boardUrl: item.boardUrl });
        }, "restore-pending"));
      }
    });
  }

  // --- the hand in progress ---------------------------------------------------------------------

  function showInProgress(items) {
    var section = document.getElementById("in-progress");
    if (!section) { return; }
    var box = document.getElementById("outbox-in-progress");
    if (box) { box.remove(); }
    var lines = [];
    items.filter(function (item) { return item.kind === "contract" && !Outbox.stopped(item); }).forEach(function (contract) {
      var next = followers(items, contract)[0];
      var line = element("div", "card playing pending");
      line.dataset.testid = "pending-contract";
      line.appendChild(element("p", "playing-now", describe(contract) + " ")).appendChild(mark(contract));
      if (next) {
        line.appendChild(element("p", "muted", next.kind === "abandon" ? say.sayThrownIn : say.sayResultEntered));
      } else {
        var actions = line.appendChild(element("div", "actions"));
        var enter = actions.appendChild(element("a", "button primary", say.sayEnterResult));
        enter.href = base + "hands/new/#after-" + contract.id;
        enter.dataset.testid = "complete-pending";
        actions.appendChild(button(say.sayThrowIn, function () {
          queue({ kind: "abandon", session: contract.session, token: contract.token, after: contract.id,
                  boardUrl: contract.boardUrl });
        }, "abandon-pending"));
      }
      lines.push(line);
    });
    // the hand in progress the server knows, finished or thrown in on this phone
    var playing = section.querySelector("[data-testid='complete-hand']");
    var match = playing && /playing\/(\d+)\//.exec(playing.getAttribute("href"));
    var done = match && items.filter(function (item) {
      return !item.after && ((item.kind === "hand" && item.inProgress === match[1]) ||
                             (item.kind === "abandon" && String(item.inProgress) === match[1]));
    })[0];
    if (done) {
      var note = element("p", "muted", (done.kind === "abandon" ? say.sayThrownIn : say.sayResultEntered) + " ");
      note.dataset.testid = "pending-in-progress";
      note.appendChild(mark(done));
      lines.push(note);
      section.querySelectorAll(".actions").forEach(function (actions) { actions.hidden = true; });
    }
    var start = document.querySelector("[data-testid='start-hand']");
    var open = lines.some(function (line) { return line.querySelector("[data-testid='complete-pending']"); });
    if (start) { start.hidden = open; }
    if (!lines.length) { return; }
    box = element("div");
    box.id = "outbox-in-progress";
    lines.forEach(function (line) { box.appendChild(line); });
    section.insertAdjacentElement("beforebegin", box);
  }

  // --- payments ---------------------------------------------------------------------------------

  function showPayments(items) {
    var card = document.getElementById("payments");
    var old = document.getElementById("outbox-payments");
    if (old) { old.remove(); }
    document.querySelectorAll(".outbox-mark-payment").forEach(function (mark) { mark.remove(); });
    if (!card) { return; }
    var list = element("ul", "payments pending");
    list.id = "outbox-payments";
    list.dataset.testid = "pending-payments";
    items.forEach(function (item) {
      if (item.kind === "payment") {
        var undone = followers(items, item).length > 0;
        var line = list.appendChild(element("li", "", paymentWords(item) + " "));
        line.dataset.outboxPayment = item.id;
        line.appendChild(mark(item));
        if (Outbox.stopped(item)) {
          // the server's reason, and what the player can do about it
          line.appendChild(element("p", "problem", item.message)).dataset.testid = "refused-message";
          var actions = line.appendChild(element("span", "actions"));
          actions.appendChild(button(say.sayFix, function () { fixPayment(item); }, "fix-refused"));
          actions.appendChild(discardButton(item));
        } else if (undone) {
          line.appendChild(element("span", "muted", " " + say.sayUnpaid));
        } else {
          line.appendChild(button(say.sayUndo, function () {
            queue({ kind: "unpay", session: item.session, token: item.token, after: item.id, boardUrl: item.boardUrl });
          }));
        }
      } else if (item.kind === "unpay" && item.payment) {
        var form = card.querySelector("form[action$='/payments/" + item.payment + "/undo/']");
        var holder = form && form.closest("li");
        if (holder) {
          var note = holder.appendChild(element("span", "pending-mark outbox-mark-payment", say.sayUnpaid + " · " + say.sayPending));
          note.dataset.testid = "pending-unpay";
          form.hidden = true;
        }
      }
    });
    if (list.children.length) { card.appendChild(list); }
    var asked = /^#fix-(\d+)$/.exec(window.location.hash); // the board's Fix of a refused payment
    var fixed = asked && items.filter(function (item) { return item.id === Number(asked[1]) && Outbox.stopped(item); })[0];
    if (fixed && fixed.kind === "payment") { fixPayment(fixed); }
  }

  function show(items) {
    if (!session) { return; }
    var mine = ofSession(items, session);
    showRows(mine);
    showMarks(mine);
    showInProgress(mine);
    showPayments(mine);
    showNext(items);
  }

  // the settlement's payments card arrives after the page (htmx): its pending payments with it
  document.addEventListener("htmx:afterSwap", function () { Outbox.items().then(show, function () {}); });
  // a live board swaps its next-hand card for the server's: the deals still waiting step it again
  document.addEventListener("live:updated", function () { Outbox.items().then(show, function () {}); });

  window.MightyPending = {
    show: show, queue: queue, lastTouching: lastTouching, nextAfter: nextAfter, dealsWaiting: dealsWaiting, newKey: newKey,
  };
})();
