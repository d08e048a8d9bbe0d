"""A spreadsheet of past hands brought into a group: the preview, the import (one transaction, the
same file twice adds nothing), and its undo.

The file is read by services/spreadsheets.py, understood by scoring/sheets.py and every hand scored
by the engine under the system chosen (services/hands.scored_hand), exactly as a hand entered at
the table; a score-sheet row keeps the payments written on it. The preview and the import build the
same plan, so what the preview shows is what the import writes.
"""

from __future__ import annotations

import datetime
import difflib
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from mighty_ledger.models import Group, Hand, Player, Revision, Session, SheetImport
from mighty_ledger.reads import hand_ledger_entry
from mighty_ledger.services.changes import SYSTEM, Actor, revise, revision_row
from mighty_ledger.services.groups import name_normalised, name_refusal
from mighty_ledger.services.hands import scored_hand
from mighty_ledger.services.spreadsheets import sheet_file
from scoring.cards import JOKER
from scoring.ledger import replay
from scoring.presets import get_preset
from scoring.problems import InvalidInput
from scoring.sheets import SCORE_SHEET, SheetSession, read_sheet
from scoring.systems import system_as_options
from scoring.words import translated

# how alike two names must be (difflib's ratio) for the preview to offer the group's as a choice
NEAR_CUTOFF = 0.6


@dataclass(frozen=True)
class PlayerMatch:
    name: str  # as the sheet writes it
    match: str | None  # the group's player it is, or None: a new player
    near: tuple[str, ...] = ()  # the group's players it may be, offered as a choice


@dataclass(frozen=True)
class PlannedSession:
    played_on: datetime.date
    title: str
    seats: list[str]
    hands: list[Hand]  # unsaved, scored, with their running totals
    totals: dict[str, int]
    written_totals: dict[str, int] | None  # as the sheet itself gives them, in the group's names
    pot: int


@dataclass(frozen=True)
class LineProblem:
    line: int
    message: str  # in the reader's language


@dataclass(frozen=True)
class SheetPlan:
    shape: str | None
    file_hash: str
    sessions: tuple[PlannedSession, ...]
    players: tuple[PlayerMatch, ...]
    problems: tuple[LineProblem, ...]
    done_before: SheetImport | None  # this very file, already brought in and standing

    @property
    def hand_count(self) -> int:
        return sum(len(session.hands) for session in self.sessions)


class SheetRefused(Exception):
    """An import asked of a file with problems: nothing is written."""

    def __init__(self, plan: SheetPlan):
        super().__init__(f"{len(plan.problems)} problems")
        self.plan = plan


def _words(message: object) -> str:
    return translated(message, _)


def player_matches(group: Group, names, choices: dict[str, str | None]) -> tuple[PlayerMatch, ...]:
    """Each name of the sheet against the group's players: the same name, then the choice made in
    the preview, else a new player, with the near names offered."""
    players = list(group.players.values_list("name", flat=True))
    by_normal = {name_normalised(player): player for player in players}
    matches = []
    for name in names:
        same = by_normal.get(name_normalised(name))
        if same is not None:
            matches.append(PlayerMatch(name, same))
            continue
        folded = name_normalised(name).casefold()
        near = [player for player in players if name_normalised(player).casefold() == folded]
        near += [player for player in difflib.get_close_matches(name, players, n=3, cutoff=NEAR_CUTOFF)
                 if player not in near]
        chosen = choices.get(name)
        matches.append(PlayerMatch(name, chosen if chosen in players else None, tuple(near)))
    return tuple(matches)


