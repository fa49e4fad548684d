"""The built site in real Chromium: static landing page, Python boot, routes, failures."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from optimus.games import GAMES as DESCRIBED
from optimus.games import listed
from sitebuild.pins import MICROPIP_VERSION

# The `guarded` fixture is a conftest.Guard (page, origin, wait_ready, expect_errors).
Guard = Any
READY_TIMEOUT_MS = 60_000

GAMES = {
    "optimus": ("Optimus", "1-6 players"),
    "optimus2": ("Optimus 2", "1-4 players"),
    "fileiras": ("Fileiras", "2-5 players"),
}


def test_landing_page_is_complete_before_python_loads(guarded: Guard, site: str) -> None:
    page = guarded.page
    held: list[Any] = []  # Pyodide's WebAssembly waits until the page has been read
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(site, wait_until="domcontentloaded")
    state, title, heading, status = page.evaluate(
        """() => [document.documentElement.dataset.python, document.title,
                  document.querySelector("h1").textContent.trim(),
                  document.getElementById("boot-status").textContent.trim()]"""
    )
    assert (state, title, heading, status) == (
        "loading",
        "Optimus Table: three tabletop games",
        "Optimus Table",
        "Loading the games…",
    )
    for game, (title, players) in GAMES.items():
        card = page.locator(f'a.game-card[data-game="{game}"]')
        assert card.is_visible()
        assert card.locator("h2").inner_text() == title
        assert players in card.inner_text()
        assert card.get_attribute("href") == f"#/{game}"
    for route in held:
        route.continue_()
    page.unroute("**/pyodide.asm.wasm")
    guarded.wait_ready()


def test_the_landing_speaks_the_links_language_before_python_loads(
    guarded: Guard, site: str
) -> None:
    page = guarded.page
    held: list[Any] = []
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(site + "?lang=ca", wait_until="domcontentloaded")
    state, lang, title, status, play = page.evaluate(
        """() => [document.documentElement.dataset.python, document.documentElement.lang,
                  document.title, document.getElementById("boot-status").textContent.trim(),
                  document.querySelector(".game-card .go").textContent]"""
    )
    assert (state, lang) == ("loading", "ca")
    assert title != "Optimus Table: three tabletop games" and title.startswith("Optimus Table")
    assert status != "Loading the games…" and play != "Play"
    for route in held:
        route.continue_()
    page.unroute("**/pyodide.asm.wasm")
    guarded.wait_ready()


def test_python_boots_to_ready_with_the_game_package(guarded: Guard, site: str) -> None:
    page = guarded.page
    page.goto(site)
    guarded.wait_ready()
    assert page.locator("#boot-status").inner_text().strip() == "Ready"
    data = page.evaluate("({...document.documentElement.dataset})")
    assert data["pythonVersion"].startswith("3.")
    assert data["optimusVersion"]  # imported from our wheel
    # Pyodide's own loader installed it: micropip is shipped but not loaded at boot.
    assert data["bootPackages"].split(",") == ["optimus"]
    assert page.locator("#boot-error").is_hidden()


def test_neither_the_boot_nor_a_game_compiles_python_in_the_page(guarded: Guard, site: str) -> None:
    """Every standard-library module imported before "ready" comes precompiled.

    A module missing from web/boot-modules.txt would be compiled from source on
    every cold load (about 0.5 ms per kB of source on this machine).
    """
    page = guarded.page
    page.goto(site)
    guarded.wait_ready()
    compiled = page.evaluate("document.documentElement.dataset.bootCompiled")
    assert compiled == "", f"add these modules to web/boot-modules.txt: {compiled}"
    # Nor does the first visit of a game: our modules come with their bytecode too.
    page.click('a.game-card[data-game="fileiras"]')
    page.wait_for_selector("#game-view > *")
    compiled = page.evaluate("optimusCompiledInPage()")
    assert compiled == "", f"compiled in the page (add stdlib ones to boot-modules.txt): {compiled}"


def test_boot_skips_the_pyscript_import_but_a_script_can_still_import_it(
    guarded: Guard, site: str
) -> None:
    """The build patches PyScript so that its start-up writes the `pyscript` package
    without importing it (sitebuild/pyscript.py's PYSCRIPT_PATCHES, docs/boot.md); a
    page script that wants `pyscript` imports it then, and it works."""
    page = guarded.page
    page.goto(site)
    guarded.wait_ready()
    page.evaluate(
        """() => {
        const script = document.createElement("script");
        script.type = "py";
        script.textContent = [
            "import sys",
            "before = 'pyscript' in sys.modules",
            "from pyscript import document, window",
            "seen = f'{before} {window.location.hash}'",
            "document.documentElement.dataset.pyscriptOnDemand = seen",
        ].join("\\n");
        location.hash = "#/nowhere";
        document.body.append(script);
    }"""
    )
    page.wait_for_selector("html[data-pyscript-on-demand]", state="attached")
    assert page.get_attribute("html", "data-pyscript-on-demand") == "False #/nowhere"


def test_views_are_imported_while_the_page_waits_then_a_visit_only_draws(
    guarded: Guard, site: str
) -> None:
    """After ready, web/main.py's preload imports the shared table frame, then each
    game's view and rules, one per idle period, so the first visit has less to do."""
    page = guarded.page
    page.goto(site)
    guarded.wait_ready()
    views = [f"{info.id}_view" for info in listed()]  # in the landing page's order
    page.wait_for_selector(f"html[data-preloaded*={views[-1]}]", state="attached")
    steps = page.get_attribute("html", "data-preloaded")
    assert steps == ",".join(["table", *views])
    page.click('a.game-card[data-game="optimus2"]')
    page.wait_for_selector("[data-role=setup]")
    compiled = page.evaluate("optimusCompiledInPage()")  # by any game's preload or visit
    assert compiled == "", f"compiled in the page (add stdlib ones to boot-modules.txt): {compiled}"


def test_the_boot_fetches_only_its_own_code_and_each_game_comes_after_ready(
    guarded: Guard, site: str
) -> None:
    """The wheel and the web zip hold what the boot imports; each described game's
    archive (listed or not), and the one they share, are fetched after ready
    (preloading), each once."""
    page = guarded.page
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(site)
    guarded.wait_ready()
    page.wait_for_selector(f"html[data-preloaded*={listed()[-1].id}_view]", state="attached")
    # When each archive was asked for, against when the page became ready, both by the
    # page's own clock (web/page.js keeps the moment): no race with this test's polling.
    ready_ms, starts = page.evaluate(
        """() => [window.__pythonReadyMs, performance.getEntriesByType("resource")
            .filter((e) => e.name.endsWith(".zip.gz")).map((e) => [e.name, e.startTime])]"""
    )
    assert starts and all(start >= ready_ms for _, start in starts), (ready_ms, starts)
    units = sorted(
        url.rsplit("/", 1)[-1].split("-")[0] for url in requested if url.endswith(".zip.gz")
    )
    assert units == sorted([*(g for g, info in DESCRIBED.items() if info.listed), "table"])


def test_a_game_opened_before_its_archive_is_here_says_so_and_a_failed_download_is_retried(
    guarded: Guard, site: str
) -> None:
    """A deep link (or a click before preloading) fetches the game's archive at once,
    with a loading note meanwhile; a failed download says so and offers to try again."""
    from playwright.sync_api import expect

    guarded.expect_errors()  # the failed download is logged
    page = guarded.page
    held: list[Any] = []
    failing = {"now": True}

    def archive(route: Any) -> None:
        if not held:
            held.append(route)  # the first request waits until the test lets it fail
        elif failing["now"]:
            route.abort()
        else:
            route.continue_()

    page.route("**/app/fileiras-*.zip.gz", archive)
    page.goto(site + "#/fileiras")
    guarded.wait_ready()
    notice = page.locator("#game-view .notice")
    expect(notice).to_have_text("Loading Fileiras…")
    assert notice.get_attribute("role") == "status"
    held[0].abort()
    expect(notice).to_contain_text("Fileiras could not be downloaded")
    failing["now"] = False
    page.click("#game-view [data-role=retry]")
    page.wait_for_selector("#game-view [data-role=setup]")
    expect(page.locator("#game-view .notice")).to_have_count(0)
    assert page.evaluate("optimusCompiledInPage()") == ""


def test_only_local_files_are_requested_and_all_exist(guarded: Guard, site: str) -> None:
    requested: list[str] = []
    guarded.page.on("request", lambda request: requested.append(request.url))
    guarded.page.goto(site)
    guarded.wait_ready()
    assert all(url.startswith(guarded.origin) for url in requested), requested
    names = [url.rsplit("/", 1)[-1] for url in requested]
    # Each runtime file once: the preloads are reused, not fetched twice.
    for name in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs", "pyodide-lock.json"):
        assert names.count(name) == 1, (name, requested)
    assert any(name.startswith("optimus_table-") and name.endswith(".whl") for name in names)
    assert not any(name.endswith(".map") for name in names)
    assert not any(name.startswith("micropip") for name in names)  # loaded on demand only
    # (The fixture also fails on foreign hosts, 4xx/5xx and console errors.)


def test_every_game_card_opens_its_table(guarded: Guard, site: str) -> None:
    from playwright.sync_api import expect

    page = guarded.page
    page.goto(site)
    guarded.wait_ready()
    for game, title in (
        ("optimus", "Optimus"),
        ("optimus2", "Optimus 2"),
        ("fileiras", "Fileiras"),
    ):
        expect(page.locator(f'a.game-card[data-game="{game}"] .go')).to_have_text("Play")
        page.click(f'a.game-card[data-game="{game}"]')
        expect(page.locator("#game")).to_be_visible()
        expect(page.locator("#home")).to_be_hidden()
        expect(page.locator("#game-title")).to_have_text(title)
        expect(page).to_have_title(f"{title} · Optimus Table")
        assert page.url.endswith(f"#/{game}")
        page.wait_for_selector("[data-role=setup]")  # a registered view mounts its table
        expect(page.locator("#game-view .notice")).to_have_count(0)
        page.click("a.back")
        expect(page.locator("#home")).to_be_visible()
        expect(page.locator("#game")).to_be_hidden()
    page.goto(site + "#/no-such-game")
    expect(page.locator("#game-title")).to_have_text("Page not found")


def test_deep_link_to_a_game_opens_it_after_boot(guarded: Guard, site: str) -> None:
    from playwright.sync_api import expect

    page = guarded.page
    page.goto(site + "#/optimus2")
    guarded.wait_ready()
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#game-title")).to_have_text("Optimus 2")


def test_phone_layout_has_no_horizontal_scroll(guarded: Guard, site: str) -> None:
    page = guarded.page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site)
    guarded.wait_ready()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    boxes = [page.locator(f'a.game-card[data-game="{g}"]').bounding_box() for g in GAMES]
    assert all(box is not None and box["width"] <= 390 for box in boxes)
    assert boxes[0]["y"] < boxes[1]["y"] < boxes[2]["y"]  # one column on a phone


