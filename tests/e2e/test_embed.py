"""The site embedded as a blog would embed it, in real Chromium (issue 10).

The parent page is on another origin (``localhost`` against the site's
``127.0.0.1``).  In one test the iframe is cross-origin in a browser whose
visitor blocks site data: IndexedDB opens fail ("The user denied permission to
access the database") and ``localStorage`` throws ``SecurityError``.  In the
other it is sandboxed with ``allow-scripts`` only, so it has an opaque origin,
may use no storage at all, and loads the site's files through CORS (the test
server sends ``Access-Control-Allow-Origin: *`` as GitHub Pages does).  Both
must boot and play a game to its end with no page error and no unhandled
rejection.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from optimus.core.record import Record
from sitebuild.testing import CHROMIUM, browser_args

Guard = Any  # conftest.Guard

REJECTIONS = """
window.__rejections = [];
addEventListener("unhandledrejection", (event) => {
  window.__rejections.push(String(event.reason && event.reason.message || event.reason));
});
"""


def parent_page(src: str, sandbox: str | None) -> bytes:
    """A blog-like page embedding ``src`` with the snippet docs/embed.md gives."""
    attribute = f' sandbox="{sandbox}"' if sandbox is not None else ""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>A blog</title>"
        "<link rel='icon' href='data:,'></head><body><h1>A blog post</h1>"
        f"<iframe id='embed' src='{src}' title='Fileiras, on Optimus Table' width='100%'"
        f" height='720' style='border: 0; max-width: 960px;'{attribute}></iframe>"
        "</body></html>"
    ).encode()


@pytest.fixture
def no_storage(
    browser: Any, site: str, tmp_path: Path, guard_context: Callable[..., Any]
) -> Iterator[Guard]:
    """A guarded page in a browser profile that blocks all site data, as a visitor can
    in Chromium's settings (a profile of its own: incognito contexts cannot)."""
    profile = tmp_path / "profile"
    (profile / "Default").mkdir(parents=True)
    blocked = {"profile": {"default_content_setting_values": {"cookies": 2}}}
    (profile / "Default" / "Preferences").write_text(json.dumps(blocked))
    context = browser.browser_type.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        args=browser_args(),
        viewport={"width": 1280, "height": 800},
    )
    for page in context.pages:  # the profile's blank first tab: not guarded
        page.close()
    with guard_context(context, _origin(site)) as guard:
        yield guard


def _origin(url: str) -> str:
    return "/".join(url.split("/")[:3])


def embedded(
    guard: Guard, serve: Callable[..., Any], dist: Path, src: str, sandbox: str | None
) -> tuple[Any, Any]:
    """A blog on another origin embedding ``src``: the page and the iframe's frame, ready."""
    parent = serve(dist, extra={"/blog.html": ("text/html", parent_page(src, sandbox))})
    blog = parent.url.replace("127.0.0.1", "localhost") + "blog.html"
    guard.other_origins.append(_origin(blog))
    page = guard.page
    page.goto(blog)
    frame = page.wait_for_selector("#embed").content_frame()
    guard.wait_ready(frame)
    return page, frame


def _embed_and_play(
    guard: Guard,
    site: str,
    serve: Callable[..., Any],
    dist: Path,
    fileiras: Any,
    sandbox: str | None,
) -> Any:
    guard.page.add_init_script(REJECTIONS)  # runs in the iframe too
    page, frame = embedded(guard, serve, dist, site + "#/fileiras", sandbox)
    # No storage of any kind: PyScript's database lives in memory, no service worker.
    assert frame.evaluate("document.documentElement.dataset.storage") == "memory"
    assert frame.evaluate("document.documentElement.dataset.offline") == "unavailable"
    assert fileiras.play_to_the_end(frame) == 2
    assert frame.evaluate("window.__rejections") == []
    assert page.evaluate("window.__rejections") == []
    assert frame.locator("#boot-error").is_hidden()
    return frame


def test_in_a_cross_origin_iframe_with_site_data_blocked_the_site_plays_to_the_end(
    no_storage: Guard, site: str, dist: Path, serve: Callable[..., Any], fileiras: Any
) -> None:
    frame = _embed_and_play(no_storage, site, serve, dist, fileiras, sandbox=None)
    refused = frame.evaluate(
        "() => { try { localStorage.length; return false; } catch (e) { return e.name; } }"
    )
    assert refused == "SecurityError"  # the storage really was refused
    # A player's bot runs in the bot worker here too: messages, no SharedArrayBuffer.
    assert frame.evaluate("self.crossOriginIsolated") is False
    assert "Added GreedyBot (greedy_bot)" in fileiras.add_example_bot(frame)
    assert fileiras.play_the_example_bot(frame) == 2
    assert frame.locator(".log li.note").count() == 0  # the bot itself played
    assert frame.evaluate("window.__rejections") == []


