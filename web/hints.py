"""A long press explains: on a touch screen, holding a finger on anything that has a
``title`` (a mark of the sheet, a chip, a die) shows that title in a bubble, as a
mouse's hover does.  The press that showed it plays nothing; lifting the finger, or
moving it away, hides the bubble.  Shared by every game's table (web/table.py).
"""

from __future__ import annotations

from typing import Any

import js
from pyodide.ffi import create_proxy

from .router import found

HOLD_MS = 500
"""How long a finger rests before the title shows (a tap stays a tap)."""


class Hints:
    """The long-press bubble of one mounted table (``section``: the game's section)."""

    def __init__(self, section: Any) -> None:
        self.section = section
        self.bubble = js.document.createElement("div")
        self.bubble.className = "hint"
        self.bubble.setAttribute("role", "tooltip")
        self.bubble.setAttribute("data-role", "hint")
        self.bubble.hidden = True
        section.append(self.bubble)
        self.target: Any = None
        self.timer: Any = None
        self.shown = False
        self._listeners = {
            "pointerdown": create_proxy(self.down),
            "pointerup": create_proxy(self.up),
            "pointercancel": create_proxy(self.up),
            "pointermove": create_proxy(self.move),
            "contextmenu": create_proxy(self.menu),
        }
        self._fire = create_proxy(self.fire)
        self._swallow = create_proxy(self.swallow)
        for kind, listener in self._listeners.items():
            section.addEventListener(kind, listener)
        section.addEventListener("click", self._swallow, True)

    def close(self) -> None:
        self.cancel()
        for kind, listener in self._listeners.items():
            self.section.removeEventListener(kind, listener)
        self.section.removeEventListener("click", self._swallow, True)
        self.bubble.remove()

    def down(self, event: Any) -> None:
        self.cancel()
        self.hide()
        self.shown = False
        if str(getattr(event, "pointerType", "")) != "touch":
            return  # a mouse has hover; a pen too
        target: Any = event.target.closest("[title]") if found(event.target) else None
        if not found(target) or not str(target.getAttribute("title") or "").strip():
            return
        self.target = target
        self.timer = js.setTimeout(self._fire, HOLD_MS)

    def fire(self, *_args: Any) -> None:
        self.timer = None
        target = self.target
        if not found(target) or not target.isConnected:
            return
        box = target.getBoundingClientRect()
        self.bubble.textContent = str(target.getAttribute("title"))
        self.bubble.hidden = False
        width = float(js.document.documentElement.clientWidth)
        left = max(4.0, min(float(box.left), width - float(self.bubble.offsetWidth) - 4))
        top = float(box.top) - float(self.bubble.offsetHeight) - 6
        if top < 4:
            top = float(box.bottom) + 6
        self.bubble.style.left = f"{left:.0f}px"
        self.bubble.style.top = f"{top:.0f}px"
        self.shown = True

    def move(self, event: Any) -> None:
        if self.timer is not None and found(self.target):
            box = self.target.getBoundingClientRect()
            x, y = float(event.clientX), float(event.clientY)
            if not (box.left <= x <= box.right and box.top <= y <= box.bottom):
                self.cancel()

    def up(self, _event: Any) -> None:
        self.cancel()
        if self.shown:
            self.hide()

    def menu(self, event: Any) -> None:
        if self.shown or self.timer is not None:
            event.preventDefault()  # the long press is ours: no context menu

    def swallow(self, event: Any) -> None:
        """The click that ends a long press explained something: it plays nothing."""
        if self.shown:
            self.shown = False
            event.preventDefault()
            event.stopPropagation()

    def cancel(self) -> None:
        if self.timer is not None:
            js.clearTimeout(self.timer)
            self.timer = None

    def hide(self) -> None:
        self.bubble.hidden = True