def test_site_works_under_a_sub_path_and_in_an_iframe(
    guarded: Guard, dist: Path, serve: Callable[..., Any]
) -> None:
    parent = (
        b"<!doctype html><html><head><title>Parent</title><link rel='icon' href='data:,'></head>"
        b"<body><h1>Host page</h1><iframe id='embed' src='/sub/path/' width='800' height='700'"
        b" title='Optimus Table'></iframe></body></html>"
    )
    server = serve(dist, prefix="/sub/path/", extra={"/parent.html": ("text/html", parent)})
    guarded.origin = server.url.split("/sub/path/")[0]
    guarded.page.goto(server.url)  # directly under the sub-path
    guarded.wait_ready()
    guarded.page.close()  # its Python goes now, not at some later collection
    page = guarded.page = guarded.new_page()
    page.goto(guarded.origin + "/parent.html")  # embedded in an iframe
    frame = page.frame_locator("#embed")
    assert frame.locator("h1").first.inner_text() == "Optimus Table"
    handle = page.wait_for_selector("#embed").content_frame()
    guarded.wait_ready(handle)
    frame.locator('a.game-card[data-game="optimus"]').click()
    frame.locator("#game-title", has_text="Optimus").wait_for()


def failed_boot(guarded: Guard, serve: Callable[..., Any], copy: Path) -> Any:
    """The guarded page on ``copy`` (a damaged dist/), once its boot has said it failed."""
    guarded.expect_errors()
    server = serve(copy)
    guarded.origin = server.url.rstrip("/")
    page = guarded.page
    page.goto(server.url)
    page.wait_for_selector('html[data-python="error"]', state="attached", timeout=READY_TIMEOUT_MS)
    return page


