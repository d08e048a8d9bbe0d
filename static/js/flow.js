// Who deals, who bids first and who sits out the coming hand, worked out on the phone, so a
// hand queued offline is followed by the right dealer before the server answers.
//
// The rule is the engine's, not ours: each page that may queue a hand carries the session's
// table-flow rule as data (scoring/flow_rules.py; the "flow" of `python -m scoring systems`
// and GET /api/v1/systems), in a JSON block:
//   <script type="application/json" id="flow-rule">{"rule": {...}, "seats": [...], "first_dealer": "..."}</script>
// This file only steps through that data, the way scoring/flow.py does; it knows no preset.
// tests/browser/test_flow_js.py checks it against `python -m scoring next` for every preset.
//
//   next(rule, seats, previous[, firstDealer])
//     -> {dealer, first_bidder, sitting_out: [...], active: [...]}   (the fields `next` prints)
//   session()  -> the page's block: {rule, seats, first_dealer}, or null
//
// `previous` takes the shapes `python -m scoring next` takes:
//   null                                         the session's first hand (firstDealer deals,
//                                                or the first seat)
//   {kind: "deal_miss", dealer, demander}        a deal miss (`shown_by` is read as `demander`;
//                                                the server's board takes the dealer when
//                                                nobody is named: pass it so)
//   {kind: "all_pass", dealer, first_bidder?}    everyone passed
//   {kind: "scored" (default) | "void", dealer, declarer, partners, made?,
//    sitting_out?, first_bidder?, joker_holder?} a hand in summary
//   a hand as entered (HAND_JSON, it has a `contract`), with its dealer; `outcome: "void"`
//                                                makes it void
// Whether a hand was made is needed only where needsMade(rule) (a local rule no
// preset has): give `made` (or a `result` with `made`) there; the phone cannot score.
// `joker_holder` must be given (null: the Joker lay buried) after a played hand where the
// rule says its holder deals next. Anything the engine would refuse throws an Error.

const KINDS = ["scored", "void", "deal_miss", "all_pass"];

function clockwiseFrom(seats, seat, steps = 1) {
  const n = seats.length;
  return seats[(((seats.indexOf(seat) + steps) % n) + n) % n];
}

// every other seat clockwise from the one after `seat`, then `seat` itself
function clockwiseAfter(seats, seat) {
  const start = seats.indexOf(seat) + 1;
  return seats.map((_, i) => seats[(start + i) % seats.length]);
}

function given(value) {
  return value !== undefined && value !== null;
}

function usesName(moments, name) {
  return Object.keys(moments).some((moment) => Array.isArray(moments[moment]) && moments[moment].includes(name));
}

export function needsMade(rule) {
  return usesName(rule.dealer, "first_partner_if_made") || usesName(rule.first_bidder, "first_partner_if_made") ||
    Boolean(rule.sitting_out && usesName(rule.sitting_out, "first_partner_if_made"));
}

// the previous hand in the engine's summary shape (scoring.flow.PreviousHand)
function summary(rule, previous) {
  if (typeof previous !== "object" || Array.isArray(previous)) {
    throw new Error("'previous' must be null, an event or a hand.");
  }
  const hand = "contract" in previous;
  let made = previous.made;
  if (hand && !given(made) && previous.result) made = previous.result.made;
  const kind = hand ? (previous.outcome === "void" ? "void" : "scored") : (previous.kind || "scored");
  const past = {
    kind,
    dealer: previous.dealer,
    declarer: given(previous.declarer) ? previous.declarer : null,
    partners: previous.partners || [],
    made: given(made) ? made : null,
    demander: given(previous.demander) ? previous.demander : (given(previous.shown_by) ? previous.shown_by : null),
    sitting_out: previous.sitting_out || [],
    first_bidder: hand || !given(previous.first_bidder) ? null : previous.first_bidder,
    joker_holder: given(previous.joker_holder) ? previous.joker_holder : null,
  };
  if (!KINDS.includes(kind)) throw new Error(`A previous hand is one of ${KINDS.join(", ")}, not ${kind}.`);
  if (!given(past.dealer)) throw new Error("The previous hand must say who dealt it.");
  if (kind === "scored" && past.declarer === null) throw new Error("A scored hand needs its declarer.");
  // `next` asks every summary whether it was made; offline nobody knows before the server
  // scores the hand, so here it is asked only where the rule depends on it
  if (kind === "scored" && past.made === null && needsMade(rule)) {
    throw new Error("A scored hand needs whether it was made.");
  }
  if (kind === "deal_miss" && past.demander === null) throw new Error("A deal miss needs the player who demanded it.");
  if (past.declarer !== null && past.partners.includes(past.declarer)) {
    throw new Error("The declarer cannot be their own partner.");
  }
  if ((kind === "scored" || kind === "void") && usesName(rule.dealer, "joker_holder") && !("joker_holder" in previous)) {
    throw new Error("In this system the player who held the Joker deals next: give 'joker_holder'.");
  }
  past.hasDeclarer = (kind === "scored" || kind === "void") && past.declarer !== null;
  return past;
}

