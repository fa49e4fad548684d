"""Learn the value network of :mod:`optimus.optimus2.net` by TD(lambda) in solo self-play.

``nice -n 19 env PYTHONPATH=py python -m optimus_lab.optimus2.net train --run DIR
--episodes 1000000 [--resume] [--jobs N] [--ray [ADDRESS]]``

Each training game (an *episode*) is played solo by the network's own policy,
afterstate argmax (:func:`optimus.optimus2.net.active` for every legal move's
afterstate, all of a decision's candidates through the network in one numpy
call, as a 0/1 matrix: numpy multiplies it faster than it gathers and sums the
first layer's rows), with a
random move (not a reroll) instead with probability epsilon. The afterstates the
player chose are the episode's trace; after the game, each one's lambda-return
(the final score at the last) is its target, and one Adam step moves the network
towards the targets of the whole episode (mean squared error, on the points to
come divided by :data:`SCALE`; the targets are taken with the network as it is
at the update).

Schedules, by episode number ``g`` (so that a resumed run goes on the same):

* epsilon from ``--epsilon`` to ``--epsilon-end`` linearly over ``--anneal``
  episodes;
* a *curriculum* on yellow: ``--curriculum 4:150000,8:300000`` lets a training
  game put at most 4 dice in yellow until episode 150,000, then 8 until 300,000,
  then any (plain self-play pours its dice into yellow and stalls near 220 points);
  the held-out games never cap.

Games are played in blocks of ``--block`` from the same network, the updates then
applied in game order, so ``--jobs`` (local processes playing a block) or ``--ray``
(Ray tasks) change nothing but the time. Game ``g``'s dice and exploration depend
only on ``--seed`` and ``g``.

The run's files are in ``--run`` (``py/optimus_lab/optimus2/runs/<name>/``):
``state.npz`` the whole state (weights in float32, Adam's moments and step,
episode counter, wall and CPU seconds so far, the recent training scores, the
configuration), written atomically (a temporary file, then ``os.replace``) every
``--checkpoint-minutes`` and at every evaluation; ``curve.jsonl``, one line per
evaluation: episodes, wall seconds, training mean of the last ``--report``
games, the held-out mean (greedy, no cap, ``--eval-games`` games of their own
seeds) with the half-width of its 95% interval, its mean areas (yellow, blue,
green, pink, silver) and foxes, epsilon, cap, loss; its CPU seconds are the
training process's own (not those of ``--jobs`` processes or Ray workers).
``--resume`` goes on exactly from ``state.npz`` (the curve's lines past it are
dropped); settings given with it (not ``--seed``, ``--hidden`` or ``--players``)
change from there on, and the run's configuration lists each change with its
episode. ``export --run DIR --out FILE`` writes the package's JSON
(:func:`optimus.optimus2.net.parse_net` reads it). ``kill PID`` (or Ctrl-C) stops
a training after its block, saved.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import signal
import time
from collections.abc import Sequence
from itertools import chain
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: one core a process
os.environ.setdefault("OMP_NUM_THREADS", "1")  # (threads only wait on a busy machine)

import numpy as np

from optimus.core.arena import executor, play_game
from optimus.core.bots import ChoiceBot
from optimus.core.rng import Rng, derive_seed
from optimus.optimus2.bots import roll_randomly
from optimus.optimus2.game import Optimus2Game, Optimus2State
from optimus.optimus2.net import (
    NETS,
    NetBot,
    feature_names,
    margin_now,
    parse_net,
    position,
    position_multi,
    score_now,
)
from optimus.optimus2.sheet import area_scores, load_sheet

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
}


# -- the network ------------------------------------------------------------------


def init_params(n_features: int, hidden: Sequence[int], seed: int) -> Params:
    """Small random weights: a state's ~100 features on sum to a first layer of unit scale."""
    rng = np.random.default_rng(seed)
    h1, h2 = hidden
    return {
        "w1": (rng.standard_normal((n_features, h1)) * 0.1).astype(F32),
        "b1": np.zeros(h1, F32),
        "w2": (rng.standard_normal((h1, h2)) * math.sqrt(2.0 / h1)).astype(F32),
        "b2": np.zeros(h2, F32),
        "w3": (rng.standard_normal(h2) * 0.01).astype(F32),
        "b3": np.full(1, 1.0, F32),
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


def gradients(p: Params, x: np.ndarray, target: np.ndarray) -> tuple[Params, float]:
    """The mean squared error's gradients at targets ``target`` (scaled), and the loss."""
    y, a1, a2 = forward(p, x)
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


# -- episodes ------------------------------------------------------------------------


def is_yellow_die(move: str) -> bool:
    """True if ``move`` puts a die in yellow (chosen, picked or extra; not a bonus mark)."""
    return "yellow r" in move and not move.startswith("mark")


Trace = tuple[list[list[int]], list[float]]
"""A seat's chosen afterstates: their features, and the score (with others: the margin
over the others' mean) then."""

Episode = tuple[list[Trace], list[float], list[int], list[float], list[list[int]]]
"""An episode: each seat's trace, final score (with others: margin), dice put in yellow,
final score, and final areas' scores (yellow .. silver) and foxes."""


def play(
    p: Params,
    seed: int,
    g: int,
    epsilon: float,
    cap: int | None,
    label: str = "train",
    players: int = 1,
) -> Episode:
    """Game ``g`` of ``players`` seats, each by afterstate argmax on ``p`` (``epsilon``
    exploration; at most ``cap`` dice in yellow, None: any)."""
    sd = load_sheet()
    s = Optimus2State(players, sd)
    tag: tuple[object, ...] = ("net", label) if players == 1 else ("net", label, players)
    dice = Rng(derive_seed(seed, *tag, g, "dice"))
    explore = Rng(derive_seed(seed, *tag, g, "explore"))
    multi = players > 1
    traces: list[Trace] = [([], []) for _ in range(players)]
    yellow = [0] * players
    while not s.is_terminal():
        if s.is_chance():
            roll_randomly(s, dice)
            continue
        q = s.actors()[0]
        legal = s.legal_moves(q)
        if cap is not None and yellow[q] >= cap:
            legal = [m for m in legal if not is_yellow_die(m)] or legal
        if len(legal) == 1:
            move = legal[0]
            s.apply_move(q, move)
        else:
            if epsilon and explore.random() < epsilon:
                moves = [m for m in legal if m != "reroll"]
                move = moves[explore.randrange(len(moves))]
                s.apply_move(q, move)
            else:
                move, s = choose(p, s, legal, q)
            if not s.is_terminal():
                now, idx = position_multi(s, q) if multi else position(s, q)
                traces[q][0].append(idx)
                traces[q][1].append(now)
        if is_yellow_die(move):
            yellow[q] += 1
    scores = s.scores()
    if multi:
        total = math.fsum(scores)
        finals = [x - (total - x) / (players - 1) for x in scores]
    else:
        finals = scores
    ends = [[*area_scores(sd, sh), sh[sd.FOX]] for sh in s.sheets]
    return traces, finals, yellow, scores, ends


def choose(
    p: Params, s: Optimus2State, legal: Sequence[str], q: int = 0
) -> tuple[str, Optimus2State]:
    """Seat ``q``'s legal move of highest afterstate value (first of ties), and its
    afterstate (with others: on the margin's features, :func:`position_multi`)."""
    sd = s.sd
    multi = s.num_players > 1
    after = []
    for move in legal:
        c = s.clone()
        c.apply_move(q, move)
        after.append(c)
    values = np.empty(len(after))
    live, feats = [], []
    for i, c in enumerate(after):
        if c.is_terminal():
            values[i] = margin_now(c, q) if multi else score_now(sd, c.sheets[q])
        else:
            values[i], idx = position_multi(c, q) if multi else position(c, q)
            live.append(i)
            feats.append(idx)
    if live:
        values[live] += predict(p, feats)
    best = int(np.argmax(values))
    return legal[best], after[best]


Block = tuple[Params, int, list[int], list[float], list[int | None], str, int]
"""Games on one network: the network, the seed, the games' numbers, epsilons and caps, the
label, the players."""


def play_block(args: Block) -> list[Episode]:
    """Games ``games`` (each with its epsilon and cap) on the same network."""
    p, seed, games, epsilons, caps, label, players = args
    return [
        play(p, seed, g, e, c, label, players)
        for g, e, c in zip(games, epsilons, caps, strict=True)
    ]


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
    values = np.asarray(forward(p, x)[0], np.float64) * SCALE
    now = np.asarray([v for _, nows in traces for v in nows], np.float64)
    values += now
    targets, at = [], 0
    for (trace, _), final in zip(traces, finals, strict=True):
        targets.append(lambda_targets(values[at : at + len(trace)], final, lam))
        at += len(trace)
    target = ((np.concatenate(targets) - now) / SCALE).astype(F32)
    g, loss = gradients(p, x, target)
    opt.step(p, g)
    return loss


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


class Run:
    """A training run's whole state, saved to and loaded from ``DIR/state.npz``."""

    def __init__(self, folder: str, cfg: dict[str, Any]) -> None:
        self.folder = folder
        self.cfg = cfg
        n = len(self.features())
        self.p = init_params(n, cfg["hidden"], int(cfg["seed"]))
        self.opt = Adam(self.p, float(cfg["lr"]))
        self.episodes = 0
        self.wall = 0.0
        self.cpu = 0.0
        self.recent: list[float] = []
        self.losses: list[float] = []

    def features(self) -> tuple[str, ...]:
        return feature_names(load_sheet(), int(self.cfg["players"]) > 1)

    @property
    def state_path(self) -> str:
        return os.path.join(self.folder, "state.npz")

    @property
    def curve_path(self) -> str:
        return os.path.join(self.folder, "curve.jsonl")

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
            run = cls(folder, {**DEFAULTS, **meta["cfg"]})
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
        if not os.path.exists(self.curve_path):
            return []
        with open(self.curve_path, encoding="utf-8") as f:
            return [json.loads(x) for x in f if x.strip()]


def evaluate(p: Params, seed: int, games: int, pool: Any, players: int = 1) -> dict[str, Any]:
    """Held-out games ``0 .. games - 1`` of the greedy policy: solo, its mean score (label
    ``eval``); with others, the arena's games of seed ``EVAL_SEED + seed`` against
    ``normal``s (:class:`ParamsBot`): its win rate, mean score and mean margin."""
    parts = [list(range(games))[j :: pool.jobs] for j in range(pool.jobs)]
    if players > 1:
        arena = [(p, EVAL_SEED + seed, b, players) for b in parts if b]
        rows = [r for block in pool.map(eval_block, arena) for r in block]
        k = len(rows)
        return {
            "heldout_win": round(math.fsum(r[0] for r in rows) / k, 3),
            "heldout_mean": round(math.fsum(r[1] for r in rows) / k, 2),
            "heldout_margin": round(math.fsum(r[2] for r in rows) / k, 2),
        }
    tasks = [(p, seed, b, [0.0] * len(b), [None] * len(b), "eval", 1) for b in parts if b]
    eps = [ep for block in pool.map(play_block, tasks) for ep in block]
    ends = np.mean([ep[4][0] for ep in eps], axis=0)
    finals = np.array([ep[1][0] for ep in eps])
    half = 1.96 * finals.std(ddof=1) / math.sqrt(len(finals)) if len(finals) > 1 else 0.0
    return {
        "heldout_mean": round(math.fsum(finals) / len(finals), 2),
        "heldout_ci": round(float(half), 2),
        "heldout_areas": [round(float(x), 1) for x in ends[:5]],
        "heldout_foxes": round(float(ends[5]), 2),
    }


EVAL_SEED = 1000
"""With others, the held-out games are the arena's of seed ``EVAL_SEED + --seed``."""

_EVAL: dict[str, Params] = {}
"""The network :class:`ParamsBot` plays (set by :func:`eval_block`)."""


class ParamsBot(ChoiceBot):
    """Afterstate argmax on the network being trained (numpy; held-out games with others)."""

    level = "net-lab"

    def choice(self, state: Optimus2State, legal_moves: list[str]) -> str:
        return choose(_EVAL["p"], state, legal_moves, self.player)[0]


def eval_block(args: tuple[Params, int, list[int], int]) -> list[tuple[float, float, float]]:
    """Arena games ``games`` of :class:`ParamsBot` on ``p`` against ``normal``s: its win (a
    share of a tie), score and margin over the others' mean."""
    from optimus_lab.optimus2 import net  # the module the arena imports ParamsBot from

    p, seed, games, players = args
    net._EVAL["p"] = p
    game = Optimus2Game()
    specs = ["optimus_lab.optimus2.net:ParamsBot"] + ["normal"] * (players - 1)
    opts = game.normalize_options({"players": players})
    out = []
    for g in games:
        scores, wins, _ = play_game(game, specs, g, seed, opts, None)
        others = (math.fsum(scores) - scores[0]) / (players - 1)
        out.append((wins[0], scores[0], scores[0] - others))
    return out


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

    players = int(cfg["players"])
    os.makedirs(run.folder, exist_ok=True)

    def point() -> None:
        clock()
        held = evaluate(run.p, seed, int(cfg["eval_games"]), pool, players)
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
        for task, res in zip(tasks, pool.map(play_block, tasks), strict=True):
            by_game.update(zip(task[2], res, strict=True))
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
                            "yellow": ep[2],
                        }
                    ),
                    flush=True,
                )
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


