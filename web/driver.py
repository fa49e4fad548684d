"""Driving a game at the table: the person's moves and the bots', drawn and animated in turn.

:class:`Driver` holds the :class:`~optimus.ui.session.TableSession` in play.
A person's move goes through the checked path (an illegal move is refused
with the engine's reason, in words); bots think in slices of ``SLICE_MS`` so the page
never freezes (a player's own bot thinks in the bot worker, web/botworker.py), and
each action is saved, drawn, animated and paced by the speed setting.  What it draws
with is its :class:`Host` (the game's table).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any, Protocol

import js

from optimus.core.protocol import GameError
from optimus.i18n import _
from optimus.ui import table as ui
from optimus.ui.session import TableSession

from .botworker import client
from .motion import reduced_motion

SLICE_MS = 25.0
"""How long a bot thinks before the page gets control back."""


LONG_MS = 15.0
"""Stretches of the bots' turns this long or longer are kept with their time, so that
``python build.py bench-bots`` can say what the page's long tasks were made of."""


class Spent:
    """Where the bots' turns spend the page's time (ms): thinking, drawing, saving, and
    the longest single stretch of each; and pondering (thinking while a person decides);
    and the clock the bots of a wait share now (``clock``: the "Bots think" setting's, ms).

    Kept over the page's life and published as ``window.optimusBotTime`` (a JSON
    text) after each run of bot turns, for ``python build.py bench-bots`` and for
    anyone looking in the browser's console.
    """

    def __init__(self) -> None:
        self.ms = {"think": 0.0, "draw": 0.0, "save": 0.0, "ponder": 0.0, "moves": 0.0}
        self.long: list[tuple[str, float, float]] = []
        """The stretches of ``LONG_MS`` or more: kind, start (the page's clock, ms), ms."""
        self._since = 0.0

    def start(self) -> None:
        self._since = time.perf_counter()

    def add(self, kind: str) -> None:
        """Count the time since the last ``start``/``add`` as ``kind``."""
        now = time.perf_counter()
        ms = (now - self._since) * 1000
        self.ms[kind] += ms
        self.ms[f"longest {kind}"] = max(self.ms.get(f"longest {kind}", 0.0), ms)
        if ms >= LONG_MS and len(self.long) < 200:
            self.long.append((kind, round(js.performance.now() - ms, 1), round(ms, 1)))
        self._since = now

    def publish(self) -> None:
        js.window.optimusBotTime = json.dumps({k: round(v, 1) for k, v in self.ms.items()})
        js.window.optimusLongStretches = json.dumps(self.long)


SPENT = Spent()


def _spent_ms(since: float) -> float:
    """Milliseconds since ``since`` (a ``time.perf_counter()``)."""
    return (time.perf_counter() - since) * 1000


DRAW_EVERY_MS = 400.0
"""At "instant" speed, bots playing one after another have the table drawn after a
move only if this long has passed since it was last drawn (and once they are done):
drawing costs as much as a quick bot's decision, and a wait of the table's clock
(``WAIT_MS``) shows its progress once at most."""
DRAW_SHARE = 12.0
"""...and only if this many times the last drawing's cost has passed: on a slow device
(a phone, where drawing a table takes 50-60 ms and the page's layout and paint as much
again) drawing takes at most a twelfth of the bots' time."""


class Host(Protocol):
    """What the driver needs of the table it plays at."""

    you: int | None
    error: str

    def speed(self) -> str: ...
    def thinking(self) -> str: ...
    def render(self, moved: bool = False) -> None: ...
    def save(self) -> None: ...
    def capture(self, seat: int, move: str) -> Any: ...
    def animate(self, captured: Any, seat: int, move: str, ms: int) -> None: ...


