"""Boot the browser app: import the rules, start the router, say "ready".

index.html puts our wheel and this package's zip on ``sys.path`` (both are
imported as they are, with their bytecode; micropip is not loaded), then runs
``from optimus_web.main import boot; boot(units)``.  Those two archives hold only
what the boot imports; the rest of our code comes in archives fetched after the
boot (``units``; web/lazy.py).  Success sets
``<html data-python="ready">``; any failure sets ``data-python="error"`` and
shows a readable message (index.html's inline script catches failures that
happen before this module runs: a missing wheel, a timeout, a JS error).

The games, their routes and views come from their descriptions
(``optimus.games``, part of the boot): adding a game is docs/adding-a-game.md.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import js  # Pyodide's bridge to the page's JavaScript globals
from pyodide.ffi import create_once_callable, create_proxy

from .lazy import SHARED, Archives, LoadingView
from .router import Router, View, ViewFactory, found, when_idle


def lazy_view(view: str) -> ViewFactory:
    """A factory that imports ``view`` (``"module:Class"``) on the first visit of its route.

    Views are not imported at boot: the page is ready sooner, and a broken
    view breaks only its own route (the error shows there), not the boot.
    """

    def make() -> View:
        module, _, name = view.partition(":")
        made: View = getattr(importlib.import_module(module), name)()
        return made

    return make


def fetched_view(archives: Archives, game: str, title: str, make: ViewFactory) -> ViewFactory:
    """``make``, once ``game``'s archives are here; before that, a view that says it
    is loading, fetches them at once, then mounts ``make()``'s view (web/lazy.py)."""

    def view() -> View:
        if archives.loaded(game):
            return make()
        console = js.window.console
        return LoadingView(
            title, lambda: archives.load(game), make, lambda text: console.error(text), create_proxy
        )

    return view


async def fetch_bytes(url: str) -> bytes:
    """The bytes at ``url`` (relative to the page); an ``OSError`` naming the HTTP
    status when the answer is not a success (a network failure raises too)."""
    response = await js.fetch(url)
    if not response.ok:
        raise OSError(f"{url}: HTTP {response.status}")
    data: bytes = (await response.arrayBuffer()).to_bytes()
    return data


def preloaded() -> list[tuple[str, str | None]]:
    """What ``preload`` imports after the boot, one step per idle period: first the
    frame every game shares (with the rules' core), then each listed game's view
    and rules (its view module, and the game and its bots from the registry)."""
    from optimus.games import listed  # from the wheel, imported by boot()

    steps: list[tuple[str, str | None]] = [(f"{__package__}.table", None)]
    return steps + [(info.view.partition(":")[0], info.id) for info in listed()]


def register_views(router: Router, archives: Archives) -> None:
    """Register the view of every described game (listed on the landing page or not)."""
    from optimus.games import GAMES
    from optimus.i18n import _

    for info in GAMES.values():
        router.register(info.id, fetched_view(archives, info.id, info.title, lazy_view(info.view)))
    # The records page (web/records_view.py) ships with the table every game needs.
    title = _("Your records")
    records = fetched_view(archives, SHARED, title, lazy_view(RECORDS_VIEW))
    router.register(RECORDS, records, title=title)
    # The help page for players (web/help_view.py), with the table too.
    title = _("Help")
    router.register(HELP, fetched_view(archives, SHARED, title, lazy_view(HELP_VIEW)), title=title)


UNITS: dict[str, Mapping[str, Any]] = {}
"""The archives fetched after the boot, as ``boot`` was given them (the bot worker
mounts them too: web/botworker.py)."""

RECORDS = "records"
RECORDS_VIEW = "optimus_web.records_view:RecordsView"
HELP = "help"
HELP_VIEW = "optimus_web.help_view:HelpView"


PRELOAD_AFTER_MS = 1000
"""How long after ready ``preload`` starts: the page first settles (its first
paint, the service worker's registration and download), and a click meanwhile
finds the main thread free."""


