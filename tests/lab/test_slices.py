"""The thinking-slices benchmark times each stretch between a bot's yields."""

from __future__ import annotations

from collections.abc import Mapping

from optimus.core.bots import Bot, RandomBot, Thinking
from optimus.core.protocol import JSON
from optimus.core.rng import Rng
from optimus.tiny.game import TinyGame
from optimus_lab.slices import think_stretches, timed_choice


class ThreeYields(Bot):
    def think(self, observation: Mapping[str, JSON], legal_moves: list[str]) -> Thinking:
        for _ in range(3):
            yield None
        return legal_moves[-1]


def test_timed_choice_returns_the_move_and_one_stretch_per_yield_plus_the_answer():
    move, stretches = timed_choice(ThreeYields(TinyGame(), 0, Rng(1)), {}, ["a", "b"])
    assert move == "b"
    assert len(stretches) == 4 and all(s >= 0 for s in stretches)


def test_think_stretches_times_only_seat_zero_and_counts_its_decisions(monkeypatch):
    game = TinyGame()
    levels = {"hard": ThreeYields, "normal": RandomBot}
    monkeypatch.setattr(game, "bot_levels", lambda: levels)
    stretches, decisions = think_stretches(game, players=2, games=2)
    assert decisions and len(stretches) == 4 * len(decisions)
