"""Build Optimus 2 positions by naming the dice, for the tests.

Every event goes through the checked paths, so a scenario only reaches
positions the rules allow.

>>> s = start(1)
>>> roll(s, "123456")
>>> s.legal_moves(0)[:3]
['white yellow r2c1', 'white blue', 'white green']
>>> run(s, 0, "pink")
>>> [d["place"] for d in s.observation(0)["dice"]]
['tray', 'tray', 'tray', 'tray', 'field', 'hand']
"""

from __future__ import annotations

from optimus.core.protocol import apply_chance_checked, play
from optimus.optimus2.game import Optimus2State
from optimus.optimus2.sheet import load_sheet


def start(players: int, *, first: int = 0, sheet: str = "standard") -> Optimus2State:
    """A new game (first player ``first``), at its first roll."""
    state = Optimus2State(players, load_sheet(sheet))
    if players > 1:
        apply_chance_checked(state, f"first {first}")
    return state


def roll(state: Optimus2State, values: str) -> None:
    """Roll the dice due, in die order (white, yellow, blue, green, pink, silver).

    ``values`` has one digit per die being rolled, e.g. ``"3416"`` for four dice.
    """
    due = len(state.to_roll) - state.rpos
    if len(values) != due:
        raise ValueError(f"{due} dice are being rolled, {len(values)} values given")
    for v in values:
        apply_chance_checked(state, v)


def run(state: Optimus2State, player: int, *moves: str) -> None:
    """Apply ``player``'s moves in order through the checked path."""
    for move in moves:
        play(state, player, move)
