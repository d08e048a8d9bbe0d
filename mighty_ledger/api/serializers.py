"""Shapes shared by several endpoints: HAND_JSON (docs/HAND_JSON.md) and the ledger's records.

The HAND_JSON request serializers document the contract for the schema; the
engine (``scoring.interface``) is what validates a hand, so its problems, with
their stable codes, are what a client sees. Each view's own input and output
serializers are nested in the view.
"""

from __future__ import annotations

import dataclasses

from rest_framework import serializers

from mighty_ledger import reads
from mighty_ledger.models import Hand, Revision, Session
from scoring.hand import CONTRACT_FIELDS, RESULT_FIELDS
from scoring.settle import Stakes

TRUMPS = ["S", "H", "D", "C", "NT"]


def _with_keyword_field(name: str, field_factory):
    """Add a field whose name is a Python keyword ("from", "pass") to a serializer class."""

    def decorate(cls):
        get_fields = cls.get_fields

        def with_keyword(self):
            fields = get_fields(self)
            fields[name] = field_factory()
            return fields

        cls.get_fields = with_keyword
        return cls

    return decorate


# --- errors -------------------------------------------------------------------------


class ProblemSerializer(serializers.Serializer):
    field = serializers.CharField(allow_blank=True, help_text="The field concerned, as a path: 'contract.points', 'seats[2]'; empty for the whole request.")
    code = serializers.CharField(help_text="A stable code, such as 'below_minimum'.")
    message = serializers.CharField(help_text="What is wrong, in words a person at the table understands.")


class ErrorsSerializer(serializers.Serializer):
    errors = ProblemSerializer(many=True)


# --- HAND_JSON: a hand --------------------------------------------------------------


class BidSerializer(serializers.Serializer):
    points = serializers.IntegerField()
    trump = serializers.ChoiceField(choices=TRUMPS)


class PartnerCallSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["card", "first_trick", "none", "player"])
    cards = serializers.ListField(child=serializers.CharField(), required=False, help_text="One card code (two in a double deck) for a card call; a single \"card\" is read the same.")
    seat = serializers.CharField(required=False, help_text="The seat called, for a player call (\"player\" is read the same).")


class HandEntrySerializer(serializers.Serializer):
    """The fields of a hand that the table enters (HAND_JSON, without the system and seats)."""

    sitting_out = serializers.ListField(child=serializers.CharField(), required=False)
    dealer = serializers.CharField(required=False)
    declarer = serializers.CharField()
    bid = BidSerializer(required=False, help_text="The last bid before the kitty; defaults to the contract.")
    changed_before_kitty = serializers.BooleanField(required=False, help_text="The trump was changed before taking the kitty (systems with that discount).")
    contract = BidSerializer()
    partner_call = PartnerCallSerializer()
    partners = serializers.ListField(child=serializers.CharField(), required=False)
    discards = serializers.ListField(child=serializers.CharField(), required=False)
    points = serializers.IntegerField(required=False, help_text="Point cards won by the declarer's team.")
    defender_points = serializers.IntegerField(required=False, help_text="Instead of points: point cards won by the defenders.")
    outcome = serializers.ChoiceField(choices=["played", "conceded", "void"], required=False)
    conceded_by = serializers.ChoiceField(choices=["declarer_team", "defenders"], required=False)
    instructions = serializers.IntegerField(required=False, min_value=0, help_text="How many times the declarer told the partner to take a trick (systems that double for it).")
    lead_suit = serializers.ChoiceField(choices=["S", "H", "D", "C"], required=False, help_text="The suit the declarer asked the partner to lead (systems with that call).")
    joker_holder = serializers.CharField(required=False, allow_null=True, help_text="The seat that held the Joker (null: nobody); where its holder deals next (pagat-3p).")


