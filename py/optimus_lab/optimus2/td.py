"""Learn the tuple tables of :mod:`optimus.optimus2.td` by TD(lambda) on solo self-play.

``nice -n 19 env PYTHONPATH=py python -m optimus_lab.optimus2.td --games 2000 --seed 1
--out /tmp/td.json [--resume /tmp/td.json] [--jobs 1]``

Each game is played solo by the learned value's own greedy policy (one decision
ahead over the afterstates, the bonus questions a move raises answered greedily
inside the look, a reroll valued by ``--rerolls`` sampled rolls), with a random
move instead (not a reroll) with probability ``--epsilon``. Every afterstate the
player settles in (no bonus question pending) is recorded with its value and the
tables' entries it read; at the game's end each one's lambda-return (the final
score at the last) is its target, and every entry it read moves by
``step * (target - value) / 7``, ``step = max(--alpha, 1 / (20 + visits))``
(the entry's visits so far: a running mean shrunk to 0 at first, then a constant
step).
The ``moment`` entry (the value's level at that point of the game) moves first, by
``max(--alpha-moment, 1 / (1 + visits))`` of the error, and the sheet's tables share
what is left: so the level is learned at once and the tables learn from the
differences left over; in the first ``--calibrate`` games only the level learns.

Games are played in blocks of ``--batch`` from the same tables, and the block's
updates are applied in game order, so ``--jobs`` (processes playing a block's
games) changes nothing but the time. Game ``g``'s dice and exploration depend
only on ``--seed`` and ``g``. After every block the state (tables, visits, the
game counter and the learning curve) is written to ``--out``; ``--resume`` goes
on from such a file, and two runs with a resume give the tables of one longer run.

The curve: every ``--report`` games, the mean final score of the last
``--report`` training games; every ``--eval-every`` games, the greedy policy's
mean over ``--eval-games`` fixed games (seeds apart from the training games').
``--export PATH`` writes the package's file (entries to 3 decimals) from
``--resume``'s state.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Sequence
from typing import Any

from optimus.core.arena import executor
from optimus.core.rng import Rng, derive_seed
from optimus.optimus2.bots import greedy_pick, progress_left, roll_randomly, turn_future
from optimus.optimus2.game import Optimus2State
from optimus.optimus2.heuristics import Weights
from optimus.optimus2.sheet import load_sheet
from optimus.optimus2.td import (
    TABLES,
    TdModel,
    flat_size,
    load_td,
    register_td,
    td_json,
    td_parts,
)
from optimus.optimus2.value import clear_seen, load_model

NAME = "td_training"
"""The name the tables being learned are registered under."""
W = Weights(model=NAME)

PRIOR = 20
"""The sheet's entries start as a running mean with this many pretend visits at 0 (so one
game's luck does not move them far)."""

Trace = tuple[list[tuple[float, list[int]]], float]
"""A game's settled afterstates (value, entries read) and its final score."""


def new_state(seed: int) -> dict[str, Any]:
    """A trainer state with empty tables."""
    size = flat_size(load_sheet())
    return {"games": 0, "seed": seed, "tables": [0.0] * size, "visits": [0] * size, "curve": []}


def model_of(state: dict[str, Any]) -> TdModel:
    return TdModel(load_model("value_weights"), list(state["tables"]))


def play(
    model: TdModel, seed: int, g: int, epsilon: float, rerolls: int, label: str = "train"
) -> Trace:
    """Game ``g`` played solo greedily on ``model`` (with ``epsilon`` exploration)."""
    register_td(NAME, model)
    clear_seen()
    sd = load_sheet()
    s = Optimus2State(1, sd)
    dice = Rng(derive_seed(seed, label, g, "dice"))
    explore = Rng(derive_seed(seed, label, g, "explore"))
    trace: list[tuple[float, list[int]]] = []
    while not s.is_terminal():
        if s.is_chance():
            roll_randomly(s, dice)
            continue
        legal = s.legal_moves(0)
        if len(legal) == 1:
            s.apply_move(0, legal[0])
            continue
        if epsilon and explore.random() < epsilon:
            moves = [m for m in legal if m != "reroll"]
            move = moves[explore.randrange(len(moves))]
        else:
            move = greedy_pick(s, 0, legal, W, rng=explore, rerolls=rerolls)
        s.apply_move(0, move)
        if not s.pend[0] and not s.is_terminal():
            t = progress_left(s)
            if t > 0:
                trace.append(td_parts(sd, s.sheets[0], t, turn_future(s, 0, 1.0), model))
    return trace, s.scores()[0]


def _play_block(args: tuple[TdModel, int, list[int], float, int, str]) -> list[Trace]:
    model, seed, games, epsilon, rerolls, label = args
    return [play(model, seed, g, epsilon, rerolls, label) for g in games]


def update(
    state: dict[str, Any],
    trace: Trace,
    lam: float,
    alpha: float,
    alpha_moment: float = 0.01,
    tables_too: bool = True,
) -> None:
    """Move the entries each afterstate read towards its lambda-return."""
    steps, final = trace
    tables, visits = state["tables"], state["visits"]
    target = final
    for v, idx in reversed(steps):
        delta = target - v
        if idx:
            *parts, now = idx
            step = max(alpha_moment, 1.0 / (1.0 + visits[now]))
            tables[now] += step * delta
            visits[now] += 1
            rest = (1.0 - step) * delta / len(parts)
            for i in parts if tables_too else ():
                tables[i] += max(alpha, 1.0 / (PRIOR + visits[i])) * rest
                visits[i] += 1
        target = (1 - lam) * v + lam * target


