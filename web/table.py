"""A game page is a :class:`GameTable` (the shared table) plus its own board.

A subclass names its game (``game_id``: its title, player counts, bot levels
and own options come from :data:`optimus.games.GAMES`), gives its ``lead`` and
``rules``, and implements the board hooks:
``view``, ``board_html`` and ``end_screen`` (its view data's), and as needed
``new_session``, ``panel_summary``/``panel_detail`` and, for its own animations,
``capture``/``animate`` (docs/table.md).  The
rest is shared, one job per module:

- :mod:`.frame`: status line, game bar tools, set-up and play screens, panels,
  log, keeping focus; the board patched in place by keys (:mod:`.keyed`);
- :mod:`.driver`: the game in play, the person's moves and the bots' (in
  slices, paced, animated);
- :mod:`.dialogs`: rules drawer, settings, confirmation, details, end screen;
- :mod:`.setup`: the settings and the players' and seats' fields;
- :mod:`.storage`: settings and saves, kept even when storage is refused;
- :mod:`.motion`: pieces moving from where they were.

This class wires them: the router's ``mount``/``unmount``, one click and one
change listener, the screens.  Everything decided (speeds, settings
validation, ranks, log order, wording) lives in :mod:`optimus.ui.table`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import js
from pyodide.ffi import create_proxy

from optimus import i18n
from optimus.core.protocol import JSON
from optimus.core.registry import get_game
from optimus.games import GAMES, GameInfo
from optimus.i18n import _, ngettext
from optimus.ui import table as ui
from optimus.ui.session import TableSession, is_person

from . import motion, setup
from .dialogs import Dialogs, backdrop_click, dialogs_html
from .driver import Driver
from .frame import Frame, log_html, panel_html, shell_html, show_notices
from .hints import Hints
from .links import Links
from .motion import Rect, rect
from .router import esc, found, when_idle
from .storage import Saves, Storage
from .tabs import OneTab
from .userbots import BotPicker

__all__ = ["GameTable", "Rect", "Storage", "esc", "rect"]


class GameTable:
    """A router view for one game: the shared table; subclasses draw their board."""

    game_id = ""
    """The game's id in :data:`optimus.games.GAMES` (its title, players and bot levels)."""
    lead = ""
    """One sentence on the set-up screen: what the game is about (English, marked with
    ``N_``: the table shows it with ``_``)."""
    rules: Sequence[str] = ()
    """The rules drawer's points, in order (HTML fragments, English marked with ``N_``:
    shown with ``_``), when the game has no how-to-play page for the drawer."""
    max_humans = 6
    """The most people a saved game may seat (pass-and-play: every seat)."""

    # -- hooks for the game page ---------------------------------------------
    def setup_fields(self) -> str:
        """The set-up form's fields (inputs carry ``data-setting="<key>"``): the players
        and their seats, then the game's own options as its description declares them."""
        return self.seat_fields() + setup.option_fields(
            self.info.options, self.settings, self.choices
        )

    def player_label(self, n: int) -> str:
        """The "Players" option for ``n`` players (a game may add what changes with it)."""
        return ngettext("{n} player", "{n} players", n)

    def setting_changed(self, key: str) -> None:
        """A setting changed on the set-up screen (by default: show the right number of seats)."""
        if key == "players" and self.root is not None:
            setup.show_seats(self.root, self.form)

    def new_session(self, seed: int) -> TableSession:
        """A new game with the settings chosen: the seats (``self.seats(seed)``) and the
        game's own options; no effect a player can see (the idle warm-up deals one
        nobody plays)."""
        return TableSession(self.game, self.chosen_options(), seed, self.seats(seed))

    def chosen_options(self) -> dict[str, JSON]:
        """The game's own options as the set-up form has them (its description's)."""
        return {o.key: self.settings[o.key] for o in self.info.options}

    def options_text(self) -> str:
        """The options in use, in words, for the rules drawer."""
        return ""

    def option_words(self, options: Mapping[str, Any]) -> list[str]:
        """How the options in use say each of the game's own ``options`` (as its
        description declares), in the language spoken; those not said are left out."""
        words = (o.words(options.get(o.key)) for o in self.info.options)
        return [_(text) for text in words if text]

    def view(self) -> Any:
        """The game's view data for the current state (passed to the hooks below)."""
        raise NotImplementedError

    def board_html(self, view: Any) -> str:
        """The board; legal targets carry ``data-move``, pieces a stable ``data-key``."""
        raise NotImplementedError

    def status(self, view: Any) -> ui.Status:
        """The status line (by default the view's ``status``)."""
        status: ui.Status = view.status
        return status

    def panels(self, view: Any) -> Sequence[ui.Panel]:
        """One panel per seat (by default the view's ``panels``)."""
        panels: Sequence[ui.Panel] = view.panels
        return panels

    def panel_summary(self, view: Any, panel: ui.Panel) -> str:
        """HTML under a compact panel (what the player collected or marked)."""
        return ""

    def panel_detail(self, view: Any, panel: ui.Panel) -> str:
        """HTML of a player's details dialog (drawn only when it opens)."""
        return ""

    def log(self, view: Any) -> list[str]:
        """The log's sentences, newest first (by default the view's ``log``)."""
        return list(view.log)

    end_screen: Callable[[Any, Sequence[str], int | None, Sequence[int]], ui.EndScreen]
    """The game's ``end_screen(observation, names, you, winners)`` (its view data's)."""

    def final_observation(self) -> Any:
        """What the end screen is made from (by default the public observation)."""
        assert self.session is not None
        return self.session.state.observation(None)

    def end(self) -> ui.EndScreen:
        """The end screen of the finished game."""
        session = self.session
        assert session is not None
        winners = session.state.outcome().winners
        you = self.you if len(session.people) < 2 else None  # several people: "Ana wins!"
        return self.end_screen(self.final_observation(), self.names, you, winners)

    def score_icon(self, icon: str) -> str:
        """HTML of a breakdown line's piece (``ScoreLine.icon``: a card, an area)."""
        return ""

    def focus_order(self, view: Any) -> Sequence[str]:
        """Selectors tried in order for the next sensible control on the player's turn."""
        return ("[data-move]",)

    def board_action(self, action: str, target: Any) -> bool:
        """A click on a board control with a ``data-action`` of the game's own.

        For steps that are not moves yet (pick a die, pencil a box, take a mark
        back): change the page's own state and ``render()``. Return True if handled.
        """
        return False

    def capture(self, seat: int, move: str) -> Any:
        """Before a move is drawn: remember where its pieces are (for ``animate``); by
        default where every travelling piece (``data-piece``) of the board is."""
        return motion.piece_rects(self.board())

    def animate(self, captured: Any, seat: int, move: str, ms: int) -> None:
        """After a move is drawn: move its pieces from where they were (``ms`` > 0); by
        default every travelling piece that moved flies from its old place."""
        if captured:
            motion.fly_moved(self.board(), captured, ms)

    # -- helpers for the game page ------------------------------------------------
    def seat_fields(self) -> str:
        """The "Players" select, your place, one bot level (or a person) per other seat."""
        players = {n: self.player_label(n) for n in self.info.player_counts}
        return setup.seat_fields(
            self.settings, players, self.levels, self.people, self.info.drawn_start
        )

    def seats(self, seed: int = 0) -> list[str]:
        """The bot levels chosen, in order, with the person at the place chosen (and
        ``"human:<name>"`` for each further person)."""
        return setup.seats(self.settings, seed, self.people)

    def reset_input(self) -> None:
        """Forget the page's own steps of a move not made yet (a pencilled box, a chosen
        die): a decision was taken back, or another person took the device."""

    def fly(self, element: Any, source: Rect | None, ms: int) -> None:
        motion.fly(element, source, ms)

    def send(self, pieces: Sequence[tuple[Rect, str]], destination: Any, ms: int) -> None:
        motion.send(self.root, pieces, destination, ms)

    def confirm(self, text: str, yes: str, on_yes: Callable[[], None]) -> None:
        assert self.dialogs is not None
        self.dialogs.confirm(text, yes, on_yes)

    def open(self, sub: str, query: str) -> None:
        """The router's rest of the address: a deal's link, ``daily``, ``replay/<n>``."""
        self.links.open(sub, query)

    def board(self) -> Any:
        """The board's element (while a game is shown)."""
        assert self.frame is not None
        return self.frame.board()

    @property
    def info(self) -> GameInfo:
        """The game's description (:data:`optimus.games.GAMES`)."""
        return GAMES[self.game_id]

    @property
    def session(self) -> TableSession | None:
        return self.driver.session

    @session.setter
    def session(self, session: TableSession | None) -> None:
        self.driver.session = session

    @property
    def settings(self) -> dict[str, JSON]:
        return self.form.values

    @settings.setter
    def settings(self, values: dict[str, JSON]) -> None:
        self.form.values = values

    def speed(self) -> str:
        return str(self.settings["speed"])

    def thinking(self) -> str:
        return str(self.settings["thinking"])

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
        self.driver = Driver(self)
        self.bot_picker = BotPicker(self.game.name, self.choices, list(self.game.bot_levels()))
        self.bot_picker.on_added = lambda: self.bot_picker.decorate(self.root, self.settings)
        self._log = ui.LogNotes()
        self.people = setup.People(self.storage)
        """The names typed for the people at the device."""
        self.links = Links(self)
        self.names: list[str] = []
        self.you: int | None = None
        self.error = ""
        """The reason a move was refused, said before the status line's sentence."""
        self.root: Any = None
        self.section: Any = None
        self.frame: Frame | None = None
        self.dialogs: Dialogs | None = None
        self.tabs: OneTab | None = None
        self.hints: Hints | None = None
        """A long press shows what a mark means (web/hints.py), while mounted."""
        """This tab's part in "one game, one tab" (while mounted)."""
        self.elsewhere = False
        """The set-up screen says the game is open in another tab."""
        self._click = create_proxy(self._on_click)
        self._keydown = create_proxy(self._on_keydown)
        self._change = create_proxy(self._on_change)
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
        Frame.mount_tools()
        self.section.addEventListener("click", self._click)
        self.section.addEventListener("change", self._change)
        self.section.addEventListener("dragover", self._dragover)
        self.section.addEventListener("drop", self._drop)
        self.section.addEventListener("submit", self._submit)
        js.document.addEventListener("keydown", self._keydown)
        self.tabs = OneTab(
            self.game_id, self.storage.persistent, self.taken_elsewhere, self.seen_elsewhere
        )
        self.hints = Hints(self.section)
        self.show_setup()
        when_idle(js.window, self._warm)

    def _warm(self, *_: Any) -> None:
        """Once the set-up screen is up, deal a game nobody sees: what a game's start
        computes once (its sheet's geometry, its bots' modules) is then ready, and the
        first game's opening is shorter (docs/bots.md, the longest task)."""
        try:
            self.new_session(0)
        except Exception as exc:  # the real start says what is wrong, in words
            js.console.warn(f"warming {self.game_id} up: {exc!r}")

    def relabel(self) -> None:
        """Draw the table again in the language chosen now; a game in progress goes on
        where it was (a bot's turn starts again from the same position)."""
        container = self.root.parentElement if self.root is not None else None
        if container is None:
            return
        session = self.session
        shown = self.links.replay
        self.unmount()
        container.replaceChildren()
        self.mount(container)
        if shown is not None:
            self.links.show_replay(shown)
        elif session is not None:
            self.start(session)  # a finished game shows its end screen again

    def unmount(self) -> None:
        self.driver.stop()  # stops a running bot loop
        if self.section is not None:
            self.section.removeEventListener("click", self._click)
            self.section.removeEventListener("change", self._change)
            self.section.removeEventListener("dragover", self._dragover)
            self.section.removeEventListener("drop", self._drop)
            self.section.removeEventListener("submit", self._submit)
        js.document.removeEventListener("keydown", self._keydown)
        if self.tabs is not None:
            self.tabs.close()
            self.tabs = None
        if self.hints is not None:
            self.hints.close()
            self.hints = None
        Frame.unmount_tools()
        self.root = None
        self.section = None
        self.frame = None
        self.dialogs = None

    # -- screens ------------------------------------------------------------------
    def set_status(self, tone: str, text: str) -> None:
        """The status line; a refused move's reason comes first."""
        assert self.frame is not None
        self.frame.set_status(tone, f"{self.error} {text}" if self.error else text)

    def save(self) -> None:
        """Save the game; when it no longer fits in storage, say so at once (above the
        table, until a save fits again)."""
        if self.session is None or (self.tabs is not None and self.tabs.taken):
            return  # another tab took the game: its save is that tab's now
        said = self.saves.save(self.session)
        if said is not None:
            self.notify([_(said)])
        elif not self.saves.failing:
            self.notify([])

    def notify(self, notices: Sequence[str]) -> None:
        """Sentences about the table itself (storage full, another tab) above it; none:
        the box goes."""
        if self.root is not None:
            show_notices(self.root, "table-notices", notices)

    def in_progress(self) -> bool:
        return self.driver.in_progress()

    def seat_names(self, seats: Sequence[str]) -> list[str]:
        people = sum(1 for kind in seats if is_person(kind))
        owner = ui.person_name(self.people.get("you")) if people > 1 else None
        return ui.seat_names(seats, owner)

    def show_setup(self, elsewhere: bool = False) -> None:
        """The set-up screen (``elsewhere``: saying that the game is open in another tab,
        with "Play it here")."""
        assert self.frame is not None and self.dialogs is not None
        self.driver.stop()
        self.session = None
        self.error = ""
        self.elsewhere = elsewhere
        self.dialogs.close_all()  # "New game" from the end screen: its dialog must not stay open
        self.links.left()
        self.notify([])
        saved = self.saves.load()
        resume = ""
        if saved is not None:
            names = self.seat_names(saved.seats)
            notes = [n.say(names[n.seat]) for n in saved.notes]
            resume = setup.resume_html(notes, elsewhere)
        if self.tabs is not None:
            self.tabs.release()
            if saved is not None and not elsewhere:
                self.tabs.ask()  # another tab playing it answers: seen_elsewhere
        self.frame.show_setup(
            setup.setup_html(
                self.saves.take_notices(),
                resume,
                _(self.lead) if self.lead else "",
                self.setup_fields(),
                self.bot_picker.html(),
            )
        )
        self.bot_picker.decorate(self.frame.screen, self.settings)
        Frame.show_results(False)
        Frame.show_undo(False, False, "")
        if resume and elsewhere:
            self.set_status("wait", _(ui.OTHER_TAB))
        elif resume:
            self.set_status("wait", _("Resume your game, or start a new one."))
        else:
            self.set_status("wait", _("Choose the players, then start the game."))

    def start(self, session: TableSession) -> None:
        assert self.frame is not None and self.dialogs is not None
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
        if self.tabs is not None and self.links.replay is None:
            self.tabs.claim()  # a tab that was playing this game steps back
        Frame.show_results(False)
        self.frame.show_play()
        self.render(moved=True)
        self.driver.kick()

    def stop_play(self) -> None:
        """Stop the game in play (its bots, its dialogs, this tab's claim: watching is
        not playing) and show the play screen (for a replay)."""
        assert self.frame is not None and self.dialogs is not None
        self.driver.stop()
        self.dialogs.close_all()
        if self.tabs is not None:
            self.tabs.release()
        self.frame.show_play()

    def show_position(self, session: TableSession, seats: Sequence[str]) -> None:
        """Draw ``session`` (a replay's step: nobody acts in it) as seated by ``seats``."""
        self.session = session
        self.you = ui.human_seat(seats)
        self.names = self.seat_names(seats)
        self._log = ui.LogNotes()
        self.render()

    def start_with(self, session: TableSession) -> None:
        self.session = session
        self.saves.failing = False  # a new game: a save that does not fit is said again
        self.save()
        self.start(session)

    def render(self, moved: bool = False) -> None:
        """Draw the current state; ``moved``: the player just acted (move focus on)."""
        session = self.session
        frame = self.frame
        if session is None or self.root is None or frame is None or not found(frame.board()):
            return
        self.show_undo()
        if self.hand_over():
            return
        before = frame.focus_before()
        view = self.view()
        status = self.status(view)
        self.set_status(status.tone, status.text)
        notes = [n.say(self.names[n.seat]) for n in session.take_notes()]
        frame.draw(
            self.links.read_only(self.board_html(view)),
            "".join(panel_html(p, self.panel_summary(view, p)) for p in self.panels(view)),
            log_html(self._log.lines(self.log(view), notes)),
        )
        if session.state.is_terminal() and self.links.replay is None:
            if self.tabs is not None:
                self.tabs.release()  # over: another tab may start a game
            frame.game_over()
            Frame.show_results(True)
            self.links.finished()
            self.show_end()
            return
        your_turn = session.human_to_act() is not None
        frame.focus_after(before, your_turn, moved, self.focus_order(view))

    def focus_first(self, selectors: Sequence[str]) -> None:
        """Focus the first control matching ``selectors`` (else the board)."""
        assert self.frame is not None
        self.frame.focus_first(selectors)

    def show_player(self, seat: int) -> None:
        if self.session is None or self.dialogs is None:
            return
        view = self.view()
        panel = next((p for p in self.panels(view) if p.seat == seat), None)
        if panel is not None:
            self.dialogs.player(panel, self.panel_detail(view, panel))

    def show_end(self) -> None:
        if self.session is not None and self.dialogs is not None:
            self.dialogs.end(self.end(), self.session.record.to_json(), self.score_icon)
            self.links.decorate_end()

    def show_rules(self) -> None:
        """The rules drawer, with the options of the game in progress."""
        assert self.dialogs is not None
        self.dialogs.rules(self.options_text() if self.session is not None else "")

    # -- the game -------------------------------------------------------------------
    def human_move(self, move: str) -> None:
        self.driver.human_move(move)

    def kick(self) -> None:
        self.driver.kick()

    def _ask_start(self) -> None:
        problem = setup.people_problem(self.settings, self.people)
        if problem is not None:
            self.set_status("error", problem)
            field = self.root.querySelector(".seat-name:not([hidden]) input") if self.root else None
            if found(field):
                field.focus()
            return
        if self.saves.exists():
            self.confirm(
                _("Start a new game? The game in progress will be replaced."),
                _("Start a new game"),
                lambda: self.start_with(self.new_session(_seed())),
            )
        else:
            self.start_with(self.new_session(_seed()))

    def _rematch(self) -> None:
        old = self.session
        if old is not None:
            self.start_with(TableSession(self.game, old.record.options, _seed(), old.seats))

    def _resume(self) -> None:
        if self.tabs is not None:  # once the tab playing it gave it up, its last move saved
            self.tabs.take(self._resume_here)
        else:
            self._resume_here()

    def _resume_here(self) -> None:
        if self.root is None:  # left while waiting for the other tab
            return
        saved = self.saves.load()
        if saved is not None:
            self.start(saved)
        else:
            self.show_setup()

    # -- events ---------------------------------------------------------------------
    def _on_click(self, event: Any) -> None:
        origin = event.target
        if not found(origin) or not hasattr(origin, "closest") or self.dialogs is None:
            return
        if str(origin.tagName) == "DIALOG":
            # A click on the backdrop closes a drawer or a small dialog (not the end screen).
            if backdrop_click(origin, event) and origin.getAttribute("data-role") != "end":
                origin.close()
            return
        target = origin.closest("[data-move], [data-action], a.back")
        if not found(target):
            return
        if target.tagName == "A" and "back" in str(target.className):
            if self.in_progress():
                event.preventDefault()
                self.confirm(
                    _(
                        "Leave the table? Your game stays saved: open {game} again to resume it.",
                        game=self.title,
                    ),
                    _("Leave"),
                    lambda: setattr(js.window.location, "hash", "#/"),
                )
            return
        playing = (
            self.session is not None and not self.dialogs.end_open() and self.links.replay is None
        )
        move = target.getAttribute("data-move")
        if found(move) and move:
            if playing:
                self.human_move(str(move))
            return
        action = str(target.getAttribute("data-action"))
        handler = self._actions().get(action)
        if handler is not None:
            event.preventDefault()
            handler(target)
        elif playing and self.board_action(action, target):
            event.preventDefault()

    def _actions(self) -> dict[str, Callable[[Any], None]]:
        dialogs = self.dialogs
        assert dialogs is not None
        return {
            "start": lambda _t: self._ask_start(),
            "resume": lambda _t: self._resume(),
            "rules": lambda _t: self.show_rules(),
            "settings": lambda _t: dialogs.settings(),
            "results": lambda _t: self.show_end(),
            "close": lambda t: t.closest("dialog").close(),
            "confirm-no": lambda _t: dialogs.cancel(),
            "confirm-yes": lambda _t: dialogs.confirmed(),
            "player": lambda t: self.show_player(int(t.getAttribute("data-seat"))),
            "rematch": lambda _t: self._rematch(),
            "new": lambda _t: self.show_setup(),
            "see-table": lambda _t: self._see_table(),
            "take-back": lambda _t: self.undo(),
            "handover": lambda _t: self.take_over(),
            **self.links.actions(),
        }

    def _see_table(self) -> None:
        assert self.dialogs is not None
        self.dialogs.close_end()
        self.board().focus()

    def _on_change(self, event: Any) -> None:
        target = event.target
        if not found(target) or self.bot_picker.picked(target) or self.links.changed(target):
            return
        if self.people.from_input(target):
            return
        key = self.form.from_input(target)
        if key is not None:
            if self.root is not None:
                setup.show_names(self.root, self.form)
            self.setting_changed(key)

    # -- one game, one tab ---------------------------------------------------------------
    def taken_elsewhere(self) -> None:
        """Another tab started or resumed this game: stop playing it here and say so."""
        if self.root is None:
            return
        if self.dialogs is not None:
            self.dialogs.close_all()
        self.show_setup(elsewhere=True)

    def seen_elsewhere(self) -> None:
        """Another tab plays the game this set-up screen offers to resume: say so."""
        if self.root is not None and self.session is None and not self.elsewhere:
            self.show_setup(elsewhere=True)

    # -- undo and pass-and-play -----------------------------------------------------
    def undo(self) -> None:
        """Take back the person's last decision (Undo, Ctrl+Z), if they can."""
        session = self.session
        if session is None or self.you is None or self.dialogs is None:
            return
        if self.dialogs.end_open() or not session.undoable(self.you):
            return
        self.driver.stop()  # a bot thinking about the position taken back stops
        session.undo(self.you)
        self.reset_input()
        self.error = ""
        self.save()
        self.render(moved=True)
        self.driver.kick()

    def show_undo(self) -> None:
        """The bar's Undo: usable while the person can take a decision back."""
        session = self.session
        seat = self.you
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
        session = self.session
        frame = self.frame
        assert session is not None and frame is not None
        seat = session.human_to_act()
        if len(session.people) < 2 or seat is None or seat == self.you:
            frame.show_handover("", "", "")
            return False
        name = self.names[seat]
        frame.show_handover(
            _("Pass the device to {name}", name=name),
            _("The table is hidden until {name} takes the device.", name=name),
            _("I am {name}, show my table", name=name),
        )
        self.set_status("wait", _("Pass the device to {name}.", name=name))
        return True

    def take_over(self) -> None:
        """The next person took the device: their table, from their side."""
        session = self.session
        if session is None:
            return
        seat = session.human_to_act()
        if seat is None or seat not in session.people:
            self.render()
            return
        self.you = seat
        session.holder = seat
        self.reset_input()
        self.error = ""
        self.render(moved=True)

    def _on_keydown(self, event: Any) -> None:
        """Ctrl+Z / Cmd+Z: Undo (not while typing, nor in a dialog)."""
        if not (event.ctrlKey or event.metaKey) or event.shiftKey or event.altKey:
            return
        if str(event.key).lower() != "z" or self.session is None or self.root is None:
            return
        target = event.target
        if found(target) and hasattr(target, "closest"):
            if str(target.tagName) in ("INPUT", "TEXTAREA", "SELECT"):
                return
            if found(target.closest("dialog")):
                return
        event.preventDefault()
        self.undo()


def _seed() -> int:
    return int(js.Date.now()) % 2_147_483_647
