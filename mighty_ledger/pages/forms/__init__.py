"""Forms of the table app: they turn what a player tapped into HAND_JSON and back.

Forms only check shape (a number is a number, a seat is a seat). Whether a
hand is legal is the engine's call: its Problems are put beside the fields
they concern with ``add_problems``.

One module per kind of form: labels (cards, trumps, calls, problems to fields),
groups, sessions, hands, contracts and events.
"""

from mighty_ledger.pages.forms.contracts import ContractForm
from mighty_ledger.pages.forms.events import EventForm
from mighty_ledger.pages.forms.groups import GroupCreateForm, PlayerAddForm
from mighty_ledger.pages.forms.hands import CardChoice, HandForm
from mighty_ledger.pages.forms.labels import (
    CALL_LABELS,
    CALL_ROLES,
    TRUMP_CHOICES,
    add_problems,
    card_label,
    engine_words,
    set_aside_missing,
    trump_label,
)
from mighty_ledger.pages.forms.sessions import SessionStartForm
from mighty_ledger.pages.forms.stakes import SessionStakesForm

__all__ = [
    "CALL_LABELS", "CALL_ROLES", "TRUMP_CHOICES", "CardChoice", "ContractForm", "EventForm", "GroupCreateForm", "HandForm",
    "PlayerAddForm", "SessionStakesForm", "SessionStartForm", "add_problems", "card_label", "engine_words", "set_aside_missing",
    "trump_label",
]
