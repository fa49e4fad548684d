"""Prune Optimus 2's network of games with others: the same decisions, less of the page's time.

``hard`` with others decides on a 128x128 network (``net4_weights``). In pure Python its
second layer's 16,384 products are most of a decision, and a decision is most of a
phone's wait for the bots. Yet few of its units matter: over three million afterstates
of its own games, 17 of the first layer's 128 units never fire, and of the second
layer's 128, one carries most of the output, a dozen the rest, and 46 never fire. This
tool keeps the units that matter:

1. ``collect``: games of 2, 3 and 4 players (4, 4, 3, 2 in turn), every seat the
   network's afterstate argmax (a random move instead with probability ``--epsilon``,
   for positions off its path); every afterstate of every decision (not only the one
   chosen: the pruned network must order a decision's candidates as the whole one
   does) is kept with the network's points to come and the margin then. Game ``g``'s
   dice and exploration depend only on ``--seed`` and ``g``; ``--jobs`` processes.
2. ``prune``: on nine games in ten, the first layer's units that fire on some
   afterstate, and the ``--keep`` second-layer units of largest mean absolute
   contribution to the output (its weight times its activation); one game in ten is
   held out, and the line printed gives, there, the root mean squared difference to
   the whole network's points to come and the share of decisions where both pick the
   same afterstate. The package's JSON goes to ``--out``
   (:func:`optimus.optimus2.net.parse_net` reads it).

The whole network is run ``multi4``'s (``python -m optimus_lab.optimus2.net export --run
py/optimus_lab/optimus2/runs/multi4 --out WHOLE.json``), then:

``python -m optimus_lab.optimus2.prune collect --whole WHOLE.json --out DATA.npz --games 2000
--jobs 2``

``python -m optimus_lab.optimus2.prune prune --whole WHOLE.json --data DATA.npz --keep 48
--out py/optimus/optimus2/net4_weights.json``
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

import numpy as np

from optimus.core.rng import Rng, derive_seed
from optimus.optimus2.bots import decisions
from optimus.optimus2.game import Optimus2State
from optimus.optimus2.net import NetModel, parse_net
from optimus.optimus2.sheet import load_sheet
from optimus_lab.optimus2.net import afterstates_now, export_json
from optimus_lab.tdnet import NAMES, SCALE, Params, encode, forward, predict

LAYERS = ("features", "sheet", *NAMES)
"""The keys of an exported network that are not its file's other facts."""
CHUNK = 50_000
"""Afterstates through numpy at once."""
PLAYERS = (4, 4, 3, 2)
"""The players of game ``g``: ``PLAYERS[g % 4]``."""


def params_of(model: NetModel) -> Params:
    """A package network's layers as the lab's float32 arrays (output in points / SCALE)."""
    f32 = np.float32
    return {
        "w1": np.asarray(model.w1, f32),
        "b1": np.asarray(model.b1, f32),
        "w2": np.asarray(model.w2, f32).T.copy(),
        "b2": np.asarray(model.b2, f32),
        "w3": np.asarray(model.w3, f32) / SCALE,
        "b3": np.asarray([model.b3], f32) / SCALE,
    }


Decision = tuple[list[list[int]], list[float], list[float], int]
"""A decision's live afterstates: their features, the network's points to come, the
margin then, and the index of the one it values highest (margin plus points to come)."""


def play(p: Params, seed: int, g: int, epsilon: float) -> list[Decision]:
    """Game ``g`` on the network ``p``: every decision of two afterstates or more that are
    not the game's end."""
    players = PLAYERS[g % len(PLAYERS)]
    s = Optimus2State(players, load_sheet())
    dice = Rng(derive_seed(seed, "distill", g, "dice"))
    explore = Rng(derive_seed(seed, "distill", g, "explore"))
    out: list[Decision] = []
    for q, legal in decisions(s, dice):
        if len(legal) == 1:
            s.apply_move(q, legal[0])
            continue
        _, values, live, feats = afterstates_now(s, legal, q)
        if live:
            margins = [float(values[i]) for i in live]
            to_come = predict(p, feats)
            values[live] += to_come
            if len(live) > 1:
                best = int(np.argmax(values[live]))
                out.append((feats, [float(v) for v in to_come], margins, best))
        if epsilon and explore.random() < epsilon:
            pick = explore.randrange(len(legal))
        else:
            pick = int(np.argmax(values))
        s.apply_move(q, legal[pick])
    return out


def _play_games(args: tuple[Params, int, list[int], float]) -> list[tuple[int, list[Decision]]]:
    p, seed, games, epsilon = args
    return [(g, play(p, seed, g, epsilon)) for g in games]


