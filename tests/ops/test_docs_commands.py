"""Every shell block of the README and docs/ still works as written, or says why it is not run here.

A block whose every command is one of the safe kinds (the engine's command line, echo, printf,
a here-document) is run from the repository's root and must exit 0. Any other block must start
with a command this module names, with the reason it is not run in a test.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```(?:sh|bash|shell)\n(.*?)^```", re.S | re.M)

# commands a test can run: the engine and text, nothing that serves, installs or writes the tree
SAFE = re.compile(r"^(\.venv/bin/python -m scoring\b|python -m scoring\b|echo\b|printf\b|cat <<|tr\b|\}|\S+\s*\|)")
# why the others are not run here; each is run by hand, by CI or by `make` itself
NOT_RUN = {
    "make ": "make's targets are what `make test` and CI run; serving or benchmarking is not a test",
    "DATABASE_URL=": "points at a PostgreSQL of the operator's",
    "TABLE_MODEL_EXAMPLES=": "the long run of a test that `make test` runs short",
    "PAYMENTS_MODEL_EXAMPLES=": "the long run of a test that `make test` runs short",
    "curl ": "talks to a running server",
    "sudo ": "changes the host",
    "systemctl ": "changes the host",
    "systemd-analyze ": "checked by tests/ops/test_front_door.py",
    "cp deploy/": "installs into the host's configuration",
    "envsubst ": "writes the host's nginx configuration",
    "caddy ": "serves on the host's ports",
    "nginx ": "serves on the host's ports",
    "gunicorn ": "serves on the host's ports",
    "pg_ctlcluster ": "starts the host's PostgreSQL",
    "SECRET_KEY=": "production settings of the operator's",
    "export ": "production settings of the operator's",
    ".venv/bin/python manage.py": "changes the database of the checkout",
    "python manage.py": "changes the database of the checkout",
    ".venv/bin/python -m pytest": "runs tests: that is `make test`'s job",
    ".venv/bin/python -m benchmarks": "a benchmark, run by `make bench`",
    "bash scripts/": "installs Debian packages",
    "apt-get ": "installs Debian packages",
    "git ": "changes the checkout",
    "faketime ": "the whole suite again with the clock moved: `make test`'s job, a year later",
}


def commands(block: str) -> list[str]:
    joined = re.sub(r"\\\n\s*", " ", block)
    return [line.strip() for line in joined.splitlines() if line.strip() and not line.strip().startswith("#")]


def blocks() -> list[tuple[str, str]]:
    found = []
    for document in DOCUMENTS:
        for number, match in enumerate(BLOCK.finditer(document.read_text(encoding="utf-8")), 1):
            found.append((f"{document.relative_to(ROOT)}#{number}", match.group(1)))
    return found


def reason_not_to_run(block: str) -> str | None:
    first = commands(block)[0] if commands(block) else ""
    return next((why for start, why in NOT_RUN.items() if first.startswith(start)), None)


def runnable(block: str) -> bool:
    lines = commands(block)
    return bool(lines) and SAFE.match(lines[0]) is not None and reason_not_to_run(block) is None


@pytest.mark.parametrize(("where", "block"), blocks(), ids=[where for where, _ in blocks()])
def test_each_shell_block_runs_or_says_why_not(where, block):
    if not runnable(block):
        assert reason_not_to_run(block), f"{where}: say why this block is not run, or make it safe:\n{block}"
        return
    finished = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
    assert finished.returncode == 0, f"{where} failed:\n{block}\n{finished.stdout}\n{finished.stderr}"
