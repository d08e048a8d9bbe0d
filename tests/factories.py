"""factory-boy factories for the ledger's models.

Sessions and hands are written through the services, as the app writes them,
so their frozen system, running totals and revisions are always consistent.
"""

from __future__ import annotations

import dataclasses

import factory
from factory.django import DjangoModelFactory

from mighty_ledger import services
from mighty_ledger.models import Group, Hand, Player, Session
from scoring.ledger import LedgerEntry, replay
from scoring.settle import Stakes

SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]

# pagat example 1 (RULES.md §9.1): 15 ♦ made with 16, partner called
MADE_15_DIAMONDS = {
    "dealer": "Ed",
    "declarer": "Ann",
    "contract": {"points": 15, "trump": "D"},
    "partner_call": {"type": "card", "cards": ["AS"]},
    "partners": ["Cy"],
    "points": 16,
}


class GroupFactory(DjangoModelFactory):
    class Meta:
        model = Group

    name = factory.Sequence(lambda n: f"Thursday table {n}")


class PlayerFactory(DjangoModelFactory):
    class Meta:
        model = Player

    group = factory.SubFactory(GroupFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class SessionFactory(DjangoModelFactory):
    """A session seated through ``services.session_start``; missing players are added. Its stakes
    are given as the session's columns (``stake_per_point=100, currency="KRW"``)."""

    class Meta:
        model = Session

    group = factory.SubFactory(GroupFactory)
    seats = factory.LazyFunction(lambda: list(SEATS))
    preset = "pagat-standard"

    @classmethod
    def _create(cls, model_class, *, group, seats, preset, **kwargs):
        known = set(group.players.values_list("name", flat=True))
        for name in seats:
            if name not in known:
                services.player_add(group=group, name=name)
        stakes = Stakes(**{name: kwargs.pop(name) for name in (field.name for field in dataclasses.fields(Stakes)) if name in kwargs})
        return services.session_start(group=group, seats=seats, preset=preset, stakes=stakes, **kwargs)


class HandFactory(DjangoModelFactory):
    """A hand recorded through ``services.hand_record`` as the session's next number."""

    class Meta:
        model = Hand

    session = factory.SubFactory(SessionFactory)
    entry = factory.LazyFunction(lambda: dict(MADE_15_DIAMONDS))
    kind = Hand.SCORED

    @classmethod
    def _create(cls, model_class, *, session, entry, kind, **kwargs):
        hand, _ = services.hand_record(session=session, entry=entry, kind=kind, **kwargs)
        return hand


def bulk_hands(session: Session, count: int, entry: dict | None = None) -> list[Hand]:
    """Append ``count`` copies of one scored hand in a few queries (for query-count tests).

    The hand is scored once by the engine; running totals come from the same
    ledger replay the services use, so the rows look exactly like recorded ones.
    """
    session.refresh_from_db()
    entry = dict(entry or MADE_15_DIAMONDS)
    scored = services.scored_hand(session, entry)
    ledger_entry = LedgerEntry("scored", scored.result["payments"], tuple(scored.sides["winners"]))
    steps = replay(session.seats, [ledger_entry] * count, totals=session.totals, pot=session.pot)
    first = session.hand_count + 1
    hands = Hand.objects.bulk_create(
        Hand(
            session=session, number=first + i, kind=Hand.SCORED, entry=scored.entry, result=scored.result,
            explanation=scored.explanation, sides=scored.sides,
            payments=step.payments, running_totals=step.totals, pot_after=step.pot,
        )
        for i, step in enumerate(steps)
    )
    session.hand_count += count
    session.totals, session.pot = steps[-1].totals, steps[-1].pot
    session.save(update_fields=["hand_count", "totals", "pot"])
    return hands