def load_whole(path: str) -> tuple[Params, dict[str, Any]]:
    """The whole network of games with others exported to ``path`` (``python -m
    optimus_lab.optimus2.net export``) as the lab's arrays, and its file's other keys."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    model = parse_net(text, path)
    if not model.multi:
        raise ValueError(f"{path}: not a network of games with others")
    meta = {k: v for k, v in json.loads(text).items() if k not in LAYERS}
    return params_of(model), meta


def collect(
    whole: Params, games: int, seed: int, epsilon: float, jobs: int
) -> dict[str, np.ndarray]:
    """Games ``0 .. games - 1`` on the whole network, flattened: ``feat`` (every afterstate's
    features in a row), ``start`` (where each afterstate's begin), ``target`` (points to
    come), ``margin`` (the margin then), ``decision`` (each afterstate's decision),
    ``game`` (each decision's game) and ``best`` (the pick of each decision, an
    afterstate index)."""
    parts = [list(range(games))[j::jobs] for j in range(jobs)]
    tasks = [(whole, seed, part, epsilon) for part in parts if part]
    if jobs > 1:
        with Pool(jobs) as pool:
            done = pool.map(_play_games, tasks)
    else:
        done = [_play_games(t) for t in tasks]
    by_game = sorted((pair for part in done for pair in part), key=lambda x: x[0])
    feat: list[int] = []
    start: list[int] = []
    target: list[float] = []
    margin: list[float] = []
    decision: list[int] = []
    game: list[int] = []
    best: list[int] = []
    for g, made in by_game:
        for feats, to_come, margins, pick in made:
            best.append(len(start) + pick)
            for idx, v, m in zip(feats, to_come, margins, strict=True):
                start.append(len(feat))
                feat.extend(idx)
                target.append(v)
                margin.append(m)
                decision.append(len(game))
            game.append(g)
    return {
        "feat": np.asarray(feat, np.int16),
        "start": np.asarray(start, np.int64),
        "target": np.asarray(target, np.float32),
        "margin": np.asarray(margin, np.float32),
        "decision": np.asarray(decision, np.int64),
        "game": np.asarray(game, np.int64),
        "best": np.asarray(best, np.int64),
    }


def rows(data: dict[str, np.ndarray], which: np.ndarray) -> list[Any]:
    """The features of afterstates ``which``."""
    feat, start = data["feat"], data["start"]
    ends = np.append(start[1:], len(feat))
    return [feat[start[i] : ends[i]] for i in which]


def pruned(whole: Params, data: dict[str, np.ndarray], which: np.ndarray, keep: int) -> Params:
    """``whole`` without the first layer's units that fire on none of the afterstates
    ``which`` and with only the ``keep`` second-layer units of largest mean absolute
    contribution to the output there."""
    n = len(whole["w1"])
    fired = np.zeros(len(whole["b1"]), bool)
    contribution = np.zeros(len(whole["b2"]))
    for k in range(0, len(which), CHUNK):
        _, a1, a2 = forward(whole, encode(rows(data, which[k : k + CHUNK]), n))
        fired |= (a1 > 0).any(axis=0)
        contribution += np.abs(a2 * whole["w3"]).sum(axis=0)
    first = np.flatnonzero(fired)
    second = np.sort(np.argsort(-contribution, kind="stable")[:keep])
    return {
        "w1": whole["w1"][:, first].copy(),
        "b1": whole["b1"][first].copy(),
        "w2": whole["w2"][np.ix_(first, second)].copy(),
        "b2": whole["b2"][second].copy(),
        "w3": whole["w3"][second].copy(),
        "b3": whole["b3"].copy(),
    }


def agreement(p: Params, data: dict[str, np.ndarray], which: np.ndarray) -> dict[str, float]:
    """On the afterstates ``which`` (whole decisions): the root mean squared difference
    of ``p``'s points to come to the whole network's, and the share of decisions where
    ``p``'s best afterstate (margin then plus points to come) is the whole network's."""
    n = len(p["w1"])
    got = (
        np.concatenate(
            [
                np.asarray(forward(p, encode(rows(data, which[k : k + CHUNK]), n))[0], np.float64)
                for k in range(0, len(which), CHUNK)
            ]
        )
        * SCALE
    )
    want = data["target"][which].astype(np.float64)
    dec = data["decision"][which]
    same = 0
    total = 0
    bounds = np.flatnonzero(np.diff(dec)) + 1
    for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, len(dec)], strict=True):
        whole_best = data["best"][dec[lo]] - which[lo]
        total += 1
        same += int(np.argmax(got[lo:hi] + data["margin"][which[lo:hi]]) == whole_best)
    return {
        "rmse": round(float(np.sqrt(np.mean((got - want) ** 2))), 3),
        "same_pick": round(same / max(1, total), 4),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m optimus_lab.optimus2.prune", description=__doc__
    )
    sub = parser.add_subparsers(dest="command", required=True)
    co = sub.add_parser("collect", help="the whole network's games")
    co.add_argument("--whole", required=True, help="the whole network's JSON")
    co.add_argument("--out", required=True)
    co.add_argument("--games", type=int, default=600)
    co.add_argument("--seed", type=int, default=20261204)
    co.add_argument("--epsilon", type=float, default=0.05)
    co.add_argument("--jobs", type=int, default=1)
    pr = sub.add_parser("prune", help="the pruned network")
    pr.add_argument("--whole", required=True, help="the whole network's JSON")
    pr.add_argument("--data", required=True)
    pr.add_argument("--out", required=True)
    pr.add_argument("--keep", type=int, default=48, help="second-layer units kept")
    pr.add_argument("--digits", type=int, default=3)
    args = parser.parse_args(argv)
    if args.command == "collect":
        t0 = time.perf_counter()
        data = collect(load_whole(args.whole)[0], args.games, args.seed, args.epsilon, args.jobs)
        np.savez_compressed(args.out, **data)  # type: ignore[arg-type]
        print(
            json.dumps(
                {
                    "games": args.games,
                    "decisions": len(data["game"]),
                    "afterstates": len(data["target"]),
                    "seconds": round(time.perf_counter() - t0, 1),
                }
            )
        )
        return
    with np.load(args.data) as f:
        data = {k: f[k] for k in f.files}
    whole, meta = load_whole(args.whole)
    games = data["game"][data["decision"]]
    held = np.flatnonzero(games % 10 == 9)
    p = pruned(whole, data, np.flatnonzero(games % 10 != 9), args.keep)
    figures = {
        "first": len(p["b1"]),
        "second": len(p["b2"]),
        "heldout_afterstates": len(held),
        **agreement(p, data, held),
    }
    print(json.dumps(figures))
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(export_json(p, {**meta, "pruned": figures}, args.digits, multi=True) + "\n")


if __name__ == "__main__":
    main()