def evaluate(state: dict[str, Any], games: int, rerolls: int, pool: Any) -> float:
    """The greedy policy's mean score over the fixed evaluation games."""
    model = model_of(state)
    blocks = _split(list(range(games)), pool)
    args = [(model, state["seed"], b, 0.0, rerolls, "eval") for b in blocks]
    results = list(pool.map(_play_block, args))
    scores = [final for block in results for _, final in block]
    return math.fsum(scores) / len(scores)


def _split(games: list[int], pool: Any) -> list[list[int]]:
    jobs = pool.jobs
    return [games[i::jobs] for i in range(jobs) if games[i::jobs]]


def save(state: dict[str, Any], path: str) -> None:
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({**state, "tables_names": list(TABLES)}, f)
    os.replace(tmp, path)


def load(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    data.pop("tables_names", None)
    return data


def train(
    state: dict[str, Any],
    games: int,
    *,
    out: str | None = None,
    batch: int = 1,
    jobs: int = 1,
    lam: float = 0.7,
    alpha: float = 0.02,
    epsilon: float = 0.03,
    rerolls: int = 3,
    report: int = 50,
    eval_every: int = 0,
    eval_games: int = 20,
    alpha_moment: float = 0.01,
    calibrate: int = 0,
    echo: bool = True,
) -> dict[str, Any]:
    """Play and learn from game ``state['games']`` up to ``games`` (in blocks of ``batch``)."""
    pool = executor(jobs)
    recent: list[float] = state.setdefault("recent", [])
    start = time.process_time()
    try:
        if eval_every and state["games"] == 0 and not state["curve"]:
            mean = evaluate(state, eval_games, rerolls, pool)
            first = {"games": 0, "greedy_mean": round(mean, 2)}
            state["curve"].append(first)
            if echo:
                print(json.dumps(first), flush=True)
        while state["games"] < games:
            g0 = state["games"]
            block = list(range(g0, min(games, g0 - g0 % batch + batch)))
            model = model_of(state)
            blocks = _split(block, pool)
            args = [(model, state["seed"], b, epsilon, rerolls, "train") for b in blocks]
            results = list(pool.map(_play_block, args))
            by_game: dict[int, Trace] = {}
            for part, res in zip(args, results, strict=True):
                by_game.update(zip(part[2], res, strict=True))
            for g in block:
                update(state, by_game[g], lam, alpha, alpha_moment, g >= calibrate)
                recent.append(by_game[g][1])
                state["games"] = g + 1
                if state["games"] % report == 0:
                    m = math.fsum(recent[-report:]) / len(recent[-report:])
                    point: dict[str, Any] = {"games": state["games"], "train_mean": round(m, 2)}
                    if eval_every and state["games"] % eval_every == 0:
                        point["greedy_mean"] = round(evaluate(state, eval_games, rerolls, pool), 2)
                    state["curve"].append(point)
                    del recent[:-report]
                    if echo:
                        cpu = time.process_time() - start
                        print(json.dumps({**point, "cpu_s": round(cpu, 1)}), flush=True)
            if out:
                save(state, out)
    finally:
        pool.shutdown()
    return state


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimus_lab.optimus2.td", description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="train up to this game counter")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="the trainer's state, written after every block")
    parser.add_argument("--resume", help="go on from this trainer state")
    parser.add_argument("--batch", type=int, default=1, help="games per block of updates")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--alpha", type=float, default=0.02, help="the smallest step")
    parser.add_argument("--epsilon", type=float, default=0.03)
    parser.add_argument(
        "--alpha-moment", type=float, default=0.01, help="the smallest step of the level"
    )
    parser.add_argument(
        "--calibrate", type=int, default=0, help="the first games learn the level only"
    )
    parser.add_argument("--rerolls", type=int, default=3)
    parser.add_argument("--report", type=int, default=50)
    parser.add_argument("--eval-every", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=20)
    parser.add_argument("--export", help="write the package's weights file from --resume")
    args = parser.parse_args(argv)
    if args.export:
        if not args.resume:
            parser.error("--export needs --resume")
        state = load(args.resume)
        model = model_of(state)
        meta = {"games": state["games"], "seed": state["seed"], "curve": state["curve"]}
        with open(args.export, "w", encoding="utf-8") as f:
            f.write(td_json(model, **meta) + "\n")
        return
    state = load(args.resume) if args.resume else new_state(args.seed)
    train(
        state,
        args.games,
        out=args.out,
        batch=args.batch,
        jobs=args.jobs,
        lam=args.lam,
        alpha=args.alpha,
        epsilon=args.epsilon,
        rerolls=args.rerolls,
        report=args.report,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
        alpha_moment=args.alpha_moment,
        calibrate=args.calibrate,
    )


__all__ = ["load_td", "main", "train"]

if __name__ == "__main__":
    main()
