"""Every write the ledger makes: keyword-only functions, one transaction each.

Views and the API parse input, call one of these, and render. Locking lives
here, so hand numbers stay contiguous and running totals never race: a new
hand is written only if its session is still at the revision it was scored
against (one statement on PostgreSQL), and otherwise, like every edit, delete
and restore, with the session's row locked (a row lock on PostgreSQL; on
SQLite IMMEDIATE transactions serialise writers).
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.interface import score_request
from scoring.ledger import LedgerEntry, entry_from_result, replay
from scoring.presets import get_preset
from scoring.problems import InvalidInput, Problem
from scoring.systems import system_as_options

from . import rows
from .models import Group, Hand, Player, Revision, Session


class StaleVersion(Exception):
    """The hand changed since the client read it; carries the current hand."""

    def __init__(self, hand: Hand):
        super().__init__(f"hand {hand.number} is at version {hand.version}")
        self.hand = hand


class IdempotencyConflict(Exception):
    """The same idempotency key was sent before with a different body."""


@dataclass(frozen=True)
class Actor:
    """Which link made a change, recorded in revisions (never the whole token)."""

    label: str

    @classmethod
    def from_token(cls, kind: str, token: str) -> Actor:
        return cls(f"{kind} …{token[-4:]}")


SYSTEM = Actor("system")


def _invalid(field: str, code: str, message: str) -> InvalidInput:
    return InvalidInput([Problem(field, code, message)])


def _revision(*, subject, action, by: Actor, group=None, session=None, hand=None, before=None, after=None) -> Revision:
    # the group's id from the session when no group is given: no query for the group itself
    return Revision(
        group_id=group.pk if group is not None else session.group_id, session=session, hand=hand,
        subject=subject, action=action, before=before, after=after, by=by.label,
    )


def _revise(**change) -> None:
    # edits, deletes and restores: off the hand-recording path, so the ORM writes it
    _revision(**change).save(force_insert=True)


# --- groups and players -------------------------------------------------------


@transaction.atomic
def group_create(*, name: str, player_names: list[str] = (), by: Actor = SYSTEM) -> Group:
    name = (name or "").strip()
    if not name:
        raise _invalid("name", "missing", _("A group needs a name."))
    group = Group.objects.create(name=name[:80])
    for player_name in player_names:
        player_add(group=group, name=player_name, by=by)
    _revise(group=group, subject="group", action=Revision.CREATED, by=by, after={"name": group.name})
    return group


def group_rotate_link(*, group: Group, which: str, by: Actor = SYSTEM) -> Group:
    """A new edit or view token; the old link stops working at once."""
    from .models import new_token

    if which not in ("edit", "view"):
        raise _invalid("which", "bad_link", _("Only the edit or the view link can be rotated."))
    setattr(group, f"{which}_token", new_token())
    group.save(update_fields=[f"{which}_token"])
    _revise(group=group, subject="group", action=Revision.AMENDED, by=by, after={"rotated": which})
    return group


def _set_deleted(row, *, deleted: bool, subject: str, group: Group, by: Actor, session=None):
    """Soft delete or restore: nothing the app deletes is gone, and a revision says who did it."""
    row.deleted_at = timezone.now() if deleted else None
    row.save(update_fields=["deleted_at"])
    _revise(group=group, session=session, subject=subject, by=by,
            action=Revision.DELETED if deleted else Revision.RESTORED)
    return row


@transaction.atomic
def group_delete(*, group: Group, by: Actor = SYSTEM) -> Group:
    return _set_deleted(group, deleted=True, subject="group", group=group, by=by)


@transaction.atomic
def group_restore(*, group: Group, by: Actor = SYSTEM) -> Group:
    return _set_deleted(group, deleted=False, subject="group", group=group, by=by)


@transaction.atomic
def player_add(*, group: Group, name: str, by: Actor = SYSTEM) -> Player:
    name = (name or "").strip()
    if not name:
        raise _invalid("name", "missing", _("A player needs a name."))
    if len(name) > 40:
        raise _invalid("name", "too_long", _("A player's name can be at most 40 characters."))
    if group.players.filter(name=name).exists():
        raise _invalid("name", "duplicate_player", _("{name} is already in this group.").format(name=name))
    player = Player.objects.create(group=group, name=name)
    _revise(group=group, subject="player", action=Revision.CREATED, by=by, after={"name": name})
    return player


# --- sessions -------------------------------------------------------------------


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
    stake_per_point: Decimal | None = None,
    currency: str = "",
    rounding_unit: Decimal | None = None,
    chips_start: int | None = None,
    chips_per_point: int | None = None,
    by: Actor = SYSTEM,
) -> Session:
    """Seat the players and freeze the scoring system for the evening."""
    system = get_preset(preset).system(overrides or {})
    problems = []
    known = set(group.players.values_list("name", flat=True))
    if len(seats) != len(set(seats)):
        problems.append(Problem("seats", "duplicate_seat", _("A player can only take one seat.")))
    for i, seat in enumerate(seats):
        if seat not in known:
            problems.append(Problem(f"seats[{i}]", "unknown_player", _("{seat} is not a player of this group.").format(seat=seat)))
    if len(seats) != system.players:
        problems.append(Problem(
            "seats", "wrong_player_count",
            _("This system is for {players} players; {seated} are seated.").format(
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
        played_on=played_on or timezone.localdate(), title=title,
        stake_per_point=stake_per_point, currency=currency, rounding_unit=rounding_unit,
        chips_start=chips_start, chips_per_point=chips_per_point,
        totals=dict.fromkeys(seats, 0),
    )
    _revise(group=group, session=session, subject="session", action=Revision.CREATED, by=by,
            after={"seats": seats, "preset": preset, "overrides": overrides or {}})
    return session


@transaction.atomic
def session_delete(*, session: Session, by: Actor = SYSTEM) -> Session:
    return _set_deleted(session, deleted=True, subject="session", group=session.group, session=session, by=by)


@transaction.atomic
def session_restore(*, session: Session, by: Actor = SYSTEM) -> Session:
    return _set_deleted(session, deleted=False, subject="session", group=session.group, session=session, by=by)


# --- hands ------------------------------------------------------------------------


def hand_request(session: Session, entry: dict) -> dict:
    """The HAND_JSON request the engine sees: the session's seats and frozen system always win."""
    return {**entry, "system": session.preset, "options": session.system_options, "seats": session.seats}


