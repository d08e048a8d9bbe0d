"""The payments card after the hands changed under payments already marked.

Bo paid Ann what he owed her, then the table found a hand wrong and deleted it: now Ann is
owed less, and Bo is owed money himself. The card still told the others to pay Ann her whole
share as if Bo had paid nothing, matching payments to transfers by who paid whom, while the
server (and the group page) knew Ann was owed less: tapping "Mark as paid" on the card's own
row was answered "only … is owed in this session. Record it anyway?".
"""

from decimal import Decimal

import pytest

from mighty_ledger import services
from mighty_ledger.reads.balance import payment_room, session_outstanding
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

# Bo declares 15 ♦ with Di and makes it with 18: Bo +16, Di +8, the others −8 each
BO_MAKES = MADE_15_DIAMONDS | {"declarer": "Bo", "partners": ["Di"], "points": 18}


@pytest.fixture
def corrected(db):
    """Bo paid Ann the 5 he owed her; then Bo made a hand, and Ann's was found wrong and deleted."""
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    services.payment_record(session=session, payer="Bo", payee="Ann", amount=Decimal(5))
    HandFactory(session=session, entry=BO_MAKES)
    services.hand_delete(hand=session.hands.get(number=1))
    session.refresh_from_db()
    return session


def test_every_row_left_to_pay_is_what_the_server_takes(corrected):
    transfers = session_outstanding(corrected).transfers

    assert transfers, "someone is still owed something"
    for transfer in transfers:
        room = payment_room(corrected, payer=transfer.frm, payee=transfer.to)
        assert transfer.amount <= room.owed, (transfer, room)


def test_the_card_still_squares_every_balance(corrected):
    session = corrected

    left: dict[str, Decimal] = {}
    for transfer in session_outstanding(session).transfers:
        left[transfer.frm] = left.get(transfer.frm, 0) - transfer.amount
        left[transfer.to] = left.get(transfer.to, 0) + transfer.amount
    for payment in session.payments.standing():
        left[payment.payer] = left.get(payment.payer, 0) - payment.amount
        left[payment.payee] = left.get(payment.payee, 0) + payment.amount

    # what the card leaves to pay and what was paid together are the session's totals
    assert {seat: amount for seat, amount in left.items() if amount} == {
        seat: points for seat, points in session.totals.items() if points}
