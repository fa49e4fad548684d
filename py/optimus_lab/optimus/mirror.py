"""How much of a solo network's play is the standard sheets' own: greedy games on each
standard sheet and on its mirror images, the same dice.

``nice -n 19 env PYTHONPATH=py python -m optimus_lab.optimus.mirror --run DIR [--games 100]``

Optimus is the same game on a sheet mirrored left to right (column H stays the start, the
columns' points are symmetric) or top to bottom (no rule names a row), so every mirror
image of a sheet has the sheet's own best mean score. A network that scores less on an
image than on the sheet, on the same dice, has learned the sheet itself. Prints one line
a sheet and image: the mean score of ``--games`` greedy games (the network's afterstate
argmax) and the half-width of its 95% interval.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence

from optimus.core.rng import Rng, derive_seed
from optimus.optimus.game import COLOUR_FACES, JOKERS, NUMBER_FACES, SOLO_ROLLS
from optimus.optimus.net import choices, score_now
from optimus.optimus.sheet import STANDARD_SHEETS, Layout, layout_of, parse_sheet, standard_sheet
from optimus_lab.optimus.net import SOLO_DICE, OptimusRun, choose
from optimus_lab.tdnet import Params, Sparse

IMAGES = {"itself": (False, False), "left-right": (True, False), "top-bottom": (False, True)}


def mirrored(name: str, left_right: bool, top_bottom: bool) -> Layout:
    """A standard sheet, mirrored."""
    rows = standard_sheet(name).compact().split("/")
    if left_right:
        rows = [r[::-1] for r in rows]
    if top_bottom:
        rows = rows[::-1]
    return layout_of(parse_sheet("\n".join(rows)))


def greedy_scores(p: Params, layout: Layout, games: int, seed: int) -> list[float]:
    """The final scores of ``games`` greedy solo games on ``layout`` (game ``g``'s dice from
    ``seed`` and ``g`` only)."""
    net = Sparse(p)
    out = []
    for g in range(games):
        dice = Rng(derive_seed(seed, "mirror", g))
        marks, left = 0, JOKERS
        for roll in range(1, SOLO_ROLLS + 1):
            dice_c = [COLOUR_FACES[dice.randrange(6)] for _ in range(SOLO_DICE)]
            dice_n = [NUMBER_FACES[dice.randrange(6)] for _ in range(SOLO_DICE)]
            options = choices(layout, marks, left, dice_c, dice_n)
            (mask, cost), _ = choose(net, layout, marks, left, SOLO_ROLLS - roll, options)
            marks, left = marks | mask, left - cost
        out.append(float(score_now(layout, marks, left)))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m optimus_lab.optimus.mirror", description=__doc__
    )
    parser.add_argument("--run", required=True, help="a run's folder")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args(argv)
    p = OptimusRun.load(args.run).p
    for name in STANDARD_SHEETS:
        for image, (lr, tb) in IMAGES.items():
            s = greedy_scores(p, mirrored(name, lr, tb), args.games, args.seed)
            mean = math.fsum(s) / len(s)
            sd = math.sqrt(math.fsum((x - mean) ** 2 for x in s) / max(1, len(s) - 1))
            half = 1.96 * sd / math.sqrt(len(s))
            print(f"{name:8} {image:10} {mean:6.2f} ±{half:.2f}", flush=True)


if __name__ == "__main__":
    main()
