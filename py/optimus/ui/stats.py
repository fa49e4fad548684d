"""The records page's statistics: per game and table, the figures and the charts as data.

Pure (no page, no drawing): the page (``web/records_view.py``) turns these into
text and inline SVG.  For each game and table (``solo``, ``people`` or the
strongest bot level, :func:`optimus.ui.records.level_of`) a :class:`Line` holds
games played, won, best and mean score, the score history (oldest first) with
its moving average, and the distribution of the scores in bins of a round width.
:func:`history_chart` and :func:`distribution_chart` place them in a box of the
page's choosing (SVG user units: y grows downwards).

>>> from optimus.ui.records import Records, Result
>>> kept = Records()
>>> for n, points in enumerate([30, 42, 35, 51, 48]):
...     _ = kept.add(Result("g", "hard", 2, points, n % 2 == 1, "2026-12-02", {}, ident=f"r{n}"))
>>> line = lines(kept, "g")[0]
>>> line.level, line.played, line.wins, line.best, line.mean, line.win_rate
('hard', 5, 2, 51, 41.2, 40)
>>> line.average
(30.0, 36.0, 35.7, 39.5, 41.2)
>>> [(b.low, b.high, b.count) for b in line.bins]
[(30, 34, 1), (35, 39, 1), (40, 44, 1), (45, 49, 1), (50, 54, 1)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields

from optimus.ui.records import Records, Stats

WINDOW = 5
"""Games per moving average: each point is the mean of the last (up to) five scores."""
MAX_BINS = 8
"""At most this many bars in the distribution."""
MIN_SLOTS = 5
"""A bar is never wider than a fifth of the plot."""


@dataclass(frozen=True)
class Bin:
    """A bar of the distribution: the scores from ``low`` to ``high`` (both included)."""

    low: int
    high: int
    count: int


@dataclass(frozen=True)
class Line(Stats):
    """One game at one table: the records' figures (:class:`~optimus.ui.records.Stats`)
    and the charts' data."""

    average: tuple[float, ...] = ()
    """The moving average of ``history`` (:data:`WINDOW` games), point by point."""
    bins: tuple[Bin, ...] = ()

    @property
    def win_rate(self) -> int:
        """Games won, in whole per cent of games played."""
        return round(100 * self.wins / self.played) if self.played else 0


def lines(kept: Records, game: str) -> list[Line]:
    """``game``'s lines, one per table (solo first, then weakest to strongest)."""
    out = []
    for s in kept.stats(game):
        history = s.history or s.scores
        figures = {f.name: getattr(s, f.name) for f in fields(s)}
        figures["history"] = history
        out.append(Line(**figures, average=moving_average(history), bins=distribution(history)))
    return out


def moving_average(scores: Sequence[int], window: int = WINDOW) -> tuple[float, ...]:
    """Each score's trailing mean over the last ``window`` scores (fewer at the start),
    to one decimal.

    >>> moving_average([10, 20, 30, 40], 2)
    (10.0, 15.0, 25.0, 35.0)
    >>> moving_average([])
    ()
    """
    out = []
    total = 0
    for i, score in enumerate(scores):
        total += score
        if i >= window:
            total -= scores[i - window]
        out.append(round(total / min(i + 1, window), 1))
    return tuple(out)


def bin_width(span: int, bins: int = MAX_BINS) -> int:
    """A round width (1, 2, 5, 10, 20, 50...) so that ``span`` scores fill at most
    ``bins`` bars.

    >>> bin_width(0), bin_width(7), bin_width(9), bin_width(37), bin_width(300)
    (1, 1, 2, 5, 50)
    """
    need = max(1, math.ceil((span + 1) / bins))
    scale = 1
    while True:
        for step in (1, 2, 5):
            if step * scale >= need:
                return step * scale
        scale *= 10