def damaging(pattern: str, garbage: bytes | None) -> Callable[[Path], None]:
    """What breaks a copy of dist/: the files matching ``pattern`` deleted, or (with
    ``garbage``) written over with it."""

    def apply(copy: Path) -> None:
        for path in copy.glob(pattern):
            path.unlink()  # unlink first: the copy may hard-link dist/
            if garbage is not None:
                path.write_bytes(garbage)

    return apply


WHEEL_CAUSE = "The game package (its wheel) is missing or damaged"
WASM_CAUSE = "The Python runtime (its WebAssembly file) is missing or damaged."


@pytest.mark.parametrize(
    ("damage", "cause"),
    [
        (damaging("wheels/*.whl", None), WHEEL_CAUSE),
        (damaging("wheels/*.whl", b"this is not a zip file"), WHEEL_CAUSE),
        (damaging("pyodide-*/pyodide.asm.wasm", None), WASM_CAUSE),
        (damaging("pyodide-*/pyodide.asm.wasm", b"this is not WebAssembly"), WASM_CAUSE),
    ],
    ids=["missing-wheel", "corrupt-wheel", "missing-wasm", "corrupt-wasm"],
)
def test_boot_failure_shows_a_readable_message_at_once(
    guarded: Guard,
    broken_dist: Callable[[Callable[[Path], None]], Path],
    serve: Callable[..., Any],
    damage: Callable[[Path], None],
    cause: str,
) -> None:
    """A damaged wheel or runtime: the page names the cause as soon as the boot fails.
    Pyodide only warns when its WebAssembly fails and then waits forever: the page says
    so at once, not when its last-resort timeout (120 s) runs out. The wait below is a
    state, bounded by half that timeout."""
    page = failed_boot(guarded, serve, broken_dist(damage))
    box = page.locator("#boot-error")
    assert box.is_visible()
    text = box.inner_text()
    assert "Python could not start" in text
    assert cause in text  # the cause, not just "something failed"
    assert "did not finish loading" not in text
    assert page.locator("#boot-status").inner_text().strip() == "Python failed"
    assert page.locator("a.game-card").count() == 3  # the landing page is still there


