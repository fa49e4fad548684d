"""Fit the learned multi-player evaluation (:mod:`optimus.optimus.value_multi`).

``PYTHONPATH=py nice -n 19 python -m optimus_lab.optimus.train_multi --games 600 --rounds 2
--state /tmp/m.pkl``

Each round plays ``--games`` games with others (2, 3 and 4 players in turn,
on the standard sheets and random ones, colour bonuses on) where every player
takes the move its round's policy values most (greedy, one roll ahead of
nothing), and records, for every player after every roll, the sheet valued
in the context the player chose in (the others' sheets and the columns and
colours taken before the roll) with the player's final score. The weights
are then fitted by ridge least squares, one set per estimated number of
rolls left, to the final score less the score the sheet has now (Monte
Carlo: the value of the self-play policy from there; a bucket with few
positions borrows its neighbours'). Round one plays greedily on the
hand-made evaluation (:mod:`optimus.optimus.heuristics`), each later round on
the model fitted before, and each fit uses the positions of every round so
far. After every round the learning curve: the greedy players' mean final
score, and on a tenth as many games again (other seeds, played by the round's
policy) the error of the model's values against the final scores, against a
constant per bucket. The state (positions, curve, round) is saved after
every round (``--state``); a run stopped between rounds resumes there.

Writes ``py/optimus/optimus/value_multi_weights.json`` (``--out``).
"""

from __future__ import annotations

import math
import os
import pickle
import time
from collections.abc import Callable, Sequence

from optimus.core.record import Match
from optimus.core.rng import derive_seed
from optimus.optimus.bots import ranked
from optimus.optimus.game import JOKERS, OptimusGame, OptimusState
from optimus.optimus.heuristics import Evaluator
from optimus.optimus.lookahead import expected_best, face_gains, next_roll_dice, pair_gains
from optimus.optimus.sheet import STANDARD_SHEETS
from optimus.optimus.value import SheetEvaluator
from optimus.optimus.value_multi import (
    BUCKETS,
    FEATURES,
    Context,
    MultiEvaluator,
    MultiModel,
    features,
    later,
    multi_evaluator,
    score_now,
)
from optimus_lab.optimus.train import Example, fit_backwards, rounds_parser

Row = tuple[int, dict[int, float], float, float, tuple[Context, int, int, int] | None]
"""``(rolls left, features, score now, final score, step)``: one player's sheet after a
roll; ``step`` (one position in :data:`KEEP`) is ``(context, marks, "!" left, dice in the
next roll)`` for the fitted dynamic programming."""
Chooser = Callable[[OptimusState, int], SheetEvaluator]

RIDGE = 3.0
KEEP = 2
"""One position in KEEP keeps what the dynamic programming needs (memory, time)."""
MIN_ROWS = 400
"""A bucket with fewer positions is fitted with its neighbours' too."""


def heuristic_chooser(state: OptimusState, player: int) -> SheetEvaluator:
    return Evaluator(state, player)


def model_chooser(model: MultiModel) -> Chooser:
    def choose(state: OptimusState, player: int) -> SheetEvaluator:
        return multi_evaluator(state, player, model)

    return choose


