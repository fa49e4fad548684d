"""Boot the browser app: import the rules, start the router, say "ready".

index.html puts our wheel and this package's zip on ``sys.path`` (both are
imported as they are, with their bytecode; micropip is not loaded), then runs
``from optimus_web.main import boot; boot()``.  Success sets
``<html data-python="ready">``; any failure sets ``data-python="error"`` and
shows a readable message (index.html's inline script catches failures that
happen before this module runs: a missing wheel, a timeout, a JS error).

To add a game's table, write ``web/<game>_view.py`` with a subclass of
``table.GameTable`` (the shared frame: docs/table.md) and register it in
``register_views`` below with ``lazy_view``; put its board's styles in
``web/<game>.css`` (build.py inlines every ``web/*.css`` into the page).
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import time
from collections.abc import Sequence
from typing import Any

import js  # type: ignore[import-not-found]  # Pyodide's bridge to the page's JavaScript globals
from pyodide.ffi import create_once_callable, create_proxy  # type: ignore[import-not-found]

from .router import Router, View, ViewFactory


def lazy_view(module: str, name: str) -> ViewFactory:
    """A factory that imports ``optimus_web.<module>`` on the first visit of its route.

    Views are not imported at boot: the page is ready sooner, and a broken
    view breaks only its own route (the error shows there), not the boot.
    """

    def make() -> View:
        view_class = getattr(importlib.import_module(f"{__package__}.{module}"), name)
        view: View = view_class()
        return view

    return make


VIEWS = {
    "fileiras": ("fileiras_view", "FileirasView"),
    "optimus": ("optimus_view", "OptimusView"),
    "optimus2": ("optimus2_view", "Optimus2View"),
}
"""Each game's view: ``optimus_web.<module>`` and its class."""

PRELOADED: tuple[tuple[str, str | None], ...] = (
    ("table", None),
    *((module, game) for game, (module, _) in VIEWS.items()),
)
"""What ``preload`` imports after the boot, one step per idle period: first the
frame every game shares (with the rules' core), then each game's view and rules
(``optimus_web.<module>``, and the game and its bots from the registry)."""


def register_views(router: Router) -> None:
    """Register the view of every game on the landing page."""
    for game, (module, name) in VIEWS.items():
        router.register(game, lazy_view(module, name))


PRELOAD_AFTER_MS = 1000
"""How long after ready ``preload`` starts: the page first settles (its first
paint, the service worker's registration and download), and a click meanwhile
finds the main thread free."""


def preload(
    window: Any,
    steps: Sequence[tuple[str, str | None]] = PRELOADED,
    after_ms: int = PRELOAD_AFTER_MS,
) -> None:
    """``after_ms`` after ready, import what each of ``steps`` names (see
    ``PRELOADED``), one step per idle period of the page (``requestIdleCallback``;
    a timer where there is none).

    The boot does not import the views (it would be slower), so the first visit
    of a game had to import its view and rules first: most of its time.  Done
    while the page waits for the person to choose, that visit only draws the
    table.  One module per idle period keeps each task short, so a click is
    never kept waiting long.  A view that fails to import is left alone: its
    route tries again when shown and says what went wrong there.  The modules
    done so far are listed in ``<html data-preloaded>`` (for the tests).
    """
    pending = list(steps)
    done: list[str] = []

    def step(*_: Any) -> None:
        module, game = pending.pop(0)
        with contextlib.suppress(Exception):  # the route reports it (see above)
            importlib.import_module(f"{__package__}.{module}")
            if game is not None:
                from optimus.core.registry import get_game

                get_game(game).bot_levels()  # cached by the registry for the view
        done.append(module)
        window.document.documentElement.dataset.preloaded = ",".join(done)
        if pending:
            schedule()

    def schedule() -> None:
        if hasattr(window, "requestIdleCallback"):
            window.requestIdleCallback(create_once_callable(step))
        else:  # Safari: a moment after the page has settled
            window.setTimeout(create_once_callable(step), 200)

    if pending:
        window.setTimeout(create_once_callable(schedule), after_ms)


def report_error(message: str) -> None:
    """Show ``message`` as a boot failure (index.html defines ``optimusBootFail``)."""
    fail = getattr(js.window, "optimusBootFail", None)
    if fail is not None:
        fail(message)
    else:  # the inline script is missing: still leave a visible trace
        js.document.documentElement.setAttribute("data-python", "error")
        js.document.body.append(js.document.createTextNode(message))


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


def boot() -> Router:
    """Import the game package, route, then mark the page ready; return the router."""
    root: Any = js.document.documentElement
    try:
        started = time.perf_counter()
        import optimus  # the rules package, from our wheel

        import_ms = (time.perf_counter() - started) * 1000
        router = Router(js.document, js.window, create_proxy)
        register_views(router)
        router.start()
    except Exception as exc:
        cause = f"{type(exc).__name__}: {exc}"
        if isinstance(exc, ModuleNotFoundError) and exc.name == "optimus":
            # A damaged wheel is still written to the file system; the import
            # is where the page learns of it.
            cause = f"The game package (its wheel) is missing or damaged. {cause}"
        report_error(cause)
        raise
    root.dataset.pythonVersion = ".".join(map(str, sys.version_info[:3]))
    root.dataset.optimusVersion = optimus.__version__
    root.dataset.importMs = f"{import_ms:.1f}"
    root.dataset.bootCompiled = ",".join(modules_compiled_at_boot())
    root.dataset.bootPackages = ",".join(packages_loaded())
    # For the tests and bench-boot: what a route visit compiled (see above).
    js.window.optimusCompiledInPage = create_proxy(lambda: ",".join(modules_compiled_at_boot()))
    root.setAttribute("data-python", "ready")
    preload(js.window)
    return router