def sheet_preview(*, group: Group, content: bytes, preset: str,
                  choices: dict[str, str | None] | None = None) -> SheetPlan:
    """What an import of ``content`` would write, and every row it cannot read; writes nothing."""
    read = sheet_file(content)
    done_before = group.sheet_imports.filter(file_hash=read.file_hash, undone_at__isnull=True).first()
    if read.refusal is not None:
        return SheetPlan(None, read.file_hash, (), (), (LineProblem(1, _words(read.refusal)),), done_before)
    system = get_preset(preset).system()
    sheet = read_sheet(read.rows, players=system.players, calls=system.partner_calls)
    problems = [LineProblem(problem.line, _words(problem.message)) for problem in sheet.problems]
    players = player_matches(group, sheet.names, choices or {})
    name_of = {match.name: match.match or name_normalised(match.name) for match in players}
    for match in players:
        refusal = name_refusal(name_normalised(match.name)) if match.match is None else None
        if match.match is None and (not name_normalised(match.name) or len(name_normalised(match.name)) > 40):
            problems.append(LineProblem(1, _("'{name}' cannot be a player's name: 1 to 40 characters.").format(
                name=match.name)))
        elif refusal is not None:
            problems.append(LineProblem(1, f"{match.name}: {refusal.message}"))
    options = system_as_options(system)
    sessions = []
    for session in sheet.sessions:
        planned = _planned_session(session, preset, options, name_of, problems)
        if planned is not None:
            sessions.append(planned)
    if len(set(name_of.values())) != len(name_of):
        problems.append(LineProblem(1, _("Two names of the sheet were matched to the same player.")))
    problems.sort(key=lambda problem: problem.line)
    return SheetPlan(sheet.shape, read.file_hash, tuple(sessions), players, tuple(problems), done_before)


def _renamed(value, name_of: dict[str, str]):
    if isinstance(value, str):
        return name_of.get(value, value)
    if isinstance(value, dict):
        return {_renamed(key, name_of): _renamed(item, name_of) for key, item in value.items()}
    if isinstance(value, list):
        return [_renamed(item, name_of) for item in value]
    return value


def _sides_by_sign(payments: dict[str, int]) -> dict:
    """A score-sheet hand's sides for the ratings: who won points against who lost them."""
    won = [name for name, amount in payments.items() if amount > 0]
    lost = [name for name, amount in payments.items() if amount < 0]
    return {"declarers": won, "defenders": lost, "winners": won} if won and lost else {}


def _scored_as_written(session: Session, entry: dict, written: dict | None):
    """The hand scored; when the sheet shows its payments (hands.csv) and the declarer played
    alone, the solo it was: announced (no friend) or secret (a card called that the declarer held)."""
    scored = scored_hand(session, entry)
    if written is None or entry["partners"] or scored.result["payments"] == written:
        return scored
    secret = {**entry, "partner_call": {"type": "card", "cards": [JOKER]}}
    try:
        other = scored_hand(session, secret)
    except InvalidInput:
        return scored
    return other if other.result["payments"] == written else scored


def _planned_session(session: SheetSession, preset: str, options: dict, name_of: dict[str, str],
                     problems: list[LineProblem]) -> PlannedSession | None:
    seats = [name_of[name] for name in session.seats]
    scoring_session = Session(preset=preset, system_options=options, seats=seats)
    hands = []
    for sheet_hand in session.hands:
        entry = _renamed(sheet_hand.entry, name_of)
        hand = Hand(number=len(hands) + 1, kind=sheet_hand.kind, entry=entry, result=None, explanation=[], sides={})
        if sheet_hand.kind == "scored":
            try:
                scored = _scored_as_written(scoring_session, entry, _renamed(sheet_hand.written, name_of))
            except InvalidInput as error:
                problems.append(LineProblem(sheet_hand.line, " ".join(_words(p.message) for p in error.problems)))
                continue
            hand.entry, hand.result = scored.entry, scored.result
            hand.explanation, hand.sides = scored.explanation, scored.sides
        elif sheet_hand.kind == SCORE_SHEET:
            hand.kind = Hand.SCORE_SHEET
            hand.sides = _sides_by_sign(entry["payments"])
        hands.append(hand)
    steps = replay(seats, [hand_ledger_entry(hand) for hand in hands])
    for hand, step in zip(hands, steps, strict=True):
        hand.payments, hand.running_totals, hand.pot_after = step.payments, step.totals, step.pot
    totals = steps[-1].totals if steps else dict.fromkeys(seats, 0)
    written = _renamed(session.written_totals, name_of) if session.written_totals else None
    title = "" if session.key == session.played_on.isoformat() else session.key[:80]
    return PlannedSession(session.played_on, title, seats, hands, totals, written, steps[-1].pot if steps else 0)


