"""Optimus's value network in pure Python (optimus.optimus.net): features, moves, inference."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from optimus.core.bots import Budget, run_to_end
from optimus.core.mlp import Mlp, forward
from optimus.core.rng import Rng
from optimus.optimus.bots import HardBot
from optimus.optimus.game import JOKERS, OptimusState, joker_cost, parse_move
from optimus.optimus.heuristics import DEFAULT
from optimus.optimus.lookahead import Lookahead
from optimus.optimus.net import (
    FEATURES,
    NETS,
    Anchor,
    NetLeaf,
    active,
    choices,
    has_net,
    move_values,
    option_values,
    parse_net,
    score_now,
)
from optimus.optimus.sheet import layout_of, standard_sheet

from .scenario import GAME, after_open_rolls, fresh, mask, roll, solo_roll

HARBOUR = layout_of(standard_sheet("harbour"))


def on(idx: list[int]) -> set[str]:
    return {FEATURES[i] for i in idx}


def groups(idx: list[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for name in on(idx):
        g = name.split(":")[0]
        out[g] = out.get(g, 0) + 1
    return out


def test_the_features_of_an_empty_harbour_sheet() -> None:
    idx = active(HARBOUR, 0, JOKERS, 29)
    assert len(idx) == len(set(idx))
    names = on(idx)
    assert {f"open:H{r}" for r in range(1, 8)} <= names
    assert "colopen:H" in names and "colopen:G" not in names
    assert {f"colfree:{c}7" for c in "ABCDEFGHIJKLMNO"} <= names
    assert groups(idx) == {
        "open": 7,  # column H
        "star": 15,
        "colfree": 15,
        "colruns": 15,
        "colopen": 1,
        "cfree": 5 * 21,
        "cneed": groups(idx)["cneed"],
        "jokers": 8,
        "rolls": 29,
        "stars": 15,
        "stars_open": 1,  # H4 of harbour
    }
    assert "star:H4" in names and "box:H4" not in names


def test_marking_changes_the_features_it_should() -> None:
    marks = mask("H4", "H5", "G5")
    idx = active(HARBOUR, marks, 6, 10)
    names = on(idx)
    assert {"box:H4", "box:H5", "box:G5"} == {n for n in names if n.startswith("box:")}
    assert "star:H4" not in names and "open:H4" not in names
    assert "colfree:H5" in names and "colfree:G6" in names
    assert groups(idx)["jokers"] == 6 and groups(idx)["rolls"] == 10
    assert groups(idx)["stars"] == 14
    # green (g) has two boxes fewer free, the others all theirs
    assert groups(idx)["cfree"] == 5 * 21 - 3
    assert score_now(HARBOUR, marks, 6) == 6 - 2 * 14


def test_choices_are_the_distinct_legal_moves() -> None:
    rng = random.Random(3)
    for case in range(30):
        state = after_open_rolls(fresh(1))
        boxes = rng.sample(range(105), rng.randrange(0, 40))
        state.marks[0] = sum(1 << b for b in boxes)
        state.jokers_used[0] = rng.randrange(0, 9)
        colours = "".join(rng.choice("gybrox") for _ in range(2))
        numbers = "".join(rng.choice("12345?") for _ in range(2))
        roll(state, colours, numbers)
        left = JOKERS - state.jokers_used[0]
        want = {(0, 0)}
        for move in state.legal_moves(0)[1:]:
            cf, nf, m = parse_move(move)
            want.add((m, joker_cost(cf, nf)))
        got = choices(state.layout, state.marks[0], left, list(colours), list(numbers))
        assert got[0] == (0, 0) and len(got) == len(set(got)), case
        assert set(got) == want, case


def small_net(seed: int, h1: int = 12, h2: int = 6) -> Mlp:
    rng = random.Random(seed)
    return Mlp(
        [[rng.gauss(0, 0.1) for _ in range(h1)] for _ in FEATURES],
        [rng.gauss(0, 0.3) for _ in range(h1)],
        [[rng.gauss(0, 0.4) for _ in range(h1)] for _ in range(h2)],
        [rng.gauss(0, 0.2) for _ in range(h2)],
        [rng.gauss(0, 3.0) for _ in range(h2)],
        20.0,
    )


def test_the_shifted_first_layer_gives_the_full_forward_value() -> None:
    model = small_net(1)
    marks, left = mask("H1", "H2", "I2", "G3"), 5
    options = choices(HARBOUR, marks, left, ["y", "x"], ["3", "?"])
    assert len(options) > 10
    values = run_to_end(option_values(model, HARBOUR, marks, left, 12, options))
    for (m, c), v in zip(options, values, strict=True):
        full = score_now(HARBOUR, marks | m, left - c) + forward(
            model, active(HARBOUR, marks | m, left - c, 12)
        )
        assert v == pytest.approx(full, abs=1e-9)
    last = run_to_end(option_values(model, HARBOUR, marks, left, 0, options))
    assert last == [score_now(HARBOUR, marks | m, left - c) for m, c in options]


def test_parse_net_says_what_is_wrong() -> None:
    model = small_net(2, 3, 2)
    good = {"features": list(FEATURES), **{k: getattr(model, k) for k in Mlp.__annotations__}}
    assert parse_net(json.dumps(good)) == model
    with pytest.raises(ValueError, match="not JSON"):
        parse_net("{", "x.json")
    with pytest.raises(ValueError, match="features are not those"):
        parse_net(json.dumps({**good, "features": ["a"]}))
    with pytest.raises(ValueError, match="shapes"):
        parse_net(json.dumps({**good, "w3": [1.0]}))
    with pytest.raises(ValueError, match="not a value network"):
        parse_net("[1]")


class NetHard(HardBot):
    solo_net = "test_optimus_net"
    solo_look = 0  # the argmax


def test_hard_plays_alone_by_the_network_when_it_has_one_and_with_others_as_before() -> None:
    model = small_net(4)
    NETS.register("test_optimus_net", model)
    try:
        state = solo_roll("bx", "4?", "H3", "H4")
        legal = state.legal_moves(0)
        bot = NetHard(GAME, 0, Rng(1), Budget(iterations=2))
        values = run_to_end(move_values(model, state, 0, legal))
        best = max(values, key=values.__getitem__)
        assert bot.choose(state.observation(0), legal) == best
        assert run_to_end(bot.appraise(state.observation(0), legal, legal[0])).values == values
        two = after_open_rolls(fresh(2))
        roll(two, "byr", "413")
        moves = two.legal_moves(two.actors()[0])
        p = two.actors()[0]
        plain = HardBot(GAME, p, Rng(1), Budget(iterations=2))
        assert NetHard(GAME, p, Rng(1), Budget(iterations=2)).choose(
            two.observation(p), moves
        ) == plain.choose(two.observation(p), moves)
    finally:
        NETS.unregister("test_optimus_net")


class NetLook(HardBot):
    solo_net = "test_optimus_net"
    solo_look = 3


def look_values(model: Mlp, state: OptimusState, look: int, extra: str = "") -> dict[str, float]:
    """By hand: the network's ``look`` best afterstates (and ``extra``) one roll ahead."""
    legal = state.legal_moves(0)
    left = JOKERS - state.jokers_used[0]
    greedy = run_to_end(move_values(model, state, 0, legal))
    top: list[str] = []
    for m in sorted(legal, key=lambda m: -greedy[m]):  # one move per afterstate
        if (mask_of(m), cost_of(m)) not in [(mask_of(t), cost_of(t)) for t in top]:
            top.append(m)
    ahead = Lookahead(state, 0, DEFAULT, leaf=NetLeaf(model, state.layout))
    picked = top[:look] + ([extra] if extra and extra not in top[:look] else [])
    return {m: ahead.one(state.marks[0] | mask_of(m), left - cost_of(m)) for m in picked}


