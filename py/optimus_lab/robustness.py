"""Every bot level of every game decides from positions of random legal moves.

    python -m optimus_lab.robustness --games 10000 [--game <game>] [--jobs N]

The same check as ``tests/test_robustness.py``
(:func:`optimus.core.conformance.check_levels_at_random_positions`) at a larger
size: prints, per game, the games run, the decisions checked, each exception
or illegal move with its seed, and the seconds.  Exit status 1 if any.
"""

from __future__ import annotations

import argparse
import time

from optimus.core.arena import default_jobs, executor, ranges
from optimus.core.bots import Budget
from optimus.core.conformance import Robustness, check_levels_at_random_positions
from optimus.core.registry import get_game
from optimus.games import GAMES


def _chunk(args: tuple[str, int, int, int]) -> Robustness:
    game_id, start, stop, iterations = args
    counts = list(GAMES[game_id].player_counts)
    return check_levels_at_random_positions(
        get_game(game_id), counts, range(start, stop), Budget(iterations=iterations)
    )


def run(game_id: str, games: int, jobs: int, iterations: int) -> Robustness:
    tasks = [(game_id, start, stop, iterations) for start, stop in ranges(games, jobs)]
    with executor(len(tasks)) as pool:
        parts = list(pool.map(_chunk, tasks))
    out = Robustness()
    for part in parts:
        out.games += part.games
        out.decisions += part.decisions
        out.failures += part.failures
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000, help="seeded games per game")
    ap.add_argument("--game", choices=sorted(GAMES), help="one game (default: every game)")
    ap.add_argument("--jobs", type=int, default=default_jobs())
    ap.add_argument("--iterations", type=int, default=2, help="the bots' iteration budget")
    args = ap.parse_args(argv)
    bad = 0
    for game_id in [args.game] if args.game else list(GAMES):
        t0 = time.perf_counter()
        found = run(game_id, args.games, args.jobs, args.iterations)
        seconds = time.perf_counter() - t0
        print(
            f"{game_id}: {found.games} games, {found.decisions} decisions, "
            f"{len(found.failures)} exceptions, {seconds:.1f} s"
        )
        for seed, players, error in found.failures:
            print(f"  seed {seed} ({players} players): {error}")
        bad += len(found.failures)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
