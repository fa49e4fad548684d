"""Prune Optimus's networks to the units that fire: the same values, a fraction of the time.

Optimus's networks (``net_weights``, alone; ``net_multi_weights``, with others; both
128x32) are mostly dormant units: trained from the start with most of their ReLUs
never firing again (docs/bots.md, "Dormant units"), they fire 2 and 6 of their 128
first-layer units. A unit that fires on none of the positions ``hard`` values adds
nothing to any value there; without it the page does a fraction of the sums.

``watch`` plays games with ``hard`` at every seat (``--players``: alone, with others,
or both; a random legal move instead with probability ``--epsilon``, for positions
off its path) and notes every unit of each network that fires on a position
``hard`` values (each of its afterstates, and alone the ones it looks at one roll
ahead); ``prune`` keeps those units and writes the package's JSON, the same
features and the same numbers. Game ``g``'s seeds depend only on ``--seed`` and ``g``.

``python -m optimus_lab.optimus.prune --from DIR --games 40 --out-dir py/optimus/optimus``

writes ``net_weights.json`` and ``net_multi_weights.json`` there, pruned from the whole
ones in ``DIR`` (without ``--from``: the package's own). The whole networks shipped
before pruning are in the repository's history: ``git show
4e0f650:py/optimus/optimus/net_weights.json`` (and ``net_multi_weights.json``).
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from optimus.core import Match, Rng, data, mlp
from optimus.core.mlp import Mlp
from optimus.core.rng import derive_seed
from optimus.optimus import net, net_multi
from optimus.optimus.bots import HardBot
from optimus.optimus.game import OptimusGame
from optimus_lab.tdnet import NAMES as LAYERS

NAMES = {"net_weights": net.NETS, "net_multi_weights": net_multi.NETS}
"""The networks pruned, and where the package keeps each."""


@contextmanager
def watching(fired: dict[int, tuple[set[int], set[int]]]) -> Iterator[None]:
    """While inside, every network output the package computes (``optimus.core.mlp``'s
    ``output``, as ``net`` and :class:`~optimus.core.mlp.Near` call it: every value of
    both networks) notes, by the network's ``id``, the first- and second-layer units
    that fired."""
    real = mlp.output

    def output(model: Mlp, h: Sequence[float]) -> float:
        one, two = fired.setdefault(id(model), (set(), set()))
        a = [x if x > 0.0 else 0.0 for x in h]
        one.update(k for k, x in enumerate(a) if x)
        for j, (row, b) in enumerate(zip(model.w2, model.b2, strict=True)):
            if b + sum(w * x for w, x in zip(row, a, strict=True)) > 0.0:
                two.add(j)
        return real(model, h)

    modules = (net, mlp)  # net imported mlp's output under its own name
    for module in modules:
        module.__dict__["output"] = output
    try:
        yield
    finally:
        for module in modules:
            module.__dict__["output"] = real


def watch(players: Sequence[int], games: int, seed: int, epsilon: float) -> dict[str, Any]:
    """The units of each network that fire in ``games`` games of each number of
    ``players`` (``hard`` everywhere), and how many values were computed."""
    game = OptimusGame()
    fired: dict[int, tuple[set[int], set[int]]] = {}
    with watching(fired):
        for n in players:
            for g in range(games):
                m = Match(game, {"players": n}, derive_seed(seed, "prune", n, g))
                bots = [HardBot(game, p, Rng(derive_seed(seed, "bot", n, g, p))) for p in range(n)]
                explore = Rng(derive_seed(seed, "explore", n, g))
                while not m.state.is_terminal():
                    a = m.state.actors()[0]
                    legal = m.state.legal_moves(a)
                    move = bots[a].choose(m.state.observation(a), legal)
                    if epsilon and explore.random() < epsilon:
                        move = legal[explore.randrange(len(legal))]
                    m.play(a, move)
    out: dict[str, Any] = {}
    for name, shelf in NAMES.items():
        one, two = fired.get(id(shelf.get(name)), (set(), set()))
        out[name] = (sorted(one), sorted(two))
    return out


def pruned(model: Mlp, first: Sequence[int], second: Sequence[int]) -> dict[str, Any]:
    """The layers of ``model`` with only the units ``first`` and ``second`` (the
    package's JSON layout: ``w1`` a row per feature, ``w2`` a row per unit)."""
    return {
        "w1": [[row[k] for k in first] for row in model.w1],
        "b1": [model.b1[k] for k in first],
        "w2": [[model.w2[j][k] for k in first] for j in second],
        "b2": [model.b2[j] for j in second],
        "w3": [model.w3[j] for j in second],
        "b3": model.b3,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m optimus_lab.optimus.prune", description=__doc__
    )
    parser.add_argument("--games", type=int, default=40, help="games of each number of players")
    parser.add_argument("--players", default="1,2,3,4")
    parser.add_argument("--seed", type=int, default=20261204)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--from", dest="source", help="the whole networks' folder")
    parser.add_argument("--out-dir", required=True)
    args = parser.parse_args(argv)
    players = [int(x) for x in args.players.split(",")]
    texts = {}
    for name, shelf in NAMES.items():
        if args.source:
            with open(os.path.join(args.source, f"{name}.json"), encoding="utf-8") as f:
                texts[name] = f.read()
            shelf.register(name, shelf.parse(texts[name], f"{name}.json"))
        else:
            texts[name] = data.text(shelf.package, f"{name}.json")
    units = watch(players, args.games, args.seed, args.epsilon)
    for name, shelf in NAMES.items():
        first, second = units[name]
        if not first or not second:
            raise SystemExit(f"{name}: no unit fired (no game used it?)")
        whole = json.loads(texts[name])
        model = shelf.get(name)
        layers = pruned(model, first, second)
        meta = {k: v for k, v in whole.items() if k not in LAYERS}
        meta["pruned"] = {
            "units": [len(model.b1), len(model.b2)],
            "kept": [first, second],
            "games": args.games,
            "players": players,
            "epsilon": args.epsilon,
        }
        path = os.path.join(args.out_dir, f"{name}.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps({**meta, **layers}, separators=(",", ":")) + "\n")
        print(json.dumps({"network": name, "first": len(first), "second": len(second)}))


if __name__ == "__main__":
    main()
