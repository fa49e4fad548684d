"""Our code that the boot does not fetch: each game's archive, and the one they share.

The boot fetches only what the landing page imports (the wheel with
``optimus/__init__.py``, the web zip with ``main``, ``router`` and this module).
build.py puts the rest in gzipped archives (``app/<unit>-<hash>.zip.gz``): one
per game (its rules, bots, view model and view) and one every game needs first
(``table``: the rules' core, the table frame, user bots).  The page fetches
them when its preloading starts, or at the first visit of a game's route if
that comes first (docs/boot.md).  Each is unpacked once into the file system
and imported from there as it is (``zipimport``, with its bytecode), by adding
its folders to the ``__path__`` of the packages it continues (``optimus``,
``optimus.ui``, ``optimus_web``).

No browser imports here (the fetching function is passed in), so the tests run
it in CPython.
"""

from __future__ import annotations

import asyncio
import importlib
import zlib
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

try:
    from optimus.i18n import _
except ImportError:  # the wheel is missing or damaged: boot() reports it in words

    def _(message: str, /, **values: object) -> str:
        return message.format(**values) if values else message


ARCHIVES = "/lib/optimus-table"
"""Where the boot's archives are, and where the others are unpacked."""

SHARED = "table"
"""The archive every game needs (sitebuild/archives.py's ``SHARED_UNIT``)."""

Fetch = Callable[[str], Awaitable[bytes]]


def mount(path: str, extends: list[str]) -> None:
    """Make the modules of the zip at ``path`` importable: each package of
    ``extends`` (parents first; each already importable) gets the zip's folder of
    that package on its ``__path__``."""
    for name in extends:
        package = importlib.import_module(name)
        folder = f"{path}/{name.replace('.', '/')}"
        if folder not in package.__path__:
            package.__path__.append(folder)


class Archives:
    """Fetches and mounts the archives described by ``units`` (sitebuild/archives.py's
    ``unit_config``: per unit, ``url``, ``file``, ``extends`` and ``needs``), each
    once, with ``fetch`` (url -> its bytes, raising on failure).

    A name that is not among ``units`` needs nothing: its modules are on the boot's
    path already (a build without these archives).
    """

    def __init__(
        self, units: Mapping[str, Mapping[str, Any]], fetch: Fetch, directory: str = ARCHIVES
    ) -> None:
        self.units = units
        self._fetch = fetch
        self._directory = directory
        self._loads: dict[str, asyncio.Future[None]] = {}

    def loaded(self, unit: str) -> bool:
        """True when ``unit``'s modules can be imported now."""
        if unit not in self.units:
            return True
        load = self._loads.get(unit)
        return load is not None and _succeeded(load)

    def load(self, unit: str) -> asyncio.Future[None]:
        """Fetch and mount ``unit`` and the units it needs (at once, in parallel);
        done when its modules can be imported.  A load under way is shared; one
        that failed is tried again."""
        load = self._loads.get(unit)
        if load is None or (load.done() and not _succeeded(load)):
            load = asyncio.ensure_future(self._load(unit))
            self._loads[unit] = load
        return load

    def load_all(self, only: Iterable[str] | None = None) -> None:
        """Start fetching every unit, or those of ``only`` (the page is idle: nothing
        waits for them)."""
        for unit in self.units if only is None else [u for u in only if u in self.units]:
            self.load(unit).add_done_callback(_ignore)  # each user reports its own failure

    async def _load(self, unit: str) -> None:
        if unit not in self.units:
            return
        spec = self.units[unit]
        # A game's archive imports the shared one (the core, the frame) whatever
        # packages it extends: it always waits for it.
        wanted = [*spec["needs"], *([SHARED] if unit != SHARED and SHARED in self.units else [])]
        needs = [self.load(need) for need in dict.fromkeys(wanted)]
        data = await self._fetch(spec["url"])
        try:
            unpacked = zlib.decompress(data, wbits=31)  # gzip
        except zlib.error as exc:
            damaged = f"{spec['url']} is damaged ({exc})"  # not shown (technical)
            raise OSError(damaged) from None
        for need in needs:
            await need
        path = f"{self._directory}/{spec['file']}"
        with open(path, "wb") as handle:
            handle.write(unpacked)
        mount(path, list(spec["extends"]))


