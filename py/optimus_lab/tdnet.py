"""The game-independent machinery of the lab's TD(lambda) value networks (numpy).

Used by :mod:`optimus_lab.optimus2.net` and :mod:`optimus_lab.optimus.net`, which
give the game: its features, how an episode is played (:class:`Run`'s
``play_block``) and the held-out evaluation. Here:

* the network: an MLP of two hidden ReLU layers on 0/1 features (:func:`init_params`,
  :func:`encode`, :func:`forward`, :func:`predict`, :func:`gradients`), its output the
  points to come divided by :data:`SCALE`; :class:`Adam`; a decision's afterstates by
  gathering the first layer's rows (:func:`predict_sparse`, and the same numbers faster:
  :class:`Sparse`, :func:`row_sums`);
* TD(lambda): :func:`lambda_targets`, :func:`learn` (one Adam step an episode);
* the schedules by episode number: :func:`epsilon_at` (annealed exploration),
  :func:`cap_at` (a curriculum);
* :class:`Run`, a run's whole state in ``state.npz`` (written atomically) and its
  learning curve ``curve.jsonl``; :func:`train`, blocks of episodes from the same
  network through local processes or Ray (:func:`make_pool`), updates in game order,
  a checkpoint every few minutes, a stop on ``kill PID`` after the block, saved;
* :func:`layers_json` (the package's JSON of the layers), :func:`export` (a run's) and
  :func:`main` (the ``train``, ``speed`` and ``export`` commands).
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import math
import os
import signal
import time
from collections.abc import Callable, Sequence
from itertools import chain
from typing import Any, ClassVar

import numpy as np  # one BLAS thread a process: set by optimus_lab's __init__

from optimus.core.arena import executor

SCALE = 100.0
"""The network's output is the points to come divided by this."""

F32 = np.float32
Params = dict[str, np.ndarray]
NAMES = ("w1", "b1", "w2", "b2", "w3", "b3")

DEFAULTS: dict[str, Any] = {
    "seed": 1,
    "players": 1,
    "hidden": [128, 128],
    "lr": 0.001,
    "lam": 0.8,
    "epsilon": 0.08,
    "epsilon_end": 0.01,
    "anneal": 600_000,
    "curriculum": "4:150000,8:300000",
    "block": 16,
    "eval_every": 5000,
    "eval_games": 100,
    "report": 1000,
    "checkpoint_minutes": 3.0,
    "recycle": 0,
}
"""Optimus 2's settings (a game's :attr:`Run.defaults`); ``recycle``: every this many
episodes, the units no state of the last block fires get fresh weights (0: never;
:func:`recycle_dormant`)."""

Trace = tuple[list[list[int]], list[float]]
"""A seat's chosen afterstates: their features, and the score (with others: the margin
over the others' mean) then."""

Episode = tuple[list[Trace], list[float], Any, list[float], Any]
"""An episode: each seat's trace, final score (with others: margin), a figure for the
progress lines (Optimus 2: the dice put in yellow), final scores, and the game's own
summary (for the held-out evaluation)."""

Block = tuple[Params, int, list[int], list[float], list[int | None], str, int]
"""Games on one network: the network, the seed, the games' numbers, epsilons and caps, the
label, the players."""


# -- the network ------------------------------------------------------------------


def init_params(n_features: int, hidden: Sequence[int], seed: int, bias: float = 1.0) -> Params:
    """Small random weights: a state's ~100 features on sum to a first layer of unit scale;
    the output ``bias`` (points to come / :data:`SCALE`) at first."""
    rng = np.random.default_rng(seed)
    h1, h2 = hidden
    return {
        "w1": (rng.standard_normal((n_features, h1)) * 0.1).astype(F32),
        "b1": np.zeros(h1, F32),
        "w2": (rng.standard_normal((h1, h2)) * math.sqrt(2.0 / h1)).astype(F32),
        "b2": np.zeros(h2, F32),
        "w3": (rng.standard_normal(h2) * 0.01).astype(F32),
        "b3": np.full(1, bias, F32),
    }


def encode(feats: Sequence[Sequence[int]], n_features: int, dtype: Any = F32) -> np.ndarray:
    """Many states' active features as a 0/1 matrix, a row each (a dense product of a few
    rows is faster in numpy than gathering and summing the first layer's rows)."""
    lens = np.fromiter(map(len, feats), np.int64, len(feats))
    flat = np.fromiter(chain.from_iterable(feats), np.int64, int(lens.sum()))
    x = np.zeros((len(feats), n_features), dtype)
    x[np.repeat(np.arange(len(feats)), lens), flat] = 1.0
    return x


def forward(p: Params, x: np.ndarray) -> tuple[np.ndarray, ...]:
    """Outputs (points to come / SCALE) of the encoded states, with the hidden layers."""
    a1 = np.maximum(x @ p["w1"] + p["b1"], 0.0)
    a2 = np.maximum(a1 @ p["w2"] + p["b2"], 0.0)
    y = a2 @ p["w3"] + p["b3"][0]
    return y, a1, a2


