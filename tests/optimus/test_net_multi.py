"""Optimus's value network for games with others (optimus.optimus.net_multi): features,
the afterstates' values, ``hard`` on it."""

from __future__ import annotations

import json
import random

import pytest

from optimus.core.bots import Budget, run_to_end
from optimus.core.mlp import Mlp, forward
from optimus.core.rng import Rng
from optimus.optimus import net_multi
from optimus.optimus.bots import HardBot
from optimus.optimus.game import (
    COLOUR_FACES,
    JOKERS,
    NUMBER_FACES,
    OptimusState,
    boxes_text,
)
from optimus.optimus.net import FEATURES as SOLO_FEATURES
from optimus.optimus.net import dice_choices
from optimus.optimus.net_multi import (
    FEATURES,
    NETS,
    active,
    afterstates,
    context,
    move_values,
    option_values,
    parse_net,
    score,
)
from optimus.optimus.sheet import standard_sheet

from .scenario import GAME


def random_states(games: int, players: int, seed: int) -> list[tuple[OptimusState, int]]:
    """Decisions of random games (a random move each, passes rarer): the state and the seat
    to move, the state a clone."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        n = players if players else 2 + g % 3
        sheet = "harbour" if g % 2 else "orchard"
        state = OptimusState(n, standard_sheet(sheet), sheet, g % 5 != 4)
        while not state.is_terminal():
            if state.is_chance():
                for _ in range(3):
                    state.apply_chance(rng.choice(COLOUR_FACES))
                for _ in range(3):
                    state.apply_chance(rng.choice(NUMBER_FACES))
                continue
            seat = state.actors()[0]
            out.append((state.clone(), seat))
            dice_c, dice_n = state.open_dice(seat)
            left = JOKERS - state.jokers_used[seat]
            options, faces = dice_choices(state.layout, state.marks[seat], left, dice_c, dice_n)
            i = rng.randrange(len(options)) if len(options) > 1 and rng.random() < 0.9 else 0
            mask = options[i][0]
            state.apply_move(seat, f"{faces[i]} {boxes_text(mask)}" if mask else "pass")
    return out


STATES = random_states(6, 0, 3)


def small_net(seed: int, hidden: int = 12) -> Mlp:
    rng = random.Random(seed)

    def row(n: int, scale: float) -> list[float]:
        return [rng.gauss(0.0, scale) for _ in range(n)]

    return Mlp(
        [row(hidden, 0.3) for _ in FEATURES],
        row(hidden, 0.5),
        [row(hidden, 0.5) for _ in range(6)],
        row(6, 0.5),
        row(6, 2.0),
        1.5,
    )


def test_the_features_are_the_solo_ones_then_the_tables_and_each_on_once() -> None:
    assert FEATURES[: len(SOLO_FEATURES)] == SOLO_FEATURES
    assert len(set(FEATURES)) == len(FEATURES)
    seen: set[str] = set()
    for state, seat in STATES[::7]:
        ctx = context(state, seat)
        idx = active(ctx, state.marks[seat], JOKERS - state.jokers_used[seat])
        assert len(idx) == len(set(idx)) and all(0 <= i < len(FEATURES) for i in idx)
        names = [FEATURES[i] for i in idx]
        assert not any(x.startswith("rolls:") for x in names)  # no number of rolls with others
        assert sum(x.startswith("players:") for x in names) == 1
        assert sum(x.startswith("next_active:") for x in names) == 1
        gaps = {x.split(":")[0] for x in names if x.startswith("gap_")}
        assert len(gaps) <= 1
        seen.update(x.split(":")[0] for x in names)
    assert {"taken_col", "near_col", "taken_colour", "near_colour", "end", "gap_up"} <= seen
    assert {"gap_down", "round", "players", "next_active", "open", "end_one"} <= seen


def permuted(state: OptimusState, me: int, order: list[int]) -> OptimusState:
    """The state with the others' sheets (marks, "!", completions) in ``order`` (a
    permutation of the others' seats)."""
    out = state.clone()
    others = [p for p in range(state.num_players) if p != me]
    for dst, src in zip(others, order, strict=True):
        out.marks[dst] = state.marks[src]
        out.jokers_used[dst] = state.jokers_used[src]
        out.column_roll[dst] = list(state.column_roll[src])
        out.colour_roll[dst] = list(state.colour_roll[src])
    return out


def test_the_features_are_blind_to_which_other_is_which() -> None:
    checked = 0
    for state, seat in STATES:
        others = [p for p in range(state.num_players) if p != seat]
        if len(others) < 2:
            continue
        order = others[1:] + others[:1]
        ctx, ctx2 = context(state, seat), context(permuted(state, seat, order), seat)
        assert ctx == ctx2
        checked += 1
    assert checked > 100


