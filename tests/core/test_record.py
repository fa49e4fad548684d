"""Records: JSON with a format version, exact replay, corrupt input refused."""

from __future__ import annotations

import json

import pytest

from optimus.core import Match, Record, RecordError, replay
from optimus.core.conformance import all_views
from optimus.tiny.game import TinyGame


def finished(seed: int) -> Match:
    m = Match(TinyGame(), {"players": 3, "rounds": 2}, seed)
    k = 0
    while not m.state.is_terminal():
        p = m.state.actors()[0]
        legal = m.state.legal_moves(p)
        m.play(p, legal[k % len(legal)])
        k += 1
    return m


def test_record_json_has_format_options_seed_and_events():
    data = json.loads(finished(4).record.to_json())
    assert data["format"] == 1 and data["game"] == "tiny" and data["seed"] == 4
    assert data["options"] == {"players": 3, "rounds": 2}
    assert any(ev[0] == "*" for ev in data["events"]) and any(ev[0] == 0 for ev in data["events"])


def test_replay_rebuilds_the_identical_state_at_every_prefix():
    m = finished(8)
    record = Record.from_json(m.record.to_json())
    assert all_views(replay(record)) == all_views(m.state)
    half = len(record.events) // 2
    assert replay(record, half).observation(None) != m.state.observation(None)


def test_same_seed_and_moves_give_the_same_chance_results():
    assert finished(11).record.events == finished(11).record.events
    assert finished(11).record.events != finished(12).record.events


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"format": 99}', "unsupported record format"),
        ('{"format": 1, "game": "tiny", "options": {}, "seed": "x", "events": []}', "seed"),
        ('{"format": 1, "game": "tiny", "options": {}, "seed": 1, "events": [[0]]}', "event 0"),
    ],
)
def test_corrupt_records_are_refused_with_the_reason(text, fragment):
    with pytest.raises(RecordError, match=fragment):
        Record.from_json(text)


def test_an_impossible_event_in_a_record_is_refused_with_its_index():
    record = finished(2).record
    bad = Record.from_dict({**record.to_dict(), "events": [["*", "9"]]})
    with pytest.raises(RecordError, match="event 0"):
        replay(bad)
    tampered = record.to_dict()
    tampered["events"][1] = [tampered["events"][1][0], "fly"]
    with pytest.raises(RecordError, match="event 1"):
        replay(Record.from_dict(tampered))


def test_records_of_unknown_games_or_bad_options_are_refused():
    with pytest.raises(RecordError, match="unknown game"):
        replay(Record(game="chess", options={}, seed=1))
    with pytest.raises(RecordError, match="players"):
        replay(Record(game="tiny", options={"players": 0}, seed=1))
