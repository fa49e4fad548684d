"""Learn the value network of :mod:`optimus.optimus.net` by TD(lambda) in solo self-play.

``nice -n 19 env PYTHONPATH=py python -m optimus_lab.optimus.net train --run DIR
--episodes 200000 [--resume] [--jobs N] [--ray [ADDRESS]]``

Each training game (an *episode*) is a solo game of 30 rolls (two colour and two
number dice) on the training sheets of :mod:`optimus_lab.optimus.train` (the two
standard sheets in turn with random ones, two games of three), played by the
network's own policy: afterstate argmax over every distinct move the roll allows
(:func:`optimus.optimus.net.choices`: the new boxes and the "!" spent; all of a
decision's afterstates through the network at once: :func:`optimus.optimus.net.afterstates`,
:class:`optimus_lab.tdnet.Sparse`), a random one instead
with probability epsilon. The sheets after each roll but the last are the episode's
trace; after the game each one's lambda-return (the final score at the last) is its
target, and one Adam step moves the network towards them (the points to come,
:func:`optimus_lab.tdnet.learn`).

The machinery -- the network, Adam, the schedules (epsilon annealed from
``--epsilon`` to ``--epsilon-end`` over ``--anneal`` episodes), blocks of ``--block``
games from the same network through ``--jobs`` local processes or ``--ray``, the run's
``state.npz`` (written atomically every ``--checkpoint-minutes`` and at every
evaluation) and ``curve.jsonl``, ``--resume``, ``kill PID`` -- is
:mod:`optimus_lab.tdnet`'s, shared with Optimus 2's trainer (its docstring says more).
No curriculum here (Optimus has no area that self-play overfeeds).

Every ``--eval-every`` episodes the greedy policy plays ``--eval-games`` held-out games
(label ``eval``: seeds of their own) on the standard sheets in turn; the curve's line
gives their mean score with the half-width of its 95% interval, the mean per sheet,
and the mean columns and colours done, stars left unmarked and "!" left.
``export --run DIR --out FILE`` writes the package's JSON
(:func:`optimus.optimus.net.parse_net` reads it).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from optimus.core.rng import Rng, derive_seed
from optimus.optimus.game import JOKERS, SOLO_ROLLS
from optimus.optimus.net import FEATURES, Choice, active, afterstates, choices, score_now
from optimus.optimus.sheet import (
    COLUMN_MASKS,
    STANDARD_SHEETS,
    Layout,
    layout_of,
    standard_sheet,
)
from optimus_lab.optimus.train import roll_dice, training_layout
from optimus_lab.tdnet import (
    DEFAULTS as SHARED,
)
from optimus_lab.tdnet import (
    Block,
    Episode,
    Params,
    Run,
    Sparse,
)
from optimus_lab.tdnet import export as export  # the trainer's export, named here too
from optimus_lab.tdnet import (
    main as tdnet_main,
)

DEFAULTS: dict[str, Any] = {
    **SHARED,
    "hidden": [128, 32],
    "lr": 0.001,
    "lam": 0.8,
    "epsilon": 0.05,
    "epsilon_end": 0.005,
    "anneal": 100_000,
    "curriculum": "",
    "block": 16,
    "eval_every": 2500,
    "eval_games": 200,
    "report": 500,
    "bias": 0.25,
}
"""Optimus's settings: a narrow second layer (the page's decision time is in its dense
product), about 25 points to come at the start (``bias``, the output's first bias)."""


def eval_layout(g: int) -> Layout:
    """Held-out game ``g``'s sheet: the standard sheets in turn."""
    return layout_of(standard_sheet(STANDARD_SHEETS[g % len(STANDARD_SHEETS)]))


def standard_layout(_seed: int, g: int) -> Layout:
    """Training game ``g``'s sheet on the standard sheets only: :func:`eval_layout`'s."""
    return eval_layout(g)


Expect = Callable[[Sparse, Layout, int, int, int], float]
"""``(network, layout, marks, "!" left, rolls left) -> target``: an afterstate's own target
(:func:`optimus_lab.optimus.expected.expected_value`)."""


def game_dice(seed: int, label: str, g: int) -> Rng:
    """The dice of :func:`play`'s game ``g`` (``label``: ``train``, ``eval``, ...)."""
    return Rng(derive_seed(seed, "net", label, g, "dice"))


def play(
    p: Params,
    seed: int,
    g: int,
    epsilon: float,
    label: str = "train",
    expect: Expect | None = None,
    sheets: Callable[[int, int], Layout] = training_layout,
) -> Episode:
    """Solo game ``g`` by afterstate argmax on ``p`` (``epsilon`` exploration): its trace,
    final score, "!" left, and [sheet, columns done, colours done, stars unmarked, "!"
    left]. With ``expect``, each chosen afterstate is a trace of its own whose "final" is
    ``expect``'s target for it (:func:`optimus_lab.tdnet.learn` fits it as it is). A
    training game's sheet is ``sheets(seed, g)``'s (the training sheets, or
    :func:`standard_layout`)."""
    layout = sheets(seed, g) if label == "train" else eval_layout(g)
    net = Sparse(p)
    dice = game_dice(seed, label, g)
    explore = Rng(derive_seed(seed, "net", label, g, "explore"))
    marks, left = 0, JOKERS
    feats: list[list[int]] = []
    nows: list[float] = []
    targets: list[float] = []
    for roll in range(1, SOLO_ROLLS + 1):
        options = choices(layout, marks, left, *roll_dice(dice))
        rolls_left = SOLO_ROLLS - roll
        after = None
        if len(options) == 1:
            mask, cost = options[0]
        elif epsilon and explore.random() < epsilon:
            mask, cost = options[explore.randrange(len(options))]
        else:
            (mask, cost), after = choose(net, layout, marks, left, rolls_left, options)
        marks, left = marks | mask, left - cost
        if rolls_left:
            feats.append(after if after is not None else active(layout, marks, left, rolls_left))
            nows.append(float(score_now(layout, marks, left)))
            if expect is not None:
                targets.append(expect(net, layout, marks, left, rolls_left))
    final = float(score_now(layout, marks, left))
    free = ~marks
    summary = [
        g % len(STANDARD_SHEETS) if label != "train" else -1,
        sum(1 for cm in COLUMN_MASKS if not cm & free),
        sum(1 for km in layout.colour_masks if not km & free),
        (layout.star_mask & free).bit_count(),
        left,
    ]
    if expect is not None:
        return [([f], [v]) for f, v in zip(feats, nows, strict=True)], targets, left, [final], None
    return [(feats, nows)], [final], left, [final], summary


def choose(
    net: Sparse,
    layout: Layout,
    marks: int,
    left: int,
    rolls_left: int,
    options: Sequence[Choice],
) -> tuple[Choice, list[int] | None]:
    """The option of highest afterstate value (the first of ties: :func:`values`); with its
    afterstate's features (None after the last roll)."""
    worth, feats = values(net, layout, marks, left, rolls_left, options)
    best = int(np.argmax(worth))
    return options[best], feats[best] if feats is not None else None


def values(
    net: Sparse,
    layout: Layout,
    marks: int,
    left: int,
    rolls_left: int,
    options: Sequence[Choice],
) -> tuple[np.ndarray, list[list[int]] | None]:
    """Each option's afterstate value: the score then plus the network's points to come
    (none after the last roll); with the afterstates' features (None after the last
    roll)."""
    worth = np.fromiter(
        (score_now(layout, marks | mask, left - cost) for mask, cost in options),
        np.float64,
        len(options),
    )
    if not rolls_left:
        return worth, None
    feats = afterstates(layout, marks, left, rolls_left, options)
    worth += net(feats)
    return worth, feats


def play_block(args: Block) -> list[Episode]:
    """Games ``games`` (each with its epsilon; solo, no cap) on the same network."""
    p, seed, games, epsilons, _caps, label, _players = args
    return [play(p, seed, g, e, label) for g, e in zip(games, epsilons, strict=True)]


def evaluate(p: Params, seed: int, games: int, pool: Any, players: int = 1) -> dict[str, Any]:
    """Held-out games ``0 .. games - 1`` of the greedy policy (label ``eval``): the mean
    score, the half-width of its 95% interval, the mean per standard sheet, columns and
    colours done, stars unmarked and "!" left."""
    parts = [list(range(games))[j :: pool.jobs] for j in range(pool.jobs)]
    tasks = [(p, seed, b, [0.0] * len(b), [None] * len(b), "eval", 1) for b in parts if b]
    eps = [ep for block in pool.map(play_block, tasks) for ep in block]
    finals = np.array([ep[1][0] for ep in eps])
    ends = np.array([ep[4] for ep in eps], np.float64)
    half = 1.96 * finals.std(ddof=1) / math.sqrt(len(finals)) if len(finals) > 1 else 0.0
    by_sheet = {
        name: round(float(finals[ends[:, 0] == i].mean()), 2)
        for i, name in enumerate(STANDARD_SHEETS)
        if (ends[:, 0] == i).any()
    }
    means = ends[:, 1:].mean(axis=0)
    return {
        "heldout_mean": round(float(finals.mean()), 2),
        "heldout_ci": round(float(half), 2),
        "heldout_sheets": by_sheet,
        "heldout_columns": round(float(means[0]), 2),
        "heldout_colours": round(float(means[1]), 2),
        "heldout_stars_left": round(float(means[2]), 2),
        "heldout_jokers_left": round(float(means[3]), 2),
    }


class OptimusRun(Run):
    """A training run of Optimus's network (:class:`optimus_lab.tdnet.Run`)."""

    defaults = DEFAULTS
    max_players = 1
    report_key = "jokers_left"
    play_block = staticmethod(play_block)
    evaluate = staticmethod(evaluate)

    def features(self) -> tuple[str, ...]:
        return FEATURES


def speed(run: Run, games: int) -> dict[str, float]:
    """Greedy self-play games per second of ``run``'s network (numpy, CPU)."""
    t0 = time.process_time()
    for g in range(games):
        play(run.p, int(run.cfg["seed"]), g, 0.0, "speed")
    return {"games_per_s": round(games / (time.process_time() - t0), 2)}


def main(argv: Sequence[str] | None = None) -> None:
    tdnet_main(OptimusRun, argv, "optimus_lab.optimus.net", __doc__, export, speed)


if __name__ == "__main__":
    main()
