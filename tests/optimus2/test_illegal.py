"""Illegal moves are refused with a player-facing reason, and nothing changes."""

from __future__ import annotations

import pytest

from optimus.core.protocol import IllegalMove
from optimus.optimus2.game import Optimus2State

from .scenario import pass_turn, roll, run, start


def refused(s: Optimus2State, player: int, move: str, reason: str) -> None:
    before = s.observation(None)
    with pytest.raises(IllegalMove, match=reason):
        run(s, player, move)
    assert s.observation(None) == before


def test_reasons_in_the_active_turn() -> None:
    s = start(2)
    refused(s, 0, "pink", "a chance event")
    roll(s, "123456")
    refused(s, 1, "pink", "it is not your turn")
    refused(s, 0, "fly away", "not one of the legal moves now")
    refused(s, 0, "yellow r1c2", "holds a 3, the die shows 2")
    refused(s, 0, "return white", "only for the active player before a roll")
    refused(s, 9, "pink", "there is no player 9")
    run(s, 0, "pink")  # w1 y2 b3 g4 to the tray
    roll(s, "6")
    refused(s, 0, "green", "not among the rolled dice")


def test_reasons_for_bonus_questions_and_passive_players() -> None:
    s = start(2)
    sd = s.sd
    s.sheets[0][sd.Y + sd.cell_names.index("r1c2")] = 1
    roll(s, "161111")
    run(s, 0, "yellow r1c4")  # yellow row 1: a blue ?
    refused(s, 0, "pass", "first resolve your bonus: a blue '\\?'")
    run(s, 0, "write 12")
    assert s.actors() == (1,)
    refused(s, 1, "yellow r1c4", "only if no tray die is usable")
    run(s, 1, "pass")
    refused(s, 1, "pass", "a chance event")


def test_a_finished_passive_player_waits_for_the_others() -> None:
    s = start(3)
    pass_turn(s, "111111")
    assert s.actors() == (1, 2)
    run(s, 1, "pass")
    refused(s, 1, "green", "finished this step; waiting for the other players")


def test_reasons_for_actions() -> None:
    s = start(1)
    roll(s, "123456")
    run(s, 0, "reroll")
    roll(s, "123456")
    refused(s, 0, "reroll", "no reroll action to use")
    refused(s, 0, "extra pink", "after your turn or your passive pick")


def test_reason_in_the_extra_phase() -> None:
    s = start(1)
    s.sheets[0][s.sd.AC + 2] = 1
    for _ in range(3):
        roll(s, "2" * (len(s.to_roll) - s.rpos))
        run(s, 0, "pass")
    assert s.phase == "extra"
    refused(s, 0, "pink", "only extra dice")