function checkSeats(rule, seats, named) {
  if (new Set(seats).size !== seats.length) throw new Error("Each seat must be listed once.");
  if (seats.length !== rule.players) {
    throw new Error(`This system seats ${rule.players} players, not ${seats.length}.`);
  }
  for (const seat of named) {
    if (given(seat) && !seats.includes(seat)) throw new Error(`${seat} is not one of the seats.`);
  }
}

function moment(past) {
  if (past === null) return "first_hand";
  if (past.kind === "deal_miss") return "after_deal_miss";
  return past.hasDeclarer ? "after_hand" : "after_all_pass";
}

// the seats a rule's name means at this table (scoring/flow_rules.py SEAT_NAMES); [] for nobody
function seatsNamed(name, table) {
  const { seats, previous: past } = table;
  if (name === "first_dealer") return given(table.firstDealer) ? [table.firstDealer] : [];
  if (name === "first_seat") return [seats[0]];
  if (name === "dealer") return [table.dealer];
  if (name === "left_of_dealer") return [clockwiseFrom(seats, table.dealer)];
  if (past === null) return [];
  if (name === "previous_dealer") return [past.dealer];
  if (name === "left_of_previous_dealer") return [clockwiseFrom(seats, past.dealer)];
  if (name === "right_of_previous_dealer") return [clockwiseFrom(seats, past.dealer, -1)];
  if (name === "demander") return past.kind === "deal_miss" ? [past.demander] : [];
  if (name === "joker_holder") return past.joker_holder !== null ? [past.joker_holder] : [];
  if (name === "previous_first_bidder") return seats.includes(past.first_bidder) ? [past.first_bidder] : [];
  if (name === "previous_sitting_out") {
    return past.sitting_out.length === table.sittingOutCount ? past.sitting_out.slice() : [];
  }
  if (!past.hasDeclarer) return [];
  const partners = clockwiseAfter(seats, past.declarer).filter((seat) => past.partners.includes(seat));
  if (name === "declarer") return [past.declarer];
  if (name === "partners") return partners;
  if (name === "first_partner") return partners.slice(0, 1);
  if (name === "first_partner_if_made") return past.made ? partners.slice(0, 1) : [];
  throw new Error(`A flow rule names no seat ${name}.`);
}

function firstNamed(names, table) {
  for (const name of names) {
    const found = seatsNamed(name, table);
    if (found.length) return found[0];
  }
  throw new Error(`None of ${names.join(", ")} names a seat here.`);
}

export function next(rule, seats, previous, firstDealer) {
  const past = given(previous) ? summary(rule, previous) : null;
  checkSeats(rule, seats, past === null ? [firstDealer] : [past.dealer, past.declarer, past.demander, past.joker_holder]);
  const when = moment(past);
  const table = { seats, previous: past, firstDealer, dealer: null, sittingOutCount: 0 };
  const dealer = firstNamed(rule.dealer[when], table);
  table.dealer = dealer;

  let out = [];
  if (rule.sitting_out) {
    const count = rule.sitting_out.count;
    table.sittingOutCount = count;
    let chosen = rule.sitting_out[when].flatMap((name) => seatsNamed(name, table));
    // short of the number who must sit out, the seats clockwise after the dealer fill in
    for (const seat of clockwiseAfter(seats, dealer)) {
      if (chosen.length < count && !chosen.includes(seat)) chosen.push(seat);
    }
    chosen = chosen.slice(0, count);
    out = seats.filter((seat) => chosen.includes(seat));
  }

  // the rule's seat opens, or the next seat clockwise that is playing
  const opener = firstNamed(rule.first_bidder[when], table);
  const bidder = [opener, ...clockwiseAfter(seats, opener)].find((seat) => !out.includes(seat));
  return {
    dealer,
    first_bidder: bidder,
    sitting_out: out,
    active: seats.filter((seat) => !out.includes(seat)),
  };
}

// the page's JSON block, where a page carries one
export function session() {
  const block = document.getElementById("flow-rule");
  return block ? JSON.parse(block.textContent) : null;
}