def test_the_score_is_the_engines_at_the_start_of_a_roll() -> None:
    checked = 0
    for state, seat in STATES:
        if state.pending or state.phase == "others":
            continue
        ctx = context(state, seat)
        points, done = score(ctx, state.marks[seat], JOKERS - state.jokers_used[seat])
        assert points == state.breakdown(seat)["total"]
        assert done == state.colours_done(seat)
        checked += 1
    assert checked > 50


def test_the_afterstates_are_each_positions_own_features_and_values() -> None:
    """On a few hundred decisions of random games: :func:`afterstates` gives
    :func:`active`'s lists, and the values shifted from one afterstate to the next
    (:func:`option_values`) are each afterstate's own full evaluation."""
    model = small_net(5)
    options_seen = 0
    for state, seat in STATES[::2]:
        ctx = context(state, seat)
        marks, left = state.marks[seat], JOKERS - state.jokers_used[seat]
        dice_c, dice_n = state.open_dice(seat)
        options = dice_choices(state.layout, marks, left, dice_c, dice_n)[0]
        feats, margins, over = afterstates(ctx, marks, left, options)
        values = run_to_end(option_values(model, ctx, marks, left, options))
        for (mask, cost), f, margin, end, value in zip(
            options, feats, margins, over, values, strict=True
        ):
            assert f == active(ctx, marks | mask, left - cost)
            points, done = score(ctx, marks | mask, left - cost)
            assert margin == points - ctx.best_other and end == (done >= 2)
            want = margin if end else margin + forward(model, f)
            assert value == pytest.approx(want, abs=1e-9)
            options_seen += 1
    assert len(STATES[::2]) > 200 and options_seen > 2000


def test_a_network_round_trips_through_its_json() -> None:
    model = small_net(2)
    good = {"features": list(FEATURES), **{k: getattr(model, k) for k in Mlp.__annotations__}}
    assert parse_net(json.dumps(good)) == model
    with pytest.raises(ValueError, match="features are not those"):
        parse_net(json.dumps({**good, "features": list(SOLO_FEATURES)}))
    with pytest.raises(ValueError, match="not JSON"):
        parse_net("{")


class MultiHard(HardBot):
    multi_net = "test_optimus_net_multi"


def test_hard_plays_with_others_by_the_network_and_alone_as_before() -> None:
    model = small_net(4)
    NETS.register("test_optimus_net_multi", model)
    try:
        played = 0
        for state, seat in STATES[5::40]:
            legal = state.legal_moves(seat)
            if len(legal) < 2:
                continue
            obs = state.observation(seat)
            rebuilt = GAME.rebuild(obs)
            values = run_to_end(move_values(model, rebuilt, seat, legal))
            best = max(values, key=values.__getitem__)
            bot = MultiHard(GAME, seat, Rng(1), Budget(iterations=2))
            bot.warm(obs)
            assert bot.choose(obs, legal) == best
            assert run_to_end(bot.appraise(obs, legal, legal[0])).values == values
            played += 1
        assert played >= 3
        solo = OptimusState(1, standard_sheet("harbour"), "harbour", True)
        for face in "bx41":
            solo.apply_chance(face)
        legal = solo.legal_moves(0)
        assert MultiHard(GAME, 0, Rng(1), Budget(iterations=2)).choose(
            solo.observation(0), legal
        ) == HardBot(GAME, 0, Rng(1), Budget(iterations=2)).choose(solo.observation(0), legal)
    finally:
        NETS.unregister("test_optimus_net_multi")
    assert not net_multi.has_net("test_optimus_net_multi")


def test_hard_plays_with_others_by_the_shipped_network() -> None:
    from optimus.core import data

    assert HardBot.multi_net == "net_multi_weights"
    assert net_multi.has_net(HardBot.multi_net)
    assert len(data.text(NETS.package, "net_multi_weights.json")) <= 1_000_000
    model = NETS.shipped("net_multi_weights")
    assert len(model.w1) == len(FEATURES)
    played = 0
    for state, seat in STATES[3::50]:
        legal = state.legal_moves(seat)
        if len(legal) < 2:
            continue
        obs = state.observation(seat)
        values = run_to_end(move_values(model, GAME.rebuild(obs), seat, legal))
        bot = HardBot(GAME, seat, Rng(1), Budget(iterations=2))
        assert bot.plays_multi_net(GAME.rebuild(obs))
        assert bot.choose(obs, legal) == max(values, key=values.__getitem__)
        played += 1
    assert played >= 3