def hand_preview(*, session: Session, entry: dict) -> dict:
    """Score without saving (the live preview); InvalidInput when illegal."""
    return score_request(hand_request(session, entry))


def _fingerprint(kind: str, entry: dict) -> str:
    canonical = json.dumps({"kind": kind, "entry": entry}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _event_entry(session: Session, kind: str, entry: dict) -> dict:
    """Check a deal-miss or all-pass record: who dealt, who showed the hand, the fine."""
    seats = session.seats
    problems = []
    dealer = entry.get("dealer")
    if dealer not in seats:
        problems.append(Problem("dealer", "unknown_seat", _("Say who dealt: one of the seats.")))
    cleaned = {"dealer": dealer}
    if kind == Hand.DEAL_MISS:
        shown_by = entry.get("shown_by")
        if shown_by not in seats:
            problems.append(Problem("shown_by", "unknown_seat", _("Say who showed the hand: one of the seats.")))
        fine = entry.get("fine", session.system_options.get("deal_miss", {}).get("fine", 0))
        if isinstance(fine, bool) or not isinstance(fine, int) or fine < 0:
            problems.append(Problem("fine", "bad_type", _("The fine must be a whole number, 0 or more.")))
            fine = 0
        cleaned |= {"shown_by": shown_by, "fine": fine}
        if entry.get("cards"):
            cleaned["cards"] = entry["cards"]
            problems += _deal_miss_cards_problems(session, entry["cards"])
    if problems:
        raise InvalidInput(problems)
    return cleaned


def _deal_miss_cards_problems(session: Session, cards) -> list[Problem]:
    """When the shown hand is entered, it must really qualify under the session's system."""
    from scoring.redeal import redeal_response

    try:
        verdict = redeal_response({
            "system": session.preset, "options": session.system_options,
            "players": session.system_options["players"], "hand": cards,
        })
    except InvalidInput as error:
        return [Problem(f"cards{p.field.removeprefix('hand')}", p.code, p.message) for p in error.problems]
    if not verdict["qualifies"]:
        return [Problem("cards", "not_a_deal_miss", _("This hand does not qualify for a deal miss under this system."))]
    return []


def _ledger_entry(session: Session, hand: Hand) -> LedgerEntry:
    if hand.kind == Hand.SCORED:
        entry = hand.entry
        declarer = entry["declarer"]
        partners = entry.get("partners", [])
        out = set(entry.get("sitting_out", []))
        defenders = [s for s in session.seats if s not in out and s != declarer and s not in partners]
        return entry_from_result(hand.result, declarer, partners, defenders)
    if hand.kind == Hand.DEAL_MISS:
        return LedgerEntry("deal_miss", {}, fine=hand.entry.get("fine", 0), dealer=hand.entry.get("dealer"))
    return LedgerEntry("all_pass", {})


def _replay(session: Session) -> None:
    """Recompute every live hand's payments, running totals and pot, in order."""
    hands = list(session.hands.live().in_order())
    steps = replay(session.seats, (_ledger_entry(session, hand) for hand in hands))
    changed = []
    for hand, step in zip(hands, steps, strict=True):
        if (hand.payments, hand.running_totals, hand.pot_after) != (step.payments, step.totals, step.pot):
            hand.payments, hand.running_totals, hand.pot_after = step.payments, step.totals, step.pot
            changed.append(hand)
    Hand.objects.bulk_update(changed, ["payments", "running_totals", "pot_after"])
    session.totals = steps[-1].totals if steps else dict.fromkeys(session.seats, 0)
    session.pot = steps[-1].pot if steps else 0
    session.revision += 1
    session.save(update_fields=["totals", "pot", "revision"])


def _locked(session: Session) -> Session:
    """The session as it is now, its row locked until commit: hands are numbered and summed one at a time.

    A session deleted meanwhile (or not of its group) takes no more hands: Session.DoesNotExist.
    """
    locked = rows.fetch_one(
        Session, "id = %s AND group_id = %s AND deleted_at IS NULL", [session.pk, session.group_id], lock=True
    )
    if locked is None:
        raise Session.DoesNotExist(f"session {session.pk} is not a live session of group {session.group_id}")
    return locked


def hand_snapshot(hand: Hand) -> dict:
    return {"number": hand.number, "kind": hand.kind, "entry": hand.entry, "result": hand.result,
            "version": hand.version, "deleted": hand.deleted_at is not None}


def hand_record(
    *,
    session: Session,
    entry: dict,
    kind: str = Hand.SCORED,
    idempotency_key: str | None = None,
    by: Actor = SYSTEM,
) -> tuple[Hand, bool]:
    """Save a hand or event as the session's next number; returns (hand, created).

    The hand is scored from the session as the caller read it, and written only
    if the session is still at that revision and live (compare-and-swap on
    Session.revision, in the same statement as the inserts on PostgreSQL). So no
    row lock is held while a hand is scored, and the usual case costs one write.
    If another hand landed in between, the session's row is locked, read again
    and the hand numbered after the other one. A session deleted meanwhile takes
    no hand: Session.DoesNotExist.

    The same idempotency key with the same body returns the first hand; with a
    different body it is a conflict.
    """
    fingerprint = _fingerprint(kind, entry)
    # the system and seats are frozen with the session: scoring never waits for the row
    if kind == Hand.SCORED:
        result = score_request(hand_request(session, entry))
        stored_entry = {k: v for k, v in entry.items() if k not in ("system", "options", "seats")}
    elif kind in (Hand.DEAL_MISS, Hand.ALL_PASS):
        result, stored_entry = None, _event_entry(session, kind, entry)
    else:
        raise _invalid("kind", "bad_kind", _("A record is a hand, a deal miss or an all-pass."))

    def append(current: Session) -> tuple[Hand, bool] | None:
        if idempotency_key:
            earlier = current.hands.filter(idempotency_key=idempotency_key).first()
            if earlier is not None:
                if earlier.request_fingerprint != fingerprint:
                    raise IdempotencyConflict(idempotency_key)
                return earlier, False
        hand = Hand(
            session=current, number=current.hand_count + 1, kind=kind, entry=stored_entry, result=result,
            idempotency_key=idempotency_key or None, request_fingerprint=fingerprint,
        )
        # appending costs one ledger step from the session's stored totals, not a replay
        (step,) = replay(current.seats, [_ledger_entry(current, hand)], totals=current.totals, pot=current.pot)
        hand.payments, hand.running_totals, hand.pot_after = step.payments, step.totals, step.pot
        read_at = current.revision
        current.hand_count, current.totals, current.pot = hand.number, step.totals, step.pot
        current.revision += 1
        revision = _revision(session=current, subject="hand", action=Revision.CREATED, by=by,
                             after=hand_snapshot(hand))
        if rows.insert_if_updated(hand, revision, "hand", update_of=current,
                                  names=("hand_count", "totals", "pot", "revision"),
                                  only_if="revision = %s AND deleted_at IS NULL", params=[read_at]):
            return hand, True
        return None

    recorded = append(copy.copy(session))
    if recorded is None:
        with transaction.atomic():
            # the row is this request's until commit, so this time the write lands
            recorded = append(_locked(session))
    return recorded


@transaction.atomic
def hand_amend(*, hand: Hand, entry: dict, version: int, by: Actor = SYSTEM) -> Hand:
    """Replace a hand's entry; a stale version is refused so two phones never overwrite each other."""
    session = _locked(hand.session)
    current = Hand.objects.get(pk=hand.pk)
    if current.version != version:
        raise StaleVersion(current)
    before = hand_snapshot(current)
    if current.kind == Hand.SCORED:
        current.result = score_request(hand_request(session, entry))
        current.entry = {k: v for k, v in entry.items() if k not in ("system", "options", "seats")}
    else:
        current.entry = _event_entry(session, current.kind, entry)
    current.request_fingerprint = _fingerprint(current.kind, current.entry)
    current.version += 1
    current.save()
    _replay(session)
    current.refresh_from_db()
    _revise(session=session, hand=current, subject="hand", action=Revision.AMENDED,
            by=by, before=before, after=hand_snapshot(current))
    return current


def _hand_set_deleted(hand: Hand, *, deleted: bool, by: Actor) -> Hand:
    """Soft-delete or restore a hand; the totals after it are replayed and a revision kept."""
    session = _locked(hand.session)
    current = Hand.objects.get(pk=hand.pk)
    before = hand_snapshot(current)
    current.deleted_at = timezone.now() if deleted else None
    current.version += 1
    current.save(update_fields=["deleted_at", "version", "updated_at"])
    _replay(session)
    current.refresh_from_db()
    _revise(session=session, hand=current, subject="hand",
            action=Revision.DELETED if deleted else Revision.RESTORED,
            by=by, before=before, after=hand_snapshot(current))
    return current


@transaction.atomic
def hand_delete(*, hand: Hand, by: Actor = SYSTEM) -> Hand:
    return _hand_set_deleted(hand, deleted=True, by=by)


@transaction.atomic
def hand_restore(*, hand: Hand, by: Actor = SYSTEM) -> Hand:
    return _hand_set_deleted(hand, deleted=False, by=by)
