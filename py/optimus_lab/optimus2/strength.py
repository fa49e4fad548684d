"""Strength runs of the Optimus 2 bots, game by game, with CPU decision times.

``nice -n 19 env PYTHONPATH=py python -m optimus_lab.optimus2.strength --players hard
--games 200 --seed 1 --iterations 20 --log /tmp/hard.jsonl``

Plays the games of ``python -m optimus arena optimus2`` (game ``g`` depends
only on ``--seed`` and ``g``, so the scores are exactly the arena's) one after
another with :func:`optimus.core.arena.play_game`, timing every decision in
CPU time (``time.process_time``), and appends one JSON line per game to
``--log``; a run stopped early resumes where the log ends. Runs over other
ranges of games (``--first``) can share the work out between processes.
``--summary`` prints the means, 95% intervals and decision times of the games
of one or more logs (each game counted once); with ``--against`` another run's
logs, also each player's mean score difference from that run over the games
both played (the same dice up to the first decision that differs).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Sequence
from typing import Any

from optimus.core.arena import mean_ci, play_game, wilson
from optimus.core.bots import Budget
from optimus.optimus2.bots import LEARNED, HardBot
from optimus.optimus2.game import Optimus2Game
from optimus.optimus2.heuristics import DEFAULT, Weights
from optimus.optimus2.value import (
    load_model,
    read_model,
    register_model,
    registered_model,
    unregister_model,
)
from optimus_lab.optimus2.train import shrunk

END = "strength-end"
"""The name ``--end-weights``' model is registered under for a run."""

Row = dict[str, Any]
"""One game of a log: ``g``, and per player ``scores``, ``wins`` and ``cpu_ms`` (a list)."""


def read_log(path: str) -> list[Row]:
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def summary(specs: Sequence[str], rows: Sequence[Row]) -> str:
    if not rows:
        return "0 games: the logs hold no game yet"
    lines = [f"{len(rows)} games"]
    for i, spec in enumerate(specs):
        scores = [float(r["scores"][i]) for r in rows]
        wins = math.fsum(float(r["wins"][i]) for r in rows)
        ms = sorted(x for r in rows for x in r["cpu_ms"][i])
        m, lo, hi = mean_ci(scores)
        wlo, whi = wilson(wins, len(rows))
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))] if ms else 0.0
        lines.append(
            f"{i} {spec}: mean {m:.1f} (95% CI {lo:.1f}-{hi:.1f}), wins {wins / len(rows):.1%}"
            f" ({wlo:.1%}-{whi:.1%}), decision CPU mean {math.fsum(ms) / max(1, len(ms)):.1f} ms,"
            f" p95 {p95:.1f} ms ({len(ms)} decisions)"
        )
    return "\n".join(lines)


