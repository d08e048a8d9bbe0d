"""How an event is written on a stream: the server-sent events format, as EventSource reads it."""

from __future__ import annotations

import json


def sse(event: str, data: dict) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()
