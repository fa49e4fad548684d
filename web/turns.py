"""Undo and pass-and-play: taking decisions back, and the device handed from person to person.

:class:`Turns` belongs to one table (its :class:`Host`): the bar's Undo and Ctrl+Z
/ Cmd+Z take back the person's own decisions, one at a time
(:meth:`~optimus.ui.session.TableSession.undo`); with several people at the
device, the table hides behind "Pass the device to Ana" whenever the next
decision is another person's, until that person takes the device
(docs/table.md, "Undo" and "Pass-and-play").
"""

from __future__ import annotations

from typing import Any, Protocol

from optimus.i18n import _, ngettext
from optimus.ui.session import TableSession

from .frame import Frame
from .router import found


class Host(Protocol):
    """What undo and the hand-over screen need of the table."""

    you: int | None
    error: str
    names: list[str]

    @property
    def session(self) -> TableSession | None: ...
    @property
    def frame(self) -> Frame | None: ...
    def end_open(self) -> bool: ...
    def stop_bots(self) -> None: ...
    def kick(self) -> None: ...
    def reset_input(self) -> None: ...
    def save(self) -> None: ...
    def render(self, moved: bool = False) -> None: ...
    def set_status(self, tone: str, text: str) -> None: ...


class Turns:
    """Undo and the hand-over screen of one table (``host``)."""

    def __init__(self, host: Host) -> None:
        self.host = host

    def undo(self) -> None:
        """Take back the person's last decision (Undo, Ctrl+Z), if they can."""
        host = self.host
        session = host.session
        if session is None or host.you is None or host.frame is None:
            return  # (no frame: the table is not shown)
        if host.end_open() or not session.undoable(host.you):
            return
        host.stop_bots()  # a bot thinking about the position taken back stops
        session.undo(host.you)
        host.reset_input()
        host.error = ""
        host.save()
        host.render(moved=True)
        host.kick()

    def show_undo(self) -> None:
        """The bar's Undo: usable while the person can take a decision back."""
        session = self.host.session
        seat = self.host.you
        count = session.undoable(seat) if session is not None and seat is not None else 0
        playing = session is not None and not session.state.is_terminal()
        label = (
            ngettext(
                "Take back your last decision (one can be taken back)",
                "Take back your last decisions, one at a time ({n} can be taken back)",
                count,
            )
            if count
            else _("Nothing to take back: something was revealed or another player acted.")
        )
        Frame.show_undo(playing, count > 0, label)

    def hand_over(self) -> bool:
        """Several people at the device: when the next decision is another person's,
        hide the table behind "Pass the device to Ana" (True while it is shown)."""
        host = self.host
        session = host.session
        frame = host.frame
        assert session is not None and frame is not None
        seat = session.human_to_act()
        if len(session.people) < 2 or seat is None or seat == host.you:
            frame.show_handover("", "", "")
            return False
        name = host.names[seat]
        frame.show_handover(
            _("Pass the device to {name}", name=name),
            _("The table is hidden until {name} takes the device.", name=name),
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