def paired(specs: Sequence[str], rows: Sequence[Row], others: Sequence[Row]) -> str:
    """Each player's mean score difference from ``others`` over the games both logs hold."""
    theirs = {r["g"]: r for r in others}
    common = [r for r in rows if r["g"] in theirs]
    if len(common) < 2:
        return f"paired: {len(common)} games in common, too few to compare"
    lines = [f"paired over the {len(common)} games in common:"]
    for i, spec in enumerate(specs):
        diff = [float(r["scores"][i]) - float(theirs[r["g"]]["scores"][i]) for r in common]
        m, lo, hi = mean_ci(diff)
        lines.append(f"{i} {spec}: {m:+.1f} (95% CI {lo:+.1f} to {hi:+.1f})")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m optimus_lab.optimus2.strength", description=__doc__
    )
    parser.add_argument("--players", required=True, help="comma-separated bot levels")
    parser.add_argument("--games", type=int, default=200, help="play games up to this number")
    parser.add_argument("--first", type=int, default=0, help="the first game this log plays")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument(
        "--solo",
        choices=("net", "race"),
        default="net",
        help="hard plays its value networks (net, the level's way) or, alone and with"
        " others, the race of playouts the options below tune (race)",
    )
    parser.add_argument(
        "--horizon",
        type=int,
        default=None,
        help="hard's solo playouts go on this many rounds past the current one (default: 0)",
    )
    parser.add_argument(
        "--playouts",
        choices=("learned", "hand"),
        default=None,
        help="the evaluation of the greedy choices inside hard's playouts (default: learned)",
    )
    parser.add_argument(
        "--correction",
        type=float,
        default=None,
        help="scale the shipped learned correction (value_weights.json) by this for the run",
    )
    parser.add_argument(
        "--end-scale",
        type=float,
        default=None,
        help="solo: hard values its playouts' ends with value_weights.json's correction times"
        " this (1: as it judges its candidates, the default before value_end.json); with"
        " --end-weights, that file's correction times this",
    )
    parser.add_argument(
        "--end-weights",
        default=None,
        help="solo: hard values its playouts' ends with this weights file's model (written by"
        " python -m optimus_lab.optimus2.train; default: the shipped value_end.json), its"
        " correction times --end-scale (default 1)",
    )
    parser.add_argument(
        "--log", required=True, action="append", help="the run's log (several: --summary only)"
    )
    parser.add_argument("--summary", action="store_true", help="only print the logs' summary")
    parser.add_argument(
        "--against",
        action="append",
        default=[],
        help="with --summary: another run's log(s), to compare game by game",
    )
    args = parser.parse_args(argv)
    specs = args.players.split(",")
    if args.correction is not None and not math.isfinite(args.correction):
        parser.error(f"--correction must be a finite number, not {args.correction}")
    if args.end_scale is not None and not math.isfinite(args.end_scale):
        parser.error(f"--end-scale must be a finite number, not {args.end_scale}")
    end_model = None
    if args.end_weights is not None:
        try:
            end_model = read_model(args.end_weights)
        except ValueError as e:
            parser.error(f"--end-weights: {e}")
    if args.summary:
        games = {r["g"]: r for path in args.log for r in read_log(path)}
        rows = [games[g] for g in sorted(games)]
        print(summary(specs, rows))
        if args.against:
            others = {r["g"]: r for path in args.against for r in read_log(path)}
            print(paired(specs, rows, list(others.values())))
        return
    if len(args.log) > 1:
        parser.error("a run writes one --log (several only with --summary)")
    log = args.log[0]
    game = Optimus2Game()
    opts = game.normalize_options({"players": len(specs)})
    budget = Budget(iterations=args.iterations) if args.iterations else None
    rows = read_log(log)
    saved = HardBot.horizon, HardBot.weights, HardBot.end, HardBot.solo_net, HardBot.multi_net
    if args.solo == "race":
        HardBot.solo_net = HardBot.multi_net = None
    saved_model = registered_model(LEARNED.model)
    if args.horizon is not None:
        HardBot.horizon = args.horizon
    if args.playouts is not None:
        HardBot.weights = LEARNED if args.playouts == "learned" else DEFAULT
    if end_model is not None:
        register_model(END, end_model)
        scale = 1.0 if args.end_scale is None else args.end_scale
        HardBot.end = Weights(model=END, scale=scale)
    elif args.end_scale is not None:
        HardBot.end = Weights(model=LEARNED.model, scale=args.end_scale)
    if args.correction is not None:
        register_model(LEARNED.model, shrunk(load_model(LEARNED.model), args.correction))
    try:
        for g in range(max([args.first - 1, *(r["g"] for r in rows)]) + 1, args.games):
            scores, wins, times = play_game(
                game, specs, g, args.seed, opts, budget, clock=time.process_time
            )
            row: Row = {"g": g, "scores": scores, "wins": wins, "cpu_ms": times}
            with open(log, "a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
            rows.append(row)
    finally:
        HardBot.horizon, HardBot.weights, HardBot.end, HardBot.solo_net, HardBot.multi_net = saved
        if saved_model is not None:
            register_model(LEARNED.model, saved_model)
        else:
            unregister_model(LEARNED.model)
        if end_model is not None:
            unregister_model(END)
    print(summary(specs, rows))


if __name__ == "__main__":
    main()
