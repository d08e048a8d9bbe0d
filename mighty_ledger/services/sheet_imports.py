"""A spreadsheet of past hands brought into a group: the preview, the import (one transaction, the
same file twice adds nothing), and its undo.

The file is read by services/spreadsheets.py (within its limits, refused before any work),
understood by scoring/sheets.py and every hand scored by the engine under the system chosen
(services/hands.scored_hand), exactly as a hand entered at the table; a score-sheet row keeps the
payments written on it. The preview and the import build the same plan, so what the preview shows
is what the import writes. An evening the group already has (the same date, players and totals,
from whatever file) is named in the plan and left out unless asked for.

An import is a create like the others: imports into one group are made one at a time (the
group's row is locked for them), so the same file sent ten times at once is imported once and
the nine others find it.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from mighty_ledger.models import Group, Hand, Player, Revision, Session, SheetImport
from mighty_ledger.reads import hand_ledger_entry
from mighty_ledger.services.changes import SYSTEM, Actor, revise, revision_row
from mighty_ledger.services.groups import name_normalised, name_refusal
from mighty_ledger.services.hands import ScoredHand, scored_hand
from mighty_ledger.services.sheet_players import PlayerMatch, player_matches
from mighty_ledger.services.spreadsheets import Refusal, sheet_file, sheet_file_hash
from scoring.cards import JOKER
from scoring.ledger import replay
from scoring.presets import get_preset
from scoring.problems import InvalidInput
from scoring.sheets import SCORE_SHEET, SheetSession, read_sheet
from scoring.systems import system_as_options
from scoring.words import translated


@dataclass(frozen=True)
class PlannedSession:
    played_on: datetime.date
    title: str
    seats: list[str]
    hands: list[Hand]  # unsaved, scored, with their running totals
    totals: dict[str, int]
    written_totals: dict[str, int] | None  # as the sheet itself gives them, in the group's names
    pot: int
    duplicate_of: int | None = None  # the group's session of the same evening, which the import leaves out


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
    refusal: Refusal | None = None  # the file refused whole, unread (a limit passed, or no spreadsheet)
    dated: bool = True  # False: the file has no date column, and its evening was asked for

    @property
    def hand_count(self) -> int:
        return sum(len(session.hands) for session in self.sessions)


# why an import wrote nothing (the API's error codes)
SHEET_PROBLEMS, NO_HANDS, ALREADY_IN_GROUP = "sheet_problems", "no_hands", "already_in_group"


class SheetRefused(Exception):
    """An import asked of a file with problems, or with nothing new: nothing is written."""

    def __init__(self, plan: SheetPlan, code: str):
        super().__init__(f"{code}: {len(plan.problems)} problems")
        self.plan, self.code = plan, code

    @property
    def message(self) -> str:
        if self.code == ALREADY_IN_GROUP:
            return _("Every evening of this file is already in the group: nothing was imported. Ask for "
                     "them to be imported again if they are other evenings.")
        return _("The file holds no hands to import.")


def _words(message: object) -> str:
    return translated(message, _)


def sheet_preview(*, group: Group, content: bytes, preset: str, choices: dict[str, str | None] | None = None,
                  played_on: datetime.date | None = None) -> SheetPlan:
    """What an import of ``content`` would write, and every row it cannot read; writes nothing.

    ``played_on`` is the evening of a file that does not say (a board's download without its date)."""
    return _plan(group, content, preset, choices or {}, played_on)


def _plan(group: Group, content: bytes, preset: str, choices: dict[str, str | None],
          played_on: datetime.date | None, each_session: Callable[[PlannedSession], None] | None = None) -> SheetPlan:
    """The plan, built an evening at a time: ``each_session`` is handed each evening whole (its
    hands scored), and the plan keeps of its hands only what the preview shows (what they are,
    what they paid), so that a file's thousands of hands are never all held scored at once."""
    read = sheet_file(content)
    done_before = group.sheet_imports.filter(file_hash=read.file_hash, undone_at__isnull=True).first()
    if read.refusal is not None:
        return SheetPlan(None, read.file_hash, (), (), (LineProblem(1, _words(read.refusal.message)),), done_before,
                         read.refusal)
    system = get_preset(preset).system()
    sheet = read_sheet(read.rows, lines=read.lines, players=system.players, calls=system.partner_calls,
                       played_on=played_on)
    del read  # the file's rows, read
    problems = [LineProblem(problem.line, _words(problem.message)) for problem in sheet.problems]
    players = player_matches(group, sheet.names, choices)
    name_of = {match.name: match.match or name_normalised(match.name) for match in players}
    for match in players:
        refusal = name_refusal(name_normalised(match.name)) if match.match is None else None
        if match.match is None and (not name_normalised(match.name) or len(name_normalised(match.name)) > 40):
            problems.append(LineProblem(1, _("'{name}' cannot be a player's name: 1 to 40 characters.").format(
                name=match.name)))
        elif refusal is not None:
            problems.append(LineProblem(1, f"{match.name}: {refusal.message}"))
    scorer = _Scorer(preset, system_as_options(system))
    same_evening = _stored_evenings(group, {session.played_on for session in sheet.sessions})
    sessions = []
    for session in sheet.sessions:
        planned = _planned_session(session, scorer, name_of, problems)
        planned = dataclasses.replace(planned, duplicate_of=same_evening(planned))
        # a plan with problems is written no further: its import is refused, and rolled back
        if each_session is not None and planned.hands and not problems:
            each_session(planned)
        sessions.append(_as_previewed(planned))
    if len(set(name_of.values())) != len(name_of):
        problems.append(LineProblem(1, _("Two names of the sheet were matched to the same player.")))
    problems.sort(key=lambda problem: problem.line)
    return SheetPlan(sheet.shape, sheet_file_hash(content), tuple(sessions), players, tuple(problems), done_before,
                     dated=sheet.dated)


def _as_previewed(planned: PlannedSession) -> PlannedSession:
    """The evening with its hands as the preview shows them: what each was and paid, not how it
    was scored (its result and sentences, several KB a hand)."""
    for hand in planned.hands:
        hand.result, hand.explanation, hand.sides, hand.running_totals = None, [], {}, {}
    return planned


def _stored_evenings(group: Group, dates: set[datetime.date]) -> Callable[[PlannedSession], int | None]:
    """Which of the group's sessions is a planned evening (the same date, the same players, the
    same totals), read in one query: its id, or None."""
    stored: dict[datetime.date, list[tuple[int, list, dict]]] = {}
    for pk, played_on, seats, totals in (Session.objects.live().filter(group=group, played_on__in=dates)
                                         .order_by("pk").values_list("pk", "played_on", "seats", "totals")):
        stored.setdefault(played_on, []).append((pk, seats, totals))

    def same_evening(planned: PlannedSession) -> int | None:
        return next((pk for pk, seats, totals in stored.get(planned.played_on, ())
                     if sorted(seats) == sorted(planned.seats) and totals == planned.totals), None)

    return same_evening


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


# the distinct hands a file's scorer keeps (some 12 KB each, with their sentences)
SCORED_KEPT = 2048


class _Scorer:
    """Every hand of one file scored by the engine under one system, each distinct hand once: a
    sheet repeats its hands (the same declarer, contract, partner and points, evening after
    evening), and the engine's answer is the same every time. The hands share what it answered,
    which nothing changes once scored."""

    def __init__(self, preset: str, options: dict):
        self.preset, self.options = preset, options
        self.scored: OrderedDict[str, ScoredHand | InvalidInput] = OrderedDict()
        self.sessions: dict[tuple[str, ...], Session] = {}

    def score(self, seats: list[str], entry: dict, written: dict | None) -> ScoredHand:
        key = json.dumps([seats, entry, written], sort_keys=True, ensure_ascii=False)
        if key in self.scored:
            self.scored.move_to_end(key)
        else:
            # the hands met last are kept: a file of hands all different is never held whole
            if len(self.scored) == SCORED_KEPT:
                self.scored.popitem(last=False)
            session = self.sessions.get(tuple(seats))
            if session is None:
                session = self.sessions[tuple(seats)] = Session(preset=self.preset, system_options=self.options,
                                                                seats=seats)
            try:
                self.scored[key] = _scored_as_written(session, entry, written)
            except InvalidInput as error:
                self.scored[key] = error
        answer = self.scored[key]
        if isinstance(answer, InvalidInput):
            raise answer
        return answer


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


def _planned_session(session: SheetSession, scorer: _Scorer, name_of: dict[str, str],
                     problems: list[LineProblem]) -> PlannedSession:
    seats = [name_of[name] for name in session.seats]
    hands = []
    for sheet_hand in session.hands:
        entry = _renamed(sheet_hand.entry, name_of)
        hand = Hand(number=len(hands) + 1, kind=sheet_hand.kind, entry=entry, result=None, explanation=[], sides={})
        if sheet_hand.kind == "scored":
            try:
                scored = scorer.score(seats, entry, _renamed(sheet_hand.written, name_of))
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
    return PlannedSession(session.played_on, session.title, seats, hands, totals, written, steps[-1].pot if steps else 0)


def sheet_import(*, group: Group, content: bytes, preset: str, choices: dict[str, str | None] | None = None,
                 file_name: str = "", by: Actor = SYSTEM, import_duplicates: bool = False,
                 played_on: datetime.date | None = None) -> tuple[SheetImport, bool, SheetPlan | None]:
    """Write what the preview showed, all or nothing; returns (the import, created, the plan written).

    The same file already brought in (and not undone) is that import again: nothing is added, and
    no plan is made (None). Evenings the group already has are left out unless
    ``import_duplicates``. A file with problems, or with nothing new, is refused whole:
    SheetRefused, nothing written."""
    with transaction.atomic():
        # one import into a group at a time: the next one finds what this one wrote (FOR NO KEY
        # UPDATE: the hands and sessions other phones add meanwhile, which only reference the
        # group, do not wait for it)
        Group.objects.select_for_update(no_key=True).filter(pk=group.pk).first()
        done_before = group.sheet_imports.filter(file_hash=sheet_file_hash(content), undone_at__isnull=True).first()
        if done_before is not None:
            return done_before, False, None
        writer = _Writer(group, preset, by, import_duplicates)
        # each evening is written as soon as it is scored; a problem anywhere rolls them all back
        plan = _plan(group, content, preset, choices or {}, played_on, each_session=writer.write)
        if plan.refusal is not None or plan.problems:
            raise SheetRefused(plan, SHEET_PROBLEMS)
        if not plan.sessions:
            raise SheetRefused(plan, NO_HANDS)
        if not writer.sessions:
            raise SheetRefused(plan, ALREADY_IN_GROUP)
        return writer.finished(plan, file_name), True, plan


class _Writer:
    """The import's writes: each evening as it is planned, then the players it brought and the
    import itself."""

    def __init__(self, group: Group, preset: str, by: Actor, import_duplicates: bool):
        self.group, self.preset, self.by, self.import_duplicates = group, preset, by, import_duplicates
        self.options = system_as_options(get_preset(preset).system())
        self.sessions: list[Session] = []
        self.hand_count = 0

    def write(self, planned: PlannedSession) -> None:
        if planned.duplicate_of is not None and not self.import_duplicates:
            return
        session = Session.objects.create(
            group=self.group, played_on=planned.played_on, title=planned.title, seats=planned.seats,
            preset=self.preset, system_options=self.options, first_dealer=planned.seats[0],
            totals=planned.totals, pot=planned.pot, hand_count=len(planned.hands), revision=1,
        )
        for hand in planned.hands:
            hand.session = session
        Hand.objects.bulk_create(planned.hands, batch_size=500)
        revise(group=self.group, session=session, subject="session", action=Revision.CREATED, by=self.by,
               after={"seats": planned.seats, "preset": self.preset, "imported_hands": len(planned.hands)})
        self.sessions.append(session)
        self.hand_count += len(planned.hands)

    def finished(self, plan: SheetPlan, file_name: str) -> SheetImport:
        known = set(self.group.players.values_list("name", flat=True))
        seated = dict.fromkeys(seat for session in self.sessions for seat in session.seats)
        new_players = Player.objects.bulk_create([Player(group=self.group, name=name) for name in seated
                                                  if name not in known])
        Revision.objects.bulk_create([revision_row(group=self.group, subject="player", action=Revision.CREATED,
                                                   by=self.by, after={"name": player.name})
                                      for player in new_players])
        return SheetImport.objects.create(
            group=self.group, file_hash=plan.file_hash, file_name=file_name[:200], preset=self.preset,
            session_ids=[session.pk for session in self.sessions], player_ids=[player.pk for player in new_players],
            hand_count=self.hand_count, by=self.by.label,
        )


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


__all__ = ["ALREADY_IN_GROUP", "NO_HANDS", "SHEET_PROBLEMS", "PlayerMatch", "SheetPlan", "SheetRefused",
           "sheet_import", "sheet_import_undo", "sheet_preview"]
