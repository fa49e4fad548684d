"""Benchmark: how long a bot thinks between two yields (the browser's time slices).

``PYTHONPATH=py python -m optimus_lab.slices GAME [--games N] [--players 2 4]``
plays the game's ``hard`` bot (seat 0) against ``normal`` bots and times every
stretch of ``hard``'s thinking, from one ``next()`` to the following yield or
its answer, in CPU time (steady on a busy machine). It prints, per player
count, the mean, the 99th percentile and the longest stretch, and the mean
whole decision. The browser runs bots in slices of about 25 ms, so the
longest stretch should stay at a few milliseconds.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Mapping, Sequence

from optimus.core.bots import Bot
from optimus.core.protocol import JSON, Game
from optimus.core.record import Match
from optimus.core.registry import get_game
from optimus.core.rng import Rng
from optimus.games import listed


def timed_choice(
    bot: Bot, observation: Mapping[str, JSON], legal: list[str]
) -> tuple[str, list[float]]:
    """Run ``bot.think`` to the end; the move and the CPU seconds of each stretch."""
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


def think_stretches(
    game: Game, players: int, games: int, level: str = "hard", others: str = "normal"
) -> tuple[list[float], list[float]]:
    """Stretches of ``level`` (seat 0) and its whole decisions, over ``games`` seeded games."""
    levels = game.bot_levels()
    stretches: list[float] = []
    decisions: list[float] = []
    for seed in range(games):
        match = Match(game, {"players": players}, seed)
        bots = [levels[level](game, 0, Rng(seed), None)]
        bots += [levels[others](game, p, Rng(p), None) for p in range(1, players)]
        while not match.state.is_terminal():
            p = match.state.actors()[0]
            obs, legal = match.state.observation(p), match.state.legal_moves(p)
            if p == 0:
                move, steps = timed_choice(bots[0], obs, legal)
                stretches.extend(steps)
                decisions.append(math.fsum(steps))
            else:
                move = bots[p].choose(obs, legal)
            match.play(p, move)
    return stretches, decisions


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimus_lab.slices", description=__doc__)
    parser.add_argument("game", choices=[info.id for info in listed()])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default: all)")
    args = parser.parse_args(argv)
    game = get_game(args.game)
    counts = args.players or range(game.min_players, game.max_players + 1)
    for players in counts:
        stretches, decisions = think_stretches(game, players, args.games)
        s = sorted(stretches)
        print(
            f"{players} players: {len(s)} stretches (CPU), mean {1000 * math.fsum(s) / len(s):.2f}"
            f" ms, p99 {1000 * s[int(0.99 * len(s))]:.2f} ms, max {1000 * s[-1]:.2f} ms;"
            f" decision mean {1000 * math.fsum(decisions) / len(decisions):.1f} ms"
        )


if __name__ == "__main__":
    main()
