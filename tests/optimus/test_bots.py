"""Optimus bots: legal, deterministic, observation-only, and the behaviour each level promises."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from optimus.core.bots import Budget, RandomBot, run_to_end
from optimus.core.conformance import (
    bot_match,
    check_bots_decide_from_the_observation,
    random_positions,
)
from optimus.core.rng import Rng
from optimus.optimus.bots import EasyBot, HardBot, NormalBot, easy_choice, normal_choice
from optimus.optimus.game import OptimusGame, OptimusState
from optimus.optimus.sheet import COLUMN_MASKS

from .scenario import after_open_rolls, fresh, mask, roll, solo_roll

GAME = OptimusGame()
QUICK = Budget(iterations=2)


def _play(specs: list[str], seed: int, budget: Budget | None = QUICK) -> OptimusState:
    state = bot_match(GAME, {"players": len(specs)}, specs, seed, budget).state
    assert isinstance(state, OptimusState)
    return state


@pytest.mark.parametrize("players", [1, 2, 3, 6])
def test_every_level_plays_legal_games(players: int) -> None:
    specs = ["hard", "normal", "easy", "random", "normal", "easy"][:players]
    _play(specs, 1)


def test_bots_are_deterministic_and_use_the_observation_only() -> None:
    positions = random_positions(GAME, {"players": 3}, 6, 40, base=300)
    assert len(positions) == 6
    for s in positions:
        check_bots_decide_from_the_observation(GAME, s, (EasyBot, NormalBot, HardBot), QUICK)


def test_easy_marks_the_most_boxes_and_likes_stars() -> None:
    s = solo_roll("gy", "15")
    legal = s.legal_moves(0)
    move = easy_choice(s, 0, legal)
    assert move.startswith("g5") or move.startswith("y5")
    assert len(move.split()) == 6


def test_normal_completes_a_column_first() -> None:
    s = after_open_rolls(fresh(2))
    s.marks[1] = COLUMN_MASKS[0] & ~mask("A5")
    roll(s, "ogy", "111")
    assert s.active == 1  # roll 4 of a 2-player game
    assert normal_choice(s, 1, s.legal_moves(1)) == "o1 A5"


def test_normal_never_pays_a_joker_for_boxes_plain_dice_can_mark() -> None:
    for seed in range(30):
        s = after_open_rolls(fresh(1))
        rng = Rng(seed)
        roll(
            s,
            "".join(rng.choice("gybrox") for _ in "ab"),
            "".join(rng.choice("12345?") for _ in "ab"),
        )
        legal = s.legal_moves(0)
        choice = normal_choice(s, 0, legal)
        if choice == "pass":
            continue
        boxes = choice[3:]
        cost = (choice[0] == "x") + (choice[1] == "?")
        cheapest = min((m[0] == "x") + (m[1] == "?") for m in legal[1:] if m[3:] == boxes)
        assert cost == cheapest


def test_hard_weighs_the_dice_it_leaves_to_the_others() -> None:
    s = after_open_rolls(fresh(2), 5)  # roll 5: seat 0 active
    s.marks[1] = COLUMN_MASKS[0] & ~mask("A5")  # seat 1 needs exactly orange 1 for 5 points
    roll(s, "oyg", "123")
    bot = HardBot(GAME, 0, Rng(1), QUICK)
    gen = bot.denial(s, ["o2 H6 I6", "y2 H2 H3", "g2 H4 H5"])
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        taking_orange, leaving_orange, _ = stop.value
    assert leaving_orange > taking_orange + 0.5


def _pauses(
    bot: HardBot, state: OptimusState, each: Callable[[], None] = lambda: None
) -> tuple[int, str]:
    """How often ``bot`` pauses while deciding (``each`` runs at every pause); its move."""
    gen = bot.think(state.observation(0), state.legal_moves(0))
    pauses = 0
    with pytest.raises(StopIteration) as stop:
        while True:
            next(gen)
            pauses += 1
            each()
    return pauses, str(stop.value.value)


class SoloSearch(HardBot):
    """``hard`` alone on its search (without its network: as with others)."""

    solo_net = None


def test_hard_yields_after_every_sheet_it_values() -> None:
    s = solo_roll("gy", "23")
    short, move = _pauses(SoloSearch(GAME, 0, Rng(1), Budget(iterations=1)), s)
    longer, _ = _pauses(SoloSearch(GAME, 0, Rng(1), Budget(iterations=3)), s)
    assert move in s.legal_moves(0)
    assert short >= HardBot.candidates  # one pause per candidate valued one roll ahead
    assert longer >= short + 2 * 10  # each search two rolls deep values many markings


def test_hard_stops_at_its_clock_and_plays_the_best_it_has_valued(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Bounded on any device: with its clock spent after the first candidate's value
    # one roll ahead, hard values no other and searches nothing two rolls deep.
    import optimus.core.bots as core_bots
    import optimus.optimus.bots as bots
    from optimus.optimus.bots import distinct, ranking
    from optimus.optimus.value import make_evaluator

    s = solo_roll("gy", "23")
    full, _ = _pauses(SoloSearch(GAME, 0, Rng(1), Budget(iterations=1)), s)
    now = [0.0]
    monkeypatch.setattr(core_bots.time, "perf_counter", lambda: now[0])
    monkeypatch.setattr(bots.time, "perf_counter", lambda: now[0])
    bot = SoloSearch(GAME, 0, Rng(1), Budget(time_ms=300, iterations=4))
    pauses, move = _pauses(bot, s, lambda: now.__setitem__(0, 1.0))  # spent from the first
    ev = make_evaluator(s, 0, HardBot.params, HardBot.learned)
    options = run_to_end(ranking(ev, s, 0, s.legal_moves(0)))
    first = distinct(options, False, HardBot.candidates)[0][1]
    assert move == first
    assert pauses < full - HardBot.candidates + 2  # one candidate valued, not ten


def test_normal_beats_random_by_a_margin() -> None:
    normal = [_play(["normal"], seed).scores()[0] for seed in range(4)]
    rand = [_play(["random"], seed).scores()[0] for seed in range(4)]
    assert sum(normal) / 4 > sum(rand) / 4 + 10
    wins = 0
    for seed in range(4):
        s = _play(["normal", "random"], seed)
        wins += 0 in s.outcome().winners
    assert wins >= 3


def test_random_bot_is_the_core_one() -> None:
    assert GAME.bot_levels()["random"] is RandomBot


def test_incremental_gain_equals_the_difference_of_values() -> None:
    from dataclasses import replace

    from optimus.optimus.bots import _parsed
    from optimus.optimus.game import JOKERS
    from optimus.optimus.heuristics import DEFAULT, Evaluator

    checked = 0
    for s, params in itertools.product(
        random_positions(GAME, {"players": 2}, 8, 40, base=300),
        (DEFAULT, replace(DEFAULT, race=0.25)),
    ):
        p = s.actors()[0]
        ev = Evaluator(s, p, params)
        marks, left = s.marks[p], JOKERS - s.jokers_used[p]
        for move in s.legal_moves(p)[:40]:
            _, _, m, cost = _parsed(move)
            expected = ev.value(marks | m, left - cost) - ev.value(marks, left)
            assert abs(ev.gain(marks, m, cost) - expected) < 1e-9
            checked += 1
    assert checked > 100


def test_the_race_term_discounts_a_column_another_player_is_closer_to_taking_first() -> None:
    from dataclasses import replace

    from optimus.optimus.heuristics import DEFAULT, Evaluator

    racing = replace(DEFAULT, race=0.25)
    s = after_open_rolls(fresh(2), 6)
    mine = mask("A1", "A2", "A3", "A4")  # four boxes of column A (5 points first, 3 later)
    s.marks[0] = mine
    alone = Evaluator(s, 0, racing).column_term(0, mine)
    s.marks[1] = COLUMN_MASKS[0] & ~mask("A7")  # the other needs one box
    behind = Evaluator(s, 0, racing).column_term(0, mine)
    assert behind < alone
    assert Evaluator(s, 0, DEFAULT).column_term(0, mine) == alone  # the term off: no change
    s.column_first[0], s.column_roll[1][0] = 5, 5  # once taken, the later value either way
    assert Evaluator(s, 0, racing).column_term(0, mine) == Evaluator(s, 0).column_term(0, mine)
    solo = after_open_rolls(fresh(1), 6)
    solo.marks[0] = mine
    assert Evaluator(solo, 0, racing).column_term(0, mine) == Evaluator(solo, 0).column_term(
        0, mine
    )
