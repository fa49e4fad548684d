"""One game, one tab, at the table: playing claims the game, another tab's claim stops it here.

:class:`TabGuard` is the table's side of :mod:`.tabs` (its :class:`Host`): a game
started or resumed claims the game (a tab that was playing it steps back, its set-up
screen saying that the game is open in another tab, with "Play it here"); a
finished game, a replay or the set-up screen lets it go; the set-up screen that
offers to resume a game asks whether another tab plays it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from .hosts import SessionFacts
from .tabs import OneTab


class Host(SessionFacts, Protocol):
    """What the guard needs of the table."""

    root: Any

    def show_setup(self, elsewhere: bool = False) -> None: ...


class TabGuard:
    """This table's part in "one game, one tab" (open while the table is mounted)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.tabs: OneTab | None = None
        self.elsewhere = False
        """The set-up screen says the game is open in another tab."""

    def open(self, game_id: str, shared: bool) -> None:
        self.tabs = OneTab(game_id, shared, self.taken_elsewhere, self.seen_elsewhere)

    def close(self) -> None:
        if self.tabs is not None:
            self.tabs.close()
            self.tabs = None

    @property
    def taken(self) -> bool:
        """Another tab took the game over from this one: its save is that tab's now."""
        return self.tabs is not None and self.tabs.taken

    def take(self, then: Callable[[], None]) -> None:
        """Resume the game here: ``then`` runs once a tab playing it has stepped back
        (its last move saved); at once where there is no other tab to ask."""
        if self.tabs is not None:
            self.tabs.take(then)
        else:
            then()

    def claim(self) -> None:
        """A game is played here: a tab that was playing it steps back."""
        if self.tabs is not None:
            self.tabs.claim()

    def release(self) -> None:
        """Nothing is played here (over, watched, the set-up screen): another tab may."""
        if self.tabs is not None:
            self.tabs.release()

    def at_setup(self, resumable: bool, elsewhere: bool) -> None:
        """The set-up screen is shown (``elsewhere``: saying the game is open in another
        tab); when it offers to resume a game, ask whether another tab plays it."""
        self.elsewhere = elsewhere
        if self.tabs is not None:
            self.tabs.release()
            if resumable and not elsewhere:
                self.tabs.ask()  # another tab playing it answers: seen_elsewhere

    def taken_elsewhere(self) -> None:
        """Another tab started or resumed this game: stop playing it here and say so."""
        if self.host.root is not None:
            self.host.show_setup(elsewhere=True)  # (which closes the dialogs)

    def seen_elsewhere(self) -> None:
        """Another tab plays the game this set-up screen offers to resume: say so."""
        host = self.host
        if host.root is not None and host.session is None and not self.elsewhere:
            host.show_setup(elsewhere=True)
