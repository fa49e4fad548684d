"""A player's bot at the table: failures fall back to the normal bot for that decision,
logged; saves never load a bot."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from optimus.core import userbots
from optimus.core.botworker import Client, LocalTransport
from optimus.fileiras.game import FileirasGame
from optimus.ui.session import TableSession

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "greedy_bot.py"

BAD = ROOT / "tests" / "fixtures" / "bad_bots.py"


def load(client: Client, path: Path) -> list[str]:
    return asyncio.run(client.load(path.name, path.read_bytes()))


@pytest.fixture
def bots() -> Iterator[dict[str, str]]:
    userbots.forget()
    client = Client("fileiras", LocalTransport())
    specs = load(client, EXAMPLE) + load(client, BAD)
    yield {spec.split(":")[1]: spec for spec in specs}
    userbots.forget()


def decide(s: TableSession, client: Client) -> str | None:
    """One step of the table as the page's driver takes it: a player's bot's decision
    asked of the worker (here in this process), else a slice of a built-in bot."""
    ask = s.asking()
    if ask is not None:
        move = s.answer(ask.seat, asyncio.run(client.decide(ask)))
        if move is not None:
            return move
    return s.think(slice_ms=5)


def play_out(s: TableSession, client: Client) -> None:
    while not s.state.is_terminal():
        seat = s.human_to_act()
        if seat is not None:
            s.play(seat, s.state.legal_moves(seat)[0])
        else:
            decide(s, client)


def test_a_registered_bot_plays_a_whole_game_in_the_worker_without_notes(bots):
    transport = LocalTransport()
    client = Client("fileiras", transport)
    s = TableSession(FileirasGame(), {}, seed=2, seats=["human", bots["GreedyBot"], "easy"])
    assert s.remote == {1: bots["GreedyBot"]}
    assert type(s.bots[1]).__name__ == "NormalBot"  # stands in only when the bot fails
    play_out(s, client)
    assert s.take_notes() == []
    # The fresh worker got the page's files first, then the bot was seated once.
    ops = [m["op"] for m in transport.sent]
    assert ops[:3] == ["load", "load", "seat"] and ops.count("seat") == 1
    assert set(ops[3:]) == {"decide"}
    assert type(transport.host.bots[1]).__name__ == "GreedyBot"


@pytest.mark.parametrize(
    ("bot", "problem"),
    [
        ("Raises", "failed while thinking (ValueError: my bug): the Normal bot played this move"),
        ("Illegal", "chose an illegal move (fly away): the Normal bot played this move"),
        ("Slow", "thought for more than 0.03 s: the Normal bot played this move"),
        ("NotAGenerator", "failed while thinking (TypeError"),
        ("Exits", "failed while thinking (SystemExit): the Normal bot played this move"),
    ],
)
def test_a_failing_decision_is_made_by_the_normal_bot_and_noted(bots, bot, problem):
    client = Client("fileiras", LocalTransport())
    s = TableSession(FileirasGame(), {}, seed=5, seats=[bots[bot], "easy"])
    decisions = 0
    while not s.state.is_terminal() and decisions < 3:
        if s.bot_to_act() == 0:
            before = len(s.record.events)
            while decide(s, client) is None:
                pass
            assert len(s.record.events) > before  # the move was made, the game goes on
            decisions += 1
            notes = s.take_notes()
            assert [n.seat for n in notes] == [0] and problem in notes[0].text
        else:
            s.think(slice_ms=5)
    assert decisions == 3
    assert 0 in s.remote  # the bot is asked again at its next decision


def test_a_bot_that_never_answers_is_stopped_and_the_normal_bot_takes_its_seat(bots):
    transport = LocalTransport(stop={0})
    client = Client("fileiras", transport)
    s = TableSession(FileirasGame(), {}, seed=5, seats=[bots["Forever"], bots["GreedyBot"]])
    play_out(s, client)
    notes = s.take_notes()
    assert [n.seat for n in notes] == [0]  # once: then the seat is the normal bot's
    assert notes[0].text == (
        "Seat 1 took too long (no answer within 5 s) and was stopped: the Normal bot "
        "played this move for it, and plays its moves from now on."
    )
    assert s.remote == {1: bots["GreedyBot"]}
    # The stopped worker's place was taken by a fresh one: the files loaded again, the
    # other bot seated again, and it played to the end there.
    assert transport.epoch == 1
    assert type(transport.host.bots[1]).__name__ == "GreedyBot"


def test_a_bot_that_cannot_start_leaves_its_seat_to_the_normal_bot(bots):
    client = Client("fileiras", LocalTransport())
    s = TableSession(FileirasGame(), {}, seed=5, seats=["human", bots["BadStart"]])
    play_out(s, client)
    notes = s.take_notes()
    assert len(notes) == 1 and "could not start (RuntimeError: no)" in notes[0].text
    assert s.remote == {}


def test_a_save_resumes_a_loaded_bot_and_never_loads_one(bots):
    s = TableSession(FileirasGame(), {}, seed=7, seats=["human", bots["GreedyBot"]])
    client = Client("fileiras", LocalTransport())
    while s.human_to_act() is None:
        decide(s, client)
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
