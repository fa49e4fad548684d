"""Saving the game in play, and saying above the table when storage fails.

:class:`Saving` belongs to one table (its :class:`Host`): after each action the
game is saved (:class:`~.storage.Saves`); a save that no longer fits in storage is
said at once above the table, until a save fits again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from optimus.i18n import _

from .frame import show_notices
from .hosts import SessionFacts
from .storage import Saves
from .tab_guard import TabGuard


class Host(SessionFacts, Protocol):
    """What saving needs of the table."""

    root: Any
    tabs: TabGuard


class Saving:
    """The saves of one table (``host``) and the notices about them."""

    def __init__(self, host: Host, saves: Saves) -> None:
        self.host = host
        self.saves = saves

    def save(self) -> None:
        """Save the game; when it no longer fits in storage, say so at once (above the
        table, until a save fits again)."""
        session = self.host.session
        if session is None or self.host.tabs.taken:
            return  # another tab took the game: its save is that tab's now
        said = self.saves.save(session)
        if said is not None:
            self.notify([_(said)])
        elif not self.saves.failing:
            self.notify([])

    def new_game(self) -> None:
        """A new game: a save that does not fit is said again."""
        self.saves.failing = False

    def notify(self, notices: Sequence[str]) -> None:
        """Sentences about the table itself (storage full, another tab) above it; none:
        the box goes."""
        if self.host.root is not None:
            show_notices(self.host.root, "table-notices", notices)
