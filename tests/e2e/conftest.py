"""Fixtures for the browser tests: a built dist/, a local server, Debian Chromium.

Every page made by ``guarded`` fails its test on any request to a host other
than the local server (the request is aborted and recorded), on any HTTP error
response, and on any console error or uncaught page error, unless the test
says it expects errors (``guarded.expect_errors()``); and on any violation of
the page's Content-Security-Policy (a ``securitypolicyviolation`` event in any
of its frames), even when it expects errors.

The tests need Chromium at ``/usr/bin/chromium`` (or ``$OPTIMUS_CHROMIUM``) and
Playwright for Python; ``python build.py test`` installs both.  dist/ is
(re)built here when it is missing or older than its sources.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import shutil
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from optimus.core.record import Record, replay
from sitebuild import BuildError
from sitebuild.pins import axe_source
from sitebuild.server import start_server
from sitebuild.testing import CHROMIUM, browser_args

ROOT = Path(__file__).resolve().parents[2]
READY = 'html[data-python="ready"]'
READY_TIMEOUT_MS = 60_000
PUT = "([key, text]) => localStorage.setItem(key, text)"
RENDERER_CRASHED = "Target crashed"  # Playwright's error when a page's renderer dies
# What a crash looks like in Playwright's errors: "Target crashed" (most calls),
# "Page crashed" (a goto), "Navigation failed because page crashed!".
RERUN_ON = r"(?i)\b(target|page) crashed"
CRASH_RERUNS = 2  # how many times a test whose page crashed runs again


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's, which reads the group's mark
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test in tests/e2e as ``e2e`` (deselect with ``-m "not e2e"``).

    An e2e test whose page's renderer process crashed (Chromium killed the tab, as
    a crashed tab shows "Aw, Snap!") runs again, up to ``CRASH_RERUNS`` times, in a
    fresh browser (``chromium_stops_after``; pytest-rerunfailures, and the summary
    lists it as RERUN): a failure whose error says so (``RERUN_ON``), or any failure
    of a test after a page of its guard crashed (``pytest_runtest_call``).  Crashes
    come from the machine, not the page: none in the browser suite here, idle or
    beside a training on both cores, while one CI run had 33, all in one worker's
    browser.  Any other failure fails the test as before;
    tests/e2e/test_harness.py checks this.

    In a parallel run (pytest-xdist with ``--dist loadgroup``, as ``python build.py
    test`` runs) each file of browser tests is a group, run whole by one worker in
    order; xdist hands out the largest groups first, so the browser tests (most of the
    suite's time) start at once in both workers and the quick tests fill the gaps.
    """
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.flaky(reruns=CRASH_RERUNS, only_rerun=[RERUN_ON]))
            item.add_marker(pytest.mark.xdist_group(f"e2e:{Path(str(item.path)).name}"))


_GUARDS: list[Guard] = []  # the guards of the test running now


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    _GUARDS.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, Any]:
    """A test that fails after one of its pages crashed fails with the crash (for the
    rerun), chained to its own error: an ``expect`` waiting on the crashed page only
    times out, with nothing about the crash in its message."""
    try:
        return (yield)
    except Exception as exc:
        crash = renderer_crash(exc)
        if crash is None:
            raise
        raise crash from exc


def renderer_crash(exc: BaseException) -> AssertionError | None:
    """The error to fail with instead of ``exc`` if a page of this test's guards crashed
    and ``exc`` does not say so already; else None."""
    crashed = [url for guard in _GUARDS for url in guard.crashes]
    if not crashed or re.search(RERUN_ON, f"{type(exc).__name__}: {exc}"):
        return None
    return AssertionError(crash_message(crashed))


def crash_message(urls: list[str]) -> str:
    return f"{RENDERER_CRASHED}: the renderer of {urls} died"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: browser test in real Chromium (needs a built dist/)")
    config.addinivalue_line("markers", "xdist_group(name): run by one pytest-xdist worker")