# -- export --------------------------------------------------------------------------------


def export_json(p: Params, meta: dict[str, Any], digits: int = 3, multi: bool = False) -> str:
    """The package's JSON of network ``p`` (``multi``: a network of games with others): the
    output layer times :data:`SCALE`, each weight to ``digits`` significant digits (float32
    has about 7; 3 play as well as 5 -- 281.8 and 281.6 over the same 100 solo games -- in
    a quarter less gzipped: 159 kB against 248 kB for 128x128)."""

    def r(xs: Any) -> list[float]:
        return [float(f"{x:.{digits}g}") for x in np.asarray(xs, np.float64).ravel()]

    data = {
        **meta,
        "sheet": "standard",
        "features": list(
            feature_names(load_sheet(), len(p["w1"]) != len(feature_names(load_sheet())))
        ),
        "w1": [r(row) for row in p["w1"]],
        "b1": r(p["b1"]),
        "w2": [r(col) for col in p["w2"].T],
        "b2": r(p["b2"]),
        "w3": r(p["w3"] * SCALE),
        "b3": r(p["b3"] * SCALE)[0],
    }
    return json.dumps(data, separators=(",", ":"))


class FileNetBot(NetBot):
    """:class:`optimus.optimus2.net.NetBot` on the network exported to the file named by the
    environment variable ``OPTIMUS2_NET`` (``export --out``), for the arena:
    ``OPTIMUS2_NET=net.json python -m optimus arena optimus2 --players
    optimus_lab.optimus2.net:FileNetBot``."""

    weights = "lab_file"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        path = os.environ.get("OPTIMUS2_NET")
        if not path:
            raise ValueError("FileNetBot needs OPTIMUS2_NET=<the exported network's JSON file>")
        if NETS.registered(self.weights) is None or _FILE.get(self.weights) != path:
            with open(path, encoding="utf-8") as f:
                NETS.register(self.weights, parse_net(f.read(), path))
            _FILE[self.weights] = path


