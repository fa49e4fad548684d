"""Undo and pass-and-play: taking decisions back, and the device handed from person to person.

:class:`Turns` belongs to one table (its :class:`Host`): the bar's Undo and Ctrl+Z
/ Cmd+Z are the one Undo: the steps of a move in progress first (the page's own:
Optimus's pencilled boxes, Optimus 2's chosen die), then the person's decisions, one
at a time, with the bots' answers and what was revealed after them
(:meth:`~optimus.ui.session.TableSession.undo`; taking back a reveal makes the game
practice, asked first), never across a hand-over; with several people at the
device, the table hides behind "Pass the device to Ana" whenever the next
decision is another person's, until that person takes the device
(docs/table.md, "Undo" and "Pass-and-play").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from optimus.i18n import _
from optimus.ui.session import A_STEP, BECOMES_PRACTICE, HANDING_OVER, TableSession

from .frame import Frame
from .router import found


class Shown(Protocol):
    """Whether the table shows a replay (nothing can be played, nor taken back)."""

    def read_only(self) -> bool: ...


class Host(Protocol):
    """What undo and the hand-over screen need of the table."""

    you: int | None
    error: str
    names: list[str]

    @property
    def links(self) -> Shown: ...
    @property
    def session(self) -> TableSession | None: ...
    @property
    def frame(self) -> Frame | None: ...
    def end_open(self) -> bool: ...
    def stop_bots(self) -> None: ...
    def kick(self) -> None: ...
    def reset_input(self) -> None: ...
    def move_in_progress(self) -> bool: ...
    def step_back(self) -> bool: ...
    def save(self) -> None: ...
    def render(self, moved: bool = False) -> None: ...
    def set_status(self, tone: str, text: str) -> None: ...
    def confirm(self, text: str, yes: str, on_yes: Callable[[], None]) -> None: ...
    def practice_started(self) -> None: ...


class Turns:
    """Undo and the hand-over screen of one table (``host``)."""

    def __init__(self, host: Host) -> None:
        self.host = host

    def undo(self) -> None:
        """Undo (the bar's button, Ctrl+Z): the last step of a move in progress (a
        pencilled box, a chosen die), else the person's last decision with what followed
        it (:meth:`~optimus.ui.session.TableSession.take_back`); the first time that
        takes back something revealed, it asks first (the game becomes practice).  When
        nothing can be taken back, the status line says why."""
        host = self.host
        session = host.session
        if session is None or host.you is None or host.frame is None:
            return  # (no frame: the table is not shown)
        if host.end_open() or session.state.is_terminal() or host.links.read_only():
            return
        if self.handing_over():
            host.error = _(HANDING_OVER)
            self.hand_over()
            return
        if host.step_back():
            return
        back = session.take_back(host.you)
        if not back.events:
            host.error = _(back.why)
            host.render()
            return
        if back.asks(session.practice):
            host.confirm(_(BECOMES_PRACTICE), _("Undo"), self.take_back)
            return
        self.take_back()

    def take_back(self) -> None:
        """Take back the person's last decision and what followed it; saved, drawn."""
        host = self.host
        session = host.session
        if session is None or host.you is None or host.frame is None:
            return
        practice = session.practice
        host.stop_bots()  # a bot thinking about the position taken back stops
        if session.undo(host.you) is None:
            return
        host.reset_input()
        host.error = ""
        host.save()
        if session.practice and not practice:
            host.practice_started()
        host.render(moved=True)
        host.kick()

    def undo_label(self) -> str:
        """What Undo takes back now, or why nothing (the button's name and tooltip, and
        what a press says when nothing can be taken back)."""
        host = self.host
        session = host.session
        if session is None or host.you is None:
            return ""
        if self.handing_over():
            return _(HANDING_OVER)
        if host.move_in_progress():
            return _(A_STEP)
        return _(session.take_back(host.you).words())

    def show_undo(self) -> None:
        """The bar's Undo: there while a game is played; marked unusable (but still
        pressable, to say why in the status line) when nothing can be taken back."""
        session = self.host.session
        playing = session is not None and not session.state.is_terminal()
        playing = playing and not self.host.links.read_only()  # a replay: no Undo
        can = playing and self.can_undo()
        label = self.undo_label() if playing else ""
        Frame.show_undo(playing, can, label, say=not self.handing_over())  # (its screen says it)

    def can_undo(self) -> bool:
        host = self.host
        session = host.session
        if session is None or host.you is None or self.handing_over():
            return False
        return host.move_in_progress() or session.take_back(host.you).events > 0

    def handing_over(self) -> bool:
        """Whether the next decision is another person's (the hand-over screen is up)."""
        session = self.host.session
        return session is not None and session.handing_over(self.host.you)

    def hand_over(self) -> bool:
        """Several people at the device: when the next decision is another person's,
        hide the table behind "Pass the device to Ana" (True while it is shown)."""
        host = self.host
        session = host.session
        frame = host.frame
        assert session is not None and frame is not None
        seat = session.human_to_act()
        if seat is None or not self.handing_over():
            frame.show_handover("", "", "")
            return False
        name = host.names[seat]
        frame.show_handover(
            _("Pass the device to {name}", name=name),
            # why the bar's Undo is off, in words (not only its tooltip)
            _("The table is hidden until {name} takes the device.", name=name)
            + " "
            + _(HANDING_OVER),
            _("I am {name}, show my table", name=name),
        )
        host.set_status("wait", _("Pass the device to {name}.", name=name))
        return True

    def take_over(self) -> None:
        """The next person took the device: their table, from their side."""
        host = self.host
        session = host.session
        if session is None:
            return
        seat = session.human_to_act()
        if seat is None or seat not in session.people:
            host.render()
            return
        host.you = seat
        session.holder = seat
        host.reset_input()
        host.error = ""
        host.render(moved=True)

    def keydown(self, event: Any) -> None:
        """Ctrl+Z / Cmd+Z: Undo (not while typing, nor in a dialog)."""
        if not (event.ctrlKey or event.metaKey) or event.shiftKey or event.altKey:
            return
        host = self.host
        if str(event.key).lower() != "z" or host.session is None or host.frame is None:
            return
        target = event.target
        if found(target) and hasattr(target, "closest"):
            if str(target.tagName) in ("INPUT", "TEXTAREA", "SELECT"):
                return
            if found(target.closest("dialog")):
                return
        event.preventDefault()
        self.undo()
