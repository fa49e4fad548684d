"""web/storage.py and web/tabs.py in CPython, with a stand-in ``localStorage`` and
``BroadcastChannel`` (tests/webstub.py): what a bad save, a full storage or a
second tab does to a game's save (issue 26)."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from optimus.core import jsontext
from optimus.tiny.game import TinyGame
from optimus.ui import table as ui
from optimus.ui.session import TableSession
from tests.webstub import page_module

KEY = "optimus-table.tiny.save"


class JsError(Exception):
    """A JavaScript exception as Pyodide raises it: its ``name`` is the DOMException's."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name}: refused")
        self.name = name


class LocalStorage:
    """``localStorage`` holding at most ``quota`` characters (keys and values), or
    refusing everything (``refused``: a sandboxed iframe)."""

    def __init__(self, quota: int = 10**9, refused: bool = False) -> None:
        self.items: dict[str, str] = {}
        self.quota = quota
        self.refused = refused

    def used(self) -> int:
        return sum(len(k) + len(v) for k, v in self.items.items())

    def getItem(self, key: str) -> str | None:  # noqa: N802 - the DOM's name
        if self.refused:
            raise JsError("SecurityError")
        return self.items.get(key)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        if self.refused:
            raise JsError("SecurityError")
        old = len(key) + len(self.items[key]) if key in self.items else 0
        if self.used() - old + len(key) + len(value) > self.quota:
            raise JsError("QuotaExceededError")
        self.items[key] = value

    def removeItem(self, key: str) -> None:  # noqa: N802
        if self.refused:
            raise JsError("SecurityError")
        self.items.pop(key, None)


class Window:
    def __init__(self, local: LocalStorage) -> None:
        self.localStorage = local


@pytest.fixture
def storage_module(monkeypatch: pytest.MonkeyPatch) -> Any:
    return page_module(monkeypatch, "storage")


def use(local: LocalStorage) -> None:
    sys.modules["js"].window = Window(local)  # type: ignore[attr-defined]


def session(moves: int = 2) -> TableSession:
    s = TableSession(TinyGame(), {"rounds": 5}, seed=5, seats=["human", "random"])
    for _ in range(moves):
        step(s)
    return s


def step(s: TableSession) -> None:
    if s.human_to_act() is not None:
        s.play(0, s.state.legal_moves(0)[0])
    else:
        s.think()


def saves(module: Any) -> Any:
    return module.Saves(module.Storage(), TinyGame(), "tiny", 6)


# -- item 1: a save that kills the parser ------------------------------------------------
def test_a_deeply_nested_save_is_set_aside_without_being_parsed(storage_module, monkeypatch):
    local = LocalStorage()
    use(local)
    deep = "[" * 8000 + "]" * 8000
    local.items[KEY] = deep
    parsed: list[int] = []
    real = json.loads
    monkeypatch.setattr(json, "loads", lambda text, **kw: parsed.append(len(text)) or real(text))
    table = saves(storage_module)
    assert table.load() is None
    assert parsed == []  # measured, never handed to the parser
    assert table.take_notices() == [ui.SAVE_SET_ASIDE]
    assert local.items[f"{KEY}.backup"] == deep and KEY not in local.items
    assert f"{KEY}.loading" not in local.items
    with pytest.raises(jsontext.UnsafeText):
        jsontext.loads(deep)


def test_a_save_the_page_died_reading_is_set_aside_before_it_is_read_again(storage_module):
    local = LocalStorage()
    use(local)
    good = session().save()
    local.items[KEY] = good
    local.items[f"{KEY}.loading"] = "1"  # the last read never finished: the page died
    table = saves(storage_module)
    assert table.load() is None
    assert table.take_notices() == [ui.SAVE_STOPPED]
    assert local.items[f"{KEY}.backup"] == good and KEY not in local.items
    assert f"{KEY}.loading" not in local.items
    # A save read to its end leaves no marker, and reads again next time.
    local.items[KEY] = good
    assert table.load() is not None and table.load() is not None
    assert f"{KEY}.loading" not in local.items


def test_a_marker_another_tab_set_a_moment_ago_is_its_reading_not_a_death(storage_module):
    """Tabs see each other's storage a moment late: a marker set just now by another tab
    reading the same save (taking the game over) leaves the save alone; an old one does
    not."""
    import time

    local = LocalStorage()
    use(local)
    good = session().save()
    local.items[KEY] = good
    local.items[f"{KEY}.loading"] = f"{time.time() * 1000 - 200:.0f}"  # 0.2 s ago
    table = saves(storage_module)
    assert table.load() is not None and table.take_notices() == []
    assert local.items[KEY] == good and f"{KEY}.backup" not in local.items
    local.items[f"{KEY}.loading"] = f"{time.time() * 1000 - 5000:.0f}"  # 5 s ago: it died
    assert table.load() is None and table.take_notices() == [ui.SAVE_STOPPED]
    assert local.items[f"{KEY}.backup"] == good


