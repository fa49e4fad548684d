"""Protocol conformance, records and the rebuild from observations."""

from __future__ import annotations

import json

import pytest

from optimus.core.conformance import check_random_game
from optimus.core.protocol import GameError, OptionError, State
from optimus.core.record import Match, Record, replay
from optimus.core.registry import get_game
from optimus.core.rng import Rng
from optimus.optimus2.game import HAND, Optimus2Game, Optimus2State, state_from_observation
from tests.soak import soak_games

GAME = Optimus2Game()
FAST_GAMES = soak_games(1000)
"""Seeded random games per player count checked with deep=False (``OPTIMUS_SOAK_GAMES``
plays more: tests/soak.py)."""
DEEP_GAMES = 25
"""Of those, the first seeds are also checked with deep=True (views, refusals, clones)."""
CHUNKS = 4


def check_invariants(state: State) -> None:
    """Dice, choices and sheets stay within the rules after every event."""
    assert isinstance(state, Optimus2State)
    sd = state.sd
    assert state.picks <= sd.choices
    fields = sum(1 for x in state.loc if x == 1)
    assert fields <= sd.choices or state.phase == "simul"
    if state.phase == "choose":
        assert HAND in state.loc
    for sh in state.sheets:
        assert sh[sd.BN] <= len(sd.blue_bonus)
        assert sh[sd.GN] <= len(sd.green_mult) and sh[sd.PN] <= len(sd.pink_threshold)
        blue = sh[sd.BN + 1 : sd.BN + 1 + sh[sd.BN]]
        assert blue == sorted(blue, reverse=True), blue
        for a in range(3):
            assert 0 <= sh[sd.AU + a] <= sh[sd.AC + a] <= sd.action_slots[a]
        assert all(0 <= sh[sd.Y + c] <= 2 for c in range(len(sd.yellow_cells)))


def test_registry_finds_the_game() -> None:
    game = get_game("optimus2")
    assert isinstance(game, Optimus2Game)
    assert (game.min_players, game.max_players) == (1, 4)


def test_unknown_sheet_option_is_refused() -> None:
    with pytest.raises(OptionError, match="no sheet named 'moon'"):
        GAME.new_state({"players": 2, "sheet": "moon"})


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_conformance_deep(players: int) -> None:
    for seed in range(DEEP_GAMES):
        check_random_game(GAME, {"players": players}, seed, check_state=check_invariants)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_conformance_fast(players: int, chunk: int) -> None:
    per = FAST_GAMES // CHUNKS
    for seed in range(chunk * per, (chunk + 1) * per):
        check_random_game(GAME, {"players": players}, 10_000 + seed, deep=False)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_record_replays_identically(players: int) -> None:
    record = check_random_game(GAME, {"players": players}, 42, deep=False)
    played = Match(GAME, {"players": players}, 42, auto_chance=False)
    for who, what in record.events:
        if who == "*":
            played.state.apply_chance(what)
        else:
            played.play(int(who), what)
    again = replay(Record.from_json(record.to_json()))
    assert again.observation(None) == played.state.observation(None)
    assert again.scores() == played.state.scores()


@pytest.mark.parametrize("players", [1, 3])
@pytest.mark.parametrize("upto", [9, 40, 111, 222])
def test_state_from_observation_is_exact_outside_simultaneous_steps(
    players: int, upto: int
) -> None:
    record = check_random_game(GAME, {"players": players}, 7, deep=False)
    s = replay(record, upto=upto)
    assert isinstance(s, Optimus2State)
    seat = s.actors()[0] if s.actors() else 0
    obs = json.loads(json.dumps(s.observation(seat)))
    again = GAME.state_from_observation(obs, seat, Rng(1))
    if not s.simul or players == 1:
        for p in [None, *range(players)]:
            assert again.observation(p) == s.observation(p)
    assert again.legal_moves(seat) == s.legal_moves(seat)
    assert again.scores()[seat] == s.scores()[seat]


def test_rebuild_refuses_garbage() -> None:
    with pytest.raises(GameError, match="not an Optimus 2 observation"):
        state_from_observation({"sheet": "standard", "players": "x"})
