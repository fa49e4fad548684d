"""Command line: ``python -m optimus arena ...``, ``python -m optimus review ...`` and
``python -m optimus bench``."""

from __future__ import annotations

import argparse
import json
import sys

from optimus.core.arena import bench_random, default_jobs, play_record, run_arena
from optimus.core.bots import Budget
from optimus.core.protocol import JSON, Game, GameError
from optimus.core.registry import available_games, get_game
from optimus.core.review import Review
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
    review = sub.add_parser(
        "review", help="play one seeded game with these bots; the coach rates every decision"
    )
    review.add_argument("game", help=", ".join(info.id for info in listed()))
    review.add_argument("--players", required=True, help="comma-separated bot specs, one a seat")
    review.add_argument("--seed", type=int, default=1)
    review.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    review.add_argument("--iterations", type=int, help="the players' iteration budget")
    review.add_argument(
        "--coach-iterations", type=int, help="the coach's iteration budget (default: its level's)"
    )
    review.add_argument("--json", action="store_true", help="print one JSON object")
    bench = sub.add_parser("bench", help="random full games per second per game")
    bench.add_argument("--seconds", type=float, default=2.0)
    bench.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        if args.command == "arena":
            return _arena(args)
        if args.command == "review":
            return _review(args)
        return _bench(args)
    except (GameError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _game_options(game: Game, pairs: list[str]) -> dict[str, str]:
    """``--option`` pairs, each read as its game's command line reads it (e.g. a sheet file)."""
    options = _options(pairs)
    for option in GAMES[game.name].options:
        if option.command_line and option.key in options:
            options[option.key] = call(option.command_line, options[option.key])
    return options


def _specs(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


def _review(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    specs = _specs(args.players)
    options: dict[str, JSON] = {**_game_options(game, args.option), "players": len(specs)}
    budget = Budget(iterations=args.iterations) if args.iterations is not None else None
    record = play_record(game, specs, args.seed, options, budget)
    coach = Budget(iterations=args.coach_iterations) if args.coach_iterations else None
    review = Review(game, record, range(len(specs)), coach).finish()
    seats = [
        {
            "spec": specs[a.seat],
            "decisions": a.decisions,
            "mean_loss": round(a.mean_loss, 3),
            "best_share": round(a.best_share, 3),
        }
        for a in review.accuracy()
    ]
    decisions = [
        {
            "seat": d.seat,
            "move": d.move,
            "best": d.best,
            "loss": round(d.loss, 3),
            "grade": d.grade,
            "event": d.event,
        }
        for d in review.decisions
    ]
    if args.json:
        print(
            json.dumps(
                {"game": game.name, "seed": args.seed, "seats": seats, "decisions": decisions}
            )
        )
        return 0
    print(f"{game.title}: seed {args.seed}, rated by {review.coach.level}")
    print(f"{'seat':<6}{'player':<24}{'decisions':>10}{'mean loss':>11}{'best':>8}")
    for a in review.accuracy():
        print(
            f"{a.seat:<6}{specs[a.seat]:<24}{a.decisions:>10}{a.mean_loss:>11.2f}"
            f"{100 * a.best_share:>7.0f}%"
        )
    worst = sorted(review.decisions, key=lambda d: -d.loss)[:3]
    for d in worst:
        print(f"seat {d.seat}, event {d.event}: {d.move} ({d.grade}, -{d.loss:.2f}); best {d.best}")
    return 0


def _arena(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    specs = _specs(args.players)
    if args.games < 1:
        raise GameError("--games must be at least 1")
    budget = None
    if args.time_ms is not None or args.iterations is not None:
        budget = Budget(time_ms=args.time_ms, iterations=args.iterations)
    jobs = default_jobs() if args.jobs is None else args.jobs
    if jobs < 1:
        raise GameError("--jobs must be at least 1")
    options = _game_options(game, args.option)
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
