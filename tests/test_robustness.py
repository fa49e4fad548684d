"""Every bot level of every game decides from positions reached by random legal moves:
no exception, a legal move (``python -m optimus_lab.robustness`` runs the same check
at 10,000 games per game)."""

from __future__ import annotations

import pytest

from optimus.core.bots import Budget
from optimus.core.conformance import check_levels_at_random_positions
from optimus.core.registry import get_game
from optimus.games import GAMES

GAMES_PER_GAME = 300


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_level_decides_from_random_positions(game_id: str) -> None:
    game = get_game(game_id)
    counts = list(GAMES[game_id].player_counts)
    found = check_levels_at_random_positions(
        game, counts, range(GAMES_PER_GAME), Budget(iterations=2)
    )
    assert found.failures == []
    assert found.games == GAMES_PER_GAME
    # most positions are unfinished: every level decided at each of them
    assert found.decisions >= GAMES_PER_GAME // 2 * len(game.bot_levels())
