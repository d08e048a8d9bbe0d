"""Hands and events: scored, appended with a compare-and-swap on the session's
revision, amended, deleted and restored, with the running totals replayed.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from mighty_ledger.http.request_keys import hand_scope, key_made
from mighty_ledger.models import Hand, Revision, Session
from mighty_ledger.reads import hand_ledger_entry, hand_request
from mighty_ledger.services.changes import (
    SYSTEM,
    Actor,
    Meant,
    SavedMeanwhile,
    StaleVersion,
    announce,
    fingerprint_of,
    invalid,
    locked,
    made_before,
    revise,
    revision_row,
)
from mighty_ledger.services.groups import name_normalised
from scoring.hand import entry_as_kept, entry_as_sent, written_whole
from scoring.interface import score_hand
from scoring.ledger import replay
from scoring.problems import InvalidInput, Problem
from scoring.words import as_message


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


def seats_matched(session: Session, entry: dict) -> dict:
    """The entry with every name that is a seat's, spelt another way (NFC or not, spaces), spelt as the seat.

    Names are normalised when players are added (groups.name_normalised), so a
    client that sends "Á" decomposed still names the player seated as "Á".
    """
    seats = {name_normalised(seat): seat for seat in session.seats}

    def matched(value):
        if isinstance(value, str):
            return seats.get(name_normalised(value), value) if len(value) <= 200 else value
        if isinstance(value, dict):
            return {matched(key): matched(item) for key, item in value.items()}
        if isinstance(value, list):
            return [matched(item) for item in value]
        return value

    return matched(entry)


# a hand as entered is well under 1 KB; what a client adds beside it is kept, up to this much
ENTRY_MAX_BYTES = 8 * 1024


def _refuse_oversized(entry: dict) -> None:
    size = len(json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode())
    if size > ENTRY_MAX_BYTES:
        raise invalid("", "too_large", _("A hand can hold at most {limit} KB; this one holds {size} KB.").format(
            limit=ENTRY_MAX_BYTES // 1024, size=-(-size // 1024)))


# calls whose partner only the play reveals: the table must say who it was, or that there was none
CALLS_ANSWERED_AT_THE_END = ("card", "first_trick")


def _refuse_unanswered_partner(entry: dict) -> None:
    """A called card (or the first trick) makes a partner only the table can name: a hand that
    names nobody and does not say "declarer alone" (``partners: []``) is asked about, never
    scored as a solo. A void hand is not scored, so its partner may stay unknown."""
    call = entry.get("partner_call")
    if not isinstance(call, dict) or call.get("type") not in CALLS_ANSWERED_AT_THE_END:
        return
    if "partners" in entry or entry.get("outcome") == "void":
        return
    if call.get("type") == "first_trick":
        question = _("Who won the first trick? Name the partner, "
                     "or say the declarer played alone (partners: []).")
    else:
        question = _("Who held the called card? Name the partner, "
                     "or say the declarer played alone (partners: []).")
    raise invalid("partners", "partner_unanswered", question)


def scored_hand(session: Session, entry: dict) -> ScoredHand:
    """Score an entry under the session's frozen system; InvalidInput when illegal."""
    entry = entry_as_sent(entry)
    _refuse_oversized(entry)
    _refuse_unanswered_partner(entry)
    entry = seats_matched(session, entry)
    scored = score_hand(hand_request(session, entry))
    return ScoredHand(
        result=scored.as_json(),
        explanation=[as_message(line) for line in scored.explanation],
        sides={"declarers": list(scored.declarers), "defenders": list(scored.defenders),
               "winners": list(scored.winners)},
        entry=written_whole(entry_as_kept({k: v for k, v in entry.items()
                                           if k not in ("system", "options", "seats")})),
    )


def _event_entry(session: Session, kind: str, entry: dict) -> dict:
    """Check a deal-miss or all-pass record: who dealt, who showed the hand, the fine."""
    seats = session.seats
    problems = []
    entry = seats_matched(session, entry)
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


def hand_fingerprint(*, session: Session, entry: dict, kind: str = Hand.SCORED) -> str:
    """What a repeated request is compared by: the hand as it would be stored, however it was sent
    (the form or the API, with or without the seats and system the session fixes)."""
    if kind == Hand.SCORED:
        stored = {k: v for k, v in seats_matched(session, entry_as_kept(entry)).items()
                  if k not in ("system", "options", "seats")}
    elif kind in (Hand.DEAL_MISS, Hand.ALL_PASS):
        stored = _event_entry(session, kind, entry)
    else:
        raise invalid("kind", "bad_kind", _("A record is a hand, a deal miss or an all-pass."))
    return fingerprint_of(kind, stored)


