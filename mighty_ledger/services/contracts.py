"""The hand in progress: the contract known when the auction ends, completed or thrown in later.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from mighty_ledger.http.request_keys import (
    abandon_scope,
    completion_scope,
    contract_scope,
    key_made,
)
from mighty_ledger.models import Contract, Hand, Revision, Session
from mighty_ledger.reads import hand_request, playing_now
from mighty_ledger.services.changes import (
    SYSTEM,
    Actor,
    Meant,
    announce,
    fingerprint_of,
    locked,
    made_before,
    revise,
)
from mighty_ledger.services.hands import (
    entry_as_kept,
    entry_as_sent,
    hand_preview,
    hand_record,
    refuse_saved_meanwhile,
)
from scoring.hand import CONTRACT_FIELDS
from scoring.interface import hand_problems
from scoring.problems import InvalidInput
from scoring.systems import system_from


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

    system = system_from(session.system_options)
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
    show it at once; the session's row is this transaction's (``locked``)."""
    session.revision += 1
    session.save(update_fields=["revision"])
    announce(session, "contract_changed")


def _closing_scope(contract, status: str) -> str:
    return completion_scope(contract.pk) if status == Contract.COMPLETED else abandon_scope(contract.pk)


def _contract_key_replayed(contract, key: str | None, fingerprint: str) -> bool:
    """True when this request already closed the contract as it is now (a retry); a key reused for
    another body is refused."""
    scope = _closing_scope(contract, contract.status)
    return made_before("contract", scope, key, fingerprint) is not None


def _contract_close(contract, *, status: str, by: Actor, session: Session, hand: Hand | None = None,
                    key: str | None = None, fingerprint: str = "") -> None:
    before = contract_snapshot(contract)
    contract.status, contract.hand, contract.closed_at = status, hand, timezone.now()
    contract.version += 1
    contract.save(update_fields=["status", "hand", "closed_at", "version"])
    key_made(scope=_closing_scope(contract, status), key=key, fingerprint=fingerprint, contract=contract)
    revise(session=session, hand=hand, subject="contract", by=by, before=before, after=contract_snapshot(contract),
            action=Revision.AMENDED if status == contract.COMPLETED else Revision.DELETED)


def contract_open(
    *,
    session: Session,
    entry: dict,
    replacing: int | None = None,
    idempotency_key: str | None = None,
    meant: Meant | None = None,
    by: Actor = SYSTEM,
) -> tuple[Contract, bool]:
    """Record the hand in progress when the auction ends; returns (contract, created).

    A session plays one hand at a time: when another phone has opened one, this
    raises ContractInProgress with it, unless ``replacing`` names exactly that
    one, which is then thrown in. The same idempotency key with the same body
    returns the first contract. A form that says which hand it ``meant`` is asked
    about (SavedMeanwhile) when another phone has saved that hand since.
    """
    sent = {key: value for key, value in entry_as_sent(entry).items() if key in CONTRACT_FIELDS}
    outlook = contract_outlook(session=session, entry=sent)  # scored before any row is locked
    stored = entry_as_kept(sent)
    fingerprint = fingerprint_of("contract", stored)
    for attempt in (1, 2):
        try:
            with transaction.atomic():
                current = locked(session)
                if (earlier := made_before("contract", contract_scope(current.pk), idempotency_key,
                                           fingerprint)) is not None:
                    return earlier, False
                # only the number: a contract has no points yet to be the same hand as one saved
                refuse_saved_meanwhile(current, meant and Meant(number=meant.number), likeness=None)
                playing = playing_now(current)
                if playing is not None:
                    if replacing is None or playing.pk != replacing:
                        raise ContractInProgress(playing)
                    _contract_close(playing, status=Contract.ABANDONED, by=by, session=current)
                contract = Contract.objects.create(session=current, entry=stored, outlook=outlook)
                key_made(scope=contract_scope(current.pk), key=idempotency_key, fingerprint=fingerprint,
                         contract=contract)
                revise(session=current, subject="contract", action=Revision.CREATED, by=by,
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
    meant: Meant | None = None,
    by: Actor = SYSTEM,
) -> tuple[Contract, bool]:
    """The last trick is played: record the hand (the contract plus ``result``: partners,
    points, discards…) through hand_record, as the session's next number; returns (contract, replayed).

    Fields of ``result`` that the contract also has (a corrected declarer, say) win.
    A contract completed or thrown in meanwhile, or at another ``version``, raises StaleContract.
    """
    fingerprint = fingerprint_of("complete", result)
    session = locked(contract.session)
    current = Contract.objects.select_for_update(of=("self",)).select_related("hand").get(pk=contract.pk)
    if current.status == Contract.COMPLETED and _contract_key_replayed(current, idempotency_key, fingerprint):
        return current, True
    if current.status != Contract.OPEN or (version is not None and version != current.version):
        raise StaleContract(current)
    # the key is the hand's too: a phone that sends the same hand again by the API gets this one
    hand, _ = hand_record(session=session, entry={**current.entry, **result}, idempotency_key=idempotency_key,
                          meant=meant, by=by)
    _contract_close(current, status=Contract.COMPLETED, by=by, session=session, hand=hand,
                    key=idempotency_key, fingerprint=fingerprint)
    session.refresh_from_db(fields=["revision"])  # hand_record moved it on
    _in_progress_moved_on(session)
    return current, False


def hand_enter(
    *,
    session: Session,
    entry: dict,
    in_progress: int | None = None,
    meant: Meant | None = None,
    idempotency_key: str | None = None,
    by: Actor = SYSTEM,
) -> Hand:
    """A hand as the table enters it after the last trick: it completes the hand in progress it
    was begun from (``in_progress``, a contract's id) while that is still being played, and is
    otherwise recorded as the session's next hand. Either way the hand ``meant`` is checked as
    it lands: SavedMeanwhile when another phone saved it first, however that phone saved it."""
    contract = session.contracts.open().filter(pk=in_progress).first() if in_progress else None
    if contract is not None:
        try:
            completed, _ = contract_complete(contract=contract, result=entry, meant=meant,
                                             idempotency_key=idempotency_key, by=by)
            return completed.hand
        except StaleContract:
            pass  # completed or thrown in a moment ago: whether that was this hand is asked below
    hand, _ = hand_record(session=session, entry=entry, idempotency_key=idempotency_key, meant=meant, by=by)
    return hand


@transaction.atomic
def contract_abandon(
    *,
    contract: Contract,
    version: int | None = None,
    idempotency_key: str | None = None,
    by: Actor = SYSTEM,
) -> tuple[Contract, bool]:
    """Throw the hand in progress in: nothing is scored; returns (contract, replayed)."""
    fingerprint = fingerprint_of("abandon", {})
    session = locked(contract.session)
    current = Contract.objects.select_for_update(of=("self",)).select_related("hand").get(pk=contract.pk)
    if current.status == Contract.ABANDONED and _contract_key_replayed(current, idempotency_key, fingerprint):
        return current, True
    if current.status != Contract.OPEN or (version is not None and version != current.version):
        raise StaleContract(current)
    _contract_close(current, status=Contract.ABANDONED, by=by, session=session,
                    key=idempotency_key, fingerprint=fingerprint)
    _in_progress_moved_on(session)
    return current, False
