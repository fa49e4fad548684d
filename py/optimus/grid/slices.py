"""Benchmark: how long Optimus ``hard`` thinks between two yields (browser time slices).

``PYTHONPATH=py python -m optimus.grid.slices --games 2`` plays ``hard`` (seat
0) against ``normal`` at 1, 2 and 4 players and times every step of
``think`` (from one ``next()`` to the following yield or the answer); it
prints the mean, the 99th percentile and the longest step, and the mean
decision time.
"""

from __future__ import annotations

import argparse
import statistics
import time

from optimus.core.record import Match
from optimus.core.rng import Rng
from optimus.grid.bots import HardBot, NormalBot
from optimus.grid.game import OptimusGame


def think_steps(players: int, games: int) -> tuple[list[float], list[float]]:
    """Seconds of every thinking step of ``hard`` and of every whole decision."""
    game = OptimusGame()
    steps: list[float] = []
    decisions: list[float] = []
    for seed in range(games):
        match = Match(game, {"players": players}, seed)
        hard = HardBot(game, 0, Rng(seed), None)
        others = {p: NormalBot(game, p, Rng(p), None) for p in range(1, players)}
        while not match.state.is_terminal():
            p = match.state.actors()[0]
            obs, legal = match.state.observation(p), match.state.legal_moves(p)
            if p != 0:
                match.play(p, others[p].choose(obs, legal))
                continue
            start = t = time.perf_counter()
            gen = hard.think(obs, legal)
            while True:
                try:
                    next(gen)
                except StopIteration as stop:
                    now = time.perf_counter()
                    steps.append(now - t)
                    decisions.append(now - start)
                    move: str = stop.value
                    break
                now = time.perf_counter()
                steps.append(now - t)
                t = now
            match.play(p, move)
    return steps, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    for players in (1, 2, 4):
        steps, decisions = think_steps(players, args.games)
        steps.sort()
        print(
            f"{players} players: {len(steps)} steps, mean {1000 * statistics.fmean(steps):.2f} ms, "
            f"p99 {1000 * steps[int(0.99 * len(steps))]:.2f} ms, max {1000 * steps[-1]:.2f} ms; "
            f"decision mean {1000 * statistics.fmean(decisions):.1f} ms"
        )


if __name__ == "__main__":
    main()
