"""Playing a club night's tables in tests: hands recorded through the services, as a phone at the
table would, with whoever deals and sits out next as the session says."""

from __future__ import annotations

import random
from decimal import Decimal

from mighty_ledger import reads, services
from mighty_ledger.models import Hand, Session
from mighty_ledger.reads import nights
from mighty_ledger.services import nights as night_services

TRUMPS = ["S", "H", "D", "C", "NT"]


def play(session: Session, rng: random.Random, *, deal_misses: bool = True) -> Hand:
    """One hand at the table: usually a contract won or lost, now and then a deal miss (a fine)."""
    state = reads.next_state(session)
    active = list(state.active)
    if deal_misses and rng.random() < 0.1:
        hand, _ = services.hand_record(session=session, kind=Hand.DEAL_MISS,
                                       entry={"dealer": state.dealer, "shown_by": rng.choice(active), "fine": 2})
        return hand
    declarer = rng.choice(active)
    partner = rng.choice([seat for seat in active if seat != declarer])
    alone = rng.random() < 0.15
    entry = {
        "dealer": state.dealer, "sitting_out": list(state.sitting_out), "declarer": declarer,
        "contract": {"points": rng.randint(13, 17), "trump": rng.choice(TRUMPS)},
        "partner_call": {"type": "none"} if alone else {"type": "card", "cards": ["AS"]},
        "partners": [] if alone else [partner], "points": rng.randint(5, 20),
    }
    hand, _ = services.hand_record(session=session, entry=entry)
    return hand


def finish_round(night, rng: random.Random) -> None:
    """Every table of the latest round plays until it has its hands."""
    progress = nights.current_progress(night)
    for table in progress.tables:
        session = table.table.session
        while nights.scored_counts([session]).get(session.pk, 0) < table.target:
            play(session, rng)
            session.refresh_from_db()


def play_some(night, rng: random.Random, hands: int) -> None:
    """A few hands at each table of the latest round, fewer than a round's."""
    for table in nights.current_progress(night).tables:
        session = table.table.session
        for _ in range(hands):
            play(session, rng)
            session.refresh_from_db()


def second_round_under_way(night, rng: random.Random, hands: int) -> None:
    """The first round drawn and played to its end, the second drawn and ``hands`` played at each of its tables."""
    night_services.night_round_draw(night=night)
    finish_round(night, rng)
    night_services.night_round_draw(night=night)
    play_some(night, rng, hands)


def pay_at_the_first_table(night) -> None:
    """The first transfer of the first table's settlement that can be marked, marked as paid at that table."""
    table = nights.night_settlement(night).tables[0]
    transfer = next(t for t in table.outstanding.transfers if table.outstanding.markable(t))
    services.payment_record(session=table.table.session, payer=transfer.frm, payee=transfer.to,
                            amount=Decimal(transfer.amount))
