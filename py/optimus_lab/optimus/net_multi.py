"""Learn the network of :mod:`optimus.optimus.net_multi` (Optimus with others) by TD(lambda)
in self-play.

``nice -n 19 env PYTHONPATH=py python -m optimus_lab.optimus.net_multi train --run DIR
--players 4 --init-solo STATE.npz --episodes 100000 --jobs 1 [--resume]``

A training game (an *episode*) is a game of Optimus with others on the training sheets of
:mod:`optimus_lab.optimus.train` (the standard sheets in turn with random ones), every
seat played by the network being learnt: afterstate argmax over every distinct (new
boxes, "!" spent) the seat's dice allow (the first pair of dice making it is the one
taken: :func:`optimus.optimus.net.dice_choices`), a random one with probability epsilon.
With ``--players N`` the games have N, N, 2, 3, ... players in turn (N = 4: half the
games at four, a quarter at two and at three). The rules are the engine's
(:class:`optimus.optimus.game.OptimusState`). Each seat's trace is its afterstates but
those that end the game, valued by their margin now (own score minus the best other's);
after the game each one's lambda-return (the final margin at the last) is its target,
and one Adam step for all the seats moves the network towards them
(:func:`optimus_lab.tdnet.learn`).

``--init-solo STATE.npz`` (a solo run's ``state.npz``, :mod:`optimus_lab.optimus.net`)
starts the network from the solo one: the solo features' first-layer rows, the second
layer and the output's weights; the added features' rows start at zero and the output's
bias at zero (a margin to come of about nothing).

Every ``--eval-every`` episodes the greedy policy plays ``--eval-games`` held-out games
(seeds of their own, never the arena's) on the harbour sheet against three ``normal``,
the network in seat ``g % 4``; the curve has its win rate (``heldout_win``, a shared win
counting a fraction, with the half-width of its 95% interval), its mean score and mean
margin over the best other. The rest (schedules, blocks, ``state.npz``, ``curve.jsonl``,
``--resume``, ``--ray``, ``kill PID``) is :mod:`optimus_lab.tdnet`'s. ``export --run DIR
--out FILE`` writes the package's JSON (:func:`optimus.optimus.net_multi.parse_net`).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from optimus.core.rng import Rng, derive_seed
from optimus.optimus.bots import normal_choice
from optimus.optimus.game import COLOUR_FACES, JOKERS, NUMBER_FACES, OptimusState, boxes_text
from optimus.optimus.net import FEATURES as SOLO_FEATURES
from optimus.optimus.net import dice_choices
from optimus.optimus.net_multi import FEATURES, afterstates, context
from optimus.optimus.sheet import standard_sheet
from optimus_lab.optimus.train import training_sheet
from optimus_lab.tdnet import DEFAULTS as SHARED
from optimus_lab.tdnet import F32, Block, Episode, Params, Run, Sparse
from optimus_lab.tdnet import export as export  # the trainer's export, named here too
from optimus_lab.tdnet import main as tdnet_main

DEFAULTS: dict[str, Any] = {
    **SHARED,
    "players": 4,
    "hidden": [128, 32],
    "lr": 0.0005,
    "lam": 0.8,
    "epsilon": 0.05,
    "epsilon_end": 0.005,
    "anneal": 50_000,
    "curriculum": "",
    "block": 16,
    "eval_every": 1000,
    "eval_games": 40,
    "report": 200,
    "bias": 0.0,
    "init_solo": "",
}
"""The settings: the solo network's shape (``--init-solo``), a margin to come of about
nothing at first (``bias``), 40 held-out games every 1,000 episodes (about 0.7 s a game:
``normal`` takes most of it)."""

DICE = 3
EVAL_SHEET = "harbour"


def players_of(players: int, g: int) -> int:
    """The players of training game ``g`` of a run of ``--players N``: N, N, 2, 3, ...
    in turn."""
    cycle = [players, players, *range(2, players)] if players > 2 else [2]
    return cycle[g % len(cycle)]


def roll(state: OptimusState, dice: Rng) -> None:
    """The roll's six dice, from ``dice``."""
    for _ in range(DICE):
        state.apply_chance(COLOUR_FACES[dice.randrange(6)])
    for _ in range(DICE):
        state.apply_chance(NUMBER_FACES[dice.randrange(6)])


def decide(
    net: Sparse | None, state: OptimusState, p: int, epsilon: float, explore: Rng | None
) -> tuple[str, list[int] | None, float]:
    """Seat ``p``'s move by afterstate argmax on ``net`` (a random one with probability
    ``epsilon``), with its afterstate's features (None if it ends the game) and margin."""
    dice_c, dice_n = state.open_dice(p)
    marks, left = state.marks[p], JOKERS - state.jokers_used[p]
    options, faces = dice_choices(state.layout, marks, left, dice_c, dice_n)
    ctx = context(state, p)
    feats, margins, over = afterstates(ctx, marks, left, options)
    if epsilon and explore is not None and explore.random() < epsilon:
        best = explore.randrange(len(options))
    else:
        values = np.array(margins)
        live = [i for i, o in enumerate(over) if not o]
        if live and net is not None:
            values[live] += net([feats[i] for i in live])
        best = int(np.argmax(values))
    mask = options[best][0]
    move = "pass" if not mask else f"{faces[best]} {boxes_text(mask)}"
    return move, (None if over[best] else feats[best]), margins[best]


def final_margins(state: OptimusState) -> list[float]:
    scores = state.scores()
    return [s - max(x for q, x in enumerate(scores) if q != p) for p, s in enumerate(scores)]