def predict(p: Params, feats: Sequence[Sequence[int]]) -> np.ndarray:
    """Points to come of each state (features on)."""
    x = encode(feats, len(p["w1"]), p["w1"].dtype)
    return np.asarray(forward(p, x)[0], np.float64) * SCALE


def predict_sparse(p: Params, feats: Sequence[Sequence[int]]) -> np.ndarray:
    """:func:`predict` with the first layer gathered and summed by row (each state must
    have a feature on): where numpy's float32 product of a 0/1 matrix is slow (on the
    machine Optimus's network was trained on it took 25 times as long as the gather).
    :class:`Sparse` gives the same numbers faster."""
    lens = np.fromiter(map(len, feats), np.int64, len(feats))
    flat = np.fromiter(chain.from_iterable(feats), np.int64, int(lens.sum()))
    starts = np.concatenate(([0], np.cumsum(lens)[:-1]))
    return _head(p, np.add.reduceat(p["w1"][flat], starts, axis=0))


def _head(p: Params, rows: np.ndarray) -> np.ndarray:
    """Points to come from the sums of the first layer's rows."""
    a1 = np.maximum(rows + p["b1"], 0.0)
    a2 = np.maximum(a1 @ p["w2"] + p["b2"], 0.0)
    return np.asarray(a2 @ p["w3"] + p["b3"][0], np.float64) * SCALE


PAIRWISE_BLOCK = 128
PAIRWISE_UNROLL = 8
"""Numpy's pairwise summation (``pairwise_sum``, what its ``add`` reductions run): up to
128 numbers in 8 accumulators (numbers ``k``, ``k + 8``, ... in order), added as
``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, then the last ``n % 8`` one by
one (fewer than 8: one by one from -0.0); more: the first ``n // 2`` rounded down to a
multiple of 8 and the rest, each so, added."""

Plan = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int, int, int], ...], int]


@functools.cache
def pairwise_plan(n: int) -> Plan:
    """Numpy's pairwise sum of ``n`` numbers: its runs (offset, length) in order, its sums
    (node, left, right, height) with nodes numbered runs first, and the node it ends at.

    >>> pairwise_plan(300)
    (((0, 72), (72, 72), (144, 72), (216, 84)), ((4, 0, 1, 1), (5, 2, 3, 1), (6, 4, 5, 2)), 6)
    """
    runs: list[tuple[int, int]] = []
    sums: list[tuple[Any, Any, int]] = []

    def split(off: int, n: int) -> tuple[tuple[str, int], int]:
        if n <= PAIRWISE_BLOCK:
            runs.append((off, n))
            return ("run", len(runs) - 1), 0
        half = n // 2 - n // 2 % PAIRWISE_UNROLL
        (a, ha), (b, hb) = split(off, half), split(off + half, n - half)
        sums.append((a, b, max(ha, hb) + 1))
        return ("sum", len(sums) - 1), max(ha, hb) + 1

    end = split(0, n)[0]

    def node(x: tuple[str, int]) -> int:
        return x[1] if x[0] == "run" else len(runs) + x[1]

    nodes = tuple((len(runs) + k, node(a), node(b), h) for k, (a, b, h) in enumerate(sums))
    return tuple(runs), nodes, node(end)


