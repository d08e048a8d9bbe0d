"""What a throw-in passes on to its redeal: who opened it and who sat it out (scoring/flow_rules.py).

The board (mighty_ledger.reads.next_state) reads the hand before a throw-in only where
``needs_the_hand_before`` says the coming hand depends on it; the phone (static/js/pending.js)
always carries both into the next step. The two agree only if carrying them changes nothing
wherever the engine says they are not needed: checked here for every preset.
"""

from __future__ import annotations

from dataclasses import replace

from scoring.flow import PreviousHand, needs_the_hand_before, next_hand
from scoring.presets import all_presets
from tests.offenders import offenders


def _previous_hands(seats):
    first, second, last = seats[0], seats[1], seats[-1]
    partners = (last,) if len(seats) > 2 else ()
    return [
        PreviousHand("scored", first, second, partners, True),
        PreviousHand("scored", first, second, partners, False),
        PreviousHand("void", second, last),
        PreviousHand("void", second),
        PreviousHand("all_pass", second),
        PreviousHand("deal_miss", second, demander=first),
    ]


def test_what_a_hand_was_dealt_with_matters_only_where_the_engine_says():
    def check(preset):
        system = preset.system()
        seats = tuple(f"S{i}" for i in range(system.players))
        out = system.players - system.active_players
        # who opened and who sat out the hand before, as another hand might have decided them
        carried = [(seats[-1], seats[1 : 1 + out]), (seats[0], seats[-out:] if out else ())]
        for previous in _previous_hands(seats):
            plain = next_hand(system, seats, previous)
            answers = {next_hand(system, seats, _with(previous, opener, sat_out)) for opener, sat_out in carried}
            if not needs_the_hand_before(system, previous):
                assert answers == {plain}, previous

    assert offenders(all_presets(), check, name=lambda preset: preset.slug) == {}


def test_pagat_an_all_pass_needs_who_opened_it():
    system = next(preset for preset in all_presets() if preset.slug == "pagat-standard").system()
    assert needs_the_hand_before(system, PreviousHand("all_pass", "A"))
    assert not needs_the_hand_before(system, PreviousHand("scored", "A", "B", ("C",), True))


def _with(previous: PreviousHand, opener: str, sat_out: tuple[str, ...]) -> PreviousHand:
    return replace(previous, first_bidder=opener, sitting_out=previous.sitting_out or sat_out)