class Driver:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.session: TableSession | None = None
        self.generation = 0
        """Bumped to stop a running bot loop (a new game, the set-up screen, leaving)."""
        self.pondering = False
        """Whether bots are thinking while a person decides (:meth:`kick`)."""
        self.draw_ms = 0.0
        """What the last drawing of the table took (ms): kept from each wait's thinking
        for the drawing at its end (:attr:`TableSession.reserve_ms`)."""

    def stop(self) -> None:
        self.generation += 1

    def in_progress(self) -> bool:
        return self.session is not None and not self.session.state.is_terminal()

    def kick(self) -> None:
        """Let the bots play until a person is to act (never blocking the page); then
        let the bots deciding in the same step think while the person decides."""
        if self.session is None:
            return
        thinking = self.host.thinking()  # the "Bots think" setting, read at each kick
        self.session.wait_ms = ui.THINKING.get(thinking, self.session.wait_ms)
        self.session.reserve_ms = self.draw_ms
        SPENT.ms["clock"] = self.session.wait_ms
        SPENT.publish()
        if self.session.bot_to_act() is not None:
            asyncio.ensure_future(self._bots(self.generation))
        else:
            self._ponder_soon()

    def _ponder_soon(self) -> None:
        if not self.pondering:
            self.pondering = True
            asyncio.ensure_future(self._ponder(self.generation))

    async def _ponder(self, generation: int) -> None:
        """Slices of :meth:`TableSession.ponder` while a person decides, the page's turns
        between them; it ends when nothing is left to think about or the person acts."""
        session = self.session
        try:
            while generation == self.generation and session is self.session:
                assert session is not None
                SPENT.start()
                more = session.ponder(SLICE_MS)
                SPENT.add("ponder")
                if not more:
                    return
                await asyncio.sleep(0)
        finally:
            self.pondering = False

    async def _bots(self, generation: int) -> None:
        session = self.session
        host = self.host
        assert session is not None
        # Whoever kicked the bots drew the table just before (a person's move, a new
        # game, an undo); later, it is drawn after a bot's move, its next turn included.
        drawn, last_draw, draw_ms = False, time.perf_counter(), 0.0
        # The page gets its turn back once a slice's time is spent, not after every
        # move: quick decisions share a task of ``SLICE_MS`` (each giving the page its
        # turn costs a phone a few ms, a wait's moves a tenth of it); a drawing has a
        # task of its own.
        task_from = time.perf_counter()
        while generation == self.generation and (seat := session.bot_to_act()) is not None:
            started = time.perf_counter()
            while (move := await self._decide(session, generation, task_from)) is None:
                await asyncio.sleep(0)  # give the page back between slices
                task_from = time.perf_counter()
                if generation != self.generation:
                    return
            instant = host.speed() == "instant"
            since = _spent_ms(last_draw)
            drawn = not instant or since >= max(DRAW_EVERY_MS, DRAW_SHARE * draw_ms)
            if drawn:
                await asyncio.sleep(0)  # the move is drawn in a task of its own
                if generation != self.generation:
                    return
            before = time.perf_counter()
            self.after_move(seat, move, lambda: None, draw=drawn)
            if drawn:
                last_draw = time.perf_counter()
                draw_ms = (last_draw - before) * 1000
            SPENT.ms["moves"] += 1
            pause = ui.bot_delay(host.speed(), reduced_motion()) - (time.perf_counter() - started)
            if pause > 0 or drawn or _spent_ms(task_from) >= SLICE_MS:
                await asyncio.sleep(max(0.0, pause))
                task_from = time.perf_counter()
        if generation == self.generation:
            if not drawn:
                await asyncio.sleep(0)  # the drawing at the end in a task of its own too
                if generation != self.generation:
                    return
                SPENT.start()
                before = time.perf_counter()
                host.render()
                self.draw_ms = (time.perf_counter() - before) * 1000
                SPENT.add("draw")
            SPENT.publish()
            self._ponder_soon()

    async def _decide(self, session: TableSession, generation: int, task_from: float) -> str | None:
        """One step of the bot to act: a player's bot's decision asked of the bot worker
        (awaited: the page goes on meanwhile), else a slice of a built-in bot's thinking:
        what is left of the task begun at ``task_from`` (``time.perf_counter()``) for
        ``SLICE_MS``, at least one step of the bot's."""
        ask = session.asking()
        if ask is not None:
            reply = await client(session.game.name).decide(ask)
            if generation != self.generation:  # a new game, an undo: the reply is stale
                return None
            move = session.answer(ask.seat, reply)
            if move is not None or session.asking() is not None:
                return move
        SPENT.start()
        move = session.think(SLICE_MS - _spent_ms(task_from))
        SPENT.add("think")
        return move

    def after_move(
        self, seat: int, move: str, apply: Callable[[], None], draw: bool = True
    ) -> None:
        """Apply a move (``apply``), save it and (``draw``) draw it, then animate its pieces."""
        host = self.host
        captured = None
        if draw:
            try:
                captured = host.capture(seat, move)  # the DOM still shows the state before it
            except Exception as exc:  # an animation must never break the game (but tests see it)
                js.console.error(f"animation skipped: {exc!r}")
        apply()
        SPENT.start()
        host.save()
        SPENT.add("save")
        if not draw:
            return
        before = time.perf_counter()
        host.render(moved=seat == host.you)
        self.draw_ms = (time.perf_counter() - before) * 1000
        SPENT.add("draw")
        speed = host.speed()
        ms = ui.animation_ms(speed, reduced_motion())
        if ms and speed != "instant":
            try:
                host.animate(captured, seat, move, ms)
            except Exception as exc:  # an animation must never break the game (but tests see it)
                js.console.error(f"animation skipped: {exc!r}")

    def human_move(self, move: str) -> None:
        """The person's move, checked; a refusal shows in the status line."""
        session = self.session
        host = self.host
        if session is None or session.state.is_terminal():
            return
        seat = session.human_to_act()
        if seat is None or (host.you is not None and seat != host.you):  # nobody acts for another
            host.error = _("Please wait: it is not your turn.")
            host.render()
            return
        host.error = ""
        try:
            self.after_move(seat, move, lambda: session.play(seat, move))
        except GameError as exc:
            host.error = ui.refusal(exc)  # the reason in words, never the move's notation
            host.render()
            return
        self.kick()
