"""Learn the tuple tables of :mod:`optimus.optimus2.td` by TD(lambda) on solo or multi-player
self-play.

``nice -n 19 env PYTHONPATH=py python -m optimus_lab.optimus2.td --games 2000 --seed 1
--out /tmp/td.json [--resume /tmp/td.json] [--jobs 1] [--players 4]``

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

``--players N`` (2-4) learns the multi-player value (``td4_weights.json``): every seat of
an N-player game is played by the same policy (greedy on the current value, ``--epsilon``
exploration), and each seat's settled afterstates move towards its own return, the
*margin*: its final score less the mean of the others' (the mean, not the max: it is
linear, so the value splits into the seat's own sheet less the others' mean, and the
same tables serve both; the max of three others is mostly their luck). A seat's value
(:func:`multi_parts`) is its own sheet's value by the tables, less the bucket's *gift
weight* times the tray gift it leaves at the end of its own turn (the passive players'
mean best gain from the tray, :func:`optimus.optimus2.bots.tray_gift` on the corrected
evaluation), less the mean of the others' sheets' values by the same tables but for the ``moment``
entry (a baseline: only the seat's own entries and the gift weight learn from its
errors; the moment, the same entry for all seats, then learns the margin's level). The
gift weights start at 1 (the others' mean rises by the gift when they pick) and move by
``--alpha-gift * error * gift`` (small: every end of a turn reads it). Each afterstate's
value is brought up to date (its own entries and the gift weight as they are now) before
its error is taken, so that a block's many updates of an entry all afterstates share (the
``moment``, read by every seat of every game) do not each correct the same stale error
(without it, blocks of 10-20 four-player games made the level and the gift diverge).
The training mean is then the mean score of all seats; every ``--eval-every`` games
``TdBot`` on the current value plays the arena's games ``0 .. --eval-games - 1`` of seed
``1000 + --seed`` against N - 1 ``normal`` (``greedy_win``, ``greedy_mean``, ``greedy_margin``).
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import os
import time
from collections.abc import Sequence
from typing import Any

from optimus.core.arena import executor
from optimus.core.rng import Rng, derive_seed
from optimus.optimus2.bots import (
    LEARNED,
    TD4,
    decisions,
    gift_left,
    greedy_pick,
    progress_left,
    tray_gift,
    turn_future,
)
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
    unregister_td,
)
from optimus.optimus2.value import BUCKETS, bucket, clear_seen, load_model

NAME = "td_training"
"""The name the tables being learned are registered under."""
W = Weights(model=NAME)

PRIOR = 20
"""The sheet's entries start as a running mean with this many pretend visits at 0 (so one
game's luck does not move them far)."""

MULTI_NAME = "td4_training"
"""The name the multi-player value being learned is registered under for self-play (its
name starts with ``heuristics.MULTI_TD``, so the bots add the opponent-aware terms)."""
W4 = Weights(model=MULTI_NAME)

GIFT0 = 1.0
"""The gift weights' start: the others' mean value rises by the mean gift when they pick."""

Trace = tuple[list[tuple[float, list[int], float, int]], float]
"""One seat's settled afterstates (value, entries read, the tray gift it left and its
bucket, both 0 solo) and its final score (solo) or margin over the others' mean."""


def new_state(seed: int, players: int = 1) -> dict[str, Any]:
    """A trainer state with empty tables (``players`` > 1: the multi-player value's, with
    gift weights)."""
    size = flat_size(load_sheet())
    state: dict[str, Any] = {"games": 0, "seed": seed}
    if players > 1:
        state["players"] = players
        state["gift"] = [GIFT0] * BUCKETS
    state.update({"tables": [0.0] * size, "visits": [0] * size, "curve": []})
    return state


def model_of(state: dict[str, Any]) -> TdModel:
    players = int(state.get("players", 1))
    if players > 1:
        gift = tuple(state["gift"])
        return TdModel(
            load_model("value_weights"), list(state["tables"]), players=players, gift=gift
        )
    return TdModel(load_model("value_weights"), list(state["tables"]))


def explored_move(
    s: Optimus2State,
    p: int,
    legal: list[str],
    w: Weights,
    explore: Rng,
    epsilon: float,
    rerolls: int,
) -> bool:
    """Apply seat ``p``'s move of ``legal`` in ``s``: greedy on ``w`` (a random one but a
    reroll with chance ``epsilon``); False when the move was forced (no decision)."""
    if len(legal) == 1:
        s.apply_move(p, legal[0])
        return False
    if epsilon and explore.random() < epsilon:
        moves = [m for m in legal if m != "reroll"]
        move = moves[explore.randrange(len(moves))]
    else:
        move = greedy_pick(s, p, legal, w, rng=explore, rerolls=rerolls)
    s.apply_move(p, move)
    return True


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
    trace: list[tuple[float, list[int], float, int]] = []
    for _p, legal in decisions(s, dice):
        if not explored_move(s, 0, legal, W, explore, epsilon, rerolls):
            continue
        if not s.pend[0] and not s.is_terminal():
            t = progress_left(s)
            if t > 0:
                v, idx = td_parts(sd, s.sheets[0], t, turn_future(s, 0, 1.0), model)
                trace.append((v, idx, 0.0, 0))
    return trace, s.scores()[0]


