"""A club night: made, its rounds drawn, players come and gone, two players swapped, deleted.

Each function is one transaction with the night's row locked, so two organizers drawing at
the same moment draw one round. The draw is ``scoring.draw``'s, from the night's seed and the
round's number; each table of a round is a session started as any other
(``groups.session_start``), seated as drawn, so nothing changes at the table.
"""

from __future__ import annotations

import dataclasses
import secrets
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from mighty_ledger.live import session_changed
from mighty_ledger.models import Group, Night, NightRound, Revision, Session
from mighty_ledger.reads import nights, playing_now, stakes_of
from mighty_ledger.services.changes import SYSTEM, Actor, announce, invalid, locked, revise
from mighty_ledger.services.groups import (
    POINTS_ONLY,
    name_normalised,
    player_add,
    session_start,
    stake_columns,
)
from scoring import draw
from scoring.presets import get_preset
from scoring.problems import InvalidInput, Problem
from scoring.settle import Stakes

STANDINGS_OPTIONS = (Night.POINTS, Night.PER_HAND, Night.PLACEMENT)
MIXING_OPTIONS = (Night.MIX, Night.BY_STANDINGS)
# a seed anyone can read off the page and type again
SEEDS_SHOWN_BELOW = 1_000_000
SEED_LIMIT = 2**63  # a BigIntegerField
MOST_HANDS, MOST_MINUTES = 500, 24 * 60
# each seat deals twice in a round, where the deal passes clockwise
DEALS_PER_SEAT = 2


class RoundInProgress(Exception):
    """A table of the current round has not finished: the next round waits for it (the API's 409
    ``round_in_progress``)."""

    def __init__(self, progress: nights.RoundProgress):
        super().__init__(f"round {progress.number}: tables {progress.unfinished} have not finished")
        self.progress = progress

    @property
    def message(self) -> str:
        tables = ", ".join(map(str, self.progress.unfinished))
        return ngettext(
            "Round {round} is still being played: table {tables} has not finished its hands.",
            "Round {round} is still being played: tables {tables} have not finished their hands.",
            len(self.progress.unfinished),
        ).format(round=self.progress.number, tables=tables)


class RoundStarted(Exception):
    """A table of the round has begun playing: its seats stay as they are (the API's 409 ``round_started``)."""

    def __init__(self, number: int, table: int | None = None):
        super().__init__(f"round {number}, table {table} has begun")
        self.number, self.table = number, table

    @property
    def message(self) -> str:
        if self.table is None:
            return _("Round {round} was played before the latest: only the latest round's seats can be "
                     "swapped.").format(round=self.number)
        return _("Table {table} of round {round} has begun playing: its seats can no longer be swapped.").format(
            table=self.table, round=self.number)


class NightGone(Http404):
    def __init__(self):
        super().__init__(_("This night was deleted meanwhile; nothing was changed."))


def night_locked(night: Night) -> Night:
    """The night as it is now, its row locked until commit; NightGone (a 404) once deleted."""
    try:
        return Night.objects.select_for_update().get(pk=night.pk, group_id=night.group_id, deleted_at__isnull=True)
    except Night.DoesNotExist:
        raise NightGone from None


def _in_group(group: Group, name: str, field: str, by: Actor) -> str:
    """The player's name as the group stores it; a player new to the group is added to it."""
    wanted = name_normalised(name) if isinstance(name, str) else name
    stored = {name_normalised(known): known for known in group.players.values_list("name", flat=True)}
    if wanted in stored:
        return stored[wanted]
    try:
        return player_add(group=group, name=name, by=by).name
    except InvalidInput as error:
        raise InvalidInput([dataclasses.replace(p, field=field) for p in error.problems]) from None


def _choice(value: str, options: tuple[str, ...], field: str) -> str:
    if value not in options:
        raise invalid(field, "bad_choice", _("{field} must be one of: {options}.").format(
            field=field, options=", ".join(options)))
    return value


def _whole(value: int | None, field: str, most: int) -> int | None:
    if value is not None and not (1 <= value <= most):
        raise invalid(field, "out_of_range", _("{field} must be a whole number from 1 to {most}.").format(
            field=field, most=most))
    return value


