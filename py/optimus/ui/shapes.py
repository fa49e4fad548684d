"""The shapes the frame draws for every game: status line, panels, the end screen, the
symbols' legend.

A game's view data (``py/optimus/<id>/view.py``) fills them; ``web/frame.py`` and
``web/dialogs.py`` draw them.  Nothing here touches the browser.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Choice:
    """A move the person can make now, with the words on its button."""

    move: str
    label: str


@dataclass(frozen=True)
class Symbol:
    """A symbol of a game's table and what it means (the game bar's "Symbols" screen).

    A game's view data declares its symbols once (``symbols()``, in the language
    spoken); the page draws ``piece`` as the table draws it (``symbol_html``), else
    ``glyph`` as text."""

    glyph: str
    """The symbol as text (``▲``, ``★``, ``+2``)."""
    meaning: str
    """What it means, in the player's language."""
    piece: str = ""
    """What the game's page draws for it (a card's kind, a die), or "" for the glyph."""


@dataclass(frozen=True)
class Status:
    """The status line: whose turn it is and what they must do now, in words."""

    tone: str
    """``you`` (the person acts), ``bot``, ``wait`` or ``over``."""
    text: str


@dataclass(frozen=True)
class Panel:
    """A player's compact panel (the game draws its summary and details beside it)."""

    seat: int
    name: str
    score: int
    turn: bool
    """Whether this player is to act now ("▶ to play")."""
    you: bool
    last: str
    """The player's last action, short ("took row 2"); "" before the first one."""


@dataclass(frozen=True)
class ScoreLine:
    """One line of a player's breakdown on the end screen: ``text``, ``detail``, ``value``."""

    text: str
    value: str
    """The points, as shown (``+6``, ``12``) or a word (a solo rating band)."""
    detail: str = ""
    """Small words after the text (how the points were made)."""
    kind: str = ""
    """``plus``, ``minus`` or a game's own class for the line."""
    icon: str = ""
    """A piece the game draws before the text (a card, an area's chip): its own key."""
    data: tuple[tuple[str, str], ...] = ()
    """``data-*`` attributes of the value (``(("area", "blue"),)``), for tests and styles."""


@dataclass(frozen=True)
class FinalScore:
    """A player's result: rank (ties share one), total and the breakdown in the game's terms."""

    seat: int
    name: str
    rank: int
    total: int
    lines: tuple[ScoreLine, ...]
    why: str = ""
    """One sentence on what counted (Fileiras: which colours counted plus)."""


@dataclass(frozen=True)
class EndScreen:
    """The end screen: the headline, how totals and ties were decided, every player's result."""

    headline: str
    rules: str
    players: tuple[FinalScore, ...]
    """Best first (rank, then seat)."""