def _replay(session: Session) -> None:
    """Recompute every live hand's payments, running totals and pot, in order.

    The hands already recorded may change here, so the session's ``replays`` moves on:
    statistics counted hand by hand (mighty_ledger/reads/kept_counts.py) count it again."""
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
    session.replays += 1
    session.save(update_fields=["totals", "pot", "revision", "replays"])


def hand_snapshot(hand: Hand) -> dict:
    return {"number": hand.number, "kind": hand.kind, "entry": hand.entry, "result": hand.result,
            "version": hand.version, "deleted": hand.deleted_at is not None}


def hand_likeness(kind: str, entry: dict, result: dict | None) -> tuple:
    """What makes two records the same hand at the table: who declared what, with whom, and what
    it paid (a deal miss: who dealt and who showed it). Two phones entering one hand agree on
    these, even when one of them also noted the discards or counted the defenders' points."""
    if kind != Hand.SCORED:
        return kind, entry.get("dealer"), entry.get("shown_by")
    payments = (result or {}).get("payments") or {}
    return (kind, entry.get("declarer"), json.dumps(entry.get("contract"), sort_keys=True),
            tuple(sorted(entry.get("partners") or ())), tuple(sorted(payments.items())))


def refuse_saved_meanwhile(current: Session, meant: Meant | None, likeness: tuple | None) -> None:
    """SavedMeanwhile when the hand meant is not the session's next, or when a hand saved since the
    form was opened is this very hand. ``current`` is the session as the write will find it: read
    under its lock, or at the revision a compare-and-swap will insist on."""
    if meant is None:
        return
    next_number = current.hand_count + 1
    if meant.number is not None and meant.number != next_number:
        there = (current.hands.filter(number=meant.number).first() if meant.number < next_number else None)
        raise SavedMeanwhile(there or current.hands.latest_first().first(), next_number)
    if likeness is not None and meant.seen is not None and meant.seen < current.hand_count:
        for hand in current.hands.live().filter(number__gt=meant.seen).order_by("number"):
            if hand_likeness(hand.kind, hand.entry, hand.result) == likeness:
                raise SavedMeanwhile(hand, next_number)