class Chromium:
    """The one Chromium the browser tests share, started by the first of them and
    stopped after the last of a run of them (``pytest_runtest_teardown``).

    Playwright's sync API keeps an asyncio loop running in the test thread while it
    is started, and ``asyncio.run()`` refuses to start under a running loop: a test
    that runs a coroutine (the bot worker's messages) after the browser tests needs
    Playwright stopped.  In a parallel run (``python build.py test``) the worker that
    ran the browser tests goes on with other tests, without Chromium's processes."""

    def __init__(self) -> None:
        self.playwright: Any = None
        self.browser: Any = None

    def start(self) -> Any:
        if self.browser is not None:
            return self.browser
        if not Path(CHROMIUM).exists():
            pytest.fail(
                f"Chromium is missing at {CHROMIUM}: run `python build.py test` (it installs "
                "it), or `apt-get install -y chromium`, or set OPTIMUS_CHROMIUM",
                pytrace=False,
            )
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            pytest.fail("Playwright is not installed: run `python build.py test`", pytrace=False)
        # Chromium's own stderr (a crashed renderer's last words among it) goes into the
        # output pytest shows for a failed test; DEBUG is only read as the driver starts.
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("DEBUG", ",".join(filter(None, [os.environ.get("DEBUG"), "pw:browser"])))
            self.playwright = sync_playwright().start()
        try:
            self.browser = self.playwright.chromium.launch(
                executable_path=CHROMIUM, args=browser_args()
            )
        except BaseException:
            self.stop()
            raise
        return self.browser

    def stop(self) -> None:
        browser, playwright = self.browser, self.playwright
        self.browser = self.playwright = None
        try:
            if browser is not None:
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()


CHROMIUM_SHARED = Chromium()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, None, None]:
    """Chromium and Playwright stop after a test when ``chromium_stops_after`` says so:
    after the test's fixtures, its contexts among them, are torn down, even when one of
    them fails (a guard whose page crashed fails as it ends)."""
    try:
        return (yield)
    finally:
        if chromium_stops_after(item, nextitem):
            CHROMIUM_SHARED.stop()


def chromium_stops_after(item: pytest.Item, nextitem: pytest.Item | None) -> bool:
    """Whether the shared Chromium stops after ``item``: after the last browser test of a
    run of them, after the last of a file (each file starts in a fresh browser, so none
    lives for the whole suite), and after a test one of whose pages crashed (its rerun
    and the tests after it start in a fresh browser: in one CI run a worker's browser,
    once a renderer had died, lost 33 more in four minutes)."""
    return (
        any(guard.crashes for guard in _GUARDS)
        or nextitem is None
        or not nextitem.get_closest_marker("e2e")
        or nextitem.path != item.path
    )


@pytest.fixture
def browser() -> Any:
    """Debian Chromium, headless, driven by Playwright (never Playwright's own download):
    one for all the browser tests in a row (``Chromium``), each in contexts of its own."""
    return CHROMIUM_SHARED.start()


@pytest.fixture(scope="session")
def serve() -> Iterator[Callable[..., Any]]:
    """``serve(directory, prefix=..., extra=...)`` starts a server on a free port."""
    servers: list[Any] = []

    def start(directory: Path, **kwargs: Any) -> Any:
        server = start_server(directory, **kwargs)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


@pytest.fixture(scope="session")
def site(dist: Path, serve: Callable[..., Any]) -> str:
    """The base URL (ending in '/') of dist/ served at the root of a local server."""
    return str(serve(dist).url)