def row_sums(w1z: np.ndarray, feats: Sequence[Sequence[int]]) -> np.ndarray:
    """Each state's sum of the rows of its features (each state must have one on), bit for
    bit ``np.add.reduceat(w1[flat], starts, axis=0)``: the first row plus numpy's pairwise
    sum of the others (:data:`PAIRWISE_BLOCK`), which reduceat runs strided, per state and
    column; here the same additions in the same order, a few numpy calls for all the
    states at once. ``w1z``: the first layer with a row of -0.0 after it
    (:func:`padded`: adding -0.0 changes no float), which pads the runs' rests to 7."""
    pad = len(w1z) - 1
    unroll, rest = PAIRWISE_UNROLL, PAIRWISE_UNROLL - 1
    firsts: list[int] = []
    runs: list[tuple[Sequence[int], int, int]] = []  # (features, start, length)
    levels: dict[int, tuple[list[int], list[int], list[int]]] = {}
    ends: list[int] = []
    plans = [pairwise_plan(len(f) - 1) for f in feats]
    n_runs = sum(len(plan[0]) for plan in plans)
    at_sum = n_runs  # the sums' numbers: the runs', then the pairs'
    for f, (plan_runs, nodes, end) in zip(feats, plans, strict=True):
        firsts.append(f[0])
        at_run, k = len(runs), len(plan_runs)
        runs.extend((f, 1 + off, length) for off, length in plan_runs)

        def ref(x: int, at_run: int = at_run, at_sum: int = at_sum, k: int = k) -> int:
            return at_run + x if x < k else at_sum + x - k

        for node, left, right, height in nodes:
            out, lefts, rights = levels.setdefault(height, ([], [], []))
            out.append(ref(node))
            lefts.append(ref(left))
            rights.append(ref(right))
        ends.append(ref(end))
        at_sum += len(nodes)
    # each run: its rounds of 8 numbers (the 8 accumulators), longest first, then its rest
    order = sorted(range(n_runs), key=lambda i: -runs[i][2])
    rounds = runs[order[0]][2] // unroll
    index: list[int] = []
    tails: list[int] = []
    longer: list[int] = [0] * (rounds + 1)  # by round: the runs that have it
    for i in order:
        f, start, length = runs[i]
        q = length - length % unroll
        index += f[start : start + q]
        index += [pad] * (rounds * unroll - q)
        tails += f[start + q : start + length]
        tails += [pad] * (rest - length + q)
        longer[q // unroll] += 1
    h = w1z.shape[1]
    if rounds:
        at = np.array(index, np.int64).reshape(n_runs, rounds, unroll)
        acc = w1z[at[:, 0]]
        have = n_runs - longer[0]
        for j in range(1, rounds):
            have -= longer[j]
            acc[:have] += w1z[at[:have, j]]
        acc = acc[:, 0::2] + acc[:, 1::2]
        acc = acc[:, 0::2] + acc[:, 1::2]
        total = acc[:, 0] + acc[:, 1]
    else:
        total = np.full((n_runs, h), -0.0, w1z.dtype)
    tail = w1z[np.array(tails, np.int64).reshape(n_runs, rest)]
    for j in range(rest):
        total += tail[:, j]
    sums = np.empty((at_sum, h), w1z.dtype)
    sums[np.array(order, np.int64)] = total
    for height in sorted(levels):
        out, lefts, rights = levels[height]
        sums[out] = sums[lefts] + sums[rights]
    return w1z[firsts] + sums[ends]


def padded(w1: np.ndarray) -> np.ndarray:
    """The first layer with a row of -0.0 after it (:func:`row_sums`)."""
    return np.concatenate((w1, np.full((1, w1.shape[1]), -0.0, w1.dtype)))


@functools.cache
def row_sums_exact() -> bool:
    """Whether :func:`row_sums` gives this numpy's ``reduceat`` sums bit for bit (checked
    once a process on random rows: states of 1 to 700 features)."""
    rng = np.random.default_rng(0)
    w1 = rng.standard_normal((800, 4)).astype(F32)
    feats = [rng.integers(0, 800, n).tolist() for n in (1, 7, 9, 100, 129, 250, 300, 700)]
    starts = np.concatenate(([0], np.cumsum([len(f) for f in feats])[:-1]))
    want = np.add.reduceat(w1[np.concatenate(feats)], starts, axis=0)
    return bool(row_sums(padded(w1), feats).tobytes() == want.tobytes())


class Sparse:
    """:func:`predict_sparse` of a network that does not change (a game's), the same
    numbers faster (:func:`row_sums`; :func:`predict_sparse` itself where a numpy sums
    otherwise: :func:`row_sums_exact`)."""

    def __init__(self, p: Params) -> None:
        self.p = p
        self.w1z = padded(p["w1"]) if row_sums_exact() else None

    def __call__(self, feats: Sequence[Sequence[int]]) -> np.ndarray:
        if self.w1z is None:
            return predict_sparse(self.p, feats)
        return _head(self.p, row_sums(self.w1z, feats))


def gradients(
    p: Params, x: np.ndarray, target: np.ndarray, outputs: tuple[np.ndarray, ...] | None = None
) -> tuple[Params, float]:
    """The mean squared error's gradients at targets ``target`` (scaled), and the loss;
    ``outputs``: ``forward(p, x)`` if the caller has it."""
    y, a1, a2 = outputs if outputs is not None else forward(p, x)
    n = len(target)
    err = (y - target).astype(p["w3"].dtype)
    dy = err * (2.0 / n)
    g: Params = {"w3": a2.T @ dy, "b3": np.array([dy.sum()], p["w3"].dtype)}
    d2 = np.outer(dy, p["w3"]) * (a2 > 0)
    g["w2"] = a1.T @ d2
    g["b2"] = d2.sum(axis=0)
    d1 = (d2 @ p["w2"].T) * (a1 > 0)
    g["b1"] = d1.sum(axis=0)
    g["w1"] = x.T @ d1
    return g, float(np.mean(err * err))


class Adam:
    """Adam's moments and step, float32."""

    def __init__(self, p: Params, lr: float) -> None:
        self.lr = lr
        self.t = 0
        self.m = {k: np.zeros_like(v) for k, v in p.items()}
        self.v = {k: np.zeros_like(v) for k, v in p.items()}

    def step(self, p: Params, g: Params, b1: float = 0.9, b2: float = 0.999) -> None:
        self.t += 1
        c1, c2 = 1.0 - b1**self.t, 1.0 - b2**self.t
        for k in p:
            m, v = self.m[k], self.v[k]
            m *= b1
            m += (1.0 - b1) * g[k]
            v *= b2
            v += (1.0 - b2) * g[k] * g[k]
            p[k] -= (self.lr / c1) * m / (np.sqrt(v / c2) + 1e-8)


def lambda_targets(values: np.ndarray, final: float, lam: float) -> np.ndarray:
    """Each afterstate's lambda-return, from the values of those after it and the final score.

    >>> lambda_targets(np.array([10.0, 20.0]), 30.0, 0.5).tolist()
    [25.0, 30.0]
    """
    out = np.empty(len(values))
    target = final
    for i in range(len(values) - 1, -1, -1):
        out[i] = target
        target = (1.0 - lam) * values[i] + lam * target
    return out


def learn(p: Params, opt: Adam, ep: Episode, lam: float) -> float:
    """One Adam step towards the lambda-returns of an episode (all its seats'); its loss
    (scaled)."""
    traces, finals = ep[0], ep[1]
    feats = [f for trace, _ in traces for f in trace]
    if not feats:
        return 0.0
    x = encode(feats, len(p["w1"]))
    outputs = forward(p, x)
    values = np.asarray(outputs[0], np.float64) * SCALE
    now = np.asarray([v for _, nows in traces for v in nows], np.float64)
    values += now
    targets, at = [], 0
    for (trace, _), final in zip(traces, finals, strict=True):
        targets.append(lambda_targets(values[at : at + len(trace)], final, lam))
        at += len(trace)
    target = ((np.concatenate(targets) - now) / SCALE).astype(F32)
    g, loss = gradients(p, x, target, outputs)
    opt.step(p, g)
    return loss


def recycle_dormant(
    p: Params, opt: Adam, feats: Sequence[Sequence[int]], rng: np.random.Generator
) -> list[int]:
    """Give the hidden units that fire on none of the states ``feats`` (*dormant*: a ReLU
    that never fires learns nothing again) fresh incoming weights, drawn as
    :func:`init_params` draws them, a bias that makes each fire on half of ``feats``, and
    outgoing weights of zero, so the network's values are unchanged; Adam's moments of
    those weights start again. The number of units recycled in each hidden layer.

    A network that trains with most of its units dormant stops learning early: Optimus's
    solo network of run ``solo1`` fired 2 of its 128 first-layer units on 1,160 states of
    its held-out games (docs/notes/bots-history.md)."""
    if not feats:
        return [0, 0]
    x = encode(feats, len(p["w1"]))
    _, a1, a2 = forward(p, x)
    dead1 = np.flatnonzero(~(a1 > 0).any(axis=0))
    n, h1 = p["w1"].shape
    if len(dead1):
        w = (rng.standard_normal((n, len(dead1))) * 0.1).astype(p["w1"].dtype)
        _fresh(p, opt, "w1", (slice(None), dead1), w)
        _fresh(p, opt, "b1", dead1, -np.median(x @ w, axis=0))
        _fresh(p, opt, "w2", (dead1, slice(None)), np.zeros((len(dead1), p["w2"].shape[1])))
        _, a1, a2 = forward(p, x)
    dead2 = np.flatnonzero(~(a2 > 0).any(axis=0))
    if len(dead2):
        w = (rng.standard_normal((h1, len(dead2))) * math.sqrt(2.0 / h1)).astype(p["w2"].dtype)
        _fresh(p, opt, "w2", (slice(None), dead2), w)
        _fresh(p, opt, "b2", dead2, -np.median(a1 @ w, axis=0))
        _fresh(p, opt, "w3", dead2, np.zeros(len(dead2)))
    return [len(dead1), len(dead2)]


def _fresh(p: Params, opt: Adam, k: str, where: Any, value: np.ndarray) -> None:
    """Weights ``where`` of layer ``k`` set to ``value``, their Adam moments to zero."""
    p[k][where] = value.astype(p[k].dtype)
    opt.m[k][where] = 0.0
    opt.v[k][where] = 0.0


# -- schedules -------------------------------------------------------------------------


def parse_curriculum(text: str) -> list[tuple[int, int]]:
    """``"4:150000,8:300000"`` as [(cap, until episode), ...]; ``""`` none.

    >>> parse_curriculum("4:10,8:20")
    [(4, 10), (8, 20)]
    """
    out = []
    for part in filter(None, text.split(",")):
        cap, _, until = part.partition(":")
        out.append((int(cap), int(until)))
    return out


def cap_at(cfg: dict[str, Any], g: int) -> int | None:
    for cap, until in parse_curriculum(str(cfg["curriculum"])):
        if g < until:
            return cap
    return None


def epsilon_at(cfg: dict[str, Any], g: int) -> float:
    share = min(1.0, g / max(1, int(cfg["anneal"])))
    return float(cfg["epsilon"]) + (float(cfg["epsilon_end"]) - float(cfg["epsilon"])) * share


# -- the run ---------------------------------------------------------------------------


def curve_file(folder: str) -> str:
    """Where a run's learning curve lives: a JSON line per held-out evaluation."""
    return os.path.join(folder, "curve.jsonl")


def read_curve(folder: str) -> list[dict[str, Any]]:
    """The held-out evaluations of the run in ``folder`` (none before its first)."""
    path = curve_file(folder)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(x) for x in f if x.strip()]


