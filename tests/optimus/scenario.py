"""Helpers that set up Optimus positions for the rule tests (harbour sheet).

The harbour sheet (``py/optimus/optimus/sheets/harbour.txt``)::

    ggrooyYrrrGyyYy
    ggRrooyyrrgyybB
    ygbrGoryryggbob
    yOobbRrGyyyBboo
    Oyobbgggggbbooo
    bbyYybooOorrRrr
    rrggrbbbbBooggg
"""

from __future__ import annotations

from optimus.optimus.game import OptimusGame, OptimusState
from optimus.optimus.sheet import box_index

GAME = OptimusGame()


def fresh(players: int, **options: object) -> OptimusState:
    return GAME.new_state({"players": players, **options})


def mask(*names: str) -> int:
    return sum(1 << box_index(n) for n in names)


def roll(state: OptimusState, colours: str, numbers: str) -> None:
    """Apply the dice of one roll (as the runner would, one chance event per die)."""
    assert state.is_chance()
    for face in colours + numbers:
        state.apply_chance(face)


def after_open_rolls(state: OptimusState, roll_number: int = 4) -> OptimusState:
    """Jump to a later roll (the first three rolls are over); the active seat follows."""
    state.roll = roll_number
    state.active = (roll_number - 1) % state.num_players
    state._actors = None
    return state


def solo_roll(colours: str, numbers: str, *marked: str) -> OptimusState:
    """A solo game after its open rolls, with boxes ``marked`` marked, rolled to these dice."""
    state = after_open_rolls(fresh(1))
    state.marks[0] = mask(*marked)
    roll(state, colours, numbers)
    return state
