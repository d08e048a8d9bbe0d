"""`make bench`: every benchmark, figures printed as ratios measured side by side in one run."""

from __future__ import annotations

import importlib
import platform
import sys

# each module has run() -> list of lines; later modules may need Django or services
BENCHMARKS = [
    "benchmarks.engine", "benchmarks.scoreboard", "benchmarks.recompute", "benchmarks.api_load", "benchmarks.stats", "benchmarks.ratings", "benchmarks.big_screen", "benchmarks.size",
    "benchmarks.sheet_import",
    "benchmarks.live_fanout", "benchmarks.phones", "benchmarks.stream_capacity",
    # a Save as a player feels it, in Chromium through a slow line
    "benchmarks.save",
    # last: each mechanism beside the figures above it holds, with it and switched off
    "benchmarks.mechanisms",
]


def main(names: list[str]) -> int:
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, {platform.node()}")
    for name in names or BENCHMARKS:
        module = importlib.import_module(name if "." in name else f"benchmarks.{name}")
        for line in module.run():
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
