"""Protocol conformance, records, observations and the exact rebuild from them."""

from __future__ import annotations

import json

import pytest

from optimus.core.conformance import check_random_game, check_rebuilds, check_replays, random_match
from optimus.core.record import Match, replay
from optimus.core.registry import get_game
from optimus.fileiras.game import FileirasGame, FileirasState, check_conservation
from tests.soak import soak_games

GAME = FileirasGame()
FAST_GAMES = soak_games(2000)
"""Seeded random games per player count checked with deep=False (``OPTIMUS_SOAK_GAMES``
plays more: tests/soak.py)."""
DEEP_GAMES = 75
"""Of those, the first seeds are also checked with deep=True (views, refusals, clones)."""


def test_registry_finds_the_game() -> None:
    game = get_game("fileiras")
    assert isinstance(game, FileirasGame)
    assert (game.min_players, game.max_players) == (2, 5)
    assert set(game.bot_levels()) == {"random", "easy", "normal", "hard"}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_conformance_deep(players: int) -> None:
    for seed in range(DEEP_GAMES):
        check_random_game(
            GAME,
            {"players": players, "advanced": seed % 5 == 0},
            seed,
            check_state=check_conservation,
            deep=True,
        )


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("chunk", range(4))
def test_conformance_fast(players: int, chunk: int) -> None:
    per_chunk = FAST_GAMES // 4
    for seed in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        check_random_game(
            GAME,
            {"players": players, "advanced": seed % 7 == 0},
            10_000 + seed,
            check_state=check_conservation,
            deep=False,
        )


def test_conservation_check_catches_a_lost_card() -> None:
    s = Match(GAME, {"players": 4}, 1).state
    check_conservation(s)
    assert isinstance(s, FileirasState)
    s.coll[0][0] += 1
    with pytest.raises(AssertionError, match="not conserved"):
        check_conservation(s)


def _random_match(players: int, seed: int, stop_at: int | None = None) -> Match:
    return random_match(GAME, {"players": players}, seed, stop_at)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_record_replays_identically(players: int) -> None:
    m = _random_match(players, 42)
    assert check_replays(m)[0][0] == "*"  # set-up is recorded as chance events
    half = replay(m.record, upto=len(m.record.events) // 2)
    assert not half.is_terminal()


def test_observation_hides_nothing_but_the_order() -> None:
    m = _random_match(4, 5, stop_at=30)
    s = m.state
    views = [s.observation(p) for p in range(4)]
    spectator = s.observation(None)
    for p, view in enumerate(views):
        assert view["you"] == p
        assert view["legal_moves"] == s.legal_moves(p)
        same = {k: v for k, v in view.items() if k not in ("you", "legal_moves")}
        assert same == {k: v for k, v in spectator.items() if k not in ("you", "legal_moves")}
    assert "order" not in json.dumps(spectator)
    assert sum(spectator["deck"].values()) == spectator["deck_count"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_state_from_observation_is_exact(players: int) -> None:
    for seed in range(15):
        check_rebuilds(GAME, {"players": players}, seed)


def test_clone_is_independent() -> None:
    s = _random_match(3, 9, stop_at=20).state
    twin = s.clone()
    p = twin.actors()[0]
    before = s.observation(None)
    for _ in range(5):
        if twin.is_terminal():
            break
        if twin.is_chance():
            twin.apply_chance(twin.chance_outcomes()[0][0])
        else:
            p = twin.actors()[0]
            twin.apply_move(p, twin.legal_moves(p)[-1])
    assert s.observation(None) == before
