"""A new hand's step on the scoreboard, drawn once and sent to every phone inside the event.

When a hand is recorded, each phone following the board would otherwise fetch the board's live
regions (``session_live``): a request per phone, and the regions drawn whole, fifty rows, for
the first of them. The step is what that hand changes and no more (its row, the totals, who
deals next, the latest hand's data, the chart's frame), drawn once per link and language by
the process that serves the streams and sent inside the ``change`` event, so the hand costs the
server the same whether one phone follows it or eight (docs/performance.md). A phone that does
not show the board as it stood just before the hand (it missed an event, it shows earlier
hands) ignores the step and fetches the regions as before.

Called by the streams (``mighty_ledger.asgi`` hands it to ``live.asgi.with_streams``), on the
stream process's thread for steps, never in a request.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import translation

from mighty_ledger import reads
from mighty_ledger.http import etags
from mighty_ledger.http.access import access_to, is_link_shaped, is_row_id
from mighty_ledger.http.cache import ROW_SECONDS
from mighty_ledger.pages.views.board_rows import drawn_rows


def board_step_for(token: str, session_id: int, revision: int, language: str) -> dict | None:
    """The step a new hand made to ``revision``, for phones holding ``token`` and reading
    ``language``: ``{"from": the revision it applies to, "etag": the live regions' ETag once
    applied, "html": partials/board_step.html}``. None when the session has moved on since (or is
    gone): its phones then fetch the regions, which show whatever came after.

    Only for a change that recorded a hand, which moves the session on by one revision and adds
    the hand after the others (services/hands.py).
    """
    if not (is_link_shaped(token) and is_row_id(session_id)):
        return None
    step = reads.board_step(token, session_id)  # the link, the session and its latest hands: one statement
    if step is None or step.session.revision != revision:
        return None
    session, access = step.session, access_to(step.group, token, step.session)
    key = etags.live_fragments_key(session, access.right, token, language, None)
    board = step.board
    with translation.override(language):
        html = render_to_string("partials/board_step.html", {
            "access": access, "session": session, "board": board,
            # with the hands deleted since the hand before it, said as the board says them
            "rows_drawn": drawn_rows([board.last], session=session, access=access,
                                     after=board.rows[-2].number if len(board.rows) > 1 else 0),
            # the hand in progress is read whole only when there is one (rarely, as a hand is recorded)
            "playing": reads.playing_now(session) if step.in_progress else None, "part_seconds": ROW_SECONDS,
        })
    return {"from": revision - 1, "etag": etags.etag_of(key), "html": html}
