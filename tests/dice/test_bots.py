"""Optimus 2 bots: legal, from the observation only, yielding while they think."""

from __future__ import annotations

import json

import pytest

from optimus.core.arena import run_arena
from optimus.core.bots import Budget
from optimus.core.rng import Rng
from optimus.dice.bots import EasyBot, HardBot, NormalBot, greedy_pick, progress_left, turn_future
from optimus.dice.game import Optimus2Game
from optimus.dice.scenario import roll, run, start

GAME = Optimus2Game()


def test_levels_are_registered() -> None:
    assert set(GAME.bot_levels()) == {"random", "easy", "normal", "hard"}


@pytest.mark.parametrize("players", [1, 3])
def test_every_level_finishes_games_with_legal_moves(players: int) -> None:
    specs = ["easy", "normal", "hard"][:players] if players > 1 else ["normal"]
    result = run_arena(GAME, specs, 1, 3, budget=Budget(iterations=2))
    assert all(p["mean_score"] is not None for p in result["players"])  # type: ignore[index]


def test_hard_solo_game_with_a_tiny_budget() -> None:
    result = run_arena(GAME, ["hard"], 1, 4, budget=Budget(iterations=1))
    assert result["players"][0]["mean_score"] > 0  # type: ignore[index]


def test_bots_decide_from_the_json_observation() -> None:
    s = start(2)
    roll(s, "123456")
    obs = json.loads(json.dumps(s.observation(0)))
    legal = s.legal_moves(0)
    for cls in (EasyBot, NormalBot, HardBot):
        bot = cls(GAME, 0, Rng(1), Budget(iterations=3))
        assert bot.choose(obs, legal) in legal


def test_normal_prefers_the_balancing_entry() -> None:
    s = start(1)
    sd = s.sd
    sh = s.sheets[0]
    sh[sd.FOX] = 3
    # every area has points except pink: a pink entry is worth most (foxes)
    sh[sd.Y] = 2
    sh[sd.BN] = 2
    sh[sd.BN + 1 : sd.BN + 3] = [12, 11]
    sh[sd.GN] = 2
    sh[sd.GN + 1 : sd.GN + 3] = [12, 2]
    sh[sd.S] = 0b111
    roll(s, "111144")  # pink 4 and silver 4 share the top value
    move = greedy_pick(s, 0, s.legal_moves(0))
    assert move == "pink"


def test_value_counts_the_dice_left_for_the_turn() -> None:
    s = start(1)
    roll(s, "123456")
    low, high = s.clone(), s.clone()
    run(low, 0, "white pink")  # the 1: keeps five dice to roll
    run(high, 0, "pink")  # the 5: four dice to the tray, one left
    assert progress_left(low) == progress_left(high)
    assert turn_future(low, 0) > turn_future(high, 0) > 0
    for _ in range(2):
        roll(high, "6")
        run(high, 0, "pass")
    assert turn_future(high, 0) == 0  # the turn is over


def test_hard_thinking_yields() -> None:
    s = start(1)
    roll(s, "123456")
    bot = HardBot(GAME, 0, Rng(2), Budget(iterations=4))
    gen = bot.think(s.observation(0), s.legal_moves(0))
    steps = 0
    with pytest.raises(StopIteration):
        while True:
            next(gen)
            steps += 1
    assert steps >= 1
