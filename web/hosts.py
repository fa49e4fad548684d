"""What every part of the table may read of the table it belongs to: its page's root
element and which game it plays, and the game in progress (the part's own ``Host``
Protocol adds the rest)."""

from __future__ import annotations

from typing import Any, Protocol

from optimus.games import GameInfo
from optimus.ui.session import TableSession


class TableFacts(Protocol):
    """The table's page element (None while not mounted), its game's id, title and
    description."""

    root: Any
    game_id: str
    title: str

    @property
    def info(self) -> GameInfo: ...


class SessionFacts(Protocol):
    """The table's game in progress (None before one and between games)."""

    @property
    def session(self) -> TableSession | None: ...
