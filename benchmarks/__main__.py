"""`make bench`: the figures a player or an operator feels, each beside its target, as one table.

Each benchmark is a module here with ``run() -> list[Figure]`` (measure.py), named in BENCHMARKS;
one not written yet is passed over, so a benchmark is added by writing it and naming it.
``python -m benchmarks pages capacity`` runs some of them.
"""

from __future__ import annotations

import importlib
import os
import platform
import sys

BENCHMARKS = [
    "pages",  # every page's first view after a hand, and after a restart
    "capacity",  # tables per core
    "streams",  # memory per open stream, the live fan-out at 2,000 phones
    "lighthouse",  # the board and the hand form on a phone
    "sheet_import",  # 5,000 past hands from a spreadsheet
    "save",  # tap Save → the row on this phone's board and on another phone's
]


def main(names: list[str]) -> int:
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}", flush=True)
    rows = []
    for name in names or BENCHMARKS:
        try:
            module = importlib.import_module(f"benchmarks.{name}")
        except ModuleNotFoundError as missing:
            if missing.name != f"benchmarks.{name}":
                raise
            print(f"{name}: not written yet", flush=True)
            continue
        for figure in module.run():
            print(f"{name}: {figure.what}: {figure.value:,.2f} (target {figure.target}) {figure.detail}", flush=True)
            rows.append(figure.row())
    print("\n| figure | measured | target | met | from |\n| --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    return 0 if all("**no**" not in row for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