@transaction.atomic
def night_create(
    *,
    group: Group,
    players: list[str],
    preset: str,
    overrides: dict | None = None,
    hands_per_round: int | None = None,
    minutes_per_round: int | None = None,
    standings: str = Night.POINTS,
    mixing: str = Night.MIX,
    seed: int | None = None,
    title: str = "",
    played_on=None,
    stakes: Stakes = POINTS_ONLY,
    by: Actor = SYSTEM,
) -> Night:
    """A night for the players present (any not yet in the group are added to it), at least one
    table's worth (400 ``too_few_players`` otherwise), each of its tables played for ``stakes``. Without ``hands_per_round`` or ``minutes_per_round``, a round is
    two deals per seat at the system's table size (10 hands at a table of five). Without ``seed``,
    one is drawn."""
    try:
        system = get_preset(preset).system(overrides or {})
    except InvalidInput as error:
        raise InvalidInput([dataclasses.replace(p, field="preset") if p.field == "system" else p
                            for p in error.problems]) from None
    _choice(standings, STANDINGS_OPTIONS, "standings")
    _choice(mixing, MIXING_OPTIONS, "mixing")
    if hands_per_round is not None and minutes_per_round is not None:
        raise invalid("minutes_per_round", "round_ends_twice", _(
            "A round ends after a number of hands or after a time, not both: send one of them."))
    _whole(hands_per_round, "hands_per_round", MOST_HANDS)
    _whole(minutes_per_round, "minutes_per_round", MOST_MINUTES)
    if hands_per_round is None and minutes_per_round is None:
        hands_per_round = DEALS_PER_SEAT * system.players
    if seed is None:
        seed = secrets.randbelow(SEEDS_SHOWN_BELOW)
    elif not (0 <= seed < SEED_LIMIT):
        raise invalid("seed", "out_of_range", _("The seed must be a whole number from 0 to {most}.").format(
            most=SEED_LIMIT - 1))
    present: list[str] = []
    for index, name in enumerate(players):
        stored = _in_group(group, name, f"players[{index}]", by)
        if stored in present:
            raise invalid(f"players[{index}]", "duplicate_player", _("{name} is listed twice.").format(name=stored))
        present.append(stored)
    _refuse_too_few(len(present), draw.table_sizes(system, draw.preset_family(preset)))
    night = Night.objects.create(
        group=group, players=present, preset=preset, overrides=overrides or {},
        hands_per_round=hands_per_round, minutes_per_round=minutes_per_round, standings=standings,
        mixing=mixing, seed=seed, title=name_normalised(title)[:80], played_on=played_on or timezone.localdate(),
        **stake_columns(stakes),
    )
    revise(group=group, subject="night", action=Revision.CREATED, by=by,
           after={"night": night.pk, "players": present, "preset": preset, "seed": seed})
    return night


def _refuse_too_few(present: int, sizes: draw.TableSizes) -> None:
    """A night starts, and each round is drawn, with at least the players of one table of its system."""
    if present < sizes.fewest_players:
        raise invalid("players", "too_few_players", ngettext(
            "A table needs {fewest} players; {present} is present.",
            "A table needs {fewest} players; {present} are present.", present,
        ).format(fewest=sizes.fewest_players, present=present))


def _table_title(night: Night, round_number: int, table: int) -> str:
    return _("{night}, round {round}, table {table}").format(
        night=night.title or f"{night.played_on:%Y-%m-%d}", round=round_number, table=table)[-80:]


@transaction.atomic
def night_round_draw(*, night: Night, by: Actor = SYSTEM) -> NightRound:
    """Draw the next round for the players present and start a session at each of its tables.

    Refused with RoundInProgress while a table of the round before has not finished, and with
    InvalidInput when too few are present to fill a table.
    """
    night = night_locked(night)
    rounds = nights.night_rounds(night)
    if rounds:
        progress = nights.round_progress(night, rounds[-1])
        if not progress.finished:
            raise RoundInProgress(progress)
    system, family = nights.night_system(night), draw.preset_family(night.preset)
    sizes = draw.table_sizes(system, family)
    _refuse_too_few(len(night.players), sizes)
    standings = None
    if night.mixing == Night.BY_STANDINGS:
        standings = {row.name: row.score for row in nights.night_standings(night, rounds).rows}
    drawn = draw.draw_round(night.players, sizes, seed=night.seed, history=[r.drawn(night.seed) for r in rounds],
                            standings=standings)
    ends_at = None
    if night.minutes_per_round is not None:
        ends_at = timezone.now() + timedelta(minutes=night.minutes_per_round)
    new = NightRound.objects.create(night=night, number=drawn.number, sitting_out=list(drawn.sitting_out),
                                    ends_at=ends_at)
    for number, seats in enumerate(drawn.tables, start=1):
        session = session_start(
            group=night.group, seats=list(seats), preset=night.preset,
            overrides={**night.overrides, **draw.seating_options(len(seats), system, family)},
            played_on=night.played_on, title=_table_title(night, drawn.number, number),
            stakes=stakes_of(night), by=by,
        )
        session.night_round, session.night_table = new, number
        session.save(update_fields=["night_round", "night_table"])
        # the group's pages (the night's big screen, a phone waiting for its next seat) hear the draw
        announce(session, "round_drawn")
    _moved_on(night)
    revise(group=night.group, subject="round", action=Revision.CREATED, by=by, after={
        "night": night.pk, "number": new.number, "tables": [list(seats) for seats in drawn.tables],
        "sitting_out": list(drawn.sitting_out)})
    return new


def _moved_on(night: Night, *changed: str) -> None:
    night.revision += 1
    night.save(update_fields=["revision", *changed])


