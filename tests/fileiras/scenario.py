"""Build Fileiras positions by naming the chance outcomes, for the tests.

Every event goes through the checked paths, so a scenario can only reach
positions the rules allow.

>>> s = start(4, deals=["yellow", "green", "blue", "grey"], first=2)
>>> s.current, s.coll[0][0], s.legal_moves(2)
(2, 1, ['draw'])
>>> run(s, "draw", "red", "place 1")
>>> s.observation(None)["rows"][0]["cards"]
['red']
"""

from __future__ import annotations

from collections.abc import Sequence

from optimus.core.protocol import apply_chance_checked, play
from optimus.fileiras.cards import COLOURS, removed_colour_count, start_cards_per_player
from optimus.fileiras.game import FileirasState


def start(
    players: int,
    *,
    removed: Sequence[str] | None = None,
    deals: Sequence[str] | None = None,
    first: int = 0,
    advanced: bool = False,
) -> FileirasState:
    """A state right after set-up, with the given removed colours, start cards and first player.

    Defaults: the last colours are removed, start cards are dealt in colour order.
    """
    state = FileirasState(players, advanced)
    if removed is None:
        removed = list(COLOURS[len(COLOURS) - removed_colour_count(players) :])
    for colour in removed:
        apply_chance_checked(state, f"remove {colour}")
    if deals is None:
        in_play = [c for c in COLOURS if c not in removed]
        deals = in_play[: players * start_cards_per_player(players)]
    for colour in deals:
        apply_chance_checked(state, f"deal {colour}")
    apply_chance_checked(state, f"first {first}")
    return state


def run(state: FileirasState, *events: str) -> None:
    """Apply events in order: moves by the player to act, or chance outcomes when one is due."""
    for event in events:
        if state.is_chance():
            apply_chance_checked(state, event)
        else:
            play(state, state.current, event)


def draw_place(state: FileirasState, card: str, row: int) -> None:
    """The current player draws ``card`` and places it on ``row`` (1-based)."""
    run(state, "draw", card, f"place {row}")