@transaction.atomic
def sheet_import(*, group: Group, content: bytes, preset: str, choices: dict[str, str | None] | None = None,
                 file_name: str = "", by: Actor = SYSTEM) -> tuple[SheetImport, bool, SheetPlan]:
    """Write what the preview showed, all or nothing; returns (the import, created, the plan written).

    The same file already brought in (and not undone) is that import again, and nothing is added.
    A file with problems is refused whole: SheetRefused, nothing written."""
    plan = sheet_preview(group=group, content=content, preset=preset, choices=choices)
    if plan.done_before is not None:
        return plan.done_before, False, plan
    if plan.problems or not plan.sessions:
        raise SheetRefused(plan)
    known = set(group.players.values_list("name", flat=True))
    new_players = []
    for session in plan.sessions:
        for seat in session.seats:
            if seat not in known:
                known.add(seat)
                new_players.append(Player(group=group, name=seat))
    Player.objects.bulk_create(new_players)
    revisions = [revision_row(group=group, subject="player", action=Revision.CREATED, by=by,
                              after={"name": player.name}) for player in new_players]
    sessions = []
    for planned in plan.sessions:
        session = Session.objects.create(
            group=group, played_on=planned.played_on, title=planned.title, seats=planned.seats, preset=preset,
            system_options=system_as_options(get_preset(preset).system()), first_dealer=planned.seats[0],
            totals=planned.totals, pot=planned.pot, hand_count=len(planned.hands), revision=1,
        )
        for hand in planned.hands:
            hand.session = session
        sessions.append(session)
        revisions.append(revision_row(group=group, session=session, subject="session", action=Revision.CREATED,
                                      by=by, after={"seats": planned.seats, "preset": preset,
                                                    "imported_hands": len(planned.hands)}))
    Hand.objects.bulk_create([hand for planned in plan.sessions for hand in planned.hands], batch_size=500)
    Revision.objects.bulk_create(revisions, batch_size=500)
    try:
        with transaction.atomic():
            made = SheetImport.objects.create(
                group=group, file_hash=plan.file_hash, file_name=file_name[:200], preset=preset,
                session_ids=[session.pk for session in sessions], player_ids=[player.pk for player in new_players],
                hand_count=plan.hand_count, by=by.label,
            )
    except IntegrityError:
        # the same file imported at this moment by another request, which committed first
        transaction.set_rollback(True)
        return group.sheet_imports.get(file_hash=plan.file_hash, undone_at__isnull=True), False, plan
    return made, True, plan


@transaction.atomic
def sheet_import_undo(*, sheet_import: SheetImport, by: Actor = SYSTEM) -> SheetImport:
    """Take the import back whole: its sessions are deleted (kept, as every deletion is, with a
    revision) and the players it added, unless another session seats them, removed."""
    made = SheetImport.objects.select_for_update().get(pk=sheet_import.pk)
    if made.undone_at is not None:
        return made
    now = timezone.now()
    sessions = list(Session.objects.filter(pk__in=made.session_ids, deleted_at__isnull=True))
    Session.objects.filter(pk__in=[session.pk for session in sessions]).update(deleted_at=now)
    for session in sessions:
        revise(group=made.group, session=session, subject="session", action=Revision.DELETED, by=by)
    seated = {
        seat
        for seats in Session.objects.filter(group=made.group).exclude(pk__in=made.session_ids)
        .values_list("seats", flat=True)
        for seat in seats
    }
    for player in Player.objects.filter(pk__in=made.player_ids):
        if player.name not in seated:
            revise(group=made.group, subject="player", action=Revision.DELETED, by=by, before={"name": player.name})
            player.delete()
    made.undone_at = now
    made.save(update_fields=["undone_at"])
    return made


__all__ = ["PlayerMatch", "SheetPlan", "SheetRefused", "sheet_import", "sheet_import_undo", "sheet_preview"]