# -- item 2: storage full ------------------------------------------------------------------
def test_storage_full_mid_game_keeps_the_last_save_and_says_so_once(storage_module):
    game = session(2)
    first = game.save()
    local = LocalStorage(quota=len(KEY) + len(first) + 40)
    use(local)
    table = saves(storage_module)
    assert table.save(game) is None and local.items[KEY] == first
    while len(game.save()) <= len(first) + 40:
        step(game)
    assert not game.state.is_terminal()
    assert table.save(game) == ui.SAVE_FULL  # said at once
    assert table.save(game) is None  # once
    assert local.items[KEY] == first  # the last good save is kept, in localStorage
    assert table.storage.persistent and table.storage.full
    assert table.load() is not None  # a reload resumes it
    # After a reload with the storage still full: "full", never "refused"; resume offered.
    local.quota = local.used()  # not a byte more
    again = saves(storage_module)
    assert again.storage.persistent and again.storage.full
    assert again.load() is not None
    assert again.take_notices() == [ui.STORAGE_FULL]


def test_storage_refused_is_told_apart_from_storage_full(storage_module):
    use(LocalStorage(refused=True))
    table = saves(storage_module)
    assert not table.storage.persistent and not table.storage.full
    assert table.save(session()) is None  # kept in memory for the page's life
    assert table.load() is not None
    assert table.take_notices() == [ui.STORAGE_REFUSED]


# -- item 3: backups, and notices that say what was done --------------------------------
def test_the_last_three_bad_saves_are_kept_newest_first(storage_module):
    local = LocalStorage()
    use(local)
    table = saves(storage_module)
    for n in range(4):
        local.items[KEY] = f"bad {n}"
        assert table.load() is None
        assert table.take_notices() == [ui.SAVE_SET_ASIDE]
    kept = [local.items.get(f"{KEY}.backup{suffix}") for suffix in ("", ".2", ".3", ".4")]
    assert kept == ["bad 3", "bad 2", "bad 1", None]


def test_a_bad_save_too_big_to_keep_is_said_removed_and_later_saves_still_persist(
    storage_module,
):
    local = LocalStorage(quota=400)
    use(local)
    local.items[f"{KEY}.backup"] = "older"
    local.items[KEY] = "x" * 300  # fits as it is, not beside a copy of the older backups
    local.quota = local.used()
    table = saves(storage_module)
    assert table.load() is None
    said = table.take_notices()
    assert ui.SAVE_REMOVED in said and ui.SAVE_SET_ASIDE not in said  # no "a copy is kept"
    assert "older" in local.items.values()  # the older backup is not overwritten
    assert KEY not in local.items
    small = session(1)
    local.quota = 10**9
    assert table.save(small) is None
    assert local.items[KEY] == small.save()  # in localStorage, not in memory


def test_records_that_cannot_be_kept_aside_are_not_said_kept(monkeypatch):
    module = page_module(monkeypatch, "storage")
    local = LocalStorage()
    use(local)
    local.items[module.RECORDS_KEY] = "[" * 5000
    local.quota = local.used()
    local.items["other"] = "y" * 10  # and nothing more fits beside a copy
    store = module.RecordsStore(module.Storage())
    assert store.notices == [module.RECORDS_REMOVED]
    local.quota = 10**9
    for n in range(4):
        local.items[module.RECORDS_KEY] = f"bad {n}"
        store.read()
    kept = [local.items.get(f"{module.RECORDS_KEY}.backup{n}") for n in (1, 2, 3, 4)]
    assert kept == ["bad 3", "bad 2", "bad 1", None]


# -- item 4: one game, one tab ---------------------------------------------------------
class Hub:
    """``BroadcastChannel``: every channel but the sender hears a message."""

    def __init__(self) -> None:
        self.channels: list[Channel] = []

    def new(self, name: str) -> Channel:
        channel = Channel(self)
        self.channels.append(channel)
        return channel