def preload(
    window: Any,
    archives: Archives,
    steps: Sequence[tuple[str, str | None]] | None = None,
    after_ms: int = PRELOAD_AFTER_MS,
) -> None:
    """``after_ms`` after ready, fetch the archives of the shared frame and of the
    listed games, and import what each of ``steps`` names (``preloaded()`` by
    default), one step per idle period of the page (``requestIdleCallback``; a
    timer where there is none), each once its archive is here (a game's, or for
    the table the one they share).

    The boot does not import the views (it would be slower), so the first visit
    of a game had to import its view and rules first: most of its time.  Done
    while the page waits for the person to choose, that visit only draws the
    table.  One module per idle period keeps each task short, so a click is
    never kept waiting long.  A view that fails to import, or an archive that
    fails to download, is left alone: its route tries again when shown and says
    what went wrong there.  The modules done so far are listed in
    ``<html data-preloaded>`` (for the tests).
    """
    pending = list(preloaded() if steps is None else steps)
    done: list[str] = []

    def step(*_: Any) -> None:
        _name, game = pending[0]
        load = archives.load(game or SHARED)
        if load.done():
            run(load)
        else:
            load.add_done_callback(lambda _: schedule(lambda *_: run(load)))

    def run(load: Any) -> None:
        module, game = pending.pop(0)
        if not load.cancelled() and load.exception() is None:
            with contextlib.suppress(Exception):  # the route reports it (see above)
                importlib.import_module(module)
                if game is not None:
                    from optimus.core.registry import get_game

                    get_game(game).bot_levels()  # cached by the registry for the view
        done.append(module.rsplit(".", 1)[-1])
        window.document.documentElement.dataset.preloaded = ",".join(done)
        if pending:
            schedule(step)

    def schedule(callback: Callable[..., None]) -> None:
        when_idle(window, callback)

    def start(*_: Any) -> None:
        # The shared archive and the listed games' (an unlisted game's comes on its visit).
        archives.load_all([SHARED, *(game for _, game in pending if game)])
        schedule(step)

    if pending:
        window.setTimeout(create_once_callable(start), after_ms)


def report_error(message: str) -> None:
    """Show ``message`` as a boot failure (index.html defines ``optimusBootFail``)."""
    fail = getattr(js.window, "optimusBootFail", None)
    if fail is not None:
        fail(message)
    else:  # the inline script is missing: still leave a visible trace
        js.document.documentElement.setAttribute("data-python", "error")
        js.document.body.append(js.document.createTextNode(message))


def N_(message: str, /) -> str:  # noqa: N802 - optimus.i18n's name, for the catalogs
    """``message`` unchanged: marks a sentence for the catalogs (``optimus.i18n.N_``: the
    package may be what failed to import)."""
    return message


def said(message: str, cause: str) -> str:
    """``message`` in the page's language (index.html's ``optimusT``: the landing page's
    catalog), its ``{cause}`` filled."""
    translate = getattr(js.window, "optimusT", None)
    text = str(translate(message)) if translate is not None else message
    return text.replace("{cause}", cause)


def modules_compiled_at_boot() -> list[str]:
    """Modules imported so far that the page had to compile.

    Standard-library modules imported from source rather than bytecode (frozen
    modules, built into the interpreter though their ``__file__`` names the zip,
    do not count), and our own modules (``optimus``, ``optimus_web``) imported
    without the bytecode the build ships beside them in their archives.

    build.py precompiles the modules listed in web/boot-modules.txt and all of
    ours; a module missing from that list is compiled on every cold load.  Read
    by the tests (``data-boot-compiled`` at boot, ``optimusCompiledInPage()``
    after visiting a route) to keep the list complete.
    """
    stdlib_zip = "/lib/python{}{}.zip/".format(*sys.version_info[:2])
    compiled = []
    for name, module in list(sys.modules.items()):
        path = str(getattr(module, "__file__", None) or "")
        spec = getattr(module, "__spec__", None)
        if path.startswith(stdlib_zip):
            if path.endswith(".py") and getattr(spec, "origin", None) != "frozen":
                compiled.append(name)
        elif name.split(".", 1)[0] in ("optimus", "optimus_web") and path.endswith(".py"):
            # Imported from its archive: zipimport names the file it used, so the
            # source (.py) means the bytecode beside it was missing or made by
            # another Python.
            compiled.append(name)
    return sorted(compiled)