BOOT_TIMEOUT_S = 120  # web/page.js: the last resort, when no failure was reported


def test_the_last_resort_timeout_is_longer_than_the_waits_below() -> None:
    page_js = (Path(__file__).resolve().parents[2] / "web" / "page.js").read_text()
    assert f"var TIMEOUT_S = {BOOT_TIMEOUT_S};" in page_js
    assert BOOT_TIMEOUT_S * 1000 >= 2 * READY_TIMEOUT_MS


def test_a_missing_runtime_module_is_reported_with_its_file(
    guarded: Guard,
    broken_dist: Callable[[Callable[[Path], None]], Path],
    serve: Callable[..., Any],
) -> None:
    """A module the page preloads (here Pyodide's JS half) fails to download: its
    preload's error says which file, at once."""
    copy = broken_dist(lambda copy: next(copy.glob("pyodide-*/pyodide.asm.mjs")).unlink())
    page = failed_boot(guarded, serve, copy)
    text = page.locator("#boot-error").inner_text()
    assert "A file of the Python runtime could not be downloaded." in text
    assert "/pyodide.asm.mjs" in text


def test_the_page_refuses_inline_scripts_and_the_guard_sees_it(guarded: Guard, site: str) -> None:
    """The page's Content-Security-Policy is enforced (an inline script added to the page
    does not run), and the guard of every browser test sees the violation: every other
    test fails on one."""
    page = guarded.page
    page.goto(site)
    guarded.wait_ready()
    ran = page.evaluate(
        """() => new Promise((resolve) => {
            addEventListener("securitypolicyviolation", () => resolve(window.__inlineRan === true),
                             {once: true});
            const script = document.createElement("script");
            script.textContent = "window.__inlineRan = true";
            document.body.append(script);
        })"""
    )
    assert ran is False
    for _ in range(100):  # the guard's report comes with a later round trip to the page
        if guarded.csp_violations:
            break
        page.evaluate("0")
    assert any("script-src" in v and "inline" in v for v in guarded.csp_violations)
    guarded.csp_violations.clear()
    guarded.expect_errors()  # the browser's console says it refused the script


