// Who pays whom, read without signal: the kept settle and payments pages tell the truth they have.
//
// A kept copy (sw.js) shows the settlement as the server drew it when the copy was made. It is
// still the truth when nothing came after it that this phone knows of: its revision (the
// session's, kept with it) is the kept scoreboard's, and no action of the session waits in the
// outbox. Otherwise the transfers are hidden and the page says plainly why: a hand waiting on this
// phone, a delete, a correction or a payment made here changes who pays whom, and only the server
// works that out (scoring/settle.py: the fewest transfers, the stakes, the rounding, the payments
// already made); a copy older than the kept scoreboard is missing the hands since. Transfers that
// are no longer owed are never offered, and nothing here computes money.
(function () {
  "use strict";

  var root = document.documentElement;
  var PAGE = /^(\/g\/[^/]+\/s\/(\d+)\/)(settle|payments)\/$/.exec(window.location.pathname);
  var Outbox = window.MightyOutbox;
  var status = document.getElementById("app-status");
  if (!root.dataset.offlineAsOf || !PAGE || !Outbox || !status) { return; }
  var say = status.dataset;
  // what changes the scores once the server has it (a contract or a throw-in changes none): every
  // list of who pays whom waits. A payment changes only what is still owed: the settle page's
  // lists wait, while the payments card shows it pending on the very transfer (pending.js)
  var CHANGES_SCORES = { hand: 1, event: 1, edit: 1, "delete": 1, restore: 1 };
  var PAYMENTS = { payment: 1, unpay: 1 };
  var SETTLE_LISTS = "#settle-transfers, ul.transfers, #share";
  var ALL_LISTS = SETTLE_LISTS + ", [data-testid='payments-owed']";
  var hiding = null; // the lists hidden, once the page knows

  function boardRevision() {
    // the session's revision the kept scoreboard shows (sw.js keeps it beside the copy)
    if (!window.caches) { return Promise.resolve(null); }
    return caches.open("pages").then(function (cache) { return cache.match(PAGE[1]); }).then(function (board) {
      var revision = board && board.headers.get("X-Revision");
      return revision ? Number(revision) : null;
    }, function () { return null; });
  }

  function waitingHere(items, kinds) {
    return items.filter(function (item) {
      return item.session === PAGE[2] && kinds[item.kind] && !Outbox.stopped(item);
    });
  }

  function hideTransfers() {
    if (!hiding) { return; }
    document.querySelectorAll(hiding).forEach(function (list) {
      if (list.dataset.waitsForServer !== undefined) { return; }
      var shown = list.getClientRects().length > 0; // a list in a card not shown yet needs no note
      list.hidden = true;
      list.dataset.waitsForServer = "";
      if (!shown) { return; }
      var note = document.createElement("p");
      note.className = "muted";
      note.dataset.testid = "transfers-wait";
      note.textContent = say.sayTransfersWait;
      list.insertAdjacentElement("beforebegin", note);
    });
  }

  function tell(waiting, older) {
    var notice = document.getElementById("kept-settlement") || document.createElement("p");
    notice.id = "kept-settlement";
    notice.className = "notice";
    notice.setAttribute("role", "status");
    notice.dataset.testid = "kept-settlement";
    var lines = [];
    if (waiting.length) { lines.push(say.sayNotCounted.replace("{count}", waiting.length)); }
    if (older) { lines.push(say.sayOlderThanBoard); }
    lines.push(say.sayTransfersLater);
    notice.textContent = lines.join(" ");
    var heading = document.querySelector("main h1");
    if (heading && !notice.isConnected) { heading.insertAdjacentElement("afterend", notice); }
  }

  function check() {
    var own = root.dataset.offlineRevision ? Number(root.dataset.offlineRevision) : null;
    return Promise.all([boardRevision(), Outbox.items().catch(function () { return []; })]).then(function (both) {
      var board = both[0];
      var scores = waitingHere(both[1], CHANGES_SCORES);
      var paid = waitingHere(both[1], PAYMENTS);
      // a copy of no known revision is trusted only as far as the board is unknown too
      var older = board !== null && (own === null || own < board);
      if (scores.length || older) {
        hiding = ALL_LISTS;
      } else if (paid.length && PAGE[3] === "settle") {
        hiding = SETTLE_LISTS;
      } else {
        return;
      }
      tell(scores.concat(paid), older);
      hideTransfers();
    });
  }

  check();
  document.addEventListener("outbox:changed", check);
  // the payments card arrives after the page where it loads itself: its lists too
  document.addEventListener("htmx:afterSwap", hideTransfers);
})();
