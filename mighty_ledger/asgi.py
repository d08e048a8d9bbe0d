"""ASGI entry point: the live event streams first, then the whole app.

`make run` (runserver, through daphne) and `make serve`'s stream server both
load ``application`` from here.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mighty_ledger.settings")

django_application = get_asgi_application()

from mighty_ledger.live.asgi import with_streams  # noqa: E402  (needs the apps loaded above)
from mighty_ledger.pages.views.board_steps import board_step_for  # noqa: E402

# the streams draw a new hand's step on the board once and send it to every phone showing it
application = with_streams(django_application, board_steps=board_step_for)


def _daphne_without_form_parsing() -> None:
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


_daphne_without_form_parsing()
