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
        while session.bot_to_act() is None:  # the person's moves until a bot's turn
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