class Run:
    """A training run's whole state, saved to and loaded from ``DIR/state.npz``.

    A game's trainer subclasses it: :attr:`defaults` (its settings), :meth:`features` (the
    network's input names), :attr:`play_block` (plays a :data:`Block` of episodes; a
    module-level function, so that processes and Ray can run it) and :attr:`evaluate` (the
    held-out evaluation: ``(p, seed, games, pool, players) -> the curve's fields``)."""

    defaults: ClassVar[dict[str, Any]] = DEFAULTS
    max_players: ClassVar[int] = 4
    report_key: ClassVar[str] = "yellow"
    """The name of an episode's third item in the progress lines."""

    def __init__(self, folder: str, cfg: dict[str, Any]) -> None:
        self.folder = folder
        self.cfg = cfg
        n = len(self.features())
        self.p = init_params(n, cfg["hidden"], int(cfg["seed"]), float(cfg.get("bias", 1.0)))
        self.opt = Adam(self.p, float(cfg["lr"]))
        self.episodes = 0
        self.wall = 0.0
        self.cpu = 0.0
        self.recent: list[float] = []
        self.losses: list[float] = []

    def features(self) -> tuple[str, ...]:
        raise NotImplementedError

    @staticmethod
    def play_block(args: Block) -> list[Episode]:
        raise NotImplementedError

    @staticmethod
    def evaluate(p: Params, seed: int, games: int, pool: Any, players: int = 1) -> dict[str, Any]:
        raise NotImplementedError

    @property
    def state_path(self) -> str:
        return os.path.join(self.folder, "state.npz")

    @property
    def curve_path(self) -> str:
        return curve_file(self.folder)

    def save(self) -> None:
        arrays: dict[str, np.ndarray] = {}
        for k in NAMES:
            arrays[k] = self.p[k]
            arrays["m_" + k] = self.opt.m[k]
            arrays["v_" + k] = self.opt.v[k]
        meta = {
            "cfg": self.cfg,
            "episodes": self.episodes,
            "adam_t": self.opt.t,
            "wall": self.wall,
            "cpu": self.cpu,
            "recent": self.recent[-int(self.cfg["report"]) :],
            "features": list(self.features()),
        }
        arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)  # type: ignore[arg-type]
        os.makedirs(self.folder, exist_ok=True)
        tmp = f"{self.state_path}.tmp{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(buf.getvalue())
        os.replace(tmp, self.state_path)

    @classmethod
    def load(cls, folder: str) -> Run:
        with np.load(os.path.join(folder, "state.npz")) as z:
            meta = json.loads(bytes(z["meta"]).decode())
            # a setting added since the run started: its default, what the run did
            run = cls(folder, {**cls.defaults, **meta["cfg"]})
            if meta["features"] != list(run.features()):
                raise SystemExit(f"{folder}: its features are not those of this version")
            for k in NAMES:
                run.p[k] = z[k].astype(F32)
                run.opt.m[k] = z["m_" + k].astype(F32)
                run.opt.v[k] = z["v_" + k].astype(F32)
        run.opt.t = int(meta["adam_t"])
        run.episodes = int(meta["episodes"])
        run.wall = float(meta["wall"])
        run.cpu = float(meta["cpu"])
        run.recent = [float(x) for x in meta["recent"]]
        run.trim_curve()
        return run

    def trim_curve(self) -> None:
        """Drop the curve's lines past the saved state (written before a stop)."""
        if not os.path.exists(self.curve_path):
            return
        with open(self.curve_path, encoding="utf-8") as f:
            lines = [x for x in f if x.strip()]
        keep = [x for x in lines if json.loads(x)["episodes"] <= self.episodes]
        if len(keep) != len(lines):
            with open(self.curve_path, "w", encoding="utf-8") as f:
                f.writelines(keep)

    def curve(self) -> list[dict[str, Any]]:
        return read_curve(self.folder)


