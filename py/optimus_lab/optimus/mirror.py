"""How much of a solo network's play is the standard sheets' own: greedy games on each
standard sheet and on its mirror images, the same dice.

``nice -n 19 env PYTHONPATH=py python -m optimus_lab.optimus.mirror --run DIR [--games 100]``

Optimus is the same game on a sheet mirrored left to right (column H stays the start, the
columns' points are symmetric) or top to bottom (no rule names a row), so every mirror
image of a sheet has the sheet's own best mean score. A network that scores less on an
image than on the sheet, on the same dice, has learned the sheet itself. Prints one line
a sheet and image: the mean score of ``--games`` greedy games (the network's afterstate
argmax) and its 95% interval.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from optimus.core.arena import mean_ci
from optimus.optimus.sheet import STANDARD_SHEETS, Layout, layout_of, parse_sheet, standard_sheet
from optimus_lab.optimus.net import OptimusRun, play
from optimus_lab.tdnet import Params

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
    """The final scores of ``games`` greedy solo games on ``layout``
    (:func:`optimus_lab.optimus.net.play`'s games: game ``g``'s dice from ``seed`` and ``g``
    only)."""
    return [play(p, seed, g, 0.0, sheets=lambda _s, _g: layout)[3][0] for g in range(games)]


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
            mean, lo, hi = mean_ci(greedy_scores(p, mirrored(name, lr, tb), args.games, args.seed))
            print(f"{name:8} {image:10} {mean:6.2f} ({lo:.2f}-{hi:.2f})", flush=True)


if __name__ == "__main__":
    main()
