"""A spreadsheet of past hands, read as the table wrote it: which sheet it is, its sessions, hands and
players, and every row that cannot be read, with its line and the reason.

Three shapes, told apart by their header row (English or Korean column names, in any order), the
first row that names the columns: a title, notes or empty rows above it are passed over:

- the app's own ``hands.csv`` (reads/exports.py): ``kind``, and ``<name> payment``/``total`` columns;
- a hand sheet: a row per hand: declarer, contract, trump, partner call, partner, points taken;
- a score sheet: a row per hand, a column per player, each score as written on paper: a hand
  "from the score sheet", its payments as written and no details, so it must add up to zero.

Pure: rows of text in, a ``Sheet`` out. Decoding files is mighty_ledger/services/spreadsheets.py's,
scoring the hands the engine's, and writing them mighty_ledger/services/sheet_imports.py's.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.cards import JOKER
from scoring.sheet_cells import (
    control_character,
    fold,
    parse_call,
    parse_contract,
    parse_date,
    parse_int,
    split_names,
)
from scoring.words import N_, Words

__all__ = ["HANDS_CSV", "HAND_SHEET", "SCORE_SHEET", "Sheet", "SheetHand", "SheetProblem", "SheetSession",
           "parse_call", "parse_contract", "parse_date", "parse_int", "read_sheet", "recognise"]

HANDS_CSV, HAND_SHEET, SCORE_SHEET = "hands_csv", "hand_sheet", "score_sheet"

# a column's name as players write it, folded (lower case, no spaces, dots, dashes or underscores)
COLUMNS = {
    "date": ("date", "day", "playedon", "날짜", "일자", "일시"),
    "session": ("session", "evening", "game", "세션", "모임", "회차"),
    "title": ("title", "제목"),
    "number": ("number", "no", "#", "hand", "번호", "판", "순서"),
    "kind": ("kind",),
    "declarer": ("declarer", "주공"),
    "contract": ("contract", "bid", "공약", "목표", "계약"),
    "trump": ("trump", "기루다", "트럼프", "무늬"),
    "partner_call": ("partnercall", "friendcall", "call", "프렌드콜", "프렌드지정", "프렌드카드", "콜"),
    "partners": ("partner", "partners", "friend", "friends", "프렌드", "친구"),
    "points": ("points", "점수", "득점", "딴점수", "먹은점수", "포인트"),
    "made": ("made", "성공"),
    "players": ("players", "seats", "참가자", "플레이어", "인원"),
    "dealer": ("dealer", "딜러"),
    "sitting_out": ("sittingout", "satout", "쉰사람", "쉬는사람"),
    "note": ("note", "notes", "memo", "comment", "비고", "메모"),
}
FOLDED = {alias: name for name, aliases in COLUMNS.items() for alias in aliases}

TOTAL_WORDS = {"total", "totals", "sum", "합계", "계", "총점", "합"}


@dataclass(frozen=True)
class SheetProblem:
    line: int  # as the spreadsheet numbers its rows
    message: Words


@dataclass(frozen=True)
class SheetHand:
    line: int
    kind: str  # "scored", "deal_miss", "all_pass" or "score_sheet"
    entry: dict  # the HAND_JSON fields the sheet gives; a score-sheet hand: {"payments": {name: amount}}
    written: dict | None = None  # the payments the sheet itself shows for this hand (hands.csv)


@dataclass
class SheetSession:
    key: str
    line: int
    played_on: datetime.date | None = None
    title: str = ""
    seats: list[str] = field(default_factory=list)
    hands: list[SheetHand] = field(default_factory=list)
    written_totals: dict | None = None  # the totals the sheet itself gives, when it gives them


@dataclass(frozen=True)
class Sheet:
    shape: str | None
    sessions: tuple[SheetSession, ...]
    names: tuple[str, ...]  # every player the sheet names, as written, in order of appearance
    problems: tuple[SheetProblem, ...]
    dated: bool = True  # False: the sheet has no date column, and the evening must be given


def recognise(header: Sequence[str]) -> tuple[str | None, dict[str, int], dict[str, int]]:
    """The sheet's shape, its known columns (name → index) and its player columns (name → index)."""
    known: dict[str, int] = {}
    others: dict[str, int] = {}
    for index, title in enumerate(header):
        name = FOLDED.get(fold(title))
        if name is not None and name not in known:
            known[name] = index
        elif str(title).strip():
            others[str(title).strip()] = index
    if "kind" in known and any(title.endswith(" payment") for title in others):
        return HANDS_CSV, known, others
    if "declarer" in known:
        return HAND_SHEET, known, {}
    if len(others) >= 2:
        return SCORE_SHEET, known, others
    return None, known, others


