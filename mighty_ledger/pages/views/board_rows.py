"""The scoreboard's rows, each drawn once per hand and read from the cache after.

After a new hand the board shows one new row and fifty it showed before: drawing only the new
one keeps what a hand costs from growing with the rows on the board (the latest row is marked by
the stylesheet, not in the row, so the one before it is not drawn again). The views that show
rows (the board, its live regions, its earlier hands, a new hand's step) draw them here and hand
them to the templates, which print them as they are (``partials/scoreboard_rows.html``).
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.template.loader import get_template
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from mighty_ledger import reads
from mighty_ledger.http.access import Access
from mighty_ledger.http.cache import ROW_SECONDS
from mighty_ledger.models import Hand, Session


def drawn_rows(rows: list[Hand], *, session: Session, access: Access) -> SafeString:
    """``rows`` drawn as the board shows them (partials/scoreboard_row.html), in their order.

    A row is kept under what it shows: the hand and its version, the session's replays (an edit,
    delete or restore rewrites later hands' running totals), the link (its token is in the row's
    link, so the key holds a hash of it) and the language. The rows hold only what tells them
    apart (reads.board_rows): what a row shows is read for those not kept.
    """
    link = hashlib.sha256(access.token.encode()).hexdigest()[:24]
    language = get_language()
    keys = [f"board-row:{hand.pk}:{hand.version}:{session.replays}:{link}:{language}" for hand in rows]
    kept = cache.get_many(keys)
    drawn = {}
    missing = [(key, hand) for key, hand in zip(keys, rows, strict=True) if key not in kept]
    if missing:
        row = get_template("partials/scoreboard_row.html")
        whole = reads.full_rows([hand for _key, hand in missing])
        for (key, _hand), hand in zip(missing, whole, strict=True):
            drawn[key] = kept[key] = row.render({"hand": hand, "session": session, "access": access})
    if drawn:
        cache.set_many(drawn, ROW_SECONDS)
    return mark_safe("".join(kept[key] for key in keys))  # each row escaped by its own template


def board_rows_when_shown(board: reads.Board, *, session: Session, access: Access) -> SimpleLazyObject:
    """The rows of ``board`` (a lazy reads.Board), drawn only if the template prints them: the
    board's region is kept whole per revision (partials/board_region.html), and a region read
    from the cache needs neither the board nor its rows."""
    return SimpleLazyObject(lambda: drawn_rows(board.rows, session=session, access=access))