@dataclasses.dataclass
class Guard:
    """A page in a fresh browser context, with everything it did wrong recorded."""

    page: Any
    context: Any
    origin: str
    other_origins: list[str] = dataclasses.field(default_factory=list)  # e.g. an iframe's parent
    foreign: list[str] = dataclasses.field(default_factory=list)
    errors: list[str] = dataclasses.field(default_factory=list)
    http_errors: list[str] = dataclasses.field(default_factory=list)
    crashes: list[str] = dataclasses.field(default_factory=list)  # pages whose renderer died
    csp_violations: list[str] = dataclasses.field(default_factory=list)
    errors_expected: bool = False

    def new_page(self) -> Any:
        """A new tab in this context, watched like the first one."""
        page = self.context.new_page()
        page.on(
            "console",
            lambda msg: (
                self.errors.append(f"console.{msg.type}: {msg.text} ({_where(msg)})")
                if msg.type == "error"
                else None
            ),
        )
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("crash", lambda crashed: self.crashes.append(crashed.url))
        page.on(
            "response",
            lambda resp: (
                self.http_errors.append(f"{resp.status} {resp.url}") if resp.status >= 400 else None
            ),
        )
        return page

    def expect_errors(self) -> None:
        """This test provokes failures on purpose: console errors and 4xx are fine."""
        self.errors_expected = True

    def open_setup(
        self, site: str, game: str, players: int = 0, place: str = "1", lang: str = ""
    ) -> Any:
        """The page at ``game``'s set-up screen, with ``players`` chosen (and the
        person's ``place`` among them) when given, in ``lang`` (a link's ``?lang=``)
        when given."""
        page = self.page
        page.goto(f"{site}{f'?lang={lang}' if lang else ''}#/{game}")
        self.wait_ready()
        page.wait_for_selector("[data-role=setup]")
        if players:
            page.select_option("select[name=players]", str(players))
            if players > 1:
                page.select_option("select[name=seat]", place)
        return page

    def stored(self, site: str, items: dict[str, str]) -> Any:
        """The page at the landing screen of ``site``, ready, with ``items`` (key: text)
        written to its local storage: the next screen it opens reads them."""
        page = self.page
        page.goto(f"{site}#/")
        self.wait_ready()
        for key, text in items.items():
            page.evaluate(PUT, [key, text])
        return page

    def bot_speed(self, speed: str) -> None:
        """Choose the bots' speed (in the Settings dialog of the game bar, for every game)."""
        choose_speed(self.page, speed)

    def final_state(self) -> Any:
        """The finished game of the open end screen, replayed from the record it carries;
        fails unless the screen shows every seat's total as the engine scores it."""
        end = self.page.locator("dialog[data-role=end][open]")
        state = replay(Record.from_json(end.get_attribute("data-record")))
        assert state.is_terminal()
        shown = {
            int(el.get_attribute("data-seat")): float(el.get_attribute("data-total"))
            for el in end.locator(".final").all()
        }
        assert shown == dict(enumerate(state.scores()))
        return state

    def wait_ready(self, frame: Any = None, timeout_ms: float = READY_TIMEOUT_MS) -> None:
        """Wait until web Python sets ``<html data-python="ready">`` (fail early on "error")."""
        target = frame or self.page
        target.wait_for_selector(
            'html[data-python="ready"], html[data-python="error"]',
            state="attached",
            timeout=timeout_ms,
        )
        state = target.evaluate("document.documentElement.dataset.python")
        if state != "ready":
            message = target.evaluate("document.getElementById('boot-error')?.textContent")
            pytest.fail(f"Python failed to boot: {message}", pytrace=False)


def _where(msg: Any) -> str:
    """Where a console message comes from: a resource that failed to load names itself."""
    location = msg.location or {}
    return str(location.get("url") or "?")


def press_tool(target: Any, tool: str) -> None:
    """Press the game bar's ``tool`` (a selector inside ``#game-tools``, e.g.
    ``[data-action=settings]``) in ``target`` (a page or a frame): on a phone the tools
    used less are in the bar's "⋯" menu, opened first."""
    found = target.locator(f"#game-tools {tool}")
    if not found.is_visible():
        target.click("#game-tools [data-role=more]")
    found.click()


def choose_speed(target: Any, speed: str) -> None:
    """Choose the bots' ``speed`` in ``target`` (a page or a frame): it is in one place
    for every game, the Settings dialog of the game bar."""
    press_tool(target, "[data-action=settings]")
    target.select_option("dialog[open] select[name=speed]", speed)
    target.click("dialog[open] [data-action=close]")
    target.wait_for_selector("dialog[data-role=settings]:not([open])", state="attached")


