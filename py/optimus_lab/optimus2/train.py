"""Fit the learned correction of the evaluation (:mod:`optimus.optimus2.value`) by self-play.

``nice -n 19 env PYTHONPATH=py python -m optimus_lab.optimus2.train --games 600 --rounds 2 \
--shrink 0.3``

Every round plays ``--games`` solo games greedily (round one on the
hand-written evaluation, the ``normal`` bot's choices with rerolls sampled;
each later round on the evaluation corrected by the model fitted just
before). At a share ``--share`` of the decisions, the ``--top`` best
afterstates by the playing evaluation are each played on to the end of the
game by the same greedy player under the same dice (common random numbers),
and their final scores recorded: a *group*. The model corrects the
hand-written value: per bucket of the game left, ridge least squares of
(final score - hand-written value) on the features, both centred within
each group, so that only the differences between the choices of one
decision are fitted (a rollout improvement of the greedy player, learned).
The groups of the last ``--keep`` rounds are fitted on (standard library
only: normal equations solved by Gaussian elimination). The correction
shipped is the last fit times ``--shrink`` (a full correction played worse:
see docs/notes/bots-history.md). Seeds from ``--seed`` (1,000,000: far from the
benchmarks' seeds). ``--check`` games then compare greedy play on the
shipped model with the hand-written evaluation on the same dice.

Writes ``py/optimus/optimus2/value_weights.json`` (``--out``).

``--ends N`` trains nothing: it measures how well the shipped correction, at
each of ``--scales``, explains the differences between sibling positions at
the end of the round, where ``hard`` values its playouts (:func:`round_group`,
:func:`end_fit`; figures in docs/notes/bots-history.md). With ``--log`` it keeps those
groups, game by game, and ``--fit-from LOG`` fits a model on them: the
shipped ``value_end.json``, ``hard``'s value of its solo playouts' ends
(``--ends 355 --share 0.5 --seed 6000000 --log E0.jsonl``, ``--ends 4342
--first 4000`` with the same options and ``--log E1.jsonl``, then ``--fit-from
E0.jsonl --fit-from E1.jsonl --shrink 1 --out py/optimus/optimus2/value_end.json``).

``--distill N --log LOG`` logs the decisions of solo games of ``hard`` instead
(each candidate's afterstate with the mean of its playouts: :class:`Recorder`),
for ``--fit-from`` too (tried, not shipped: docs/notes/bots-history.md).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import ClassVar, TypeVar

from optimus.core.arena import play_game
from optimus.core.bots import Budget, run_to_end
from optimus.core.rng import Rng
from optimus.optimus2.bots import (
    LEARNED,
    HardBot,
    afterstate_steps,
    greedy_to_end,
    play_on,
    progress_left,
    turn_future,
)
from optimus.optimus2.game import Optimus2Game, Optimus2State
from optimus.optimus2.heuristics import DEFAULT, Weights
from optimus.optimus2.sheet import load_sheet, total_score
from optimus.optimus2.value import (
    BUCKETS,
    FEATURES,
    Model,
    base_gain,
    bucket,
    features,
    load_model,
    read_model,
    register_model,
)

Sample = tuple[int, list[float], float]
"""``(bucket, features, target)``: one recorded afterstate."""

X = TypeVar("X")

TRAIN = "train"
"""The name the model being trained is registered under (:func:`register_model`)."""


def finish(s: Optimus2State, w: Weights, rng: Rng, dice: Rng, rerolls: int) -> int:
    """Play solo game ``s`` to its end greedily on ``w``; its final score."""
    greedy_to_end(s, w, rng if rerolls else None, dice, rerolls=rerolls)
    return total_score(s.sd, s.sheets[0])


def siblings(
    s: Optimus2State, p: int, legal: list[str], w: Weights, top: int
) -> list[tuple[float, Optimus2State]]:
    """The ``top`` afterstates of ``legal`` best by ``w`` (bonus questions answered), best first."""
    out = [(v, c) for v, _, c in run_to_end(afterstate_steps(s, p, legal, w))]
    out.sort(key=lambda x: -x[0])
    return out[:top]


def sample(c: Optimus2State, p: int, t: float, outcome: float) -> Sample:
    """Player ``p``'s position ``c`` (share ``t`` of the game left) with its target:
    ``outcome`` less the score now and the hand-written points to come (what :func:`fit`
    corrects)."""
    score, feats = features(c.sd, c.sheets[p], t, turn_future(c, p, 1.0))
    return bucket(t), feats, outcome - score - base_gain(feats)


def first_bucket(
    states: Iterable[tuple[X, Optimus2State]],
) -> Iterator[tuple[X, Optimus2State, float]]:
    """The positions of ``states`` not at the game's end whose bucket of the game left is
    that of the first of them, each with its share of the game left."""
    first = -1
    for x, c in states:
        t = progress_left(c)
        if t <= 0:
            continue
        b = bucket(t)
        if first < 0:
            first = b
        if b == first:
            yield x, c, t


def group(
    s: Optimus2State, p: int, legal: list[str], w: Weights, top: int, seed: int, rerolls: int
) -> list[Sample]:
    """A decision's best afterstates, each played to the end under the same dice.

    The targets are the final scores (:func:`sample`); only the afterstates in the bucket
    of the best one are kept.
    """
    out = [
        sample(c, p, t, finish(c.clone(), w, Rng(seed), Rng(seed + 1), rerolls))
        for _, c, t in first_bucket(siblings(s, p, legal, w, top))
    ]
    return out if len(out) > 1 else []


def round_group(
    s: Optimus2State, p: int, legal: list[str], w: Weights, top: int, seed: int, rerolls: int
) -> list[Sample]:
    """A decision's best afterstates, each played on to the end of the round as ``hard``'s
    playouts do (:func:`~optimus.optimus2.bots.play_on`), then to the end of the game, all
    under the same dice; the features are those of the round's end, where ``hard`` values
    its playouts (``rerolls``: unused, the playouts sample 2). Empty in the last round (its
    end is the final score)."""
    dice = Rng(seed)
    to_round, to_end = dice.randrange(1 << 30) * 1024, dice.randrange(1 << 30) * 1024
    out: list[Sample] = []
    for _, c in siblings(s, p, legal, w, top):
        run_to_end(play_on(c, p, w, to_round, (c.round, c.active)))
        t = progress_left(c)
        if t <= 0:
            return []
        end = c.clone()
        run_to_end(play_on(end, p, w, to_end, None))
        out.append(sample(c, p, t, total_score(end.sd, end.sheets[p])))
    return out if len(out) > 1 and len({b for b, _, _ in out}) == 1 else []


def race_group(
    s: Optimus2State, p: int, cands: Sequence[str], results: Sequence[Sequence[float]], w: Weights
) -> list[Sample]:
    """One of ``hard``'s raced decisions as a group: each candidate's afterstate (bonus
    questions answered greedily on ``w``, as the greedy choices value it) with the mean of
    its playouts as the target, less the hand-written value (what :func:`fit` corrects).

    A reroll (no afterstate) is left out, and so is a candidate outside the bucket of the
    first one kept; empty when fewer than two are left or the game ends."""
    played = [(res, m) for m, res in zip(cands, results, strict=True) if m != "reroll" and res]
    after = run_to_end(afterstate_steps(s, p, [m for _, m in played], w))
    states = [(res, c) for (res, _), (_, _, c) in zip(played, after, strict=True)]
    if any(progress_left(c) <= 0 for _, c in states):
        return []
    out = [sample(c, p, t, math.fsum(res) / len(res)) for res, c, t in first_bucket(states)]
    return out if len(out) > 1 else []


class Recorder(HardBot):
    """``hard``, keeping every raced decision as a group (:func:`race_group`) in
    :attr:`groups`: the search distilled into the greedy value (``--distill``)."""

    groups: ClassVar[list[list[Sample]]] = []
    solo_net = None  # the race, alone and with others: it is what is distilled
    multi_net = None

    def after_race(self, s: Optimus2State, cands: list[str]) -> None:
        g = race_group(s, self.player, cands, self.raced, self.judge)
        if g:
            self.groups.append(g)


def last_logged(log: str) -> int:
    """The last game number of a log of :func:`log_game` (-1: none yet)."""
    if not os.path.exists(log):
        return -1
    with open(log, encoding="utf-8") as f:
        return max((json.loads(line)["g"] for line in f if line.strip()), default=-1)


def log_game(log: str, g: int, score: float, groups: Sequence[list[Sample]]) -> None:
    """Append game ``g``'s score and groups to ``log`` (one JSON line; :func:`read_groups`)."""
    rows = [[[b, [round(x, 6) for x in f], round(y, 6)] for b, f, y in gr] for gr in groups]
    with open(log, "a", encoding="utf-8") as f:
        f.write(json.dumps({"g": g, "score": score, "groups": rows}) + "\n")


