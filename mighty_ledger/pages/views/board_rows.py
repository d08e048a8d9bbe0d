"""The scoreboard's rows, drawn for the views that show them.

The views that show rows (the board, its live regions, its earlier hands, a new hand's step)
draw them here and hand them to the templates, which print them as they are
(``partials/scoreboard_rows.html``). Rows are not kept one by one: the board's region is kept
whole per revision (partials/board_region.html) and a new hand reaches the phones as its step,
one row drawn, so a cache of rows held no figure of ``make bench`` (docs/performance.md, "What
each mechanism buys").
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import get_template
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString, mark_safe

from mighty_ledger import reads
from mighty_ledger.http.access import Access
from mighty_ledger.models import Hand, Session


@dataclass(frozen=True)
class DeletedHands:
    """Hand numbers with no live hand between two rows: hands deleted (a hand keeps its number
    for good, services/hands.py numbers the next after every hand ever saved)."""

    first: int
    last: int

    @property
    def count(self) -> int:
        return self.last - self.first + 1


def deleted_between(numbers: list[int], *, after: int | None, through: int | None) -> dict[int, DeletedHands]:
    """The gaps in ``numbers`` (the live hands' numbers, in order), keyed by the number of the row
    they come before (``through`` + 1 for a gap after the last row). ``after`` is the number of the
    live hand before the first row, 0 when there is none, None when not known (no gap before the
    first row is said then); ``through`` the last number these rows reach, None when not known."""
    gaps: dict[int, DeletedHands] = {}
    previous = after
    for number in numbers:
        if previous is not None and number > previous + 1:
            gaps[number] = DeletedHands(previous + 1, number - 1)
        previous = number
    if previous is not None and through is not None and through > previous:
        gaps[through + 1] = DeletedHands(previous + 1, through)
    return gaps


def drawn_rows(rows: list[Hand], *, session: Session, access: Access, after: int | None = None,
               through: int | None = None) -> SafeString:
    """``rows`` (read with what a row shows: reads.board_rows, reads.board_step) drawn as the board
    shows them (partials/scoreboard_row.html), in their order, with a slim row where hands were
    deleted (partials/scoreboard_deleted_row.html), so that 1, 3, 4 says why 2 is missing.
    ``after`` and ``through`` as deleted_between takes them."""
    row = get_template("partials/scoreboard_row.html")
    deleted_row = get_template("partials/scoreboard_deleted_row.html")
    gaps = deleted_between([hand.number for hand in rows], after=after, through=through)

    def gap(number: int) -> str:
        deleted = gaps.get(number)
        if deleted is None:
            return ""
        return deleted_row.render({"deleted": deleted, "session": session, "access": access})

    drawn = [gap(hand.number) + row.render({"hand": hand, "session": session, "access": access}) for hand in rows]
    if through is not None:
        drawn.append(gap(through + 1))
    return mark_safe("".join(drawn))  # each row escaped by its own template


def board_rows_when_shown(board: reads.Board, *, session: Session, access: Access,
                          before: int | None = None) -> SimpleLazyObject:
    """The rows of ``board`` (a lazy reads.Board, ending before hand ``before`` or the latest),
    drawn only if the template prints them: the board's region is kept whole per revision
    (partials/board_region.html), and a region read from the cache needs neither the board nor
    its rows."""
    return SimpleLazyObject(lambda: drawn_rows(
        board.rows, session=session, access=access, **page_ends(board.earlier, session, before),
    ))


def page_ends(earlier: bool, session: Session, before: int | None) -> dict:
    """drawn_rows' ``after`` and ``through`` for a page of the board: from hand 1 when no live hand
    is earlier, up to the page's end (the hand it stops before, or the session's last number)."""
    return {
        "after": None if earlier else 0,
        "through": session.hand_count if before is None else before - 1,
    }
