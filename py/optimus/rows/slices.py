"""Benchmark: how long ``hard`` thinks between two yields (browser time slices).

``PYTHONPATH=py python -m optimus.rows.slices --games 3`` plays ``hard``
against ``normal`` at every player count and times each step of ``think``
(from one ``next()`` to the following yield); it prints the mean, the 99th
percentile and the longest step. The browser runs bots in slices of about
30 ms, so the longest step should stay at a few milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import time

from optimus.core.record import Match
from optimus.core.rng import Rng
from optimus.rows.bots import HardBot, NormalBot
from optimus.rows.game import FileirasGame


def think_steps(players: int, games: int) -> list[float]:
    """Seconds of every thinking step of ``hard`` (seat 0) in ``games`` games."""
    game = FileirasGame()
    steps: list[float] = []
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
            gen = hard.think(obs, legal)
            t = time.perf_counter()
            while True:
                try:
                    next(gen)
                except StopIteration as stop:
                    steps.append(time.perf_counter() - t)
                    move: str = stop.value
                    break
                now = time.perf_counter()
                steps.append(now - t)
                t = now
            match.play(p, move)
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    for players in range(FileirasGame.min_players, FileirasGame.max_players + 1):
        steps = sorted(think_steps(players, args.games))
        print(
            f"{players} players: {len(steps)} steps, mean {1000 * statistics.fmean(steps):.2f} ms, "
            f"p99 {1000 * steps[int(0.99 * len(steps))]:.2f} ms, max {1000 * steps[-1]:.2f} ms"
        )


if __name__ == "__main__":
    main()
