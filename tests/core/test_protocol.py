"""The checked path, options and outcomes of the core protocol."""

from __future__ import annotations

import pytest

from optimus.core import IllegalMove, Match, OptionError, Outcome, play
from optimus.tiny.game import TinyGame


def started(players: int = 2, seed: int = 1) -> Match:
    return Match(TinyGame(), {"players": players}, seed)


def test_options_are_completed_with_defaults():
    assert TinyGame().normalize_options({"players": 3}) == {"players": 3, "rounds": 3}


def test_text_options_are_converted_to_the_default_type():
    assert TinyGame().normalize_options({"players": "2", "rounds": "5"})["rounds"] == 5


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"players": 9}, "1-4 players"),
        ({"colour": "red"}, "unknown option 'colour'"),
        ({"rounds": "many"}, "whole number"),
        ({"rounds": True}, "whole number"),
        ({"rounds": "²"}, "whole number"),
        ({"rounds": "١٢"}, "whole number"),  # other scripts' digits, which int() reads
        ({"rounds": "1_0"}, "whole number"),
        ({"rounds": "1" * 5000}, "whole number"),
    ],
)
def test_bad_options_are_refused_with_the_reason(options, fragment):
    with pytest.raises(OptionError, match=fragment):
        TinyGame().normalize_options(options)


def test_a_move_out_of_turn_is_refused_and_changes_nothing():
    m = started()
    active = m.state.actors()[0]
    before = m.state.observation(None)
    with pytest.raises(IllegalMove, match="not player"):
        play(m.state, 1 - active, "keep")
    assert m.state.observation(None) == before


def test_an_unknown_move_is_refused_with_the_legal_moves_listed():
    m = started()
    active = m.state.actors()[0]
    with pytest.raises(IllegalMove, match="'keep'"):
        play(m.state, active, "fly")


def test_a_nonexistent_seat_is_named():
    m = started()
    with pytest.raises(IllegalMove, match="no player 7"):
        play(m.state, 7, "keep")


def test_moves_wait_for_chance_events():
    m = Match(TinyGame(), {"players": 2}, 1, auto_chance=False)
    assert m.state.is_chance()
    with pytest.raises(IllegalMove, match="chance event"):
        play(m.state, 0, "keep")


def test_moves_after_the_end_are_refused():
    m = started(players=1)
    while not m.state.is_terminal():
        m.play(0, "keep")
    with pytest.raises(IllegalMove, match="over"):
        play(m.state, 0, "keep")


def test_outcome_shares_a_tie_and_uses_tie_breaks():
    assert Outcome.from_keys((3, 3), [(3,), (3,)]).winners == (0, 1)
    tie_broken = Outcome.from_keys((3, 3, 1), [(3, 0), (3, 2), (1, 5)])
    assert tie_broken.winners == (1,)
    assert tie_broken.ranks == (2, 1, 3)