def test_hard_with_a_look_values_the_networks_best_afterstates_one_roll_ahead() -> None:
    model = small_net(5)
    NETS.register("test_optimus_net", model)
    try:
        state = solo_roll("bx", "4?", "H3", "H4")
        legal = state.legal_moves(0)
        want = look_values(model, state, 3)
        bot = NetLook(GAME, 0, Rng(1), Budget(iterations=2))
        assert bot.choose(state.observation(0), legal) == max(want, key=want.__getitem__)
        worst = min(legal, key=run_to_end(move_values(model, state, 0, legal)).__getitem__)
        appraisal = run_to_end(bot.appraise(state.observation(0), legal, worst))
        assert appraisal.values == look_values(model, state, 3, worst)
        assert appraisal.best == max(want, key=want.__getitem__)
    finally:
        NETS.unregister("test_optimus_net")


def test_hard_alone_plays_and_appraises_by_the_shipped_network_one_roll_ahead() -> None:
    assert HardBot.solo_net is not None and has_net(HardBot.solo_net)
    assert HardBot.solo_look == 5
    model = NETS.get(HardBot.solo_net)
    state = solo_roll("gr", "23", "H3", "H4", "G4", "I4")
    state.roll = 12
    legal = state.legal_moves(0)
    want = look_values(model, state, 5)
    bot = HardBot(GAME, 0, Rng(1), Budget(iterations=4))
    best = max(want, key=want.__getitem__)
    assert bot.choose(state.observation(0), legal) == best
    appraisal = run_to_end(bot.appraise(state.observation(0), legal, best))
    assert appraisal.values == want and appraisal.best == best


