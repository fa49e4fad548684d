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

import json
import math
import os
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from optimus.core.arena import play_game
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
from optimus_lab.tdnet import (  # noqa: F401  (the machinery, shared with Optimus's trainer)
    DEFAULTS,
    F32,
    NAMES,
    SCALE,
    SIGNALS,
    STOP,
    Adam,
    Block,
    Episode,
    Params,
    RayPool,
    Trace,
    cap_at,
    encode,
    epsilon_at,
    forward,
    gradients,
    init_params,
    lambda_targets,
    layers_json,
    learn,
    make_pool,
    parse_curriculum,
    predict,
    train,
)
from optimus_lab.tdnet import Run as _Run
from optimus_lab.tdnet import main as _main

# -- episodes ------------------------------------------------------------------------


def is_yellow_die(move: str) -> bool:
    """True if ``move`` puts a die in yellow (chosen, picked or extra; not a bonus mark)."""
    return "yellow r" in move and not move.startswith("mark")


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
    after, values, live, feats = afterstates_now(s, legal, q)
    if live:
        values[live] += predict(p, feats)
    best = int(np.argmax(values))
    return legal[best], after[best]


def afterstates_now(
    s: Optimus2State, legal: Sequence[str], q: int = 0
) -> tuple[list[Optimus2State], np.ndarray, list[int], list[list[int]]]:
    """Seat ``q``'s afterstate of each legal move, its value now (the score; with others
    the margin over the others' mean), which of them the game goes on from (the network
    values those), and their features (with others :func:`position_multi`'s)."""
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
    return after, values, live, feats


def play_block(args: Block) -> list[Episode]:
    """Games ``games`` (each with its epsilon and cap) on the same network."""
    p, seed, games, epsilons, caps, label, players = args
    return [
        play(p, seed, g, e, c, label, players)
        for g, e, c in zip(games, epsilons, caps, strict=True)
    ]


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


# -- export --------------------------------------------------------------------------------


def export_json(p: Params, meta: dict[str, Any], digits: int = 3, multi: bool = False) -> str:
    """The package's JSON of network ``p`` (``multi``: a network of games with others): the
    output layer times :data:`SCALE`, each weight to ``digits`` significant digits (float32
    has about 7; 3 play as well as 5 -- 281.8 and 281.6 over the same 100 solo games -- in
    a quarter less gzipped: 159 kB against 248 kB for 128x128)."""

    data = {
        **meta,
        "sheet": "standard",
        "features": list(
            feature_names(load_sheet(), len(p["w1"]) != len(feature_names(load_sheet())))
        ),
        **layers_json(p, digits),
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


class Run(_Run):
    """A training run of Optimus 2's network (:class:`optimus_lab.tdnet.Run`)."""

    defaults = DEFAULTS
    play_block = staticmethod(play_block)
    evaluate = staticmethod(evaluate)

    def features(self) -> tuple[str, ...]:
        return feature_names(load_sheet(), int(self.cfg["players"]) > 1)


def export(run: _Run, digits: int) -> str:
    """The package's JSON of ``run``'s network (:func:`export_json`)."""
    meta = {"episodes": run.episodes, "curve": run.curve()[-1:] or None}
    return export_json(run.p, meta, digits, int(run.cfg["players"]) > 1)


def main(argv: Sequence[str] | None = None) -> None:
    _main(Run, argv, "optimus_lab.optimus2.net", __doc__, export, speed)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