def _play_block(args: tuple[TdModel, int, list[int], float, int, str]) -> list[Any]:
    model, seed, games, epsilon, rerolls, label = args
    if model.players > 1:
        return [play_multi(model, seed, g, epsilon, rerolls) for g in games]
    return [play(model, seed, g, epsilon, rerolls, label) for g in games]


def margins(scores: Sequence[float]) -> list[float]:
    """Each seat's score less the mean of the others'."""
    n, total = len(scores), math.fsum(scores)
    return [x - (total - x) / (n - 1) for x in scores]


def multi_parts(s: Optimus2State, p: int, model: TdModel) -> tuple[float, list[int], float, int]:
    """Seat ``p``'s multi-player value of ``s`` (``t > 0``) in full: its own sheet's, less
    the gift weight times the tray gift it leaves (at the end of its turn), less the mean of
    the others' sheets' values (the same tables); and the entries of its own sheet, the
    gift, the bucket."""
    sd, t = s.sd, progress_left(s)
    own, idx = td_parts(sd, s.sheets[p], t, turn_future(s, p, 1.0), model)
    b = bucket(t)
    x = tray_gift(s, LEARNED) if gift_left(s, p) else 0.0
    others = [sheet_value(s, q, t, model) for q in range(s.num_players) if q != p]
    v = own - model.gift[b] * x - math.fsum(others) / len(others)
    return v, idx, x, b


def sheet_value(s: Optimus2State, q: int, t: float, model: TdModel) -> float:
    """Seat ``q``'s sheet's value by ``model`` without the ``moment`` entry (the others'
    baseline: the moment is the same entry for every seat, so in a difference it would
    cancel out and never learn the margin's level)."""
    v, idx = td_parts(s.sd, s.sheets[q], t, turn_future(s, q, 1.0), model)
    return v - model.tables[idx[-1]] if idx else v


def play_multi(
    model: TdModel, seed: int, g: int, epsilon: float, rerolls: int
) -> tuple[list[Trace], list[float]]:
    """Game ``g`` of ``model.players`` seats, each greedy on ``model`` (with ``epsilon``
    exploration): every seat's trace, and the scores."""
    register_td(MULTI_NAME, model)
    clear_seen()
    sd = load_sheet()
    n = model.players
    s = Optimus2State(n, sd)
    dice = Rng(derive_seed(seed, "multi", n, g, "dice"))
    explore = Rng(derive_seed(seed, "multi", n, g, "explore"))
    steps: list[list[tuple[float, list[int], float, int]]] = [[] for _ in range(n)]
    for p, legal in decisions(s, dice):
        if not explored_move(s, p, legal, W4, explore, epsilon, rerolls):
            continue
        if not s.pend[p] and not s.is_terminal() and progress_left(s) > 0:
            steps[p].append(multi_parts(s, p, model))
    scores = s.scores()
    return [(steps[p], m) for p, m in enumerate(margins(scores))], scores


def _eval_block(args: tuple[TdModel, int, list[int]]) -> list[tuple[float, float, float]]:
    """Arena games ``games`` (seed ``seed``) of ``TdBot`` on ``model`` against ``normal``s:
    its win (a share of a tie), its score, its margin over the others' mean."""
    from optimus.core.arena import play_game
    from optimus.optimus2.game import Optimus2Game

    model, seed, games = args
    register_td(TD4.model, model)
    clear_seen()
    try:
        game = Optimus2Game()
        specs = ["optimus.optimus2.bots:TdBot"] + ["normal"] * (model.players - 1)
        opts = game.normalize_options({"players": len(specs)})
        out = []
        for g in games:
            scores, wins, _ = play_game(game, specs, g, seed, opts, None)
            out.append((wins[0], scores[0], margins(scores)[0]))
        return out
    finally:
        unregister_td(TD4.model)
        clear_seen()


EVAL_SEED = 1000
"""The multi-player evaluation plays the arena's games of seed ``EVAL_SEED + --seed``
(apart from the strength tool's seed 1 games)."""


def evaluate_multi(state: dict[str, Any], games: int, pool: Any) -> dict[str, float]:
    """``TdBot`` on the current value against ``normal``s over the fixed evaluation games:
    win rate, mean score, mean margin."""
    model = model_of(state)
    blocks = _split(list(range(games)), pool)
    seed = EVAL_SEED + state["seed"]
    rows = [r for block in pool.map(_eval_block, [(model, seed, b) for b in blocks]) for r in block]
    k = len(rows)
    return {
        "greedy_win": round(math.fsum(r[0] for r in rows) / k, 3),
        "greedy_mean": round(math.fsum(r[1] for r in rows) / k, 2),
        "greedy_margin": round(math.fsum(r[2] for r in rows) / k, 2),
    }