def distill(args: argparse.Namespace) -> None:
    """``--distill N``: solo games of ``hard`` (:class:`Recorder`), one JSON line a game in
    ``--log`` with its score and its raced decisions' groups; resumes where the log ends."""
    game = Optimus2Game()
    opts = game.normalize_options({"players": 1})
    budget = Budget(iterations=args.iterations) if args.iterations else None
    spec = f"{__name__}:Recorder"
    for g in range(max(last_logged(args.log) + 1, args.first), args.distill):
        Recorder.groups = []
        t0 = time.process_time()
        scores, _, _ = play_game(game, [spec], g, args.seed, opts, budget)
        log_game(args.log, g, scores[0], Recorder.groups)
        cpu = time.process_time() - t0
        print(f"game {g}: {scores[0]}, {len(Recorder.groups)} decisions, {cpu:.0f} s CPU")


def read_groups(paths: Sequence[str]) -> list[list[Sample]]:
    """The groups of :func:`log_game` logs, game by game (each game counted once).

    A log that cannot be read, or a line that is not a game of groups, raises ValueError
    naming the file and the line."""
    games: dict[int, list[list[Sample]]] = {}
    k = len(FEATURES)
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except OSError as e:
            raise ValueError(f"{path}: {e.strerror or e}") from None
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                groups = [
                    [(int(b), list(map(float, f)), float(y)) for b, f, y in gr]
                    for gr in row["groups"]
                ]
                if any(len(f) != k or not 0 <= b < BUCKETS for gr in groups for b, f, _ in gr):
                    raise ValueError
                games[int(row["g"])] = groups
            except (ValueError, TypeError, KeyError):
                raise ValueError(
                    f"{path}, line {n}: not a game of groups of {k} features"
                    " (a log of --distill or --ends)"
                ) from None
    return [gr for g in sorted(games) for gr in games[g]]


