"""One game, one tab: tabs of the site tell each other which of them plays a game.

Two tabs on one game would overwrite each other's save.  Each table opens the
site's ``BroadcastChannel`` while it is mounted: starting or resuming a game
claims it (``claim``), and a tab that was playing that game steps back (its table
says the game is open in another tab, with "Play it here" to take it back); a
table at its set-up screen asks whether another tab plays the game (``who``), and
the tab that does answers (``here``).  Messages are short texts,
``"<kind> <game> <tab>"``; anything else is ignored (any page of the origin can
post on the channel).

Where storage is refused (a sandboxed iframe), each tab has its own game in
memory: there is nothing to share, so no channel is opened.  Where the browser has
no ``BroadcastChannel``, tabs do not coordinate (as before).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import js
from pyodide.ffi import create_proxy

from . import store_keys

CHANNEL = store_keys.TABS
KINDS = ("claim", "who", "here")


def new_tab_id() -> str:
    """A name for this tab, random enough to tell two tabs apart."""
    return os.urandom(6).hex()


def read(data: Any) -> tuple[str, str, str] | None:
    """A message's kind, game and tab, or None when it is not one of ours.

    >>> read("claim fileiras 3fa9"), read("claim fileiras"), read(["x"]), read("boom a b")
    (('claim', 'fileiras', '3fa9'), None, None, None)
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
        self.on_taken = on_taken
        self.on_seen = on_seen
        self.channel: Any = None
        self._listener: Any = None
        if shared:  # storage refused: each tab's game is its own, in memory
            try:
                self.channel = js.BroadcastChannel.new(CHANNEL)
            except Exception:  # no BroadcastChannel here: tabs do not coordinate
                self.channel = None
        if self.channel is not None:
            self._listener = create_proxy(self.heard)
            self.channel.addEventListener("message", self._listener)

    def post(self, kind: str) -> None:
        if self.channel is not None:
            self.channel.postMessage(f"{kind} {self.game_id} {self.tab}")

    def claim(self) -> None:
        """This tab plays the game now: a tab that was playing it steps back."""
        self.playing = True
        self.post("claim")

    def release(self) -> None:
        """This tab no longer plays the game (set-up screen, game over, left)."""
        self.playing = False

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
            self.on_taken()
        elif kind == "who" and self.playing:
            self.post("here")
        elif kind == "here" and not self.playing:
            self.on_seen()

    def close(self) -> None:
        """The table is unmounted: stop listening."""
        self.playing = False
        if self.channel is not None:
            self.channel.removeEventListener("message", self._listener)
            self.channel.close()
            destroy = getattr(self._listener, "destroy", None)
            if destroy is not None:
                destroy()
            self.channel = None
