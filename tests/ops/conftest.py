import pytest

from mighty_ledger import services
from mighty_ledger.models import Hand
from tests.factories import MADE_15_DIAMONDS, GroupFactory, HandFactory, SessionFactory

# pagat example 2 style: the same contract, defenders keep the declarer under it
FAILED_15_DIAMONDS = {**MADE_15_DIAMONDS, "points": 12}


@pytest.fixture
def played_group(db):
    """Two evenings: scored hands, a deal miss, an amended hand, a deleted hand, a deleted session."""
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
    gone = SessionFactory(group=group, title="started by mistake")
    HandFactory(session=gone)
    services.session_delete(session=gone)
    return group
