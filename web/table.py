"""A game page is a :class:`GameTable` (the shared table) plus its own board.

A subclass names its game (``game_id``: its title, player counts, bot levels
and own options come from :data:`optimus.games.GAMES`), gives its ``lead`` and
``rules``, and implements the board hooks of
:class:`~.game_page.GamePage`: ``view``, ``board_html`` and ``end_screen`` (its
view data's), and as needed ``new_session``, ``panel_summary``/``panel_detail`` and,
for its own animations, ``capture``/``animate`` (docs/table.md).  The rest is
shared, one job per module, each given the table through a small ``Protocol``:

- :mod:`.frame`: status line, game bar tools, set-up and play screens, panels,
  log, keeping focus; the board patched in place by keys (:mod:`.keyed`);
- :mod:`.driver`: the game in play, the person's moves and the bots' (in
  slices, paced, animated);
- :mod:`.turns`: undo, and the hand-over screen of pass-and-play;
- :mod:`.screens`: the set-up screen (start, resume, rematch), a player's details,
  the end screen, the rules drawer; :mod:`.dialogs` draws the dialogs;
- :mod:`.tab_guard`: one game, one tab (:mod:`.tabs`);
- :mod:`.saving`: the saves, and the notices when storage fails;
- :mod:`.setup`: the settings and the players' and seats' fields;
- :mod:`.storage`: settings and saves, kept even when storage is refused;
- :mod:`.motion`: pieces moving from where they were.

This class wires them: the router's ``mount``/``unmount``, one click and one
change listener.  Everything decided (speeds, settings validation, ranks, log
order, wording) lives in :mod:`optimus.ui.table`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import js
from pyodide.ffi import create_proxy

from optimus import i18n
from optimus.core.registry import get_game
from optimus.games import call
from optimus.i18n import _
from optimus.ui import table as ui
from optimus.ui.lesson import Run
from optimus.ui.session import TableSession

from . import setup
from .clicks import Clicks
from .dialogs import Dialogs, dialogs_html
from .driver import Driver
from .frame import Frame, log_html, panel_html, shell_html
from .game_page import GamePage
from .hints import Hints
from .lesson import Guide
from .links import Links
from .markup import join
from .motion import Rect, rect
from .router import found, when_idle
from .saving import Saving
from .screens import Screens, SetupScreen
from .storage import Saves, Storage
from .tab_guard import TabGuard
from .turns import Turns
from .userbots import BotPicker

__all__ = ["GameTable", "Rect", "Storage", "rect"]


class GameTable(GamePage):
    """A router view for one game: the shared table; subclasses draw their board."""

    # -- router hooks -----------------------------------------------------------
    def __init__(self) -> None:
        i18n.load("optimus.ui")  # the table's sentences, then the game's
        i18n.load(f"optimus.{self.game_id}")
        self.title = self.info.title
        self.game = get_game(self.game_id)
        offered = self.game.bot_levels()
        self.levels = [lv for lv in self.info.levels if lv in offered] or list(offered)[:1]
        """The bot levels of the set-up form, weakest first."""
        self.storage = Storage()
        self.form = setup.Settings(self.info, self.levels, self.storage)
        self.defaults = self.form.defaults
        self.choices = self.form.choices
        self.saves = Saves(self.storage, self.game, self.game_id, self.max_humans)
        self.saving = Saving(self, self.saves)
        self.driver = Driver(self)
        self.bot_picker = BotPicker(self.game.name, self.choices, list(self.game.bot_levels()))
        self.bot_picker.on_added = lambda: self.bot_picker.decorate(self.root, self.settings)
        self._log = ui.LogNotes()
        self.people = setup.People(self.storage)
        """The names typed for the people at the device."""
        self.links = Links(self)
        self.turns = Turns(self)
        self.tabs = TabGuard(self)
        self.setup_screen = SetupScreen(self)
        self.screens = Screens(self)
        self.names: list[str] = []
        self.you: int | None = None
        self.error = ""
        """The reason a move was refused, said before the status line's sentence."""
        self.root: Any = None
        self.section: Any = None
        self.frame: Frame | None = None
        self.dialogs: Dialogs | None = None
        self.hints: Hints | None = None
        """A long press shows what a mark means (web/hints.py), while mounted."""
        self.guide: Guide | None = None
        """The guided game's bubble (Learn to play, web/lesson.py), while one is shown."""
        self.clicks = Clicks(self)
        self._click = create_proxy(self.clicks.click)
        self._keydown = create_proxy(self.turns.keydown)
        self._change = create_proxy(self.clicks.change)
        self._dragover = create_proxy(self.bot_picker.dragover)
        self._drop = create_proxy(self.bot_picker.drop)
        # The set-up form is never sent (Enter in a name field would reload the page);
        # in code, since the page's Content-Security-Policy refuses inline handlers.
        self._submit = create_proxy(lambda event: event.preventDefault())

    def mount(self, container: Any) -> None:
        self.section = js.document.getElementById("game")
        dialogs = dialogs_html(self.game_id, self.rules, self.speed(), self.thinking())
        container.innerHTML = shell_html(self.game_id, dialogs)
        self.root = container.firstElementChild
        self.frame = Frame(self.root)
        self.dialogs = Dialogs(self.root, self.game_id)
        Frame.mount_tools(bool(self.symbols()))
        for kind, listener in self._listeners():
            self.section.addEventListener(kind, listener)
        js.document.addEventListener("keydown", self._keydown)
        self.tabs.open(self.game_id, self.storage.persistent)
        self.hints = Hints(self.section)
        self.show_setup()
        when_idle(js.window, self.warm)

    def _listeners(self) -> list[tuple[str, Any]]:
        """The listeners on ``#game`` while the table is mounted."""
        return [
            ("click", self._click),
            ("change", self._change),
            ("dragover", self._dragover),
            ("drop", self._drop),
            ("submit", self._submit),
        ]

    def relabel(self) -> None:
        """Draw the table again in the language chosen now; a game in progress goes on
        where it was (a bot's turn starts again from the same position)."""
        container = self.root.parentElement if self.root is not None else None
        if container is None:
            return
        session = self.session
        shown = self.links.replay
        run = self.guide.run if self.guide is not None else None
        self.unmount()
        container.replaceChildren()
        self.mount(container)
        if shown is not None:
            self.links.show_replay(shown)
        elif session is not None:
            self.start(session)  # a finished game shows its end screen again
            if run is not None:  # the lesson goes on at its step
                self.guide = Guide(self, self.section, run)
                self.guide.update()

    def unmount(self) -> None:
        self.driver.stop()  # stops a running bot loop
        if self.section is not None:
            for kind, listener in self._listeners():
                self.section.removeEventListener(kind, listener)
        js.document.removeEventListener("keydown", self._keydown)
        self.tabs.close()
        self.leave_lesson()
        if self.hints is not None:
            self.hints.close()
            self.hints = None
        Frame.unmount_tools()
        self.root = None
        self.section = None
        self.frame = None
        self.dialogs = None

    # -- the parts' hosts: what the driver, turns, screens and saving ask of the table
    def set_status(self, tone: str, text: str) -> None:
        """The status line; a refused move's reason comes first."""
        assert self.frame is not None
        self.frame.set_status(tone, f"{self.error} {text}" if self.error else text)

    def save(self) -> None:
        self.saving.save()

    def notify(self, notices: Sequence[str]) -> None:
        self.saving.notify(notices)

    def show_setup(self, elsewhere: bool = False) -> None:
        self.leave_lesson()
        self.setup_screen.show(elsewhere)

    def stop_bots(self) -> None:
        self.driver.stop()

    def kick(self) -> None:
        self.driver.kick()

    def end_open(self) -> bool:
        return self.dialogs is not None and self.dialogs.end_open()

    def practice_started(self) -> None:
        """Something revealed was taken back: the game is practice (said in the bar)."""
        self.links.retitle()

    def seat_names(self, seats: Sequence[str]) -> list[str]:
        return self.people.seat_names(seats)

    # -- the game -------------------------------------------------------------------
    def start(self, session: TableSession) -> None:
        assert self.frame is not None and self.dialogs is not None
        self.leave_lesson()
        self.session = session
        self.you = ui.human_seat(session.seats)
        session.holder = self.you
        self.reset_input()
        self.names = self.seat_names(session.seats)
        self._log = ui.LogNotes()
        self.error = ""
        self.driver.stop()
        self.dialogs.close_all()
        self.links.left()
        self.links.started(session)
        if self.links.replay is None:
            self.tabs.claim()  # a tab that was playing this game steps back
        Frame.show_results(False)
        self.frame.show_play()
        self.render(moved=True)
        self.driver.kick()

    def stop_play(self) -> None:
        """Stop the game in play (bots, dialogs, this tab's claim: watching is not
        playing) and show the play screen (for a replay)."""
        assert self.frame is not None and self.dialogs is not None
        self.driver.stop()
        self.dialogs.close_all()
        self.tabs.release()
        self.frame.show_play()

    def show_position(self, session: TableSession, seats: Sequence[str]) -> None:
        """Draw ``session`` (a replay's step: nobody acts in it) as seated by ``seats``."""
        self.session, self.you, self.names = session, ui.human_seat(seats), self.seat_names(seats)
        self._log = ui.LogNotes()
        self.render()

    def watching(self) -> bool:
        """Whether the table shows a replay: its board is drawn as nobody's decision (no
        die, target or button lights up; nothing thinks)."""
        return self.links.replay is not None

    def start_with(self, session: TableSession) -> None:
        self.session = session
        self.saving.new_game()  # a new game: a save that does not fit is said again
        self.save()
        self.start(session)

    def render(self, moved: bool = False) -> None:
        """Draw the current state; ``moved``: the player just acted (move focus on)."""
        session, frame = self.session, self.frame
        if session is None or self.root is None or frame is None or not found(frame.board()):
            return
        self.turns.show_undo()
        if self.turns.hand_over():
            return
        before = frame.focus_before()
        view = self.view()
        shown = self.links.replay
        status = ui.Status("replay", shown.said()) if shown is not None else self.status(view)
        self.set_status(status.tone, status.text)
        notes = [n.say(self.names[n.seat]) for n in session.take_notes()]
        frame.draw(
            self.board_html(view),
            join(panel_html(p, self.panel_summary(view, p)) for p in self.panels(view)),
            log_html(self._log.lines(self.log(view), notes)),
            read_only=self.links.read_only(),
        )
        if session.state.is_terminal() and self.links.replay is None:
            self.tabs.release()  # over: another tab may start a game
            frame.game_over()
            Frame.show_results(True)
            self.links.finished()
            self.screens.end()
        else:
            your_turn = session.human_to_act() is not None
            frame.focus_after(before, your_turn, moved, self.focus_order(view))
        if self.guide is not None:  # once focus has moved (the page may have scrolled)
            self.guide.update()

    def focus_first(self, selectors: Sequence[str]) -> None:
        """Focus the first control matching ``selectors`` (else the board)."""
        assert self.frame is not None
        self.frame.focus_first(selectors)

    # -- Learn to play ------------------------------------------------------------------
    def open(self, sub: str, query: str) -> None:
        """``learn``: the game's guided game (its lesson); else a deal, ``daily``, a replay."""
        if sub == "learn" and self.root is not None:
            js.window.history.replaceState(js.window.history.state, "", f"#/{self.game_id}")
            if self.saves.exists():
                self.confirm(
                    _("Start the guided game? The game in progress will be replaced."),
                    _("Learn to play"),
                    self.learn,
                )
            else:
                self.learn()
            return
        super().open(sub, query)

    def learn(self) -> None:
        """Start the game's guided game on its fixed deal (practice: never counted)."""
        if not self.info.lesson or self.root is None:
            return
        lesson = call(self.info.lesson)
        session = TableSession(self.game, dict(lesson.options), lesson.seed, lesson.seats)
        session.practice = session.lesson = True
        self.start_with(session)
        self.guide = Guide(self, self.section, Run(lesson))
        self.guide.update()

    def leave_lesson(self) -> None:
        if self.guide is not None:
            self.guide.close()
            self.guide = None

    def human_move(self, move: str) -> None:
        self.driver.human_move(move)

    def in_progress(self) -> bool:
        return self.driver.in_progress()

    # -- events ---------------------------------------------------------------------
    def actions(self) -> dict[str, Callable[[Any], None]]:
        dialogs = self.dialogs
        assert dialogs is not None
        screens, setup_screen, turns = self.screens, self.setup_screen, self.turns
        return {
            "start": lambda _t: setup_screen.ask_start(),
            "resume": lambda _t: setup_screen.resume(),
            "rules": lambda _t: screens.rules(),
            "settings": lambda _t: dialogs.settings(),
            "symbols": lambda _t: dialogs.symbols(
                [(self.symbol_html(s), s.meaning) for s in self.symbols()]
            ),
            "results": lambda _t: screens.end(),
            "close": lambda t: t.closest("dialog").close(),
            "confirm-no": lambda _t: dialogs.cancel(),
            "confirm-yes": lambda _t: dialogs.confirmed(),
            "player": lambda t: screens.player(int(t.getAttribute("data-seat"))),
            "rematch": lambda _t: setup_screen.rematch(),
            "new": lambda _t: self.show_setup(),
            "see-table": lambda _t: screens.see_table(),
            "take-back": lambda _t: turns.undo(),
            "handover": lambda _t: turns.take_over(),
            **self.links.actions(),
        }
