"""Optimus 2's evaluation at the end of its score tables (issue 25, "A crash first")."""

from __future__ import annotations

import pytest

from optimus.core.bots import Budget
from optimus.core.conformance import check_levels_decide, random_position
from optimus.optimus2.bots import progress_left
from optimus.optimus2.game import Optimus2Game, Optimus2State
from optimus.optimus2.heuristics import effective_areas
from optimus.optimus2.sheet import load_sheet


def test_yellow_credit_stops_at_the_last_value_of_the_table() -> None:
    sd = load_sheet()
    sh = sd.new_sheet()
    for i in range(len(sd.yellow_cells)):
        sh[sd.Y + i] = 1  # every cell circled, none crossed: 1.2 * 10 cells of credit
    assert effective_areas(sd, sh, 1.0)[0] == sd.yellow_score[-1]
    sh[sd.Y] = 2
    assert effective_areas(sd, sh, 1.0)[0] == sd.yellow_score[-1]


def test_blue_credit_stays_inside_the_table() -> None:
    sd = load_sheet()
    sh = sd.new_sheet()
    for n in range(sd.blue_slots + 1):
        sh[sd.BN] = n
        assert 0 <= effective_areas(sd, sh, 1.0)[1] <= sd.blue_score[-1]


@pytest.mark.parametrize("players", [1, 4])
def test_every_level_decides_with_a_full_circled_yellow_early(players: int) -> None:
    """A position of random legal moves in the first round, the actor's yellow area all
    circled (crosses + 1.2 * t * circles past the table's end): every level used to raise
    IndexError there."""
    game = Optimus2Game()
    state = random_position(game, game.normalize_options({"players": players}), 5, 5, 3)
    assert isinstance(state, Optimus2State) and progress_left(state) > 0.92
    sh = state.sheets[state.actors()[0]]
    for i in range(len(state.sd.yellow_cells)):
        sh[state.sd.Y + i] = 1
    assert check_levels_decide(game, state, 5, Budget(iterations=2)) == 4
