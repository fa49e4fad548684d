"""web/driver.py in CPython (tests/webstub.py): how the driver draws and thinks in turn."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from optimus.core.registry import get_game
from optimus.ui.session import TableSession
from tests.webstub import page_module


class Host:
    """A table that records what the driver asks of it."""

    you = 0
    error = ""

    def __init__(self, events: list[str]) -> None:
        self.events = events

    def speed(self) -> str:
        return "instant"

    def thinking(self) -> str:
        return "quick"

    def render(self, moved: bool = False) -> None:
        self.events.append("draw")

    def save(self) -> None:
        pass

    def capture(self, seat: int, move: str) -> Any:
        return None

    def animate(self, captured: Any, seat: int, move: str, ms: int) -> None:
        pass


@pytest.mark.parametrize("game", ["fileiras", "optimus2"])
def test_a_persons_move_is_drawn_once_and_the_bots_think_from_there(
    monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    """The person's move draws the table (the bot's turn included); the bots then think
    at once, without drawing the same table again (a drawing costs as much as a bot's
    decision, and on a phone more: docs/bots.md)."""
    driver = page_module(monkeypatch, "driver")
    monkeypatch.setattr(driver.js, "performance", SimpleNamespace(now=lambda: 0.0), raising=False)
    events: list[str] = []
    host = Host(events)
    session = next(
        s
        for seed in range(1, 50)
        if (s := TableSession(get_game(game), {}, seed, ["human", "normal"])).human_to_act() == 0
    )
    think = session.think

    def thinking(ms: float) -> str | None:
        events.append("think")
        return think(ms)

    monkeypatch.setattr(session, "think", thinking)
    d = driver.Driver(host)
    d.session = session

    async def play() -> None:
        while "think" not in events:  # the person's moves until a bot thinks after one
            events.clear()
            d.human_move(session.state.legal_moves(0)[0])
            await asyncio.sleep(0)
        while session.bot_to_act() is not None:
            await asyncio.sleep(0.001)
        for _ in range(50):  # the bots' loop draws once more when done, then ends
            await asyncio.sleep(0)

    asyncio.run(play())
    assert "think" in events, "a bot was to act after the person's move"
    assert events[: events.index("think")] == ["draw"]
    assert events[-1] == "draw", "the table is drawn when the bots are done"


@pytest.mark.parametrize("spent_ms", [0.0, 1000.0])
def test_quick_decisions_share_a_task_until_a_slice_is_spent(
    monkeypatch: pytest.MonkeyPatch, spent_ms: float
) -> None:
    """The bots give the page its turn back (a task ends) once ``SLICE_MS`` is spent, not
    after every move: while no time passes, a whole game of quick bots yields only around
    its drawings; when each move spends a slice, each move ends its task. Each slice of
    thinking gets what is left of its task's ``SLICE_MS``."""
    driver = page_module(monkeypatch, "driver")
    monkeypatch.setattr(driver.js, "performance", SimpleNamespace(now=lambda: 0.0), raising=False)
    monkeypatch.setattr(driver, "_spent_ms", lambda since: spent_ms)
    events: list[str] = []
    host = Host(events)
    session = TableSession(get_game("fileiras"), {}, 3, ["easy", "easy"])
    think = session.think
    slices: list[float] = []
    moves = 0

    def thinking(ms: float) -> str | None:
        nonlocal moves
        slices.append(ms)
        move = think(ms)
        moves += move is not None
        return move

    monkeypatch.setattr(session, "think", thinking)
    sleep = asyncio.sleep
    yields = 0

    async def counted(delay: float, result: Any = None) -> Any:
        nonlocal yields
        yields += 1
        return await sleep(delay, result)

    d = driver.Driver(host)
    d.session = session

    async def play() -> None:
        d.kick()
        await sleep(0)
        monkeypatch.setattr(driver.asyncio, "sleep", counted)
        while session.bot_to_act() is not None:
            await sleep(0.001)
        for _ in range(50):  # the bots' loop draws once more when done, then ends
            await sleep(0)

    asyncio.run(play())
    assert session.state.is_terminal() and moves > 20
    assert set(slices) == {driver.SLICE_MS - spent_ms}
    draws = events.count("draw")
    if spent_ms:
        assert yields >= moves - 1, (yields, moves)  # the first one's before counting
    else:
        assert yields <= 2 * draws < moves, (yields, draws, moves)
