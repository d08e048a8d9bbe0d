"""The benchmarks' settings, with the live broker chosen by LIVE_BROKER (redis, postgres or memory)."""

import os

from benchmarks.settings import *  # noqa: F403

LIVE_BROKER = os.environ.get("LIVE_BROKER", "")