class _PartOfAHand(serializers.Serializer):
    """The fields of HandEntry that ``part`` names, as HandEntry declares them, before the
    serializer's own: a hand in progress is opened and completed with the very fields a hand is
    recorded with."""

    part: tuple[str, ...] = ()

    def get_fields(self):
        entry = HandEntrySerializer().get_fields()
        return {**{name: entry[name] for name in self.part}, **super().get_fields()}


class HandContractSerializer(_PartOfAHand):
    """What is known when the auction ends (scoring.hand.CONTRACT_FIELDS)."""

    part = CONTRACT_FIELDS


class HandResultSerializer(_PartOfAHand):
    """What only the last trick tells (scoring.hand.RESULT_FIELDS)."""

    part = RESULT_FIELDS


class HandRequestSerializer(HandEntrySerializer):
    """A HAND_JSON hand to score or check."""

    system = serializers.CharField(required=False, help_text="A preset slug; pagat-standard when left out.")
    options = serializers.DictField(required=False, help_text="Overrides of the preset's options (the Options shape).")
    seats = serializers.ListField(child=serializers.CharField(), help_text="2–8 distinct names, clockwise.")
    auction = serializers.ListField(child=serializers.DictField(), required=False, help_text="The auction that led to the contract, as for /auction/check; checked against the contract.")


@_with_keyword_field("from", serializers.CharField)
class TransferSerializer(serializers.Serializer):
    to = serializers.CharField()
    amount = serializers.IntegerField()


@_with_keyword_field("from", serializers.CharField)
class MoneyTransferSerializer(serializers.Serializer):
    to = serializers.CharField()
    amount = serializers.CharField(help_text="Exact decimal amount, as a string.")


class ScoreResultSerializer(serializers.Serializer):
    made = serializers.BooleanField(allow_null=True, help_text="null for a void hand.")
    base = serializers.IntegerField()
    multiplier = serializers.IntegerField()
    doubles = serializers.ListField(child=serializers.CharField())
    score = serializers.IntegerField()
    payments = serializers.DictField(child=serializers.IntegerField(), help_text="Every seat, 0 for a seat that sat out; sums to 0.")
    transfers = TransferSerializer(many=True)
    explanation = serializers.ListField(child=serializers.CharField())
    warnings = serializers.ListField(child=serializers.CharField())
    outcome = serializers.CharField(required=False)
    points = serializers.IntegerField(required=False, allow_null=True)


class CheckResultSerializer(serializers.Serializer):
    legal = serializers.BooleanField()
    errors = ProblemSerializer(many=True)


# --- HAND_JSON: the auction and the deal-miss check -------------------------------------


@_with_keyword_field("pass", lambda: serializers.BooleanField(required=False))
class CallSerializer(serializers.Serializer):
    seat = serializers.CharField()
    bid = BidSerializer(required=False, allow_null=True)


class AuctionRequestSerializer(serializers.Serializer):
    system = serializers.CharField(required=False)
    options = serializers.DictField(required=False)
    seats = serializers.ListField(child=serializers.CharField())
    dealer = serializers.CharField()
    first_bidder = serializers.CharField(required=False)
    sitting_out = serializers.ListField(child=serializers.CharField(), required=False)
    auction = CallSerializer(many=True, help_text="The calls in order: {\"seat\", \"bid\"} or {\"seat\", \"pass\": true}.")


class AuctionResultSerializer(serializers.Serializer):
    legal = serializers.BooleanField()
    errors = ProblemSerializer(many=True)
    first_illegal = serializers.IntegerField(allow_null=True)
    declarer = serializers.CharField(allow_null=True)
    bid = BidSerializer(allow_null=True)
    finished = serializers.BooleanField()
    thrown_in = serializers.BooleanField()
    high_bidder = serializers.CharField(allow_null=True, required=False)
    high_bid = BidSerializer(allow_null=True, required=False)
    next_seat = serializers.CharField(allow_null=True, required=False)
    round = serializers.IntegerField(required=False)


