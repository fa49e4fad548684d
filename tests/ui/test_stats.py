"""The records page's statistics (py/optimus/ui/stats.py): figures, history, distribution."""

from __future__ import annotations

import json

from optimus.ui import stats
from optimus.ui.records import SCORES_KEPT, Records, Result, dump, load


def result(score: int, level: str = "hard", won: bool = False, n: int = 0) -> Result:
    return Result("optimus2", level, 2, score, won, "2026-12-02", {}, ident=f"id{level}{n}")


def test_each_table_gets_its_figures_and_its_whole_history() -> None:
    kept = Records()
    for n in range(45):
        kept.add(result(100 + n, won=n % 3 == 0, n=n))
    kept.add(result(7, level="easy"))
    kept.add(result(60, level="solo"))
    got = stats.lines(kept, "optimus2")
    assert [x.level for x in got] == ["solo", "easy", "hard"]
    hard = got[2]
    assert (hard.played, hard.wins, hard.best, hard.mean) == (45, 15, 144, 122.0)
    assert hard.win_rate == 33
    assert hard.history == tuple(range(100, 145)), "more than the 30 last scores"
    assert len(hard.history) > SCORES_KEPT
    assert len(hard.average) == 45 and hard.average[-1] == sum(range(140, 145)) / 5
    assert sum(b.count for b in hard.bins) == 45
    assert len(hard.bins) <= stats.MAX_BINS


def test_a_first_version_store_shows_the_scores_it_kept() -> None:
    v1 = {
        "format": "optimus-table-records",
        "version": 1,
        "games": {
            "optimus2": {
                "easy": {"played": 9, "wins": 1, "best": 50, "total": 200, "scores": [10, 50]}
            }
        },
    }
    (line,) = stats.lines(load(json.dumps(v1)).records, "optimus2")
    assert (line.played, line.best, line.history) == (9, 50, (10, 50))
    assert load(dump(load(json.dumps(v1)).records)).records.stats("optimus2")[0].history


def test_the_moving_average_follows_the_last_five_games() -> None:
    scores = [0, 10, 20, 30, 40, 50, 60]
    avg = stats.moving_average(scores)
    assert avg[:5] == (0.0, 5.0, 10.0, 15.0, 20.0)
    assert avg[5] == 30.0 and avg[6] == 40.0  # 10..50, 20..60


def test_the_distribution_counts_every_score_once_in_round_bins() -> None:
    scores = [-13, 0, 4, 4, 99, 250, 251, 37]
    bins = stats.distribution(scores)
    width = bins[0].high - bins[0].low + 1
    assert width in (1, 2, 5, 10, 20, 50, 100)
    assert len(bins) <= stats.MAX_BINS
    assert sum(b.count for b in bins) == len(scores)
    for b in bins:
        assert b.high - b.low + 1 == width and b.low % width == 0
        assert b.count == sum(1 for s in scores if b.low <= s <= b.high)
    assert bins[0].low <= min(scores) and bins[-1].high >= max(scores)
    assert [b.count for b in stats.distribution([5] * 4)] == [4]


def test_the_history_chart_keeps_every_point_inside_its_plot() -> None:
    box = stats.Box()
    x0, y0, w, h = box.inner
    scores = [30, -5, 80, 80, 12, 44]
    chart = stats.history_chart(scores, stats.moving_average(scores), box)
    xs = [x for x, _y in chart.dots]
    assert xs == sorted(xs) and xs[0] == x0 and round(xs[-1], 6) == x0 + w
    for x, y in chart.dots:
        assert x0 <= x <= x0 + w and y0 <= y <= y0 + h
    assert chart.dots[2][1] == y0 and chart.dots[1][1] == y0 + h  # highest on top
    assert [value for value, _ in chart.y_ticks] == [-5, 0, 80]
    assert len(chart.average.split()) == len(scores)
    one = stats.history_chart([12], (12.0,), box)
    assert one.dots == ((x0 + w / 2, y0 + h / 2),)
    assert stats.history_chart([], (), box).scores == ""


def test_the_distribution_bars_share_the_plot_tallest_full_height() -> None:
    box = stats.Box()
    x0, y0, w, h = box.inner
    bars = stats.distribution_chart(stats.distribution([1, 2, 2, 3, 3, 3, 9]), box)
    assert max(b.height for b in bars) == h
    for a, b in zip(bars, bars[1:], strict=False):
        assert a.x + a.width < b.x, "bars do not overlap"
    assert all(x0 <= b.x and b.x + b.width <= x0 + w + 1e-9 for b in bars)
    assert all(b.y + b.height == y0 + h for b in bars)