def packages_loaded() -> list[str]:
    """Top-level names of the modules imported so far from packages: installed ones
    (site-packages) or wheels on ``sys.path``.  ``optimus`` after the boot (from our
    wheel), and never ``micropip`` unless a feature loaded it on demand.  Read by
    the tests (``data-boot-packages``)."""
    return sorted(
        {
            name.split(".", 1)[0]
            for name, module in list(sys.modules.items())
            if any(
                part in str(getattr(module, "__file__", None) or "")
                for part in ("/site-packages/", ".whl/")
            )
        }
    )


def python_objects() -> int:
    """How many objects the Python runtime tracks after a full collection (the soak
    test compares a page after 20 games with the same page after one)."""
    import gc

    gc.collect()
    return len(gc.get_objects())


def speak(document: Any) -> str:
    """Speak the page's language (index.html's first script chose it, in ``data-lang``),
    with the sentences of the boot's modules that index.html carries (the rest come
    with the archives: ``i18n.load``); return its code."""
    import json

    from optimus import i18n

    block = document.getElementById("i18n-landing")
    if found(block):
        try:
            carried = json.loads(str(block.textContent))
        except ValueError:
            carried = {}
        for lang, messages in (carried if isinstance(carried, dict) else {}).items():
            if lang in i18n.LANGUAGES and isinstance(messages, dict):
                i18n.add_catalog(lang, {str(k): str(v) for k, v in messages.items()})
    lang = i18n.parse(document.documentElement.getAttribute("data-lang")) or "en"
    i18n.use(lang)
    return lang


def follow_language(window: Any, router: Router) -> None:
    """When the person picks another language (index.html's ``optimus-language``
    event), speak it and draw the page again: a game in progress stays as it is."""
    from optimus import i18n

    def switched(event: Any) -> None:
        lang = i18n.parse(str(event.detail))
        if lang is not None and lang != i18n.language():
            i18n.use(lang)
            router.relabel()

    window.addEventListener("optimus-language", create_proxy(switched))


def boot(units: Mapping[str, Mapping[str, Any]] | None = None) -> Router:
    """Import the game package, route, then mark the page ready; return the router.

    ``units`` describes the archives of our code fetched after the boot (build.py's
    ``unit_config``, written into index.html).
    """
    global UNITS
    UNITS = dict(units or {})
    root: Any = js.document.documentElement
    try:
        started = time.perf_counter()
        import optimus  # the rules package, from our wheel

        import_ms = (time.perf_counter() - started) * 1000
        speak(js.document)
        archives = Archives(units or {}, fetch_bytes)
        from optimus.games import GAMES

        titles = {info.id: info.title for info in GAMES.values()}
        router = Router(js.document, js.window, create_proxy, titles)
        register_views(router, archives)
        router.start()
        follow_language(js.window, router)
    except Exception as exc:
        cause = f"{type(exc).__name__}: {exc}"
        if isinstance(exc, ModuleNotFoundError) and exc.name == "optimus":
            # A damaged wheel is still written to the file system; the import
            # is where the page learns of it.
            cause = said(N_("The game package (its wheel) is missing or damaged. {cause}"), cause)
        report_error(cause)
        raise
    root.dataset.pythonVersion = ".".join(map(str, sys.version_info[:3]))
    root.dataset.optimusVersion = optimus.__version__
    root.dataset.importMs = f"{import_ms:.1f}"
    root.dataset.bootCompiled = ",".join(modules_compiled_at_boot())
    root.dataset.bootPackages = ",".join(packages_loaded())
    # For the tests and bench-boot: what a route visit compiled (see above).
    js.window.optimusCompiledInPage = create_proxy(lambda: ",".join(modules_compiled_at_boot()))
    # For the soak test (tests/e2e/test_hardening.py): Python objects alive, after a collection.
    js.window.optimusPythonObjects = create_proxy(python_objects)
    root.setAttribute("data-python", "ready")
    preload(js.window, archives)
    return router