class Channel:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.listeners: list[Any] = []

    def addEventListener(self, kind: str, listener: Any) -> None:  # noqa: N802
        self.listeners.append(listener)

    def removeEventListener(self, kind: str, listener: Any) -> None:  # noqa: N802
        self.listeners.remove(listener)

    def postMessage(self, data: Any) -> None:  # noqa: N802
        for other in list(self.hub.channels):
            if other is not self:
                for listener in list(other.listeners):
                    listener(type("Event", (), {"data": data})())

    def close(self) -> None:
        self.hub.channels.remove(self)


def test_a_second_tab_playing_a_game_makes_the_first_step_back(monkeypatch):
    tabs = page_module(monkeypatch, "tabs")
    hub = Hub()
    sys.modules["js"].BroadcastChannel = hub  # type: ignore[attr-defined]
    heard: list[str] = []

    def tab(name: str, game: str = "tiny", shared: bool = True) -> Any:
        taken, seen = f"{name} taken", f"{name} seen"
        return tabs.OneTab(game, shared, lambda: heard.append(taken), lambda: heard.append(seen))

    a, b, other_game = tab("a"), tab("b"), tab("c", "fileiras")
    a.claim()
    assert heard == []
    b.ask()  # b's set-up screen: is the game played elsewhere?
    assert heard == ["b seen"]
    b.claim()  # "Play it here": a steps back, and only a
    assert heard == ["b seen", "a taken"] and not a.playing and b.playing
    a.claim()
    assert heard[-1] == "b taken"
    other_game.claim()  # another game: nobody steps back
    assert heard[-1] == "b taken"
    for noise in ("claim tiny", ["claim", "tiny", "x"], "claim tiny x y", "x" * 500):
        b.channel.postMessage(noise)
    assert a.playing and heard[-1] == "b taken"
    a.close()
    assert len(hub.channels) == 2


def test_tabs_without_shared_storage_do_not_coordinate(monkeypatch):
    tabs = page_module(monkeypatch, "tabs")
    hub = Hub()
    sys.modules["js"].BroadcastChannel = hub  # type: ignore[attr-defined]
    heard: list[str] = []
    a = tabs.OneTab("tiny", False, lambda: heard.append("a"), lambda: heard.append("a"))
    b = tabs.OneTab("tiny", False, lambda: heard.append("b"), lambda: heard.append("b"))
    a.claim()
    b.ask()
    b.claim()
    assert heard == [] and hub.channels == [] and a.playing and b.playing
    del sys.modules["js"].BroadcastChannel  # type: ignore[attr-defined]

    class Missing:
        def new(self, name: str) -> Any:
            raise JsError("ReferenceError")

    sys.modules["js"].BroadcastChannel = Missing()  # type: ignore[attr-defined]
    lone = tabs.OneTab("tiny", True, lambda: heard.append("x"), lambda: heard.append("x"))
    lone.claim()
    lone.close()
    assert lone.channel is None and heard == []


# -- issue 39, items 7-9: the records in storage -----------------------------------------
def finished(score: int, game: str = "tiny", replay: int = 10) -> Any:
    from optimus.ui import records

    return records.Result(game, "easy", 2, score, False, "2026-12-02", {"x": "r" * replay})


class Locks:
    """``navigator.locks``: a request is granted later (``grant``), one at a time, in order."""

    def __init__(self) -> None:
        self.queue: list[Any] = []

    def request(self, name: str, callback: Any) -> Any:
        self.queue.append(callback)
        return type("Promise", (), {"catch": lambda self, f: None})()

    def grant(self) -> None:
        while self.queue:
            self.queue.pop(0)(object())


class StaleView(LocalStorage):
    """Another tab's view of ``local``: its first read of ``key`` sees ``stale`` (tabs
    see each other's writes a moment late), later ones see ``local`` itself."""

    def __init__(self, local: LocalStorage, key: str, stale: str | None) -> None:
        super().__init__()
        self.items = local.items
        self.stale: dict[str, str | None] = {key: stale}

    def getItem(self, key: str) -> str | None:  # noqa: N802
        if key in self.stale:
            return self.stale.pop(key)
        return super().getItem(key)


def test_two_tabs_finishing_a_game_at_the_same_instant_both_keep_their_game(monkeypatch):
    module = page_module(monkeypatch, "storage")
    locks = Locks()
    sys.modules["js"].navigator = type("Navigator", (), {"locks": locks})()  # type: ignore[attr-defined]
    local = LocalStorage()
    use(local)
    before = module.RecordsStore(module.Storage())
    before.add(finished(1))
    locks.grant()
    text = local.items[module.RECORDS_KEY]
    tab_a = module.RecordsStore(module.Storage())
    use(StaleView(local, module.RECORDS_KEY, text))  # tab b read before a wrote
    tab_b = module.RecordsStore(module.Storage())
    use(local)
    tab_a.add(finished(2))
    tab_b.storage._local.stale[module.RECORDS_KEY] = text  # b's next read: still stale
    tab_b.add(finished(3))
    locks.grant()
    kept = module.RecordsStore(module.Storage()).records.stats("tiny")[0]
    assert kept.played == 3 and sorted(kept.scores) == [1, 2, 3]


