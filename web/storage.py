"""Where a table keeps its settings and its game: ``localStorage``, or memory.

:class:`Storage` falls back to memory when the browser refuses ``localStorage``
(sandboxed iframe, blocked site data); :class:`Saves` keeps one game's save:
every move is saved, a finished game is removed, and a save that cannot be
read (or that stopped the page) is kept under ``<key>.backup`` (the last three) and
reported in plain words.  A full storage keeps what it held: the page says at
once that the game can no longer be saved.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

import js
from pyodide.ffi import create_once_callable

from optimus.core.protocol import Game
from optimus.i18n import N_
from optimus.ui import records
from optimus.ui import table as ui
from optimus.ui.session import TableSession

from . import store_keys
from .router import found


def quota_error(exc: BaseException) -> bool:
    """Whether a refused write was refused for space (``QuotaExceededError``; Firefox's
    older name too), not for security (``SecurityError``: storage refused)."""
    said = f"{getattr(exc, 'name', '')} {exc}"
    return "QuotaExceeded" in said or "QUOTA_REACHED" in said


class Storage:
    """``localStorage``, or memory when the browser refuses it (sandboxed iframe, blocked data).

    ``persistent`` says which: with memory, a game lasts only as long as the page.
    A full ``localStorage`` is still ``localStorage``: what it holds stays readable
    (the last good save), a write that does not fit is refused (``set`` answers
    False) and ``full`` says so until a write fits again.
    """

    told = False
    """Whether a page has already said that storage is refused (said once per page load)."""
    told_full = False
    """Whether a page has already said that storage is full (once per page load)."""
    _memory: dict[str, str] = {}  # noqa: RUF012 - shared on purpose: lives as long as the page

    def __init__(self) -> None:
        self._local: Any = None
        self.full = False
        """The last write (or the probe at the start) did not fit."""
        try:
            local = js.window.localStorage
            self._local = local
            local.setItem(store_keys.PROBE, "1")
            local.removeItem(store_keys.PROBE)
        except Exception as exc:  # SecurityError, QuotaExceededError, no localStorage at all
            if self._local is not None and quota_error(exc):
                self.full = True  # readable, but nothing more fits
            else:
                self._local = None

    @property
    def persistent(self) -> bool:
        return self._local is not None

    def get(self, key: str) -> str | None:
        if self._local is not None:
            try:
                value = self._local.getItem(key)
                return str(value) if found(value) else None
            except Exception:
                self._local = None  # refused from now on: fall back to memory
        return self._memory.get(key)

    def set(self, key: str, value: str) -> bool:
        """Keep ``value`` under ``key``; False when it did not fit (``full``): the key
        keeps what it held before."""
        if self._local is not None:
            try:
                self._local.setItem(key, value)
                self.full = False
                return True
            except Exception as exc:
                if quota_error(exc):
                    self.full = True
                    return False
                self._local = None  # refused from now on: fall back to memory
        self._memory[key] = value
        return True

    def remove(self, key: str) -> None:
        self._memory.pop(key, None)
        if self._local is not None:
            try:
                self._local.removeItem(key)
            except Exception:
                self._local = None

    def set_aside(self, key: str, value: str, names: Sequence[str] | None = None) -> bool:
        """Keep an unreadable ``value`` of ``key`` as the newest of three backups
        (``names``: newest first, by default ``<key>.backup``, ``<key>.backup.2``,
        ``<key>.backup.3``; the oldest is dropped) and remove ``key``.  False when no
        copy could be kept (storage full): then ``key`` is removed all the same, and
        the older backups stay as they were."""
        names = list(names or backup_names(key))
        self.remove(key)  # its room is the new backup's
        self.remove(names[-1])
        for newer, older in zip(names[-2::-1], names[:0:-1], strict=True):
            text = self.get(newer)
            if text is None:
                continue
            if not self.set(older, text):
                return False  # ``newer`` stays where it is: nothing is overwritten
            self.remove(newer)
        return self.set(names[0], value)


def backup_names(key: str, count: int = 3) -> list[str]:
    """Where the backups of ``key`` are kept, newest first.

    >>> backup_names("k")
    ['k.backup', 'k.backup.2', 'k.backup.3']
    """
    return [f"{key}.backup", *(f"{key}.backup.{n}" for n in range(2, count + 1))]


MARKER_FRESH_MS = 1000.0
"""How long a save's reading marker may be another tab's reading in progress (``Saves``)."""


def fresh(marker: str, now_ms: float | None = None) -> bool:
    """Whether a reading marker was set less than :data:`MARKER_FRESH_MS` ago (one that
    is not a time, as an older page wrote, is not).

    >>> fresh("1000", now_ms=1500), fresh("1000", now_ms=2500), fresh("1", now_ms=5000)
    (True, False, False)
    """
    try:
        then = float(marker)
    except ValueError:
        return False
    now = time.time() * 1000 if now_ms is None else now_ms
    return 0 <= now - then < MARKER_FRESH_MS


class Saves:
    """One game's save (``optimus-table.<id>.save``) in ``storage``.

    While a save is being read, ``<key>.loading`` is set (to the time, in ms): found at
    the next read, it means the page died reading it (a save that kills the runtime),
    and the save is set aside before it is read again.  A marker younger than
    :data:`MARKER_FRESH_MS` is another tab reading the same save at this moment (its
    removal may not have reached this tab yet: tabs see each other's storage a moment
    late), not a page that died: a page that dies reading a save is read again only
    after a new boot, which takes longer.
    """

    def __init__(self, storage: Storage, game: Game, game_id: str, max_humans: int) -> None:
        self.storage = storage
        self.game = game
        self.game_id = game_id
        self.max_humans = max_humans
        self.key = store_keys.save(game_id)
        self.marker = f"{self.key}.loading"
        self.notices: list[str] = []
        """Plain-words notices for the set-up screen (a save set aside, storage refused)."""
        self.failing = False
        """The last save did not fit in storage (said once, until one fits again)."""

    def exists(self) -> bool:
        return bool(self.storage.get(self.key))

    def load(self) -> TableSession | None:
        """The game in progress, if there is one that can be resumed."""
        raw = self.storage.get(self.key)
        if not raw:
            self.storage.remove(self.marker)
            return None
        marked = self.storage.get(self.marker)
        if marked is not None and not fresh(marked):
            self.set_aside(raw, "the page stopped while reading it", ui.SAVE_STOPPED)  # not shown
            return None
        self.storage.set(self.marker, f"{time.time() * 1000:.0f}")
        try:
            session = TableSession.load(self.game, raw, max_humans=self.max_humans)
        except Exception as exc:  # RecordError, or anything a tampered save provokes
            self.set_aside(raw, str(exc), ui.SAVE_SET_ASIDE)
            return None
        finally:
            self.storage.remove(self.marker)
        if session.state.is_terminal():
            self.storage.remove(self.key)
            return None
        return session

    def set_aside(self, raw: str, why: str, notice: str) -> None:
        """Keep an unusable save aside and say so (``notice``), or say that no copy
        could be kept."""
        kept = self.storage.set_aside(self.key, raw)
        self.storage.remove(self.marker)
        self.notices.append(notice if kept else ui.SAVE_REMOVED)
        where = "set aside" if kept else "removed (storage full, no copy kept)"  # not shown
        js.console.warn(f"{self.game_id}: saved game {where}: {why}")  # not shown

    def save(self, session: TableSession) -> str | None:
        """Save after a move; a finished game is removed.  The notice to show at once
        when this save did not fit (storage full: the last save that fitted is kept),
        said once until a save fits again."""
        if session.state.is_terminal():
            self.storage.remove(self.key)
            self.failing = False
            return None
        if self.storage.set(self.key, session.save()):
            self.failing = False
            return None
        said = None if self.failing else ui.SAVE_FULL
        self.failing = True
        return said

    def take_notices(self) -> list[str]:
        """The notices to show now (once): storage refused, or full, is said once per page."""
        if not self.storage.persistent and not Storage.told:
            Storage.told = True
            self.notices.append(ui.STORAGE_REFUSED)
        elif self.storage.full and not Storage.told_full:
            Storage.told_full = True
            self.notices.append(ui.STORAGE_FULL)
        notices, self.notices = self.notices, []
        return notices


RECORDS_KEY = store_keys.RECORDS
RECORDS_NOTICE_KEY = store_keys.RECORDS_NOTICE
RECORDS_LOCK = store_keys.RECORDS_LOCK
RECORDS_BACKUPS = 3
RECORDS_SET_ASIDE = N_(
    "Your records could not be read, so a new record book was started; the old one is kept "
    "aside in this browser."
)
RECORDS_REMOVED = N_(
    "Your records could not be read, and this browser's storage is too full to keep a copy "
    "of them, so a new record book was started in their place."
)
RECORDS_FULL = N_("This game could not be added to your records: this browser's storage is full.")
RECORDS_TRIMMED = N_(
    "This browser's storage is full: your records are kept, but older games to watch again "
    "were removed to make room."
)
IMPORT_FULL = N_(
    "The records of the file could not be kept: this browser's storage is full. Nothing was "
    "changed."
)
IMPORT_TOO_BIG = N_(
    "The records of this file and yours together are too many to keep in this browser: "
    "nothing was changed."
)


class RecordsStore:
    """The player's records (``optimus-table.records``, :mod:`optimus.ui.records`) in
    ``storage``: a text that cannot be trusted is kept aside (the last three, under
    ``optimus-table.records.backup1`` … ``backup3``, newest first) and replaced by a
    fresh store, with a notice in plain words (kept for the records page when a game
    page found it: :meth:`take_notices`).

    Every write reads the book again and merges into it (each result counts once),
    under the Web Lock :data:`RECORDS_LOCK` where the browser has Web Locks: two tabs
    finishing a game at the same instant keep both.  A write keeps the book within
    :data:`records.BUDGET`; when storage is full it keeps the statistics before the
    replays, and says what was lost (``on_said``)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.notices: list[str] = []
        """English sentences of the catalogs, to say once (with ``_``)."""
        self.on_said: Callable[[str], None] = lambda notice: None
        """Called with a notice (English, of the catalogs) when a write lost something."""
        self.records = self.read()

    def read(self) -> records.Records:
        raw = self.storage.get(RECORDS_KEY)
        loaded = records.load(raw)
        if loaded.problem and raw is not None:
            kept = self.set_aside(raw)
            notice = RECORDS_SET_ASIDE if kept else RECORDS_REMOVED
            self.notices.append(notice)
            self.storage.set(RECORDS_NOTICE_KEY, notice)  # for the records page, if not here
            js.console.warn(f"records set aside: {loaded.problem}")  # not shown
        return loaded.records

    def take_notices(self) -> list[str]:
        """The notices to say now, once: this store's and those a game page left."""
        notices, self.notices = self.notices, []
        left = self.storage.get(RECORDS_NOTICE_KEY)
        self.storage.remove(RECORDS_NOTICE_KEY)
        if left in (RECORDS_SET_ASIDE, RECORDS_REMOVED) and left not in notices:
            notices.append(left)
        return notices

    def set_aside(self, raw: str) -> bool:
        """Keep ``raw`` as the newest backup (the oldest of three is dropped); False
        when no copy could be kept (storage full)."""
        names = [f"{RECORDS_KEY}.backup{n}" for n in range(1, RECORDS_BACKUPS + 1)]
        return self.storage.set_aside(RECORDS_KEY, raw, names)

    def write(self, book: records.Records) -> str | None:
        """Keep ``book`` (within the budget: :func:`records.fit`); None when all of it
        was kept, :data:`RECORDS_TRIMMED` when storage was full and the oldest replays
        made room, :data:`RECORDS_FULL` when not even the statistics fit
        (:class:`records.Refused` when they exceed the budget)."""
        book, text = records.fit(book)
        if self.storage.set(RECORDS_KEY, text):
            self.records = book
            return None
        replays = book.replays
        while replays:  # storage full: the statistics before the replays
            replays = replays[len(replays) // 2 + 1 :]
            trimmed = dataclasses.replace(book, replays=replays)
            if self.storage.set(RECORDS_KEY, records.dump(trimmed)):
                self.records = trimmed
                return RECORDS_TRIMMED
        return RECORDS_FULL

    def add(self, result: records.Result) -> bool:
        """Keep a finished game (merged into what is stored then: another tab may have
        added some); True when it is the counted try of a daily challenge.  What could
        not be kept is said by ``on_said``."""
        result = result.identified()
        self.records = self.read()
        counted = self.records.add(result)

        def work() -> str | None:
            book = self.read()
            book.add(result)
            return self.write(book)

        self.locked(work, lambda said: said and self.on_said(said))
        return counted

    def keep_accuracy(self, game: str, ident: str, accuracy: dict[str, Any]) -> None:
        """Keep a review's accuracy with the kept game ``ident`` (merged into what is
        stored then, like :meth:`add`)."""
        self.records = self.read()
        self.records.keep_accuracy(game, ident, accuracy)

        def work() -> str | None:
            book = self.read()
            book.keep_accuracy(game, ident, accuracy)
            return self.write(book)

        self.locked(work, lambda said: said and self.on_said(said))

    def merge_in(self, other: records.Records, then: Callable[[str | None], None]) -> None:
        """Merge ``other`` (an imported file) into the stored book; ``then`` gets None when
        it was kept, else why not (:data:`IMPORT_FULL`, :data:`IMPORT_TOO_BIG`: nothing
        was changed) or :data:`RECORDS_TRIMMED`."""

        def work() -> str | None:
            try:
                merged, _ = records.fit(records.merge(self.read(), other))
            except records.Refused:
                return IMPORT_TOO_BIG
            said = self.write(merged)
            return IMPORT_FULL if said == RECORDS_FULL else said

        self.locked(work, then)

    def replace(self, fresh: records.Records) -> None:
        """Put ``fresh`` in the place of the stored book (cleared)."""
        self.records = fresh
        self.locked(lambda: self.write(fresh), lambda said: said and self.on_said(said))

    def locked(self, work: Callable[[], str | None], then: Callable[[str | None], Any]) -> None:
        """Run ``work`` (a read, merge and write) under the cross-tab lock where the
        browser has Web Locks (else at once: tabs cannot coordinate, or storage is this
        page's own memory), then pass its notice to ``then``."""

        def run(*_lock: Any) -> None:
            try:
                said = work()
            except Exception as exc:  # never lose the page over the records
                js.console.warn(f"records: {exc!r}")  # not shown
                said = RECORDS_FULL
            then(said)

        locks: Any = getattr(js.navigator, "locks", None) if self.storage.persistent else None
        if not found(locks):
            run()
            return
        try:
            promise = locks.request(RECORDS_LOCK, create_once_callable(run))
        except Exception:  # a lock manager that refuses (a document being unloaded)
            run()
            return
        promise.catch(create_once_callable(lambda exc: js.console.warn(f"records: {exc}")))
