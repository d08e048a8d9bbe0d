// "This phone is me": a player taps their own name once on the scoreboard, and this phone
// then shows that player's total and money first, whether they deal or sit out next, what
// they pay or receive in the settlement, and their line in the chart.
//
// The name is kept in this phone's localStorage, per group, and never leaves it: nothing is
// sent, no cookie is set. The page carries every figure already (data-points-of,
// data-money-of, the next hand's dealer and who sits out); this only shows them first.
// Without JavaScript (or storage) the cards stay hidden and the page is as it was.
import { ME as PREFIX } from "./stores.js";

let picking = false; // the names are open to change who this phone is: a live update keeps them open

function storage() {
  try { return window.localStorage; } catch { return null; }
}

function groupOf() {
  const card = document.querySelector("[data-me-card]");
  return card ? card.dataset.meCard : "";
}

// the name this phone's player chose in the group, or "" (static/js/night_place.js asks it too)
export function chosenIn(group) {
  const store = storage();
  return store ? store.getItem(PREFIX + group) || "" : "";
}

function chosen() {
  return chosenIn(groupOf());
}

function choose(name) {
  const store = storage();
  if (!store) return;
  if (name) store.setItem(PREFIX + groupOf(), name); else store.removeItem(PREFIX + groupOf());
}

function textOf(selector) {
  // the amount written in full where the board's narrow column shortens it (16K for ₩16,000)
  const found = document.querySelector(selector);
  return found ? (found.dataset.amount || found.textContent).trim() : "";
}

function attr(name, value) {
  return `[${name}="${CSS.escape(value)}"]`;
}

function seats() {
  return [...document.querySelectorAll("[data-me-seat]")].map((button) => button.dataset.meSeat);
}

function show() {
  const me = chosen();
  const seated = document.querySelector("[data-me-seat]") ? seats().includes(me) : true;
  const known = me && seated && document.querySelector(attr("data-points-of", me));
  for (const card of document.querySelectorAll("[data-me-card]")) {
    card.hidden = !known || picking;
    if (!known) continue;
    card.querySelector("[data-me-name]").textContent = me;
    card.querySelector("[data-me-points]").textContent = textOf(attr("data-points-of", me));
    card.querySelector("[data-me-money]").textContent = textOf(attr("data-money-of", me));
    card.querySelectorAll("[data-me-when]").forEach((line) => { line.hidden = !nextIs(line.dataset.meWhen, me); });
    let any = false;
    for (const line of card.querySelectorAll("[data-me-if]")) {
      line.hidden = line.dataset.meIf !== me;
      any = any || !line.hidden;
    }
    const none = card.querySelector("[data-me-none]");
    if (none) none.hidden = any;
  }
  for (const pick of document.querySelectorAll("[data-me-pick]")) {
    pick.hidden = known && !picking;
    const clear = pick.querySelector("[data-me-clear]");
    if (clear) clear.hidden = !me;
    pick.querySelectorAll("[data-me-seat]").forEach((button) => {
      button.setAttribute("aria-pressed", button.dataset.meSeat === me ? "true" : "false");
    });
  }
  highlight(known ? me : "");
}

function nextIs(what, me) {
  const next = document.querySelector("[data-next-dealer]");
  if (!next) return false;
  if (what === "deal") return next.dataset.nextDealer === me;
  let out = [];
  try { out = JSON.parse(next.dataset.nextOut || "[]"); } catch { out = []; }
  return out.includes(me);
}

function highlight(me) {
  document.querySelectorAll(".me").forEach((element) => element.classList.remove("me"));
  if (!me) return;
  for (const element of document.querySelectorAll(`${attr("data-seat", me)},${attr("data-player", me)}`)) {
    // a chart's line is highlighted with its whole series (line, markers), a column cell by itself
    (element.closest(".series") || element).classList.add("me");
  }
}

document.addEventListener("click", (event) => {
  const target = event.target.closest("[data-me-seat], [data-me-change], [data-me-clear]");
  if (!target) return;
  if (target.hasAttribute("data-me-seat")) {
    choose(target.dataset.meSeat);
    picking = false;
  } else if (target.hasAttribute("data-me-change")) {
    picking = true;
  } else {
    choose("");
    picking = true;
  }
  show();
});
// the live table swaps the board in place, htmx brings the chart after it: show them again
document.addEventListener("live:updated", show);
document.addEventListener("htmx:afterSettle", show);
show();
