"""Lighthouse's mobile performance score of the board and the hand form, served as `make serve` serves them.

Lighthouse 12 (npm, installed once under .venv/: version 13 needs a newer Node than Debian's) on
Debian's Chromium, its mobile profile (slow 4G, 4× CPU), performance only, on a 20-hand session;
gunicorn, DEBUG off, whitenoise's compressed files (serving.py). The median of RUNS runs a page.
"""

from __future__ import annotations

import json
import statistics
import subprocess
from pathlib import Path

from .measure import Figure
from .serving import ROOT, a_table, free_port, production, stop, web

VERSION, RUNS = "12.2.3", 3
INSTALLED = ROOT / ".venv" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"


def _lighthouse() -> Path:
    program = INSTALLED / "node_modules" / ".bin" / "lighthouse"
    if not program.exists():
        subprocess.run(["npm", "install", "--prefix", str(INSTALLED), "--no-audit", "--no-fund", "-E",
                        f"lighthouse@{VERSION}"], check=True, capture_output=True)
    return program


def _score(program: Path, url: str) -> tuple[float, float] | None:
    """The page's performance score (0-100) and its first contentful paint (seconds), one run;
    None for a run that failed to record its trace (a busy machine)."""
    report = subprocess.run(
        ["nice", "-n", "-10", str(program), url, "--only-categories=performance", "--output=json", "--output-path=stdout", "--quiet",
         "--chrome-flags=--headless --no-sandbox"],
        env={"CHROME_PATH": CHROMIUM, "PATH": "/usr/bin:/bin", "HOME": str(INSTALLED)},
        capture_output=True, text=True, timeout=300)
    if report.returncode != 0:
        return None
    result = json.loads(report.stdout)
    return (result["categories"]["performance"]["score"] * 100,
            result["audits"]["first-contentful-paint"]["numericValue"] / 1000)


def run() -> list[Figure]:
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"no {CHROMIUM} (bash scripts/ensure_browser.sh installs it from Debian)")
    program = _lighthouse()
    figures = []
    with production("lighthouse") as env:
        port = free_port()
        server = web(env, port)
        try:
            group, session = a_table(port, hands=20, name="Lighthouse")
            base = f"http://127.0.0.1:{port}/g/{group['edit_token']}/s/{session}/"
            for name, url in (("the board", base), ("the hand form", base + "hands/new/")):
                runs = [run for _ in range(RUNS * 2) if (run := _score(program, url)) is not None][:RUNS]
                if not runs:
                    raise RuntimeError(f"Lighthouse recorded no run of {name}")
                scores = [score for score, _ in runs]
                figures.append(Figure(f"Lighthouse mobile performance, {name}", statistics.median(scores), "≥ 95",
                                      f"{min(scores):.0f}-{max(scores):.0f} in {RUNS} runs; first paint "
                                      f"{statistics.median(paint for _, paint in runs):.1f} s"))
        finally:
            stop(server)
    return figures