CSP_WATCH = """
addEventListener("securitypolicyviolation", (event) => {
  window.__optimusCspViolation([event.violatedDirective, event.blockedURI,
    event.sourceFile + ":" + event.lineNumber, (event.sample || "").slice(0, 80),
    location.href].join(" | "));
}, true);
"""
"""Reports every Content-Security-Policy violation of a guarded context's frames
(``securitypolicyviolation``, fired at the document and bubbling to the window)."""


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


@contextlib.contextmanager
def guarding(context: Any, origin: str) -> Iterator[Guard]:
    """Guard ``context`` (closed at the end): its first page, and every page made with
    ``Guard.new_page``, fail the test on foreign requests or errors."""
    guard = Guard(page=None, context=context, origin=origin)
    _GUARDS.append(guard)

    def route(route: Any) -> None:
        url = route.request.url
        if _origin(url) in (guard.origin, *guard.other_origins) or url.startswith(
            ("data:", "blob:")
        ):
            route.continue_()
        else:
            guard.foreign.append(url)
            route.abort()

    context.route("**/*", route)
    context.expose_binding(
        "__optimusCspViolation", lambda source, text: guard.csp_violations.append(str(text))
    )
    context.add_init_script(CSP_WATCH)
    guard.page = guard.new_page()
    try:
        yield guard
    finally:
        context.close()
    assert not guard.crashes, crash_message(guard.crashes)
    assert not guard.foreign, f"requests to foreign hosts: {guard.foreign}"
    assert not guard.csp_violations, "Content-Security-Policy violations:\n" + "\n".join(
        guard.csp_violations
    )
    if not guard.errors_expected:
        assert not guard.http_errors, f"HTTP errors: {guard.http_errors}"
        assert not guard.errors, "console errors:\n" + "\n".join(guard.errors)


@pytest.fixture(scope="session")
def crash_error() -> Callable[[BaseException], AssertionError | None]:
    """:func:`renderer_crash`, for tests/e2e/test_harness.py."""
    return renderer_crash


@pytest.fixture(scope="session")
def stops_after() -> Callable[[pytest.Item, pytest.Item | None], bool]:
    """:func:`chromium_stops_after`, for tests/e2e/test_harness.py."""
    return chromium_stops_after


@pytest.fixture(scope="session")
def guard_context() -> Callable[[Any, str], contextlib.AbstractContextManager[Guard]]:
    """``guarding`` for tests that make their own context (e.g. a persistent profile)."""
    return guarding


PHONE = {"width": 390, "height": 844}
"""A phone held upright (the size the phone tests use)."""
DESKTOP = {"width": 1280, "height": 800}


def _guarded(browser: Any, site: str, **options: Any) -> Iterator[Guard]:
    # An English browser unless a test says otherwise (the page follows its languages).
    options.setdefault("locale", "en-US")
    options.setdefault("viewport", DESKTOP)
    context = browser.new_context(**options)
    with guarding(context, _origin(site)) as guard:
        yield guard


@pytest.fixture
def guarded(browser: Any, site: str) -> Iterator[Guard]:
    """A fresh context and page that fail the test on foreign requests or errors.

    Service workers are blocked here (the page then plays without one, as where
    a browser refuses them): a worker's install would download the whole site
    again in the background of every test.  tests/e2e/test_offline.py uses
    ``guarded_sw``.
    """
    yield from _guarded(browser, site, service_workers="block")


@pytest.fixture
def guarded_phone(browser: Any, site: str) -> Iterator[Guard]:
    """Like ``guarded``, on a phone: 390x844, a touch screen (``locator.tap()``), mobile."""
    yield from _guarded(
        browser, site, service_workers="block", viewport=PHONE, has_touch=True, is_mobile=True
    )


LANDSCAPE = {"width": 844, "height": 390}
"""A phone held on its side."""