def _move(
    tables: list[float],
    visits: list[int],
    idx: list[int],
    delta: float,
    alpha: float,
    alpha_moment: float,
    tables_too: bool,
) -> None:
    """The ``moment`` entry (``idx``'s last) by a running mean of ``delta``, the sheet's
    entries sharing what is left."""
    *parts, now = idx
    step = max(alpha_moment, 1.0 / (1.0 + visits[now]))
    tables[now] += step * delta
    visits[now] += 1
    rest = (1.0 - step) * delta / len(parts)
    for i in parts if tables_too else ():
        tables[i] += max(alpha, 1.0 / (PRIOR + visits[i])) * rest
        visits[i] += 1


def update(
    state: dict[str, Any],
    trace: Trace,
    lam: float,
    alpha: float,
    alpha_moment: float = 0.01,
    tables_too: bool = True,
    alpha_gift: float = 0.00001,
    played: TdModel | None = None,
) -> None:
    """Move the entries each afterstate of one seat's ``trace`` read towards its
    lambda-return; in a multi-player game, also the gift weight of the bucket of each
    afterstate that left a gift ``x``, by ``-alpha_gift * delta * x`` (the value falls by
    ``weight * x``).

    ``played``: the model the game was played with; each afterstate's value is then
    brought up to date first (its own entries and gift weight as they are now), so that a
    block's many updates of a shared entry (the ``moment``, read by every seat of every
    game) do not each correct the same stale error."""
    steps, final = trace
    tables, visits = state["tables"], state["visits"]
    gift: list[float] = state.get("gift", [])  # solo: none (every gift is 0)
    target = final
    for v, idx, x, b in reversed(steps):
        if played is not None:
            old = played.tables
            v += math.fsum(tables[i] - old[i] for i in idx) - (gift[b] - played.gift[b]) * x
        delta = target - v
        if idx:
            _move(tables, visits, idx, delta, alpha, alpha_moment, tables_too)
        if x and tables_too:
            gift[b] -= alpha_gift * delta * x
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
    alpha_gift: float = 0.00001,
    echo: bool = True,
) -> dict[str, Any]:
    """Play and learn from game ``state['games']`` up to ``games`` (in blocks of ``batch``)."""
    pool = executor(jobs)
    multi = int(state.get("players", 1)) > 1
    recent: list[float] = state.setdefault("recent", [])
    start = time.process_time()

    def measure() -> dict[str, float]:
        if multi:
            return evaluate_multi(state, eval_games, pool)
        return {"greedy_mean": round(evaluate(state, eval_games, rerolls, pool), 2)}

    try:
        if eval_every and state["games"] == 0 and not state["curve"]:
            first: dict[str, Any] = {"games": 0, **measure()}
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
            by_game: dict[int, Any] = {}
            for part, res in zip(args, results, strict=True):
                by_game.update(zip(part[2], res, strict=True))
            for g in block:
                if multi:
                    traces, scores = by_game[g]
                    for trace in traces:
                        update(
                            state,
                            trace,
                            lam,
                            alpha,
                            alpha_moment,
                            g >= calibrate,
                            alpha_gift,
                            model,
                        )
                    recent.append(math.fsum(scores) / len(scores))
                else:
                    update(state, by_game[g], lam, alpha, alpha_moment, g >= calibrate)
                    recent.append(by_game[g][1])
                state["games"] = g + 1
                if state["games"] % report == 0:
                    m = math.fsum(recent[-report:]) / len(recent[-report:])
                    point: dict[str, Any] = {"games": state["games"], "train_mean": round(m, 2)}
                    if multi:
                        point["gift"] = [round(x, 3) for x in state["gift"]]
                    if eval_every and state["games"] % eval_every == 0:
                        point.update(measure())
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
    parser.add_argument(
        "--players", type=int, default=1, help="2-4: self-play with this many seats (multi)"
    )
    parser.add_argument(
        "--alpha-gift", type=float, default=0.00001, help="multi: the gift weights' step"
    )
    parser.add_argument("--export", help="write the package's weights file from --resume")
    args = parser.parse_args(argv)
    if args.export:
        if not args.resume:
            parser.error("--export needs --resume")
        state = load(args.resume)
        model = model_of(state)
        meta = {"games": state["games"], "seed": state["seed"], "curve": state["curve"]}
        if model.players > 1:
            meta["trained_players"] = model.players
        with open(args.export, "w", encoding="utf-8") as f:
            f.write(td_json(model, **meta) + "\n")
        return
    if not 1 <= args.players <= 4:
        parser.error("--players must be 1 to 4")
    state = load(args.resume) if args.resume else new_state(args.seed, args.players)
    keywords = inspect.signature(train).parameters
    options = {k: v for k, v in vars(args).items() if k in keywords and k != "games"}
    train(state, args.games, **options)  # each option of the command line train takes


__all__ = ["load_td", "main", "train"]

if __name__ == "__main__":
    main()
