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


def pass_turn(state: Optimus2State, values: str, player: int = 0) -> None:
    """Roll ``values`` three times, ``player`` passing each time (every die to the tray)."""
    for _ in range(3):
        roll(state, values)
        run(state, player, "pass")


def no_use_for_ones(state: Optimus2State, player: int) -> None:
    """Fill ``player``'s sheet so that it can use no 1: yellow r2c1 crossed, silver 1
    everywhere, blue low, green and pink full."""
    sd, sh = state.sd, state.sheets[player]
    sh[sd.Y + sd.cell_names.index("r2c1")] = 2
    for r in range(4):
        sh[sd.S + r] = 1
    sh[sd.GN] = len(sd.green_mult)
    sh[sd.PN] = len(sd.pink_threshold)
    sh[sd.BN] = 12
