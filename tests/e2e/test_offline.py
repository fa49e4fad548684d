"""Offline after one visit, updates and installing, in real Chromium (issue 11).

The site is served under a sub-path, as a GitHub Pages project site is, so the
service worker's scope is the site's folder and not the origin.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from optimus.games import listed
from sitebuild import PY_SRC, STAMP_NAME
from sitebuild.dist import build
from sitebuild.testing import CHROMIUM, browser_args

Guard = Any  # conftest.Guard
READY_TIMEOUT_MS = 60_000
PREFIX = "/games/optimus-table/"
OFFLINE_READY = 'html[data-offline="ready"]'
INSTALL_TIMEOUT_MS = 90_000  # the worker caches 14 MB on a busy machine

# --------------------------------------------------------------------------- helpers


@pytest.fixture
def sub_site(dist: Path, serve: Callable[..., Any], guarded_sw: Guard) -> str:
    """dist/ served under PREFIX by a server of its own (its own origin, so its own workers)."""
    server = serve(dist, prefix=PREFIX)
    guarded_sw.origin = server.url.split(PREFIX)[0]
    return str(server.url)


NOTES = """
window.__notes = [];
new MutationObserver(() => {
  const note = document.getElementById("offline-note");
  if (note && window.__notes[window.__notes.length - 1] !== note.innerText)
    window.__notes.push(note.innerText);
}).observe(document, {childList: true, subtree: true, characterData: true});
"""
"""Every text the offline note showed (it may go before the test reads it)."""


NOTE_PLACE = """() => {
  const note = document.getElementById("offline-note");
  const r = note.getBoundingClientRect();
  const overlaps = (b) => b.width && b.height && b.left < r.right && r.left < b.right
    && b.top < r.bottom && r.top < b.bottom;
  const covered = [...document.querySelectorAll("a, button, select, input, h1, p, .status")]
    .filter((el) => !note.contains(el) && !el.contains(note) && el.getClientRects().length)
    .filter((el) => overlaps(el.getBoundingClientRect()))
    .map((el) => el.outerHTML.slice(0, 80));
  return {lines: note.querySelector("span").getClientRects().length, covered,
          text: note.innerText};
}"""
"""Where the offline note is: how many lines its words take, what of the page it covers."""


def check_note(page: Any, words: str) -> None:
    """The offline note says ``words`` on one short line and covers nothing of the page."""
    place = page.evaluate(NOTE_PLACE)
    assert words in place["text"], place
    assert place["lines"] == 1 and place["covered"] == [], place


def first_visit(guard: Guard, url: str) -> Any:
    """Open ``url`` online and wait until Python is ready and the worker has cached the site."""
    page = guard.page
    page.add_init_script(NOTES)
    page.goto(url)
    guard.wait_ready()
    page.wait_for_selector(OFFLINE_READY, state="attached", timeout=INSTALL_TIMEOUT_MS)
    return page


def cache_names(page: Any) -> list[str]:
    return sorted(page.evaluate("caches.keys()"))


def built_id(dist: Path) -> str:
    return str(json.loads((dist / STAMP_NAME).read_text())["build"])


# --------------------------------------------------------------------------- tests


def test_after_one_visit_the_site_reloads_and_opens_offline_and_plays_to_the_end(
    guarded_sw: Guard, sub_site: str, dist: Path, fileiras: Any
) -> None:
    requested: list[str] = []
    guarded_sw.context.on("request", lambda request: requested.append(request.url))
    page = first_visit(guarded_sw, sub_site)
    page.wait_for_function("window.__notes.length > 0")
    assert "Now works offline" in page.evaluate("window.__notes[0]")
    # One short line in the page's flow, under the header: it covers nothing.  It asks
    # nothing, so it goes with the next page (the table is never drawn under it).
    check_note(page, "Now works offline")
    page.evaluate("location.hash = '#/fileiras'")
    page.wait_for_selector("#offline-note", state="detached")
    # One cache, named after this build and the site's folder.
    assert cache_names(page) == [f"optimus-table {PREFIX} {built_id(dist)}"]
    scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
    assert scope == sub_site

    # The first visit's page is not the service worker's: let its preload of the games'
    # archives end before the network goes (on a busy machine it may still be fetching).
    page.wait_for_selector(f"html[data-preloaded*={listed()[-1].id}_view]", state="attached")
    guarded_sw.context.set_offline(True)
    page.reload()
    guarded_sw.wait_ready()
    assert page.locator("#offline-note").count() == 0  # said once, not on every load
    assert page.get_attribute("html", "data-offline") == "ready"
    assert fileiras.play_to_the_end(page) == 2
    # A player's bot, offline: the bot worker's script, Pyodide and our archives are
    # served by the service worker to the bot worker too.
    assert "Added GreedyBot (greedy_bot)" in fileiras.add_example_bot(page)
    assert fileiras.play_the_example_bot(page) == 2
    assert page.locator(".log li.note").count() == 0  # the bot itself played
    page.close()

    tab = guarded_sw.new_page()  # a new tab, still offline
    guarded_sw.page = tab
    archives: list[Any] = []  # the games' archives: fetched after the boot (web/lazy.py)
    tab.on("response", lambda r: archives.append(r) if r.url.endswith(".zip.gz") else None)
    tab.goto(sub_site + "#/fileiras")  # fetched at once: the route needs it
    guarded_sw.wait_ready()
    assert fileiras.play_to_the_end(tab) == 2
    tab.evaluate("location.hash = '#/optimus2'")  # another game, first opened offline
    tab.wait_for_selector("#game-view [data-role=setup]")
    fetched = {r.url.rsplit("/", 1)[-1].split("-")[0] for r in archives}
    assert {"table", "fileiras", "optimus2"} <= fetched
    assert all(r.ok and r.from_service_worker for r in archives)
    # The table's own pages offline: the daily challenge, the records, a replay.
    tab.evaluate("location.hash = '#/optimus2/daily?date=2026-12-01'")
    tab.wait_for_selector("[data-role=title-note]:has-text('1 December 2026')")
    tab.wait_for_selector("[data-role=board] .o2board")
    tab.evaluate("location.hash = '#/records'")
    tab.wait_for_selector(".records-game[data-game=fileiras] .records-line[data-played='2']")
    tab.locator(".replays li").first.locator("a").click()
    tab.wait_for_selector("[data-role=replay-bar]")
    tab.close()
    assert all(url.startswith(sub_site) for url in requested), {
        url for url in requested if not url.startswith(sub_site)
    }


@pytest.fixture
def rebuilt(tmp_path: Path) -> Iterator[Callable[[str], str]]:
    """``rebuild(version)`` builds the site into one served folder, with the rules
    package's ``__version__`` changed to ``version`` (so its wheel changes too);
    returns the build's id."""
    folder = tmp_path / "site"
    package = tmp_path / "src" / "optimus"

    def rebuild(version: str) -> str:
        import shutil

        shutil.rmtree(package, ignore_errors=True)
        shutil.copytree(PY_SRC, package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        init = package / "__init__.py"
        init.write_text(init.read_text() + f"\n__version__ = {version!r}\n")
        build(folder, quiet=True, py_src=package)
        return built_id(folder)

    rebuild.folder = folder  # type: ignore[attr-defined]
    yield rebuild


def test_a_new_build_is_taken_whole_and_the_old_cache_is_deleted(
    guarded_sw: Guard, rebuilt: Any, serve: Callable[..., Any], fileiras: Any
) -> None:
    first = rebuilt("0.1.0+first")
    server = serve(rebuilt.folder, prefix=PREFIX)
    guarded_sw.origin = server.url.split(PREFIX)[0]
    page = first_visit(guarded_sw, server.url)
    assert page.get_attribute("html", "data-optimus-version") == "0.1.0+first"
    prefix = f"optimus-table {PREFIX} "
    assert cache_names(page) == [prefix + first]

    # On the landing page no game is open: the next online visit takes the new build.
    second = rebuilt("0.1.0+second")
    page.reload()
    page.wait_for_selector(
        'html[data-python="ready"][data-optimus-version="0.1.0+second"]',
        state="attached",
        timeout=INSTALL_TIMEOUT_MS,
    )
    page.wait_for_function(
        f"caches.keys().then(names => names.join() === {json.dumps(prefix + second)})",
        timeout=READY_TIMEOUT_MS,
        polling=250,
    )

    # With a game open, the page only says that a new version is ready.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url + "#/fileiras")
    page.wait_for_selector(fileiras.setup)
    third = rebuilt("0.1.0+third")
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.wait_for_selector('html[data-offline="update"]', state="attached", timeout=90_000)
    note = page.locator("#offline-note")
    check_note(page, "An update is ready")  # a line under the game bar, on a phone
    assert page.evaluate(
        "document.getElementById('offline-note').previousElementSibling.matches('.game-bar')"
    )
    assert page.get_attribute("html", "data-optimus-version") == "0.1.0+second"
    assert page.locator(fileiras.setup).is_visible()  # nothing was reloaded under the player
    note.get_by_role("button", name="Reload").click()
    page.wait_for_selector(
        'html[data-python="ready"][data-optimus-version="0.1.0+third"]',
        state="attached",
        timeout=READY_TIMEOUT_MS,
    )
    page.wait_for_function(
        f"caches.keys().then(names => names.join() === {json.dumps(prefix + third)})",
        timeout=READY_TIMEOUT_MS,
        polling=250,
    )
    # The page and every file it loaded belong to the third build.
    assert page.evaluate("document.querySelector('meta[name=optimus-build]').content") == third


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_parses_names_icons_that_exist_and_chromium_can_install_the_site(
    browser: Any, dist: Path, serve: Callable[..., Any], tmp_path: Path
) -> None:
    server = serve(dist, prefix=PREFIX)
    # Playwright's usual contexts are incognito, where Chromium never installs
    # apps: a persistent profile is needed for the installability check.
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=browser_args()
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(server.url)
        page.wait_for_selector(OFFLINE_READY, state="attached", timeout=INSTALL_TIMEOUT_MS)
        href = page.evaluate("document.querySelector('link[rel=manifest]').href")
        manifest = json.loads(page.request.get(href).text())
        assert manifest["start_url"] == manifest["scope"] == "./"
        assert manifest["display"] == "standalone"
        assert manifest["name"] and manifest["short_name"] and manifest["description"]
        sizes = {}
        for icon in manifest["icons"]:
            response = page.request.get(server.url + icon["src"].removeprefix("./"))
            assert response.ok, icon
            if icon["type"] == "image/png":
                sizes[icon["sizes"]] = _png_size(response.body())
        assert sizes == {"192x192": (192, 192), "512x512": (512, 512)}
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getAppManifest").get("errors") == []
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()


OFFER = """() => {
  const offer = new Event("beforeinstallprompt", {cancelable: true});
  offer.prompt = () => { window.__asked = (window.__asked || 0) + 1; return Promise.resolve(); };
  dispatchEvent(offer);
  return offer.defaultPrevented;
}"""
"""The browser's offer to install, as Chromium makes it (a headless browser never does)."""
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
)