@pytest.fixture
def guarded_landscape(browser: Any, site: str) -> Iterator[Guard]:
    """Like ``guarded_phone``, the phone on its side: 844x390."""
    yield from _guarded(
        browser, site, service_workers="block", viewport=LANDSCAPE, has_touch=True, is_mobile=True
    )


@pytest.fixture
def guarded_sw(browser: Any, site: str) -> Iterator[Guard]:
    """Like ``guarded``, with service workers allowed (requests they make are guarded too)."""
    yield from _guarded(browser, site, service_workers="allow")


class FileirasTable:
    """Drives the Fileiras table by clicking, for tests about the site rather than the
    game (offline, embedding).  What it relies on in the table's markup
    (web/fileiras_view.py) is here only: adapt it when the markup changes."""

    setup = "[data-role=setup]"
    start = "[data-action=start]"
    players = "select[name=players]"
    speed = "select[name=speed]"
    your_turn = ".status.you"
    end = "[data-role=end][open]"
    take, draw, place = "[data-move^='take']", "[data-move=draw]", "[data-move^='place']"
    final_score = ".final"

    def play_to_the_end(self, target: Any) -> int:
        """Start a two-player game in ``target`` (a page or an iframe's frame) and click
        legal moves until it ends; return the number of seats in the final scores.
        A page that is not on the Fileiras route is sent there first."""
        if "#/fileiras" not in target.url:
            target.goto(target.url.split("#")[0] + "#/fileiras")
        target.wait_for_selector(self.setup)
        target.select_option(self.players, "2")
        self.instant(target)
        target.click(self.start)
        return self.finish(target)

    def add_example_bot(self, target: Any) -> str:
        """From the end of a game: back to the set-up screen, and the example bot of
        docs/bots.md chosen with the picker; the picker's message once it is loaded
        (in the bot worker) or refused."""
        target.click(f"{self.end} [data-action=new]")
        target.wait_for_selector(self.setup)
        example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "greedy_bot.py"
        data = example.read_bytes()
        file = {"name": "greedy_bot.py", "mimeType": "text/x-python", "buffer": data}
        target.set_input_files("[data-role=bot-file]", [file])
        message = "[data-role=bot-message]"
        target.wait_for_selector(f"{message}[data-state=done], {message}[data-state=error]")
        return str(target.text_content(message))

    def play_the_example_bot(self, target: Any) -> int:
        """A two-player game against the example bot (added): the seats in the final scores."""
        target.select_option(self.players, "2")
        target.select_option("select[name=bot0]", "greedy_bot:GreedyBot")
        target.click(self.start)
        return self.finish(target)

    def instant(self, target: Any) -> None:
        """Bots play at once (the speed is in the Settings dialog of the game bar)."""
        choose_speed(target, "instant")

    def finish(self, target: Any, each_turn: Callable[[], None] = lambda: None) -> int:
        """Click legal moves in the game started in ``target`` until it ends (calling
        ``each_turn`` whenever it is the person's turn); the seats in the final scores."""
        for _ in range(200):
            target.wait_for_selector(f"{self.end}, {self.your_turn}", timeout=30_000)
            if target.locator(self.end).count():
                return int(target.locator(self.final_score).count())
            each_turn()
            self.move(target)
        pytest.fail("the game did not end within 200 turns")

    def move(self, target: Any) -> None:
        """The person's decision on their turn: draw and place a card (or place the one
        drawn, when that placing was undone), else take the first row."""
        if target.locator(self.draw).count():
            target.click(self.draw)
            target.locator(self.place).first.click()
        elif target.locator(self.place).count():
            target.locator(self.place).first.click()
        else:
            target.locator(self.take).first.click()


@pytest.fixture(scope="session")
def fileiras() -> FileirasTable:
    """The Fileiras table driver (see ``FileirasTable``)."""
    return FileirasTable()


@pytest.fixture
def broken_dist(dist: Path, tmp_path: Path) -> Callable[[Callable[[Path], None]], Path]:
    """A copy of dist/ damaged by a callback (e.g. a deleted wheel)."""

    def make(damage: Callable[[Path], None]) -> Path:
        copy = tmp_path / "dist"
        shutil.copytree(dist, copy, copy_function=_link_or_copy)
        damage(copy)
        return copy

    return make


