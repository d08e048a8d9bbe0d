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

from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.interface import score_hand
from scoring.ledger import LedgerEntry, replay
from scoring.presets import get_preset
from scoring.problems import InvalidInput, Problem
from scoring.systems import system_as_options
from scoring.words import as_message

from .live import session_changed
from .models import Contract, Group, Hand, Player, Revision, Session, new_token


class StaleVersion(Exception):
    """The hand changed since the client read it; carries the current hand."""

    def __init__(self, hand: Hand):
        super().__init__(f"hand {hand.number} is at version {hand.version}")
        self.hand = hand


class IdempotencyConflict(Exception):
    """The same idempotency key was sent before with a different body."""


class SessionGone(Http404):
    """The session was deleted (or is not of its group) while a write waited for it.

    An expected race, not a bug: pages answer it with their 404 page and the
    API with a 404 in the error shape, and nothing is half-written.
    """

    def __init__(self):
        super().__init__(_("This session was deleted meanwhile; nothing was saved."))


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


def _announce(session: Session, what: str) -> None:
    """Every phone at the table hears of the change once this transaction commits."""
    session_changed(session_id=session.pk, group_id=session.group_id, revision=session.revision, what=what)


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


@transaction.atomic
def group_rotate_link(*, group: Group, which: str, by: Actor = SYSTEM) -> Group:
    """A new edit or view token; the old link stops working at once."""
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
    _announce(session, "session_deleted")
    return _set_deleted(session, deleted=True, subject="session", group=session.group, session=session, by=by)


@transaction.atomic
def session_restore(*, session: Session, by: Actor = SYSTEM) -> Session:
    _announce(session, "session_restored")
    return _set_deleted(session, deleted=False, subject="session", group=session.group, session=session, by=by)


# --- hands ------------------------------------------------------------------------


def hand_request(session: Session, entry: dict) -> dict:
    """The HAND_JSON request the engine sees: the session's seats and frozen system always win."""
    return {**entry, "system": session.preset, "options": session.system_options, "seats": session.seats}


def hand_preview(*, session: Session, entry: dict) -> dict:
    """Score without saving (the live preview); InvalidInput when illegal."""
    return scored_hand(session, entry).result


@dataclass(frozen=True)
class ScoredHand:
    """What a scored hand stores: the HAND_JSON result, its sentences and its sides."""

    result: dict
    explanation: list
    sides: dict
    entry: dict


def scored_hand(session: Session, entry: dict) -> ScoredHand:
    """Score an entry under the session's frozen system; InvalidInput when illegal."""
    scored = score_hand(hand_request(session, entry))
    return ScoredHand(
        result=scored.as_json(),
        explanation=[as_message(line) for line in scored.explanation],
        sides={"declarers": list(scored.declarers), "defenders": list(scored.defenders),
               "winners": list(scored.winners)},
        entry={k: v for k, v in entry.items() if k not in ("system", "options", "seats")},
    )


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


def hand_ledger_entry(hand: Hand) -> LedgerEntry:
    """What a stored hand changes in the ledger: its payments, and who takes the pot."""
    if hand.kind == Hand.SCORED:
        return LedgerEntry("scored", dict(hand.result["payments"]), tuple(hand.sides["winners"]))
    if hand.kind == Hand.DEAL_MISS:
        return LedgerEntry("deal_miss", {}, fine=hand.entry.get("fine", 0), dealer=hand.entry.get("dealer"))
    return LedgerEntry("all_pass", {})


