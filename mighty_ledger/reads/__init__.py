"""The read side: what a group, a session or a hand means, for pages and API alike.

Pages and the API both call these functions, so they can never disagree about
a session: the same totals, money, chips, transfers and next dealer. Each reads
what the services stored and asks ``scoring`` for the rest; none computes a
payment, a share of money, a rounding or a transfer itself (those are
``scoring.settle``'s), and no read scores a hand again.

This module holds the board's reads (a session, its rows, settlement, hands,
history, next dealer, the group overview); beside it: ``stats`` and
``kept_counts`` (statistics, counted hand by hand), ``ratings`` and ``seasons``,
``balance`` (what is still owed, and the payments marked), ``payees`` and
``pay_links`` (how players like to be paid), ``exports`` (a group's file and
spreadsheets), ``consistency`` (stored results against the engine), ``actors``,
``sheet_imports``, and what the faces pick or list: ``groups`` (players and
sessions), ``hands``, ``in_progress`` (contracts) and ``revisions``.

One module because the board's reads are one reading of the same rows: who deals next, the
settlement, the scoreboard and a new hand's step on it share the helpers that walk the latest
hands (``_previous``, ``_hand_before``, ``_board``); split apart, each would import the others'
private parts.

May import: the models, ``http`` and ``scoring``. Never the write side
(``services``) or a face (``pages``, ``api``): a read changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from django.db.models import Q

from mighty_ledger.models import Contract, Group, Hand, Night, Payment, Player, Revision, Session
from scoring.flow import PreviousHand, TableState, needs_the_hand_before, next_hand
from scoring.ledger import LedgerEntry
from scoring.settle import Settlement, Stakes, Transfer, hand_transfers, settle_session, to_money
from scoring.systems import System, system_from
from scoring.words import from_message

# a phone gets the latest hands; earlier ones load on demand
BOARD_ROWS = 50


def hand_request(session: Session, entry: dict) -> dict:
    """The HAND_JSON request the engine sees: the session's seats and frozen system always win."""
    return {**entry, "system": session.preset, "options": session.system_options, "seats": session.seats}


def hand_ledger_entry(hand: Hand) -> LedgerEntry:
    """What a stored hand changes in the ledger: its payments, and who takes the pot."""
    if hand.kind == Hand.SCORED:
        return LedgerEntry("scored", dict(hand.result["payments"]), tuple(hand.sides["winners"]))
    if hand.kind == Hand.DEAL_MISS:
        return LedgerEntry("deal_miss", {}, fine=hand.entry.get("fine", 0), dealer=hand.entry.get("dealer"))
    if hand.kind == Hand.SCORE_SHEET:
        # the payments as written on paper; nobody is known to have won a hand, so the pot stays
        return LedgerEntry("score_sheet", dict(hand.entry["payments"]))
    return LedgerEntry("all_pass", {})


def system_of(session: Session) -> System:
    """The system frozen into the session when it started."""
    return system_from(session.system_options)


def stakes_of(played: Session | Night) -> Stakes:
    """What a session is played for, or a club night (each of its tables takes the night's stakes)."""
    return Stakes(
        stake_per_point=played.stake_per_point, currency=played.currency,
        rounding_unit=played.rounding_unit, chips_start=played.chips_start,
        chips_per_point=played.chips_per_point,
    )


def payment_unit_of(stakes: Stakes) -> str:
    """What a settlement at ``stakes`` counts, so what its payments count: money, chips or points
    (the settlement's own test: a stake of 0 settles in chips or points)."""
    if stakes.for_money:
        return Payment.MONEY
    return Payment.CHIPS if stakes.for_chips else Payment.POINTS


# --- who deals next ------------------------------------------------------------


def _previous(session: Session, hand: Hand | None) -> PreviousHand | None:
    if hand is None:
        return None
    entry = hand.entry
    dealer = entry.get("dealer") or session.first_dealer
    if hand.kind == Hand.DEAL_MISS:
        return PreviousHand("deal_miss", dealer, demander=entry.get("shown_by") or dealer)
    if hand.kind == Hand.ALL_PASS:
        return PreviousHand("all_pass", dealer)
    made = (hand.result or {}).get("made")
    return PreviousHand(
        "void" if made is None else "scored",
        dealer,
        declarer=entry.get("declarer"),
        partners=tuple(entry.get("partners", [])),
        made=made,
        sitting_out=tuple(entry.get("sitting_out", [])),
        joker_holder=entry.get("joker_holder"),
    )


def last_hand(session: Session) -> Hand | None:
    """The latest live hand or event, the one the next deal follows."""
    return session.hands.live().latest_first().first()


def playing_now(session: Session) -> Contract | None:
    """The hand being played in the session (its contract, recorded when the auction ended), or
    None. One query."""
    return session.contracts.open().first()


