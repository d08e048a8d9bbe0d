"""gunicorn settings for `make serve`: `gunicorn -c gunicorn.conf.py mighty_ledger.wsgi`.

Production mode runs on PostgreSQL and Redis: SQLite serialises every writer, so
several workers on one file would queue behind each other's hands; and the web
workers and the stream processes are processes apart, which hear of each change
through Redis (mighty_ledger/live/brokers.py), where the rate limits are counted
too (five workers counting on their own would allow five times the limit).
"""

import multiprocessing
import os
import re

if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
    raise SystemExit(
        "make serve needs DATABASE_URL=postgres://user:password@host:5432/name "
        "(production runs on PostgreSQL, not SQLite)"
    )

bind = os.environ.get("BIND", "127.0.0.1:8000")
# make serve starts two masters from this file: the sync workers, and the stream server
# (SERVE_ROLE=streams, bound to STREAM_BIND on the command line)
role = "streams" if os.environ.get("SERVE_ROLE") == "streams" else "web"
# gunicorn's rule of thumb: 2 x cores + 1 sync workers; a hand is a few ms of
# CPU and a few queries, so workers mostly wait on PostgreSQL
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count() + 1))
if not os.environ.get("REDIS_URL", "").startswith(("redis://", "rediss://", "unix://")):
    raise SystemExit(
        "make serve needs REDIS_URL=redis://host:6379/0: the stream processes hear each hand the web "
        "workers record through it, and the workers share the rate limits' counts there"
    )
# gunicorn answers a longer request line with an HTML 414 of its own: its largest limit lets
# the app answer a URL past its own (4096 bytes, http/middleware.py) in the API's error shape
limit_request_line = 8190
# one phone on a slow network must not hold a worker forever
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 10
# the whole app is imported once, then forked: workers share its memory
preload_app = True
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
# every /g/<token>/ path, Referer and Authorization header is written with the token masked
logger_class = "mighty_ledger.http.redact.MaskedAccessLogger"
errorlog = "-"
# gunicorn's control socket (gunicornc) defaults to one path per user: both masters would bind
# it, and each take it over again when a worker restarts. One per master, named by what it serves.
_address = os.environ.get("STREAM_BIND", "127.0.0.1:8001") if role == "streams" else bind
_runtime = os.environ.get("XDG_RUNTIME_DIR", "")
control_socket = os.path.join(
    _runtime if _runtime and os.path.isdir(_runtime) else os.path.expanduser("~/.gunicorn"),
    f"mighty-ledger-{role}-{re.sub(r'[^A-Za-z0-9.-]+', '_', _address)}.ctl",
)
# behind a proxy on the same machine only; widen with FORWARDED_ALLOW_IPS
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