def _replay(session: Session) -> None:
    """Recompute every live hand's payments, running totals and pot, in order."""
    hands = list(session.hands.live().in_order())
    steps = replay(session.seats, (hand_ledger_entry(hand) for hand in hands))
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

    A session deleted meanwhile (or not of its group) takes no more hands: SessionGone.
    """
    try:
        return Session.objects.live().select_for_update().get(pk=session.pk, group_id=session.group_id)
    except Session.DoesNotExist:
        raise SessionGone from None


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
    no hand: SessionGone.

    The same idempotency key with the same body returns the first hand; with a
    different body it is a conflict.
    """
    fingerprint = _fingerprint(kind, entry)
    # the system and seats are frozen with the session: scoring never waits for the row
    if kind == Hand.SCORED:
        scored = scored_hand(session, entry)
        stored_entry, result, explanation, sides = scored.entry, scored.result, scored.explanation, scored.sides
    elif kind in (Hand.DEAL_MISS, Hand.ALL_PASS):
        result, explanation, sides = None, [], {}
        stored_entry = _event_entry(session, kind, entry)
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
            explanation=explanation, sides=sides,
            idempotency_key=idempotency_key or None, request_fingerprint=fingerprint,
        )
        # appending costs one ledger step from the session's stored totals, not a replay
        (step,) = replay(current.seats, [hand_ledger_entry(hand)], totals=current.totals, pot=current.pot)
        hand.payments, hand.running_totals, hand.pot_after = step.payments, step.totals, step.pot
        read_at = current.revision
        current.hand_count, current.totals, current.pot = hand.number, step.totals, step.pot
        current.revision += 1
        with transaction.atomic():
            # compare-and-swap: the session moves on only from the revision the hand was scored against
            moved = Session.objects.live().filter(pk=current.pk, revision=read_at).update(
                hand_count=current.hand_count, totals=current.totals, pot=current.pot, revision=current.revision,
            )
            if not moved:
                return None
            hand.save(force_insert=True)
            _revise(session=current, hand=hand, subject="hand", action=Revision.CREATED, by=by,
                    after=hand_snapshot(hand))
            _announce(current, "hand_recorded")
        return hand, True

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
        scored = scored_hand(session, entry)
        current.entry, current.result = scored.entry, scored.result
        current.explanation, current.sides = scored.explanation, scored.sides
    else:
        current.entry = _event_entry(session, current.kind, entry)
    current.request_fingerprint = _fingerprint(current.kind, current.entry)
    current.version += 1
    current.save()
    _replay(session)
    current.refresh_from_db()
    _revise(session=session, hand=current, subject="hand", action=Revision.AMENDED,
            by=by, before=before, after=hand_snapshot(current))
    _announce(session, "hand_amended")
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
    _announce(session, "hand_deleted" if deleted else "hand_restored")
    return current


@transaction.atomic
def hand_delete(*, hand: Hand, by: Actor = SYSTEM) -> Hand:
    return _hand_set_deleted(hand, deleted=True, by=by)


@transaction.atomic
def hand_restore(*, hand: Hand, by: Actor = SYSTEM) -> Hand:
    return _hand_set_deleted(hand, deleted=False, by=by)


# --- payments -------------------------------------------------------------------------


def payment_unit(session: Session) -> str:
    """What a session's settlement counts, so what its payments count: money, chips or points."""
    from .models import Payment

    if session.stake_per_point is not None:
        return Payment.MONEY
    if session.chips_start is not None:
        return Payment.CHIPS
    return Payment.POINTS


def _payments_moved_on(session: Session) -> None:
    # pages that show what is owed (the group's balance) are stamped with the sessions' revisions
    Session.objects.filter(pk=session.pk).update(revision=F("revision") + 1)
    session.refresh_from_db(fields=["revision"])
    _announce(session, "payments_changed")


def _payment_snapshot(payment) -> dict:
    return {"payer": payment.payer, "payee": payment.payee, "amount": str(payment.amount),
            "unit": payment.unit, "currency": payment.currency, "undone": payment.undone_at is not None}


@transaction.atomic
def payment_record(*, session: Session, payer: str, payee: str, amount: Decimal, by: Actor = SYSTEM):
    """Mark one transfer of the settlement as paid; the row and a revision say who marked it.

    Payments never change a session's totals: they settle them, so the group's
    balance (what is still owed across sessions) goes down.
    """
    from .models import Payment

    problems = []
    seats = session.seats
    if payer not in seats:
        problems.append(Problem("payer", "unknown_seat", _("Say who paid: one of the seats.")))
    if payee not in seats:
        problems.append(Problem("payee", "unknown_seat", _("Say who was paid: one of the seats.")))
    if payer == payee and payer in seats:
        problems.append(Problem("payee", "same_seat", _("A player cannot pay themselves.")))
    if not isinstance(amount, Decimal) or not amount.is_finite() or amount <= 0:
        problems.append(Problem("amount", "not_positive", _("The amount must be more than 0.")))
    elif amount >= Decimal(10) ** 10 or amount != amount.quantize(Decimal("0.01")):
        problems.append(Problem("amount", "bad_amount", _("The amount can have at most 10 digits and 2 decimals.")))
    if problems:
        raise InvalidInput(problems)
    unit = payment_unit(session)
    _payments_moved_on(session)
    payment = Payment.objects.create(
        group_id=session.group_id, session=session, payer=payer, payee=payee, amount=amount, unit=unit,
        currency=session.currency if unit == Payment.MONEY else "", by=by.label,
    )
    _revise(session=session, subject="payment", action=Revision.CREATED, by=by, after=_payment_snapshot(payment))
    return payment


@transaction.atomic
def payment_undo(*, payment, by: Actor = SYSTEM):
    """Take a payment back (marked by mistake); the row stays, undone, with a revision."""
    from .models import Payment

    current = Payment.objects.select_for_update().get(pk=payment.pk)
    if current.undone_at is not None:
        raise _invalid("payment", "already_undone", _("This payment was already undone."))
    before = _payment_snapshot(current)
    _payments_moved_on(current.session)
    current.undone_at = timezone.now()
    current.save(update_fields=["undone_at"])
    _revise(session=current.session, subject="payment", action=Revision.DELETED, by=by,
            before=before, after=_payment_snapshot(current))
    return current


