"""The value network's features and pure-Python forward pass (optimus.optimus2.net)."""

from __future__ import annotations

import json
import random
from typing import ClassVar

import pytest

from optimus.core.arena import play_game
from optimus.core.rng import Rng
from optimus.optimus2.bots import roll_randomly
from optimus.optimus2.game import Optimus2Game, Optimus2State
from optimus.optimus2.net import (
    NETS,
    NetBot,
    NetModel,
    afterstates,
    feature_names,
    forward,
    move_values,
    parse_net,
    position,
    position_multi,
    state_value,
)
from optimus.optimus2.sheet import load_sheet, total_score


def random_net(h1: int = 6, h2: int = 5, seed: int = 1, multi: bool = False) -> NetModel:
    r = random.Random(seed)
    n = len(feature_names(load_sheet(), multi))
    return NetModel(
        [[r.gauss(0, 0.3) for _ in range(h1)] for _ in range(n)],
        [r.gauss(0, 0.3) for _ in range(h1)],
        [[r.gauss(0, 0.5) for _ in range(h1)] for _ in range(h2)],
        [r.gauss(0, 0.3) for _ in range(h2)],
        [r.gauss(0, 5) for _ in range(h2)],
        r.gauss(50, 5),
        multi=multi,
    )


def model_json(m: NetModel) -> dict[str, object]:
    return {
        "features": list(feature_names(load_sheet(), m.multi)),
        "w1": m.w1,
        "b1": m.b1,
        "w2": m.w2,
        "b2": m.b2,
        "w3": m.w3,
        "b3": m.b3,
    }


def test_every_position_s_features_are_distinct_known_ones_and_the_score_is_the_sheet_s() -> None:
    sd = load_sheet()
    n = len(feature_names(sd))
    assert len(set(feature_names(sd))) == n
    seen: set[int] = set()
    for players in (1, 3):
        r = Rng(players)
        for _ in range(6):
            s = Optimus2State(players, sd)
            while not s.is_terminal():
                if s.is_chance():
                    roll_randomly(s, r)
                    continue
                p = s.actors()[0]
                legal = s.legal_moves(p)
                for c in afterstates(s, p, legal):
                    score, idx = position(c, p)
                    assert score == total_score(sd, c.sheets[p])
                    assert len(set(idx)) == len(idx) and all(0 <= i < n for i in idx)
                    seen.update(idx)
                s.apply_move(p, legal[r.randrange(len(legal))])
    assert len(seen) > n // 2  # random games reach most features


def test_the_forward_pass_is_the_dense_network() -> None:
    m = random_net()
    sd = load_sheet()
    s = Optimus2State(1, sd)
    roll_randomly(s, Rng(4))
    s.apply_move(0, s.legal_moves(0)[0])
    idx = position(s, 0)[1]
    x = [1.0 if i in idx else 0.0 for i in range(len(feature_names(sd)))]
    z1 = [b + sum(x[i] * m.w1[i][k] for i in range(len(x))) for k, b in enumerate(m.b1)]
    a1 = [max(0.0, z) for z in z1]
    a2 = [
        max(0.0, b + sum(w * a for w, a in zip(row, a1, strict=True)))
        for row, b in zip(m.w2, m.b2, strict=True)
    ]
    expected = m.b3 + sum(w * a for w, a in zip(m.w3, a2, strict=True))
    assert forward(m, idx) == pytest.approx(expected, abs=1e-9)
    assert state_value(m, s, 0) == pytest.approx(position(s, 0)[0] + expected, abs=1e-9)


def test_a_decision_s_afterstates_are_valued_as_each_alone() -> None:
    """``move_values`` shifts the first layer from one afterstate to the next
    (``mlp.Near``); each value is the network's on that afterstate's own features."""
    m = random_net()
    s = Optimus2State(1, load_sheet())
    rng = Rng(7)
    checked = 0
    while s.phase != "over" and checked < 200:
        if s.phase == "roll":
            roll_randomly(s, rng)
            continue
        legal = s.legal_moves(0)
        values = list(move_values(m, s, 0, legal))
        for c, v in zip(afterstates(s, 0, legal), values, strict=True):
            assert v == pytest.approx(state_value(m, c, 0), abs=1e-9)
            checked += 1
        s.apply_move(0, legal[rng.randrange(len(legal))])
    assert checked >= 50


class _TestNet(NetBot):
    weights: ClassVar[str] = "test_net"
    multi: ClassVar[str] = "test_net4"


def test_a_network_bot_plays_whole_games_alone_and_with_others() -> None:
    NETS.register("test_net", random_net())
    try:
        game = Optimus2Game()
        spec = f"{__name__}:_TestNet"
        for specs in ([spec], [spec, "normal"], [spec, spec, "easy"]):
            opts = game.normalize_options({"players": len(specs)})
            scores, _wins, _ = play_game(game, specs, 0, 5, opts, None)
            assert len(scores) == len(specs) and all(x >= 0 for x in scores)
            if len(specs) == 2:  # with others on the multi-player network once there is one
                NETS.register("test_net4", random_net(multi=True))
    finally:
        NETS.unregister("test_net")
        NETS.unregister("test_net4")


def test_the_value_with_others_is_the_margin_plus_the_network_s() -> None:
    m = random_net(multi=True)
    assert parse_net(json.dumps(model_json(m))).multi
    sd = load_sheet()
    s = Optimus2State(3, sd)
    r = Rng(2)
    while s.round < 3:
        if s.is_chance():
            roll_randomly(s, r)
            continue
        p = s.actors()[0]
        legal = s.legal_moves(p)
        s.apply_move(p, legal[r.randrange(len(legal))])
    scores = [total_score(sd, sh) for sh in s.sheets]
    margin, idx = position_multi(s, 1)
    assert margin == pytest.approx(scores[1] - (scores[0] + scores[2]) / 2)
    assert position(s, 1)[1] == idx[: len(position(s, 1)[1])]  # its own features first
    assert len(idx) > len(position(s, 1)[1])
    assert all(0 <= i < len(feature_names(sd, True)) for i in idx)
    assert state_value(m, s, 1) == pytest.approx(margin + forward(m, idx))


def test_a_bad_weights_file_is_refused_with_its_reason() -> None:
    good = model_json(random_net())
    assert parse_net(json.dumps(good)).b3 == good["b3"]
    cases = {
        "not JSON": "{",
        "not a value network": json.dumps({"features": good["features"]}),
        "features are not those": json.dumps({**good, "features": ["x"]}),
        "shapes do not fit": json.dumps({**good, "b2": [0.0]}),
        "finite": json.dumps({**good, "b3": float("inf")}),
    }
    for reason, text in cases.items():
        with pytest.raises(ValueError, match=reason):
            parse_net(text, "w.json")