def distribution(scores: Sequence[int], bins: int = MAX_BINS) -> tuple[Bin, ...]:
    """How many scores fall in each bar of a round width, lowest first; the bars run
    from the lowest score's to the highest's, empty ones included.

    >>> [(b.low, b.high, b.count) for b in distribution([3, 4, 4, 9, -1])]
    [(-2, -1, 1), (0, 1, 0), (2, 3, 1), (4, 5, 2), (6, 7, 0), (8, 9, 1)]
    >>> distribution([])
    ()
    """
    if not scores:
        return ()
    low, high = min(scores), max(scores)
    width = bin_width(high - low, bins)
    start = (low // width) * width
    count = (high - start) // width + 1
    counts = [0] * count
    for s in scores:
        counts[(s - start) // width] += 1
    return tuple(
        Bin(start + i * width, start + (i + 1) * width - 1, n) for i, n in enumerate(counts)
    )


# -- charts: the data placed in a box -------------------------------------------------


@dataclass(frozen=True)
class Box:
    """Where a chart is drawn: the whole ``width`` x ``height`` (SVG units), and the
    margins left for the axes' words."""

    width: float = 320
    height: float = 160
    left: float = 36
    right: float = 8
    top: float = 10
    bottom: float = 22

    @property
    def inner(self) -> tuple[float, float, float, float]:
        """The plot's x, y, width and height."""
        return (
            self.left,
            self.top,
            self.width - self.left - self.right,
            self.height - self.top - self.bottom,
        )


@dataclass(frozen=True)
class HistoryChart:
    scores: str
    """The ``points`` of the scores' polyline."""
    average: str
    """The ``points`` of the moving average's polyline."""
    dots: tuple[tuple[float, float], ...]
    """Each score's point (drawn as a dot when there are few)."""
    y_ticks: tuple[tuple[int, float], ...]
    """The scores marked on the left axis, each with its height: ``(value, y)``."""
    x_ticks: tuple[tuple[int, float], ...]
    """Game numbers (1 = the oldest shown) along the bottom, each with its ``x``."""


def _scale(low: float, high: float, a: float, b: float) -> tuple[float, float]:
    """``value -> a + (value - low) * k``: the offset and factor mapping low..high on a..b."""
    if high == low:
        return (a + b) / 2, 0.0
    k = (b - a) / (high - low)
    return a - low * k, k


def _points(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def history_chart(
    scores: Sequence[int], average: Sequence[float], box: Box = Box()
) -> HistoryChart:
    """The scores (oldest left) and their moving average in ``box``: the highest score
    at the top of the plot, the lowest at its bottom; ticks at both and, when there is
    room, zero.

    >>> c = history_chart([10, 30, 20], [10.0, 20.0, 20.0], Box(100, 50, 0, 0, 0, 0))
    >>> c.scores, c.average
    ('0.0,50.0 50.0,0.0 100.0,25.0', '0.0,50.0 50.0,25.0 100.0,25.0')
    >>> c.y_ticks, c.x_ticks
    (((10, 50.0), (30, 0.0)), ((1, 0.0), (3, 100.0)))
    """
    if not scores:
        return HistoryChart("", "", (), (), ())
    x0, y0, w, h = box.inner
    low, high = min(scores), max(scores)
    yo, yk = _scale(low, high, y0 + h, y0)
    n = len(scores)
    xo, xk = _scale(0, n - 1, x0, x0 + w) if n > 1 else (x0 + w / 2, 0.0)
    dots = tuple((xo + i * xk, yo + s * yk) for i, s in enumerate(scores))
    mean = tuple((xo + i * xk, yo + a * yk) for i, a in enumerate(average))
    values = sorted({low, high} | ({0} if low < 0 < high else set()))
    y_ticks = tuple((v, round(yo + v * yk, 1)) for v in values)
    x_ticks = tuple((i + 1, round(xo + i * xk, 1)) for i in sorted({0, n - 1}))
    return HistoryChart(_points(dots), _points(mean), dots, y_ticks, x_ticks)


@dataclass(frozen=True)
class Bar:
    """A bar of the distribution placed: its bin and rectangle."""

    bin: Bin
    x: float
    y: float
    width: float
    height: float


def distribution_chart(bins: Sequence[Bin], box: Box = Box()) -> tuple[Bar, ...]:
    """The distribution's bars side by side in ``box``, the tallest filling the plot's
    height (a gap of a tenth of a bar between bars); fewer than :data:`MIN_SLOTS` bars
    are as wide as that many would be, centred.

    >>> [(b.x, b.y, b.width, b.height) for b in distribution_chart(
    ...     [Bin(0, 4, 2), Bin(5, 9, 1)], Box(100, 50, 0, 0, 0, 0))]
    [(31.0, 0.0, 18.0, 50.0), (51.0, 25.0, 18.0, 25.0)]
    """
    if not bins:
        return ()
    x0, y0, w, h = box.inner
    most = max(b.count for b in bins) or 1
    slot = w / max(len(bins), MIN_SLOTS)  # few bars stay bars, centred, not slabs
    start = x0 + (w - slot * len(bins)) / 2
    gap = slot / 10
    out = []
    for i, b in enumerate(bins):
        tall = h * b.count / most
        out.append(Bar(b, start + i * slot + gap / 2, y0 + h - tall, slot - gap, tall))
    return tuple(out)


@dataclass(frozen=True)
class Accuracy:
    """A game's reviewed games, oldest first: the share of best decisions (whole per
    cent, the chart's line) and the mean loss (points per decision) of each."""

    best: tuple[int, ...]
    losses: tuple[float, ...]
    average: tuple[float, ...]
    """The moving average of ``best`` (:data:`WINDOW` games)."""


def accuracy(kept: Records, game: str) -> Accuracy:
    """``game``'s kept accuracies (:meth:`~optimus.ui.records.Records.keep_accuracy`),
    by the day each game ended (the order they were reviewed among one day's).

    >>> from optimus.ui.records import Records
    >>> kept = Records()
    >>> for ident, day, share in (("a", "2026-12-03", 0.5), ("b", "2026-12-01", 0.75)):
    ...     kept.keep_accuracy("g", ident, {"decisions": 8, "mean_loss": 1.0,
    ...                                     "best_share": share, "coach": "hard", "day": day})
    >>> accuracy(kept, "g")
    Accuracy(best=(75, 50), losses=(1.0, 1.0), average=(75.0, 62.5))
    """
    entries = sorted(kept.accuracy.get(game, {}).values(), key=lambda e: str(e["day"]))
    best = tuple(round(100 * e["best_share"]) for e in entries)
    losses = tuple(float(e["mean_loss"]) for e in entries)
    return Accuracy(best, losses, moving_average(best))
