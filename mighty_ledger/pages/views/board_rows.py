"""The scoreboard's rows, drawn for the views that show them.

The views that show rows (the board, its live regions, its earlier hands, a new hand's step)
draw them here and hand them to the templates, which print them as they are
(``partials/scoreboard_rows.html``). Rows are not kept one by one: the board's region is kept
whole per revision (partials/board_region.html) and a new hand reaches the phones as its step,
one row drawn, so a cache of rows held no figure of ``make bench`` (docs/performance.md, "What
each mechanism buys").
"""

from __future__ import annotations

from django.template.loader import get_template
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString, mark_safe

from mighty_ledger import reads
from mighty_ledger.http.access import Access
from mighty_ledger.models import Hand, Session


def drawn_rows(rows: list[Hand], *, session: Session, access: Access) -> SafeString:
    """``rows`` (read with what a row shows: reads.board_rows, reads.board_step) drawn as the board
    shows them (partials/scoreboard_row.html), in their order."""
    row = get_template("partials/scoreboard_row.html")
    drawn = (row.render({"hand": hand, "session": session, "access": access}) for hand in rows)
    return mark_safe("".join(drawn))  # each row escaped by its own template


def board_rows_when_shown(board: reads.Board, *, session: Session, access: Access) -> SimpleLazyObject:
    """The rows of ``board`` (a lazy reads.Board), drawn only if the template prints them: the
    board's region is kept whole per revision (partials/board_region.html), and a region read
    from the cache needs neither the board nor its rows."""
    return SimpleLazyObject(lambda: drawn_rows(board.rows, session=session, access=access))