def _link_or_copy(src: str, dst: str) -> None:
    # Hard links make the 14 MB copy instant; damage callbacks must replace
    # files (unlink + write), never write into them.
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


@pytest.fixture(scope="session")
def axe_audit() -> Callable[[Any], list[str]]:
    """``axe_audit(page)``: axe-core's violations on the page, one readable line each.

    axe-core is pinned in sitebuild/pins.py (TEST_PINS) and fetched with npm like the
    runtime; it is injected as an inline script (no request leaves the site).
    """
    try:
        source = axe_source()
    except BuildError as exc:
        pytest.fail(f"could not fetch axe-core for the accessibility audit: {exc}", pytrace=False)

    def audit(page: Any) -> list[str]:
        if not page.evaluate("typeof window.axe === 'object'"):
            # Evaluated by the browser's tools, not as a script element of the page
            # (its Content-Security-Policy refuses inline scripts).
            page.evaluate("(source) => (0, eval)(source)", source)
        found = page.evaluate(
            """async () => (await axe.run(document, {resultTypes: ["violations"]}))
                .violations.map(v => `${v.id} (${v.impact}): ${v.help} -- ` +
                    v.nodes.slice(0, 4).map(n => n.target.join(" ") + ": " +
                        (n.failureSummary || "").replace(/\\s+/g, " ")).join(" | "))"""
        )
        return [str(line) for line in found]

    return audit


TOUCH_TARGETS = """([least, barLeast]) => {
  const modal = document.querySelector('dialog[open]');
  const pick = '[data-move], [data-action], .game-bar a[href], .game-bar button, .game-bar select';
  const small = [], sideways = [], least_seen = {board: null, bar: null};
  for (const el of document.querySelectorAll(pick)) {
    if (el.disabled || el.closest('[hidden], dialog:not([open])')) continue;
    if (!el.getClientRects().length || (modal && !modal.contains(el))) continue;  // not tappable
    const r = el.getBoundingClientRect();
    if (r.width <= 1 && r.height <= 1) continue;  // visually hidden (its label is the target)
    const kind = el.closest('.game-bar') ? 'bar' : 'board';
    const side = Math.min(r.width, r.height);
    least_seen[kind] = least_seen[kind] === null ? side : Math.min(least_seen[kind], side);
    if (side < (kind === 'bar' ? barLeast : least) - 0.5) {
      const what = el.getAttribute('aria-label') || el.getAttribute('data-move') ||
        el.textContent.trim().slice(0, 30);
      small.push(`${el.tagName.toLowerCase()}.${el.className} "${what}": ` +
        `${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  const page = document.scrollingElement;
  if (page.scrollWidth > innerWidth) sideways.push(`the page is ${page.scrollWidth} px wide`);
  for (const el of document.querySelectorAll('#main *')) {
    const overflow = getComputedStyle(el).overflowX;
    if ((overflow === 'auto' || overflow === 'scroll') && el.scrollWidth > el.clientWidth + 1)
      sideways.push(`${el.tagName.toLowerCase()}.${el.className} scrolls sideways ` +
        `(${el.scrollWidth} in ${el.clientWidth})`);
  }
  return {small, sideways, board: least_seen.board, bar: least_seen.bar};
}"""


@dataclasses.dataclass
class TouchTargets:
    """What a person can tap on a page now, measured (``touch_targets``)."""

    small: list[str]
    """Targets under their least size (each: what, width x height)."""
    sideways: list[str]
    """The page, or a box in it, that scrolls sideways."""
    board: float | None
    """The short side (px) of the smallest target outside the game bar (None: none)."""
    bar: float | None
    """The short side of the game bar's smallest item (None: no bar shown)."""


