"""A player's bot at the table: failures fall back to the normal bot for that decision,
logged; saves never load a bot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from optimus.core import userbots
from optimus.fileiras.game import FileirasGame
from optimus.ui.session import TableSession

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "greedy_bot.py"

BAD = (ROOT / "tests" / "fixtures" / "bad_bots.py").read_text()


@pytest.fixture
def bots() -> dict[str, str]:
    userbots.forget()
    example = userbots.load_file(str(EXAMPLE))
    bad = userbots.load_source("bad_bots.py", BAD)
    specs = userbots.register("fileiras", userbots.find_bots(example, bad))
    yield {spec.split(":")[1]: spec for spec in specs}
    userbots.forget()


def play_out(s: TableSession) -> None:
    while not s.state.is_terminal():
        seat = s.human_to_act()
        if seat is not None:
            s.play(seat, s.state.legal_moves(seat)[0])
        else:
            s.think(slice_ms=5)


def test_a_registered_bot_plays_a_whole_game_without_notes(bots):
    s = TableSession(FileirasGame(), {}, seed=2, seats=["human", bots["GreedyBot"], "easy"])
    assert type(s.bots[1]).__name__ == "GreedyBot" and s.guarded == {1}
    play_out(s)
    assert s.take_notes() == []


@pytest.mark.parametrize(
    ("bot", "problem"),
    [
        ("Raises", "failed while thinking (ValueError: my bug): the Normal bot played this move"),
        ("Illegal", "chose an illegal move (fly away): the Normal bot played this move"),
        ("Slow", "thought for more than 0.03 s: the Normal bot played this move"),
        ("NotAGenerator", "failed while thinking (TypeError"),
    ],
)
def test_a_failing_decision_is_made_by_the_normal_bot_and_noted(bots, bot, problem):
    s = TableSession(FileirasGame(), {}, seed=5, seats=[bots[bot], "easy"])
    decisions = 0
    while not s.state.is_terminal() and decisions < 3:
        if s.bot_to_act() == 0:
            before = len(s.record.events)
            while s.think(slice_ms=5) is None:
                pass
            assert len(s.record.events) > before  # the move was made, the game goes on
            decisions += 1
            notes = s.take_notes()
            assert [n.seat for n in notes] == [0] and problem in notes[0].text
        else:
            s.think(slice_ms=5)
    assert decisions == 3


def test_a_bot_that_cannot_start_leaves_its_seat_to_the_normal_bot(bots):
    s = TableSession(FileirasGame(), {}, seed=5, seats=["human", bots["BadStart"]])
    notes = s.take_notes()
    assert len(notes) == 1 and "could not start (RuntimeError: no)" in notes[0].text
    play_out(s)


def test_a_save_resumes_a_loaded_bot_and_never_loads_one(bots):
    s = TableSession(FileirasGame(), {}, seed=7, seats=["human", bots["GreedyBot"]])
    while s.human_to_act() is None:
        s.think()
    saved = s.save()
    assert json.loads(saved)["seats"][1] == "greedy_bot:GreedyBot"
    again = TableSession.load(FileirasGame(), saved)
    assert again.seats[1] == "greedy_bot:GreedyBot" and again.take_notes() == []
    userbots.forget()
    resumed = TableSession.load(FileirasGame(), saved)
    assert resumed.seats == ["human", "normal"]
    notes = resumed.take_notes()
    assert [n.seat for n in notes] == [1]
    assert "was your bot GreedyBot (greedy_bot), which is not loaded" in notes[0].text
    assert "the Normal bot plays it" in notes[0].text
    assert resumed.state.observation(None) == s.state.observation(None)


def test_a_save_naming_a_module_imports_nothing(bots):
    s = json.loads(TableSession(FileirasGame(), {}, seed=1, seats=["human", "easy"]).save())
    s["seats"] = ["human", "antigravity:Bot"]
    import sys

    resumed = TableSession.load(FileirasGame(), json.dumps(s))
    assert resumed.seats == ["human", "normal"] and "antigravity" not in sys.modules
