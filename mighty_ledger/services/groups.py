"""Groups, their players and their sessions: created, relinked, deleted and restored.
"""

from __future__ import annotations

import dataclasses
import unicodedata

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from mighty_ledger.live import link_rotated
from mighty_ledger.models import Group, Player, Revision, Session, new_token
from mighty_ledger.services.changes import (
    SYSTEM,
    Actor,
    announce,
    invalid,
    locked,
    revise,
    set_deleted,
)
from scoring.presets import get_preset
from scoring.problems import InvalidInput, Problem
from scoring.seats import RESERVED_FOR_THE_POT
from scoring.settle import POT, Stakes
from scoring.systems import system_as_options


class StaleSession(Exception):
    """The session changed since the client read it; carries it as it is now."""

    def __init__(self, session: Session):
        super().__init__(f"session {session.pk} is at revision {session.revision}")
        self.session = session


# characters that only ever hide: "Ann" and "Ann" + a zero-width space would be two players
_DROPPED = dict.fromkeys(map(ord, "\u200b\u2060\ufeff"))


def name_normalised(name: str) -> str:
    """A name as it is stored and compared: Unicode NFC, trimmed, inner spaces collapsed to one.

    "Á" typed as one character or as "A" plus a combining accent, or "Ann  Lee"
    with two spaces, is then one player, not two who look the same.
    """
    return " ".join(unicodedata.normalize("NFC", (name or "").translate(_DROPPED)).split())


# Unicode's bidirectional controls (UAX #9: embeddings, overrides, isolates, marks): around a
# name they reorder the text that follows it, so a settlement could read "Ann pays nnA"
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# marks, format characters and separators draw nothing on their own; the Hangul fillers and the
# blank Braille cell are letters and a symbol that draw nothing either
_DRAWS_NOTHING = frozenset({"Mn", "Me", "Cf", "Cc", "Co", "Cn", "Zs", "Zl", "Zp"})
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def name_refusal(name: str) -> Problem | None:
    """Why a normalised name cannot be a player's: none a table can read, or one that reorders text."""
    if any(char in BIDI_CONTROLS for char in name):
        return Problem("name", "bidi_control", _(
            "A name cannot contain characters that change the direction of the text (such as U+202E): "
            "the settlement would read wrongly."))
    if name == POT:
        return Problem("name", "reserved_name", _(RESERVED_FOR_THE_POT))
    if not any(unicodedata.category(char) not in _DRAWS_NOTHING and char not in _BLANK_LETTERS for char in name):
        return Problem("name", "invisible", _("A name needs at least one visible letter, digit or sign."))
    return None


@transaction.atomic
def group_create(*, name: str, player_names: list[str] = (), by: Actor = SYSTEM) -> Group:
    name = name_normalised(name)
    if not name:
        raise invalid("name", "missing", _("A group needs a name."))
    group = Group.objects.create(name=name[:80])
    for index, player_name in enumerate(player_names):
        try:
            player_add(group=group, name=player_name, by=by)
        except InvalidInput as error:
            # the problem is with one of the players listed, not with the group's name
            raise InvalidInput([dataclasses.replace(problem, field=f"players[{index}]")
                                for problem in error.problems]) from None
    revise(group=group, subject="group", action=Revision.CREATED, by=by, after={"name": group.name})
    return group


@transaction.atomic
def group_rotate_link(*, group: Group, which: str, by: Actor = SYSTEM) -> Group:
    """A new edit or view token; the old link stops working at once."""
    if which not in ("edit", "view"):
        raise invalid("which", "bad_link", _("Only the edit or the view link can be rotated."))
    setattr(group, f"{which}_token", new_token())
    group.save(update_fields=[f"{which}_token"])
    revise(group=group, subject="group", action=Revision.AMENDED, by=by, after={"rotated": which})
    link_rotated(group_id=group.pk)  # the streams open on the old link end
    return group


@transaction.atomic
def group_delete(*, group: Group, by: Actor = SYSTEM) -> Group:
    return set_deleted(group, deleted=True, subject="group", group=group, by=by)


@transaction.atomic
def group_restore(*, group: Group, by: Actor = SYSTEM) -> Group:
    return set_deleted(group, deleted=False, subject="group", group=group, by=by)