@pytest.fixture(scope="session")
def touch_targets() -> Callable[..., TouchTargets]:
    """``touch_targets(page, least=40, bar=32)``: every enabled target of the page (what it
    marks as playable or clickable, ``data-move``/``data-action``, and the game bar's links,
    buttons and select; inside the open dialog only, when one is open) measured: those
    whose short side is under ``least`` px (the game bar's under ``bar``), the smallest
    sizes, and whatever scrolls sideways (the page or a box in ``#main``)."""

    def measure(page: Any, least: float = 40, bar: float = 32) -> TouchTargets:
        found = page.evaluate(TOUCH_TARGETS, [least, bar])
        return TouchTargets(found["small"], found["sideways"], found["board"], found["bar"])

    return measure


TEXT_RECTS = """(scope) => {
  const root = document.querySelector(scope) || document.body, out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const clip = (el, r) => {  // what an ancestor that clips its overflow lets show
    let [l, t, rt, b] = [r.left, r.top, r.right, r.bottom];
    for (let a = el; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible' && s.clipPath === 'none') continue;
      const c = a.getBoundingClientRect();
      l = Math.max(l, c.left); t = Math.max(t, c.top);
      rt = Math.min(rt, c.right); b = Math.min(b, c.bottom);
    }
    return [l, t, rt, b];
  };
  const underSticky = (el, x, y) => {  // the text's middle hidden by a sticky bar above it
    const hit = document.elementFromPoint(x, y);
    if (!hit || el.contains(hit) || hit.contains(el)) return false;
    for (let a = hit; a; a = a.parentElement)
      if (getComputedStyle(a).position === 'sticky') return !a.contains(el);
    return false;
  };
  let n = 0;
  const pieces = new Map();  // a piece's picture: glyphs drawn together, named once
  const pieceOf = (el) => {
    const named = el.closest('[aria-hidden=true]')
      && el.closest('[role=img], button, [aria-label]');
    if (!named) return 0;
    if (!pieces.has(named)) pieces.set(named, pieces.size + 1);
    return pieces.get(named);
  };
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement, text = node.textContent.trim();
    if (!text || !el || el.closest('[hidden], dialog:not([open]), [data-role=hint]')) continue;
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    range.selectNodeContents(node);
    n += 1;
    for (const r of range.getClientRects()) {
      const [l, t, rt, b] = clip(el, r);
      if (rt - l < 2 || b - t < 2) continue;  // clipped away (read by screen readers only)
      if (underSticky(el, (l + rt) / 2, (t + b) / 2)) continue;  // scrolled under a bar
      const name = el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
        ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
      out.push([n, pieceOf(el), `${name} "${text.slice(0, 30)}"`, l, t, rt, b]);
    }
  }
  return out;
}"""


SCREEN_TEXT = """() => {
  const parts = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll('[aria-label], [title], [alt], [placeholder]')) {
    if (el.closest('[hidden]')) continue;
    for (const name of ['aria-label', 'title', 'alt', 'placeholder']) {
      const value = el.getAttribute(name);
      if (value) parts.push(value);
    }
  }
  return parts.join('\\n');
}"""
"""The page's words: its title, the text on screen, and the names and tips of its
elements (what a screen reader or a long press says)."""


def english_on_screen(page: Any, lang: str) -> list[str]:
    """The English phrases left on the page shown in ``lang`` (``pt`` or ``ca``): none
    when every message on screen is translated (``sitebuild.i18n.english_left``)."""
    from sitebuild.i18n import english_left, english_phrases

    if lang not in _PHRASES:
        _PHRASES[lang] = english_phrases(lang)
    return english_left(page.evaluate(SCREEN_TEXT), _PHRASES[lang])


_PHRASES: dict[str, dict[str, str]] = {}