def end_fit(groups: Sequence[list[Sample]], model: Model) -> tuple[float, float, float]:
    """How well ``model``'s correction explains the :func:`centred` groups' targets: the share
    of their variance it explains as it is, the best scale of it, and the share at that scale."""
    yy = yp = pp = 0.0
    for b, f, y in centred(groups):
        w = model.weights[b]
        pred = math.fsum(a * x for a, x in zip(w, f, strict=True)) if w else 0.0
        yy += y * y
        yp += y * pred
        pp += pred * pred
    if not yy:
        return 0.0, 0.0, 0.0
    best = yp / pp if pp else 0.0
    return (2 * yp - pp) / yy, best, (2 * best * yp - best * best * pp) / yy


def play(
    seed: int,
    w: Weights,
    share: float,
    top: int,
    rerolls: int,
    make: Callable[..., list[Sample]] = group,
) -> tuple[int, list[list[Sample]]]:
    """One solo game greedy on ``w``; groups of afterstates at a share ``share`` of decisions
    (``make``: :func:`group`, or :func:`round_group`)."""
    s = Optimus2State(1, load_sheet())
    rng, dice, pick = Rng(seed), Rng(seed * 7919 + 17), Rng(seed * 31 + 5)
    groups: list[list[Sample]] = []

    def look(s: Optimus2State, p: int, legal: list[str]) -> None:
        if len(legal) > 1 and pick.random() < share:
            g = make(s, p, legal, w, top, pick.randrange(1 << 30), rerolls)
            if g:
                groups.append(g)

    greedy_to_end(s, w, rng if rerolls else None, dice, rerolls=rerolls, before=look)
    return total_score(s.sd, s.sheets[0]), groups


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a x = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[piv][col]) < 1e-12:
            raise ValueError("singular system")
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def ridge_fit(rows: Sequence[tuple[list[float], float]], ridge: float) -> list[float]:
    """Ridge least squares of the targets on the features (pure Python normal equations)."""
    k = len(FEATURES)
    ata = [[0.0] * k for _ in range(k)]
    aty = [0.0] * k
    for x, y in rows:
        for i in range(k):
            xi = x[i]
            if xi:
                aty[i] += xi * y
                ata[i] = [a + xi * b for a, b in zip(ata[i], x, strict=True)]
    # the ridge scaled by each feature's own mean square, so it does not depend on units
    n = max(1, len(rows))
    for i in range(k):
        ata[i][i] += ridge * (ata[i][i] / n + 1e-6) * n / 100
    return solve(ata, aty)


