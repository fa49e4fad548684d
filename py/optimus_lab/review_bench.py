"""Benchmark: the coach's review of one person's seat, as the page runs it.

``PYTHONPATH=py python -m optimus_lab.review_bench [--games N] [--person LEVEL]``
plays, per game, seeded games of a person (``normal`` stands in for one) against
``hard`` bots (Optimus 2: three of them; Optimus: one; Fileiras: two), then reviews
the person's seat with the game's coach exactly as the page does
(:class:`optimus.ui.review_view.ReviewRun`: the coach's default budget, slices of the
page's ``SLICE_MS``), and prints the wall and CPU seconds of each review, the
decisions reviewed and the longest slice. Figures only, no assertion (docs/coach.md).
"""

from __future__ import annotations

import argparse
import time

from optimus.core.arena import play_record
from optimus.core.registry import get_game
from optimus.ui.review_view import ReviewRun, summary

SLICE_MS = 25.0
"""The page's slice (web/driver.py's ``SLICE_MS``)."""

TABLES = {"optimus2": 3, "optimus": 1, "fileiras": 2}
"""Per game, how many ``hard`` bots sit with the person."""


def bench(game_id: str, bots: int, seed: int, person: str) -> dict[str, float]:
    """One seeded game's review of seat 0 (``person``) against ``bots`` hard bots."""
    game = get_game(game_id)
    record = play_record(game, [person] + ["hard"] * bots, seed, {"players": bots + 1})
    run = ReviewRun(game, record, [0])
    wall, cpu, longest = time.perf_counter(), time.process_time(), 0.0
    while True:
        t = time.process_time()
        more = run.step(SLICE_MS)
        longest = max(longest, time.process_time() - t)
        if not more:
            break
    s = summary(run.review)
    return {
        "wall": time.perf_counter() - wall,
        "cpu": time.process_time() - cpu,
        "decisions": s.decisions,
        "longest_ms": longest * 1000,
        "mean_loss": s.mean_loss,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="seeded games per game")
    parser.add_argument("--person", default="normal", help="the level standing in for a person")
    parser.add_argument("--only", nargs="*", default=list(TABLES), help="the games to time")
    args = parser.parse_args(argv)
    print("game      bots  seed  decisions  wall s  CPU s  longest slice CPU ms  mean loss")
    for game_id in args.only:
        bots = TABLES[game_id]
        for seed in range(1, args.games + 1):
            f = bench(game_id, bots, seed, args.person)
            print(
                f"{game_id:9} {bots:4} {seed:5} {f['decisions']:10.0f} {f['wall']:7.1f}"
                f" {f['cpu']:6.1f} {f['longest_ms']:21.0f} {f['mean_loss']:10.2f}"
            )


if __name__ == "__main__":
    main()
