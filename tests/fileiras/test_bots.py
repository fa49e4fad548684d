"""Bots: legal, deterministic, observation-only, and the behaviour each level promises."""

from __future__ import annotations

import pytest

from optimus.core.bots import Budget
from optimus.core.conformance import (
    bot_match,
    check_bots_decide_from_the_observation,
    random_positions,
)
from optimus.core.record import Match
from optimus.core.rng import Rng
from optimus.fileiras.bots import EasyBot, HardBot, NormalBot, easy_choice, normal_choice
from optimus.fileiras.cards import COLLECTION_KINDS, LAST
from optimus.fileiras.game import FileirasGame, FileirasState
from optimus.fileiras.heuristics import Evaluator

from .scenario import draw_place, run, start

GAME = FileirasGame()
QUICK = Budget(iterations=2)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_level_plays_legal_games(players: int) -> None:
    specs = ["hard", "normal", "easy", "random", "normal"][:players]
    for seed in range(2):
        m = bot_match(GAME, {"players": players, "advanced": seed == 1}, specs, seed, QUICK)
        assert m.state.is_terminal()


def test_bots_are_deterministic_and_use_the_observation_only() -> None:
    for s in random_positions(GAME, {"players": 4}, 6, 60, base=500):
        check_bots_decide_from_the_observation(GAME, s, (EasyBot, NormalBot, HardBot), QUICK)


def test_easy_takes_an_immediately_good_row() -> None:
    s = start(4, first=1)  # seat 0 starts with yellow
    draw_place(s, "yellow", 1)
    draw_place(s, "yellow", 1)
    draw_place(s, "red", 2)
    assert easy_choice(s, 0) == "take 1"  # yellow 1 -> 3: +5


def test_easy_draws_when_no_row_is_good() -> None:
    s = start(4, first=1)
    draw_place(s, "red", 1)
    draw_place(s, "blue", 2)
    draw_place(s, "+2", 3)
    assert easy_choice(s, 0) == "draw"  # the best row, one "+2", gains only 2


def test_easy_places_where_it_helps_itself_most() -> None:
    s = start(4, first=1)
    draw_place(s, "red", 1)
    draw_place(s, "yellow", 2)
    draw_place(s, "blue", 3)
    run(s, "draw", "yellow")
    assert easy_choice(s, 0) == "place 2"


def test_easy_never_looks_at_the_others() -> None:
    for s in random_positions(GAME, {"players": 4}, 25, 60, base=500):
        p = s.current
        before = easy_choice(s, p)
        changed = s.clone()
        for q in range(4):
            if q != p:
                changed.coll[q] = [3] * COLLECTION_KINDS
        assert easy_choice(changed, p) == before


def test_normal_takes_a_great_row_before_the_others_can() -> None:
    s = start(4, first=1)
    draw_place(s, "yellow", 1)
    draw_place(s, "yellow", 1)
    draw_place(s, "red", 2)
    assert normal_choice(s, 0) == "take 1"


def test_normal_looks_at_what_a_row_gives_the_others() -> None:
    """Two rows worth the same to me: taking the one the next player wants is better."""
    s = start(4, first=1)  # seats start with yellow, green, blue, grey
    draw_place(s, "+2", 1)
    draw_place(s, "+2", 2)
    draw_place(s, "red", 1)
    draw_place(s, "blue", 2)  # row 1: +2 red, row 2: +2 blue
    assert s.current == 1
    ev = Evaluator(s)
    assert ev.gain(1, (2, 8)) == ev.gain(1, (5, 8)) == 3
    s.coll[2][2] = 5  # seat 2, next to play, collects blue
    values = Evaluator(s).take_values(1)
    assert values[1] > values[0]


def _solo_best(state: FileirasState, me: int) -> tuple[float, float]:
    """Brute force for one open row: (value of taking now, value of drawing on)."""
    value = state.scorer.value
    base = value(state.coll[me])
    r = next(i for i in range(len(state.caps)) if state.row_taker[i] < 0)
    cap = state.caps[r]

    def best(row: list[int], deck: list[int]) -> float:
        take = value([c + row.count(k) for k, c in enumerate(state.coll[me])]) - base
        options = [take] if row else []
        if len(row) < cap:
            options.append(draw(row, deck))
        return max(options)

    def draw(row: list[int], deck: list[int]) -> float:
        total = sum(deck)
        out = 0.0
        for k, n in enumerate(deck):
            if n:
                deck[k] -= 1
                out += n * best([*row, k], deck)
                deck[k] += 1
        return out / total

    deck = list(state.deck[:LAST])
    row = list(state.rows[r])
    take = (
        best(row, deck)
        if not row
        else (value([c + row.count(k) for k, c in enumerate(state.coll[me])]) - base)
    )
    return take, draw(row, deck)


def test_normal_alone_in_the_round_looks_ahead_exactly() -> None:
    checked = 0
    for seed in range(60):
        m = Match(GAME, {"players": 3}, 900 + seed)
        rng = Rng(seed)
        s = m.state
        while not s.is_terminal():
            p = s.actors()[0]
            solo = sum(s.took) == 2 and s.phase == "turn"
            legal = s.legal_moves(p)
            if solo and len(legal) == 2:
                take, draw = _solo_best(s, p)  # type: ignore[arg-type]
                if abs(take - draw) > 1e-6:
                    want = "draw" if draw > take else legal[1]
                    assert normal_choice(s, p) == want  # type: ignore[arg-type]
                    checked += 1
            m.play(p, rng.choice(legal))
    assert checked >= 30


class CountingHard(HardBot):
    playouts = 0

    def playout(self, sim, order):  # type: ignore[no-untyped-def]
        CountingHard.playouts += 1
        return (yield from super().playout(sim, order))


def test_hard_respects_its_iteration_budget_and_yields_often() -> None:
    s = start(4, first=0)
    draw_place(s, "red", 1)
    draw_place(s, "yellow", 2)
    p = s.current
    legal = s.legal_moves(p)
    CountingHard.playouts = 0
    bot = CountingHard(GAME, p, Rng(1), Budget(iterations=3))
    gen = bot.think(s.observation(p), legal)
    yields = 0
    try:
        while True:
            next(gen)
            yields += 1
    except StopIteration as stop:
        assert stop.value in legal
    assert CountingHard.playouts == 3 * len(legal)
    assert yields >= CountingHard.playouts


def test_hard_sampled_orders_keep_the_last_round_card_at_its_depth() -> None:
    s = start(4, first=0)
    bot = HardBot(GAME, 0, Rng(2), QUICK)
    for _ in range(5):
        order = bot.sample_order(s)
        assert len(order) == s.remaining + 1
        assert order.index(LAST) == s.remaining - 15
        assert sorted(order.count(k) for k in range(LAST)) == sorted(s.deck[:LAST])
