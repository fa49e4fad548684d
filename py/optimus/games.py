"""Every game of the site, described once.

A game is registered by one :class:`GameInfo` in :data:`GAMES`; everything
that needs a list of games reads it: the rules registry
(:mod:`optimus.core.registry`), the page's routes and views (``web/main.py``),
the landing cards and the build's archive split (``build.py``), the set-up
form (player counts and bot levels) and the conformance tests.  This module
imports nothing but the standard library: the page's boot reads it before
any game's code is fetched.

A game ``<id>`` lives in ``optimus/<id>/`` (``game.py`` its rules, ``bots.py``
its bots, ``view.py`` the data its board shows) and draws its board in
``web/<id>_view.py`` (styles in ``web/<id>.css``); docs/adding-a-game.md
walks through it with the tiny game.
"""

from __future__ import annotations

from typing import NamedTuple

from optimus.i18n import N_, _

PLAYERS_TEXT = N_("{fewest}-{most} players")
"""A game's player counts on its landing card."""
PLAY = N_("Play")
"""The landing card's button."""


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
        ),
        GameInfo(
            "optimus2",
            "Optimus 2",
            (1, 4),
            N_("Dice roll-and-write with a silver tray, five scoring areas, actions and foxes."),
            drawn_start=True,  # docs/rules/optimus2.md: the first player is a chance event
        ),
        GameInfo(
            "fileiras",
            "Fileiras",
            (2, 5),
            N_("Row-taking card game with colour sets."),
            default_players=3,
            drawn_start=True,  # docs/rules/fileiras.md: the starting player is random
        ),
        GameInfo(
            "tiny",
            "Tiny",
            (1, 4),
            N_("The smallest game that uses every part of the rules protocol."),
            levels=("random",),
            default_level="random",
            listed=False,
        ),
    )
}
"""Every game, in the landing page's order."""


def listed() -> list[GameInfo]:
    """The games the landing page shows, in its order."""
    return [info for info in GAMES.values() if info.listed]
