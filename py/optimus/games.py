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

from dataclasses import dataclass


@dataclass(frozen=True)
class GameInfo:
    """What the site needs to know of a game before loading its code.

    >>> GAMES["optimus2"].players
    (1, 4)
    >>> GAMES["fileiras"].rules_module
    'optimus.fileiras.game'
    """

    id: str
    """The game's one name: its route (``#/<id>``), package and files."""
    title: str
    """The name players know it by (the landing card, the page's title)."""
    lead: str
    """One sentence for its landing card."""
    players: tuple[int, int]
    """The fewest and the most players (the rules check the same)."""
    rules: str
    """Its :class:`~optimus.core.protocol.Game`, as ``"module:Class"``."""
    view: str
    """Its table in the page, as ``"module:Class"`` (a subclass of
    ``optimus_web.table.GameTable``)."""
    default_players: int = 0
    """The player count the set-up form starts with (0: the fewest)."""
    levels: tuple[str, ...] = ("easy", "normal", "hard")
    """The bot levels the set-up form offers, weakest first."""
    default_level: str = "normal"
    """The level a new bot seat starts at."""
    art: str = ""
    """The CSS class of its landing card's picture."""
    listed: bool = True
    """Whether the landing page shows it (its route works either way)."""

    @property
    def rules_module(self) -> str:
        return self.rules.partition(":")[0]

    @property
    def view_module(self) -> str:
        return self.view.partition(":")[0]

    @property
    def player_counts(self) -> range:
        """Every player count the game allows.

        >>> list(GAMES["fileiras"].player_counts)
        [2, 3, 4, 5]
        """
        return range(self.players[0], self.players[1] + 1)

    @property
    def first_players(self) -> int:
        return self.default_players or self.players[0]

    def archive_files(self) -> tuple[str, ...]:
        """The paths (in our wheel and web zip) of the archive fetched with the
        game: its package (or module) and its board's module.

        >>> GAMES["optimus"].archive_files()
        ('optimus/optimus/', 'optimus_web/optimus_view.py')
        """
        package = self.rules_module.rsplit(".", 1)[0]
        rules = f"{package.replace('.', '/')}/"
        return (rules, self.view_module.replace(".", "/") + ".py")


GAMES: dict[str, GameInfo] = {
    info.id: info
    for info in (
        GameInfo(
            id="optimus",
            title="Optimus",
            lead="Grid roll-and-write with colour and number dice.",
            players=(1, 6),
            rules="optimus.optimus.game:OptimusGame",
            view="optimus_web.optimus_view:OptimusView",
            art="art-grid",
        ),
        GameInfo(
            id="optimus2",
            title="Optimus 2",
            lead="Dice roll-and-write with a silver tray, five scoring areas, actions and foxes.",
            players=(1, 4),
            rules="optimus.optimus2.game:Optimus2Game",
            view="optimus_web.optimus2_view:Optimus2View",
            art="art-dice",
        ),
        GameInfo(
            id="fileiras",
            title="Fileiras",
            lead="Row-taking card game with colour sets.",
            players=(2, 5),
            rules="optimus.fileiras.game:FileirasGame",
            view="optimus_web.fileiras_view:FileirasView",
            art="art-rows",
        ),
        GameInfo(
            id="tiny",
            title="Tiny",
            lead="The smallest game that uses every part of the rules protocol.",
            players=(1, 4),
            rules="optimus.tiny.game:TinyGame",
            view="optimus_web.tiny_view:TinyView",
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
