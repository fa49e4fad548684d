"""The tuning loop of the evaluation's weights (optimus_lab.optimus2.tune)."""

from __future__ import annotations

from optimus.optimus2.heuristics import DEFAULT, Weights
from optimus_lab.optimus2.tune import mean_score, neighbours, solo_score, tune


def test_neighbours_scale_a_weight_or_move_it_off_zero() -> None:
    w = Weights(pick=6.0, fox_prog=0.0)
    up, down = neighbours(w, "pick", 1.5)
    assert (up.pick, down.pick) == (9.0, 4.0)
    assert up.fox_low == w.fox_low  # only the named weight changes
    assert [n.fox_prog for n in neighbours(w, "fox_prog", 1.5)] == [0.5, -0.5]


def test_a_solo_game_depends_only_on_its_seed_and_the_weights() -> None:
    a = solo_score(DEFAULT, 3)
    assert a == solo_score(DEFAULT, 3)
    assert a > 0
    scores = {solo_score(DEFAULT, seed) for seed in range(4, 8)}
    assert len(scores) > 1  # other seeds, other dice


def test_tune_keeps_a_change_only_when_the_mean_rises(capsys) -> None:  # type: ignore[no-untyped-def]
    start, seeds = Weights(fox_low=20.0), [5, 6]
    base = mean_score(start, seeds)
    up, down = (mean_score(Weights(fox_low=x), seeds) for x in (30.0, 13.333))
    expected, value = (30.0, up) if up > base else (13.333, down) if down > base else (20.0, base)
    best = tune(start, ["fox_low"], seeds, sweeps=1, step=1.5)
    assert best.fox_low == expected
    out = capsys.readouterr().out
    assert out.startswith(f"start {base:.2f}") and f"best {value:.2f}" in out
