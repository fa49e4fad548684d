"""The bots' strength at the clock they play at in the page, on a slower device.

``nice -n 19 env PYTHONPATH=py python -m optimus_lab.table_clock <game>
--players hard,normal,normal,normal --people 1,2,3 --slowdown 2.5 --games 200 --seed 1 --jobs 2``

In the page a built-in bot thinks by the table's clock
(:func:`optimus.ui.session.decision_ms`: the bots between two of the people's
decisions share :data:`~optimus.ui.session.WAIT_MS`), so how well it plays depends
on the device.  This plays the arena's games (game ``g``: its seed, and player
``i`` at seat ``(i + g) % n``, as ``python -m optimus arena``) through a
:class:`~optimus.ui.session.TableSession`, the players named by ``--people``
(indices into ``--players``) seated as people whose decisions their level makes
outside the table's clock, the others as the table's bots.  The clock runs
``--slowdown`` times faster than this machine's, as if the device were that much
slower than CPython here (Pyodide in Chromium: about 2.5; a mid-range phone, 4x
slower again: about 10).  Wall-clock figures: run it on a quiet machine, or with
``--cpu``: the clock then counts each process's CPU time, which a busy machine
does not stretch.

Prints each player's mean score and win rate with 95% intervals, and the clocks the
table's bots got (ms of the device, median and 10th percentile) and their CPU time
per decision here.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence

from optimus.core.arena import (
    executor,
    mean_ci,
    players_by_seat,
    ranges,
    resolve_bot,
    results_by_player,
    wilson,
)
from optimus.core.registry import get_game
from optimus.core.rng import Rng, derive_seed
from optimus.ui.session import WAIT_MS, TableSession
from optimus.ui.table import THINKING

Result = tuple[list[float], list[float], list[float], list[float]]
"""Per player: score and wins; and the table bots' clocks (ms) and CPU (ms) per decision."""


def play(
    game_name: str,
    specs: Sequence[str],
    people: set[int],
    g: int,
    seed: int,
    wait_ms: float = WAIT_MS,
) -> Result:
    game = get_game(game_name)
    n = len(specs)
    game_seed = derive_seed(seed, "game", g)
    who = players_by_seat(n, g)
    seats = [f"human:P{who[s]}" if who[s] in people else specs[who[s]] for s in range(n)]
    session = TableSession(game, {}, game_seed, seats)
    session.wait_ms = wait_ms
    persons = {
        s: resolve_bot(game, specs[who[s]])(game, s, Rng(derive_seed(game_seed, "bot", s)), None)
        for s in range(n)
        if who[s] in people
    }
    clocks: list[float] = []
    cpu: list[float] = []
    while not session.state.is_terminal():
        seat = session.human_to_act()
        if seat is not None:
            state = session.state
            session.play(
                seat, persons[seat].choose(state.observation(seat), state.legal_moves(seat))
            )
            continue
        bot = session.bots[session.bot_to_act()]  # type: ignore[index]
        t0 = time.process_time()
        while session.think(1e9) is None:
            pass
        cpu.append((time.process_time() - t0) * 1000)
        if bot.budget.time_ms is not None:
            clocks.append(bot.budget.time_ms)
    scores, wins = results_by_player(session.state, who)
    return scores, wins, clocks, cpu


def _range(
    args: tuple[str, list[str], set[int], int, int, int, float, float, bool],
) -> list[Result]:
    game_name, specs, people, start, stop, seed, slowdown, wait_ms, cpu = args
    real = time.process_time if cpu else time.perf_counter
    time.perf_counter = lambda: real() * slowdown  # the device's clock: slowdown x this one
    return [play(game_name, specs, people, g, seed, wait_ms) for g in range(start, stop)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m optimus_lab.table_clock", description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--players", required=True, help="levels, comma-separated")
    parser.add_argument("--people", default="", help="indices of --players seated as people")
    parser.add_argument("--slowdown", type=float, default=2.5)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--wait-ms",
        type=float,
        default=WAIT_MS,
        help=f'the bots\' clock per wait (ms of the device; {WAIT_MS:g}: "Bots think: quickly", '
        f'{THINKING["careful"]:g}: "carefully")',
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="the clock counts this process's CPU time (figures that hold on a busy machine)",
    )
    parser.add_argument(
        "--log",
        help="also write each game's scores and wins, one JSON line a game, in the form of "
        "optimus_lab.<game>.strength's logs (its --summary --against pairs two runs)",
    )
    args = parser.parse_args(argv)
    specs = args.players.split(",")
    people = {int(i) for i in args.people.split(",") if i}
    if not people:
        parser.error("--people: seat at least one player as a person (a wait ends at their turn)")
    tasks = [
        (args.game, specs, people, start, stop, args.seed, args.slowdown, args.wait_ms, args.cpu)
        for start, stop in ranges(args.games, args.jobs)
    ]
    with executor(max(2, len(tasks))) as pool:  # processes: each sets its own clock
        results = [r for part in pool.map(_range, tasks) for r in part]
    n = len(results)
    if args.log:
        with open(args.log, "w", encoding="utf-8") as f:
            for g, r in enumerate(results):
                f.write(
                    json.dumps({"g": g, "scores": r[0], "wins": r[1], "cpu_ms": [[] for _ in r[0]]})
                    + "\n"
                )
    print(
        f"{args.game}: {n} games, {','.join(specs)}, people {sorted(people)}, "
        f"clock {args.slowdown:g}x slower than here, {args.wait_ms:g} ms a wait"
    )
    for i, spec in enumerate(specs):
        scores = [r[0][i] for r in results]
        wins = sum(r[1][i] for r in results)
        lo, hi = wilson(wins, n)
        mean, low, high = mean_ci(scores)
        print(
            f"  {i} {spec}{' (person)' if i in people else ''}: mean {mean:.1f} "
            f"(95% CI {low:.1f}-{high:.1f}), "
            f"wins {wins / n:.1%} ({lo:.1%}-{hi:.1%})"
        )
    clocks = sorted(c for r in results for c in r[2])
    cpu = sorted(c for r in results for c in r[3])
    if clocks:
        print(
            f"  the table's bots: {len(clocks)} decisions; clock median "
            f"{statistics.median(clocks):.0f} ms, 10th percentile "
            f"{clocks[len(clocks) // 10]:.0f} ms (of the device); CPU here mean "
            f"{statistics.fmean(cpu):.1f} ms, p95 {cpu[int(0.95 * len(cpu))]:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
