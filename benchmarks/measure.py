"""Side-by-side measurement: interleaved rounds of ours and a baseline, median ratio.

CPU time of this thread, not wall-clock time: on a shared 2-core machine the
wall clock drifts with whatever else runs, the thread's CPU time much less.

Both sides on one core (the machine's two cores run at different speeds, so a process moved
between them measures whichever it was on), after a round that is not counted (what a process
pays once: templates compiled, caches filled).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """One line of `make bench`'s table: what was measured, its figure, and the target it is held to."""

    what: str
    value: float
    target: str  # "≤ 100", "≥ 2000"
    detail: str = ""  # the two sides' times, the sizes: what the figure was made from

    @property
    def met(self) -> bool:
        bound = float(self.target[2:].replace(",", ""))
        return self.value <= bound if self.target.startswith("≤") else self.value >= bound

    def row(self) -> str:
        value = f"{self.value:,.0f}" if self.value >= 100 else f"{self.value:.2f}"
        return f"| {self.what} | {value} | {self.target} | {'yes' if self.met else '**no**'} | {self.detail} |"


@dataclass(frozen=True)
class Comparison:
    name: str
    ours_seconds: float  # median per call
    baseline_seconds: float
    ratio: float  # median over rounds of ours / baseline

    def line(self) -> str:
        return (
            f"{self.name}: {self.ours_seconds * 1e6:.1f} µs vs {self.baseline_seconds * 1e6:.1f} µs "
            f"per call, ratio {self.ratio:.2f}"
        )


def per_call(work: Callable[[], object], calls: int, before: Callable[[], object] | None = None, *,
             clock: Callable[[], float] = time.thread_time) -> float:
    """CPU time per call of ``work``; ``before`` runs ahead of each call, untimed.

    ``clock``: this thread's CPU time, or ``time.process_time`` where the work runs on other
    threads too (the streams' pool)."""
    if before is None:
        start = clock()
        for _ in range(calls):
            work()
        return (clock() - start) / calls
    spent = 0.0
    for _ in range(calls):
        before()
        start = clock()
        work()
        spent += clock() - start
    return spent / calls


def compare(name: str, ours: Callable[[], object], baseline: Callable[[], object], *,
            rounds: int = 7, calls: int = 200, before_ours: Callable[[], object] | None = None,
            before_baseline: Callable[[], object] | None = None,
            clock: Callable[[], float] = time.thread_time) -> Comparison:
    ours_times, base_times, ratios = [], [], []
    with one_core():
        per_call(ours, calls, before_ours, clock=clock)  # not counted: what only the first round pays
        per_call(baseline, calls, before_baseline, clock=clock)
        for _ in range(rounds):
            a = per_call(ours, calls, before_ours, clock=clock)
            b = per_call(baseline, calls, before_baseline, clock=clock)
            ours_times.append(a)
            base_times.append(b)
            ratios.append(a / b if b else float("inf"))
    return Comparison(name, statistics.median(ours_times), statistics.median(base_times),
                      statistics.median(ratios))


@contextmanager
def one_core() -> Iterator[None]:
    """Every thread of this process on one core (the lowest it may use) while the block runs:
    threads started meanwhile (a thread pool's first worker) inherit it. Where the system cannot
    say, nothing changes."""
    threads = "/proc/self/task"
    if not (hasattr(os, "sched_setaffinity") and os.path.isdir(threads)):
        yield
        return
    allowed = os.sched_getaffinity(0)

    def pin(cores: set[int]) -> None:
        # on Linux an affinity is a thread's own: the process's other threads are set one by one
        for thread in os.listdir(threads):
            with suppress(OSError):  # a thread that ended meanwhile
                os.sched_setaffinity(int(thread), cores)

    pin({min(allowed)})
    try:
        yield
    finally:
        pin(allowed)