def test_in_an_iframe_sandboxed_with_allow_scripts_only_the_site_plays_to_the_end(
    guarded: Guard, site: str, dist: Path, serve: Callable[..., Any], fileiras: Any
) -> None:
    frame = _embed_and_play(guarded, site, serve, dist, fileiras, sandbox="allow-scripts")
    assert frame.evaluate("self.origin") == "null"  # an opaque origin
    # A page of an opaque origin cannot start a worker from the site's files: a
    # player's bot is refused in words (it would run in the page otherwise).
    said = fileiras.add_example_bot(frame)
    assert said.startswith("Could not add a bot. Your bots cannot run here:"), said
    # No download can start here (issue 39, item 10): Export shows the text to copy.
    frame.evaluate("location.hash = '#/records'")
    frame.click("[data-action=records-export]")
    text = frame.locator("[data-role=records-text][open] textarea")
    text.wait_for()
    assert json.loads(text.input_value())["format"] == "optimus-table-records"
    assert json.loads(text.input_value())["games"]["fileiras"]


def test_a_language_link_in_a_cross_origin_iframe_opens_in_catalan(
    no_storage: Guard, site: str, serve: Callable[..., Any], dist: Path
) -> None:
    """A blog embeds ``?lang=ca`` (docs/embed.md) in a Portuguese-less, storage-less
    frame: the table inside speaks Catalan, and its language switch still works."""
    from sitebuild.i18n import english_left, english_phrases

    _page, frame = embedded(no_storage, serve, dist, site + "?lang=ca#/fileiras", None)
    frame.wait_for_selector("[data-role=setup]")
    assert frame.evaluate("document.documentElement.lang") == "ca"
    text = frame.evaluate("document.body.innerText")
    assert not english_left(text, english_phrases("ca"))
    frame.select_option("#game .game-bar select[data-language]", "pt")
    frame.wait_for_function("document.documentElement.lang === 'pt-BR'")
    frame.wait_for_selector("[data-role=setup]")
    assert not english_left(frame.evaluate("document.body.innerText"), english_phrases("pt"))
    # No storage here: the frame's address keeps the choice (a reload of the frame keeps it).
    assert "lang=pt" in frame.url and frame.url.endswith("#/fileiras")


HANDOVER = "[data-role=handover]:not([hidden])"
END = "dialog[data-role=end][open]"
UNDO = "#game-tools [data-action=take-back]"
NEXT = f".status.you, {END}, {HANDOVER}"
FRAME_FITS = "() => document.scrollingElement.scrollWidth <= innerWidth"


def test_the_table_features_work_in_a_storage_less_cross_origin_iframe(
    no_storage: Guard, site: str, serve: Callable[..., Any], dist: Path, fileiras: Any
) -> None:
    """In a blog's iframe whose visitor blocks site data: a deal link seating two people
    and a bot starts at once, undo takes a decision back, the hand-over screen passes
    the device, the end screen offers the same deal and its link, and the records,
    a replay and the daily challenge work for the page's life (and say so)."""
    src = site + "#/fileiras?seed=812&players=you,Ana,easy"
    page, frame = embedded(no_storage, serve, dist, src, None)
    frame.wait_for_selector(NEXT)
    fileiras.instant(frame)
    undone = handovers = 0
    for _ in range(400):
        frame.wait_for_selector(NEXT, timeout=60_000)
        if frame.locator(END).count():
            break
        if frame.locator(HANDOVER).count():
            assert frame.evaluate(FRAME_FITS)
            frame.click(f"{HANDOVER} [data-action=handover]")
            frame.wait_for_selector("[data-role=play]:not([hidden])")
            handovers += 1
            continue
        fileiras.move(frame)
        if not undone and frame.locator(f"{UNDO}:not([hidden]):not([disabled])").count():
            frame.click(UNDO)  # taken back: the same person decides again
            frame.wait_for_selector(".status.you")
            assert frame.locator(HANDOVER).count() == 0
            undone += 1
    assert undone == 1 and handovers > 3
    end = frame.locator(END)
    assert Record.from_json(end.get_attribute("data-record")).seed == 812
    assert "Ana" in end.inner_text()
    # No clipboard for a cross-origin frame: the link is shown to copy by hand.
    frame.click(f"{END} [data-action=copy-link]")
    frame.wait_for_selector(f"{END} [data-role=link-said]:not(:empty)")
    link = frame.locator(f"{END} [data-role=link-text]").input_value()
    assert link.endswith("#/fileiras?seed=812&players=you,Ana,easy&advanced=0"), link
    # The records, for the page's life: the game counts, and it can be watched again.
    frame.click(f"{END} a[href='#/records']")
    frame.wait_for_selector(".notice:has-text('last only until you close the page')")
    row = frame.locator('.records-game[data-game="fileiras"] .records-line[data-level="easy"]')
    assert row.get_attribute("data-played") == "1"
    assert frame.evaluate(FRAME_FITS)
    frame.locator(".replays li").first.locator("a").click()
    frame.wait_for_selector("[data-role=replay-bar]")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the frame is narrow
    assert frame.evaluate(FRAME_FITS)
    frame.evaluate("location.hash = '#/fileiras/daily?date=2026-12-01'")
    frame.wait_for_selector("[data-role=title-note]:has-text('1 December 2026')")
    frame.wait_for_selector(".status.you")
    assert frame.evaluate(FRAME_FITS)
