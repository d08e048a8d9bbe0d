import datetime
from decimal import Decimal

import pytest

from mighty_ledger import services
from mighty_ledger.models import Hand, Session
from mighty_ledger.services.seasons import season_create
from tests.factories import MADE_15_DIAMONDS, GroupFactory, HandFactory, SessionFactory

# pagat example 2 style: the same contract, defenders keep the declarer under it
FAILED_15_DIAMONDS = {**MADE_15_DIAMONDS, "points": 12}


@pytest.fixture
def played_group(db):
    """Two evenings: scored hands, a deal miss, an amended hand, a deleted hand, a deleted session,
    payments (one undone), a hand in progress played and one being played, a season."""
    group = GroupFactory(name="목요일 테이블")
    evening = SessionFactory(group=group, title="first evening")
    HandFactory(session=evening)
    services.hand_record(session=evening, kind=Hand.DEAL_MISS, entry={"dealer": "Ann", "shown_by": "Bo"})
    to_amend = HandFactory(session=evening)
    services.hand_amend(hand=to_amend, entry=FAILED_15_DIAMONDS, version=to_amend.version)
    to_delete = HandFactory(session=evening, entry=FAILED_15_DIAMONDS)
    services.hand_delete(hand=to_delete)
    HandFactory(session=evening)

    second = SessionFactory(group=group, title="second evening", stake_per_point="0.50", currency="EUR")
    HandFactory(session=second, entry=FAILED_15_DIAMONDS)
    # settling up: one payment stands, one was undone; the next hand was bid and played, and
    # another is being played as the file is written
    services.payment_record(session=fresh(second), payer="Ann", payee="Bo", amount=Decimal("1.50"),
                            idempotency_key="phone-1-payment-1")
    mistaken, _ = services.payment_record(session=fresh(second), payer="Ann", payee="Di", amount=Decimal("1.50"),
                                            overpay=True)
    services.payment_undo(payment=mistaken)
    bid = {key: MADE_15_DIAMONDS[key] for key in services.CONTRACT_FIELDS if key in MADE_15_DIAMONDS}
    played, _ = services.contract_open(session=fresh(second), entry=bid, idempotency_key="phone-2-bid-1")
    services.contract_complete(contract=played, result={"partners": ["Cy"], "points": 16})
    services.contract_open(session=fresh(second), entry=bid)
    season_create(group=group, name="가을", starts=datetime.date(2026, 9, 1))
    gone = SessionFactory(group=group, title="started by mistake")
    HandFactory(session=gone)
    services.session_delete(session=gone)
    return group


def fresh(session: Session) -> Session:
    """The session as stored now: each write moves its revision on."""
    return Session.objects.get(pk=session.pk)