def _hand_before(session: Session, hand: Hand, rows: list[Hand]) -> Hand | None:
    """The live hand before ``hand``: the row above it when ``rows`` (the latest live hands,
    oldest first, as the board holds them) has one, else one query."""
    numbers = [row.number for row in rows]
    if hand.number in numbers and numbers.index(hand.number) > 0:
        return rows[numbers.index(hand.number) - 1]
    return session.hands.live().filter(number__lt=hand.number).latest_first().first()


def next_state(session: Session, last: Hand | None = None, *, rows: list[Hand] | None = None) -> TableState:
    """Who deals, bids first and sits out on the coming hand (scoring.flow decides).

    ``last`` saves a query when the caller already holds the latest live hand. After a
    throw-in whose redeal is opened by whoever opened it, with the same players out
    (scoring.flow.needs_the_hand_before), the hands before it are read back to the one that
    decided those: from ``rows`` (the latest live hands, oldest first, the board's), else one
    query each. The phone steps its queued throw-ins the same way (static/js/pending.js).
    """
    return _next_after(session, last if last is not None else last_hand(session), rows or [])


def _next_after(session: Session, last: Hand | None, rows: list[Hand]) -> TableState:
    """The coming hand after ``last`` (None: the session's first hand)."""
    system = system_of(session)
    throw_ins: list[Hand] = []  # newest first
    hand = last
    while hand is not None and needs_the_hand_before(system, _previous(session, hand)):
        throw_ins.append(hand)
        hand = _hand_before(session, hand, rows)
    state = next_hand(system, session.seats, _previous(session, hand), first_dealer=session.first_dealer)
    for hand in reversed(throw_ins):
        previous = _previous(session, hand)
        previous = replace(previous, first_bidder=state.first_bidder,
                           sitting_out=previous.sitting_out or state.sitting_out)
        state = next_hand(system, session.seats, previous, first_dealer=session.first_dealer)
    return state


@dataclass(frozen=True)
class LatestHand:
    """The latest live hand, and the coming hand as it stood before it.

    A phone without signal that deletes or corrects this hand says who deals next from
    ``before`` (static/js/pending.js), as the server will once the change reaches it.
    """

    number: int
    kind: str
    before: TableState

    def as_json(self) -> dict:
        before = self.before
        return {"number": self.number, "kind": self.kind, "before": {
            "dealer": before.dealer, "first_bidder": before.first_bidder, "sitting_out": list(before.sitting_out)}}


def latest_hand(session: Session, last: Hand | None, *, rows: list[Hand] | None = None) -> LatestHand | None:
    """``last`` (the latest live hand, or None) with the coming hand as it stood before it."""
    if last is None:
        return None
    rows = rows or []
    return LatestHand(last.number, last.kind, _next_after(session, _hand_before(session, last, rows), rows))


# --- settling up -----------------------------------------------------------------


@dataclass(frozen=True)
class HandSettlement:
    number: int
    kind: str
    payments: dict
    transfers: list[Transfer]


@dataclass(frozen=True)
class SessionSettlement:
    """The session's settlement (scoring.settle's) with the currency and each hand's transfers."""

    settlement: Settlement
    currency: str
    stakes: Stakes
    hands: list[HandSettlement]

    def __getattr__(self, name: str):
        # totals, pot, money, chips, transfers…: the engine's settlement says them
        if name.startswith("_") or name == "settlement":
            raise AttributeError(name)
        return getattr(self.settlement, name)


def session_settlement(session: Session, *, per_hand: bool = True) -> SessionSettlement:
    """Totals, money or chips when played for them, the fewest transfers, and each hand's own."""
    hands = []
    if per_hand:
        rows = session.hands.live().in_order().values_list("number", "kind", "payments")
        hands = [HandSettlement(number, kind, payments, hand_transfers(payments))
                 for number, kind, payments in rows]
    stakes = stakes_of(session)
    # in seat order, as the table sits: the stored totals come back in whatever order the database keeps
    totals = {seat: session.totals[seat] for seat in session.seats if seat in session.totals}
    return SessionSettlement(settle_session(totals, stakes), session.currency, stakes, hands)


# --- the scoreboard ----------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    session: Session
    rows: list[Hand]  # oldest first, at most BOARD_ROWS
    earlier: bool  # hands before the first row exist
    last: Hand | None
    next: TableState
    settlement: SessionSettlement
    latest: LatestHand | None  # the latest live hand, with the coming hand as it stood before it

    @property
    def earlier_before(self) -> int | None:
        return self.rows[0].number if self.rows else None


# a row shows the contract, made or set, the payments and the running totals; not the sentences
_NOT_SHOWN = ("explanation", "sides")


def board_rows(session: Session, *, before: int | None = None) -> tuple[list[Hand], bool]:
    """The latest BOARD_ROWS hands (before a hand number), oldest first, with what a row shows, and
    whether earlier ones exist.

    Read only to be drawn: the board's region is kept whole per revision (partials/board_region.html),
    so when it is read at all its rows are drawn, and a page of earlier hands draws every row it reads.
    """
    hands = session.hands.live().latest_first().defer(*_NOT_SHOWN)
    if before is not None:
        hands = hands.filter(number__lt=before)
    # one more than shown, to know whether earlier hands exist without counting them
    rows = list(hands[: BOARD_ROWS + 1])
    return rows[:BOARD_ROWS][::-1], len(rows) > BOARD_ROWS


