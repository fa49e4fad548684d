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


def _embed_and_play(
    guard: Guard,
    site: str,
    serve: Callable[..., Any],
    dist: Path,
    fileiras: Any,
    sandbox: str | None,
) -> Any:
    src = site + "#/fileiras"
    parent = serve(dist, extra={"/blog.html": ("text/html", parent_page(src, sandbox))})
    blog = parent.url.replace("127.0.0.1", "localhost") + "blog.html"
    guard.other_origins.append(_origin(blog))
    page = guard.page
    page.add_init_script(REJECTIONS)  # runs in the iframe too
    page.goto(blog)
    frame = page.wait_for_selector("#embed").content_frame()
    guard.wait_ready(frame)
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


def test_a_language_link_in_a_cross_origin_iframe_opens_in_catalan(
    no_storage: Guard, site: str, serve: Callable[..., Any], dist: Path
) -> None:
    """A blog embeds ``?lang=ca`` (docs/embed.md) in a Portuguese-less, storage-less
    frame: the table inside speaks Catalan, and its language switch still works."""
    from sitebuild.i18n import english_left, english_phrases

    src = site + "?lang=ca#/fileiras"
    parent = serve(dist, extra={"/blog.html": ("text/html", parent_page(src, None))})
    blog = parent.url.replace("127.0.0.1", "localhost") + "blog.html"
    no_storage.other_origins.append(_origin(blog))
    page = no_storage.page
    page.goto(blog)
    frame = page.wait_for_selector("#embed").content_frame()
    no_storage.wait_ready(frame)
    frame.wait_for_selector("[data-role=setup]")
    assert frame.evaluate("document.documentElement.lang") == "ca"
    text = frame.evaluate("document.body.innerText")
    assert not english_left(text, english_phrases("ca"))
    frame.select_option("#game .game-bar select[data-language]", "pt")
    frame.wait_for_function("document.documentElement.lang === 'pt-BR'")
    frame.wait_for_selector("[data-role=setup]")
    assert not english_left(frame.evaluate("document.body.innerText"), english_phrases("pt"))
