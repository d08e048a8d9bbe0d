"""The app as gunicorn serves it, with the mechanisms BENCH_SWITCHED_OFF names (comma-separated)
switched off: the server beside the app's own in benchmarks/mechanisms.py."""

import os

from benchmarks.switches import switch_off
from mighty_ledger.wsgi import application  # noqa: F401  (what gunicorn serves)

switch_off(os.environ.get("BENCH_SWITCHED_OFF", "").split(","))