def game_options(seed: int, g: int) -> dict[str, object]:
    """Game ``g`` of a run: 2, 3, 4 players in turn; a standard sheet one game in three."""
    players = 2 + g % 3
    if g % 3 == 1:
        sheet = STANDARD_SHEETS[g // 3 % len(STANDARD_SHEETS)]
    else:
        sheet = f"random:{derive_seed(seed, 'sheet', g % 97) % 1_000_000}"
    return {"players": players, "sheet": sheet}


def play(chooser: Chooser, seed: int, g: int) -> tuple[list[Row], list[float]]:
    """One greedy self-play game: every player's sheet after every roll, and the scores."""
    game = OptimusGame()
    match = Match(game, game.normalize_options(game_options(seed, g)), derive_seed(seed, "game", g))
    state = match.state
    assert isinstance(state, OptimusState)
    n = state.num_players
    seen: list[tuple[int, Context, int, int, int]] = []
    while not state.is_terminal():
        roll = state.roll
        ctxs = [Context(state, p) for p in range(n)]
        dice = [next_roll_dice(state, p, roll + 1) for p in range(n)]
        while not state.is_terminal() and state.roll == roll and not state.is_chance():
            p = state.actors()[0]
            legal = state.legal_moves(p)
            move = ranked(chooser(state, p), state, p, legal)[0][1]
            match.play(p, move)
        for p in range(n):
            seen.append((p, ctxs[p], state.marks[p], JOKERS - state.jokers_used[p], dice[p]))
    scores = state.scores()
    layout = state.layout
    rows: list[Row] = []
    for i, (p, ctx, marks, left, d) in enumerate(seen):
        step = (ctx, marks, left, d) if (i + g) % KEEP == 0 else None
        rows.append(
            (
                ctx.rolls_left,
                features(ctx, layout, marks, left),
                score_now(ctx, layout, marks, left),
                scores[p],
                step,
            )
        )
    return rows, scores


def self_play(
    chooser: Chooser, games: int, seed: int, log: Callable[[str], None]
) -> tuple[list[Row], float]:
    """``games`` games: their rows and the players' mean final score."""
    rows: list[Row] = []
    total, count = 0.0, 0
    t = time.process_time()
    for g in range(games):
        got, scores = play(chooser, seed, g)
        rows += got
        total += sum(scores)
        count += len(scores)
        if (g + 1) % 100 == 0 or g + 1 == games:
            log(
                f"  {g + 1} games, mean final score {total / count:.2f}, "
                f"{time.process_time() - t:.0f} s CPU"
            )
    return rows, total / max(1, count)


def least_squares(rows: Sequence[tuple[dict[int, float], float]], ridge: float) -> list[float]:
    """Ridge least squares over all features (numpy)."""
    import numpy

    a = numpy.zeros((FEATURES, FEATURES))
    b = numpy.zeros(FEATURES)
    for x, y in rows:
        idx = numpy.fromiter(x.keys(), int, len(x))
        val = numpy.fromiter(x.values(), float, len(x))
        a[numpy.ix_(idx, idx)] += numpy.outer(val, val)
        b[idx] += val * y
    a += ridge * numpy.eye(FEATURES)
    return [float(v) for v in numpy.linalg.solve(a, b)]


def bellman_target(model: MultiModel, step: tuple[Context, int, int, int]) -> float:
    """A sheet's value one roll on: the exact mean over the next roll of the best it allows.

    Each outcome valued by ``model`` in the same context one roll later (the
    others' sheets as they were; its weights for one roll less must be fitted).
    """
    ctx, marks, left, dice = step
    ev = MultiEvaluator(later(ctx), model)
    table = face_gains(pair_gains(ev, marks), left, ev.joker)
    return ev.value(marks, left) + expected_best(table, dice)


def fit_dp(
    rows: Sequence[Row], ridge: float = RIDGE, log: Callable[[str], None] = print
) -> MultiModel:
    """Fitted dynamic programming, from one roll left up (the positions with a step)."""
    by: dict[int, list[Row]] = {}
    for row in rows:
        if row[4] is not None:
            by.setdefault(row[0], []).append(row)

    def rows_at(weights: list[list[float]], r: int) -> list[Example]:
        model = MultiModel(weights)
        data = []
        for _, x, now, _, step in by.get(r, []):
            assert step is not None
            data.append((x, bellman_target(model, step) - now))
        return data

    size = (BUCKETS, FEATURES)
    return MultiModel(fit_backwards(size, BUCKETS, rows_at, lambda d: least_squares(d, ridge), log))


def fit(rows: Sequence[Row], ridge: float = RIDGE) -> MultiModel:
    """Monte Carlo: one least-squares fit per bucket of rolls left to the final score
    (widened while it has few rows)."""
    by: dict[int, list[tuple[dict[int, float], float]]] = {}
    for r, x, now, final, _ in rows:
        by.setdefault(r, []).append((x, final - now))
    weights = [[0.0] * FEATURES]
    for r in range(1, BUCKETS):
        got = list(by.get(r, []))
        width = 1
        while len(got) < MIN_ROWS and width < BUCKETS:
            for s in (r - width, r + width):
                got += by.get(s, [])
            width += 1
        weights.append(least_squares(got, ridge) if got else [0.0] * FEATURES)
    return MultiModel(weights)


def errors(model: MultiModel | None, rows: Sequence[Row]) -> float:
    """Root mean square error predicting final scores: the model's, or a constant per bucket's."""
    if model is None:
        sums: dict[int, float] = {}
        counts: dict[int, int] = {}
        for r, _, now, final, _ in rows:
            sums[r] = sums.get(r, 0.0) + final - now
            counts[r] = counts.get(r, 0) + 1
        sq = math.fsum((final - now - sums[r] / counts[r]) ** 2 for r, _, now, final, _ in rows)
    else:
        sq = 0.0
        for r, x, now, final, _ in rows:
            w = model.weights[r]
            sq += (final - now - sum(w[i] * v for i, v in x.items())) ** 2
    return math.sqrt(sq / max(1, len(rows)))


def train(
    games: int,
    rounds: int,
    seed: int,
    state_path: str | None,
    log: Callable[[str], None] = print,
    ridge: float = RIDGE,
    method: str = "dp",
) -> MultiModel:
    saved: dict[str, object] = {"round": 0, "rows": [], "curve": [], "model": None}
    if state_path and os.path.exists(state_path):
        with open(state_path, "rb") as f:
            saved = pickle.load(f)
        log(f"resumed after round {saved['round']}")
        for line in saved["curve"]:  # type: ignore[attr-defined]
            log(line)
    rows: list[Row] = saved["rows"]  # type: ignore[assignment]
    model: MultiModel | None = saved["model"]  # type: ignore[assignment]
    for rnd in range(int(saved["round"]), rounds):  # type: ignore[call-overload]
        chooser = heuristic_chooser if model is None else model_chooser(model)
        got, mean = self_play(chooser, games, derive_seed(seed, "round", rnd), log)
        rows += got
        t = time.process_time()
        model = fit_dp(rows, ridge, log) if method == "dp" else fit(rows, ridge)
        held, held_mean = self_play(
            chooser, max(2, games // 10), derive_seed(seed, "check", rnd), lambda s: None
        )
        line = (
            f"round {rnd + 1}: policy {'hand-made' if rnd == 0 else 'model ' + str(rnd)}, "
            f"greedy mean final score {mean:.2f} (held-out games {held_mean:.2f}); "
            f"fitted on {len(rows)} positions ({time.process_time() - t:.0f} s); "
            f"held-out error {errors(model, held):.2f} "
            f"(constant per bucket {errors(None, held):.2f})"
        )
        log(line)
        saved = {
            "round": rnd + 1,
            "rows": rows,
            "curve": [*saved["curve"], line],  # type: ignore[misc]
            "model": model,
        }
        if state_path:
            with open(state_path + ".tmp", "wb") as f:
                pickle.dump(saved, f)
            os.replace(state_path + ".tmp", state_path)
    assert model is not None
    return model


def main(argv: Sequence[str] | None = None) -> None:
    parser = rounds_parser("optimus_lab.optimus.train_multi", __doc__, 600, 2, 300_000)
    parser.add_argument("--ridge", type=float, default=RIDGE)
    parser.add_argument(
        "--method",
        choices=("dp", "mc"),
        default="dp",
        help="fitted dynamic programming (default) or Monte Carlo regression to the final score",
    )
    parser.add_argument("--state", help="a file to save the run in after every round (resume)")
    parser.add_argument("--out", default="py/optimus/optimus/value_multi_weights.json")
    args = parser.parse_args(argv)
    model = train(
        args.games,
        args.rounds,
        args.seed,
        args.state,
        lambda s: print(s, flush=True),
        args.ridge,
        args.method,
    )
    model.write(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
