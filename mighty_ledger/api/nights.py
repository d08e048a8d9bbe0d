"""A club night over the API: made, its rounds drawn, players come and gone, two swapped, and
read back as standings and one settlement.

A public contract (docs/api.md, "Club nights"): ``POST /api/v1/nights`` → ``{"id", "seed", …}``;
``POST …/rounds`` → ``{"number", "seed", "tables": [{"session", "seats"}], "sitting_out"}`` or 409
``round_in_progress``; ``POST`` and ``DELETE …/players``. Each table's hands go through
``POST /api/v1/sessions/{session}/hands``; the standings and the settlement are in
night_results.py; the night's own payments, one transfer for every table at once, are marked and
undone here, through the same service as a session's (services/payments.py). ``DELETE`` a night: its tables
stay, as sessions of the group. Views parse, call one service (services/nights.py) or read (reads/nights.py),
and serialise.
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response

from mighty_ledger import services
from mighty_ledger.api.base import (
    IDEMPOTENCY_KEY,
    PAGE_PARAMETERS,
    READ_ERRORS,
    WRITE_ERRORS,
    DayField,
    JsonBooleanField,
    LinkView,
    TextField,
    page_response,
    paginated,
    played_for_inputs,
    refuse_nul,
    web_url,
)
from mighty_ledger.api.exceptions import errors_body, problem
from mighty_ledger.api.idempotency import Made, create_once, once_responses
from mighty_ledger.api.serializers import ErrorsSerializer, played_for_fields, stakes_taken
from mighty_ledger.api.stats import PaymentSerializer, as_requested, beyond_owed, payment_json
from mighty_ledger.http.request_keys import night_payment_scope
from mighty_ledger.reads import balance, nights
from mighty_ledger.services import nights as night_services
from scoring.problems import InvalidInput

NIGHT_ID = OpenApiParameter("night_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The night's id.")
NUMBER_IN_NIGHT = OpenApiParameter("number", OpenApiTypes.INT, OpenApiParameter.PATH,
                                description="The round's number in its night, from 1.")


def _round_conflict(message: str, code: str) -> Response:
    return Response(errors_body(problem("", code, message)), status=status.HTTP_409_CONFLICT)


# --- the night ------------------------------------------------------------------------------


@extend_schema_serializer(component_name="NightTable")
class TableSerializer(serializers.Serializer):
    table = serializers.IntegerField(help_text="The table's number in its round, from 1.")
    session = serializers.IntegerField(help_text="The table's session: record its hands at POST /api/v1/sessions/{session}/hands.")
    seats = serializers.ListField(child=serializers.CharField(), help_text="The players, clockwise from seat 1.")
    hands = serializers.IntegerField(help_text="Scored hands played so far (a deal miss or all-pass is dealt again).")
    target = serializers.IntegerField(allow_null=True, help_text="The hands this table plays in the round; null in a timed round.")
    playing = serializers.BooleanField(help_text="A hand is being played (its contract is open).")
    finished = serializers.BooleanField()
    deleted = serializers.BooleanField(help_text="The table's session was deleted: it has nothing left to play.")
    web_url = serializers.URLField(help_text="The table's scoreboard in a browser, through the link used.")


@extend_schema_serializer(component_name="NightRound")
class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    seed = serializers.IntegerField(help_text="The night's seed: with the players present, the rounds before and (by standings) the standings, it gives this draw anywhere (scoring/draw.py).")
    tables = TableSerializer(many=True)
    sitting_out = serializers.ListField(child=serializers.CharField())
    drawn_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(allow_null=True, help_text="A timed round's end; null for a round of hands.")
    finished = serializers.BooleanField(help_text="Every table has finished: the next round can be drawn.")


@extend_schema_serializer(component_name="NightPlace")
class PlaceSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True, help_text="null: sitting this round out.")
    seat = serializers.IntegerField(allow_null=True, help_text="From 1, clockwise.")
    session = serializers.IntegerField(allow_null=True)


@extend_schema_serializer(component_name="Night")
class NightSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField(allow_blank=True)
    played_on = serializers.DateField()
    players = serializers.ListField(child=serializers.CharField(), help_text="The players present, drawn from the next round on.")
    preset = serializers.CharField()
    overrides = serializers.DictField()
    hands_per_round = serializers.IntegerField(allow_null=True)
    minutes_per_round = serializers.IntegerField(allow_null=True)
    standings = serializers.ChoiceField(choices=list(night_services.STANDINGS_OPTIONS))
    mixing = serializers.ChoiceField(choices=list(night_services.MIXING_OPTIONS))
    seed = serializers.IntegerField()
    stake_per_point, currency, rounding_unit, chips_start, chips_per_point = played_for_fields()
    revision = serializers.IntegerField(help_text="Moves on with every change to the night (a round drawn, a player come or gone, a swap).")
    created_at = serializers.DateTimeField()
    rounds = RoundSerializer(many=True, help_text="Every round drawn so far, oldest first.")
    places = serializers.DictField(child=PlaceSerializer(), help_text="Where each player of the latest round sits, by name.")


def round_json(view: LinkView, night: nights.Night, drawn: nights.RoundTables, progress: nights.RoundProgress) -> dict:
    return {
        "number": drawn.number, "seed": night.seed,
        "tables": [{"table": t.table.number, "session": t.table.session.pk, "seats": list(t.table.seats),
                    "hands": t.hands, "target": t.target, "playing": t.playing, "finished": t.finished,
                    "deleted": t.table.deleted, "web_url": web_url(view, t.table.session)}
                   for t in progress.tables],
        "sitting_out": list(drawn.sitting_out), "drawn_at": drawn.round.drawn_at, "ends_at": drawn.round.ends_at,
        "finished": progress.finished,
    }


def night_json(view: LinkView, night: nights.Night, *, rounds: bool = True) -> dict:
    """The night as the API shows it; ``rounds=False`` (lists) leaves its rounds and places empty."""
    values = {name: getattr(night, name) for name in NightSerializer().fields if name not in ("rounds", "places")}
    values["rounds"], values["places"] = [], {}
    if rounds:
        seen = nights.night_overview(night)
        values["rounds"] = [round_json(view, night, drawn, progress)
                            for drawn, progress in zip(seen.rounds, seen.progress, strict=True)]
        values["places"] = {name: {"round": place.round, "table": place.table, "seat": place.seat,
                                   "session": place.session_id} for name, place in seen.places.items()}
    return NightSerializer(values).data


class NightListView(LinkView):
    @extend_schema(operation_id="list_nights", tags=["nights"], parameters=PAGE_PARAMETERS,
                   responses={200: paginated(NightSerializer, "NightPage"), **READ_ERRORS},
                   summary="The group's club nights, newest first (their rounds in each night's own answer)")
    def get(self, request):
        return page_response(self, nights.group_nights(self.access.group),
                             lambda night: night_json(self, night, rounds=False))


class NightCreateView(LinkView):
    @extend_schema_serializer(component_name="NightCreateInput")
    class InputSerializer(serializers.Serializer):
        players = serializers.ListField(child=TextField(max_length=40), max_length=100, help_text=(
            "The players present; any not yet in the group are added to it."))
        preset = TextField(max_length=40, required=False, help_text="A preset slug (GET /api/v1/systems); pagat-standard when left out.")
        overrides = serializers.DictField(required=False, help_text="Options that differ from the preset's, as for a session.")
        hands_per_round = serializers.IntegerField(min_value=1, max_value=night_services.MOST_HANDS, required=False, allow_null=True, help_text=(
            "Hands each table plays in a round at the system's table size (a multiple of it, so that every seat deals "
            "as often where the deal goes round); a table of another size plays as many as give each seat as many "
            "hands. Left out with minutes_per_round: two deals per seat (10 at a table of five)."))
        minutes_per_round = serializers.IntegerField(min_value=1, max_value=night_services.MOST_MINUTES, required=False, allow_null=True, help_text=(
            "Instead of hands: a round ends when the time is up and each table has finished the hand in progress."))
        seed = serializers.IntegerField(min_value=0, max_value=night_services.SEED_LIMIT - 1, required=False, allow_null=True, help_text=(
            "The draw's seed; one is drawn when left out. The same seed, players and rounds give the same draw."))
        standings = serializers.ChoiceField(choices=list(night_services.STANDINGS_OPTIONS), required=False, help_text=(
            "How the night ranks: points (each player's total), per_hand (points over hands played) or placement "
            "(at each table one point per player finished above, half per player level)."))
        mixing = serializers.ChoiceField(choices=list(night_services.MIXING_OPTIONS), required=False, help_text=(
            "Rounds after the first: mix (those who met least share a table) or standings (the nearest standings together)."))
        title = TextField(max_length=80, required=False, allow_blank=True)
        played_on = DayField(required=False)
        stake_per_point, currency, rounding_unit, chips_start, chips_per_point = played_for_inputs()

    @extend_schema(operation_id="create_night", tags=["nights"], request=InputSerializer, parameters=[IDEMPOTENCY_KEY],
                   responses=once_responses(NightSerializer),
                   summary="Start a club night for the players present (its rounds are drawn one by one)")
    def post(self, request):
        group = self.access.group

        def make(key: str | None) -> Made:
            params = self.InputSerializer(data=request.data)
            params.is_valid(raise_exception=True)
            values = {name: value for name, value in params.validated_data.items() if value is not None}
            refuse_nul(values.get("overrides"), "overrides")
            preset = values.pop("preset", "pagat-standard")
            stakes = stakes_taken(values)
            night = night_services.night_create(group=group, preset=preset, stakes=stakes,
                                                by=self.access.actor("api"), **values)
            return Made(night_json(self, night))

        return create_once(request, scope=f"api:group:{group.pk}:nights", make=make)


class NightsView(NightListView, NightCreateView):
    """GET lists, POST starts a night."""


class NightDetailView(LinkView):
    @extend_schema(operation_id="get_night", tags=["nights"], parameters=[NIGHT_ID],
                   responses={200: NightSerializer, **READ_ERRORS},
                   summary="A night with its rounds, each table's progress and where everyone sits")
    def get(self, request, night_id: int):
        return Response(night_json(self, nights.group_night(self.access.group, night_id)))

    @extend_schema(operation_id="delete_night", tags=["nights"], parameters=[NIGHT_ID], request=None,
                   responses={204: None, **WRITE_ERRORS},
                   summary="Delete a night: its tables stay as sessions of the group, no longer linked to it",
                   description="Every table's session and its hands stay, as the group's history; the night's own "
                   "payments keep counting in the group's balance. A night already deleted is 404.")
    def delete(self, request, night_id: int):
        night_services.night_delete(night=nights.group_night(self.access.group, night_id), by=self.access.actor("api"))
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- rounds ---------------------------------------------------------------------------------

STILL_PLAYED = OpenApiResponse(ErrorsSerializer, description=(
    "round_in_progress: a table of the current round has not finished its hands (or its time, with the hand "
    "in progress); or request_in_progress: the request with this Idempotency-Key is still being processed."))
ALREADY_BEGUN = OpenApiResponse(ErrorsSerializer, description=(
    "round_started: a table concerned has begun playing, or the round named is not the latest; or "
    "request_in_progress: the request with this Idempotency-Key is still being processed."))


class NightRoundsView(LinkView):
    @extend_schema(operation_id="draw_night_round", tags=["nights"], parameters=[NIGHT_ID, IDEMPOTENCY_KEY],
                   request=None, responses=once_responses(RoundSerializer, conflict=STILL_PLAYED),
                   summary="Draw the next round and start a session at each of its tables",
                   description="Refused with 409 round_in_progress while a table of the current round has not "
                   "finished; 400 too_few_players when the players present cannot fill a table.")
    def post(self, request, night_id: int):
        night = nights.group_night(self.access.group, night_id)

        def make(key: str | None) -> Made:
            drawn = night_services.night_round_draw(night=night, by=self.access.actor("api"))
            seen = nights.night_rounds(night)[drawn.number - 1]
            return Made(round_json(self, night, seen, nights.round_progress(night, seen)))

        try:
            return create_once(request, scope=f"api:night:{night.pk}:rounds", make=make)
        except night_services.RoundInProgress as refused:
            return _round_conflict(refused.message, "round_in_progress")


class NightSwapView(LinkView):
    @extend_schema_serializer(component_name="NightSwapInput")
    class InputSerializer(serializers.Serializer):
        players = serializers.ListField(child=TextField(max_length=40), min_length=2, max_length=2, help_text=(
            "The two to swap: each takes the other's seat, or sits out in the other's place."))

    @extend_schema(operation_id="swap_night_players", tags=["nights"], parameters=[NIGHT_ID, NUMBER_IN_NIGHT, IDEMPOTENCY_KEY],
                   request=InputSerializer, responses=once_responses(RoundSerializer, conflict=ALREADY_BEGUN),
                   summary="Swap two players of the latest round before their tables begin")
    def post(self, request, night_id: int, number: int):
        night = nights.group_night(self.access.group, night_id)

        def make(key: str | None) -> Made:
            params = self.InputSerializer(data=request.data)
            params.is_valid(raise_exception=True)
            first, second = params.validated_data["players"]
            night_services.night_swap_players(night=night, first=first, second=second, round_number=number,
                                              by=self.access.actor("api"))
            seen = nights.night_rounds(night)[number - 1]
            return Made(round_json(self, night, seen, nights.round_progress(night, seen)))

        try:
            return create_once(request, scope=f"api:night:{night.pk}:swaps", make=make)
        except night_services.RoundStarted as refused:
            return _round_conflict(refused.message, "round_started")


# --- players --------------------------------------------------------------------------------


@extend_schema_serializer(component_name="NightPlayerInput")
class NightPlayerSerializer(serializers.Serializer):
    name = TextField(max_length=40)


NAME_PARAMETER = OpenApiParameter("name", OpenApiTypes.STR, description=(
    "The player who leaves (or send {\"name\"} as the JSON body)."))


class NightPlayersView(LinkView):
    @extend_schema(operation_id="add_night_player", tags=["nights"], parameters=[NIGHT_ID, IDEMPOTENCY_KEY],
                   request=NightPlayerSerializer, responses=once_responses(NightSerializer),
                   summary="A player arrives: drawn from the next round on (added to the group if new to it)")
    def post(self, request, night_id: int):
        night = nights.group_night(self.access.group, night_id)

        def make(key: str | None) -> Made:
            params = NightPlayerSerializer(data=request.data)
            params.is_valid(raise_exception=True)
            changed = night_services.night_player_add(night=night, name=params.validated_data["name"],
                                                      by=self.access.actor("api"))
            return Made(night_json(self, changed))

        return create_once(request, scope=f"api:night:{night.pk}:players", make=make)

    @extend_schema(operation_id="remove_night_player", tags=["nights"], parameters=[NIGHT_ID, NAME_PARAMETER],
                   responses={200: NightSerializer, **WRITE_ERRORS},
                   summary="A player leaves: no longer drawn from the next round on (their tables and standing stay)")
    def delete(self, request, night_id: int):
        night = nights.group_night(self.access.group, night_id)
        body = request.data if isinstance(request.data, dict) and request.data else None
        given = body if body is not None else {"name": request.query_params.get("name")}
        params = NightPlayerSerializer(data={key: value for key, value in given.items() if value is not None})
        params.is_valid(raise_exception=True)
        changed = night_services.night_player_remove(night=night, name=params.validated_data["name"],
                                                     by=self.access.actor("api"))
        return Response(night_json(self, changed))


# --- the night's own payments -------------------------------------------------------------------


NIGHT_PAYMENT_ID = OpenApiParameter("payment_id", OpenApiTypes.INT, OpenApiParameter.PATH,
                              description="The id of one of the night's own payments.")


def _figure(amount) -> str:
    # 1300, not 1300.00: the figure the settlement shows
    return format(amount.normalize(), "f")


class NightPaymentsView(LinkView):
    @extend_schema_serializer(component_name="NightPaymentInput")
    class InputSerializer(serializers.Serializer):
        to = serializers.CharField(max_length=40)
        amount = serializers.DecimalField(max_digits=12, decimal_places=2, help_text=(
            "What was paid, in the night's settle_in unit: whole chips or points, or a multiple of the "
            "night's rounding unit for money."))
        overpay = JsonBooleanField(required=False, default=False, help_text=(
            "Record it even though it is more than the payer still owes the payee over the night, or goes the "
            "wrong way round (refused with 400 overpayment or wrong_way otherwise)."))

        def get_fields(self):
            # "from" is a Python keyword: the field is added under its public name
            return {"from": serializers.CharField(max_length=40), **super().get_fields()}

    @extend_schema(operation_id="record_night_payment", tags=["nights"], parameters=[NIGHT_ID, IDEMPOTENCY_KEY],
                   request=InputSerializer, responses=once_responses(PaymentSerializer),
                   summary="Mark a transfer of the night's settlement as paid, for every table at once",
                   description="Checked against what is still owed over the whole night, net of the payments "
                   "marked at its tables and of the night's own: more than the payer still owes the payee, or "
                   "the wrong way round, is refused with 400 overpayment or wrong_way unless the body says "
                   "\"overpay\": true; a fraction of what the night counts in is 400 not_whole. The night's "
                   "settlement lists it among its payments, with \"night\" set.")
    def post(self, request, night_id: int):
        night = nights.group_night(self.access.group, night_id)

        def make(key: str | None) -> Made:
            body = self.InputSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            try:
                payment, created = services.payment_record(
                    night=night, payer=body.validated_data["from"], payee=body.validated_data["to"],
                    amount=body.validated_data["amount"], overpay=body.validated_data["overpay"],
                    idempotency_key=key, by=self.access.actor("api"),
                )
            except services.PaymentBeyondOwed as beyond:
                raise beyond_owed(beyond, "over the night", _figure) from None
            except InvalidInput as error:
                raise InvalidInput([as_requested(problem) for problem in error.problems]) from None
            return Made(payment_json(payment), replayed=not created)

        # a retried "paid" must not count twice
        return create_once(request, scope=night_payment_scope(night.pk), make=make)


class NightPaymentUndoView(LinkView):
    @extend_schema(operation_id="undo_night_payment", tags=["nights"], parameters=[NIGHT_ID, NIGHT_PAYMENT_ID],
                   request=None, responses={200: PaymentSerializer, **WRITE_ERRORS},
                   summary="Undo a payment of the night marked by mistake (kept in the history)",
                   description="Only the night's own payments: one marked at a table is undone at "
                   "DELETE /api/v1/sessions/{session}/payments/{payment_id}. Already undone: 400 already_undone.")
    def delete(self, request, night_id: int, payment_id: int):
        night = nights.group_night(self.access.group, night_id)
        payment = balance.payment_of(night, payment_id)
        if payment is None:
            raise Http404("No such payment in this night.")
        return Response(payment_json(services.payment_undo(payment=payment, by=self.access.actor("api"))))
