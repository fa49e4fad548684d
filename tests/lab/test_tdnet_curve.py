"""Learning curves side by side (``python -m optimus_lab.optimus.standard curve``, shared
by every trainer's command line): a row a window of episodes, a column a run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from optimus_lab.optimus import standard
from optimus_lab.tdnet import curve_trend


def write_curve(folder: Path, points: list[tuple[int, float, float]]) -> Path:
    folder.mkdir()
    lines = [
        json.dumps({"episodes": e, "heldout_mean": m, "heldout_ci": 0.7, "epsilon": eps})
        for e, m, eps in points
    ]
    (folder / "curve.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_each_window_gives_each_run_its_evaluations_mean_range_and_epsilon(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = write_curve(
        tmp_path / "a",
        [(0, -3.0, 0.08), (5_000, 11.0, 0.079), (10_000, 13.0, 0.078), (15_000, 20.0, 0.077)],
    )
    b = write_curve(tmp_path / "b", [(10_000, 25.0, 0.005), (12_500, 26.0, 0.005)])
    standard.main(["curve", "--run", str(a), str(b), "--window", "10000"])
    rows = capsys.readouterr().out.strip().splitlines()
    assert rows[0] == "| episodes | a | b |"
    assert rows[2] == "| 0-9,999 | 4.00 (-3.00-11.00, n=2, eps 0.080-0.079) |  |"
    assert rows[3] == (
        "| 10,000-19,999 | 16.50 (13.00-20.00, n=2, eps 0.078-0.077) "
        "| 25.50 (25.00-26.00, n=2, eps 0.005) |"
    )
    assert len(rows) == 4


def test_a_folder_without_a_curve_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        standard.main(["curve", "--run", str(tmp_path / "none")])
    assert f"no curve.jsonl in {tmp_path / 'none'}" in capsys.readouterr().err


def test_the_trend_gives_each_run_its_mean_and_slope_from_an_episode_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # from 100,000 on: 20, 21, 22 at 100,000 steps (a slope of 1 a 100,000, exact);
    # before it a point far off the line, which the trend must leave out
    a = write_curve(
        tmp_path / "a",
        [(0, -50.0, 0.08), (100_000, 20.0, 0.01), (200_000, 21.0, 0.01), (300_000, 22.0, 0.01)],
    )
    b = write_curve(tmp_path / "b", [(100_000, 25.0, 0.01), (200_000, 26.0, 0.01)])
    standard.main(["curve", "--run", str(a), str(b), "--window", "100000", "--trend", "100000"])
    rows = capsys.readouterr().out.strip().splitlines()
    assert rows[-2] == (
        "a from 100,000: 3 evaluations, mean 21.00, slope +1.000 (+1.000 to +1.000)"
        " per 100,000 episodes"
    )
    assert rows[-1] == "b from 100,000: too few evaluations for a line"


def test_the_trend_interval_widens_with_the_scatter_about_the_line(tmp_path: Path) -> None:
    flat = [{"episodes": e, "heldout_mean": m} for e, m in [(0, 1.0), (1, 3.0), (2, 1.0), (3, 3.0)]]
    trend = curve_trend(flat, 0)
    assert trend is not None
    assert trend["n"] == 4 and trend["mean"] == 2.0
    assert trend["half"] > abs(trend["slope"])  # no slope told apart from the scatter
