"""The page's side of the bot worker (web/botworker.py) in CPython: a stand-in web worker
answers with a real Host; one that never answers is terminated, and the next message
starts a fresh one, which the Client fills again with the page's files."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from optimus.core import userbots
from optimus.core.botworker import Ask, Client, Host, Stopped
from tests.webstub import page_module

ROOT = Path(__file__).resolve().parents[2]
BAD = ROOT / "tests" / "fixtures" / "bad_bots.py"
EXAMPLE = ROOT / "docs" / "examples" / "greedy_bot.py"


class Event:
    def __init__(self, data: str) -> None:
        self.data = data


class FakeWorker:
    """A web worker as the page sees it: postMessage in, message events out.  Its
    "Python" is a Host; a decision of a seat in ``hang`` is never answered."""

    made: list[FakeWorker] = []
    hang: set[int] = set()

    def __init__(self, script: str, options: object) -> None:
        self.script = script
        self.listeners: dict[str, Any] = {}
        self.host: Host | None = None
        self.terminated = False
        FakeWorker.made.append(self)

    def addEventListener(self, kind: str, listener: Any) -> None:  # noqa: N802 - the DOM's
        self.listeners[kind] = listener

    def postMessage(self, text: str) -> None:  # noqa: N802 - the DOM's
        message = json.loads(text)
        if self.host is None:
            assert message["game"] == "fileiras"
            self.host = Host()
            reply = {"booted": 12.5}
        elif message.get("op") == "decide" and message["seat"] in self.hang:
            return  # loops for ever
        else:
            reply = {**self.host.handle(message), "id": message["id"]}
        asyncio.get_event_loop().call_soon(self.listeners["message"], Event(json.dumps(reply)))

    def terminate(self) -> None:
        self.terminated = True


@pytest.fixture
def transport_module(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    module = page_module(monkeypatch, "botworker")
    fake_js = module.js

    class Worker:
        new = FakeWorker

    monkeypatch.setattr(fake_js, "Worker", Worker, raising=False)
    monkeypatch.setattr(module, "worker_config", lambda game: ("app/botworker.js", {"game": game}))
    FakeWorker.made.clear()
    FakeWorker.hang = set()
    userbots.forget()
    yield module
    userbots.forget()


def test_answers_come_by_message_and_a_silent_worker_is_terminated(transport_module):
    from optimus.core.record import Match
    from optimus.fileiras.game import FileirasGame

    transport = transport_module.WorkerTransport("fileiras")
    client = Client("fileiras", transport)
    state = Match(FileirasGame(), {"players": 2}, seed=1).state

    async def scenario() -> list[dict[str, Any]]:
        await client.load("bad_bots.py", BAD.read_bytes())
        await client.load("greedy_bot.py", EXAMPLE.read_bytes())
        replies = []
        for seat, spec in ((0, "bad_bots:Forever"), (1, "greedy_bot:GreedyBot")):
            ask = Ask(
                1, "fileiras", seat, spec, 1, None, state.observation(0), state.legal_moves(0)
            )
            replies.append(await client.decide(ask))
        return replies

    FakeWorker.hang = {0}
    # The wait is the real one (5 s): a shorter limit for this test.
    original = transport.send

    async def quick(message: dict[str, Any], limit_ms: float) -> dict[str, Any]:
        return await original(message, min(limit_ms, 50.0))

    transport.send = quick
    stopped, played = asyncio.run(scenario())
    assert stopped == {"stopped": 5.0}
    assert played["move"] in state.legal_moves(0)
    first, second = FakeWorker.made
    assert first.terminated and not second.terminated and transport.epoch == 1
    # The fresh worker got both files again before the other bot was seated there.
    assert second.host is not None and set(second.host.classes) >= {
        "bad_bots:Forever",
        "greedy_bot:GreedyBot",
    }
    assert type(second.host.bots[1]).__name__ == "GreedyBot"


def test_a_worker_that_cannot_boot_is_lost_in_words(transport_module, monkeypatch):
    class Refusing(FakeWorker):
        def postMessage(self, text: str) -> None:  # noqa: N802
            reply = {"failed": "OSError: app/table.zip.gz: HTTP 404"}
            asyncio.get_event_loop().call_soon(self.listeners["message"], Event(json.dumps(reply)))

    class Worker:
        new = Refusing

    monkeypatch.setattr(transport_module.js, "Worker", Worker, raising=False)
    client = Client("fileiras", transport_module.WorkerTransport("fileiras"))
    with pytest.raises(userbots.UserBotError, match="Your bots cannot run here: OSError: app/"):
        asyncio.run(client.load("greedy_bot.py", EXAMPLE.read_bytes()))


def test_stopped_is_what_send_raises_past_its_limit(transport_module):
    transport = transport_module.WorkerTransport("fileiras")
    FakeWorker.hang = {3}

    async def scenario() -> None:
        await transport.send({"op": "decide", "seat": 3, "observation": {}, "legal": []}, 20.0)

    with pytest.raises(Stopped):
        asyncio.run(scenario())
    assert FakeWorker.made[0].terminated and transport.epoch == 1


# -- issue 39, items 1 and 2: what a bot posts the page, and os._exit -------------------
NOT_OURS = [
    "[" * 8000 + "]" * 8000,  # deeper than any parser's stack
    "[" * 2000 + "]" * 2000,
    "not JSON at all",
    '{"id": 1, "move": "take 1", "extra": 1}',
    '{"id": 1, "move": ["take 1"]}',
    '{"id": 999, "move": "take 1"}',  # no such question
    '{"booted": 1}',  # not booting any more
    '{"id": 1, "slow": Infinity}',
    '"take 1"',
    "x" * 300_000,
    {"id": 1, "move": "take 1"},  # not text: a JavaScript object
]


def posting(before: object) -> type[FakeWorker]:
    """A worker whose bot, asked for a decision, first posts the page ``before``."""

    class Posting(FakeWorker):
        def postMessage(self, text: str) -> None:  # noqa: N802
            if json.loads(text).get("op") == "decide":
                loop = asyncio.get_event_loop()
                loop.call_soon(self.listeners["message"], Event(before))  # type: ignore[arg-type]
            super().postMessage(text)

    return Posting


def test_a_bot_that_posts_the_page_anything_but_an_answer_is_stopped_in_words(
    transport_module, monkeypatch
):
    from optimus.core.record import Match
    from optimus.fileiras.game import FileirasGame

    state = Match(FileirasGame(), {"players": 2}, seed=1).state
    ask = Ask(1, "fileiras", 0, "greedy_bot:GreedyBot", 1, None, state.observation(0), [])
    for before in NOT_OURS:
        FakeWorker.made.clear()
        monkeypatch.setattr(
            transport_module.js, "Worker", type("W", (), {"new": posting(before)}), raising=False
        )
        client = Client("fileiras", transport_module.WorkerTransport("fileiras"))

        async def scenario(client: Client = client) -> dict[str, Any]:
            await client.load("greedy_bot.py", EXAMPLE.read_bytes())
            return await client.decide(ask)

        reply = asyncio.run(scenario())
        assert reply == {"broke": "it sent the page a message that is not the game's"}, before
        assert FakeWorker.made[0].terminated, str(before)[:40]


def test_a_bot_whose_python_exits_is_said_to_have_exited_at_once(transport_module, monkeypatch):
    class Exiting(FakeWorker):
        """os._exit() in a bot: web/botworker.js answers {"exited": status}."""

        def postMessage(self, text: str) -> None:  # noqa: N802
            message = json.loads(text)
            if message.get("op") in ("load", "decide") and self.host is not None:
                reply = json.dumps({"exited": 3})
                asyncio.get_event_loop().call_soon(self.listeners["message"], Event(reply))
                return
            super().postMessage(text)

    monkeypatch.setattr(
        transport_module.js, "Worker", type("W", (), {"new": Exiting}), raising=False
    )
    client = Client("fileiras", transport_module.WorkerTransport("fileiras"))
    with pytest.raises(userbots.UserBotError) as refused:
        asyncio.run(client.load("bye.py", b"import os\nos._exit(3)\n"))
    assert str(refused.value) == "bye.py was stopped: its Python exited (os._exit, status 3)"
    assert FakeWorker.made[0].terminated


def test_a_broken_bot_gives_its_seat_to_the_normal_bot_for_good(transport_module) -> None:
    from optimus.core.botworker import LocalTransport
    from optimus.fileiras.game import FileirasGame
    from optimus.ui.session import TableSession

    client = Client("fileiras", LocalTransport())
    (spec,) = asyncio.run(client.load("greedy_bot.py", EXAMPLE.read_bytes()))
    session = TableSession(FileirasGame(), {}, seed=1, seats=[spec, "human"])
    while session.asking_seat() != 0:
        if session.human_to_act() is not None:
            session.play(1, session.state.legal_moves(1)[0])
        else:
            session.think()
    said = "its Python exited (os._exit, status 0)"
    assert session.answer(0, {"broke": said}) is None
    notes = [n.text for n in session.take_notes()]
    assert notes == [
        f"Seat 1 was stopped ({said}): the Normal bot played this move for it, and plays "
        "its moves from now on."
    ]
    assert 0 not in session.remote and session.asking() is None
