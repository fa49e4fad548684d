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