def centred(groups: Sequence[list[Sample]]) -> list[Sample]:
    """Every afterstate of a group less the group's mean (features and target): what the
    fit then explains is only the differences between the choices of one decision."""
    out: list[Sample] = []
    for g in groups:
        n = len(g)
        mean_f = [math.fsum(f[i] for _, f, _ in g) / n for i in range(len(FEATURES))]
        mean_y = math.fsum(y for _, _, y in g) / n
        for b, f, y in g:
            out.append((b, [a - m for a, m in zip(f, mean_f, strict=True)], y - mean_y))
    return out


def fit(groups: Sequence[list[Sample]], ridge: float = 1.0) -> Model:
    """A :class:`Model` correcting the hand-written value, fitted per bucket on the
    :func:`centred` groups (a bucket with few positions gets no weights)."""
    samples = centred(groups)
    weights: list[tuple[float, ...]] = []
    for b in range(BUCKETS):
        rows = [(f, y) for bb, f, y in samples if bb == b]
        weights.append(tuple(ridge_fit(rows, ridge)) if len(rows) > 2 * len(FEATURES) else ())
    return Model(tuple(weights), base=1.0)


def model_json(model: Model, meta: dict[str, object]) -> str:
    data = {
        **meta,
        "base": model.base,
        "features": list(FEATURES),
        "weights": [[round(x, 6) for x in w] for w in model.weights],
    }
    return json.dumps(data, indent=1) + "\n"


def shrunk(model: Model, share: float) -> Model:
    """``model`` with its correction of the hand-written value scaled by ``share``."""
    return Model(tuple(tuple(share * x for x in w) for w in model.weights), model.base)


def solo(seed: int, w: Weights, rerolls: int) -> int:
    """A whole solo game greedy on ``w``: its final score (the dice depend on ``seed`` only)."""
    return finish(Optimus2State(1, load_sheet()), w, Rng(seed), Rng(seed * 7919 + 17), rerolls)


