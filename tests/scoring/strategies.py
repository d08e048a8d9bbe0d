"""Hypothesis strategies for legal hands under any preset, built the way a real table plays."""

from __future__ import annotations

from hypothesis import strategies as st

from scoring.cards import SUITS, mighty
from scoring.presets import all_presets

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal"]


def _levels(system):
    top = system.max_bid
    levels = range(system.min_bid, top + 1)
    if system.base != "table":
        return list(levels)
    from scoring.tables import team_amounts

    return [lv for lv in levels if team_amounts(system.active_players, system.called_cards, lv) is not None]


@st.composite
def legal_hands(draw, slugs=None):
    """(request, system) for a random legal played hand of a random preset."""
    presets = [p for p in all_presets() if slugs is None or p.slug in slugs]
    preset = draw(st.sampled_from(presets))
    system = preset.system()
    seats = NAMES[: system.players]
    out = draw(st.permutations(seats))[: system.players - system.active_players]
    active = [s for s in seats if s not in out]
    declarer = draw(st.sampled_from(active))
    others = [s for s in active if s != declarer]
    level = draw(st.sampled_from(_levels(system)))
    trumps = list(SUITS) + ["NT"]
    if system.min_suit_contract and level < system.min_suit_contract:
        trumps = ["NT"]
    trump = draw(st.sampled_from(trumps))

    deck = system.deck_cards
    forbidden = set()
    if "mighty" in system.forbidden_calls:
        forbidden.add(mighty(trump, spade_trump_keeps_mighty=system.spade_trump_keeps_mighty))
    if "joker" in system.forbidden_calls:
        forbidden.add("JOKER")
    callable_cards = sorted(card for card in deck.copies if card not in forbidden)

    kinds = ["partner"] if not system.always_alone else []
    if system.always_alone or "none" in system.partner_calls:
        kinds.append("announced")
    if not system.always_alone and system.secret_solo and "card" in system.partner_calls:
        kinds.append("secret")
    kind = draw(st.sampled_from(kinds))
    if kind == "partner":
        count = system.called_cards
        cards = draw(st.lists(st.sampled_from(callable_cards), min_size=count, max_size=count, unique=True))
        partners = draw(st.lists(st.sampled_from(others), min_size=1, max_size=count, unique=True))
        call = {"type": "card", "cards": cards}
    elif kind == "secret":
        cards = draw(st.lists(st.sampled_from(callable_cards), min_size=system.called_cards,
                              max_size=system.called_cards, unique=True))
        partners, call = [], {"type": "card", "cards": cards}
    else:
        partners, call = [], {"type": "none"}

    request = {
        "system": preset.slug,
        "seats": seats,
        "sitting_out": out,
        "declarer": declarer,
        "contract": {"points": level, "trump": trump},
        "partner_call": call,
        "partners": partners,
        "points": draw(st.integers(0, system.total_points)),
    }
    return request, system