def test_the_landing_offers_to_install_where_the_browser_does_and_says_how_on_an_iphone(
    guarded: Guard, site: str, browser: Any, guard_context: Any
) -> None:
    page = guarded.page
    page.goto(site)
    guarded.wait_ready()
    install = page.locator("[data-role=install]")
    assert install.is_hidden()  # no offer yet, and this browser installs only on offer
    assert page.evaluate(OFFER), "the page keeps the offer for its own button"
    button = page.get_by_role("button", name="Install the app")
    button.wait_for()
    box = button.bounding_box()
    assert box is not None and box["height"] >= 40
    button.click()
    assert page.evaluate("window.__asked") == 1  # the browser's own question is asked
    install.wait_for(state="hidden")  # an offer is asked once
    page.evaluate("dispatchEvent(new Event('appinstalled'))")
    assert install.is_hidden()
    # iOS Safari installs from its Share menu: the landing says how, in the language.
    phone = browser.new_context(
        viewport={"width": 390, "height": 844},
        user_agent=IPHONE,
        is_mobile=True,
        has_touch=True,
        locale="pt-BR",
        service_workers="block",
    )
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(site))
    with guard_context(phone, origin) as iphone:
        iphone.page.goto(site)
        iphone.wait_ready()
        note = iphone.page.locator("[data-install-note=ios]")
        note.wait_for()
        assert "Compartilhar" in note.inner_text() and "Tela de Início" in note.inner_text()
        assert iphone.page.locator("[data-install]").is_hidden()