def header_index(rows: Sequence[Sequence[str]]) -> int | None:
    """Which row is the header: the first that names the columns of one of the shapes (a score
    sheet's by its date or session column beside the players', so that a row of notes is not
    taken for one); else the first row, when it names two columns or more."""
    for index, row in enumerate(rows):
        shape, known, _ = recognise(row)
        if shape in (HANDS_CSV, HAND_SHEET) or (shape == SCORE_SHEET and {"date", "session"} & set(known)):
            return index
    return 0 if rows and recognise(rows[0])[0] is not None else None


def read_sheet(rows: Sequence[Sequence[str]], *, players: int, calls: Sequence[str] = ("player",),
               lines: Sequence[int] | None = None, played_on: datetime.date | None = None) -> Sheet:
    """The sheet in ``rows``, for a scoring system of ``players`` players that allows the partner
    ``calls`` (a hand whose sheet names the partner but not the call is taken as called the first
    of these ways the system allows: player, first trick, the Joker).

    ``lines`` numbers the rows as the spreadsheet does (default: 1, 2, 3…); ``played_on`` is the
    evening of a file that has no date column (a board's download from before it carried one)."""
    lines = list(lines) if lines is not None else list(range(1, len(rows) + 1))
    if not rows:
        return Sheet(None, (), (), (SheetProblem(1, Words(N_("The file is empty."))),))
    header = header_index(rows)
    if header is None:
        return Sheet(None, (), (), (SheetProblem(lines[0], Words(N_(
            "No row names the columns of a hand sheet (date, declarer, contract, trump, partner, points) "
            "or of a score sheet (date and a column per player)."))),))
    shape, known, others = recognise(rows[header])
    if "date" not in known and played_on is None:
        return Sheet(shape, (), (), (SheetProblem(lines[header], Words(N_(
            "This file does not say which evening its hands were played: give its date."))),), dated=False)
    reader = _Reader(shape, known, others, players, calls, None if "date" in known else played_on)
    for line, row in zip(lines[header + 1:], rows[header + 1:], strict=True):
        cells = [str(cell).strip() for cell in row]
        if not any(cells):
            continue
        odd = next(((char, cell) for cell in cells if (char := control_character(cell))), None)
        if odd is not None:
            reader.refuse_control(line, *odd)
            continue
        reader.read(line, cells)
    return reader.sheet()


