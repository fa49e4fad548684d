"""Command line: ``python -m optimus arena ...`` and ``python -m optimus bench``."""

from __future__ import annotations

import argparse
import json
import sys

from optimus.core.arena import bench_random, default_jobs, run_arena
from optimus.core.bots import Budget
from optimus.core.protocol import GameError
from optimus.core.registry import available_games, get_game
from optimus.games import GAMES, call, listed


def _options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise GameError(f"--option wants key=value, not {pair!r}")
        out[key.strip()] = value
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m optimus", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    arena = sub.add_parser("arena", help="play bot tournaments")
    arena.add_argument("game", help=", ".join(info.id for info in listed()))
    arena.add_argument("--players", required=True, help="comma-separated bot specs")
    arena.add_argument("--games", type=int, default=100)
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    arena.add_argument("--time-ms", type=float, help="per-decision time budget for every bot")
    arena.add_argument("--iterations", type=int, help="per-decision iteration budget")
    arena.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="processes to play the games in (default: every core); same results for any N",
    )
    arena.add_argument("--json", action="store_true", help="print one JSON object")
    bench = sub.add_parser("bench", help="random full games per second per game")
    bench.add_argument("--seconds", type=float, default=2.0)
    bench.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        if args.command == "arena":
            return _arena(args)
        return _bench(args)
    except (GameError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _arena(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    specs = [s.strip() for s in args.players.split(",") if s.strip()]
    if args.games < 1:
        raise GameError("--games must be at least 1")
    budget = None
    if args.time_ms is not None or args.iterations is not None:
        budget = Budget(time_ms=args.time_ms, iterations=args.iterations)
    jobs = default_jobs() if args.jobs is None else args.jobs
    if jobs < 1:
        raise GameError("--jobs must be at least 1")
    options = _options(args.option)
    for option in GAMES[game.name].options:  # e.g. a sheet file read, as its game says
        if option.command_line and option.key in options:
            options[option.key] = call(option.command_line, options[option.key])
    result = run_arena(game, specs, args.games, args.seed, options, budget, jobs)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{game.title}: {args.games} games, seed {args.seed}, options {result['options']}")
    print(f"{'player':<24}{'mean':>8}{'win%':>8}{'ci95':>16}{'ms mean':>10}{'ms p95':>10}")
    for p in result["players"]:
        lo, hi = p["win_rate_ci95"]
        print(
            f"{p['spec']:<24}{p['mean_score']:>8.2f}{100 * p['win_rate']:>8.1f}"
            f"{f'{100 * lo:.1f}-{100 * hi:.1f}':>16}"
            f"{p['decision_ms_mean']:>10.3f}{p['decision_ms_p95']:>10.3f}"
        )
    return 0


def _bench(args: argparse.Namespace) -> int:
    rows = []
    extra: dict[str, float] = {}
    for name in available_games():
        info = GAMES[name]
        if not info.listed:
            continue
        game = get_game(name)
        for players in range(game.min_players, game.max_players + 1):
            rate = bench_random(game, {"players": players}, args.seconds)
            rows.append({"game": name, "players": players, "games_per_s": round(rate, 1)})
        if info.bench:  # the game's own figures (Optimus: its sheet generator)
            extra.update(call(info.bench, args.seconds))
    if args.json:
        print(json.dumps({"random_games": rows, **extra}))
    else:
        for r in rows:
            print(f"{r['game']:<10} {r['players']} players: {r['games_per_s']:>9.1f} games/s")
        for key, ms in extra.items():
            print(f"{key.removesuffix('_ms').replace('_', ' ')}: {ms:.1f} ms mean")
    return 0


if __name__ == "__main__":
    sys.exit(main())
