"""The bot worker's Python (``web/botworker.js`` runs it in its own Pyodide): each
message from the page, answered by :class:`optimus.core.botworker.Host`, a player's
wheel installed by micropip first.

The page's side of the same messages is ``web/botworker.py``; the rules of both
sides, without the browser, are in :mod:`optimus.core.botworker`.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from optimus import i18n
from optimus.core.botworker import Host, Reply, staged_wheel
from optimus.core.registry import get_game
from optimus.i18n import _


async def install_with_micropip(message: dict[str, Any]) -> Reply | None:
    """Install the wheel of a ``load`` message with micropip (from the worker's file
    system, without its dependencies: nothing is fetched) and mark the message
    ``installed``; the refusal in words when micropip cannot."""
    path, refused = staged_wheel(message)
    if refused is not None:
        return refused
    import pyodide_js

    await pyodide_js.loadPackage("micropip")  # from the site's own lock file, once
    import micropip

    try:
        await micropip.install(f"emfs:{path}", deps=False, reinstall=True)
    except Exception as exc:  # a bad wheel name or metadata: micropip says what
        name = path.rsplit("/", 1)[-1]
        return {"refused": _("{file} could not be installed: {error}", file=name, error=exc)}
    message["installed"] = True
    return None


def handler(game: str, lang: str) -> Callable[[str], Awaitable[str]]:
    """The worker's answer to each message (JSON text in, JSON text out), once the
    words of ``lang`` and the rules of ``game`` are loaded."""
    i18n.load("optimus.ui")
    i18n.use(lang)
    get_game(game).bot_levels()
    host = Host()

    async def handle(text: str) -> str:
        message = json.loads(text)
        refused = None
        if message.get("op") == "load" and str(message.get("name", "")).endswith(".whl"):
            refused = await install_with_micropip(message)
        reply = refused or host.handle(message)
        reply["id"] = message.get("id")
        return json.dumps(reply)

    return handle
