"""Optimus's solo network on one-roll expectations (optimus_lab.optimus.expected)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

from optimus.core.arena import executor
from optimus.core.rng import Rng
from optimus.optimus.game import COLOUR_FACES, JOKERS, NUMBER_FACES, SOLO_ROLLS
from optimus.optimus.net import FEATURES, afterstates, choices, score_now
from optimus_lab import tdnet
from optimus_lab.optimus import expected, net
from optimus_lab.optimus.train import training_layout


def a_sheet(p: tdnet.Params, rolls: int, seed: int) -> tuple[int, int]:
    """The sheet after ``rolls`` rolls of greedy play on ``p`` (marks, "!" left)."""
    layout = training_layout(1, 4)
    rng = Rng(seed)
    marks, left = 0, JOKERS
    for roll in range(1, rolls + 1):
        dice_c = [COLOUR_FACES[rng.randrange(6)] for _ in range(2)]
        dice_n = [NUMBER_FACES[rng.randrange(6)] for _ in range(2)]
        options = choices(layout, marks, left, dice_c, dice_n)
        (mask, cost), _ = net.choose(
            tdnet.Sparse(p), layout, marks, left, SOLO_ROLLS - roll, options
        )
        marks, left = marks | mask, left - cost
    return marks, left


def brute_force(p: tdnet.Params, marks: int, left: int, rolls_left: int) -> float:
    """The mean over all 6^4 ordered rolls of the best choice they allow, one by one."""
    layout = training_layout(1, 4)
    total = 0.0
    for c1, c2, n1, n2 in itertools.product(COLOUR_FACES, COLOUR_FACES, NUMBER_FACES, NUMBER_FACES):
        options = choices(layout, marks, left, [c1, c2], [n1, n2])
        v = np.array([score_now(layout, marks | m, left - c) for m, c in options], float)
        if rolls_left > 1:
            v += tdnet.Sparse(p)(afterstates(layout, marks, left, rolls_left - 1, options))
        total += float(v.max())
    return total / 6**4


def test_the_expectation_is_the_mean_of_every_roll_s_best_choice() -> None:
    p = tdnet.init_params(len(FEATURES), [8, 6], 3, 0.25)
    layout = training_layout(1, 4)
    for rolls, seed in ((26, 1), (29, 2)):  # the network at the leaves; the score only
        marks, left = a_sheet(p, rolls, seed)
        rolls_left = SOLO_ROLLS - rolls
        got = expected.expected_value(tdnet.Sparse(p), layout, marks, left, rolls_left)
        assert abs(got - brute_force(p, marks, left, rolls_left)) < 1e-4
    # short of "!": a pair of jokers needs two, a joker one, none with none left
    marks, _ = a_sheet(p, 20, 3)
    for left in (1, 0):
        got = expected.expected_value(tdnet.Sparse(p), layout, marks, left, 10)
        assert abs(got - brute_force(p, marks, left, 10)) < 1e-4
    table = expected.face_table(tdnet.Sparse(p), layout, marks, 0, 9)
    stay = table[-1, -1]  # the pass: all a joker face offers with no "!" left
    assert (table[-1, :] == stay).all() and (table[:, -1] == stay).all()
    assert (table[:-1, :-1] > stay).any()


def test_a_training_game_fits_each_afterstate_to_its_expectation(tmp_path: Path) -> None:
    p = tdnet.init_params(len(FEATURES), [8, 6], 1, 0.25)
    traces, targets, left, finals, _ = net.play(p, 5, 7, 0.1, "train", expected.expected_value)
    assert len(traces) == len(targets) == SOLO_ROLLS - 1
    # the same dice and choices as the lambda-return's game: the same afterstates
    ((feats, nows),) = net.play(p, 5, 7, 0.1)[0]
    assert [t[0][0] for t in traces] == feats and [t[1][0] for t in traces] == nows
    assert finals == net.play(p, 5, 7, 0.1)[1]
    # the run's training games are these; its held-out games the lambda trainer's
    train = expected.play_block((p, 5, [7], [0.1], [None], "train", 1))
    assert train == [net.play(p, 5, 7, 0.1, "train", expected.expected_value)]
    held = expected.play_block((p, 5, [7], [0.0], [None], "eval", 1))
    assert held == [net.play(p, 5, 7, 0.0, "eval")]
    # learning moves the network's value of a trace's afterstate towards its target
    run = expected.ExpectedRun(
        str(tmp_path / "run"),
        {**expected.DEFAULTS, "hidden": [8, 6], "block": 2, "eval_every": 0, "report": 2},
    )
    before = tdnet.predict(run.p, [t[0][0] for t in traces])
    gap = np.abs(np.array(targets) - np.array(nows) - before).mean()
    tdnet.train(run, 4, executor(1), echo=False)
    assert run.episodes == 4 and run.opt.t == 4
    for _ in range(200):
        tdnet.learn(run.p, run.opt, (traces, targets, left, finals, None), 0.8)
    after = tdnet.predict(run.p, [t[0][0] for t in traces])
    assert np.abs(np.array(targets) - np.array(nows) - after).mean() < gap / 2
