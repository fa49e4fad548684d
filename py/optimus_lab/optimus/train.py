"""Fit the learned solo evaluation (:mod:`optimus.optimus.value`) by fitted value iteration.

``PYTHONPATH=py nice -n 19 python -m optimus_lab.optimus.train --games 2000 --rounds 3``

Each round plays ``--games`` solo games (30 rolls, two colour and two number
dice) with a policy and records every sheet after every roll with the rolls
left. Then the weights are fitted by dynamic programming, backwards from the
last roll: those for ``r`` rolls left by least squares (a little ridge) to
the value of each recorded sheet with ``r`` rolls left one roll on -- the
exact mean, over the 6^4 ways the next roll can fall, of the best sheet it
allows, valued with the weights for ``r - 1`` rolls left fitted just before
(with none left: the score). So the values are those of playing well from
the sheet, not of the policy that reached it. Round one plays greedily on
the hand-made evaluation (:mod:`optimus.optimus.heuristics`); each later round
greedily on the model fitted before, and fits on the positions of every
round so far, so the positions follow the better policy. The games are
played on random sheets (``random:SEED`` from the training seed) and the two
standard ones in turn, so the weights are not tied to one sheet. Then a
tenth as many games again, played greedily on the final model, check it:
its error predicting their final scores against the mean per roll. Standard
library only: the normal equations are solved by Gaussian elimination in
pure Python.

Writes ``py/optimus/optimus/value_weights.json`` (``--out``).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import time
from collections.abc import Callable, Sequence

from optimus.core.rng import Rng, derive_seed
from optimus.optimus.bots import best_gain
from optimus.optimus.game import COLOUR_FACES, JOKERS, NUMBER_FACES, SOLO_ROLLS, OptimusGame
from optimus.optimus.generate import generate_sheet
from optimus.optimus.heuristics import Evaluator
from optimus.optimus.lookahead import expected_best, face_gains, pair_gains
from optimus.optimus.sheet import STANDARD_SHEETS, Layout, Sheet, layout_of, standard_sheet
from optimus.optimus.value import BUCKETS, FEATURES, LearnedEvaluator, Model, features, score_now

Position = tuple[Layout, int, int, int, float]
"""``(layout, rolls left, marks, "!" left, final score)``: a sheet after a roll of a game."""
Row = tuple[int, dict[int, float], float]
"""``(rolls left, features, target)``: what the fit sees of a position."""
Policy = Callable[[Layout, int, int, int, list[str], list[str]], tuple[int, int]]
"""``(layout, marks, "!" left, roll, colour dice, number dice) -> (marks, "!" left)``."""

RIDGE = 3.0
SOLO_DICE = 2


def heuristic_policy() -> Policy:
    """Greedy on the hand-made evaluation."""
    game = OptimusGame()
    states: dict[Layout, object] = {}

    def choose(
        layout: Layout, marks: int, left: int, roll: int, dice_c: list[str], dice_n: list[str]
    ) -> tuple[int, int]:
        state = states.get(layout)
        if state is None:
            state = game.new_state({"players": 1, "sheet": layout.sheet.compact()})
            states[layout] = state
        state.roll = roll  # type: ignore[attr-defined]
        ev = Evaluator(state, 0)  # type: ignore[arg-type]
        _, new, new_left = best_gain(ev, marks, left, dice_c, dice_n)
        return new, new_left

    return choose


def model_policy(model: Model) -> Policy:
    """Greedy on a learned model."""

    def choose(
        layout: Layout, marks: int, left: int, roll: int, dice_c: list[str], dice_n: list[str]
    ) -> tuple[int, int]:
        ev = LearnedEvaluator(layout, roll, model)
        _, new, new_left = best_gain(ev, marks, left, dice_c, dice_n)
        return new, new_left

    return choose


RANDOM_SHEETS = 97
"""The random training sheets of a run (game ``g``'s is number ``g % 97``)."""


def training_layout(seed: int, game: int) -> Layout:
    """Game ``game`` of a run: the standard sheets in turn with random ones (two of three)."""
    return layout_of(training_sheet(seed, game))


def training_sheet(seed: int, game: int) -> Sheet:
    """:func:`training_layout`'s sheet."""
    if game % 3 == 0:
        return standard_sheet(STANDARD_SHEETS[game // 3 % len(STANDARD_SHEETS)])
    return random_sheet(seed, game % RANDOM_SHEETS)


@functools.lru_cache(maxsize=4 * RANDOM_SHEETS)
def random_sheet(seed: int, k: int) -> Sheet:
    """A run's random training sheet ``k`` (kept: generating one costs about as much as
    playing a third of a training game)."""
    return generate_sheet(derive_seed(seed, "sheet", k))


def roll_dice(dice: Rng) -> tuple[list[str], list[str]]:
    """A solo roll from ``dice``: the colour dice's faces, then the number dice's."""
    colours = [COLOUR_FACES[dice.randrange(6)] for _ in range(SOLO_DICE)]
    return colours, [NUMBER_FACES[dice.randrange(6)] for _ in range(SOLO_DICE)]


def play(layout: Layout, policy: Policy, rng: Rng) -> list[Position]:
    """One solo game: the sheet after every roll but the last, each with the final score."""
    marks, left = 0, JOKERS
    seen: list[tuple[int, int, int]] = []
    for roll in range(1, SOLO_ROLLS + 1):
        marks, left = policy(layout, marks, left, roll, *roll_dice(rng))
        if roll < SOLO_ROLLS:
            seen.append((SOLO_ROLLS - roll, marks, left))
    final = float(score_now(layout, marks, left))
    return [(layout, r, m, j, final) for r, m, j in seen]


def self_play(
    policy: Policy, games: int, seed: int, log: Callable[[str], None] = print
) -> list[list[Position]]:
    """``games`` solo games on the training sheets: the positions of each."""
    out: list[list[Position]] = []
    total = 0.0
    t = time.process_time()
    for g in range(games):
        rng = Rng(derive_seed(seed, "dice", g))
        got = play(training_layout(seed, g), policy, rng)
        out.append(got)
        total += got[0][4]
        if (g + 1) % 500 == 0 or g + 1 == games:
            log(
                f"  {g + 1} games, mean final score {total / (g + 1):.2f}, "
                f"{time.process_time() - t:.0f} s CPU"
            )
    return out


def bellman_target(model: Model, layout: Layout, rolls_left: int, marks: int, left: int) -> float:
    """The sheet's value one roll on: the exact mean over the next roll of the best it allows.

    Each outcome valued by ``model`` with one roll less to come (its weights
    for ``rolls_left - 1`` must be fitted already).
    """
    ev = LearnedEvaluator(layout, SOLO_ROLLS - rolls_left + 1, model)
    table = face_gains(pair_gains(ev, marks), left, ev.joker)
    return ev.value(marks, left) + expected_best(table, SOLO_DICE)


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting; ``a`` is consumed)."""
    n = len(b)
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[piv][col]) < 1e-12:
            raise ValueError(f"singular system at column {col}")
        a[col], a[piv] = a[piv], a[col]
        b[col], b[piv] = b[piv], b[col]
        row = a[col]
        inv = 1.0 / row[col]
        for r in range(col + 1, n):
            other = a[r]
            f = other[col] * inv
            if f:
                for j in range(col, n):
                    other[j] -= f * row[j]
                b[r] -= f * b[col]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        row = a[r]
        s = b[r] - math.fsum(row[j] * x[j] for j in range(r + 1, n))
        x[r] = s / row[r]
    return x


def _solve_fast(a: list[list[float]], b: list[float]) -> list[float]:
    """:func:`solve`, by numpy when it is installed (the lab only; much faster)."""
    try:
        import numpy
    except ImportError:
        return solve(a, b)
    return [float(x) for x in numpy.linalg.solve(numpy.array(a), numpy.array(b))]


Example = tuple[dict[int, float], float]
"""One fitting row: a position's (sparse) features and its target."""


def least_squares(rows: Sequence[Example], ridge: float) -> list[float]:
    """Ridge least squares over the features the rows use (the others get 0)."""
    gram: dict[tuple[int, int], float] = {}
    rhs: dict[int, float] = {}
    for x, y in rows:
        items = sorted(x.items())
        for n, (i, xi) in enumerate(items):
            rhs[i] = rhs.get(i, 0.0) + xi * y
            for j, xj in items[n:]:
                gram[i, j] = gram.get((i, j), 0.0) + xi * xj
    w = [0.0] * FEATURES
    used = sorted(rhs)
    if not used:
        return w
    pos = {f: n for n, f in enumerate(used)}
    a = [[0.0] * len(used) for _ in used]
    for (i, j), v in gram.items():
        a[pos[i]][pos[j]] = v
        a[pos[j]][pos[i]] = v
    for n in range(len(used)):
        a[n][n] += ridge
    sol = _solve_fast(a, [rhs[f] for f in used])
    for f, v in zip(used, sol, strict=True):
        w[f] = v
    return w


def fit(
    positions: Sequence[Position], ridge: float = RIDGE, log: Callable[[str], None] = print
) -> Model:
    """Fitted dynamic programming, from one roll left back to the first roll.

    The weights for ``r`` rolls left are fitted to the :func:`bellman_target`
    of the positions with ``r`` rolls left (less the score the sheet has now),
    computed with the weights for ``r - 1`` fitted just before.
    """
    by_left: dict[int, list[Position]] = {}
    for p in positions:
        by_left.setdefault(p[1], []).append(p)

    def rows_at(weights: list[list[float]], rolls_left: int) -> list[Example]:
        model = Model(weights)
        rows = []
        for layout, _, marks, left, _ in by_left.get(rolls_left, []):
            target = bellman_target(model, layout, rolls_left, marks, left)
            rows.append((features(layout, marks, left), target - score_now(layout, marks, left)))
        return rows

    size = (BUCKETS, FEATURES)
    return Model(fit_backwards(size, SOLO_ROLLS, rows_at, lambda r: least_squares(r, ridge), log))


def fit_backwards(
    size: tuple[int, int],
    end: int,
    rows_at: Callable[[list[list[float]], int], list[Example]],
    solve: Callable[[list[Example]], list[float]],
    log: Callable[[str], None],
) -> list[list[float]]:
    """Fitted dynamic programming: ``size`` (buckets, features) weights, those of ``r``
    rolls left (1 up to ``end``, exclusive) fitted by ``solve`` to ``rows_at(weights, r)``,
    whose targets use the weights fitted before (no rows: left at 0); a line to ``log``
    every 5."""
    buckets, features = size
    weights = [[0.0] * features for _ in range(buckets)]
    t = time.process_time()
    for r in range(1, end):
        rows = rows_at(weights, r)
        if rows:
            weights[r] = solve(rows)
        if r % 5 == 0:
            cpu = time.process_time() - t
            log(f"  fitted {r} rolls left ({len(rows)} positions), {cpu:.0f} s CPU")
    return weights


def errors(model: Model | None, positions: Sequence[Position]) -> float:
    """Root mean square error predicting the final scores: the model's, or the means'.

    ``None``: the mean final score per number of rolls left (a constant).
    """
    if model is None:
        sums: dict[int, float] = {}
        counts: dict[int, int] = {}
        for _, r, _, _, final in positions:
            sums[r] = sums.get(r, 0.0) + final
            counts[r] = counts.get(r, 0) + 1
        sq = math.fsum((final - sums[r] / counts[r]) ** 2 for _, r, _, _, final in positions)
    else:
        sq = math.fsum(
            (final - model.predict(layout, marks, left, r)) ** 2
            for layout, r, marks, left, final in positions
        )
    return math.sqrt(sq / max(1, len(positions)))


def train(
    games: int,
    rounds: int,
    seed: int,
    log: Callable[[str], None] = print,
    ridge: float = RIDGE,
    start: Model | None = None,
) -> tuple[Model, float, float]:
    """Fitted value iteration; returns the model, its held-out error and the constant's.

    Round one's games are played greedily on the hand-made evaluation, each
    later round's greedily on the model fitted before; each fit uses the
    positions of every round so far. Then a tenth as many games again (other
    seeds), played greedily on the final model, check it: how far its values
    are from the final scores, against the mean final score per roll of
    those same games. With ``start``, round one plays greedily on that model
    instead (to go on from an earlier run with positions of a better policy).
    """
    policy = heuristic_policy() if start is None else model_policy(start)
    model: Model | None = None
    positions: list[Position] = []
    for rnd in range(rounds):
        played = self_play(policy, games, derive_seed(seed, "round", rnd), log)
        positions += [p for g in played for p in g]
        model = fit(positions, ridge, log)
        log(f"round {rnd + 1}: fitted on {len(positions)} positions")
        policy = model_policy(model)
    assert model is not None
    held = self_play(policy, max(2, games // 10), derive_seed(seed, "check"), log)
    check = [p for g in held for p in g]
    mine, base = errors(model, check), errors(None, check)
    log(f"held-out error of the final score {mine:.2f} (constant per roll: {base:.2f})")
    return model, mine, base


def rounds_parser(
    module: str, doc: str | None, games: int, rounds: int, seed: int
) -> argparse.ArgumentParser:
    """The command line of ``python -m module``, a training in rounds of self-play:
    ``--games`` a round, ``--rounds``, ``--seed`` (these defaults); the caller adds its own."""
    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=doc)
    parser.add_argument("--games", type=int, default=games, help="games per round")
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--seed", type=int, default=seed)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = rounds_parser("optimus_lab.optimus.train", __doc__, 2000, 3, 100_000)
    parser.add_argument("--out", default="py/optimus/optimus/value_weights.json")
    parser.add_argument(
        "--start", help="a model file: round one plays on it, not on the hand-made evaluation"
    )
    args = parser.parse_args(argv)
    start = None
    if args.start:
        with open(args.start, encoding="utf-8") as f:
            start = Model.from_json(json.load(f))
    model, _, _ = train(
        args.games, args.rounds, args.seed, lambda s: print(s, flush=True), start=start
    )
    model.write(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
