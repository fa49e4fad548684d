"""Tune the evaluation's :class:`~optimus.optimus2.heuristics.Weights` on solo games of ``normal``.

``PYTHONPATH=py nice -n 19 python -m optimus_lab.optimus2.tune --games 300 --sweeps 2``

A coordinate search: every weight in turn is scaled up and down by ``--step``
(or moved by it when it is 0); a change is kept when the mean solo score of
``normal`` over the same ``--games`` seeded games (common random numbers:
game ``i`` uses the same dice stream for every candidate) rises. The tuning
seeds start at ``--seed`` (default 100,000), far from the benchmark seeds of
``python -m optimus arena`` (small numbers), so the figures in docs/notes/bots-history.md are
not measured on the games the weights were chosen on. Prints every step and the
final weights as a ``Weights(...)`` expression to paste into heuristics.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time
from collections.abc import Sequence
from typing import Any

from optimus.core.rng import Rng
from optimus.optimus2.bots import greedy_to_end
from optimus.optimus2.game import Optimus2State
from optimus.optimus2.heuristics import DEFAULT, Weights
from optimus.optimus2.sheet import load_sheet


def solo_score(w: Weights, seed: int) -> float:
    """Final score of one solo game of ``normal`` with weights ``w`` (dice from ``seed``)."""
    s = Optimus2State(1, load_sheet())
    greedy_to_end(s, w, Rng(seed), Rng(seed * 7919 + 17))
    return s.scores()[0]


def mean_score(w: Weights, seeds: Sequence[int]) -> float:
    return math.fsum(solo_score(w, seed) for seed in seeds) / len(seeds)


def neighbours(w: Weights, name: str, step: float) -> list[Weights]:
    x: float = getattr(w, name)
    values = [step - 1, 1 - step] if x == 0 else [x * step, x / step]
    changes: list[dict[str, Any]] = [{name: round(v, 3)} for v in values]
    return [dataclasses.replace(w, **c) for c in changes]


def tune(
    start: Weights, names: Sequence[str], seeds: Sequence[int], sweeps: int, step: float
) -> Weights:
    best, best_v = start, mean_score(start, seeds)
    print(f"start {best_v:.2f}", flush=True)
    for sweep in range(sweeps):
        for name in names:
            for cand in neighbours(best, name, step):
                t = time.process_time()
                v = mean_score(cand, seeds)
                kept = v > best_v
                print(
                    f"sweep {sweep + 1} {name}={getattr(cand, name)}: {v:.2f}"
                    f" ({'kept' if kept else 'no'}, {time.process_time() - t:.0f} s CPU)",
                    flush=True,
                )
                if kept:
                    best, best_v = cand, v
                    break
        step = 1 + (step - 1) / 2
    print(f"best {best_v:.2f}: {best!r}", flush=True)
    return best


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m optimus_lab.optimus2.tune", description=__doc__
    )
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--sweeps", type=int, default=2)
    parser.add_argument("--step", type=float, default=1.5)
    parser.add_argument("--fields", nargs="*", help="weights to tune (default: all)")
    args = parser.parse_args(argv)
    numbers = [f.name for f in dataclasses.fields(Weights) if f.name != "model"]
    names = args.fields or numbers
    seeds = range(args.seed, args.seed + args.games)
    tune(DEFAULT, names, seeds, args.sweeps, args.step)


if __name__ == "__main__":
    main()
