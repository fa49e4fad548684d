"""Learn to play in the page: the coach-mark bubble of a guided game (docs/coach.md).

:class:`Guide` belongs to one table while its lesson is shown (the steps and their
logic: :mod:`optimus.ui.lesson`).  After each drawing of the table it outlines the part
the step points at (``data-lesson-target``) and sets the bubble beside it, never over
it (:func:`.hints.place`, the long-press bubble's placement).  A tap on the board goes
through :meth:`Run.judge <optimus.ui.lesson.Run.judge>` first, in the capture phase:
the tap the step asks for goes on to the table (and the lesson with it); any other is
stopped and explained in the bubble.  The bubble is a non-modal dialog reached with
the keyboard (its buttons follow the table in the tab order); "Skip" leaves the
lesson, the game going on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import js
from pyodide.ffi import create_proxy, to_js

from optimus.games import GameInfo
from optimus.i18n import _
from optimus.ui import lesson as guide
from optimus.ui.lesson import Run
from optimus.ui.session import TableSession

from .hints import GAP, place
from .markup import Markup, css_string, html
from .router import found

TARGETS: Mapping[str, str] = {
    "status": "#game [data-role=status]",
    "panels": "#game [data-role=panels]",
    "score": '#game [data-role=panels] .panel[data-seat="0"] [data-role=score]',
    "log": "#game [data-role=log]",
    "undo": "#game-tools [data-action=take-back]",
}
"""The parts every table has, by the names a lesson's steps use (the person sits first);
a game's table adds its own (``GamePage.lesson_targets``) and ``move``, the element of
the step's move."""
FOLLOW_FRAMES = 60
"""For how many animation frames after a step is shown the bubble follows its part."""
MARK = "data-lesson-target"
"""The attribute of the part pointed at (outlined; a test taps it)."""


def selector(target: str, own: Mapping[str, str], moves: tuple[str, ...]) -> str:
    """The CSS selector of a step's ``target`` (``"name"`` or ``"name:argument"``), from
    the table's ``own`` names and the shared ones; "" when no name fits.

    >>> selector("die:y", {"die": "[data-face={}]"}, ())
    '[data-face="y"]'
    >>> selector("move", {}, ("take 1",))
    '#game [data-role=board] [data-move="take 1"]'
    >>> selector("undo", {}, ()), selector("nothing", {}, ())
    ('#game-tools [data-action=take-back]', '')
    """
    name, _sep, argument = target.partition(":")
    if name == "move" and moves:
        return f"#game [data-role=board] [data-move={css_string(moves[0])}]"
    pattern = own.get(name) or TARGETS.get(name, "")
    return pattern.format(css_string(argument)) if "{}" in pattern else pattern


def offer_html(info: GameInfo) -> Markup:
    """The set-up's way to the game's guided game (a game that has one)."""
    if not info.lesson:
        return Markup()
    return html(
        '<p class="learn-offer" data-role="learn-offer">{said} '
        '<a class="btn" href="#/{game}/learn">{go}</a></p>',
        said=_("New to {game}? A short guided game shows you how to play.", game=info.title),
        game=info.id,
        go=_(guide.LEARN),
    )


class Host(Protocol):
    """What the guide needs of its table."""

    lesson_targets: Mapping[str, str]

    @property
    def session(self) -> TableSession | None: ...
    def board(self) -> Any: ...


