"""Benchmark: the longest stretch ``hard`` thinks without yielding (browser slices).

``PYTHONPATH=py python -m optimus.dice.slices --games 2`` plays Optimus 2
``hard`` (seat 0) against ``normal`` for 1-4 players and times, in CPU time,
every stretch of its thinking between two yields; it prints the mean, the
99th percentile and the longest. The browser runs a bot in slices, so the
longest stretch should stay well under 20 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time

from optimus.core.bots import Bot
from optimus.core.record import Match
from optimus.core.rng import Rng
from optimus.dice.bots import HardBot, NormalBot
from optimus.dice.game import Optimus2Game


def timed_choice(
    bot: Bot, observation: dict[str, object], legal: list[str]
) -> tuple[str, list[float]]:
    """Run ``bot.think`` to the end; return the move and each stretch's CPU seconds."""
    stretches: list[float] = []
    gen = bot.think(observation, legal)
    t = time.process_time()
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            stretches.append(time.process_time() - t)
            return str(stop.value), stretches
        now = time.process_time()
        stretches.append(now - t)
        t = now


def stretches_in_games(players: int, games: int) -> list[float]:
    game = Optimus2Game()
    out: list[float] = []
    for seed in range(games):
        match = Match(game, {"players": players}, seed)
        bots: list[Bot] = [HardBot(game, 0, Rng(seed), None)]
        bots += [NormalBot(game, p, Rng(p), None) for p in range(1, players)]
        while not match.state.is_terminal():
            p = match.state.actors()[0]
            obs, legal = match.state.observation(p), match.state.legal_moves(p)
            if p == 0:
                move, steps = timed_choice(bots[0], obs, legal)
                out.extend(steps)
            else:
                move = bots[p].choose(obs, legal)
            match.play(p, move)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimus.dice.slices", description=__doc__)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--players", type=int, nargs="*", default=[1, 2, 3, 4])
    args = parser.parse_args(argv)
    for players in args.players:
        s = sorted(stretches_in_games(players, args.games))
        figures = {
            "mean": statistics.fmean(s),
            "p99": s[int(0.99 * len(s))],
            "max": s[-1],
        }
        shown = ", ".join(f"{k} {1000 * v:.2f} ms" for k, v in figures.items())
        print(f"{players} players, {len(s)} stretches (CPU time): {shown}")


if __name__ == "__main__":
    main()
