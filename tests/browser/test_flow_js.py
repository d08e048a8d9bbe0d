"""The phone's next dealer is the engine's: static/js/flow.js against `python -m scoring next`.

Offline, the phone steps the session's table-flow rule (scoring/flow_rules.py, exported
as data) through each queued hand, deal miss and all-pass. For every preset, and for
the option values no preset uses, random evenings are played through the engine
(``scoring.interface.next_request``, the function behind ``next``: in-process it answers
the batch faster than one CLI run per batch, which pays Python's start-up and the
presets' import each time) and through flow.js in Chromium, and every step must agree.
What the phone is given is ``scoring.flow_rules.flow_rule``, the function whose answer
``python -m scoring systems`` and ``GET /api/v1/systems`` export as ``flow``
(tests/scoring/test_flow_rules.py).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from scoring.flow_rules import flow_rule
from scoring.interface import check_request, next_request, score_request
from scoring.presets import all_presets, resolve_system
from scoring.problems import InvalidInput
from tests.scoring.strategies import NAMES, _levels

pytestmark = pytest.mark.browser

FLOW_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "flow.js"
SEQUENCES_PER_SYSTEM = 8
STEPS_PER_SEQUENCE = 10

# options no preset uses, each on a preset it fits, so every rule flow.py knows is stepped too
VARIANTS = [
    pytest.param("pagat-standard", {"next_dealer": "declarer"}, id="next-dealer-declarer"),
    pytest.param("pagat-standard", {"next_dealer": "partner_if_made"}, id="korean-6-local-partner-if-made"),
    pytest.param("pagat-standard", {"next_dealer": "rotation", "first_bidder": "partner"}, id="rotation"),
    pytest.param("pagat-standard", {"next_dealer": "previous_dealer"}, id="previous-dealer"),
    pytest.param("pagat-standard", {"deal_miss": {"next_dealer": "next"}}, id="deal-miss-next"),
    pytest.param("pagat-standard", {"deal_miss": {"next_dealer": "previous"}, "first_bidder": "dealer"},
                 id="deal-miss-previous"),
    pytest.param("pagat-standard", {"deal_miss": {"next_dealer": "same"}, "first_bidder": "left_of_dealer"},
                 id="deal-miss-same"),
    pytest.param("pagat-6p-rotation", {"sit_out": "previous_result"}, id="pagat-6p-previous-result"),
    pytest.param("korean-7-rotation", {"deal_miss": {"next_dealer": "next"}, "first_bidder": "partner"},
                 id="korean-7-redeal-keeps-who-sits-out"),
]

# flow.js's answer to each step of each evening, or the message of what it threw; the module is
# imported as it is written, from a blob of its text (the blank page has no server behind it)
STEP_EVERY_EVENING = """async ([source, evenings]) => {
  const flow = await import(URL.createObjectURL(new Blob([source], {type: "text/javascript"})));
  return evenings.map((evening) => evening.steps.map((step) => {
    try {
      return flow.next(evening.rule, evening.seats, step.previous, step.first_dealer);
    } catch (error) {
      return {error: String(error.message)};
    }
  }));
}"""


def _entered_hand(rng: random.Random, system, slug: str, options: dict, seats: list[str], state: dict,
                  declarer: str, partners: list[str], joker_holder: dict) -> dict | None:
    """A legal hand as the form enters it (HAND_JSON), or None when this one is not legal."""
    hand = {
        "system": slug, "options": options, "seats": seats, "dealer": state["dealer"],
        "sitting_out": state["sitting_out"] or _knocked_out(rng, system, seats),
        "declarer": declarer,
        "contract": {"points": rng.choice(_levels(system)),
                     "trump": "NT" if system.min_suit_contract else rng.choice(["S", "H", "D", "C", "NT"])},
        "partner_call": _call(rng, system, partners),
        "partners": partners,
        "points": rng.randint(0, system.total_points),
        **joker_holder,
    }
    if hand["declarer"] in hand["sitting_out"]:
        return None
    return hand if check_request(hand)["legal"] else None


def _call(rng: random.Random, system, partners: list[str]) -> dict:
    """A card call for a hand with partners, no call for a declarer alone (as tests/scoring/strategies.py)."""
    if not partners:
        return {"type": "none"}
    cards = sorted(card for card in system.deck_cards.copies if card != "JOKER")
    return {"type": "card", "cards": rng.sample(cards, system.called_cards)}


def _knocked_out(rng: random.Random, system, seats: list[str]) -> list[str]:
    # a knockout game names who was knocked out on the hand itself
    return rng.sample(seats, system.players - system.active_players) if system.sit_out == "knockout" else []


def _previous(rng: random.Random, slug: str, options: dict, system, seats: list[str], state: dict) -> dict:
    """One random thing that can happen at the table after ``state``, in a shape `next` takes."""
    rule = flow_rule(system)
    active = state["active"]
    joker = {"joker_holder": rng.choice([*active, None])} if (
        "joker_holder" in rule.dealer.after_hand or rng.random() < 0.3) else {}
    roll = rng.random()
    if roll < 0.15:
        event = {"kind": "deal_miss", "dealer": state["dealer"]}
        event["demander" if rng.random() < 0.7 else "shown_by"] = rng.choice(active)
    elif roll < 0.3:
        event = {"kind": "all_pass", "dealer": state["dealer"]}
    else:
        declarer = rng.choice(active)
        others = [seat for seat in active if seat != declarer]
        alone = system.always_alone or not others or rng.random() < 0.2
        partners = [] if alone else rng.sample(others, rng.randint(1, min(system.called_cards, len(others))))
        if roll >= 0.55:
            hand = _entered_hand(rng, system, slug, options, seats, state, declarer, partners, joker)
            if hand is not None:
                return hand
        if 0.3 <= roll < 0.4:
            event = {"kind": "void", "dealer": state["dealer"], **joker}
            if rng.random() < 0.5:
                event.update(declarer=declarer, partners=partners)
        else:
            event = {"dealer": state["dealer"], "declarer": declarer, "partners": partners,
                     "made": rng.random() < 0.6, **joker}
            if rng.random() < 0.7:
                event["kind"] = "scored"  # or left out: a summary is a scored hand by default
    if rng.random() < 0.7:
        event["first_bidder"] = state["first_bidder"]
    # 변형 7마's redeal keeps who sat out, so `next` asks for them: the table always says it there
    out = rule.sitting_out
    kept = out is not None and event.get("kind") in ("deal_miss", "all_pass") and (
        "previous_sitting_out" in out.seats.at("after_deal_miss" if event["kind"] == "deal_miss" else "after_all_pass"))
    if kept or rng.random() < 0.7:
        event["sitting_out"] = state["sitting_out"]
    return event


def _evening(rng: random.Random, slug: str, options: dict) -> dict:
    """A random evening stepped through the engine: each step's request and its answer."""
    system = resolve_system(slug, options)
    seats = NAMES[: system.players]
    first_dealer = rng.choice([None, *seats])
    steps = [{"previous": None, "first_dealer": first_dealer}]
    state = next_request({"system": slug, "options": options, "seats": seats, "first_dealer": first_dealer,
                          "previous": None})
    answers = [state]
    for _ in range(STEPS_PER_SEQUENCE):
        previous = _previous(rng, slug, options, system, seats, state)
        if "contract" in previous:
            made = _made(previous)
            # the phone cannot score: where the rule asks whether a hand was made, the caller says
            js_previous = {**previous, "made": made} if _needs_made(system) else previous
        else:
            js_previous = previous
        state = next_request({"system": slug, "options": options, "seats": seats, "previous": previous})
        steps.append({"previous": js_previous, "first_dealer": None})
        answers.append(state)
    return {"rule": flow_rule(system).as_json(), "seats": seats, "steps": steps, "answers": answers}