_FILE: dict[str, str] = {}
"""The file each :class:`FileNetBot` name was registered from."""


def speed(run: Run, games: int) -> dict[str, float]:
    """CPU figures of ``run``'s network: greedy self-play games per second (numpy) and the
    share of that time in the network's calls (the pure-Python bot's decisions: the strength
    tool with :class:`FileNetBot`)."""
    p = run.p
    inside = [0.0]
    real = predict

    def timed(q: Params, feats: Sequence[Sequence[int]]) -> np.ndarray:
        t = time.process_time()
        try:
            return real(q, feats)
        finally:
            inside[0] += time.process_time() - t

    globals()["predict"] = timed
    try:
        t0 = time.process_time()
        for g in range(games):
            play(p, run.cfg["seed"], g, 0.0, None, "speed")
        numpy_s = time.process_time() - t0
    finally:
        globals()["predict"] = real
    return {
        "games_per_s": round(games / numpy_s, 1),
        "network_share": round(inside[0] / numpy_s, 3),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimus_lab.optimus2.net", description=__doc__)
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
    for key, value in DEFAULTS.items():
        kind = type(value) if not isinstance(value, list) else str
        tr.add_argument("--" + key.replace("_", "-"), type=kind, default=None)
    sp = sub.add_parser("speed", help="self-play speed of a run's network (CPU)")
    sp.add_argument("--run", required=True)
    sp.add_argument("--games", type=int, default=50)
    ex = sub.add_parser("export", help="write the package's weights JSON from a run")
    ex.add_argument("--run", required=True)
    ex.add_argument("--out", required=True)
    ex.add_argument("--digits", type=int, default=3, help="significant digits a weight keeps")
    args = parser.parse_args(argv)

    def load_run() -> Run:
        if not os.path.exists(os.path.join(args.run, "state.npz")):
            parser.error(f"{args.run} has no run (no state.npz): start one without --resume")
        return Run.load(args.run)

    if args.command == "speed":
        print(json.dumps(speed(load_run(), args.games)))
        return
    if args.command == "export":
        run = load_run()
        meta = {"episodes": run.episodes, "curve": run.curve()[-1:] or None}
        with open(args.out, "w", encoding="utf-8") as f:
            multi = int(run.cfg["players"]) > 1
            f.write(export_json(run.p, meta, args.digits, multi) + "\n")
        return
    given = {k: getattr(args, k) for k in DEFAULTS if getattr(args, k) is not None}
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
        cfg = {**DEFAULTS, **given}
        if isinstance(cfg["hidden"], str):
            try:
                h1, h2 = (int(x) for x in cfg["hidden"].split(","))
            except ValueError:
                parser.error(f"--hidden must be two sizes, e.g. 128,128: not {cfg['hidden']!r}")
            cfg["hidden"] = [h1, h2]
        if not 1 <= int(cfg["players"]) <= 4:
            parser.error("--players must be 1 to 4")
        os.makedirs(args.run, exist_ok=True)
        run = Run(args.run, cfg)
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


if __name__ == "__main__":
    main()
