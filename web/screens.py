"""The table's screens besides play: the set-up screen (start, resume, rematch) and the
dialogs a game shows on request (a player's details, the end screen, the rules drawer).

:class:`SetupScreen` and :class:`Screens` each belong to one table (their
:class:`SetupHost` and :class:`ScreensHost`); the dialogs themselves are drawn by
:mod:`.dialogs`, the set-up form by :mod:`.setup`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import js

from optimus.core.protocol import JSON, Game
from optimus.games import GameInfo
from optimus.i18n import _
from optimus.ui import table as ui
from optimus.ui.session import TableSession

from . import lesson, setup
from .dialogs import Dialogs
from .frame import Frame
from .links import Links
from .markup import Markup
from .router import found
from .storage import Saves
from .tab_guard import TabGuard
from .userbots import BotPicker


def new_seed() -> int:
    """A new game's seed (from the clock)."""
    return int(js.Date.now()) % 2_147_483_647


class SetupHost(Protocol):
    """What the set-up screen needs of the table."""

    root: Any
    error: str
    lead: str
    game: Game
    saves: Saves
    people: setup.People
    bot_picker: BotPicker
    tabs: TabGuard
    links: Links

    @property
    def session(self) -> TableSession | None: ...
    @session.setter
    def session(self, session: TableSession | None) -> None: ...
    @property
    def frame(self) -> Frame | None: ...
    @property
    def dialogs(self) -> Dialogs | None: ...
    @property
    def settings(self) -> dict[str, JSON]: ...
    @property
    def info(self) -> GameInfo: ...
    def stop_bots(self) -> None: ...
    def notify(self, notices: Sequence[str]) -> None: ...
    def seat_names(self, seats: Sequence[str]) -> list[str]: ...
    def setup_fields(self) -> Markup: ...
    def set_status(self, tone: str, text: str) -> None: ...
    def confirm(self, text: str, yes: str, on_yes: Callable[[], None]) -> None: ...
    def new_session(self, seed: int) -> TableSession: ...
    def start(self, session: TableSession) -> None: ...
    def start_with(self, session: TableSession) -> None: ...


class SetupScreen:
    """The set-up screen of one table (``host``), and the ways a game starts from it."""

    def __init__(self, host: SetupHost) -> None:
        self.host = host

    def show(self, elsewhere: bool = False) -> None:
        """The set-up screen (``elsewhere``: saying that the game is open in another tab,
        with "Play it here")."""
        host = self.host
        frame = host.frame
        dialogs = host.dialogs
        assert frame is not None and dialogs is not None
        host.stop_bots()
        host.session = None
        host.error = ""
        dialogs.close_all()  # "New game" from the end screen: its dialog must not stay open
        host.links.left()
        host.notify([])
        saved = host.saves.load()
        resume = Markup()
        if saved is not None:
            names = host.seat_names(saved.seats)
            notes = [n.say(names[n.seat]) for n in saved.notes]
            resume = setup.resume_html(notes, elsewhere)
        host.tabs.at_setup(saved is not None, elsewhere)
        frame.show_setup(
            setup.setup_html(
                host.saves.take_notices(),
                resume,
                _(host.lead) if host.lead else "",
                host.setup_fields(),
                host.bot_picker.html(),
                # today's challenge and Learn to play, one tap away (near the top)
                host.links.offer_html() + lesson.offer_html(host.info),
            )
        )
        host.bot_picker.decorate(frame.screen, host.settings)
        Frame.show_results(False)
        Frame.show_undo(False, False, "")
        if resume and elsewhere:
            host.set_status("wait", _(ui.OTHER_TAB))
        elif resume:
            host.set_status("wait", _("Resume your game, or start a new one."))
        else:
            host.set_status("wait", _("Choose the players, then start the game."))

    def ask_start(self) -> None:
        """ "Start": a new game with the settings chosen (replacing a saved one, once the
        person agrees); a name that cannot be used is said, its field focused."""
        host = self.host
        problem = setup.people_problem(host.settings, host.people)
        if problem is not None:
            host.set_status("error", problem)
            field: Any = (
                host.root.querySelector(".seat-name:not([hidden]) input") if host.root else None
            )
            if found(field):
                field.focus()
            return
        if host.saves.exists():
            host.confirm(
                _("Start a new game? The game in progress will be replaced."),
                _("Start a new game"),
                lambda: host.start_with(host.new_session(new_seed())),
            )
        else:
            host.start_with(host.new_session(new_seed()))

    def rematch(self) -> None:
        """The same seats and options, a new deal."""
        old = self.host.session
        if old is not None:
            self.host.start_with(
                TableSession(self.host.game, old.record.options, new_seed(), old.seats)
            )

    def resume(self) -> None:
        """Resume the saved game, once a tab playing it has given it up (its last move
        saved)."""
        self.host.tabs.take(self._resume_here)

    def _resume_here(self) -> None:
        if self.host.root is None:  # left while waiting for the other tab
            return
        saved = self.host.saves.load()
        if saved is not None:
            self.host.start(saved)
        else:
            self.show()


class ScreensHost(Protocol):
    """What the dialogs shown on request need of the table."""

    links: Links

    @property
    def session(self) -> TableSession | None: ...
    @property
    def dialogs(self) -> Dialogs | None: ...
    def view(self) -> Any: ...
    def panels(self, view: Any) -> Sequence[ui.Panel]: ...
    def panel_detail(self, view: Any, panel: ui.Panel) -> Markup: ...
    def end(self) -> ui.EndScreen: ...
    def score_icon(self, icon: str) -> str: ...
    def options_text(self, session: TableSession) -> str: ...
    def board(self) -> Any: ...


class Screens:
    """A player's details, the end screen and the rules drawer of one table (``host``)."""

    def __init__(self, host: ScreensHost) -> None:
        self.host = host

    def player(self, seat: int) -> None:
        host = self.host
        if host.session is None or host.dialogs is None:
            return
        view = host.view()
        panel = next((p for p in host.panels(view) if p.seat == seat), None)
        if panel is not None:
            host.dialogs.player(panel, host.panel_detail(view, panel))

    def end(self) -> None:
        host = self.host
        if host.session is not None and host.dialogs is not None:
            host.dialogs.end(host.end(), host.session.record.to_json(), host.score_icon)
            host.links.decorate_end()

    def rules(self) -> None:
        """The rules drawer, with the options of the game in progress."""
        host = self.host
        assert host.dialogs is not None
        session = host.session
        host.dialogs.rules(host.options_text(session) if session is not None else "")

    def see_table(self) -> None:
        """The end screen closed: the final table, the board focused."""
        assert self.host.dialogs is not None
        self.host.dialogs.close_end()
        self.host.board().focus()
