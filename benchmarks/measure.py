"""Side-by-side measurement: interleaved rounds of ours and a baseline, median ratio.

CPU time of this thread, not wall-clock time: on a shared 2-core machine the
wall clock drifts with whatever else runs, the thread's CPU time much less.

Both sides on one core, after a round that is not counted. The development machine's two
virtual cores run at different speeds (on 26 November one took 1.4 times as long as the other
for the same hand), and a process the kernel moves between them measured the core it happened
to be on: the POST alone came out at 2.8 or at 4.1 ms from one round to the next, and the ratio
of a round with the steps' thread moved with it. The first round pays for what a process does
once (templates compiled, statements written, caches filled), which no later hand pays.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
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


def with_and_without(name: str, ours: Callable[[], object], baseline: Callable[[], object],
                     off: Callable[[], AbstractContextManager], *, ours_off: Callable[[], object] | None = None,
                     rounds: int = 7, calls: int = 200, before_ours: Callable[[], object] | None = None,
                     before_baseline: Callable[[], object] | None = None,
                     clock: Callable[[], float] = time.thread_time) -> tuple[Comparison, Comparison]:
    """``ours`` against ``baseline`` with a mechanism, and with it switched off (inside ``off()``,
    which also runs ``ours_off`` in place of ``ours`` when given: what the app does without it),
    against the same baseline, always measured with the mechanism on. Each round measures both
    sides (in turn first), each followed by the baseline it is divided by; on one core, after a
    round that is not counted."""
    plain = ours_off or ours

    def side(which: str) -> float:
        if which == "with":
            return per_call(ours, calls, before_ours, clock=clock)
        with off():
            return per_call(plain, calls, before_ours, clock=clock)

    times: dict[str, list[float]] = {"with": [], "without": []}
    bases: dict[str, list[float]] = {"with": [], "without": []}
    with one_core():
        for which in times:  # not counted: what only the first round pays
            side(which)
            per_call(baseline, calls, before_baseline, clock=clock)
        for index in range(rounds):
            for which in ("with", "without") if index % 2 == 0 else ("without", "with"):
                times[which].append(side(which))
                bases[which].append(per_call(baseline, calls, before_baseline, clock=clock))
    return tuple(
        Comparison(f"{name}, {which}", statistics.median(times[which]), statistics.median(bases[which]),
                   statistics.median(a / b if b else float("inf") for a, b in zip(times[which], bases[which],
                                                                                   strict=True)))
        for which in ("with", "without"))

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


# --- another process's CPU, from /proc ------------------------------------------------------------


def cpu_seconds(pid: int) -> float | None:
    """The CPU process ``pid`` has spent (user and system), or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            # the fields after the command's name, which may hold spaces: state first
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (as its threads list them), or none when it is gone."""
    found = []
    with suppress(OSError):
        for thread in os.listdir(f"/proc/{pid}/task"):
            with suppress(OSError), open(f"/proc/{pid}/task/{thread}/children") as listed:
                found += [int(child) for child in listed.read().split()]
    return found
