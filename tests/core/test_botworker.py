"""The bot worker's messages (optimus.core.botworker), in CPython: the worker's side
(Host) answers every message in words whatever a player's code raises, and the page's
side (Client) loads files, seats bots and turns a stopped worker into an answer."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from optimus.core import userbots
from optimus.core.bots import Budget
from optimus.core.botworker import (
    Ask,
    Broke,
    Client,
    Host,
    LocalTransport,
    Stopped,
    read_reply,
    stop_ms,
)
from optimus.core.record import Match
from optimus.fileiras.game import FileirasGame

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "greedy_bot.py"
BAD = ROOT / "tests" / "fixtures" / "bad_bots.py"


@pytest.fixture(autouse=True)
def clean() -> Iterator[None]:
    userbots.forget()
    yield
    userbots.forget()


def through_json(host: Host, message: dict[str, object]) -> dict[str, object]:
    """A message as the page and the worker exchange it: JSON text both ways."""
    reply: dict[str, object] = json.loads(json.dumps(host.handle(json.loads(json.dumps(message)))))
    return reply


def load(host: Host, name: str, source: bytes) -> dict[str, object]:
    return through_json(host, userbots.BotFile(name, source).message())


@pytest.mark.parametrize(
    ("source", "refusal"),
    [
        (b"import sys\nsys.exit()\n", "exits_at_import.py, line 2: SystemExit"),
        (b"import sys\n\nsys.exit(3)\n", "exits_at_import.py, line 3: SystemExit: 3"),
        (b"raise KeyboardInterrupt\n", "exits_at_import.py, line 1: KeyboardInterrupt"),
        (b"X = 1\n", "exits_at_import.py defines no subclass of optimus.core.bots.Bot"),
    ],
)
def test_whatever_a_file_raises_at_import_is_a_refusal_in_words(source, refusal):
    reply = load(Host(), "exits_at_import.py", source)
    assert str(reply["refused"]).startswith(refusal), reply


def test_a_seated_bot_decides_and_every_failure_is_an_answer():
    host = Host()
    assert load(host, "bad_bots.py", BAD.read_bytes())["specs"] == [
        "bad_bots:Raises",
        "bad_bots:Illegal",
        "bad_bots:Slow",
        "bad_bots:NotAGenerator",
        "bad_bots:BadStart",
        "bad_bots:Exits",
        "bad_bots:Forever",
    ]
    state = Match(FileirasGame(), {"players": 2}, seed=1).state
    observation, legal = state.observation(0), state.legal_moves(0)

    def seat(bot: str, budget: object = None) -> dict[str, object]:
        message = {"op": "seat", "game": "fileiras", "seat": 0, "seed": 1, "budget": budget}
        return through_json(host, {**message, "spec": f"bad_bots:{bot}"})

    def decide() -> dict[str, object]:
        message = {"op": "decide", "seat": 0, "observation": observation, "legal": legal}
        return through_json(host, message)

    assert seat("BadStart") == {"error": "RuntimeError: no"}
    assert seat("Nope")["error"] == "Nope (bad_bots) is not loaded"
    assert seat("Exits") == {"limit_ms": 1500.0}
    assert decide() == {"error": "SystemExit"}
    assert decide() == {"error": "SystemExit"}  # the worker goes on
    assert seat("Raises") and decide() == {"error": "ValueError: my bug"}
    assert seat("Illegal") and decide() == {"move": "fly away"}  # the page checks it
    assert seat("Slow") == {"limit_ms": 30.0} and decide() == {"slow": 0.03}
    assert seat("Slow", {"time_ms": 4000, "iterations": None}) == {"limit_ms": 6000.0}
    assert seat("NotAGenerator") and decide()["error"] == (
        "TypeError: 'str' object is not an iterator"
    )
    assert host.handle({"op": "fly"}) == {"error": "unknown message 'fly'"}


def test_a_wheel_is_unpacked_and_imported_in_the_worker(tmp_path, monkeypatch):
    import io
    import zipfile

    from optimus.core import botworker

    monkeypatch.setattr(botworker, "WHEELS", str(tmp_path / "wheels"))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("workerwheel/__init__.py", EXAMPLE.read_text())
        archive.writestr("workerwheel-0.1.dist-info/METADATA", "Name: workerwheel\n")
    try:
        reply = load(Host(), "workerwheel-0.1-py3-none-any.whl", buffer.getvalue())
        assert reply == {"specs": ["workerwheel:GreedyBot"]}
    finally:
        import sys

        sys.path.remove(str(tmp_path / "wheels"))


def test_the_client_registers_a_files_bots_and_refuses_in_words():
    client = Client("fileiras", LocalTransport())
    assert asyncio.run(client.load("greedy_bot.py", EXAMPLE.read_bytes())) == [
        "greedy_bot:GreedyBot"
    ]
    file = userbots.registered("fileiras")["greedy_bot:GreedyBot"]
    assert file.name == "greedy_bot.py" and base64.b64decode(file.message()["data"]) == file.data
    with pytest.raises(userbots.UserBotError, match=r"bye.py, line 1: SystemExit: 2"):
        asyncio.run(client.load("bye.py", b"raise SystemExit(2)\n"))
    assert list(userbots.registered("fileiras")) == ["greedy_bot:GreedyBot"]


def test_a_file_that_loads_for_ever_is_stopped_and_refused():
    class Slowpoke(LocalTransport):
        async def send(self, message, limit_ms):  # type: ignore[no-untyped-def]
            if message.get("name") == "loop.py":
                assert limit_ms == 5000.0
                self.epoch += 1
                raise Stopped
            return await super().send(message, limit_ms)

    client = Client("fileiras", Slowpoke())
    with pytest.raises(userbots.UserBotError, match="loop.py did not finish loading within 5 s"):
        asyncio.run(client.load("loop.py", b"while True: pass\n"))
    assert userbots.registered("fileiras") == {}


def test_a_decision_is_waited_for_twice_the_bots_limit_and_at_least_5_s():
    waits: list[float] = []

    class Timing(LocalTransport):
        async def send(self, message, limit_ms):  # type: ignore[no-untyped-def]
            waits.append(limit_ms)
            return await super().send(message, limit_ms)

    client = Client("fileiras", Timing())
    asyncio.run(client.load("greedy_bot.py", EXAMPLE.read_bytes()))
    state = Match(FileirasGame(), {"players": 2}, seed=1).state
    ask = Ask(1, "fileiras", 0, "greedy_bot:GreedyBot", 1, Budget(time_ms=4000), {}, [])
    ask = Ask(**{**ask.__dict__, "observation": state.observation(0)})
    ask = Ask(**{**ask.__dict__, "legal": state.legal_moves(0)})
    reply = asyncio.run(client.decide(ask))
    assert reply["move"] in state.legal_moves(0)
    assert waits == [5000.0, 5000.0, 12000.0]  # load, seat, decide
    assert stop_ms(1500.0) == 5000.0


def test_every_answer_of_the_host_is_one_the_page_accepts_and_nothing_else_is() -> None:
    """The page checks what the worker posts (issue 39, item 1): all our own answers
    pass, as text; what a bot could post instead does not, whatever its depth or size."""
    host = Host()
    state = Match(FileirasGame(), {"players": 2}, seed=1).state
    answers = [
        load(host, "bad_bots.py", BAD.read_bytes()),
        load(host, "typo.py", b"class X(:\n"),
        host.handle({"op": "nonsense"}),
    ]
    for seat, spec in enumerate(["bad_bots:Raises", "bad_bots:Illegal", "bad_bots:Slow"]):
        answers.append(
            host.handle(
                {
                    "op": "seat",
                    "game": "fileiras",
                    "seat": seat,
                    "spec": spec,
                    "seed": 1,
                    "budget": None,
                }
            )
        )
        answers.append(
            through_json(
                host,
                {
                    "op": "decide",
                    "seat": seat,
                    "observation": state.observation(0),
                    "legal": state.legal_moves(0),
                },
            )
        )
    answers.append(
        host.handle(
            {
                "op": "seat",
                "game": "fileiras",
                "seat": 9,
                "spec": "nope:Nope",
                "seed": 1,
                "budget": None,
            }
        )
    )
    assert {next(iter(set(a) - {"id"})) for a in answers} >= {
        "specs",
        "refused",
        "error",
        "limit_ms",
        "move",
        "slow",
    }
    for n, answer in enumerate(answers):
        text = json.dumps({**answer, "id": n})
        assert read_reply(text) == {**answer, "id": n}
    for text in (
        '{"id": 1}',
        '{"id": true, "move": "x"}',
        '{"id": 1, "specs": [1]}',
        "[]",
        '{"id": 1, "move": "x", "error": "y"}',
        "[" * 50_000,
        7,
    ):
        with pytest.raises(Broke):
            read_reply(text)
