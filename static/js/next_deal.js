// Who deals next, after what waits on this phone. A page knows the coming hand as the server said
// it when the page was drawn, before the deals still waiting in the outbox. `nextAfter` steps the
// table's flow rule (flow.js, the engine's rule as data, in the page's "flow-rule" block) through
// each of them in order, carrying who opened and who sat out each one into the next; the board and
// the forms ask it, and only it. A delete or correction of the latest hand waiting here starts it
// from the coming hand as it stood before that hand (the page's "latest-hand" block). What the
// player has not sent yet, or was refused, moves no dealer.
import * as flow from "./flow.js";
import * as outbox from "./outbox.js";

const TOUCHES_A_HAND = new Set(["edit", "delete", "restore"]);
const DEALS = new Set(["hand", "event"]); // what moves the deal to the next seat

export function isDeal(entry) {
  return DEALS.has(entry.kind);
}

export function touchesAHand(entry) {
  return TOUCHES_A_HAND.has(entry.kind);
}

export function dealsWaiting(all, session) {
  // the hands, deal misses and all-passes of the session still to be sent, in order: the server
  // numbers them so, and deals the next hand after the last of them
  return outbox.waiting(all, session).filter(isDeal);
}

export function lastTouching(all, session, number) {
  // the entry still waiting that last touched hand `number`: a new one follows it, at its version
  return outbox.waiting(all, session).filter((entry) => touchesAHand(entry) && entry.number === Number(number)).pop() || null;
}

function taps(entry, name) {
  return (entry.fields || []).filter((pair) => pair[0] === name).map((pair) => pair[1]);
}

function summary(entry, table, before) {
  // the deal waiting here in the shape flow.js takes (what `python -m scoring next` takes), with who
  // opened it and who sat it out as the step before decided: a throw-in's redeal is opened by
  // whoever opened it, with the same players out (reads.next_state carries them the same way)
  const seated = (seat) => table.seats.includes(seat);
  const opener = before ? before.first_bidder : null;
  const out = (before && before.sitting_out) || [];
  if (entry.kind === "event") {
    const kept = entry.entry;
    const event = { kind: kept.kind || entry.eventKind, dealer: kept.dealer || table.first_dealer,
                    first_bidder: opener, sitting_out: out };
    // the server's: who showed the hand, or the dealer when nobody is named
    if (event.kind === "deal_miss") event.demander = kept.shown_by || event.dealer;
    return event;
  }
  const sittingOut = taps(entry, "sitting_out");
  return {
    kind: "scored",
    dealer: taps(entry, "dealer")[0] || table.first_dealer,
    declarer: taps(entry, "declarer")[0],
    partners: taps(entry, "partners").filter(seated),
    sitting_out: sittingOut.length ? sittingOut : out,
    first_bidder: opener,
    joker_holder: taps(entry, "joker_holder").filter(seated)[0] || null,
  };
}

export function shownNext() {
  // the coming hand as the server said it when the page was drawn: the scoreboard's next-hand card
  // (its first values, kept while pending.js rewrites it), or a form's dealer and seating as the
  // server ticked them (not a draft's); null where neither is
  const card = document.querySelector("#next-hand[data-next-dealer]");
  if (card) {
    if (!card.dataset.serverNext) {
      const named = card.querySelectorAll("p strong"); // "Next: <strong>Ann</strong> deals, <strong>Bo</strong> bids first."
      card.dataset.serverNext = JSON.stringify({
        dealer: card.dataset.nextDealer, first_bidder: named[1] ? named[1].textContent.trim() : null,
        sitting_out: JSON.parse(card.dataset.nextOut || "[]"),
      });
    }
    return JSON.parse(card.dataset.serverNext);
  }
  if (!document.querySelector("input[name='dealer']")) return null;
  const ticked = (name) => [...document.querySelectorAll(`input[name='${name}']`)]
    .filter((input) => input.defaultChecked).map((input) => input.value);
  return { dealer: ticked("dealer")[0] || null, first_bidder: null, sitting_out: ticked("sitting_out") };
}

function latestHand() {
  // the latest live hand as the page was drawn, with the coming hand as it stood before it
  // (partials/latest_hand.html): what a delete or a correction of that hand goes back to
  const block = document.getElementById("latest-hand");
  try { return block ? JSON.parse(block.textContent) : null; } catch { return null; }
}

export function nextAfter(all, session) {
  // who deals, bids first and sits out after what waits on this phone, as the server will say once
  // it has it. null when nothing of that waits, the page carries no flow rule, or a step needs what
  // only the server can tell (whether the hand was made): then the page's own answer stands
  const drawn = shownNext(); // read first: the board keeps the server's values before rewriting them
  const table = flow.session(); // the page's flow-rule block: {rule, seats, first_dealer}
  const deals = dealsWaiting(all, session);
  const latest = latestHand();
  let change = latest ? lastTouching(all, session, latest.number) : null;
  if (change && change.kind === "restore") change = null; // the hand stands as the page says
  if ((!deals.length && !change) || !table || !table.rule) return null;
  let state = change ? latest.before : drawn;
  const step = (entry) => {
    if (!state) return;
    try {
      state = flow.next(table.rule, table.seats, summary(entry, table, state), table.first_dealer);
    } catch {
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
