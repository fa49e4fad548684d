"""Every game of the site, described once.

A game is registered by one :class:`GameInfo` in :data:`GAMES`; everything
that needs a list of games, or to know something of one, reads it: the rules
registry (:mod:`optimus.core.registry`) and each game's rules class (its name,
title and player counts), the page's routes and views (``web/main.py``), the
landing cards and the build's archive split and catalogs (``build.py``,
``sitebuild/``), the set-up form (player counts, bot levels and the game's own
options), deal links and the daily challenge (:mod:`optimus.ui.deals`), the
records and replays, the command line, the lab and the conformance tests.  No
module outside a game's own package names a game.

This module imports nothing but the standard library: the page's boot reads it
before any game's code is fetched.  What needs a game's code (Optimus's sheet
choices, a daily challenge's options) is declared by the name of a function,
``"module:function"``, called only when needed (:func:`call`).

A game ``<id>`` lives in ``optimus/<id>/`` (``game.py`` its rules, ``bots.py``
its bots, ``view.py`` the data its board shows) and draws its board in
``web/<id>_view.py`` (styles in ``web/<id>.css``); docs/adding-a-game.md
walks through it with the tiny game.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, NamedTuple

from optimus.i18n import N_, _

PLAYERS_TEXT = N_("{fewest}-{most} players")
"""A game's player counts on its landing card."""
PLAY = N_("Play")
"""The landing card's button."""
TODAY = N_("Today's challenge")
"""The landing card's link to the game's daily challenge (a game that has one)."""
LEARN = N_("Learn to play")
"""The landing card's link to the game's guided game (a game that has one)."""


Value = bool | int | str
"""An option's value (what a game record keeps; JSON)."""


def call(name: str, *args: Any) -> Any:
    """Call the function named ``"module:function"`` (imported now, not at boot).

    >>> call("optimus.games:listed")[0].id in GAMES
    True
    """
    module, _sep, function = name.partition(":")
    return getattr(importlib.import_module(module), function)(*args)


class Option(NamedTuple):
    """One of a game's own options, as players choose it and a deal link spells it.

    A yes/no option (its choices ``(True, False)``) is a check box labelled
    ``label``, spelled ``1``/``0`` in a link; any other is a select headed by
    ``label``, each value shown as ``value_label`` says and spelled as its text.

    >>> bonuses = GAMES["optimus"].option("bonuses")
    >>> bonuses.default, bonuses.allowed(), bonuses.is_check
    (True, (True, False), True)
    """

    key: str
    """The option's name in a game record, a deal link and the saved settings."""
    default: Value
    """The value a new game starts with."""
    label: str
    """What players read (English, marked with ``N_``): a check box's sentence, or the
    word before a select."""
    choices: tuple[Value, ...] | str = (True, False)
    """The values allowed, or the ``"module:function"`` giving them when they need the
    game's code."""
    value_label: str = ""
    """``"module:function"`` giving a value's words on the form (a select's); "": the value."""
    link: str = ""
    """``"module:function"`` reading a link's text as a value (None: not one), where a link
    may name more than the choices (Optimus's ``random:N`` sheets); "": one of the choices."""
    command_line: str = ""
    """``"module:function"`` turning what ``python -m optimus arena --option`` gives into
    the value (Optimus: a sheet file read); "": the text as it is."""
    said: tuple[str, ...] = ()
    """How the options in use say it (the rules drawer), one text per choice in their
    order (English, marked with ``N_``; a yes/no option: on, then off); none: not said."""

    def allowed(self) -> tuple[Value, ...]:
        """The values allowed (called for when the game's code is there)."""
        if isinstance(self.choices, str):
            return tuple(call(self.choices))
        return self.choices

    @property
    def is_check(self) -> bool:
        """Whether it is a yes/no option (a check box)."""
        return self.choices == (True, False)

    def words(self, value: Any) -> str:
        """How the options in use say ``value`` (English; "" when not said).

        >>> advanced = GAMES["fileiras"].option("advanced")
        >>> advanced.words(True).startswith("advanced"), advanced.words("x")
        (True, '')
        """
        choices = self.choices if isinstance(self.choices, tuple) else ()
        known = [i for i, c in enumerate(choices) if c == value and type(c) is type(value)]
        return self.said[known[0]] if known and known[0] < len(self.said) else ""

    def read_link(self, text: str) -> Value | None:
        """The value a link's ``text`` stands for, None when it stands for none.

        >>> bonuses = GAMES["optimus"].option("bonuses")
        >>> bonuses.read_link("0"), bonuses.read_link("no")
        (False, None)
        """
        if self.link:
            value: Value | None = call(self.link, text)
            return value
        return {link_text(v): v for v in self.allowed()}.get(text)


def link_text(value: Value) -> str:
    """How a link spells an option's value (yes/no: ``1``/``0``).

    >>> link_text(True), link_text(False), link_text("harbour")
    ('1', '0', 'harbour')
    """
    if value is True:
        return "1"
    if value is False:
        return "0"
    return str(value)


