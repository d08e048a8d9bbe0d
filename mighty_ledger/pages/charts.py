"""Score over time: the points an inline SVG chart draws, computed in Python.

The template (templates/partials/chart.html) only places what is here: one
line per player from the running totals stored with each hand, a marker shape
and dash pattern per line besides its colour, tick labels, and a few rows for
the table under the chart. No chart library.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mighty_ledger.models import Session
from scoring.numbers import signed

CHART_WIDTH, CHART_HEIGHT = 360, 200  # the viewBox: a 360-px phone shows it at about its own size
PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, PLOT_BOTTOM = 40, 352, 10, 182
CHART_STYLES = 8  # colours, dash patterns and marker shapes (static/css/app.css: .series-0 …)
MARKERS_PER_LINE = 8  # besides the last point: enough to follow a line, few enough to tap
FALLBACK_ROWS = 20  # the table under the chart: every step of a short evening, a sample of a long one


@dataclass(frozen=True)
class ChartMarker:
    x: float
    y: float
    title: str  # the tooltip: who, when, how many points
    shape: str  # an SVG path around (x, y): the second cue besides colour


@dataclass(frozen=True)
class ChartLine:
    name: str
    style: int  # colour, dash pattern and marker shape, the same in the legend
    path: str
    markers: tuple[ChartMarker, ...]
    last: int  # the total at the last step
    last_text: str  # as the pages print it: +10, −4, 0
    legend_marker: str  # the same marker in the legend's swatch (a 28×10 box)


@dataclass(frozen=True)
class ChartTick:
    y: float
    label: str


@dataclass(frozen=True)
class Chart:
    names: tuple[str, ...]
    lines: tuple[ChartLine, ...]
    ticks: tuple[ChartTick, ...]
    zero: float
    first_label: str
    last_label: str
    last_x: float
    rows: tuple[tuple[str, tuple[str, ...]], ...]  # the table fallback: (step, signed totals in name order)
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT
    left: int = PLOT_LEFT
    right: int = PLOT_RIGHT
    top: int = PLOT_TOP
    bottom: int = PLOT_BOTTOM


def _marker_shape(style: int, x: float, y: float) -> str:
    r = 3.5
    shapes = (
        f"M{x - r:.1f},{y:.1f}a{r},{r} 0 1,0 {2 * r},0a{r},{r} 0 1,0 {-2 * r},0Z",  # circle
        f"M{x - r:.1f},{y - r:.1f}h{2 * r}v{2 * r}h{-2 * r}Z",  # square
        f"M{x:.1f},{y - r - 1:.1f}l{r + 1},{2 * r + 1}h{-2 * r - 2}Z",  # triangle
        f"M{x:.1f},{y - r - 1:.1f}l{r + 1},{r + 1}l{-r - 1},{r + 1}l{-r - 1},{-r - 1}Z",  # diamond
    )
    return shapes[style % len(shapes)]


def _nice_step(span: int) -> int:
    """A round tick step giving three to six ticks over the span."""
    step = 1
    while span / step > 5:
        for factor in (2, 5, 10):
            if span / (step * factor) <= 5:
                return step * factor
        step *= 10
    return step


def score_chart(names: Sequence[str], steps: Sequence[tuple[str, dict]], *, tooltip) -> Chart | None:
    """One line per player over ``steps`` (a label and the totals after it), from 0 before the first.

    ``tooltip(name, label, points)`` words a marker's title in the reader's language.
    None when there is nothing to draw yet.
    """
    if not steps or not names:
        return None
    values = [[0, *(int(totals.get(name, 0)) for _, totals in steps)] for name in names]
    low = min(0, *(min(v) for v in values))
    high = max(0, *(max(v) for v in values))
    step = _nice_step(max(high - low, 1))
    low, high = (low // step) * step, -((-high) // step) * step
    if high == low:
        high = low + step
    count = len(steps)

    def x_of(i: int) -> float:
        return PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) * i / count

    def y_of(points: int) -> float:
        return PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * (points - low) / (high - low)

    # markers at evenly spaced steps and always at the last one, which the legend repeats
    every = max(1, -(-count // MARKERS_PER_LINE))
    marked = sorted({*range(every, count + 1, every), count})
    lines = []
    for style, (name, series) in enumerate(zip(names, values, strict=True)):
        path = "M" + " ".join(f"{x_of(i):.1f},{y_of(v):.1f}" for i, v in enumerate(series))
        markers = tuple(
            ChartMarker(round(x_of(i), 1), round(y_of(series[i]), 1),
                        tooltip(name, steps[i - 1][0], signed(series[i])),
                        _marker_shape(style, x_of(i), y_of(series[i])))
            for i in marked
        )
        lines.append(ChartLine(name, style % CHART_STYLES, path, markers, series[-1], signed(series[-1]),
                               _marker_shape(style, 14, 5)))
    ticks = tuple(ChartTick(round(y_of(v), 1), signed(v)) for v in range(low, high + 1, step))
    sample = max(1, -(-count // FALLBACK_ROWS))
    shown = sorted({*range(sample - 1, count, sample), count - 1})
    rows = tuple((steps[i][0], tuple(signed(values[n][i + 1]) for n in range(len(names)))) for i in shown)
    return Chart(
        names=tuple(names), lines=tuple(lines), ticks=ticks, zero=round(y_of(0), 1),
        first_label=steps[0][0], last_label=steps[-1][0], last_x=round(x_of(count), 1), rows=rows,
    )


def season_steps(sessions: Iterable[Session]) -> list[tuple[Session, dict]]:
    """Each session, oldest first, with every player's cumulative total after it (stored totals only)."""
    running: dict[str, int] = defaultdict(int)
    steps = []
    for session in sorted(sessions, key=lambda s: (s.played_on, s.pk)):
        for name, points in session.totals.items():
            running[name] += points
        steps.append((session, dict(running)))
    return steps


