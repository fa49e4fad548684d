"""One game, one tab: tabs of the site tell each other which of them plays a game.

Two tabs on one game would overwrite each other's save.  Each table opens the
site's ``BroadcastChannel`` while it is mounted: starting or resuming a game
claims it (``claim``), and a tab that was playing that game steps back (its table
says the game is open in another tab, with "Play it here" to take it back); a
table at its set-up screen asks whether another tab plays the game (``who``), and
the tab that does answers (``here``).  Messages are short texts,
``"<kind> <game> <tab>"``; anything else is ignored (any page of the origin can
post on the channel).

Where the browser has Web Locks, the claim is a real cross-tab lock,
``optimus-table.<game>.play``, held by the tab that plays the game: resuming
(:meth:`OneTab.take`) asks the tab playing it to step back and waits for its lock,
so the save is read only after that tab's last move was saved (a tab that stepped
back saves nothing more: ``taken``); starting a game takes the lock at once
(``steal``), and the tab it was taken from steps back.  Two tabs resuming at the
same instant: one gets the lock and plays, the other says the game is open
elsewhere.  A tab that does not give the lock up within :data:`HANDOVER_MS` has it
taken.

Where storage is refused (a sandboxed iframe), each tab has its own game in
memory: there is nothing to share, so no channel is opened.  Where the browser has
no ``BroadcastChannel``, tabs do not coordinate (as before).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import js
from pyodide.ffi import create_once_callable, create_proxy, to_js

CHANNEL = "optimus-table.tabs"
KINDS = ("claim", "who", "here")
HANDOVER_MS = 1500
"""How long a tab waits for the tab playing a game to give up its lock before taking it."""


def new_tab_id() -> str:
    """A name for this tab, random enough to tell two tabs apart."""
    return os.urandom(6).hex()


def read(data: Any) -> tuple[str, str, str] | None:
    """A message's kind, game and tab, or None when it is not one of ours.

    >>> read("claim cards 3fa9"), read("claim cards"), read(["x"]), read("boom a b")
    (('claim', 'cards', '3fa9'), None, None, None)
    """
    if not isinstance(data, str) or len(data) > 100:
        return None
    parts = data.split(" ")
    if len(parts) != 3 or parts[0] not in KINDS:
        return None
    return parts[0], parts[1], parts[2]


class OneTab:
    """This tab's part for one game (``game_id``): while ``playing``, another tab's
    claim calls ``on_taken``; at set-up, another tab's answer calls ``on_seen``."""

    def __init__(
        self,
        game_id: str,
        shared: bool,
        on_taken: Callable[[], None],
        on_seen: Callable[[], None],
    ) -> None:
        self.game_id = game_id
        self.tab = new_tab_id()
        self.playing = False
        self.taken = False
        """Another tab took the game from this one: this tab saves nothing more of it."""
        self.holding = False
        """This tab holds the game's lock."""
        self.on_taken = on_taken
        self.on_seen = on_seen
        self.channel: Any = None
        self.locks: Any = None
        self.lock = f"optimus-table.{game_id}.play"
        self._listener: Any = None
        self._give_up: Any = None
        """Resolves the promise this tab holds the lock with (gives the lock up)."""
        self._asked = 0
        """Which request of the lock is the current one (older ones are let go)."""
        if shared:  # storage refused: each tab's game is its own, in memory
            try:
                self.channel = js.BroadcastChannel.new(CHANNEL)
            except Exception:  # no BroadcastChannel here: tabs do not coordinate
                self.channel = None
            locks = getattr(js.navigator, "locks", None)
            self.locks = locks if locks is not None and hasattr(locks, "request") else None
        if self.channel is not None:
            self._listener = create_proxy(self.heard)
            self.channel.addEventListener("message", self._listener)

    def post(self, kind: str) -> None:
        if self.channel is not None:
            self.channel.postMessage(f"{kind} {self.game_id} {self.tab}")

    def claim(self) -> None:
        """This tab plays the game now: a tab that was playing it steps back (its lock is
        taken, where the browser has Web Locks)."""
        self.playing = True
        self.taken = False
        self.post("claim")
        if self.locks is not None and not self.holding:
            self._request(steal=True, then=None)

    def take(self, then: Callable[[], None]) -> None:
        """Resume the game here: ``then`` runs once the tab playing it (if any) has
        stepped back and given up its lock, its last move saved; at once where tabs
        cannot lock."""
        if self.locks is None or self.holding:
            then()
            return
        self.post("claim")  # the tab playing it steps back, and gives up the lock
        asked = self._request(steal=False, then=then)

        def steal() -> None:
            if asked == self._asked and not self.holding:  # no answer: take it
                self._request(steal=True, then=then)

        js.setTimeout(create_once_callable(steal), HANDOVER_MS)

    def _request(self, steal: bool, then: Callable[[], None] | None) -> int:
        self._asked += 1
        asked = self._asked

        def granted(_lock: Any = None) -> Any:
            if asked != self._asked:
                return None  # asked again, or released, meanwhile: let it go at once
            self.holding = True
            if then is not None:
                then()
            return js.Promise.new(create_once_callable(self._hold))

        def lost(_error: Any = None) -> None:
            if asked != self._asked:
                return
            self.holding = False
            self._give_up = None
            if self.playing:  # taken by another tab's claim
                self.playing = False
                self.taken = True
                self.on_taken()

        options = to_js({"steal": steal}, dict_converter=js.Object.fromEntries)
        promise = self.locks.request(self.lock, options, create_once_callable(granted))
        promise.catch(create_once_callable(lost))
        return asked

    def _hold(self, resolve: Any, _reject: Any = None) -> None:
        self._give_up = resolve

    def _let_go(self) -> None:
        """Give the lock up (and forget any request of it still waiting)."""
        self._asked += 1
        self.holding = False
        give_up, self._give_up = self._give_up, None
        if give_up is not None:
            give_up()

    def release(self) -> None:
        """This tab no longer plays the game (set-up screen, game over, left)."""
        self.playing = False
        self._let_go()

    def ask(self) -> None:
        """Is the game played in another tab? (An answer calls ``on_seen``.)"""
        self.post("who")

    def heard(self, event: Any) -> None:
        message = read(event.data)
        if message is None:
            return
        kind, game, tab = message
        if game != self.game_id or tab == self.tab:
            return
        if kind == "claim" and self.playing:
            self.playing = False
            self.taken = True
            self._let_go()  # after this tab's last save: the claimer reads it
            self.on_taken()
        elif kind == "who" and self.playing:
            self.post("here")
        elif kind == "here" and not self.playing:
            self.on_seen()

    def close(self) -> None:
        """The table is unmounted: stop listening, give the lock up."""
        self.release()
        if self.channel is not None:
            self.channel.removeEventListener("message", self._listener)
            self.channel.close()
            destroy = getattr(self._listener, "destroy", None)
            if destroy is not None:
                destroy()
            self.channel = None