# --- the hand in progress ---------------------------------------------------------------

# the HAND_JSON fields known when the auction ends; partners, discards and points come after the last trick
CONTRACT_FIELDS = ("dealer", "sitting_out", "declarer", "bid", "contract", "partner_call")


class ContractInProgress(Exception):
    """The session already has a hand in progress (another phone opened it); carries it."""

    def __init__(self, contract):
        super().__init__(f"session {contract.session_id} already plays contract {contract.pk}")
        self.contract = contract


class StaleContract(Exception):
    """The hand in progress was completed, thrown in or changed since it was read; carries it as it is now."""

    def __init__(self, contract):
        super().__init__(f"contract {contract.pk} is {contract.status} at version {contract.version}")
        self.contract = contract


def contract_snapshot(contract) -> dict:
    return {"status": contract.status, "entry": contract.entry, "version": contract.version,
            "hand": contract.hand.number if contract.hand_id else None}


def _stand_in_partners(session: Session, entry: dict, system) -> list[str]:
    """Who plays as partner when the outlook is worked out: the called player, nobody when the
    declarer plays alone, and otherwise the next active seat clockwise, standing in for the
    partner no one knows yet (every partner wins or loses the same)."""
    call = entry.get("partner_call") if isinstance(entry.get("partner_call"), dict) else {}
    if system.always_alone or call.get("type") == "none":
        return []
    if call.get("type") == "player":
        return [call["seat"]] if call.get("seat") in session.seats else []
    declarer, out = entry.get("declarer"), entry.get("sitting_out") or []
    if declarer not in session.seats:
        return []
    at = session.seats.index(declarer)
    clockwise = session.seats[at + 1:] + session.seats[:at]
    return [seat for seat in clockwise if seat not in out][:1]


def contract_outlook(*, session: Session, entry: dict) -> dict:
    """What the declarer, a partner and a defender win or lose at each count of points the
    declarer's team may take, as the engine scores it; InvalidInput when the contract is illegal.

    Counts that pay the same are one row ("from", "to"). A partner's column is null when the
    declarer plays alone; "partner" names the partner when the call already says who it is.
    """
    from scoring.interface import hand_problems
    from scoring.systems import build_system

    system = build_system(session.system_options)
    partners = _stand_in_partners(session, entry, system)
    contract = entry.get("contract") if isinstance(entry.get("contract"), dict) else {}
    trial = {**{k: entry[k] for k in CONTRACT_FIELDS if k in entry}, "partners": partners,
             "points": contract.get("points") if isinstance(contract.get("points"), int) else 0}
    # only the contract is known: what the engine says about the partners and points is not the table's yet
    _, _, problems = hand_problems(hand_request(session, trial))
    problems = [p for p in problems if p.field.split(".")[0].split("[")[0] in (*CONTRACT_FIELDS, "seats", "")]
    if problems:
        raise InvalidInput(problems)
    declarer = entry["declarer"]
    defender = next(s for s in session.seats if s not in (declarer, *partners, *(entry.get("sitting_out") or [])))
    rows: list[dict] = []
    for points in range(system.total_points + 1):
        try:
            result = hand_preview(session=session, entry={**trial, "points": points})
        except InvalidInput:
            continue
        payments = result["payments"]
        row = {"from": points, "to": points, "made": result["made"], "declarer": payments[declarer],
               "partner": payments[partners[0]] if partners else None, "defender": payments[defender]}
        last = rows[-1] if rows else None
        if last and last["to"] == points - 1 and all(last[k] == row[k] for k in ("made", "declarer", "partner", "defender")):
            last["to"] = points
        else:
            rows.append(row)
    call = entry.get("partner_call") or {}
    known = system.always_alone or call.get("type") in ("none", "player")
    return {"partner": partners[0] if partners and known else None, "alone": not partners,
            "total": system.total_points, "rows": rows}


def _in_progress_moved_on(session: Session) -> None:
    """Every change to the hand in progress moves the session's revision on, so cached boards
    show it at once; the session's row is this transaction's (``_locked``)."""
    session.revision += 1
    session.save(update_fields=["revision"])
    _announce(session, "contract_changed")


def _contract_key_replayed(contract, key: str | None, fingerprint: str) -> bool:
    """True when this request already closed the contract (a retry); a key reused for another body is refused."""
    if not key or contract.closed_key != key:
        return False
    if contract.closed_fingerprint != fingerprint:
        raise IdempotencyConflict(key)
    return True


