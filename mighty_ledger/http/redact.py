"""Capability links never reach a log: whoever reads the log must not be able to change the ledger.

A link's token is the whole of its right, so every place a URL or an
Authorization header is written down masks it: Django's log records (the
"Not Found: /g/<token>/" warnings and the like) through ``MaskLinks``, and
gunicorn's access log through ``MaskedAccessLogger`` (gunicorn.conf.py).
"""

from __future__ import annotations

import logging
import re

from gunicorn.glogging import Logger as GunicornLogger

MASK = "***"

# /g/<token>/ in a path, a full URL or a Referer; /g/new/ is no link
_LINK_IN_PATH = re.compile(r"(/g/)(?!new/)[^/?#\s\"']+")
_BEARER = re.compile(r"(Bearer\s+)\S+", re.IGNORECASE)


def mask_links(text: str) -> str:
    """The text with every link's token replaced by ***."""
    return _BEARER.sub(rf"\g<1>{MASK}", _LINK_IN_PATH.sub(rf"\g<1>{MASK}", text))


class MaskLinks(logging.Filter):
    """A logging filter that masks links in the message, formatted with its arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask_links(message)
        if masked != message:
            record.msg, record.args = masked, ()
        return True


class MaskedAccessLogger(GunicornLogger):
    """gunicorn's logger with every access-log field that may carry a token masked."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for name, value in atoms.items():
            if name in ("{authorization}i", "{http_authorization}e"):
                atoms[name] = MASK
            elif isinstance(value, str):
                atoms[name] = mask_links(value)
        return atoms