class Guide:
    """The lesson shown at one table (``host``): its bubble and its hold on the board's taps."""

    def __init__(self, host: Host, section: Any, run: Run) -> None:
        self.host = host
        self.section = section
        self.run = run
        self.said = ""
        """Why the last tap was stopped (English), until the step changes."""
        self.shown = -1
        """The step the bubble shows (a new one clears what was said)."""
        self.scrolled = -1
        """The step whose part was brought into view (once: then the person scrolls)."""
        doc = js.document
        bubble = doc.createElement("div")
        bubble.className = "lesson-bubble"
        bubble.setAttribute("role", "dialog")
        bubble.setAttribute("aria-modal", "false")
        bubble.setAttribute("aria-labelledby", "lesson-title")
        bubble.setAttribute("aria-describedby", "lesson-text")
        bubble.setAttribute("data-role", "lesson")
        bubble.innerHTML = (
            '<p class="lesson-head"><b id="lesson-title"></b> '
            '<span class="lesson-count" data-role="lesson-count"></span></p>'
            '<p class="lesson-text" id="lesson-text" data-role="lesson-text" tabindex="-1"></p>'
            '<p class="lesson-said" role="status" aria-live="polite" '
            'data-role="lesson-said"></p>'
            '<p class="lesson-buttons">'
            '<button type="button" class="btn primary" data-lesson="next"></button>'
            '<button type="button" class="btn" data-lesson="skip"></button></p>'
        )
        section.append(bubble)
        self.bubble = bubble
        self._click = create_proxy(self.click)
        self._place = create_proxy(lambda *_a: self.place())
        self._frame = create_proxy(self.follow)
        self.frames = 0
        """Animation frames left in which the bubble follows its part (a smooth scroll, a
        board drawn again: they move it without a scroll event of their own)."""
        section.addEventListener("click", self._click, True)
        js.document.addEventListener("scroll", self._place, True)  # the play box's too
        js.window.addEventListener("resize", self._place)

    def close(self) -> None:
        """Take the bubble and the listeners away (the lesson is over, or left)."""
        self.frames = 0
        self.section.removeEventListener("click", self._click, True)
        js.document.removeEventListener("scroll", self._place, True)
        js.window.removeEventListener("resize", self._place)
        self.unmark()
        self.bubble.remove()

    # -- drawing ----------------------------------------------------------------------
    def target(self) -> Any:
        """The element the step points at (None when it is not on the table now)."""
        step = self.run.step
        if step is None:
            return None
        css = selector(step.target, self.host.lesson_targets, step.moves)
        element = js.document.querySelector(css) if css else None
        if not found(element) or bool(getattr(element, "hidden", False)):
            return None
        return element

    def unmark(self) -> None:
        for element in js.document.querySelectorAll(f"[{MARK}]"):
            element.removeAttribute(MARK)

    def update(self) -> None:
        """After the table was drawn: Undo may have taken a lesson's move back; show the
        step (the bubble beside its part), or nothing once the lesson is over."""
        session = self.host.session
        if session is not None:
            self.run.undone(len(session.record.events))
        step = self.run.step
        self.unmark()
        if step is None or session is None:
            self.bubble.hidden = True
            return
        if self.run.index != self.shown:
            self.shown = self.run.index
            self.said = ""
        waiting = step.kind != "read" and session.human_to_act() is None
        if session.state.is_terminal():
            self.bubble.hidden = True
            return
        q = self.bubble.querySelector
        q("#lesson-title").textContent = _(guide.LEARN)
        total = len(self.run.lesson.steps)
        q("[data-role=lesson-count]").textContent = _(
            guide.STEP_OF, n=self.run.index + 1, total=total
        )
        q("[data-role=lesson-text]").textContent = _(guide.WAIT_BOT) if waiting else _(step.text)
        q("[data-role=lesson-said]").textContent = _(self.said) if self.said else ""
        go = q("[data-lesson=next]")
        go.hidden = step.kind != "read"
        go.textContent = _(guide.PLAY_ON) if self.run.last else _(guide.NEXT)
        skip = q("[data-lesson=skip]")
        skip.textContent = _(guide.SKIP)
        skip.hidden = self.run.last
        self.bubble.setAttribute("data-step", str(self.run.index + 1))
        self.bubble.setAttribute("data-steps", str(total))
        self.bubble.setAttribute("data-lesson-move", step.moves[0] if step.moves else "")
        self.bubble.setAttribute("data-kind", "wait" if waiting else step.kind)
        self.bubble.hidden = False
        element = None if waiting else self.target()
        if element is not None:
            element.setAttribute(MARK, "")
            box = element.getBoundingClientRect()
            screen = float(js.window.innerHeight)
            away = float(box.top) < 0.1 * screen or float(box.bottom) > 0.7 * screen
            if away and self.scrolled != self.run.index:  # once a step: then the person's
                # to the middle: sticky bars (a phone's controls) cover the screen's bottom
                centre = {"block": "center", "inline": "nearest"}
                element.scrollIntoView(to_js(centre, dict_converter=js.Object.fromEntries))
            self.scrolled = self.run.index
        self.place()
        if self.frames <= 0:
            js.requestAnimationFrame(self._frame)
        self.frames = FOLLOW_FRAMES

    def follow(self, *_args: Any) -> None:
        """One animation frame of following the part pointed at."""
        self.frames -= 1
        if self.frames > 0 and self.bubble.isConnected:
            self.place()
            js.requestAnimationFrame(self._frame)

    def place(self) -> None:
        """The bubble beside the part pointed at (the status line's when it is not there)."""
        if self.bubble.hidden:
            return
        element = js.document.querySelector(f"[{MARK}]")
        if not found(element):
            element = js.document.querySelector(TARGETS["status"])
        if not found(element):
            return
        box = element.getBoundingClientRect()
        root = js.document.documentElement
        height, screen = float(self.bubble.offsetHeight), float(js.window.innerHeight)
        x, y = place(
            (float(box.left), float(box.top), float(box.right), float(box.bottom)),
            (float(self.bubble.offsetWidth), height),
            (float(root.clientWidth), screen),
        )
        y = max(GAP, min(y, screen - height - GAP))  # a part scrolled away: still in sight
        self.bubble.style.left = f"{x:.0f}px"
        self.bubble.style.top = f"{y:.0f}px"

    # -- taps -------------------------------------------------------------------------
    def click(self, event: Any) -> None:
        """A tap anywhere in the game (capture phase): the bubble's own buttons, or a tap
        on the board judged by the step (stopped and explained when it is not the one)."""
        origin = event.target
        if not found(origin) or not hasattr(origin, "closest"):
            return
        button = origin.closest("[data-lesson]")
        if found(button) and self.bubble.contains(button):
            self._stop(event)
            self.button(str(button.getAttribute("data-lesson")))
            return
        session = self.host.session
        board = self.host.board()
        if self.run.over or session is None or not found(board) or not board.contains(origin):
            return  # the game bar, the panels, a dialog: never held
        if session.human_to_act() is None or session.state.is_terminal():
            return
        control = origin.closest("[data-move], [data-action]")
        lit = found(control) and bool(board.contains(control))
        move = control.getAttribute("data-move") if lit else None
        element = self.target()
        on_target = element is not None and bool(element.contains(origin))
        events = len(session.record.events)
        verdict = self.run.judge(
            str(move) if found(move) and move else None, on_target, lit, events
        )
        if verdict.go:
            return  # the table draws again, and the bubble with it (update)
        self._stop(event)
        self.said = verdict.said
        self.update()
        said = self.bubble.querySelector("[data-role=lesson-said]")
        said.classList.remove("again")
        said.offsetWidth  # noqa: B018 - restart the nudge's animation
        said.classList.add("again")

    def button(self, which: str) -> None:
        if which == "next":
            self.run.next()
        elif which == "skip":
            self.run.skip()
        self.update()
        if self.run.over:
            self.host.board().focus()
        else:
            self.bubble.querySelector("[data-lesson=next]:not([hidden]), #lesson-text").focus()

    @staticmethod
    def _stop(event: Any) -> None:
        event.preventDefault()
        event.stopPropagation()
