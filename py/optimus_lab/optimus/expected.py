"""Learn Optimus's solo value network towards exact one-roll expectations (expected TD(0)).

``nice -n 19 env PYTHONPATH=py python -m optimus_lab.optimus.expected train --run DIR
[--resume] [--jobs N]`` (the options of :mod:`optimus_lab.optimus.net`)

The games are :mod:`optimus_lab.optimus.net`'s (afterstate argmax on the network,
epsilon exploration, the same training sheets and held-out evaluation); what changes is
each afterstate's target. There a trace's lambda-return carries the luck of every roll
after it (a solo game's final score has a spread of about 6 points). Here the target of
the sheet after a roll is what the next roll makes of it, exact over the dice: the mean,
over the 6^4 ways two colour and two number dice fall, of the best afterstate those dice
allow (:func:`expected_value`: every marking of every colour and size, with the "!"
each pair of faces costs, valued by the network playing the episode -- its score then
plus the network's points to come, none after the last roll). No luck is left in a
target, only the network's own errors one roll on.

A position costs about 20 ms (every marking the sheet allows, three ways of paying "!",
through the network at once), so an episode costs about 15 times the lambda-return's.
A run of this module can start from a run of :mod:`optimus_lab.optimus.net` (copy its
``state.npz`` and ``curve.jsonl`` into a new folder, then ``train --resume``): the
network, Adam and the schedules go on from there, only the targets change. The exported
JSON is :mod:`optimus_lab.optimus.net`'s (``export``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from optimus.optimus.game import (
    COLOUR_FACES,
    FACE_COLOURS,
    FACE_NUMBERS,
    NUMBER_FACES,
    joker_cost,
    marking_choices,
)
from optimus.optimus.lookahead import expected_best
from optimus.optimus.net import afterstates, score_now
from optimus.optimus.sheet import NUM_COLOURS, Layout
from optimus.optimus.value import MAX_NUMBER
from optimus_lab.optimus.net import DEFAULTS as NET_DEFAULTS
from optimus_lab.optimus.net import OptimusRun, export, play, speed
from optimus_lab.optimus.train import SOLO_DICE
from optimus_lab.tdnet import Block, Episode, Sparse
from optimus_lab.tdnet import main as tdnet_main

DEFAULTS: dict[str, Any] = {**NET_DEFAULTS, "targets": "expected"}
""":mod:`optimus_lab.optimus.net`'s settings; ``targets`` records the kind of target."""


def face_table(net: Sparse, layout: Layout, marks: int, left: int, rolls_left: int) -> np.ndarray:
    """``F[c][n]``: the best afterstate a colour face ``c`` and a number face ``n`` allow
    (``COLOUR_FACES``, ``NUMBER_FACES`` order; the pass if nothing better, or if the "!"
    they cost are not there), for the sheet ``marks`` with ``left`` "!" before a roll that
    leaves ``rolls_left`` rolls: its score plus the network's points to come (none when
    ``rolls_left`` is 0)."""
    by_pair: dict[tuple[int, int], list[int]] = {}
    seen: dict[int, int] = {}
    for k in range(NUM_COLOURS):
        for n in range(1, MAX_NUMBER + 1):
            ms = [mask for mask, _ in marking_choices(layout, marks, k, n)]
            by_pair[k, n - 1] = ms
            for m in ms:
                seen.setdefault(m, len(seen))
    costs = range(min(2, left) + 1)
    options = [(0, 0)] + [(m, c) for m in seen for c in costs]
    values = np.fromiter(
        (score_now(layout, marks | m, left - c) for m, c in options), np.float64, len(options)
    )
    if rolls_left:
        values += net(afterstates(layout, marks, left, rolls_left, options))
    stay = float(values[0])
    width = len(costs)
    best = np.full((NUM_COLOURS, MAX_NUMBER, 3), stay)
    for (k, n), ms in by_pair.items():
        if ms:
            at = np.fromiter((1 + seen[m] * width for m in ms), np.int64, len(ms))
            for c in costs:
                best[k, n, c] = max(stay, float(values[at + c].max()))
    table = np.full((len(COLOUR_FACES), len(NUMBER_FACES)), stay)
    for i, cf in enumerate(COLOUR_FACES):
        for j, nf in enumerate(NUMBER_FACES):
            cost = joker_cost(cf, nf)
            if cost <= left:
                table[i, j] = max(
                    best[k, n - 1, cost] for k in FACE_COLOURS[cf] for n in FACE_NUMBERS[nf]
                )
    return table


def expected_value(net: Sparse, layout: Layout, marks: int, left: int, rolls_left: int) -> float:
    """What the next roll makes of the sheet after a roll with ``rolls_left`` (>= 1) rolls
    to come, by ``net``: the mean over the roll's dice of the best entry of its
    :func:`face_table` they offer (:func:`optimus.optimus.lookahead.expected_best`)."""
    table = face_table(net, layout, marks, left, rolls_left - 1)
    return expected_best(table.tolist(), SOLO_DICE, float(table.min()))


def play_block(args: Block) -> list[Episode]:
    """:func:`optimus_lab.optimus.net.play`'s games, the training ones each afterstate fitted
    to its :func:`expected_value`."""
    p, seed, games, epsilons, _caps, label, _players = args
    expect = expected_value if label == "train" else None
    return [play(p, seed, g, e, label, expect) for g, e in zip(games, epsilons, strict=True)]


class ExpectedRun(OptimusRun):
    """A run of Optimus's solo network on one-roll expectations."""

    defaults = DEFAULTS
    play_block = staticmethod(play_block)


def main(argv: Sequence[str] | None = None) -> None:
    tdnet_main(ExpectedRun, argv, "optimus_lab.optimus.expected", __doc__, export, speed)


if __name__ == "__main__":
    main()