@transaction.atomic
def night_player_add(*, night: Night, name: str, by: Actor = SYSTEM) -> Night:
    """A player arrives: added to the group if new to it, and drawn from the next round on (the
    round being played keeps its seats)."""
    night = night_locked(night)
    stored = _in_group(night.group, name, "name", by)
    if stored in night.players:
        raise invalid("name", "already_present", _("{name} is already playing tonight.").format(name=stored))
    night.players = [*night.players, stored]
    _moved_on(night, "players")
    revise(group=night.group, subject="night", action=Revision.AMENDED, by=by,
           after={"night": night.pk, "added": stored})
    return night


@transaction.atomic
def night_player_remove(*, night: Night, name: str, by: Actor = SYSTEM) -> Night:
    """A player leaves: no longer drawn from the next round on. Their tables so far, and their
    standing, stay; a table of the round being played keeps its seats."""
    night = night_locked(night)
    wanted = name_normalised(name) if isinstance(name, str) else name
    stored = next((present for present in night.players if name_normalised(present) == wanted), None)
    if stored is None:
        raise invalid("name", "not_present", _("{name} is not playing tonight.").format(name=wanted))
    night.players = [present for present in night.players if present != stored]
    _moved_on(night, "players")
    revise(group=night.group, subject="night", action=Revision.AMENDED, by=by,
           after={"night": night.pk, "removed": stored})
    return night


@transaction.atomic
def night_swap_players(
    *, night: Night, first: str, second: str, round_number: int | None = None, by: Actor = SYSTEM
) -> NightRound:
    """The organizer's swap in the latest round (``round_number``, when given, must be it), before
    its tables begin: each takes the other's seat (or sits out in the other's place). Refused with
    RoundStarted when a table concerned has a hand (even deleted) or a hand being played, or the
    round named is an earlier one; a round never drawn is Http404."""
    night = night_locked(night)
    rounds = nights.night_rounds(night)
    if round_number is not None and not 1 <= round_number <= len(rounds):
        raise Http404(_("There is no round {round} in this night.").format(round=round_number))
    if not rounds:
        raise invalid("players", "no_round", _("No round has been drawn yet."))
    latest = rounds[-1]
    if round_number is not None and round_number != latest.number:
        raise RoundStarted(round_number)
    before = latest.drawn(night.seed)
    names = {name_normalised(name): name for name in before.players}
    pair, problems = [], []
    for index, name in enumerate((first, second)):
        pair.append(names.get(name_normalised(name) if isinstance(name, str) else name))
        if pair[-1] is None:
            problems.append(Problem(f"players[{index}]", "not_in_round", _("{name} is not in round {round}.").format(
                name=name, round=latest.number)))
    if not problems and pair[0] == pair[1]:
        problems.append(Problem("players", "same_player", _("Swap two different players.")))
    if problems:
        raise InvalidInput(problems)
    after = draw.swap_players(before, *pair)
    changed = []
    for table, seats in zip(latest.tables, after.tables, strict=True):
        if table.seats == seats or table.deleted:
            continue
        session = locked(table.session)
        if session.hand_count or playing_now(session) is not None:
            raise RoundStarted(latest.number, table.number)
        swapped = dict(zip(session.seats, seats, strict=True))
        session.seats, session.first_dealer = list(seats), swapped.get(session.first_dealer, session.first_dealer)
        session.totals = dict.fromkeys(seats, 0)
        session.revision += 1
        session.save(update_fields=["seats", "first_dealer", "totals", "revision"])
        announce(session, "seats_changed")
        changed.append({"table": table.number, "session": session.pk, "seats": list(seats)})
    latest.round.sitting_out = list(after.sitting_out)
    latest.round.save(update_fields=["sitting_out"])
    _moved_on(night)
    revise(group=night.group, subject="round", action=Revision.AMENDED, by=by, after={
        "night": night.pk, "number": latest.number, "swapped": pair, "tables": changed})
    return latest.round



@transaction.atomic
def night_delete(*, night: Night, by: Actor = SYSTEM) -> Night:
    """Delete a night: its tables' sessions and their hands stay, as the group's history (each
    now a session of its own, on the group page as any other), unlinked from the night; its
    rounds and its own payments stay with it. A payment of the night keeps counting in the
    group's balance (reads.balance.group_payments): the money changed hands all the same.

    The night's revision records where each table was (round, table, session), so nothing is
    silently lost.
    """
    night = night_locked(night)
    tables = list(Session.objects.select_for_update().filter(night_round__night=night)
                  .order_by("pk").values_list("pk", "night_round__number", "night_table", "group_id", "revision"))
    # a table's pages show the night it belongs to: they are drawn again
    Session.objects.filter(pk__in=[pk for pk, *_ in tables]).update(
        night_round=None, night_table=None, revision=F("revision") + 1)
    for pk, _round, _table, group_id, revision in tables:
        session_changed(session_id=pk, group_id=group_id, revision=revision + 1, what="night_deleted")
    night.deleted_at = timezone.now()
    _moved_on(night, "deleted_at")
    revise(group=night.group, subject="night", action=Revision.DELETED, by=by, before={
        "night": night.pk, "title": night.title, "played_on": night.played_on.isoformat(),
        "tables": [{"round": number, "table": table, "session": pk} for pk, number, table, *_ in tables]})
    return night