class RedealRequestSerializer(serializers.Serializer):
    system = serializers.CharField(required=False)
    options = serializers.DictField(required=False)
    players = serializers.IntegerField(required=False)
    hand = serializers.ListField(child=serializers.CharField(), help_text="The card codes of the hand shown.")
    bidding_started = serializers.BooleanField(required=False, help_text="Someone has already bid or passed.")
    highest_bid = serializers.IntegerField(required=False, allow_null=True, help_text="The highest bid so far (its points).")
    bid_after_demand = serializers.IntegerField(required=False, allow_null=True, help_text="A bid made after the demand, to stop it.")
    demands = serializers.BooleanField(required=False, help_text="False when the player keeps a hand that qualifies.")


class CriterionVerdictSerializer(serializers.Serializer):
    id = serializers.CharField()
    qualifies = serializers.BooleanField()
    value = serializers.CharField(help_text="Exact, such as '1/2' or '-1'.")
    reason = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField(), required=False)


class RedealDecisionSerializer(serializers.Serializer):
    rule = serializers.CharField(help_text="'criteria', or the deal-miss option that decided.")
    reason = serializers.CharField()


class RedealResultSerializer(serializers.Serializer):
    qualifies = serializers.BooleanField()
    redeal = serializers.BooleanField(help_text="Whether the cards are redealt at this moment of the bidding.")
    decided_by = RedealDecisionSerializer()
    criteria = CriterionVerdictSerializer(many=True)
    probability = serializers.FloatField()
    probability_exact = serializers.CharField(required=False)
    system = serializers.CharField(required=False)
    players = serializers.IntegerField(required=False)
    hand_size = serializers.IntegerField(required=False)
    hand = serializers.ListField(child=serializers.CharField(), required=False)


class PreviousHandSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["scored", "void", "deal_miss", "all_pass"], required=False)
    dealer = serializers.CharField()
    declarer = serializers.CharField(required=False)
    partners = serializers.ListField(child=serializers.CharField(), required=False)
    made = serializers.BooleanField(required=False)
    demander = serializers.CharField(required=False, help_text="Deal miss: who showed the hand.")
    sitting_out = serializers.ListField(child=serializers.CharField(), required=False)
    joker_holder = serializers.CharField(
        required=False, allow_null=True,
        help_text="Who held the Joker (null: nobody); required where its holder deals next (pagat-3p).",
    )


class NextHandRequestSerializer(serializers.Serializer):
    system = serializers.CharField(required=False)
    options = serializers.DictField(required=False)
    seats = serializers.ListField(child=serializers.CharField(), help_text="The players, clockwise.")
    first_dealer = serializers.CharField(required=False, help_text="Who deals the first hand.")
    previous = PreviousHandSerializer(
        required=False, allow_null=True,
        help_text="The hand before: null for the first, an event, a summary, or the HAND_JSON hand itself.",
    )


class NextHandSerializer(serializers.Serializer):
    dealer = serializers.CharField()
    first_bidder = serializers.CharField()
    sitting_out = serializers.ListField(child=serializers.CharField())
    active = serializers.ListField(child=serializers.CharField())


# --- the ledger's records -----------------------------------------------------------------


class HandOutputSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=[Hand.SCORED, Hand.DEAL_MISS, Hand.ALL_PASS])
    entry = serializers.DictField(help_text="The hand as entered (HAND_JSON without system and seats), or the event's dealer, shown_by and fine.")
    result = ScoreResultSerializer(allow_null=True, help_text="The engine's result; null for a deal miss or all-pass.")
    payments = serializers.DictField(child=serializers.IntegerField(), help_text="What this hand changed, deal-miss pot included.")
    running_totals = serializers.DictField(child=serializers.IntegerField())
    pot_after = serializers.IntegerField()
    version = serializers.IntegerField(help_text="Send it back when updating this hand.")
    deleted = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