class Daily(NamedTuple):
    """A game's daily challenge: the same deal for everyone on a day
    (:func:`optimus.ui.deals.daily`)."""

    bots: tuple[str, ...] = ()
    """The bot levels beside the person (none: solo)."""
    options: str = ""
    """``"module:function"`` giving the day's options from its seed ("": the defaults)."""


class Coach(NamedTuple):
    """How the coach rates a game's decisions (:mod:`optimus.core.review`)."""

    steps: tuple[float, float, float, float]
    """The points a decision may lose and still be *best* (a move the coach cannot tell
    from its own: its appraisal's noise), *good*, an *inaccuracy*, a *mistake* (more: a
    *blunder*), in the points of :attr:`level`'s appraisal."""
    level: str = "hard"
    """The bot level whose appraisal (:meth:`~optimus.core.bots.Bot.appraise`) values each
    decision: the strongest, so that a stronger bot makes a better coach."""


class GameInfo(NamedTuple):
    """What the site needs to know of a game before loading its code.

    A named tuple (immutable, typed) rather than a dataclass: the page's boot reads
    it, and a named tuple needs no module the boot would not import anyway.

    Where its code is follows from its id (every game is laid out alike): its
    rules are the class ``<Id>Game`` in ``optimus.<id>.game``, its board the
    class ``<Id>View`` in ``optimus_web.<id>_view``.

    >>> info = GAMES["optimus2"]
    >>> info.players, info.rules, info.view
    ((1, 4), 'optimus.optimus2.game:Optimus2Game', 'optimus_web.optimus2_view:Optimus2View')
    """

    id: str
    """The game's one name: its route (``#/<id>``), package, files and classes."""
    title: str
    """The name players know it by (the landing card, the page's title)."""
    players: tuple[int, int]
    """The fewest and the most players (the rules check the same)."""
    lead: str
    """One sentence for its landing card."""
    levels: tuple[str, ...] = ("easy", "normal", "hard")
    """The bot levels the set-up form offers, weakest first."""
    default_level: str = "normal"
    """The level a new bot seat starts at."""
    default_players: int = 0
    """The player count the set-up form starts with (0: the fewest)."""
    listed: bool = True
    """Whether the landing page shows it (its route works either way)."""
    drawn_start: bool = False
    """Whether its rules draw the starting player at random (the set-up says so, rather
    than "first (you start)"); else the first seat starts."""
    options: tuple[Option, ...] = ()
    """The game's own options, in the set-up form's order (beside players and seats)."""
    daily: Daily | None = None
    """Its daily challenge (None: it has none).  A game whose fewest players is more
    than one never has a solo one: its bots fill the seats up to the fewest."""
    translated: bool = True
    """Whether its words have catalogs (``optimus/<id>/messages.<lang>.po``); else it
    speaks English in every language."""
    solo_band: tuple[str, ...] = ()
    """The keys of a solo game's final observation that may name the rating band
    reached (the first one set counts; its words are in the game's catalog)."""
    step_mark: tuple[str, ...] = ()
    """The keys of an observation that count the game's rounds (or rolls): a replay's
    "Jump to" offers the first step of each."""
    coach: Coach | None = None
    """How its decisions are rated after a game (None: they are not)."""
    lesson: str = ""
    """``"module:function"`` giving its guided game, "Learn to play"
    (:class:`optimus.ui.lesson.Lesson`; "": none)."""
    bench: str = ""
    """``"module:function"`` giving the game's own speed figures (``{name_ms: ms}``, from
    the seconds to spend) that ``python -m optimus bench`` adds to its random games."""

    @property
    def rules(self) -> str:
        """Its :class:`~optimus.core.protocol.Game`, as ``"module:Class"``."""
        return f"optimus.{self.id}.game:{self.id.capitalize()}Game"

    @property
    def view(self) -> str:
        """Its table in the page (a subclass of ``optimus_web.table.GameTable``)."""
        return f"optimus_web.{self.id}_view:{self.id.capitalize()}View"

    @property
    def art(self) -> str:
        """The CSS class of its landing card's picture (web/style.css)."""
        return f"art-{self.id}"

    @property
    def player_counts(self) -> range:
        """Every player count the game allows.

        >>> list(GAMES["fileiras"].player_counts)
        [2, 3, 4, 5]
        """
        return range(self.players[0], self.players[1] + 1)

    def players_text(self) -> str:
        """Its player counts in words, in the language spoken now.

        >>> GAMES["fileiras"].players_text()
        '2-5 players'
        """
        return _(PLAYERS_TEXT, fewest=self.players[0], most=self.players[1])

    @property
    def first_players(self) -> int:
        return self.default_players or self.players[0]

    def option(self, key: str) -> Option:
        """Its own option ``key`` (KeyError when it has none)."""
        for option in self.options:
            if option.key == key:
                return option
        raise KeyError(key)

    def option_defaults(self) -> dict[str, Value]:
        """Its own options' defaults (what a game starts with unless chosen otherwise)."""
        return {o.key: o.default for o in self.options}

    def own_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The part of a game's ``options`` that are its own (as a deal link keeps them).

        >>> GAMES["fileiras"].own_options({"players": 3, "advanced": True})
        {'advanced': True}
        """
        return {o.key: options[o.key] for o in self.options if o.key in options}

    def solo_rating(self, observation: Any) -> str:
        """The solo rating band a final observation names (English; "" when none)."""
        if not isinstance(observation, dict):
            return ""
        return next((str(observation[k]) for k in self.solo_band if observation.get(k)), "")

    def step(self, observation: Any) -> int | None:
        """The round (or roll) an observation shows, None when it counts none."""
        if not isinstance(observation, dict):
            return None
        for key in self.step_mark:
            mark = observation.get(key)
            if isinstance(mark, int) and not isinstance(mark, bool) and mark > 0:
                return mark
        return None

    def daily_deal(self, seed: int) -> tuple[tuple[str, ...], dict[str, Value]] | None:
        """The bots and options of its daily challenge from the day's seed (None: none;
        options not named: their defaults)."""
        if self.daily is None:
            return None
        bots = self.daily.bots
        missing = self.players[0] - 1 - len(bots)
        if missing > 0:  # never a solo deal for a game of two or more
            bots = (*bots, *([self.default_level] * missing))
        options: dict[str, Value] = call(self.daily.options, seed) if self.daily.options else {}
        return bots, options

    def archive_files(self) -> tuple[str, ...]:
        """The paths (in our wheel and web zip) of the archive fetched with the
        game: its package and its board's module.

        >>> GAMES["optimus"].archive_files()
        ('optimus/optimus/', 'optimus_web/optimus_view.py')
        """
        return (f"optimus/{self.id}/", f"optimus_web/{self.id}_view.py")


GAMES: dict[str, GameInfo] = {
    info.id: info
    for info in (
        GameInfo(
            "optimus",
            "Optimus",
            (1, 6),
            N_("Grid roll-and-write with colour and number dice."),
            default_players=2,
            options=(
                Option(
                    "sheet",
                    "harbour",
                    N_("Sheet"),
                    choices="optimus.optimus.view:sheet_choices",
                    value_label="optimus.optimus.view:sheet_choice_label",
                    link="optimus.optimus.view:link_sheet",
                    command_line="optimus.optimus.game:sheet_from_command_line",
                ),
                Option(
                    "bonuses",
                    True,
                    N_("Colour bonuses (5 points for completing a colour first, 3 later)"),
                ),
            ),
            daily=Daily(options="optimus.optimus.view:daily_options"),
            solo_band=("solo_band",),
            step_mark=("roll",),
            coach=Coach(steps=(0.05, 0.25, 0.75, 2.0)),
            lesson="optimus.optimus.view_lesson:lesson",
            bench="optimus.optimus.generate:bench",
        ),
        GameInfo(
            "optimus2",
            "Optimus 2",
            (1, 4),
            N_("Dice roll-and-write with a silver tray, five scoring areas, actions and foxes."),
            drawn_start=True,  # docs/rules/optimus2.md: the first player is a chance event
            daily=Daily(),
            solo_band=("rating",),
            step_mark=("round",),
            coach=Coach(steps=(0.5, 2.0, 5.0, 12.0)),
            lesson="optimus.optimus2.view_lesson:lesson",
        ),
        GameInfo(
            "fileiras",
            "Fileiras",
            (2, 5),
            N_("Row-taking card game with colour sets."),
            default_players=3,
            drawn_start=True,  # docs/rules/fileiras.md: the starting player is random
            options=(
                Option(
                    "advanced",
                    False,
                    N_("Advanced scoring table (1, 4, 8, 7, 6, 5)"),
                    said=(
                        N_("advanced scoring table (1, 4, 8, 7, 6, 5)"),
                        N_("standard scoring table (1, 3, 6, 10, 15, 21)"),
                    ),
                ),
            ),
            daily=Daily(bots=("normal", "hard")),
            step_mark=("round",),
            coach=Coach(steps=(0.5, 1.0, 2.0, 4.0)),
            lesson="optimus.fileiras.view_lesson:lesson",
        ),
        GameInfo(
            "tiny",
            "Tiny",
            (1, 4),
            N_("The smallest game that uses every part of the rules protocol."),
            levels=("random",),
            default_level="random",
            listed=False,
            translated=False,  # the worked example speaks English only
        ),
    )
}
"""Every game, in the landing page's order."""


def listed() -> list[GameInfo]:
    """The games the landing page shows, in its order."""
    return [info for info in GAMES.values() if info.listed]
