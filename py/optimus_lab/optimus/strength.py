"""Strength runs of the Optimus bots, game by game, with CPU decision times.

``nice -n 19 env PYTHONPATH=py python -m optimus_lab.optimus.strength --players hard
--games 100 --seed 1 --iterations 4 --log /tmp/h4.jsonl``

Plays the games of ``python -m optimus arena optimus`` (game ``g`` depends only
on ``--seed`` and ``g``, so the scores are exactly the arena's) one after
another with :func:`optimus.core.arena.play_game`, timing every decision in CPU
time (``time.process_time``), and appends one JSON line per game to ``--log``;
a run stopped early resumes where the log ends; ``--first N`` plays games
``N`` to ``N + games - 1``. ``--weights FILE`` values solo
sheets with another learned model (a file written by
:mod:`optimus_lab.optimus.train`) instead of the shipped one, ``--multi-weights
FILE`` sheets in games with others (a file written by
:mod:`optimus_lab.optimus.train_multi`; for the bots that use it). ``--summary``
prints the first player's mean score (95% interval), win rate (its Wilson interval) and CPU time per
decision (mean, p95) of a log, and with ``--against OTHER.jsonl`` the mean
paired difference from another run over the games both played (the same dice).

:class:`OneRollBot` (``--players optimus_lab.optimus.strength:OneRollBot``) is
``hard`` valuing its candidates one roll ahead only (no search two rolls deep);
:class:`MultiHardBot` (``optimus_lab.optimus.strength:MultiHardBot``) is ``hard``
valuing sheets in games with others by the learned multi-player evaluation
(:mod:`optimus.optimus.value_multi`); :class:`NetHardBot`
(``optimus_lab.optimus.strength:NetHardBot --net FILE``) is ``hard`` playing alone by a
value network (``python -m optimus_lab.optimus.net export``), its argmax;
:class:`LinearHardBot` is ``hard`` alone as before the network (the search two rolls
deep on the linear evaluation); :class:`NetLookBot`
(``optimus_lab.optimus.strength:NetLookBot --net FILE --look K``) values the network's
``K`` best afterstates one roll ahead, the network at the leaves; :class:`BlendBot`
(``--blend A``) the same on a blend of the network's value and the linear one's.
:class:`NetMultiBot` (``optimus_lab.optimus.strength:NetMultiBot --multi-net FILE``) is
``hard`` playing with others by a network for games with others (``python -m
optimus_lab.optimus.net_multi export``); :class:`SearchHardBot`
(``optimus_lab.optimus.strength:SearchHardBot``) is ``hard``'s search with others
(``hard`` plays by the shipped network there).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Generator, Sequence
from typing import Any

import optimus.optimus.value as value
import optimus.optimus.value_multi as value_multi
from optimus.core.arena import mean_ci, play_game, wilson
from optimus.core.bots import Budget
from optimus.core.mlp import Mlp
from optimus.optimus import net_multi
from optimus.optimus.bots import HardBot, ranking
from optimus.optimus.game import OptimusGame, OptimusState
from optimus.optimus.lookahead import Leaf
from optimus.optimus.net import NETS, Choice, NetLeaf, parse_net
from optimus.optimus.value import make_evaluator

Row = dict[str, Any]


class MultiHardBot(HardBot):
    """``hard``'s search valuing sheets with the learned multi-player evaluation in games
    with others."""

    multi = True
    multi_net = None


class SearchHardBot(HardBot):
    """``hard`` searching two rolls deep with others too (no network for games with
    others): ``hard`` before it played by :mod:`optimus.optimus.net_multi`."""

    multi_net = None


class NetHardBot(HardBot):
    """``hard`` playing alone by the value network (:mod:`optimus.optimus.net`, the one
    ``--net FILE`` gives, else the package's ``net_weights.json``); with others as ``hard``."""

    solo_net = "net_weights"
    solo_look = 0


class LinearHardBot(HardBot):
    """``hard`` as it was alone before the network: the search two rolls deep on the
    learned linear evaluation."""

    solo_net = None


class NetLookBot(NetHardBot):
    """:class:`NetHardBot` valuing the network's ``--look K`` best afterstates one roll
    ahead, the network at the leaves (:attr:`HardBot.solo_look`)."""

    solo_look = 3


class BlendBot(NetLookBot):
    """:class:`NetLookBot` on ``--blend A`` x the network's value plus ``1 - A`` x the
    learned linear evaluation's (:mod:`optimus.optimus.value`), at the afterstates and
    at the leaves (``--look 1``: the afterstates' argmax)."""

    blend = 0.5

    def net_values(
        self, model: Mlp, state: OptimusState, legal_moves: list[str]
    ) -> Generator[None, None, dict[str, float]]:
        net = yield from super().net_values(model, state, legal_moves)
        ev = make_evaluator(state, self.player, self.params, self.learned)
        linear = dict((m, v) for v, m in (yield from ranking(ev, state, self.player, legal_moves)))
        a = self.blend
        return {m: a * v + (1 - a) * linear[m] for m, v in net.items()}

    def net_leaf(self, model: Mlp, state: OptimusState) -> Leaf:
        net = NetLeaf(model, state.layout)
        shipped = value.shipped_model()
        assert shipped is not None
        a = self.blend

        def leaf(
            roll: int, marks: int, left: int, options: Sequence[Choice]
        ) -> Generator[None, None, list[float]]:
            values = yield from net(roll, marks, left, options)
            ev = value.LearnedEvaluator(state.layout, roll, shipped)
            return [
                a * v + (1 - a) * ev.value(marks | m, left - c)
                for v, (m, c) in zip(values, options, strict=True)
            ]

        return leaf


class NetMultiBot(HardBot):
    """``hard`` playing with others by the network for games with others
    (:mod:`optimus.optimus.net_multi`, the one ``--multi-net FILE`` gives, else the
    package's ``net_multi_weights.json``); alone as ``hard``."""

    multi_net = "net_multi_weights"


class OneRollBot(HardBot):
    """``hard`` without the search two rolls deep: the best candidate one roll ahead
    (alone and with others too: on the linear or hand-made evaluation, no network)."""

    solo_net = None
    multi_net = None

    def limits(self, fallback: int | None = None) -> tuple[int | None, float | None]:
        return 0, None


def read_log(path: str) -> dict[int, Row]:
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return {int(r["g"]): r for r in rows}


def summary(path: str, against: str | None = None) -> list[str]:
    rows = read_log(path)
    games = sorted(rows)
    scores = [rows[g]["scores"][0] for g in games]
    wins = [rows[g]["wins"][0] for g in games]
    cpu = sorted(x for g in games for x in rows[g]["cpu_ms"][0])
    m, lo, hi = mean_ci(scores)
    wlo, whi = wilson(sum(wins), len(wins))
    out = [
        f"{path}: {len(games)} games, mean {m:.2f} ({lo:.2f}-{hi:.2f}), "
        f"wins {sum(wins) / len(wins):.3f} ({wlo:.3f}-{whi:.3f}), "
        f"CPU per decision mean {sum(cpu) / len(cpu):.1f} ms, "
        f"p95 {cpu[int(0.95 * len(cpu))]:.1f} ms"
    ]
    if against:
        other = read_log(against)
        both = [g for g in games if g in other]
        d, dlo, dhi = mean_ci([rows[g]["scores"][0] - other[g]["scores"][0] for g in both])
        w, wlo, whi = mean_ci([rows[g]["wins"][0] - other[g]["wins"][0] for g in both])
        out.append(
            f"  minus {against} over {len(both)} games: score {d:+.2f} ({dlo:+.2f} to {dhi:+.2f}), "
            f"wins {w:+.3f} ({wlo:+.3f} to {whi:+.3f})"
        )
    return out


def run(
    specs: list[str],
    games: int,
    seed: int,
    iterations: int,
    log: str,
    weights: str | None,
    first: int = 0,
    multi_weights: str | None = None,
    net: str | None = None,
    look: int | None = None,
    blend: float | None = None,
    inner: int | None = None,
    multi_net: str | None = None,
) -> None:
    # on the classes the players' specs name (this module is __main__)
    from optimus_lab.optimus import strength

    if look is not None:
        strength.NetLookBot.solo_look = look
        strength.BlendBot.solo_look = look
    if blend is not None:
        strength.BlendBot.blend = blend
    if inner is not None:
        strength.NetLookBot.solo_inner = inner
        strength.BlendBot.solo_inner = inner
    if multi_net:
        with open(multi_net, encoding="utf-8") as f:
            net_multi.NETS.register(
                str(NetMultiBot.multi_net), net_multi.parse_net(f.read(), multi_net)
            )
    if net:
        with open(net, encoding="utf-8") as f:
            NETS.register(str(NetHardBot.solo_net), parse_net(f.read(), net))
    if weights:
        with open(weights, encoding="utf-8") as f:
            model = value.Model.from_json(json.load(f))
        value.shipped_model = lambda: model  # type: ignore[assignment]
    if multi_weights:
        with open(multi_weights, encoding="utf-8") as f:
            multi_model = value_multi.MultiModel.from_json(json.load(f))
        value_multi.shipped_multi_model = lambda: multi_model  # type: ignore[assignment]
    done = read_log(log)
    game = OptimusGame()
    opts = game.normalize_options({"players": len(specs)})
    for g in range(first, first + games):
        if g in done:
            continue
        scores, wins, times = play_game(
            game, specs, g, seed, opts, Budget(iterations=iterations), clock=time.process_time
        )
        row = {
            "g": g,
            "scores": scores,
            "wins": wins,
            "cpu_ms": [[round(x, 2) for x in t] for t in times],
        }
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m optimus_lab.optimus.strength", description=__doc__
    )
    parser.add_argument("--players", default="hard", help="comma-separated levels or specs")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="number of the first game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=4)
    parser.add_argument("--weights", help="a model file for the learned solo value")
    parser.add_argument(
        "--multi-weights", help="a model file for the learned multi-player value (MultiHardBot)"
    )
    parser.add_argument(
        "--net", help="a value network's JSON (optimus_lab.optimus.net export; NetHardBot)"
    )
    parser.add_argument(
        "--look", type=int, help="NetLookBot: the network's best afterstates valued one roll ahead"
    )
    parser.add_argument(
        "--blend", type=float, help="BlendBot: the network's share of the value (else 0.5)"
    )
    parser.add_argument(
        "--inner", type=int, help="NetLookBot: markings per colour and size valued at the leaves"
    )
    parser.add_argument(
        "--multi-net",
        help="a network for games with others (optimus_lab.optimus.net_multi export; NetMultiBot)",
    )
    parser.add_argument("--log", required=True)
    parser.add_argument("--summary", action="store_true", help="only print the log's figures")
    parser.add_argument("--against", help="another run's log: paired differences")
    args = parser.parse_args(argv)
    if not args.summary:
        run(
            args.players.split(","),
            args.games,
            args.seed,
            args.iterations,
            args.log,
            args.weights,
            args.first,
            args.multi_weights,
            args.net,
            args.look,
            args.blend,
            args.inner,
            args.multi_net,
        )
    for line in summary(args.log, args.against):
        print(line)


if __name__ == "__main__":
    main()