def text_overlaps(page: Any, scope: str = "#game", tolerance: float = 2.0) -> list[str]:
    """Every pair of visible texts of ``scope`` (the game's section: its bar and table)
    whose boxes overlap by more than ``tolerance`` px both ways, as "a / b" lines: the
    boxes of the text itself (a range over each text node, clipped by the ancestors that
    clip their overflow), not of the elements, so a label inside a card is not the card.
    The glyphs of one piece's picture (hidden from screen readers inside an element
    named as a whole: a box's colour symbol and star, a die's value and symbol) are
    drawn together on purpose and are not compared with each other; nor is a text scrolled
    under a sticky bar (the phone's bar of controls), which hides it whole."""
    rects = page.evaluate(TEXT_RECTS, scope)
    found = []
    for i, (n1, piece1, name1, l1, t1, r1, b1) in enumerate(rects):
        for n2, piece2, name2, l2, t2, r2, b2 in rects[i + 1 :]:
            if n1 == n2 or (piece1 and piece1 == piece2):
                continue
            if min(r1, r2) - max(l1, l2) > tolerance and min(b1, b2) - max(t1, t2) > tolerance:
                found.append(f"{name1} / {name2}")
    return found


SCREENSHOTS = ROOT / "test-results" / "screens"


@pytest.fixture(scope="session")
def screenshot() -> Callable[[Any, str], Path]:
    """``screenshot(page, name)`` saves a PNG under test-results/screens/ and prints its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path))
        print(f"screenshot: {path.relative_to(ROOT)}")
        return path

    return take


THINKING_WATCH = """
window.__longtasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
}).observe({type: "longtask", buffered: true});
window.__thinking = [];  // [from, to] while the status line says a bot is thinking
new MutationObserver(() => {
  const now = performance.now(), on = !!document.querySelector(".status.thinking");
  const open = window.__thinking.length && window.__thinking.at(-1)[1] === null;
  if (on && !open) window.__thinking.push([now, null]);
  if (!on && open) window.__thinking.at(-1)[1] = now;
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["class"]});
window.__ticks = [];  // when a timer of the page's own ran while a bot was thinking
(function tick() {
  if (document.querySelector(".status.thinking")) window.__ticks.push(performance.now());
  setTimeout(tick, 4);
})();
"""


class ThinkingWatch:
    """Long tasks of a page and the spans in which its status line said a bot was thinking."""

    def __init__(self, page: Any) -> None:
        self.page = page
        page.add_init_script(THINKING_WATCH)

    def spans(self) -> list[tuple[float, float]]:
        """The thinking spans seen so far; one still open ends now."""
        now = float(self.page.evaluate("performance.now()"))
        return [(a, now if b is None else b) for a, b in self.page.evaluate("window.__thinking")]

    def during_thinking(self) -> list[float]:
        """Durations (ms, sorted) of the long tasks that start while a bot is thinking.

        Not the task that turned the status to "thinking" (it draws the table and starts
        the bot loop); a bot that thinks in one piece shows as a task inside the span."""
        spans = self.spans()
        tasks = self.page.evaluate("window.__longtasks")
        during = sorted(d for t, d in tasks if any(a <= t < b for a, b in spans))
        print("thinking spans (ms):", [(round(a), round(b)) for a, b in spans])
        print("long tasks (start, ms):", [(round(t), round(d)) for t, d in tasks])
        print("long tasks while bots think (ms):", during)
        return during

    def assert_no_freeze(self) -> None:
        """Bots think in slices and give the page back between them: while they think,
        the page's own timers keep running, more than once per bot decision on the
        whole (a bot that thinks in one piece lets them run once at most, before it
        starts).  How long the tasks are is printed, not asserted: durations depend on
        the machine's load (speed is measured by benchmarks, docs/bots.md)."""
        spans = self.spans()
        assert spans, "no bot was seen thinking"
        self.during_thinking()
        ticks = self.page.evaluate("window.__ticks")
        inside = sum(1 for t in ticks if any(a <= t < b for a, b in spans))
        print(f"page timers run while bots think: {inside} in {len(spans)} spans")
        assert inside > len(spans), f"{inside} timer runs in {len(spans)} thinking spans"


@pytest.fixture
def thinking_watch(guarded: Guard) -> ThinkingWatch:
    """Watch the guarded page's long tasks while bots think (set up before it loads)."""
    return ThinkingWatch(guarded.page)