def _succeeded(load: asyncio.Future[None]) -> bool:
    return load.done() and not load.cancelled() and load.exception() is None


def _ignore(load: asyncio.Future[None]) -> None:
    if not load.cancelled():
        load.exception()  # retrieved: asyncio does not log it as never seen


class LoadingView:
    """Stands for a game's view at a first visit that comes before its archives:
    says it is loading, fetches them, then mounts the view in its place.  A failed
    download says so with a button to try again (never a dead end).

    ``make`` makes the real view (a router ``View``); ``report`` logs a failure
    (the page's console); ``proxy`` makes a Python function a JS event listener.
    """

    def __init__(
        self,
        title: str,
        load: Callable[[], asyncio.Future[None]],
        make: Callable[[], Any],
        report: Callable[[str], None],
        proxy: Callable[[Any], Any] = lambda function: function,
    ) -> None:
        self.title = title
        self._load = load
        self._make = make
        self._report = report
        self._retry = proxy(lambda *_: self.mount(self._container))
        self._container: Any = None
        self._view: Any = None
        self._generation = 0
        self._opening: tuple[str, str] | None = None
        """The rest of the address (a deal's link) to give the view once it is mounted."""

    def open(self, sub: str, query: str) -> None:
        """Give the view the rest of the address (now, or once it is mounted)."""
        opener = getattr(self._view, "open", None)
        if opener is not None:
            opener(sub, query)
        elif self._view is None:
            self._opening = (sub, query)

    def mount(self, container: Any) -> None:
        self._container = container
        self._generation += 1
        self._say(_("Loading {game}…", game=self.title), status=True)
        asyncio.ensure_future(self._finish(self._generation))

    def unmount(self) -> None:
        self._generation += 1  # a download still under way no longer mounts anything
        view, self._view = self._view, None
        if view is not None:
            view.unmount()

    def relabel(self) -> None:
        """Speak the language chosen now: the view, once mounted, draws itself again."""
        relabel = getattr(self._view, "relabel", None)
        if relabel is not None:
            relabel()
        elif self._view is None and self._container is not None:
            self.unmount()
            self.mount(self._container)

    async def _finish(self, generation: int) -> None:
        try:
            await self._load()
        except Exception as exc:
            if generation == self._generation:
                self._report(f"{self.title} could not be downloaded: {exc!r}")  # not shown
                self._say(
                    _(
                        "{game} could not be downloaded ({error}). "
                        "Check the connection, then try again.",
                        game=self.title,
                        error=exc,
                    ),
                    retry=True,
                )
            return
        if generation != self._generation:
            return
        try:
            view = self._make()
            self._container.replaceChildren()
            view.mount(self._container)
        except Exception as exc:  # as the router does for a view that fails to start
            self._report(f"view {self.title!r} failed: {exc!r}")
            self._say(
                _(
                    "{game} could not start: {error}",
                    game=self.title,
                    error=f"{type(exc).__name__}: {exc}",
                )
            )
            return
        self._view = view
        opening, self._opening = self._opening, None
        if opening is not None:
            self.open(*opening)

    def _say(self, text: str, status: bool = False, retry: bool = False) -> None:
        document = self._container.ownerDocument
        paragraph = document.createElement("p")
        paragraph.className = "notice"
        if status:
            paragraph.setAttribute("role", "status")
        paragraph.textContent = text
        self._container.replaceChildren(paragraph)
        if retry:
            button = document.createElement("button")
            button.type = "button"
            button.textContent = _("Try again")
            button.dataset.role = "retry"
            button.addEventListener("click", self._retry)
            paragraph.append(" ", button)