def test_storage_full_keeps_the_statistics_before_the_replays_and_says_so(storage_module):
    module = storage_module
    sys.modules["js"].navigator = object()  # type: ignore[attr-defined] # no Web Locks
    local = LocalStorage()
    use(local)
    store = module.RecordsStore(module.Storage())
    said: list[str] = []
    store.on_said = said.append
    for n in range(5):
        store.add(finished(n, replay=2000))
    assert said == []
    local.quota = local.used() + 1500  # room for a result, not for another replay
    store.add(finished(9, replay=2000))
    assert said == [module.RECORDS_TRIMMED]
    again = module.RecordsStore(module.Storage()).records
    assert again.stats("tiny")[0].played == 6, "the game still counts"
    assert len(again.replays) < 6
    local.quota = 0  # not even the statistics fit
    store.add(finished(10))
    assert said[-1] == module.RECORDS_FULL
    assert module.RecordsStore(module.Storage()).records.stats("tiny")[0].played == 6
    # An import that does not fit says so, and changes nothing.
    from optimus.ui import records

    other = records.Records()
    for n in range(3):
        other.add(finished(20 + n))
    answers: list[str | None] = []
    store.merge_in(other, answers.append)
    assert answers == [module.IMPORT_FULL]
    assert module.RecordsStore(module.Storage()).records.stats("tiny")[0].played == 6
    local.quota = 10**9
    store.merge_in(other, answers.append)
    assert answers[-1] is None
    assert module.RecordsStore(module.Storage()).records.stats("tiny")[0].played == 9


def test_records_a_game_page_set_aside_are_said_on_the_records_page(storage_module):
    module = storage_module
    local = LocalStorage()
    use(local)
    local.items[module.RECORDS_KEY] = (
        '{"format": "optimus-table-records", "version": 1, "games": 7}'
    )
    game_page = module.RecordsStore(module.Storage())  # a game page reads them first
    assert game_page.records.games == {}
    assert local.items[f"{module.RECORDS_KEY}.backup1"].endswith('"games": 7}')
    records_page = module.RecordsStore(module.Storage())
    assert records_page.take_notices() == [module.RECORDS_SET_ASIDE]
    assert module.RecordsStore(module.Storage()).take_notices() == []  # said once


# -- issue 39, item 14: the claim is a real cross-tab lock --------------------------------
class Promise:
    """A promise settled at once (the fake lock manager runs every step in order)."""

    def __init__(self) -> None:
        self.done: tuple[str, Any] | None = None
        self.waiting: list[tuple[str, Any]] = []

    @classmethod
    def new(cls, executor: Any) -> Promise:
        promise = cls()
        executor(promise.resolve, promise.reject)
        return promise

    def resolve(self, value: Any = None) -> None:
        self.settle("then", value)

    def reject(self, error: Any = None) -> None:
        self.settle("catch", error)

    def settle(self, how: str, value: Any) -> None:
        if self.done is None:
            self.done = (how, value)
            for kind, f in self.waiting:
                if kind == how:
                    f(value)

    def then(self, f: Any) -> Promise:
        self.waiting.append(("then", f))
        return self

    def catch(self, f: Any) -> Promise:
        if self.done is not None and self.done[0] == "catch":
            f(self.done[1])
        else:
            self.waiting.append(("catch", f))
        return self


class LockManager:
    """``navigator.locks`` for one lock name at a time: exclusive, queued, ``steal``."""

    def __init__(self) -> None:
        self.holder: tuple[Promise, Promise] | None = None  # (request's, held)
        self.queue: list[tuple[Any, Promise]] = []

    def request(self, name: str, options: dict[str, bool], callback: Any) -> Promise:
        promise = Promise()
        if options.get("steal") and self.holder is not None:
            stolen, self.holder = self.holder, None
            stolen[0].reject("AbortError")
        self.queue.append((callback, promise))
        self.grant()
        return promise

    def grant(self) -> None:
        while self.holder is None and self.queue:
            callback, promise = self.queue.pop(0)
            held = callback(object())
            if held is None:
                promise.resolve()
                continue
            self.holder = (promise, held)
            held.then(lambda _v, p=promise: self.released(p))

    def released(self, promise: Promise) -> None:
        if self.holder is not None and self.holder[0] is promise:
            self.holder = None
            promise.resolve()
            self.grant()