def play(p: Params, seed: int, g: int, epsilon: float, players: int) -> Episode:
    """Training game ``g`` (``players_of(players, g)`` seats), every seat on ``p``."""
    n = players_of(players, g)
    state = OptimusState(n, training_sheet(seed, g), "training", True)
    net = Sparse(p)
    dice = Rng(derive_seed(seed, "multi", "train", g, "dice"))
    explore = Rng(derive_seed(seed, "multi", "train", g, "explore"))
    traces: list[tuple[list[list[int]], list[float]]] = [([], []) for _ in range(n)]
    while not state.is_terminal():
        if state.is_chance():
            roll(state, dice)
            continue
        seat = state.actors()[0]
        move, after, margin = decide(net, state, seat, epsilon, explore)
        if after is not None:
            traces[seat][0].append(after)
            traces[seat][1].append(margin)
        state.apply_move(seat, move)
    finals = final_margins(state)
    return traces, finals, state.roll, state.scores(), n


def play_eval(p: Params, seed: int, g: int) -> list[float]:
    """Held-out game ``g``: the greedy network in seat ``g % 4`` against three ``normal``
    on the harbour sheet; [win (a share), score, margin over the best other]."""
    state = OptimusState(4, standard_sheet(EVAL_SHEET), EVAL_SHEET, True)
    net = Sparse(p)
    dice = Rng(derive_seed(seed, "multi", "eval", g, "dice"))
    me = g % 4
    while not state.is_terminal():
        if state.is_chance():
            roll(state, dice)
            continue
        seat = state.actors()[0]
        if seat == me:
            move = decide(net, state, seat, 0.0, None)[0]
        else:
            move = normal_choice(state, seat, state.legal_moves(seat))
        state.apply_move(seat, move)
    keys = state.ranking_keys()
    winners = [q for q, k in enumerate(keys) if k == max(keys)]
    scores = state.scores()
    win = 1.0 / len(winners) if me in winners else 0.0
    return [win, scores[me], final_margins(state)[me]]


def play_block(args: Block) -> list[Any]:
    p, seed, games, epsilons, _caps, label, players = args
    if label == "eval":
        return [play_eval(p, seed, g) for g in games]
    return [play(p, seed, g, e, players) for g, e in zip(games, epsilons, strict=True)]


def evaluate(p: Params, seed: int, games: int, pool: Any, players: int = 4) -> dict[str, Any]:
    """Held-out games ``0 .. games - 1`` against three ``normal`` (:func:`play_eval`)."""
    parts = [list(range(games))[j :: pool.jobs] for j in range(pool.jobs)]
    tasks = [(p, seed, b, [0.0] * len(b), [None] * len(b), "eval", 4) for b in parts if b]
    rows = np.array([r for block in pool.map(play_block, tasks) for r in block], np.float64)
    if not len(rows):
        return {}
    win = rows[:, 0]
    half = 1.96 * win.std(ddof=1) / math.sqrt(len(win)) if len(win) > 1 else 0.0
    return {
        "heldout_win": round(float(win.mean()), 3),
        "heldout_win_ci": round(float(half), 3),
        "heldout_mean": round(float(rows[:, 1].mean()), 2),
        "heldout_margin": round(float(rows[:, 2].mean()), 2),
        "heldout_games": len(win),
    }


def init_from_solo(p: Params, path: str) -> None:
    """Start ``p`` from a solo run's state: the solo features' rows of the first layer, the
    other layers; the output's bias at zero."""
    with np.load(path) as z:
        meta = json.loads(bytes(z["meta"]).decode())
        if meta["features"] != list(SOLO_FEATURES):
            raise SystemExit(f"{path}: its features are not the solo network's of this version")
        w1 = z["w1"]
        if w1.shape[1] != p["w1"].shape[1] or z["w2"].shape != p["w2"].shape:
            raise SystemExit(f"{path}: its layers are not this run's (--hidden)")
        p["w1"][:] = 0.0
        p["w1"][: len(SOLO_FEATURES)] = w1
        for k in ("b1", "w2", "b2", "w3"):
            p[k][:] = z[k].astype(F32)
        p["b3"][:] = 0.0


class MultiRun(Run):
    """A training run of Optimus's network for games with others."""

    defaults = DEFAULTS
    max_players = 4
    report_key = "rolls"
    play_block = staticmethod(play_block)
    evaluate = staticmethod(evaluate)
    loading: ClassVar[bool] = False

    def __init__(self, folder: str, cfg: dict[str, Any]) -> None:
        if int(cfg["players"]) < 2:
            raise SystemExit("--players must be 2 to 4 (games with others)")
        super().__init__(folder, cfg)
        if cfg.get("init_solo") and not type(self).loading:
            init_from_solo(self.p, str(cfg["init_solo"]))

    @classmethod
    def load(cls, folder: str) -> Run:
        cls.loading = True
        try:
            return super().load(folder)
        finally:
            cls.loading = False

    def features(self) -> tuple[str, ...]:
        return FEATURES


def speed(run: Run, games: int) -> dict[str, float]:
    """Greedy self-play games (four players) per second of ``run``'s network (numpy, CPU)."""
    t0 = time.process_time()
    for g in range(games):
        play(run.p, int(run.cfg["seed"]), g * 4, 0.0, 4)
    return {"games_per_s": round(games / (time.process_time() - t0), 3)}


def main(argv: Sequence[str] | None = None) -> None:
    tdnet_main(MultiRun, argv, "optimus_lab.optimus.net_multi", __doc__, export, speed)


if __name__ == "__main__":
    main()
