"""ASGI entry point: the live event streams first, then the whole app.

`make run` (runserver, through daphne) and `make serve`'s stream server both
load ``application`` from here.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mighty_ledger.settings")

django_application = get_asgi_application()

from mighty_ledger.live.asgi import with_streams  # noqa: E402  (needs the apps loaded above)
from mighty_ledger.pages.views import night_screen  # noqa: E402
from mighty_ledger.pages.views.board_steps import drawn  # noqa: E402
from mighty_ledger.pages.views.stats_redrawn import redrawn  # noqa: E402


def _pages_read_what_the_streams_draw() -> bool:
    """Whether the pages are served from a cache this process writes: a shared one (Redis), or
    its own where it serves the pages too (runserver). A stream process beside web workers with a
    cache of its own would draw for nobody."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    return not isinstance(caches["default"], LocMemCache) or os.environ.get("SERVE_ROLE") != "streams"


def _group_pages_redrawn(group_id: int, session_id: int, revision: int | None, what: str) -> None:
    """The pages of the group drawn again after a change of one of its sessions: the statistics,
    and the big screens of its club nights, each only where it was looked at lately."""
    try:
        redrawn(group_id, session_id, revision, what)
    finally:
        night_screen.redrawn(group_id, session_id, revision, what)


# the streams draw a new hand's step on the board once and send it to every phone showing it,
# and draw again into the cache the statistics and night screens a group looks at when one of its
# sessions changes
application = with_streams(django_application, board_steps=drawn,
                           redraw=_group_pages_redrawn if _pages_read_what_the_streams_draw() else None)


def _daphne_leaves_bodies_to_django() -> None:
    """Under daphne (runserver), Twisted reads a multipart/form-data POST itself before Django
    sees it, and answers one it cannot read with an empty 400: the API's 415 in the error shape
    (what gunicorn gives) never came. Django reads every body; Twisted need not."""
    import inspect

    try:
        from daphne import http_protocol
        from twisted.web import http
    except ImportError:
        return  # served without daphne (uvicorn, gunicorn): nothing of Twisted's to correct

    if "parsePOSTFormSubmission" not in inspect.signature(http.Request.__init__).parameters:
        return  # a Twisted from before the option: it parses as it always did
    if getattr(http_protocol.WebRequest, "leaves_bodies_to_django", False):
        return

    class WebRequest(http_protocol.WebRequest):
        leaves_bodies_to_django = True

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs, parsePOSTFormSubmission=False)

    # daphne's HTTPFactory builds each request from this name
    http_protocol.WebRequest = WebRequest


_daphne_leaves_bodies_to_django()
