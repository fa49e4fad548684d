"""What a game page gives the table, and what the table offers it: the hooks and helpers.

:class:`GamePage` declares the board hooks with their defaults and the helpers a
page calls; :class:`~.table.GameTable` (the shared table, which wires the parts)
is one, and each game's page (``web/<id>_view.py``) subclasses that and
implements ``view``, ``board_html`` and ``end_screen``, plus what it needs of the
rest (docs/table.md, "Writing a game page").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import js

from optimus.core.protocol import JSON
from optimus.games import GAMES, GameInfo
from optimus.i18n import _, ngettext
from optimus.ui import table as ui
from optimus.ui.session import TableSession

from . import motion, setup
from .markup import Markup, css_string, html
from .motion import Rect

if TYPE_CHECKING:
    from optimus.core.protocol import Game

    from .dialogs import Dialogs
    from .driver import Driver
    from .frame import Frame
    from .links import Links


class GamePage:
    """A game's page: its id, lead, rules and own options, and its board's hooks."""

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
    lesson_targets: Mapping[str, str] = {}
    """The parts of its board a lesson's steps point at (``optimus/<id>/view_lesson.py``), by
    name: a CSS selector, where ``{}`` stands for the step's argument (``"die:y"``);
    the table's own parts (status line, panels, score, Undo) are web/lesson.py's."""

    # What the table sets up (GameTable.__init__, and ``mount`` for the page's elements)
    game: Game
    choices: dict[str, list[JSON]]
    """The values each of the game's own settings allows (the set-up form's)."""
    levels: list[str]
    form: setup.Settings
    people: setup.People
    driver: Driver
    links: Links
    names: list[str]
    you: int | None
    root: Any
    frame: Frame | None
    dialogs: Dialogs | None

    def player_label(self, n: int) -> str:
        """The "Players" option for ``n`` players (a game may add what changes with it)."""
        return ngettext("{n} player", "{n} players", n)

    def options_text(self, session: TableSession) -> str:
        """The options of ``session`` (the game in progress), in words, for the rules
        drawer."""
        return ""

    def view(self) -> Any:
        """The game's view data for the current state (passed to the hooks below)."""
        raise NotImplementedError

    def board_html(self, view: Any) -> Markup:
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

    def panel_summary(self, view: Any, panel: ui.Panel) -> Markup:
        """HTML under a compact panel (what the player collected or marked)."""
        return Markup()

    def panel_detail(self, view: Any, panel: ui.Panel) -> Markup:
        """HTML of a player's details dialog (drawn only when it opens)."""
        return Markup()

    def log(self, view: Any) -> list[str]:
        """The log's sentences, newest first (by default the view's ``log``)."""
        return list(view.log)

    end_screen: Callable[[Any, Sequence[str], int | None, Sequence[int]], ui.EndScreen]
    """The game's ``end_screen(observation, names, you, winners)`` (its view data's)."""

    def symbols(self) -> Sequence[ui.Symbol]:
        """Every symbol of the game's table with its meaning, in the language spoken (its
        view data's ``symbols()``), for the game bar's "Symbols"; none: no such entry."""
        return ()

    def symbol_html(self, symbol: ui.Symbol) -> Markup:
        """A symbol as the table draws it (``Symbol.piece``: a card, a die); by default
        its glyph as text."""
        return html('<span class="sym-glyph">{}</span>', symbol.glyph)

    def score_icon(self, icon: str) -> str:
        """HTML of a breakdown line's piece (``ScoreLine.icon``: a card, an area)."""
        return ""

    def focus_order(self, view: Any) -> Sequence[str]:
        """Selectors tried in order for the next sensible control on the player's turn."""
        return ("[data-move]",)

    def move_targets(self, move: str, seat: int) -> list[str]:
        """CSS selectors, inside the board, of what ``move`` of ``seat`` touches in the
        position shown now (web/move_marks.py draws a move there); each selector stands
        for its first match.  By default the control that plays it (``data-move``)."""
        del seat
        return [f"[data-move={css_string(move)}]"]

    def move_words(self, move: str, seat: int) -> str:
        """``move`` of ``seat`` in words, as advice (the hint's line), in the position shown
        now; "" where the control that plays it says it (its label, by default)."""
        return ""

    def board_action(self, action: str, target: Any) -> bool:
        """A click on a board control with a ``data-action`` of the game's own.

        For steps that are not moves yet (pick a die, pencil a box, take a mark
        back): change the page's own state and ``render()``. Return True if handled.
        """
        return False

    def reset_input(self) -> None:
        """Forget the page's own steps of a move not made yet (a pencilled box, a chosen
        die): a decision was taken back, or another person took the device."""

    def move_in_progress(self) -> bool:
        """Whether the person has taken steps of a move not made yet (the page's own:
        a pencilled box, a chosen die), which Undo takes back first."""
        return False

    def step_back(self) -> bool:
        """Undo's first reach: take back the last step of the move in progress and draw
        the table again; False when there is none (Undo then takes back a decision)."""
        return False

    # -- the hooks that read the table's state -----------------------------------------
    def setup_fields(self) -> Markup:
        """The set-up form's fields (inputs carry ``data-setting="<key>"``): the players
        and their seats, then the game's own options as its description declares them."""
        return self.seat_fields() + setup.option_fields(
            self.info.options, self.settings, self.choices
        )

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

    def option_words(self, options: Mapping[str, Any]) -> list[str]:
        """How the options in use say each of the game's own ``options`` (as its
        description declares), in the language spoken; those not said are left out."""
        words = (o.words(options.get(o.key)) for o in self.info.options)
        return [_(text) for text in words if text]

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
    def warm(self, *_: Any) -> None:
        """Once the set-up screen is up, deal a game nobody sees: what a game's start
        computes once (its sheet's geometry, its bots' modules and networks) is then
        ready, and the first game's opening is shorter (docs/bots.md, the longest task)."""
        try:
            self.new_session(0).warm()
        except Exception as exc:  # the real start says what is wrong, in words
            js.console.warn(f"warming {self.game_id} up: {exc!r}")

    def seat_fields(self) -> Markup:
        """The "Players" select, your place, one bot level (or a person) per other seat."""
        players = {n: self.player_label(n) for n in self.info.player_counts}
        return setup.seat_fields(
            self.settings, players, self.levels, self.people, self.info.drawn_start
        )

    def seats(self, seed: int = 0) -> list[str]:
        """The bot levels chosen, in order, with the person at the place chosen (and
        ``"human:<name>"`` for each further person)."""
        return setup.seats(self.settings, seed, self.people)

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