def test_boot_failure_in_javascript_is_reported(guarded: Guard, site: str) -> None:
    """If PyScript itself cannot load, the page still says so (no silent spinner)."""
    guarded.expect_errors()
    guarded.page.route("**/core.js", lambda route: route.fulfill(status=404, body="gone"))
    guarded.page.goto(site)
    guarded.page.wait_for_selector('html[data-python="error"]', state="attached", timeout=10_000)
    assert "Python could not start" in guarded.page.locator("#boot-error").inner_text()


def test_pyscript_config_uses_only_local_relative_urls(dist: Path) -> None:
    html = (dist / "index.html").read_text(encoding="utf-8")
    assert "http://" not in html and "https://" not in html
    start = html.index('config="') + len('config="')
    config = json.loads(html[start : html.index('"', start)].replace("&quot;", '"'))
    assert config["interpreter"].startswith("./pyodide-") and config["interpreter"].endswith(
        "/pyodide.mjs"
    )
    assert config["files"] and all(url.startswith("./") for url in config["files"])
    assert "packages" not in config  # our archives are imported as they are (docs/boot.md)


def test_micropip_is_shipped_and_loads_on_demand_from_the_site_itself(
    guarded: Guard, dist: Path, serve: Callable[..., Any]
) -> None:
    """The boot does not load micropip, but code that needs it can, from dist/ alone:
    the lock file names the shipped wheel with its real sha256 (the browser checks it)."""
    stamp = json.loads((dist / ".build-stamp.json").read_text())
    runtime = f"./{stamp['pyodide']}/"
    page_html = (
        "<!doctype html><html><head><meta charset='utf-8'><title>micropip</title>"
        "<link rel='icon' href='data:,'></head><body><script type='module'>"
        f"import {{ loadPyodide }} from '{runtime}pyodide.mjs';"
        f"const py = await loadPyodide({{ indexURL: '{runtime}' }});"
        "await py.loadPackage('micropip');"
        "document.documentElement.dataset.micropip ="
        " py.runPython('import micropip; micropip.__version__');"
        "</script></body></html>"
    ).encode()
    server = serve(dist, extra={"/micropip.html": ("text/html", page_html)})
    guarded.origin = server.url.rstrip("/")
    guarded.page.goto(server.url + "micropip.html")
    guarded.page.wait_for_selector("html[data-micropip]", state="attached", timeout=60_000)
    pinned = MICROPIP_VERSION
    assert guarded.page.get_attribute("html", "data-micropip") == pinned