def _made(hand: dict) -> bool | None:
    return score_request(hand)["made"]


def _needs_made(system) -> bool:
    return "first_partner_if_made" in flow_rule(system).names()


def _step_in_the_browser(page, evenings: list[dict]) -> list[list[dict]]:
    evenings = [{k: e[k] for k in ("rule", "seats", "steps")} for e in evenings]
    return page.evaluate(STEP_EVERY_EVENING, [FLOW_JS.read_text(), evenings])


def _disagreements(evenings, stepped) -> list:
    wrong = []
    for evening, phone in zip(evenings, stepped, strict=True):
        for number, (step, engine, js) in enumerate(zip(evening["steps"], evening["answers"], phone, strict=True)):
            if js != engine:
                wrong.append({"step": number, "previous": step["previous"], "engine": engine, "phone": js})
    return wrong


def test_the_phone_steps_every_preset_as_the_engine_does(page):
    rng = random.Random(22)
    evenings = [_evening(rng, preset.slug, {}) for preset in all_presets() for _ in range(SEQUENCES_PER_SYSTEM)]

    stepped = _step_in_the_browser(page, evenings)

    assert _disagreements(evenings, stepped) == []
    kinds = [_kind(step["previous"]) for evening in evenings for step in evening["steps"]]
    # a few hundred evenings, each kind of step many times over
    assert len(evenings) == 40 * SEQUENCES_PER_SYSTEM
    assert all(kinds.count(kind) >= 100 for kind in ("hand", "summary", "void", "deal_miss", "all_pass"))