def mask_of(move: str) -> int:
    return 0 if move == "pass" else parse_move(move)[2]


def cost_of(move: str) -> int:
    return 0 if move == "pass" else joker_cost(*parse_move(move)[:2])


def test_values_shifted_from_an_anchor_are_the_full_forward_values() -> None:
    model = small_net(6)
    anchor = Anchor()
    for boxes, left, rolls in [(("H1", "H2"), 5, 12), (("H1", "H2", "I2", "G3"), 4, 11)]:
        marks = mask(*boxes)
        options = choices(HARBOUR, marks, left, ["y", "x"], ["3", "?"])
        values = run_to_end(option_values(model, HARBOUR, marks, left, rolls, options, anchor))
        for (m, c), v in zip(options, values, strict=True):
            full = score_now(HARBOUR, marks | m, left - c) + forward(
                model, active(HARBOUR, marks | m, left - c, rolls)
            )
            assert v == pytest.approx(full, abs=1e-9)
    assert on(anchor.idx) == on(active(HARBOUR, mask("H1", "H2"), 5, 12))


def test_hard_alone_yields_while_it_looks_ahead_and_stops_at_its_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pause at least per colour of the next roll valued, per afterstate looked at; with
    its clock spent from the first pause, the network's best afterstate alone is valued
    one roll ahead and played."""
    import optimus.core.bots as core_bots
    import optimus.optimus.bots as bots

    state = solo_roll("gy", "23", "H3", "H4")
    legal = state.legal_moves(0)

    def pauses(bot: HardBot, each: Callable[[], None] = lambda: None) -> tuple[int, str]:
        gen = bot.think(state.observation(0), legal)
        n = 0
        with pytest.raises(StopIteration) as stop:
            while True:
                next(gen)
                n += 1
                each()
        return n, str(stop.value.value)

    full, _ = pauses(HardBot(GAME, 0, Rng(1), Budget(iterations=4)))
    assert full >= 5 * HardBot.solo_look
    now = [0.0]
    monkeypatch.setattr(core_bots.time, "perf_counter", lambda: now[0])
    monkeypatch.setattr(bots.time, "perf_counter", lambda: now[0])
    bot = HardBot(GAME, 0, Rng(1), Budget(time_ms=300, iterations=4))
    short, move = pauses(bot, lambda: now.__setitem__(0, 1.0))
    assert HardBot.solo_net is not None
    greedy = run_to_end(move_values(NETS.get(HardBot.solo_net), state, 0, legal))
    assert move == max(legal, key=greedy.__getitem__)
    assert short < full - 4 * 5
