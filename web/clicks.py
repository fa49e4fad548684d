"""The table's one click listener and one change listener (on ``#game``).

:class:`Clicks` belongs to one table (its :class:`Host`): a ``data-move`` plays the
move for the person (while a game is played, not in a replay nor behind the end
screen); a ``data-action`` runs the table's action of that name, else the board's
own (``board_action``); the back link asks before leaving a game in progress; a
click on a dialog's backdrop closes it.  A change is a user bot picked, the replay
bar's round, a person's name, or a setting of the set-up form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

import js

from optimus.i18n import _
from optimus.ui.session import TableSession

from . import setup
from .dialogs import Dialogs, backdrop_click
from .links import Links
from .router import found
from .userbots import BotPicker


class Host(Protocol):
    """What the listeners need of the table."""

    root: Any
    title: str
    links: Links
    bot_picker: BotPicker
    people: setup.People
    form: setup.Settings

    @property
    def session(self) -> TableSession | None: ...
    @property
    def dialogs(self) -> Dialogs | None: ...
    def in_progress(self) -> bool: ...
    def confirm(self, text: str, yes: str, on_yes: Callable[[], None]) -> None: ...
    def human_move(self, move: str) -> None: ...
    def actions(self) -> Mapping[str, Callable[[Any], None]]: ...
    def board_action(self, action: str, target: Any) -> bool: ...
    def acted(self) -> None: ...
    def setting_changed(self, key: str) -> None: ...


class Clicks:
    """The click and change listeners of one table (``host``)."""

    def __init__(self, host: Host) -> None:
        self.host = host

    def click(self, event: Any) -> None:
        host = self.host
        origin = event.target
        if not found(origin) or not hasattr(origin, "closest") or host.dialogs is None:
            return
        if str(origin.tagName) == "DIALOG":
            # A click on the backdrop closes a drawer or a small dialog (not the end screen).
            if backdrop_click(origin, event) and origin.getAttribute("data-role") != "end":
                origin.close()
            return
        menu = origin.closest("[popover]:popover-open")
        if found(menu) and found(origin.closest("button, a")):
            menu.hidePopover()  # the game bar's "⋯" menu: a tool chosen in it
        target = origin.closest("[data-move], [data-action], a.back")
        if not found(target):
            return
        if target.tagName == "A" and "back" in str(target.className):
            if host.in_progress():
                event.preventDefault()
                host.confirm(
                    _(
                        "Leave the table? Your game stays saved: open {game} again to resume it.",
                        game=host.title,
                    ),
                    _("Leave"),
                    lambda: setattr(js.window.location, "hash", "#/"),
                )
            return
        playing = (
            host.session is not None and not host.dialogs.end_open() and host.links.replay is None
        )
        move = target.getAttribute("data-move")
        if found(move) and move:
            if playing:
                host.acted()
                host.human_move(str(move))
            return
        action = str(target.getAttribute("data-action"))
        handler = host.actions().get(action)
        if handler is not None:
            event.preventDefault()
            handler(target)
        elif playing and host.board_action(action, target):
            event.preventDefault()
            host.acted()

    def change(self, event: Any) -> None:
        host = self.host
        target = event.target
        if not found(target) or host.bot_picker.picked(target) or host.links.changed(target):
            return
        if host.people.from_input(target):
            return
        key = host.form.from_input(target)
        if key is not None:
            if host.root is not None:
                setup.show_names(host.root, host.form)
            host.setting_changed(key)