def _timestamp(moment) -> str:
    # as DRF's DateTimeField writes it, so the documented HandOutputSerializer shape holds
    text = moment.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def hand_json(hand: Hand) -> dict:
    """A hand in the HandOutputSerializer shape, built directly: it is on every write's hot path."""
    return {
        "number": hand.number, "kind": hand.kind, "entry": hand.entry, "result": hand.result,
        "payments": hand.payments, "running_totals": hand.running_totals, "pot_after": hand.pot_after,
        "version": hand.version, "deleted": hand.deleted_at is not None,
        "created_at": _timestamp(hand.created_at), "updated_at": _timestamp(hand.updated_at),
    }


def played_for_fields() -> tuple[serializers.Field, ...]:
    """What a session or a club night is played for, as the API shows it: stake_per_point, currency,
    rounding_unit, chips_start and chips_per_point, in that order. Fields made here, rather than a
    base serializer, keep their place among the fields of the serializer that names them (a base
    serializer's fields would come first in its JSON)."""
    return (
        serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True),
        serializers.CharField(allow_blank=True),
        serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True),
        serializers.IntegerField(allow_null=True),
        serializers.IntegerField(allow_null=True),
    )


def stakes_taken(values: dict) -> Stakes:
    """The stakes a session's or a night's input sends (named as played_for_fields names them),
    taken out of ``values``; those not sent are Stakes' own defaults (points alone)."""
    return Stakes(**{field.name: values.pop(field.name)
                     for field in dataclasses.fields(Stakes) if field.name in values})


class SessionOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField(allow_blank=True)
    played_on = serializers.DateField()
    seats = serializers.ListField(child=serializers.CharField())
    preset = serializers.CharField()
    overrides = serializers.DictField()
    system_options = serializers.DictField(help_text="Every option of the system, frozen when the session started.")
    first_dealer = serializers.CharField()
    stake_per_point, currency, rounding_unit, chips_start, chips_per_point = played_for_fields()
    totals = serializers.DictField(child=serializers.IntegerField())
    pot = serializers.IntegerField()
    hand_count = serializers.IntegerField(help_text="Hands and events numbered so far, deleted ones included.")
    next = NextHandSerializer(required=False, help_text=(
        "Who deals, bids first and sits out on the coming hand, as the scoreboard shows; "
        "in one session's answers, not in lists."))
    deleted = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    revision = serializers.IntegerField(help_text=(
        "Moves on with every change to the session (a hand, an edit, the hand in progress): "
        "compare it with the `revision` of the live events to know whether to read again."))
    web_url = serializers.URLField(help_text="The session's scoreboard in a browser, through the link used.")


def session_json(session: Session, *, coming: bool = True, web_url: str = "") -> dict:
    """A session as the API shows it; ``coming=False`` leaves out the next hand (a query each) in lists."""
    fields = SessionOutputSerializer().fields
    values = {name: getattr(session, name) for name in fields if name not in ("deleted", "next", "web_url")}
    values["deleted"] = session.deleted_at is not None
    values["web_url"] = web_url
    if coming:
        state = reads.next_state(session)
        values["next"] = {"dealer": state.dealer, "first_bidder": state.first_bidder,
                          "sitting_out": list(state.sitting_out), "active": list(state.active)}
    return SessionOutputSerializer(values).data


class RevisionOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    subject = serializers.CharField()
    action = serializers.CharField()
    session = serializers.IntegerField(allow_null=True, source="session_id")
    hand = serializers.IntegerField(allow_null=True, help_text="The hand's number in its session.")
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    by = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()


def revision_json(revision: Revision) -> dict:
    return RevisionOutputSerializer({
        "id": revision.id, "subject": revision.subject, "action": revision.action,
        "session_id": revision.session_id, "hand": revision.hand.number if revision.hand_id else None,
        "before": revision.before, "after": revision.after, "by": revision.by,
        "created_at": revision.created_at,
    }).data


class StaleVersionSerializer(serializers.Serializer):
    errors = ProblemSerializer(many=True)
    hand = HandOutputSerializer(help_text="The hand as it is now, with its current version.")