def session_board(session: Session, *, before: int | None = None) -> Board:
    """The scoreboard: the latest hands, the totals in points, money and chips, and who deals next."""
    rows, earlier = board_rows(session, before=before)
    # who deals next follows the latest hand, and after throw-ins (or a void hand) the ones before
    # it, read from these rows (any older one it needs is read when asked for)
    last = rows[-1] if rows and before is None else last_hand(session)
    latest = rows if before is None else None  # the latest live hands: a throw-in's opener is read from them
    return _board(session, rows, earlier, last, latest)


def _board(session: Session, rows: list[Hand], earlier: bool, last: Hand | None, latest: list[Hand] | None) -> Board:
    """The board over ``rows``: the totals, and who deals next after ``last`` (the latest live hand),
    reading a throw-in's opener from ``latest`` where they are the latest live hands."""
    return Board(session, rows, earlier, last, next_state(session, last, rows=latest),
                 session_settlement(session, per_hand=False), latest_hand(session, last, rows=latest))


# the latest hand and the one before it (who dealt it); after throw-ins older ones are read when asked for
STEP_ROWS = 2


@dataclass(frozen=True)
class BoardStep:
    group: Group
    session: Session  # with its group, as the link reaches them
    board: Board  # its rows: the latest hands, the latest last (the phones show the ones before)
    in_progress: bool  # whether a hand is being played (its contract recorded, not yet completed)


def board_step(token: str, session_id: int) -> BoardStep | None:
    """The board as its latest hand leaves it, for phones holding ``token`` that show it as it
    stood before that hand; None when the link does not reach the live session, or before its
    first hand. Only what a hand changes: the latest hands whole, the totals and who deals next,
    whether a hand is in progress."""
    session = (Session.objects.live().select_related("group")
               .filter(Q(group__edit_token=token) | Q(group__view_token=token), pk=session_id,
                       group__deleted_at__isnull=True).first())
    if session is None:
        return None
    rows = list(session.hands.live().latest_first().defer(*_NOT_SHOWN)[:STEP_ROWS])[::-1]
    if not rows:
        return None
    return BoardStep(session.group, session, _board(session, rows, False, rows[-1], rows),
                     session.contracts.open().exists())


# --- one hand ------------------------------------------------------------------------


@dataclass(frozen=True)
class HandTransfer:
    """One transfer of a single hand, in points, and in money where the evening is played for it."""

    frm: str
    to: str
    amount: int
    money: Decimal | None  # at the session's stake, rounded to its unit as its settlement rounds


@dataclass(frozen=True)
class HandView:
    hand: Hand
    explanation: list  # sentences the page translates (scoring.words), or stored English
    transfers: list[HandTransfer]  # who pays whom for this hand alone; none for a deleted hand


def hand_view(hand: Hand, session: Session) -> HandView:
    explanation = [from_message(line) for line in hand.explanation] or list(
        (hand.result or {}).get("explanation") or []
    )
    stakes = stakes_of(session)
    transfers = [
        HandTransfer(t.frm, t.to, t.amount,
                     to_money(t.amount, stakes.stake_per_point, stakes.unit) if stakes.for_money else None)
        for t in (hand_transfers(hand.payments) if hand.deleted_at is None else [])
    ]
    return HandView(hand, explanation, transfers)


# --- history -------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionHistory:
    revisions: list[Revision]
    deleted: list[Hand]


def session_history(session: Session) -> SessionHistory:
    return SessionHistory(
        list(Revision.objects.filter(session=session).select_related("hand")),
        list(session.hands.deleted().in_order()),
    )


# --- the group -----------------------------------------------------------------------


@dataclass(frozen=True)
class GroupOverview:
    group: Group
    players: list[Player]
    sessions: list[Session]  # live, newest first
    deleted_sessions: list[Session]
    season: list[tuple[str, int]]  # every player's points over the live sessions, best first

    @property
    def stamp(self) -> str:
        """Changes whenever anything on the group page does: for conditional requests."""
        return ":".join(f"{s.pk}.{s.revision}" for s in self.sessions) + f"|{len(self.players)}"


def group_overview(group: Group) -> GroupOverview:
    players = list(group.players.all())
    sessions = list(Session.objects.filter(group=group).newest_first())
    live = [s for s in sessions if s.deleted_at is None]
    # stored totals, never re-summed from hands
    season = {player.name: 0 for player in players}
    for session in live:
        for name, points in session.totals.items():
            season[name] = season.get(name, 0) + points
    return GroupOverview(
        group, players, live, [s for s in sessions if s.deleted_at is not None],
        sorted(season.items(), key=lambda item: -item[1]),
    )


def session_stamp(session: Session, *parts: object) -> str:
    """An ETag for a page of the session: it changes with every write to the session's hands."""
    return session.stamp(*parts)
