"""The page's side of the bot worker: players' bots run in a web worker, never in the page.

``web/botworker.js`` (shipped as ``app/botworker-<hash>.js``, a file of the site's
own origin) starts Pyodide in a module worker, mounts our code there as the page
does, and answers each message with :class:`optimus.core.botworker.Host`.
:class:`WorkerTransport` is the :class:`~optimus.core.botworker.Transport` the page's
:class:`~optimus.core.botworker.Client` talks through: JSON text by
``postMessage`` (no SharedArrayBuffer: it works in a cross-origin iframe), an
answer awaited with a time limit, and past it ``worker.terminate()`` (a fresh worker
starts on the next message).  :func:`client` keeps one worker per game for the
page's life: the set-up screen loads files into it and the table's bots play there.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import js
from pyodide.ffi import create_proxy

from optimus.core.botworker import Broke, Client, Lost, Reply, Stopped, not_ours, read_reply
from optimus.i18n import language

BOOT_MS = 120_000.0
"""The longest a worker may take to start (Pyodide and our code): past it, lost."""

_CLIENTS: dict[str, Client] = {}


def client(game: str) -> Client:
    """The page's bot worker for ``game`` (started on its first message)."""
    if game not in _CLIENTS:
        _CLIENTS[game] = Client(game, WorkerTransport(game))
    return _CLIENTS[game]


def _absolute(url: str) -> str:
    return str(js.URL.new(url, js.document.baseURI).href)


def worker_config(game: str) -> tuple[str, dict[str, Any]]:
    """The worker's script and its first message: where Pyodide and our code are (read
    from the page's PyScript config and the units ``boot`` was given), as absolute URLs
    (the worker resolves relative ones against its own)."""
    from . import main

    script = js.document.querySelector("script[type=py][config]")
    config = json.loads(str(script.getAttribute("config")))
    units = {
        name: {**spec, "url": _absolute(str(spec["url"]))} for name, spec in main.UNITS.items()
    }
    worker = str(main.UNITS.get("table", {}).get("worker", ""))
    if not worker:
        raise Lost("this build has no bot worker")  # not shown (a build without it)
    return _absolute(worker), {
        "pyodide": _absolute(str(config["interpreter"])),
        "files": [[_absolute(url), path] for url, path in config["files"].items()],
        "units": units,
        "game": game,
        "lang": language(),
    }


class WorkerTransport:
    """One web worker at a time for ``game``: started when first needed, terminated when
    an answer does not come in time (the next message starts a fresh one)."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.epoch = 0
        self._worker: Any = None
        self._starting: asyncio.Future[None] | None = None
        self._booted: asyncio.Future[None] | None = None
        self._pending: dict[int, asyncio.Future[Reply]] = {}
        self._next = 0
        self._proxies: list[Any] = []

    async def send(self, message: Reply, limit_ms: float) -> Reply:
        await self._start()
        self._next += 1
        ident = self._next
        answer: asyncio.Future[Reply] = asyncio.get_event_loop().create_future()
        self._pending[ident] = answer
        self._worker.postMessage(json.dumps({**message, "id": ident}))
        try:
            return await asyncio.wait_for(answer, limit_ms / 1000)
        except TimeoutError:
            self._stop()
            raise Stopped from None
        finally:
            self._pending.pop(ident, None)

    async def _start(self) -> None:
        if self._starting is None or (
            self._starting.done() and self._starting.exception() is not None
        ):
            self._starting = asyncio.ensure_future(self._boot())
        await asyncio.shield(self._starting)

    async def _boot(self) -> None:
        try:
            script, config = worker_config(self.game)
            options = js.Object.fromEntries([["type", "module"]])
            worker = js.Worker.new(script, options)
        except Lost:
            raise
        except Exception as exc:  # a page where workers cannot start (an opaque origin)
            raise Lost(f"{type(exc).__name__}: {exc}") from None
        self._booted = asyncio.get_event_loop().create_future()
        self._worker = worker
        on_message = create_proxy(lambda event: self._message(worker, event.data))
        on_error = create_proxy(lambda event: self._failed(worker, Lost(_words(event))))
        self._proxies = [on_message, on_error]
        worker.addEventListener("message", on_message)
        worker.addEventListener("error", on_error)
        worker.postMessage(json.dumps(config))
        try:
            await asyncio.wait_for(self._booted, BOOT_MS / 1000)
        except TimeoutError:
            self._stop()
            raise Lost("the bot worker did not start") from None  # not shown
        except Lost:
            self._stop()
            raise
        js.document.documentElement.dataset.botWorkerMs = str(round(self._boot_ms))

    def _message(self, worker: Any, data: Any) -> None:
        """An answer of the worker, checked first (:func:`read_reply`: a player's bot can
        post anything there); anything but our own answers stops it, as a failure."""
        if worker is not self._worker:
            return  # a stopped worker's last words
        booting = self._booted is not None and not self._booted.done()
        try:
            reply = read_reply(data, booting)
        except Broke as exc:
            js.console.warn(f"bot worker stopped: {exc}")  # not shown
            self._failed(worker, exc)
            return
        if "booted" in reply or "failed" in reply:
            if self._booted is not None and not self._booted.done():
                if "failed" in reply:
                    self._booted.set_exception(Lost(str(reply["failed"])))
                else:
                    self._boot_ms = float(reply["booted"])
                    self._booted.set_result(None)
            return
        answer = self._pending.get(int(reply.pop("id")))
        if answer is None or answer.done():
            self._failed(worker, not_ours())
            return
        answer.set_result(reply)

    def _failed(self, worker: Any, lost: Lost) -> None:
        if worker is not self._worker:
            return
        if self._booted is not None and not self._booted.done():
            self._booted.set_exception(lost)
        for answer in self._pending.values():
            if not answer.done():
                answer.set_exception(lost)
        self._stop()

    def _stop(self) -> None:
        """Terminate the worker (a bot that does not answer): the next message starts
        a fresh one, which must load the page's files again (``epoch``)."""
        worker, self._worker = self._worker, None
        if worker is not None:
            with contextlib.suppress(Exception):
                worker.terminate()
        self._proxies = []  # kept alive by the dead worker's listeners: not destroyed
        self._starting = None
        self.epoch += 1

    _boot_ms = 0.0


def _words(event: Any) -> str:
    message = getattr(event, "message", None)
    return str(message) if message else "the bot worker failed"  # not shown
