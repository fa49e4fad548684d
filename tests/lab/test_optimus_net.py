"""Optimus's value network training (optimus_lab.optimus.net): seeds, resumes, export."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from optimus.core.rng import Rng
from optimus.optimus.game import COLOUR_FACES, JOKERS, NUMBER_FACES, SOLO_ROLLS
from optimus.optimus.net import FEATURES, active, afterstates, choices, parse_net, score_now
from optimus_lab import tdnet
from optimus_lab.optimus import net
from optimus_lab.optimus.train import training_layout

from .optimus_trainers import (
    check_command_line,
    check_export,
    check_seeded_and_resumed,
    heldout_row,
    shaken_run,
)

SMALL = {"hidden": [8, 6], "block": 2, "eval_every": 0, "report": 2, "eval_games": 4}


def small_run(folder: Path, **cfg: object) -> net.OptimusRun:
    return net.OptimusRun(str(folder), {**net.DEFAULTS, **SMALL, **cfg})


def test_a_training_is_seeded_and_a_resumed_run_goes_on_exactly(tmp_path: Path) -> None:
    check_seeded_and_resumed(small_run, tmp_path)


def test_a_game_depends_on_its_seed_and_number_and_scores_its_sheet() -> None:
    p = tdnet.init_params(len(FEATURES), [8, 6], 1, 0.25)
    a = net.play(p, 5, 7, 0.1)
    assert a == net.play(p, 5, 7, 0.1)
    assert a != net.play(p, 5, 8, 0.1)
    ((feats, nows),) = a[0]
    assert len(feats) == len(nows) == 29  # every roll but the last
    assert -30 <= a[1][0] <= 120 and a[3] == a[1]


def test_the_curve_has_the_heldout_figures(tmp_path: Path) -> None:
    row = heldout_row(small_run, tmp_path)
    assert set(row["heldout_sheets"]) == {"harbour", "orchard"}
    assert row["heldout_ci"] > 0 and 0 <= row["heldout_jokers_left"] <= 8
    assert row["cap"] is None and row["train_mean"] is not None


def test_the_exported_network_is_the_trained_one_in_pure_python(tmp_path: Path) -> None:
    run = shaken_run(small_run, tmp_path)
    feats = net.play(run.p, 2, 0, 0.2)[0][0][0]
    check_export(run, net.export, parse_net, feats)
    np.testing.assert_allclose(
        tdnet.predict_sparse(run.p, feats), tdnet.predict(run.p, feats), rtol=0, atol=1e-3
    )


def test_the_command_line_trains_resumes_and_exports(tmp_path: Path) -> None:
    # Optimus's network is solo: 2 players refused
    out = check_command_line(net.main, net.OptimusRun, tmp_path, players="1", refused="2")
    model = parse_net(out.read_text(encoding="utf-8"))
    assert len(model.w1) == len(FEATURES) and len(model.b1) == 8


def test_the_fast_sums_are_numpys_own_bit_for_bit() -> None:
    rng = np.random.default_rng(7)
    w1 = (rng.standard_normal((len(FEATURES), 16)) * 0.1).astype(tdnet.F32)
    w1[rng.random(w1.shape) < 0.05] = 0.0  # zeros: their signs too
    w1z = tdnet.padded(w1)
    for _ in range(60):  # runs shorter than 8, of 8 to 128, and split once, twice, more
        feats = [
            rng.choice(len(FEATURES), int(rng.integers(1, len(FEATURES))), replace=False).tolist()
            for _ in range(int(rng.integers(1, 40)))
        ]
        lens = [len(f) for f in feats]
        starts = np.concatenate(([0], np.cumsum(lens)[:-1]))
        want = np.add.reduceat(w1[np.concatenate(feats)], starts, axis=0)
        got = tdnet.row_sums(w1z, feats)
        assert got.tobytes() == want.tobytes()
    assert tdnet.row_sums_exact()  # so the trainer uses them


def test_the_fast_path_values_and_chooses_as_the_plain_one() -> None:
    """On a few hundred positions of random games: :func:`afterstates` gives
    :func:`active`'s lists, :class:`tdnet.Sparse` :func:`tdnet.predict_sparse`'s values
    bit for bit, and :func:`net.choose` the plain argmax with its features."""
    p = tdnet.init_params(len(FEATURES), [32, 8], 3, 0.25)
    for k in ("b1", "b2"):
        p[k] += 0.1
    fast = tdnet.Sparse(p)
    rng = Rng(11)
    decisions = options_seen = 0
    for g in range(12):
        layout = training_layout(5, g)
        marks, left = 0, JOKERS
        for roll in range(1, SOLO_ROLLS + 1):
            dice_c = [COLOUR_FACES[rng.randrange(6)] for _ in range(2)]
            dice_n = [NUMBER_FACES[rng.randrange(6)] for _ in range(2)]
            options = choices(layout, marks, left, dice_c, dice_n)
            rolls_left = SOLO_ROLLS - roll
            plain = [active(layout, marks | m, left - c, rolls_left) for m, c in options]
            feats = afterstates(layout, marks, left, rolls_left, options)
            assert feats == plain
            values = np.array([float(score_now(layout, marks | m, left - c)) for m, c in options])
            if rolls_left:
                got, want = fast(feats), tdnet.predict_sparse(p, plain)
                assert got.tobytes() == want.tobytes()
                values += want
            best = int(np.argmax(values))
            choice, after = net.choose(fast, layout, marks, left, rolls_left, options)
            assert choice == options[best]
            assert after == (plain[best] if rolls_left else None)
            decisions += 1
            options_seen += len(options)
            mask, cost = options[rng.randrange(len(options))]  # a random game: varied sheets
            marks, left = marks | mask, left - cost
    assert decisions == 12 * SOLO_ROLLS and options_seen > 3000


def test_where_numpy_sums_otherwise_the_trainer_uses_reduceat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    p = tdnet.init_params(len(FEATURES), [8, 6], 2, 0.25)
    feats = net.play(p, 3, 1, 0.1)[0][0][0]
    monkeypatch.setattr(tdnet, "row_sums_exact", lambda: False)
    plain = tdnet.Sparse(p)
    assert plain.w1z is None
    assert plain(feats).tobytes() == tdnet.predict_sparse(p, feats).tobytes()
