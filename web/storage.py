"""Where a table keeps its settings and its game: ``localStorage``, or memory.

:class:`Storage` falls back to memory when the browser refuses ``localStorage``
(sandboxed iframe, blocked site data); :class:`Saves` keeps one game's save:
every move is saved, a finished game is removed, and a save that cannot be
read is kept under ``<key>.backup`` and reported in plain words.
"""

from __future__ import annotations

from typing import Any

import js

from optimus.core.protocol import Game
from optimus.i18n import N_
from optimus.ui import records
from optimus.ui import table as ui
from optimus.ui.session import TableSession

from .router import found


class Storage:
    """``localStorage``, or memory when the browser refuses it (sandboxed iframe, blocked data).

    ``persistent`` says which: with memory, a game lasts only as long as the page.
    """

    told = False
    """Whether a page has already said that storage is refused (said once per page load)."""
    _memory: dict[str, str] = {}  # noqa: RUF012 - shared on purpose: lives as long as the page

    def __init__(self) -> None:
        self._local: Any = None
        try:
            local = js.window.localStorage
            local.setItem("optimus-table.probe", "1")
            local.removeItem("optimus-table.probe")
            self._local = local
        except Exception:  # SecurityError, QuotaExceededError, no localStorage at all
            self._local = None
        self.persistent = self._local is not None

    def get(self, key: str) -> str | None:
        if self._local is not None:
            try:
                value = self._local.getItem(key)
                return str(value) if found(value) else None
            except Exception:
                self._local = None  # refused from now on: fall back to memory
        return self._memory.get(key)

    def set(self, key: str, value: str) -> None:
        self._memory[key] = value
        if self._local is not None:
            try:
                self._local.setItem(key, value)
            except Exception:
                self._local = None

    def remove(self, key: str) -> None:
        self._memory.pop(key, None)
        if self._local is not None:
            try:
                self._local.removeItem(key)
            except Exception:
                self._local = None

    def set_aside(self, key: str, value: str) -> None:
        """Keep an unreadable value under ``<key>.backup`` instead of deleting it."""
        self.set(key + ".backup", value)
        self.remove(key)


class Saves:
    """One game's save (``optimus-table.<id>.save``) in ``storage``."""

    def __init__(self, storage: Storage, game: Game, game_id: str, max_humans: int) -> None:
        self.storage = storage
        self.game = game
        self.game_id = game_id
        self.max_humans = max_humans
        self.key = f"optimus-table.{game_id}.save"
        self.notices: list[str] = []
        """Plain-words notices for the set-up screen (a save set aside, storage refused)."""

    def exists(self) -> bool:
        return bool(self.storage.get(self.key))

    def load(self) -> TableSession | None:
        """The game in progress, if there is one that can be resumed."""
        raw = self.storage.get(self.key)
        if not raw:
            return None
        try:
            session = TableSession.load(self.game, raw, max_humans=self.max_humans)
        except Exception as exc:  # RecordError, or anything a tampered save provokes
            self.storage.set_aside(self.key, raw)
            self.notices.append(ui.SAVE_SET_ASIDE)
            js.console.warn(f"{self.game_id}: saved game set aside: {exc}")
            return None
        if session.state.is_terminal():
            self.storage.remove(self.key)
            return None
        return session

    def save(self, session: TableSession) -> None:
        """Save after a move; a finished game is removed."""
        if session.state.is_terminal():
            self.storage.remove(self.key)
        else:
            self.storage.set(self.key, session.save())

    def take_notices(self) -> list[str]:
        """The notices to show now (once): the storage refused is said once per page."""
        if not self.storage.persistent and not Storage.told:
            Storage.told = True
            self.notices.append(ui.STORAGE_REFUSED)
        notices, self.notices = self.notices, []
        return notices


RECORDS_KEY = "optimus-table.records"
RECORDS_BACKUPS = 3
RECORDS_SET_ASIDE = N_(
    "Your records could not be read, so a new record book was started; the old one is kept "
    "aside in this browser."
)


class RecordsStore:
    """The player's records (``optimus-table.records``, :mod:`optimus.ui.records`) in
    ``storage``: a text that cannot be trusted is kept aside (the last three, under
    ``optimus-table.records.backup1`` … ``backup3``, newest first) and replaced by a
    fresh store, with a notice in plain words."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.notices: list[str] = []
        """English sentences of the catalogs, to say once (with ``_``)."""
        self.records = self.read()

    def read(self) -> records.Records:
        raw = self.storage.get(RECORDS_KEY)
        loaded = records.load(raw)
        if loaded.problem and raw is not None:
            self.set_aside(raw)
            self.notices.append(RECORDS_SET_ASIDE)
            js.console.warn(f"records set aside: {loaded.problem}")  # not shown
        return loaded.records

    def set_aside(self, raw: str) -> None:
        """Keep ``raw`` as the newest backup (the oldest of three is dropped)."""
        for n in range(RECORDS_BACKUPS, 1, -1):
            older = self.storage.get(f"{RECORDS_KEY}.backup{n - 1}")
            if older is not None:
                self.storage.set(f"{RECORDS_KEY}.backup{n}", older)
        self.storage.set(f"{RECORDS_KEY}.backup1", raw)
        self.storage.remove(RECORDS_KEY)

    def save(self) -> None:
        self.storage.set(RECORDS_KEY, records.dump(self.records))

    def add(self, result: records.Result) -> bool:
        """Keep a finished game (read again first: another tab may have added some);
        True when it is the counted try of a daily challenge."""
        self.records = self.read()
        counted = self.records.add(result)
        self.save()
        return counted

    def replace(self, fresh: records.Records) -> None:
        self.records = fresh
        self.save()
