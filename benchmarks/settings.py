"""The app's settings plus one bare view to measure against (benchmarks/urls.py)."""

from mighty_ledger.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.urls"
