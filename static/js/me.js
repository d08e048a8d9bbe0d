// "This phone is me": a player taps their own name once on the scoreboard, and this phone
// then shows that player's total and money first, whether they deal or sit out next, what
// they pay or receive in the settlement, and their line in the chart.
//
// The name is kept in this phone's localStorage, per group, and never leaves it: nothing is
// sent, no cookie is set. The page carries every figure already (data-points-of,
// data-money-of, the next hand's dealer and who sits out); this only shows them first.
// Without JavaScript (or storage) the cards stay hidden and the page is as it was.
(function () {
  "use strict";

  var PREFIX = "mighty-ledger:me:";
  var picking = false; // the names are open to change who this phone is: a live update keeps them open

  function storage() {
    try { return window.localStorage; } catch (error) { return null; }
  }

  function groupOf() {
    var card = document.querySelector("[data-me-card]");
    return card ? card.dataset.meCard : "";
  }

  function chosen() {
    var store = storage();
    return store ? store.getItem(PREFIX + groupOf()) || "" : "";
  }

  function choose(name) {
    var store = storage();
    if (!store) { return; }
    if (name) { store.setItem(PREFIX + groupOf(), name); } else { store.removeItem(PREFIX + groupOf()); }
  }

  function textOf(selector) {
    // the amount written in full where the board's narrow column shortens it (16K for ₩16,000)
    var found = document.querySelector(selector);
    return found ? (found.dataset.amount || found.textContent).trim() : "";
  }

  function attr(name, value) {
    return "[" + name + "=\"" + (window.CSS && CSS.escape ? CSS.escape(value) : value.replace(/"/g, "\\\"")) + "\"]";
  }

  function seats() {
    return Array.prototype.map.call(document.querySelectorAll("[data-me-seat]"), function (button) {
      return button.dataset.meSeat;
    });
  }

  function show() {
    var me = chosen();
    var seated = document.querySelector("[data-me-seat]") ? seats().indexOf(me) !== -1 : true;
    var known = me && seated && document.querySelector(attr("data-points-of", me));
    document.querySelectorAll("[data-me-card]").forEach(function (card) {
      card.hidden = !known || picking;
      if (!known) { return; }
      card.querySelector("[data-me-name]").textContent = me;
      card.querySelector("[data-me-points]").textContent = textOf(attr("data-points-of", me));
      card.querySelector("[data-me-money]").textContent = textOf(attr("data-money-of", me));
      card.querySelectorAll("[data-me-when]").forEach(function (line) {
        line.hidden = !nextIs(line.dataset.meWhen, me);
      });
      var any = false;
      card.querySelectorAll("[data-me-if]").forEach(function (line) {
        line.hidden = line.dataset.meIf !== me;
        any = any || !line.hidden;
      });
      var none = card.querySelector("[data-me-none]");
      if (none) { none.hidden = any; }
    });
    document.querySelectorAll("[data-me-pick]").forEach(function (pick) {
      pick.hidden = known && !picking;
      var clear = pick.querySelector("[data-me-clear]");
      if (clear) { clear.hidden = !me; }
      pick.querySelectorAll("[data-me-seat]").forEach(function (button) {
        button.setAttribute("aria-pressed", button.dataset.meSeat === me ? "true" : "false");
      });
    });
    highlight(known ? me : "");
  }

  function nextIs(what, me) {
    var next = document.querySelector("[data-next-dealer]");
    if (!next) { return false; }
    if (what === "deal") { return next.dataset.nextDealer === me; }
    var out = [];
    try { out = JSON.parse(next.dataset.nextOut || "[]"); } catch (error) { out = []; }
    return out.indexOf(me) !== -1;
  }

  function highlight(me) {
    document.querySelectorAll(".me").forEach(function (element) { element.classList.remove("me"); });
    if (!me) { return; }
    document.querySelectorAll(attr("data-seat", me) + "," + attr("data-player", me)).forEach(function (element) {
      // a chart's line is highlighted with its whole series (line, markers), a column cell by itself
      var series = element.closest(".series");
      (series || element).classList.add("me");
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest("[data-me-seat], [data-me-change], [data-me-clear]");
    if (!target) { return; }
    if (target.hasAttribute("data-me-seat")) { choose(target.dataset.meSeat); picking = false; }
    else if (target.hasAttribute("data-me-change")) { picking = true; }
    else { choose(""); picking = true; }
    show();
  });
  // the live table swaps the board in place, htmx brings the chart after it: show them again
  document.addEventListener("live:updated", show);
  document.addEventListener("htmx:afterSettle", show);
  show();
})();
