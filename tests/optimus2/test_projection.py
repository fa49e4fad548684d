"""The learned projection of the areas' final scores (optimus.optimus2.projection)."""

from __future__ import annotations

import json

import pytest

from optimus.core.rng import Rng
from optimus.optimus2.projection import (
    TARGETS,
    features,
    fit,
    least_squares,
    load_projection,
    main,
    parse_projection,
    projected_value,
    self_play,
    soft_min,
)
from optimus.optimus2.sheet import area_scores, enter_pink, load_sheet


def test_least_squares_recovers_the_coefficients_of_a_linear_rule() -> None:
    rng = Rng(4)
    xs = [[rng.random(), rng.random(), 1.0] for _ in range(200)]
    ys = [3 * a - 2 * b + 0.5 for a, b, _ in xs]
    coefs = least_squares(xs, ys, ridge=0.0)
    assert coefs == pytest.approx([3.0, -2.0, 0.5], abs=1e-9)


def test_the_shipped_projection_loads_from_package_data_and_fits_the_features() -> None:
    p = load_projection()
    sd = load_sheet()
    rows = features(sd, sd.new_sheet(), 1.0)
    assert len(p.coefs) == len(TARGETS) == len(rows)
    assert [len(c) for c in p.coefs] == [len(r) for r in rows]
    # every area's projection grows with its score now (the first feature)
    assert all(c[0] > 0.5 for c in p.coefs)


def test_the_projection_file_is_covered_by_the_package_data_globs() -> None:
    # an installed package (wheel) must ship the coefficients next to the code
    import tomllib
    from pathlib import Path, PurePosixPath

    root = Path(__file__).resolve().parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["optimus"]
    rel = PurePosixPath("optimus2/projection.json")
    assert (root / "py/optimus" / rel).is_file()
    assert any(rel.match(g) or PurePosixPath("x", rel).match(g) for g in globs), globs


def test_a_file_of_other_features_is_refused_with_the_reason() -> None:
    text = json.dumps({"targets": list(TARGETS), "soft": 1.0, "coefs": [[1.0]] * 6})
    with pytest.raises(ValueError, match="refit"):
        parse_projection(text)


def test_projected_value_rewards_points_and_the_lowest_area_for_foxes() -> None:
    sd = load_sheet()
    blank = sd.new_sheet()
    pink = sd.new_sheet()
    enter_pink(sd, pink, 6)
    assert area_scores(sd, pink)[3] == 6
    assert projected_value(sd, pink, 0.5) > projected_value(sd, blank, 0.5)
    # at the end a fox is worth the lowest projected area
    fox = pink[:]
    fox[sd.FOX] += 1
    p = load_projection()
    areas = p.project(sd, fox, 0.0)[:5]
    gain = projected_value(sd, fox, 0.0) - projected_value(sd, pink, 0.0)
    assert gain == pytest.approx(p.coefs[5][0] * min(areas), abs=1e-6)


def test_soft_min_is_below_the_minimum_and_tends_to_it() -> None:
    xs = [10.0, 12.0, 30.0]
    assert soft_min(xs, 0.0) == 10.0
    assert soft_min(xs, 2.0) < 10.0
    assert soft_min(xs, 0.01) == pytest.approx(10.0, abs=1e-6)


def test_self_play_gives_positions_labelled_with_their_game_s_final_scores() -> None:
    samples = self_play(2, 7, learned=0.0)
    assert len(samples) > 40
    finals = {tuple(y) for _, y in samples}
    assert len(finals) == 2  # one label per game
    for f, y in samples:
        assert len(f) == len(y) == len(TARGETS)
    # the first position of a game is a blank sheet at the start
    assert samples[0][0][0][0] == 0.0
    coefs = fit(samples)
    assert len(coefs) == len(TARGETS)


def test_main_writes_a_projection_the_loader_accepts(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "p.json"
    main(["--games", "3", "--seed", "11", "--out", str(out)])
    p = parse_projection(out.read_text("utf-8"))
    assert len(p.coefs) == len(TARGETS)
    assert "positions of 3 games" in capsys.readouterr().out


def test_weights_learned_mixes_the_projection_into_the_bots_value() -> None:
    from optimus.optimus2.bots import progress_left, turn_future, value
    from optimus.optimus2.game import Optimus2State
    from optimus.optimus2.heuristics import Weights, sheet_value

    s = Optimus2State(1, load_sheet())
    enter_pink(s.sd, s.sheets[0], 5)
    t, sh = progress_left(s), s.sheets[0]
    hand = sheet_value(s.sd, sh, t)
    learned = projected_value(s.sd, sh, t)
    assert hand != pytest.approx(learned)
    extra = turn_future(s, 0)
    assert value(s, 0) == pytest.approx(hand + extra)
    assert value(s, 0, Weights(learned=1.0)) == pytest.approx(learned + extra)
    half = value(s, 0, Weights(learned=0.5))
    assert half == pytest.approx((hand + learned) / 2 + extra)