SIGNALS = (signal.SIGTERM, signal.SIGINT)
STOP: list[int] = []
"""The signals received: the training stops after its block, saved (``kill PID``)."""


def train(run: Run, until: int, pool: Any, echo: bool = True) -> None:
    """Play and learn from episode ``run.episodes`` up to ``until`` (or a stop signal)."""
    cfg = run.cfg
    seed, block, lam = int(cfg["seed"]), int(cfg["block"]), float(cfg["lam"])
    every, report = int(cfg["eval_every"]), int(cfg["report"])
    t0, c0 = time.time() - run.wall, time.process_time() - run.cpu
    last_save = time.time()

    def clock() -> None:
        run.wall = time.time() - t0
        run.cpu = time.process_time() - c0

    players = int(cfg.get("players", 1))
    os.makedirs(run.folder, exist_ok=True)

    def point() -> None:
        clock()
        held = type(run).evaluate(run.p, seed, int(cfg["eval_games"]), pool, players)
        clock()
        g = run.episodes
        row = {
            "episodes": g,
            "wall_s": round(run.wall, 1),
            "cpu_s": round(run.cpu, 1),
            "train_mean": round(math.fsum(run.recent) / len(run.recent), 2) if run.recent else None,
            **held,
            "epsilon": round(epsilon_at(cfg, g), 4),
            "cap": cap_at(cfg, g),
            "loss": round(math.fsum(run.losses) / len(run.losses), 5) if run.losses else None,
        }
        with open(run.curve_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        if echo:
            print(json.dumps({"eval": row}), flush=True)

    if every and run.episodes == 0 and not run.curve():
        point()
        run.save()
    while run.episodes < until and not STOP:
        g0 = run.episodes
        games = list(range(g0, min(until, g0 + block)))
        parts = [games[j :: pool.jobs] for j in range(pool.jobs)]
        tasks = [
            (
                run.p,
                seed,
                b,
                [epsilon_at(cfg, g) for g in b],
                [cap_at(cfg, g) for g in b],
                "train",
                players,
            )
            for b in parts
            if b
        ]
        by_game: dict[int, Episode] = {}
        for task, res in zip(tasks, pool.map(type(run).play_block, tasks), strict=True):
            by_game.update(zip(task[2], res, strict=True))
        recycle = int(cfg.get("recycle", 0))
        for g in games:
            ep = by_game[g]
            run.losses.append(learn(run.p, run.opt, ep, lam))
            run.recent.append(math.fsum(ep[3]) / len(ep[3]))
            del run.recent[:-report]
            run.episodes = g + 1
            if run.episodes % report == 0 and echo:
                clock()
                print(
                    json.dumps(
                        {
                            "episodes": run.episodes,
                            "wall_s": round(run.wall, 1),
                            "train_mean": round(math.fsum(run.recent) / len(run.recent), 2),
                            "loss": round(math.fsum(run.losses[-report:]) / report, 5),
                            run.report_key: ep[2],
                        }
                    ),
                    flush=True,
                )
            if recycle and run.episodes % recycle == 0:
                states = [f for h in games if h <= g for trace, _ in by_game[h][0] for f in trace]
                rng = np.random.default_rng([seed, run.episodes, 7])
                dead = recycle_dormant(run.p, run.opt, states, rng)
                if echo and any(dead):
                    print(json.dumps({"episodes": run.episodes, "recycled": dead}), flush=True)
            if every and run.episodes % every == 0:
                point()
                run.losses.clear()
                run.save()
                last_save = time.time()
        if time.time() - last_save > 60 * float(cfg["checkpoint_minutes"]):
            clock()
            run.save()
            last_save = time.time()
    clock()
    run.save()


# -- Ray -----------------------------------------------------------------------------------


class RayPool:
    """An executor (``map``, ``shutdown``, ``jobs``) running blocks as Ray tasks."""

    def __init__(self, address: str | None, jobs: int) -> None:
        import ray  # type: ignore[import-not-found, unused-ignore]

        import optimus
        import optimus_lab

        if not ray.is_initialized():
            # the workers (on a cluster: other machines) get this checkout's packages
            ray.init(
                address=address or None,
                include_dashboard=False,
                log_to_driver=False,
                runtime_env={"py_modules": [optimus, optimus_lab], "excludes": ["runs/"]},
            )
        self.ray: Any = ray
        self.remote: dict[Any, Any] = {}
        self.jobs = max(1, jobs or int(self.ray.cluster_resources().get("CPU", 1)))

    def map(self, fn: Any, tasks: Sequence[Any]) -> list[Any]:
        remote = self.remote.get(fn)
        if remote is None:
            remote = self.remote[fn] = self.ray.remote(fn)
        return list(self.ray.get([remote.remote(t) for t in tasks]))

    def shutdown(self) -> None:
        pass


def make_pool(jobs: int, ray: str | None) -> Any:
    """Ray tasks with ``ray`` (``""``: a local Ray; else the cluster's address), else local
    processes (one: in this process)."""
    if ray is not None:
        return RayPool(ray, jobs)
    return executor(max(1, jobs))


# -- export and the command line ------------------------------------------------------------


def rounded(xs: Any, digits: int) -> list[float]:
    """The numbers of ``xs`` (any shape) to ``digits`` significant digits, flat."""
    return [float(f"{x:.{digits}g}") for x in np.asarray(xs, np.float64).ravel()]


def layers_json(p: Params, digits: int) -> dict[str, Any]:
    """The layers of network ``p`` as the package reads them (:mod:`optimus.core.mlp`): the
    output layer times :data:`SCALE`, ``w2`` by unit, each weight to ``digits``
    significant digits."""
    return {
        "w1": [rounded(row, digits) for row in p["w1"]],
        "b1": rounded(p["b1"], digits),
        "w2": [rounded(col, digits) for col in p["w2"].T],
        "b2": rounded(p["b2"], digits),
        "w3": rounded(p["w3"] * SCALE, digits),
        "b3": rounded(p["b3"] * SCALE, digits)[0],
    }


def export(run: Run, digits: int = 3) -> str:
    """The package's JSON of ``run``'s network: its episodes, the curve's last line in a
    list (None while the curve is empty), its features (:meth:`Run.features`) and
    :func:`layers_json`'s layers. Optimus's two trainers export with it; Optimus 2's has
    its own, which names the sheet."""
    meta = {"episodes": run.episodes, "curve": run.curve()[-1:] or None}
    data = {**meta, "features": list(run.features()), **layers_json(run.p, digits)}
    return json.dumps(data, separators=(",", ":"))


def curve_windows(curve: Sequence[dict[str, Any]], window: int) -> dict[int, dict[str, Any]]:
    """A run's held-out evaluations (``Run.curve``) grouped by ``window`` episodes, keyed
    by each window's first episode: how many evaluations, their held-out means' mean,
    lowest and highest, and the exploration's epsilon at the window's first and last."""
    groups: dict[int, list[dict[str, Any]]] = {}
    for line in curve:
        groups.setdefault(int(line["episodes"]) // window * window, []).append(line)
    return {
        start: {
            "n": len(lines),
            "mean": sum(float(x["heldout_mean"]) for x in lines) / len(lines),
            "low": min(float(x["heldout_mean"]) for x in lines),
            "high": max(float(x["heldout_mean"]) for x in lines),
            "epsilon": (float(lines[0]["epsilon"]), float(lines[-1]["epsilon"])),
        }
        for start, lines in sorted(groups.items())
    }


def curve_trend(curve: Sequence[dict[str, Any]], start: int) -> dict[str, Any] | None:
    """Where a run's curve is going from episode ``start`` on: how many held-out
    evaluations, their mean, and the least-squares line's slope through them in points per
    100,000 episodes with its 95% half-width (normal approximation). None with fewer
    than 3 evaluations or all at one episode count."""
    points = [
        (int(x["episodes"]) / 100_000, float(x["heldout_mean"]))
        for x in curve
        if int(x["episodes"]) >= start
    ]
    n = len(points)
    if n < 3:
        return None
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx == 0.0:
        return None
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    residual = sum((y - my - slope * (x - mx)) ** 2 for x, y in points)
    half = 1.96 * math.sqrt(residual / (n - 2) / sxx)
    return {"n": n, "mean": my, "slope": slope, "half": half}


def curve_table(runs: Sequence[str], window: int) -> str:
    """A Markdown table of the runs' learning curves side by side (:func:`curve_windows`):
    a row a window of episodes, a column a run, each cell the mean of the window's
    held-out evaluations and, in parentheses, their range, how many and epsilon."""
    windows = {folder: curve_windows(read_curve(folder), window) for folder in runs}
    starts = sorted({s for w in windows.values() for s in w})
    names = [os.path.basename(os.path.normpath(r)) for r in runs]
    lines = [
        "| episodes | " + " | ".join(names) + " |",
        "| --- |" + " --- |" * len(names),
    ]
    for start in starts:
        cells = []
        for folder in runs:
            w = windows[folder].get(start)
            if w is None:
                cells.append("")
                continue
            e0, e1 = w["epsilon"]
            eps = f"{e0:.3f}" if round(e0, 3) == round(e1, 3) else f"{e0:.3f}-{e1:.3f}"
            cells.append(f"{w['mean']:.2f} ({w['low']:.2f}-{w['high']:.2f}, n={w['n']}, eps {eps})")
        lines.append(f"| {start:,}-{start + window - 1:,} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(
    run_cls: type[Run],
    argv: Sequence[str] | None,
    prog: str,
    doc: str | None,
    export: Callable[[Run, int], str],
    speed: Callable[[Run, int], dict[str, float]],
) -> None:
    """The command line of a game's trainer (``python -m PROG``): ``train`` (a new run of
    ``run_cls``, or ``--resume``), ``speed`` (``speed(run, games)``'s figures),
    ``export`` (``export(run, digits)``'s JSON to ``--out``) and ``curve``
    (:func:`curve_table` of the ``--run`` folders)."""
    defaults = run_cls.defaults
    parser = argparse.ArgumentParser(prog=f"python -m {prog}", description=doc)
    sub = parser.add_subparsers(dest="command", required=True)
    tr = sub.add_parser("train", help="train (a new run, or --resume)")
    tr.add_argument("--run", required=True, help="the run's folder")
    tr.add_argument("--episodes", type=int, default=1_000_000, help="train up to this episode")
    tr.add_argument("--resume", action="store_true", help="go on from the run's state.npz")
    tr.add_argument(
        "--jobs",
        type=int,
        default=0,
        help="local processes playing the episodes (default 1), or Ray tasks per block "
        "(default: the cluster's CPUs)",
    )
    tr.add_argument(
        "--ray", nargs="?", const="", default=None, help="play on Ray (a local one, or ADDRESS)"
    )
    for key, value in defaults.items():
        kind = type(value) if not isinstance(value, list) else str
        tr.add_argument("--" + key.replace("_", "-"), type=kind, default=None)
    sp = sub.add_parser("speed", help="self-play speed of a run's network (CPU)")
    sp.add_argument("--run", required=True)
    sp.add_argument("--games", type=int, default=50)
    ex = sub.add_parser("export", help="write the package's weights JSON from a run")
    ex.add_argument("--run", required=True)
    ex.add_argument("--out", required=True)
    ex.add_argument("--digits", type=int, default=3, help="significant digits a weight keeps")
    cu = sub.add_parser("curve", help="runs' learning curves side by side, a Markdown table")
    cu.add_argument("--run", required=True, nargs="+", help="the runs' folders")
    cu.add_argument("--window", type=int, default=25_000, help="episodes a row")
    cu.add_argument(
        "--trend",
        type=int,
        default=None,
        metavar="FROM",
        help="also each run's mean and slope from episode FROM on",
    )
    args = parser.parse_args(argv)
    if args.command == "curve":
        missing = [r for r in args.run if not os.path.exists(curve_file(r))]
        if missing or args.window < 1:
            parser.error(
                f"no curve.jsonl in {', '.join(missing)}" if missing else "--window must be >= 1"
            )
        print(curve_table(args.run, args.window))
        for folder in args.run if args.trend is not None else ():
            trend = curve_trend(read_curve(folder), args.trend)
            name = os.path.basename(os.path.normpath(folder))
            print(
                f"{name} from {args.trend:,}: "
                + (
                    "too few evaluations for a line"
                    if trend is None
                    else f"{trend['n']} evaluations, mean {trend['mean']:.2f}, slope "
                    f"{trend['slope']:+.3f} ({trend['slope'] - trend['half']:+.3f} to "
                    f"{trend['slope'] + trend['half']:+.3f}) per 100,000 episodes"
                )
            )
        return

    def load_run() -> Run:
        if not os.path.exists(os.path.join(args.run, "state.npz")):
            parser.error(f"{args.run} has no run (no state.npz): start one without --resume")
        return run_cls.load(args.run)

    if args.command == "speed":
        print(json.dumps(speed(load_run(), args.games)))
        return
    if args.command == "export":
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(export(load_run(), args.digits) + "\n")
        return
    given = {k: getattr(args, k) for k in defaults if getattr(args, k) is not None}
    try:
        parse_curriculum(str(given.get("curriculum", "")))
    except ValueError:
        parser.error(
            f"--curriculum must be CAP:UNTIL,... e.g. 4:150000: not {given['curriculum']!r}"
        )
    if args.resume:
        fixed = [k for k in ("seed", "hidden", "players") if k in given]
        if fixed:
            parser.error(f"a run's {' and '.join(fixed)} cannot change: drop them")
        run = load_run()
        changed = {k: v for k, v in given.items() if run.cfg[k] != v}
        if changed:  # from this episode on; the run keeps the record
            run.cfg.update(changed)
            run.cfg.setdefault("changes", []).append({"episodes": run.episodes, **changed})
            run.opt.lr = float(run.cfg["lr"])
    else:
        if os.path.exists(os.path.join(args.run, "state.npz")):
            parser.error(f"{args.run} has a run already: add --resume to go on with it")
        cfg = {**defaults, **given}
        if isinstance(cfg["hidden"], str):
            try:
                h1, h2 = (int(x) for x in cfg["hidden"].split(","))
            except ValueError:
                parser.error(f"--hidden must be two sizes, e.g. 128,128: not {cfg['hidden']!r}")
            cfg["hidden"] = [h1, h2]
        if not 1 <= int(cfg["players"]) <= run_cls.max_players:
            parser.error(f"--players must be 1 to {run_cls.max_players}")
        os.makedirs(args.run, exist_ok=True)
        run = run_cls(args.run, cfg)
    pool = make_pool(args.jobs, args.ray)
    old = {sig: signal.signal(sig, lambda num, _frame: STOP.append(num)) for sig in SIGNALS}
    try:
        train(run, args.episodes, pool)
        if STOP:
            print(json.dumps({"stopped": run.episodes, "saved": run.state_path}), flush=True)
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        pool.shutdown()