def one_decimal(value: float) -> str:
    # a value at -0.04 is 0.0, as the rating table writes it, not −0.0
    shown = f"{value:.1f}"
    return "0.0" if shown == "-0.0" else shown.replace("-", "−")


def trend_chart(name: str, steps: Sequence[tuple[str, float]], *, start: float, tooltip) -> Chart | None:
    """One line: a figure (a player's rating) from ``start`` through ``steps`` (a label and the
    figure after it), on the same drawing as the score charts. None when there is no step yet."""
    if not steps:
        return None
    series = [start, *(value for _, value in steps)]
    step = _nice_step(max(math.ceil(max(series) - min(series)), 1))
    low, high = math.floor(min(series) / step) * step, math.ceil(max(series) / step) * step
    if high == low:
        high = low + step
    count = len(steps)

    def x_of(i: int) -> float:
        return PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) * i / count

    def y_of(value: float) -> float:
        return PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * (value - low) / (high - low)

    every = max(1, -(-count // MARKERS_PER_LINE))
    marked = sorted({*range(every, count + 1, every), count})
    markers = tuple(
        ChartMarker(round(x_of(i), 1), round(y_of(series[i]), 1),
                    tooltip(name, steps[i - 1][0], one_decimal(series[i])), _marker_shape(0, x_of(i), y_of(series[i])))
        for i in marked
    )
    path = "M" + " ".join(f"{x_of(i):.1f},{y_of(v):.1f}" for i, v in enumerate(series))
    line = ChartLine(name, 0, path, markers, round(series[-1]), one_decimal(series[-1]), _marker_shape(0, 14, 5))
    ticks = tuple(ChartTick(round(y_of(v), 1), str(v).replace("-", "−")) for v in range(low, high + 1, step))
    sample = max(1, -(-count // FALLBACK_ROWS))
    shown = sorted({*range(sample - 1, count, sample), count - 1})
    rows = tuple((steps[i][0], (one_decimal(series[i + 1]),)) for i in shown)
    return Chart(
        names=(name,), lines=(line,), ticks=ticks, zero=round(y_of(0), 1) if low <= 0 <= high else -1,
        first_label=steps[0][0], last_label=steps[-1][0], last_x=round(x_of(count), 1), rows=rows,
    )
