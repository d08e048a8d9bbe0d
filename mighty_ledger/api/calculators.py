"""The stateless calculators: HAND_JSON in, HAND_JSON out, no link needed.

Each answers exactly what ``python -m scoring`` answers for the same request:
the engine (``scoring.interface``) reads and checks every request, so its
problems, with their stable codes, are what a client sees. The serializers here
document those shapes for the schema. An exception other than InvalidInput is
a bug in the engine and surfaces as a 500, to be fixed there.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from mighty_ledger.api.base import PUBLIC_ERRORS, READ_ERRORS, PublicView
from mighty_ledger.api.exceptions import shortened_errors
from mighty_ledger.api.serializers import (
    AuctionRequestSerializer,
    AuctionResultSerializer,
    CheckResultSerializer,
    HandRequestSerializer,
    NextHandRequestSerializer,
    NextHandSerializer,
    RedealRequestSerializer,
    RedealResultSerializer,
    ScoreResultSerializer,
)
from scoring.interface import (
    auction_request,
    check_request,
    next_request,
    redeal_request,
    score_request,
    system_json,
    systems_response,
)
from scoring.problems import InvalidInput


class ScoreView(PublicView):
    @extend_schema(
        operation_id="score_hand", tags=["calculators"], request=HandRequestSerializer,
        responses={200: ScoreResultSerializer, **PUBLIC_ERRORS},
        summary="Score a hand (HAND_JSON hand → result)",
    )
    def post(self, request):
        return Response(score_request(request.data))


class CheckView(PublicView):
    @extend_schema(
        operation_id="check_hand", tags=["calculators"], request=HandRequestSerializer,
        responses={200: CheckResultSerializer, **PUBLIC_ERRORS},
        summary="Check a hand against every legality rule (200 whether legal or not)",
        description="An illegal or malformed hand is 200 with legal false; only a body that is not JSON is 400.",
    )
    def post(self, request):
        return Response(shortened_errors(check_request(request.data)))


class AuctionCheckView(PublicView):
    @extend_schema(
        operation_id="check_auction", tags=["calculators"], request=AuctionRequestSerializer,
        responses={200: AuctionResultSerializer, **PUBLIC_ERRORS},
        summary="Walk an auction and find the first illegal call, the winner and the winning bid",
    )
    def post(self, request):
        return Response(shortened_errors(auction_request(request.data)))


class RedealView(PublicView):
    @extend_schema(
        operation_id="check_redeal", tags=["calculators"], request=RedealRequestSerializer,
        responses={200: RedealResultSerializer, **PUBLIC_ERRORS},
        summary="Does a hand qualify for a deal miss (redeal), and how likely is one",
    )
    def post(self, request):
        return Response(redeal_request(request.data))


class NextHandView(PublicView):
    @extend_schema(
        operation_id="next_hand", tags=["calculators"], request=NextHandRequestSerializer,
        responses={200: NextHandSerializer, **PUBLIC_ERRORS},
        summary="Who deals, who bids first and who sits out on the coming hand",
    )
    def post(self, request):
        return Response(next_request(request.data))


# --- systems ---------------------------------------------------------------------------


class RuleSectionSerializer(serializers.Serializer):
    title = serializers.CharField(allow_blank=True)
    lines = serializers.ListField(child=serializers.CharField())


class DealMissCriterionSerializer(serializers.Serializer):
    id = serializers.CharField()
    rule = serializers.CharField(help_text="What the criterion asks, in words.")
    probability = serializers.FloatField(allow_null=True, help_text="Chance that a random deal meets it.")
    probability_exact = serializers.CharField(allow_null=True)


class DealMissSerializer(serializers.Serializer):
    criteria = DealMissCriterionSerializer(many=True)
    threshold = serializers.CharField()
    fine = serializers.IntegerField()
    probability = serializers.FloatField(allow_null=True, help_text="Chance that a random deal qualifies under any criterion.")
    probability_exact = serializers.CharField(allow_null=True)


class FlowMomentsSerializer(serializers.Serializer):
    """The seat names to try at each moment (scoring.flow_rules.SEAT_NAMES)."""

    first_hand = serializers.ListField(child=serializers.CharField(), help_text="Before the session's first hand.")
    after_hand = serializers.ListField(child=serializers.CharField(), help_text="After a hand whose declarer is known.")
    after_deal_miss = serializers.ListField(child=serializers.CharField())
    after_all_pass = serializers.ListField(
        child=serializers.CharField(), help_text="After all passed, or a void hand whose declarer is unknown.")


class FlowSittingOutSerializer(FlowMomentsSerializer):
    count = serializers.IntegerField(help_text="How many sit out each hand.")


class FlowRuleSerializer(serializers.Serializer):
    players = serializers.IntegerField()
    dealer = FlowMomentsSerializer(help_text="The first seat named deals.")
    first_bidder = FlowMomentsSerializer(
        help_text="The first seat named opens the bidding, or the next seat clockwise that is playing.")
    sitting_out = FlowSittingOutSerializer(
        allow_null=True,
        help_text="Every seat named sits out, then the seats clockwise after the dealer up to count; "
                  "null when nobody is known to sit out before the deal.")


class SystemOutputSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    source = serializers.CharField(allow_blank=True)
    options = serializers.DictField(help_text="Every option, in the HAND_JSON Options shape.")
    rules_in_words = RuleSectionSerializer(many=True, help_text="The system described in words, section by section.")
    deal_miss = DealMissSerializer()
    flow = FlowRuleSerializer(help_text="Who deals, bids first and sits out, as data (scoring.flow_rules); "
                                        "static/js/flow.js steps it on the phone.")


# the answers themselves come from scoring.interface, the one function that
# ``python -m scoring systems`` prints too; the serializers above document their shape


class SystemListView(PublicView):
    @extend_schema(
        operation_id="list_systems", tags=["calculators"],
        responses={200: SystemOutputSerializer(many=True), **READ_ERRORS},
        summary="Every preset scoring system: its options, its rules in words, its deal-miss criteria, its table flow",
    )
    def get(self, request):
        return Response(systems_response())


class SystemDetailView(PublicView):
    @extend_schema(
        operation_id="get_system", tags=["calculators"],
        responses={200: SystemOutputSerializer, **READ_ERRORS},
        summary="One preset scoring system",
    )
    def get(self, request, slug: str):
        try:
            return Response(system_json(slug))
        except InvalidInput as error:
            return Response(shortened_errors(error.as_json()), status=status.HTTP_404_NOT_FOUND)