@transaction.atomic
def player_add(*, group: Group, name: str, by: Actor = SYSTEM) -> Player:
    name = name_normalised(name)
    if not name:
        raise invalid("name", "missing", _("A player needs a name."))
    if len(name) > 40:
        raise invalid("name", "too_long", _("A player's name can be at most 40 characters."))
    refusal = name_refusal(name)
    if refusal is not None:
        raise InvalidInput([refusal])
    duplicate = invalid("name", "duplicate_player", _("{name} is already in this group.").format(name=name))
    # compared with every name normalised: a player added before names were normalised counts too
    if name in {name_normalised(existing) for existing in group.players.values_list("name", flat=True)}:
        raise duplicate
    try:
        with transaction.atomic():
            player = Player.objects.create(group=group, name=name)
    except IntegrityError:
        # the same name added at the same moment by another request, which committed first
        raise duplicate from None
    revise(group=group, subject="player", action=Revision.CREATED, by=by, after={"name": name})
    return player


# --- sessions -------------------------------------------------------------------

# a session or a night played for nothing but its points
POINTS_ONLY = Stakes()


def stake_columns(stakes: Stakes) -> dict:
    """What a session or a club night stores of its stakes (reads.stakes_of reads them back): a
    column for each of Stakes' fields, named as they are."""
    return dataclasses.asdict(stakes)


@transaction.atomic
def session_start(
    *,
    group: Group,
    seats: list[str],
    preset: str,
    overrides: dict | None = None,
    first_dealer: str | None = None,
    played_on=None,
    title: str = "",
    stakes: Stakes = POINTS_ONLY,
    by: Actor = SYSTEM,
) -> Session:
    """Seat the players and freeze the scoring system for the evening, played for ``stakes``."""
    system = get_preset(preset).system(overrides or {})
    problems = []
    # a seat typed with another spelling of a player's name is that player, as stored
    stored = {name_normalised(name): name for name in group.players.values_list("name", flat=True)}
    known = set(stored.values())
    seats = [stored.get(name_normalised(seat), seat) if isinstance(seat, str) else seat for seat in seats]
    if first_dealer:
        first_dealer = stored.get(name_normalised(first_dealer), first_dealer)
    if len(seats) != len(set(seats)):
        problems.append(Problem("seats", "duplicate_seat", _("A player can only take one seat.")))
    for i, seat in enumerate(seats):
        if seat not in known:
            problems.append(Problem(f"seats[{i}]", "unknown_player", _("{seat} is not a player of this group.").format(seat=seat)))
    if len(seats) != system.players:
        problems.append(Problem(
            "seats", "wrong_player_count",
            ngettext("This system is for {players} players; {seated} is seated.",
                     "This system is for {players} players; {seated} are seated.", len(seats)).format(
                players=system.players, seated=len(seats)
            ),
        ))
    first_dealer = first_dealer or (seats[0] if seats else None)
    if first_dealer not in seats:
        problems.append(Problem("first_dealer", "unknown_seat", _("The first dealer must be one of the seats.")))
    if problems:
        raise InvalidInput(problems)
    session = Session.objects.create(
        group=group, seats=list(seats), preset=preset, overrides=overrides or {},
        system_options=system_as_options(system), first_dealer=first_dealer,
        played_on=played_on or timezone.localdate(), title=title, **stake_columns(stakes),
        totals=dict.fromkeys(seats, 0),
    )
    revise(group=group, session=session, subject="session", action=Revision.CREATED, by=by,
            after={"seats": seats, "preset": preset, "overrides": overrides or {}})
    return session


@transaction.atomic
def session_delete(*, session: Session, revision: int | None = None, by: Actor = SYSTEM) -> Session:
    """Soft delete; with ``revision`` (the API's If-Match), only if nothing changed since it was read."""
    if revision is not None:
        session = locked(session)  # a hand recorded meanwhile moved the revision: it waits for that one
        if session.revision != revision:
            raise StaleSession(session)
    announce(session, "session_deleted")
    return set_deleted(session, deleted=True, subject="session", group=session.group, session=session, by=by)


@transaction.atomic
def session_restore(*, session: Session, by: Actor = SYSTEM) -> Session:
    announce(session, "session_restored")
    return set_deleted(session, deleted=False, subject="session", group=session.group, session=session, by=by)
