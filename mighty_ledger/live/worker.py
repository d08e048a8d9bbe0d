"""The stream server's gunicorn worker: uvicorn's, with every link masked in what it logs.

uvicorn writes its own access log (``"GET /g/<token>/s/2/events/ HTTP/1.1" 200``)
to gunicorn's handlers, so gunicorn's masking logger (``redact.MaskedAccessLogger``)
never sees those lines: a stream server open all evening would write every
phone's edit link down. The same filter as Django's log records masks them at
the logger, before any handler a deployment adds.
"""

from __future__ import annotations

import logging

from uvicorn_worker import UvicornWorker

from mighty_ledger.http.redact import MaskLinks

# uvicorn.error carries "Exception in ASGI application" with the request it failed on
MASKED_LOGGERS = ("uvicorn.access", "uvicorn.error")


class StreamWorker(UvicornWorker):
    """``gunicorn -k mighty_ledger.live.worker.StreamWorker mighty_ledger.asgi:application``."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in MASKED_LOGGERS:
            logger = logging.getLogger(name)
            if not any(isinstance(existing, MaskLinks) for existing in logger.filters):
                logger.addFilter(MaskLinks())