@pytest.mark.parametrize(("slug", "options"), VARIANTS)
def test_the_phone_steps_every_rule_no_preset_uses(page, slug, options):
    rng = random.Random(slug + repr(options))
    evenings = [_evening(rng, slug, options) for _ in range(SEQUENCES_PER_SYSTEM)]

    assert _disagreements(evenings, _step_in_the_browser(page, evenings)) == []


def _kind(previous) -> str:
    if previous is None:
        return "first"
    if "contract" in previous:
        return "hand"
    return {"scored": "summary", None: "summary"}.get(previous.get("kind"), previous.get("kind"))


@pytest.mark.parametrize(
    ("slug", "seats", "previous"),
    [
        pytest.param("pagat-3p", NAMES[:3], {"kind": "scored", "dealer": "Ann", "declarer": "Bo", "made": True},
                     id="pagat-3p-who-held-the-joker-is-asked"),
        pytest.param("pagat-standard", NAMES[:5], {"kind": "deal_miss", "dealer": "Ann"}, id="deal-miss-who-showed"),
        pytest.param("pagat-standard", NAMES[:4], None, id="too-few-seats"),
        pytest.param("pagat-standard", NAMES[:5], {"kind": "all_pass", "dealer": "Zed"}, id="dealer-not-seated"),
        pytest.param("pagat-standard", NAMES[:5], {"kind": "misdeal", "dealer": "Ann"}, id="unknown-kind"),
    ],
)
def test_what_the_engine_refuses_the_phone_refuses(page, slug, seats, previous):
    with pytest.raises(InvalidInput):
        next_request({"system": slug, "seats": seats, "previous": previous})
    evening = {"rule": flow_rule(resolve_system(slug)).as_json(), "seats": seats, "steps": [{"previous": previous}]}

    ((answer,),) = _step_in_the_browser(page, [evening])

    assert "error" in answer


PARTNER_IF_MADE = {"next_dealer": "partner_if_made"}
MADE_UNKNOWN = {"kind": "scored", "dealer": "Ann", "declarer": "Bo", "partners": ["Di"]}


def test_whether_a_hand_was_made_is_asked_only_where_the_rule_depends_on_it(page):
    # offline nobody knows before the server scores the hand; pagat's next dealer is the
    # partner either way, so the phone goes on where `next` (which always asks) would refuse
    pagat = {"rule": flow_rule(resolve_system("pagat-standard")).as_json(), "seats": NAMES[:5],
             "steps": [{"previous": MADE_UNKNOWN}]}
    local = {**pagat, "rule": flow_rule(resolve_system("pagat-standard", PARTNER_IF_MADE)).as_json()}

    ((answer,), (refused,)) = _step_in_the_browser(page, [pagat, local])

    for made in (True, False):
        engine = next_request({"system": "pagat-standard", "seats": NAMES[:5],
                               "previous": {**MADE_UNKNOWN, "made": made}})
        assert answer == engine
    assert "error" in refused
