"""A finished game watched again (py/optimus/ui/replay.py), for every game described."""

from __future__ import annotations

import json

import pytest

from optimus.core.protocol import RecordError
from optimus.core.registry import get_game
from optimus.games import GAMES, GameInfo
from optimus.ui import replay
from optimus.ui.session import HUMAN, TableSession


def finished(info: GameInfo, seed: int = 3) -> tuple[TableSession, dict[str, object]]:
    """A game of ``info`` played to its end by its weakest bots (the person's seat too)."""
    game = get_game(info.id)
    seats = [info.levels[0]] * info.players[0]
    session = TableSession(game, {}, seed, seats)
    while not session.state.is_terminal():
        session.think(slice_ms=50)
    data = json.loads(session.save())
    data["seats"] = [HUMAN, *seats[1:]]
    return session, data


@pytest.mark.parametrize("info", list(GAMES.values()), ids=list(GAMES))
def test_a_replay_steps_through_the_whole_game_and_ends_where_it_ended(info: GameInfo) -> None:
    session, data = finished(info)
    game = get_game(info.id)
    shown = replay.make(game, info, 4, data)
    assert shown.index == 4 and shown.seats[0] == HUMAN
    assert shown.step == shown.total == len(session.record.events)
    end = replay.session_at(game, shown)
    assert end.state.is_terminal()
    assert end.state.observation(None) == session.state.observation(None)
    start = shown.at(0)
    assert start.step == shown.stops[0]
    first = replay.session_at(game, start)
    assert not first.state.is_terminal() and not first.state.is_chance()
    assert first.human_to_act() is None  # nobody acts in a replay
    steps = [start.step]
    while steps[-1] != shown.total:
        steps.append(shown.at(steps[-1]).by(1).step)
    assert steps == list(shown.stops)
    assert shown.at(None).by(-1).step == shown.stops[-2]


@pytest.mark.parametrize("info", list(GAMES.values()), ids=list(GAMES))
def test_the_rounds_to_jump_to_are_those_the_description_counts(info: GameInfo) -> None:
    _session, data = finished(info)
    shown = replay.make(get_game(info.id), info, 0, data)
    if not info.step_mark:
        assert shown.rounds == ()
        return
    marks = [n for n, _k in shown.rounds]
    assert marks == sorted(set(marks)) and marks[0] == 1
    assert all(k in shown.stops for _n, k in shown.rounds)


def test_a_game_not_finished_or_badly_seated_is_no_replay() -> None:
    info = next(iter(GAMES.values()))
    game = get_game(info.id)
    _session, data = finished(info)
    events = data["events"]
    assert isinstance(events, list)
    with pytest.raises(ValueError):
        replay.make(game, info, 0, {**data, "events": events[:-1]})
    with pytest.raises(ValueError):
        replay.make(game, info, 0, {**data, "seats": [HUMAN, HUMAN, HUMAN][: info.players[0] + 1]})
    with pytest.raises(ValueError):
        replay.make(game, info, 0, {**data, "seats": "you"})
    with pytest.raises(RecordError):
        replay.make(game, info, 0, {**data, "events": [["*", "no such outcome"], *events]})