def ends(args: argparse.Namespace) -> None:
    """``--ends``: the shipped correction at the ends of ``hard``'s playouts
    (docs/notes/bots-history.md).

    With ``--log``, the groups are appended to it game by game (resumable, from
    ``--first``; game ``g`` plays seed ``--seed`` + ``g``) and the measure is over all of
    its games: ``--fit-from`` fits on them."""
    shipped = load_model(LEARNED.model)
    w = Weights(model=LEARNED.model)
    groups: list[list[Sample]] = []
    t0 = time.process_time()
    start = max(last_logged(args.log) + 1, args.first) if args.log else 0
    for g in range(start, args.ends):
        final, got = play(args.seed + g, w, args.share, args.top, 2, round_group)
        if args.log:
            log_game(args.log, g, final, got)
        groups.extend(got)
    cpu = time.process_time() - t0
    print(f"{max(0, args.ends - start)} games, {len(groups)} decisions ({cpu:.0f} s CPU)")
    if args.log:
        groups = read_groups([args.log])
        print(f"measured over the {len(groups)} decisions of {args.log}")
    for scale in (float(x) for x in args.scales.split(",")):
        r2 = end_fit(groups, shrunk(shipped, scale))[0]
        print(f"scale {scale}: explains {100 * r2:.1f}% of the variance")
    r2, best, r2_best = end_fit(groups, shipped)
    print(f"best scale {best:.2f}: explains {100 * r2_best:.1f}%")


