"""The game bar's Hint: the move the coach's bot (``hard``) would make, drawn, not played.

:class:`CoachHint` belongs to one table (its :class:`Host`).  On the person's turn
(not during a bot's, on the hand-over screen, in a replay, at the end, nor while it
thinks) a press thinks with :class:`optimus.ui.hint.Hint` in slices of the bots'
``SLICE_MS``, the page's turns between them (web/driver.py), as a ``hard`` seat of
the table would; then the game is marked *assisted* (saved: Undo keeps it), the move
is drawn with the ``hint`` marks (web/move_marks.py) and the status line says why in
one line.  The person's next action (a move, a step of one, Undo) takes the marks
off; so does any change of the position.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Protocol

import js

from optimus.games import GAMES
from optimus.i18n import _
from optimus.ui.hint import NO_HINT_AFTER_BOT, Found, Hint

from . import move_marks
from .driver import SLICE_MS
from .hosts import SessionFacts
from .markup import css_string
from .motion import reveal
from .router import found
from .turns import Shown

HINT = ("hint",)
"""The hint's kind of marks (it leaves others' alone: a review's)."""
BARS = ".markbar, .o2controls"
"""The games' controls kept at the bottom of a phone's screen (they cover what is under)."""


class Host(SessionFacts, Protocol):
    """What the hint needs of the table."""

    you: int | None
    error: str
    game_id: str
    frame: Any

    @property
    def links(self) -> Shown: ...
    def board(self) -> Any: ...
    def move_targets(self, move: str, seat: int) -> list[str]: ...
    def move_words(self, move: str, seat: int) -> str: ...
    def end_open(self) -> bool: ...
    def handing_over(self) -> bool: ...
    def save(self) -> None: ...
    def render(self, moved: bool = False) -> None: ...


class CoachHint:
    """The Hint of one table (``host``)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.generation = 0
        """Bumped to stop a hint being thought (the person acted, a new game)."""
        self.thinking: Hint | None = None
        self.shown: tuple[Hint, Found, str] | None = None
        """The hint drawn: what it was asked for, what was found, its line."""

    # -- when it can be asked -------------------------------------------------------
    def offered(self) -> bool:
        """Whether the bar shows Hint: a game of a game with a coach is played here."""
        host = self.host
        session = host.session
        return (
            GAMES[host.game_id].coach is not None
            and session is not None
            and not session.state.is_terminal()
            and not host.links.read_only()
            and host.you is not None
        )

    def can(self) -> bool:
        """Whether a press asks for a hint now: the person's own turn, nothing thinking."""
        host = self.host
        session = host.session
        return (
            self.offered()
            and self.thinking is None
            and session is not None
            and session.human_to_act() == host.you
            and not host.end_open()
            and not host.handing_over()
        )

    def show_button(self) -> None:
        """The bar's Hint: there while a game is played; marked unusable (but still
        pressable, to say why in the status line) when no hint can be asked now."""
        tool = js.document.querySelector("#game-tools [data-action=hint]")
        if not found(tool):
            return
        offered, can = self.offered(), self.can()
        tool.hidden = not offered
        tool.setAttribute("aria-disabled", "false" if can else "true")
        tool.setAttribute("aria-busy", "true" if self.thinking is not None else "false")
        if self.thinking is not None:
            tool.title = _("The coach is thinking about a hint…")
        elif can:
            tool.title = _(
                "Hint: the move the strongest bot would make here, drawn on the table "
                "(the game is then marked assisted)"
            )
        else:
            tool.title = _(NO_HINT_AFTER_BOT)

    # -- asking -----------------------------------------------------------------------
    def press(self) -> None:
        """The bar's Hint: think (in slices) and draw the hint; when none can be asked,
        the status line says why."""
        host = self.host
        session = host.session
        if self.thinking is not None:
            return
        if not self.can() or session is None or host.you is None:
            if self.offered():
                host.error = _(NO_HINT_AFTER_BOT)
                host.render()
            return
        if self.current() is not None:
            self.draw()
            return
        self.generation += 1
        hint = Hint(session, host.you)
        self.thinking = hint
        host.render()
        asyncio.ensure_future(self._think(self.generation, hint))

    async def _think(self, generation: int, hint: Hint) -> None:
        """Slices of the hint's thinking, the page's turns between them; it stops when
        the person acts or the position changes."""
        steps = hint.run()
        result: Found | None = None
        try:
            while result is None:
                await asyncio.sleep(0)
                if generation != self.generation or not self._holds(hint):
                    steps.close()
                    return
                deadline = time.perf_counter() + SLICE_MS / 1000
                try:
                    while time.perf_counter() < deadline:
                        next(steps)
                except StopIteration as stop:
                    result = stop.value
        finally:
            if generation == self.generation:
                self.thinking = None
        host = self.host
        session = host.session
        if session is None or generation != self.generation or not self._holds(hint):
            return
        session.assisted = True  # saved: a resumed game stays assisted, Undo keeps it
        host.save()
        self.shown = (hint, result, self._line(hint, result))
        host.error = ""
        host.render()
        marked = host.board().querySelectorAll(move_marks.MARKED)
        if marked.length:  # where the move goes (its last place) comes into view
            reveal([marked.item(marked.length - 1)], BARS)

    def _holds(self, hint: Hint) -> bool:
        return hint.session is self.host.session and hint.current()

    def current(self) -> tuple[Hint, Found, str] | None:
        """The hint drawn, while its position is the one on the table."""
        if self.shown is not None and not self._holds(self.shown[0]):
            self.shown = None
        return self.shown

    def _line(self, hint: Hint, result: Found) -> str:
        """The hint's line: its label, the move in words where a control says it (a
        move that touches nothing else: pass, take no die), and why."""
        words = self.host.move_words(result.move, hint.seat).removesuffix(".")
        board = self.host.board()
        move = css_string(result.move)
        control = board.querySelector(f"button[data-move={move}]")  # a button says what it does
        if not found(control):
            control = board.querySelector(f"[data-move={move}]")
        if not words and found(control):
            words = str(control.getAttribute("aria-label") or control.textContent or "").strip()
        head = move_marks.label("hint")
        return f"{head}: {words}. {result.why()}" if words else f"{head}: {result.why()}"

    # -- drawing ------------------------------------------------------------------------
    def said(self) -> str:
        """What the status line adds: the hint's line, or that the coach thinks."""
        if self.thinking is not None and self._holds(self.thinking):
            return _("The coach is thinking about a hint…")
        shown = self.current()
        return shown[2] if shown is not None else ""

    def draw(self) -> None:
        """Draw the hint's marks on the board drawn now (after each drawing of the
        board, which takes them off what it changes); none when no hint is current."""
        board = self.host.board()
        shown = self.current()
        if shown is None:
            move_marks.clear(board, HINT)
            return
        hint, result, line = shown
        targets = self.host.move_targets(result.move, hint.seat)
        move_marks.draw(board, [move_marks.Mark("hint", result.move, targets, line)], HINT)

    def clear(self) -> None:
        """The person acted (or a new game began): the hint stops and its marks go."""
        if self.thinking is None and self.shown is None:
            return
        self.generation += 1
        self.thinking = None
        self.shown = None
        if self.host.frame is not None:
            move_marks.clear(self.host.board(), HINT)
        self.show_button()
