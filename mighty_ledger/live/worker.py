"""The stream server's gunicorn worker: uvicorn's, with every link masked in what it logs, and
gone within seconds of its master.

uvicorn writes its own access log (``"GET /g/<token>/s/2/events/ HTTP/1.1" 200``)
to gunicorn's handlers, so gunicorn's masking logger (``redact.MaskedAccessLogger``)
never sees those lines: a stream server open all evening would write every
phone's edit link down. The same filter as Django's log records masks them at
the logger, before any handler a deployment adds.

A worker outlives a master killed outright (SIGKILL, the OOM killer): nobody tells it, and
it keeps the listening socket it inherited, so the stream server started again in its place
cannot bind the port. The kernel tells it instead (``PR_SET_PDEATHSIG``), and it stops as it
stops for its master: the socket is closed at once, and the open streams end after
``STREAM_GRACE_SECONDS`` (a stream never ends by itself within any grace period; waiting
longer only keeps its phones from reconnecting to a server that works).
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import sys

from uvicorn_worker import UvicornWorker

from mighty_ledger.http.redact import MaskLinks

# uvicorn.error carries "Exception in ASGI application" with the request it failed on
MASKED_LOGGERS = ("uvicorn.access", "uvicorn.error")
STREAM_GRACE_SECONDS = 2
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


class StreamWorker(UvicornWorker):
    """``gunicorn -k mighty_ledger.live.worker.StreamWorker mighty_ledger.asgi:application``."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in MASKED_LOGGERS:
            logger = logging.getLogger(name)
            if not any(isinstance(existing, MaskLinks) for existing in logger.filters):
                logger.addFilter(MaskLinks())
        self.config.timeout_graceful_shutdown = min(STREAM_GRACE_SECONDS, self.cfg.graceful_timeout)

    def init_process(self) -> None:
        # in the forked worker: SIGTERM, which uvicorn answers by shutting down, when the master dies
        if sys.platform.startswith("linux"):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != self.ppid:
            # the master died before the kernel was asked to say so
            self.log.warning("stream worker %s: its master is gone, exiting", os.getpid())
            sys.exit(0)
        super().init_process()