def locking_tabs(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[Any]]:
    """web/tabs.py with a ``BroadcastChannel``, Web Locks, and timers run by the test."""
    tabs = page_module(monkeypatch, "tabs")
    fake = sys.modules["js"]
    fake.BroadcastChannel = Hub()  # type: ignore[attr-defined]
    fake.navigator = type("Navigator", (), {"locks": LockManager()})()  # type: ignore[attr-defined]
    fake.Promise = Promise  # type: ignore[attr-defined]
    timers: list[Any] = []
    fake.setTimeout = lambda f, ms: timers.append(f)  # type: ignore[attr-defined]
    return tabs, timers


def test_a_tab_that_resumes_reads_the_save_only_once_the_playing_tab_gave_it_up(monkeypatch):
    tabs, timers = locking_tabs(monkeypatch)
    heard: list[str] = []
    storage = {"save": "move 1"}

    def tab(name: str) -> Any:
        return tabs.OneTab(
            "tiny", True, lambda: heard.append(f"{name} taken"), lambda: heard.append(name)
        )

    a, b = tab("a"), tab("b")
    a.claim()
    assert a.holding and a.playing
    read: list[str] = []
    b.take(lambda: read.append(storage["save"]))
    # b asked; a stepped back and gave its lock up: only then did b read the save.
    assert heard == ["a taken"] and a.taken and not a.playing and not a.holding
    assert read == ["move 1"] and b.holding
    b.claim()  # b's table starts the game it read
    assert heard == ["a taken"] and b.playing and not b.taken
    # a tab that does not answer has its lock taken after HANDOVER_MS, and steps back then
    c = tab("c")
    c.channel.close()  # c hears nothing: it will not give up on its own
    c.channel = None
    b.release()
    c.claim()
    assert c.holding
    b.take(lambda: read.append("b again"))
    assert read == ["move 1"] and not b.holding  # c holds on
    timers.pop()()
    assert read == ["move 1", "b again"] and b.holding
    assert heard[-1] == "c taken" and c.taken


def test_two_tabs_resuming_at_the_same_instant_leave_one_of_them_playing(monkeypatch):
    tabs, timers = locking_tabs(monkeypatch)
    heard: list[str] = []
    a = tabs.OneTab("tiny", True, lambda: heard.append("a taken"), lambda: None)
    b = tabs.OneTab("tiny", True, lambda: heard.append("b taken"), lambda: None)
    a.take(a.claim)  # "Resume" in both tabs at once
    b.take(b.claim)
    for steal in timers:
        steal()
    assert [a.playing, b.playing].count(True) == 1
    assert len(heard) == 1 and (a.playing or b.playing)


# -- issue 39 item 11: the daily challenge's mark is checked like a save --------------------
@pytest.mark.parametrize(
    "mark",
    ["{seed} 2026-13-45", "{seed} 9999-12-31", "{seed} {future}", "1 {today}", "² {today}", "x"],
)
def test_a_bad_daily_mark_is_said_removed_and_the_game_is_played_as_practice(
    monkeypatch: pytest.MonkeyPatch, mark: str
) -> None:
    import datetime

    from optimus.ui import deals

    links = page_module(monkeypatch, "deal_links")
    storage = sys.modules["optimus_web.storage"]
    local = LocalStorage()
    use(local)
    today = deals.today()
    seed = deals.daily_seed("tiny", today)
    future = today + datetime.timedelta(days=400)
    text = mark.format(seed=seed, today=today.isoformat(), future=future.isoformat())
    local.items["optimus-table.tiny.daily"] = text
    daily = links.DailyMark(storage.Storage(), "tiny")
    assert daily.started(seed) == deals.BAD_DAILY_MARK
    assert daily.day == "" and "optimus-table.tiny.daily" not in local.items
    links.day_text(today.isoformat())  # what the title shows of a good day


def test_a_good_daily_mark_makes_its_game_the_days_challenge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from optimus.ui import deals

    links = page_module(monkeypatch, "deal_links")
    storage = sys.modules["optimus_web.storage"]
    use(LocalStorage())
    today = deals.today()
    seed = deals.daily_seed("tiny", today)
    daily = links.DailyMark(storage.Storage(), "tiny")
    daily.remember(seed, today.isoformat())
    assert daily.started(seed + 1) == "" and daily.day == ""  # another game: not the daily
    assert daily.started(seed) == "" and daily.day == today.isoformat()
