"""How far a solo network's greedy play is from one step of policy improvement: each
decision by the mean of greedy games played out from its best afterstates.

``nice -n 19 env PYTHONPATH=py python -m optimus_lab.optimus.rollout --run DIR
[--games 100] [--first 0] [--top 4] [--rollouts 16] [--log FILE]``

Each of ``--games`` held-out solo games (:func:`optimus_lab.optimus.net.play`'s held-out
games: the standard sheets in turn, the same dice) is played twice: by the network's
afterstate argmax, and by *rollouts*: at each roll the ``--top`` afterstates the network
values most are each played out to the end ``--rollouts`` times by the argmax, every
afterstate on the same dice (common random numbers), and the one of best mean is played.
That is one step of policy improvement on the greedy policy (what TD-Gammon's rollouts
do): if it scores far above the argmax, the network's values leave points on the table
that a better value would find; if not, the greedy policy is near the best this value's
plans allow. Far too slow for the page (thousands of games a decision): a measure, not a
bot. Prints a line a game (both scores) and the means with 95% intervals and the paired
difference; ``--log`` appends the lines as JSON.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

import numpy as np

from optimus.core.arena import mean_ci
from optimus.core.rng import Rng, derive_seed
from optimus.optimus.game import JOKERS, SOLO_ROLLS
from optimus.optimus.net import choices, score_now
from optimus.optimus.sheet import Layout
from optimus_lab.optimus.net import OptimusRun, choose, eval_layout, game_dice, play, values
from optimus_lab.optimus.train import roll_dice
from optimus_lab.tdnet import Sparse


def finish(net: Sparse, layout: Layout, marks: int, left: int, roll: int, dice: Rng) -> float:
    """The final score of the argmax playing on from after roll ``roll``."""
    for r in range(roll + 1, SOLO_ROLLS + 1):
        options = choices(layout, marks, left, *roll_dice(dice))
        (mask, cost), _ = choose(net, layout, marks, left, SOLO_ROLLS - r, options)
        marks, left = marks | mask, left - cost
    return float(score_now(layout, marks, left))


def improved(net: Sparse, seed: int, g: int, top: int, rollouts: int) -> float:
    """Held-out game ``g`` played by rollouts (the module's docstring)."""
    layout = eval_layout(g)
    dice = game_dice(seed, "eval", g)
    marks, left = 0, JOKERS
    for roll in range(1, SOLO_ROLLS + 1):
        options = choices(layout, marks, left, *roll_dice(dice))
        rolls_left = SOLO_ROLLS - roll
        if len(options) > 1 and rolls_left:
            worth, _ = values(net, layout, marks, left, rolls_left, options)
            best = [options[i] for i in np.argsort(-worth, kind="stable")[:top]]
            means = [
                np.mean(
                    [
                        finish(
                            net,
                            layout,
                            marks | m,
                            left - c,
                            roll,
                            Rng(derive_seed(seed, "rollout", g, roll, k)),
                        )
                        for k in range(rollouts)
                    ]
                )
                for m, c in best
            ]
            mask, cost = best[int(np.argmax(means))]
        else:
            (mask, cost), _ = choose(net, layout, marks, left, rolls_left, options)
        marks, left = marks | mask, left - cost
    return float(score_now(layout, marks, left))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m optimus_lab.optimus.rollout", description=__doc__
    )
    parser.add_argument("--run", required=True, help="a run's folder")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="the first held-out game")
    parser.add_argument("--top", type=int, default=4)
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--log", help="append a JSON line a game")
    args = parser.parse_args(argv)
    p = OptimusRun.load(args.run).p
    net = Sparse(p)
    greedy, better = [], []
    for g in range(args.first, args.first + args.games):
        a = play(p, args.seed, g, 0.0, "eval")[3][0]
        b = improved(net, args.seed, g, args.top, args.rollouts)
        greedy.append(a)
        better.append(b)
        line = {"game": g, "greedy": a, "rollouts": b, "top": args.top, "n": args.rollouts}
        print(json.dumps(line), flush=True)
        if args.log:
            with open(args.log, "a", encoding="utf-8") as f:
                f.write(json.dumps(line) + "\n")
    for name, xs in (("greedy", greedy), ("rollouts", better)):
        mean, lo, hi = mean_ci(xs)
        print(f"{name:9} {mean:6.2f} ({lo:.2f}-{hi:.2f})")
    mean, lo, hi = mean_ci([b - a for a, b in zip(greedy, better, strict=True)])
    print(f"paired   {mean:+6.2f} ({lo:+.2f} to {hi:+.2f})")


if __name__ == "__main__":
    main()