def _contract_close(contract, *, status: str, by: Actor, session: Session, hand: Hand | None = None,
                    key: str | None = None, fingerprint: str = "") -> None:
    before = contract_snapshot(contract)
    contract.status, contract.hand, contract.closed_at = status, hand, timezone.now()
    contract.closed_key, contract.closed_fingerprint = key or "", fingerprint if key else ""
    contract.version += 1
    contract.save(update_fields=["status", "hand", "closed_at", "closed_key", "closed_fingerprint", "version"])
    _revise(session=session, hand=hand, subject="contract", by=by, before=before, after=contract_snapshot(contract),
            action=Revision.AMENDED if status == contract.COMPLETED else Revision.DELETED)


def contract_open(
    *,
    session: Session,
    entry: dict,
    replacing: int | None = None,
    idempotency_key: str | None = None,
    by: Actor = SYSTEM,
) -> tuple[Contract, bool]:
    """Record the hand in progress when the auction ends; returns (contract, created).

    A session plays one hand at a time: when another phone has opened one, this
    raises ContractInProgress with it, unless ``replacing`` names exactly that
    one, which is then thrown in. The same idempotency key with the same body
    returns the first contract.
    """
    stored = {key: entry[key] for key in CONTRACT_FIELDS if key in entry}
    fingerprint = _fingerprint("contract", stored)
    outlook = contract_outlook(session=session, entry=stored)  # scored before any row is locked
    for attempt in (1, 2):
        try:
            with transaction.atomic():
                current = _locked(session)
                if idempotency_key:
                    earlier = current.contracts.filter(idempotency_key=idempotency_key).first()
                    if earlier is not None:
                        if earlier.request_fingerprint != fingerprint:
                            raise IdempotencyConflict(idempotency_key)
                        return earlier, False
                playing = current.contracts.open().first()
                if playing is not None:
                    if replacing is None or playing.pk != replacing:
                        raise ContractInProgress(playing)
                    _contract_close(playing, status=Contract.ABANDONED, by=by, session=current)
                contract = Contract.objects.create(
                    session=current, entry=stored, outlook=outlook,
                    idempotency_key=idempotency_key or None, request_fingerprint=fingerprint,
                )
                _revise(session=current, subject="contract", action=Revision.CREATED, by=by,
                        after=contract_snapshot(contract))
                _in_progress_moved_on(current)
                return contract, True
        except IntegrityError:
            # the unique indexes saw a second open contract (or key) that the lock did not keep out,
            # as without a row lock on SQLite: read again, and answer as if it had been seen first
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


@transaction.atomic
def contract_complete(
    *,
    contract: Contract,
    result: dict,
    version: int | None = None,
    idempotency_key: str | None = None,
    by: Actor = SYSTEM,
) -> tuple[Contract, bool]:
    """The last trick is played: record the hand (the contract plus ``result``: partners,
    points, discards…) through hand_record, as the session's next number; returns (contract, replayed).

    Fields of ``result`` that the contract also has (a corrected declarer, say) win.
    A contract completed or thrown in meanwhile, or at another ``version``, raises StaleContract.
    """
    fingerprint = _fingerprint("complete", result)
    session = _locked(contract.session)
    current = Contract.objects.select_for_update(of=("self",)).select_related("hand").get(pk=contract.pk)
    if current.status == Contract.COMPLETED and _contract_key_replayed(current, idempotency_key, fingerprint):
        return current, True
    if current.status != Contract.OPEN or (version is not None and version != current.version):
        raise StaleContract(current)
    hand, _ = hand_record(session=session, entry={**current.entry, **result}, by=by)
    _contract_close(current, status=Contract.COMPLETED, by=by, session=session, hand=hand,
                    key=idempotency_key, fingerprint=fingerprint)
    session.refresh_from_db(fields=["revision"])  # hand_record moved it on
    _in_progress_moved_on(session)
    return current, False


@transaction.atomic
def contract_abandon(
    *,
    contract: Contract,
    version: int | None = None,
    idempotency_key: str | None = None,
    by: Actor = SYSTEM,
) -> tuple[Contract, bool]:
    """Throw the hand in progress in: nothing is scored; returns (contract, replayed)."""
    fingerprint = _fingerprint("abandon", {})
    session = _locked(contract.session)
    current = Contract.objects.select_for_update(of=("self",)).select_related("hand").get(pk=contract.pk)
    if current.status == Contract.ABANDONED and _contract_key_replayed(current, idempotency_key, fingerprint):
        return current, True
    if current.status != Contract.OPEN or (version is not None and version != current.version):
        raise StaleContract(current)
    _contract_close(current, status=Contract.ABANDONED, by=by, session=session,
                    key=idempotency_key, fingerprint=fingerprint)
    _in_progress_moved_on(session)
    return current, False