def hand_record(
    *,
    session: Session,
    entry: dict,
    kind: str = Hand.SCORED,
    idempotency_key: str | None = None,
    meant: Meant | None = None,
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
    different body it is a conflict. A write that says which hand it ``meant`` is refused with
    SavedMeanwhile when another phone saved that hand first (hand_likeness), decided against
    the session as the write lands, never as it was read before.
    """
    # the system and seats are frozen with the session: scoring never waits for the row
    if kind == Hand.SCORED:
        scored = scored_hand(session, entry)
        stored_entry, result, explanation, sides = scored.entry, scored.result, scored.explanation, scored.sides
    elif kind in (Hand.DEAL_MISS, Hand.ALL_PASS):
        result, explanation, sides = None, [], {}
        stored_entry = _event_entry(session, kind, entry)
    else:
        raise invalid("kind", "bad_kind", _("A record is a hand, a deal miss or an all-pass."))
    # what the hand says, not how it was sent: the seats and system the session fixes do not count
    fingerprint = fingerprint_of(kind, stored_entry)
    likeness = hand_likeness(kind, stored_entry, result)

    def append(current: Session, *, under_lock: bool) -> tuple[Hand, bool] | None:
        if (earlier := made_before("hand", hand_scope(current.pk), idempotency_key, fingerprint)) is not None:
            return earlier, False
        try:
            refuse_saved_meanwhile(current, meant, likeness)
        except SavedMeanwhile:
            if under_lock:
                raise
            return None  # the session as this request first read it may be old news: decide under the lock
        hand = Hand(
            session=current, number=current.hand_count + 1, kind=kind, entry=stored_entry, result=result,
            explanation=explanation, sides=sides,
        )
        # appending costs one ledger step from the session's stored totals, not a replay
        (step,) = replay(current.seats, [hand_ledger_entry(hand)], totals=current.totals, pot=current.pot)
        hand.payments, hand.running_totals, hand.pot_after = step.payments, step.totals, step.pot
        read_at = current.revision
        current.hand_count, current.totals, current.pot = hand.number, step.totals, step.pot
        current.revision += 1
        created = revision_row(session=current, hand=hand, subject="hand", action=Revision.CREATED, by=by,
                               after=hand_snapshot(hand))
        # compare-and-swap: the session moves on only from the revision the hand was scored against
        if not append_hand(current, read_at, hand, created, key=idempotency_key, fingerprint=fingerprint):
            return None
        announce(current, "hand_recorded")
        return hand, True

    recorded = append(copy.copy(session), under_lock=False)
    if recorded is None:
        with transaction.atomic():
            # the row is this request's until commit, so this time the write lands
            recorded = append(locked(session), under_lock=True)
    return recorded


def append_hand(session: Session, read_at: int, hand: Hand, revision: Revision, *,
                key: str | None = None, fingerprint: str = "") -> bool:
    """Write ``session``'s new hand_count, totals, pot and revision, ``hand`` and ``revision`` (the
    hand's "created"), and with a one-time ``key`` its row in the store of keys, only if the
    session is live and still at revision ``read_at`` (the compare-and-swap in the UPDATE's
    WHERE). False when it moved on or was deleted meanwhile, and nothing was written."""
    with transaction.atomic():
        moved = Session.objects.live().filter(pk=session.pk, revision=read_at).update(
            hand_count=session.hand_count, totals=session.totals, pot=session.pot, revision=session.revision,
        )
        if not moved:
            return False
        hand.save(force_insert=True)
        revision.hand = hand
        revision.save(force_insert=True)
        key_made(scope=hand_scope(session.pk), key=key, fingerprint=fingerprint, hand=hand)
    return True


@transaction.atomic
def hand_amend(*, hand: Hand, entry: dict, version: int, by: Actor = SYSTEM) -> Hand:
    """Replace a hand's entry; a stale version is refused so two phones never overwrite each other."""
    session = locked(hand.session)
    current = Hand.objects.get(pk=hand.pk)
    if current.version != version:
        raise StaleVersion(current)
    if current.kind == Hand.SCORE_SHEET:
        # its payments are all it has, as written on paper: there is no hand to score again
        raise invalid("kind", "score_sheet_hand", _(
            "A hand from the score sheet keeps its payments as written and cannot be edited: "
            "delete it and enter the hand instead."))
    before = hand_snapshot(current)
    if current.kind == Hand.SCORED:
        scored = scored_hand(session, entry)
        current.entry, current.result = scored.entry, scored.result
        current.explanation, current.sides = scored.explanation, scored.sides
    else:
        current.entry = _event_entry(session, current.kind, entry)
    # the key's fingerprint stays the recording request's: its Idempotency-Key still answers this hand
    current.version += 1
    current.save()
    _replay(session)
    current.refresh_from_db()
    revise(session=session, hand=current, subject="hand", action=Revision.AMENDED,
            by=by, before=before, after=hand_snapshot(current))
    announce(session, "hand_amended")
    return current


def _hand_set_deleted(hand: Hand, *, deleted: bool, version: int | None, by: Actor) -> Hand:
    """Soft-delete or restore a hand; the totals after it are replayed and a revision kept.

    A hand already in that state is answered as it is: nothing changes, no
    revision is written and its version stays (thirty phones deleting one hand
    at once delete it once). Otherwise a ``version`` given must be the hand's
    (StaleVersion), as for an edit.
    """
    session = locked(hand.session)
    current = Hand.objects.get(pk=hand.pk)
    if (current.deleted_at is not None) == deleted:
        return current
    if version is not None and current.version != version:
        raise StaleVersion(current)
    before = hand_snapshot(current)
    current.deleted_at = timezone.now() if deleted else None
    current.version += 1
    current.save(update_fields=["deleted_at", "version", "updated_at"])
    _replay(session)
    current.refresh_from_db()
    revise(session=session, hand=current, subject="hand",
            action=Revision.DELETED if deleted else Revision.RESTORED,
            by=by, before=before, after=hand_snapshot(current))
    announce(session, "hand_deleted" if deleted else "hand_restored")
    return current


@transaction.atomic
def hand_delete(*, hand: Hand, version: int | None = None, by: Actor = SYSTEM) -> Hand:
    return _hand_set_deleted(hand, deleted=True, version=version, by=by)


@transaction.atomic
def hand_restore(*, hand: Hand, version: int | None = None, by: Actor = SYSTEM) -> Hand:
    return _hand_set_deleted(hand, deleted=False, version=version, by=by)