class _Reader:
    """One pass over the rows: each is added to its session or becomes a problem."""

    def __init__(self, shape: str, known: dict[str, int], others: dict[str, int], players: int,
                 calls: Sequence[str], played_on: datetime.date | None):
        self.shape, self.known, self.others, self.players, self.calls = shape, known, others, players, calls
        self.played_on = played_on
        self.sessions: dict[str, SheetSession] = {}
        self.names: dict[str, None] = {}
        self.problems: list[SheetProblem] = []
        self.last: SheetSession | None = None
        if shape == HANDS_CSV:
            self.payment_columns = {t.removesuffix(" payment"): i for t, i in others.items() if t.endswith(" payment")}
            self.total_columns = {t.removesuffix(" total"): i for t, i in others.items() if t.endswith(" total")}

    def cell(self, cells: list[str], name: str) -> str:
        index = self.known.get(name)
        return cells[index] if index is not None and index < len(cells) else ""

    def refuse(self, line: int, template: str, **params) -> None:
        self.problems.append(SheetProblem(line, Words(template, **params)))

    def refuse_control(self, line: int, char: str, cell: str) -> None:
        shown = "".join("\ufffd" if control_character(c) else c for c in cell)
        self.refuse(line, N_("'{text}' holds a control character ({code}), which cannot be kept: remove it."),
                    text=shown[:40], code=f"U+{ord(char):04X}")

    def name(self, name: str) -> str:
        self.names.setdefault(name, None)
        return name

    def session_of(self, line: int, cells: list[str]) -> SheetSession | None:
        date_text = self.cell(cells, "date") if "date" in self.known else ""
        played_on = parse_date(date_text) if date_text else self.played_on
        if date_text and played_on is None:
            self.refuse(line, N_("'{text}' is not a date: write it as 2024-03-05."), text=date_text)
            return None
        title = self.cell(cells, "title")
        # rows of one evening: by its session column, else by its date (and title)
        named = self.cell(cells, "session")
        key = named or ("\n".join((played_on.isoformat(), title)) if date_text or self.played_on else "")
        if not key:
            if self.last is None:
                self.refuse(line, N_("Say which evening this hand was played: give it a date."))
                return None
            return self.last
        session = self.sessions.get(key)
        if session is None:
            # a session column names the evening; the app's own export writes its id there, and the
            # title beside it
            if "title" not in self.known and named != (played_on.isoformat() if played_on else None):
                title = named
            session = self.sessions[key] = SheetSession(key=key, line=line, title=title[:80])
        if played_on is not None and session.played_on is None:
            session.played_on = played_on
        self.last = session
        return session

    def read(self, line: int, cells: list[str]) -> None:
        marker = fold(self.cell(cells, "date") or self.cell(cells, "number") or self.cell(cells, "session"))
        if self.shape == SCORE_SHEET and marker in TOTAL_WORDS:
            self.read_totals(line, cells)
            return
        session = self.session_of(line, cells)
        if session is None:
            return
        if self.shape == HANDS_CSV:
            self.read_exported(line, cells, session)
        elif self.shape == HAND_SHEET:
            self.read_hand(line, cells, session)
        else:
            self.read_scores(line, cells, session)

    def scores(self, line: int, cells: list[str], columns: dict[str, int]) -> dict[str, int] | None:
        scores = {}
        for name, index in columns.items():
            text = cells[index] if index < len(cells) else ""
            if text == "":
                continue  # not at the table that evening
            amount = parse_int(text)
            if amount is None:
                self.refuse(line, N_("{name}'s score '{text}' is not a whole number."), name=name, text=text)
                return None
            scores[self.name(name)] = amount
        return scores

    def read_totals(self, line: int, cells: list[str]) -> None:
        totals = self.scores(line, cells, self.others)
        if totals is not None and self.last is not None:
            self.last.written_totals = totals

    def read_scores(self, line: int, cells: list[str], session: SheetSession) -> None:
        payments = self.scores(line, cells, self.others)
        if payments is None:
            return
        if sum(payments.values()) != 0:
            self.refuse(line, N_("The scores on this row add up to {sum}, not 0: every point one player wins "
                                 "another loses."), sum=sum(payments.values()))
            return
        self.seat(session, payments)
        session.hands.append(SheetHand(line, SCORE_SHEET, {"payments": payments}))

    def seat(self, session: SheetSession, names) -> None:
        for name in names:
            if name not in session.seats:
                session.seats.append(name)

    def read_exported(self, line: int, cells: list[str], session: SheetSession) -> None:
        written = self.scores(line, cells, self.payment_columns)
        totals = self.scores(line, cells, self.total_columns)
        if written is None or totals is None:
            return
        self.seat(session, written)
        session.written_totals = totals
        kind = self.cell(cells, "kind")
        if kind == SCORE_SHEET:
            session.hands.append(SheetHand(line, SCORE_SHEET, {"payments": written}, written))
            return
        if kind in ("deal_miss", "all_pass"):
            # the board's download says who dealt; the group's export only who paid a fine
            dealer = self.cell(cells, "dealer")
            entry = {"dealer": dealer} if dealer else {}
            if kind == "deal_miss":
                # the export keeps who paid the fine (the dealer, in the ledger), not who showed the hand
                payer = next((name for name, amount in written.items() if amount < 0), None)
                fine = -written[payer] if payer else 0
                entry = {"dealer": payer or dealer, "fine": fine} if payer or dealer else {"fine": 0}
            session.hands.append(SheetHand(line, kind, entry, written))
            return
        if kind != "scored":
            self.refuse(line, N_("'{text}' is not a kind of hand: scored, deal_miss, all_pass or score_sheet."),
                        text=kind)
            return
        self.read_hand(line, cells, session, written=written)

    def read_hand(self, line: int, cells: list[str], session: SheetSession, written: dict | None = None) -> None:
        declarer = self.cell(cells, "declarer")
        if not declarer:
            self.refuse(line, N_("Say who the declarer was."))
            return
        contract = parse_contract(self.cell(cells, "contract"), self.cell(cells, "trump") if "trump" in self.known else None)
        if contract is None:
            self.refuse(line, N_("'{text}' is not a contract: write the points and the trump, such as '14 S' "
                                 "or '노기루다 13'."), text=" ".join(filter(None, (self.cell(cells, "contract"),
                                                                                  self.cell(cells, "trump")))))
            return
        points = parse_int(self.cell(cells, "points"))
        if points is None:
            self.refuse(line, N_("'{text}' is not a number of points."), text=self.cell(cells, "points"))
            return
        partners = split_names(self.cell(cells, "partners"))
        seats_given = split_names(self.cell(cells, "players"))
        names = [declarer, *partners]
        if seats_given:
            unknown = [name for name in names if name not in seats_given]
            if unknown:
                self.refuse(line, N_("{name} is not one of this hand's players ({players})."),
                            name=unknown[0], players=", ".join(seats_given))
                return
        elif written is not None:
            unknown = [name for name in names if name not in written]
            if unknown:
                self.refuse(line, N_("{name} has no payment column in this file."), name=unknown[0])
                return
        for name in (*seats_given, *names):
            self.name(name)
        self.seat(session, seats_given or names)
        call_text = self.cell(cells, "partner_call")
        if call_text:
            call = parse_call(call_text, contract[1], [*seats_given, *names])
            if call is None:
                self.refuse(line, N_("'{text}' is not a partner call: a card (♠A, 조커, 마이티), 첫트릭, 노프렌드 "
                                     "or a player."), text=call_text)
                return
        elif partners:
            # the sheet names the partner, not how they were called: only "no friend" changes a score
            if "player" in self.calls:
                call = {"type": "player", "seat": partners[0]}
            elif "first_trick" in self.calls:
                call = {"type": "first_trick"}
            else:
                call = {"type": "card", "cards": [JOKER]}
        else:
            # no partner and no call written: the declarer played alone, as announced
            call = {"type": "none"}
        entry = {"declarer": declarer, "contract": {"points": contract[0], "trump": contract[1]},
                 "partner_call": call, "partners": partners, "points": points}
        # the session's own hands.csv says who dealt and who sat out; other sheets seldom do
        if self.cell(cells, "dealer"):
            entry["dealer"] = self.cell(cells, "dealer")
        if split_names(self.cell(cells, "sitting_out")):
            entry["sitting_out"] = split_names(self.cell(cells, "sitting_out"))
        session.hands.append(SheetHand(line, "scored", entry, written))

    def sheet(self) -> Sheet:
        sessions = []
        for session in self.sessions.values():
            if session.played_on is None:
                self.refuse(session.line, N_("Session '{key}' has no date."), key=session.key)
                continue
            if session.hands and len(session.seats) != self.players:
                self.refuse(session.line, N_("The scores of {date} are for {count} players ({names}), and this "
                                             "system is for {players}.") if self.shape == SCORE_SHEET else
                            N_("The hands of {date} name {count} players ({names}), and this system "
                               "is for {players}: add a column of the players at the table."),
                            date=session.played_on.isoformat(), count=len(session.seats),
                            names=", ".join(session.seats), players=self.players)
                continue
            sessions.append(session)
        sessions.sort(key=lambda session: (session.played_on, session.line))
        self.problems.sort(key=lambda problem: problem.line)
        return Sheet(self.shape, tuple(sessions), tuple(self.names), tuple(self.problems),
                     dated=self.played_on is None)
