"""Random full games per second, measured in CPU time (robust on a busy machine).

The same loop as ``python -m optimus bench`` (the runner samples every die
with :func:`optimus.core.bots.sample_chance`, random legal moves on the fast
path), but timed with ``time.process_time`` so that other processes sharing
the cores do not count::

    PYTHONPATH=py python -m optimus_lab.optimus2.bench --players 1 --games 2000
"""

from __future__ import annotations

import argparse
import time

from optimus.core.arena import play_random_game
from optimus.core.rng import Rng
from optimus.optimus2.game import Optimus2Game


def random_games_per_second(players: int, games: int, seed: int = 0) -> float:
    game = Optimus2Game()
    opts = game.normalize_options({"players": players})
    rng = Rng(seed)
    t0 = time.process_time()
    for _ in range(games):
        play_random_game(game, opts, rng)
    return games / (time.process_time() - t0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m optimus_lab.optimus2.bench", description=__doc__
    )
    parser.add_argument("--players", type=int, nargs="*", default=[1, 2, 3, 4])
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args(argv)
    for n in args.players:
        rate = random_games_per_second(n, args.games)
        print(f"optimus2 {n} players: {rate:9.1f} random games/s (CPU time)")


if __name__ == "__main__":
    main()