def from_logs(args: argparse.Namespace) -> None:
    """``--fit-from``: fit on the groups of :func:`distill` or ``--ends`` logs, after a check
    on a held-out fifth of the decisions (fitted on the other four fifths)."""
    groups = read_groups(args.fit_from)
    cut = len(groups) * 4 // 5
    shipped = load_model(LEARNED.model)
    part = fit(groups[:cut], args.ridge)
    for name, model in (("the judge (value_weights.json)", shipped), ("fit on 4/5", part)):
        r2, best, r2_best = end_fit(groups[cut:], model)
        print(
            f"held-out fifth ({len(groups) - cut} decisions), {name}: explains {100 * r2:.1f}%,"
            f" at its best scale {best:.2f} {100 * r2_best:.1f}%"
        )
    model = shrunk(fit(groups, args.ridge), args.shrink)
    meta = {
        "decisions": len(groups),
        "logs": args.fit_from,
        "shrink": args.shrink,
        "ridge": args.ridge,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(model_json(model, meta))
    print(f"{len(groups)} decisions -> {args.out}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m optimus_lab.optimus2.train", description=__doc__
    )
    parser.add_argument("--games", type=int, default=300, help="solo games per round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--keep", type=int, default=2, help="rounds of groups fitted on")
    parser.add_argument("--share", type=float, default=0.2, help="share of decisions sampled")
    parser.add_argument("--top", type=int, default=4, help="afterstates played out per decision")
    parser.add_argument("--rerolls", type=int, default=2, help="sampled rolls per reroll")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument(
        "--shrink", type=float, default=0.3, help="share of the last fit's correction shipped"
    )
    parser.add_argument("--seed", type=int, default=1_000_000)
    parser.add_argument(
        "--init",
        default="",
        help="a weights file whose model (as shipped) plays round one instead of the"
        " hand-written evaluation",
    )
    parser.add_argument(
        "--play-shrink",
        type=float,
        default=1.0,
        help="share of each fit's correction the next round plays with (1: the whole fit)",
    )
    parser.add_argument("--check", type=int, default=0, help="games greedy on the final model")
    parser.add_argument(
        "--out", default=None, help="default: py/optimus/optimus2/value_weights.json (training)"
    )
    parser.add_argument(
        "--screen",
        default="",
        help="no training: play --check games greedy on this weights file, its correction"
        " scaled by each of --scales (0: the hand-written evaluation), from --seed",
    )
    parser.add_argument("--scales", default="0,1")
    parser.add_argument(
        "--ends",
        type=int,
        default=0,
        help="no training: play this many solo games greedy on the shipped model and measure"
        " how well its correction, at each of --scales, explains the differences between"
        " sibling positions at the end of the round (where hard values its playouts)",
    )
    parser.add_argument(
        "--distill",
        type=int,
        default=0,
        help="no training: play solo games of hard up to this number (from --first, seeds from"
        " --seed as the arena's) and log each raced decision's candidates with their playouts'"
        " mean to --log",
    )
    parser.add_argument(
        "--first", type=int, default=0, help="with --distill or --ends and --log: the first game"
    )
    parser.add_argument("--iterations", type=int, default=None, help="with --distill: hard's")
    parser.add_argument(
        "--log", default="", help="with --distill or --ends: the log of groups to append to"
    )
    parser.add_argument(
        "--fit-from",
        action="append",
        default=[],
        help="fit the model on the groups of --distill or --ends logs (several: repeat) instead"
        " of self-play; writes --out (required), the fit times --shrink",
    )
    args = parser.parse_args(argv)
    if args.distill:
        if not args.log:
            parser.error("--distill needs --log")
        distill(args)
        return
    if args.fit_from:
        if args.out is None:
            parser.error(
                "--fit-from needs --out (the shipped weights are not overwritten by default)"
            )
        try:
            from_logs(args)
        except ValueError as e:
            parser.error(f"--fit-from: {e}")
        return
    if args.out is None:
        args.out = "py/optimus/optimus2/value_weights.json"
    if args.ends:
        ends(args)
        return
    if args.screen:
        loaded = read_model(args.screen)
        for scale in (float(x) for x in args.scales.split(",")):
            register_model(TRAIN, shrunk(loaded, scale))
            seeds = range(args.seed, args.seed + args.check)
            scores = [solo(x, Weights(model=TRAIN), args.rerolls) for x in seeds]
            mean = sum(scores) / max(1, len(scores))
            print(f"scale {scale}: {len(scores)} games, mean {mean:.1f}", flush=True)
        return
    rounds: list[list[list[Sample]]] = []
    model: Model | None = None
    seed = args.seed
    if args.init:
        register_model(TRAIN, read_model(args.init))
    for r in range(args.rounds):
        w = DEFAULT if model is None and not args.init else Weights(model=TRAIN)
        t0 = time.process_time()
        finals: list[int] = []
        groups: list[list[Sample]] = []
        for g in range(args.games):
            final, got = play(seed + g, w, args.share, args.top, args.rerolls)
            finals.append(final)
            groups.extend(got)
        seed += args.games
        rounds.append(groups)
        pool = [x for rs in rounds[-args.keep :] for x in rs]
        model = fit(pool, args.ridge)
        register_model(TRAIN, shrunk(model, args.play_shrink))
        mean = sum(finals) / len(finals)
        cpu = time.process_time() - t0
        print(
            f"round {r + 1}: {len(finals)} games played at mean {mean:.1f}, fitted on"
            f" {len(pool)} decisions ({cpu:.0f} s CPU)",
            flush=True,
        )
    if model is None:
        return
    model = shrunk(model, args.shrink)
    register_model(TRAIN, model)
    meta = {"games": args.games, "rounds": args.rounds, "seed": args.seed, "shrink": args.shrink}
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(model_json(model, meta))
    if args.check:
        seeds = range(seed, seed + args.check)
        new = [solo(x, Weights(model=TRAIN), args.rerolls) for x in seeds]
        old = [solo(x, DEFAULT, args.rerolls) for x in seeds]
        diff = [a - b for a, b in zip(new, old, strict=True)]
        n = len(diff)
        m = sum(diff) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in diff) / max(1, n - 1))
        print(
            f"check: {n} games greedy on the model {sum(new) / n:.1f}, on the hand-written"
            f" evaluation {sum(old) / n:.1f}: paired {m:+.1f} +- {1.96 * sd / math.sqrt(n):.1f}"
        )
    print(f"-> {args.out}")


if __name__ == "__main__":
    main()
