"""A long press explains: on a touch screen, holding a finger on anything that has a
meaning (a mark of the sheet, a chip, a die, a card: an element with a ``title``, or
an ``aria-label`` of its own) shows that text in a bubble, as a mouse's hover shows
a title.  The bubble (``.hint-bubble``, dark on light or light on dark: far above
4.5:1 in both modes) sits above the element, or below it when there is no room
above, inside the screen and never over the element it explains.  The press that
showed it plays nothing; lifting the finger, or moving it away, hides the bubble.
Shared by every game's table (web/table.py).
"""

from __future__ import annotations

from typing import Any

import js
from pyodide.ffi import create_proxy

from .router import found

HOLD_MS = 500
"""How long a finger rests before the title shows (a tap stays a tap)."""
MEANING = ", ".join(  # not shown (a selector)
    ["[title]", "[aria-label]:not(section, ol, ul, dialog, [role=group], [role=region])"]
)
"""What a long press explains: the closest element with a title, or with a name of its
own (a landmark's or a group's name says where, not what a thing means)."""
GAP = 8.0
"""Pixels between the bubble and the element it explains (and the screen's edge)."""


def place(
    box: tuple[float, float, float, float], size: tuple[float, float], screen: tuple[float, float]
) -> tuple[float, float]:
    """Where the bubble of ``size`` (width, height) goes for an element whose rect is
    ``box`` (left, top, right, bottom) on a ``screen`` (width, height): centred above
    it, else below it, else beside it where there is more room; always inside the
    screen, never over the element.

    >>> place((100, 300, 140, 340), (120, 30), (390, 844))  # above
    (60.0, 262.0)
    >>> place((100, 10, 140, 50), (120, 30), (390, 844))  # no room above: below
    (60.0, 58.0)
    >>> place((0, 10, 40, 50), (120, 30), (390, 844))  # kept inside the screen
    (8.0, 58.0)
    >>> place((0, 10, 200, 830), (120, 30), (390, 844))  # a tall element: beside it
    (208.0, 405.0)
    """
    left, top, right, bottom = box
    width, height = size
    screen_w, screen_h = screen
    x = min(max(GAP, (left + right - width) / 2), max(GAP, screen_w - width - GAP))
    if top - GAP - height >= GAP:
        return x, top - GAP - height
    if bottom + GAP + height <= screen_h - GAP:
        return x, bottom + GAP
    y = min(max(GAP, (top + bottom - height) / 2), max(GAP, screen_h - height - GAP))
    if screen_w - right >= left:
        return min(right + GAP, max(GAP, screen_w - width - GAP)), y
    return max(GAP, left - GAP - width), y


def meaning(element: Any) -> str:
    """What a long press on ``element`` says: its title, else its own name."""
    for attr in ("title", "aria-label"):
        text = element.getAttribute(attr)
        if found(text) and str(text).strip():
            return str(text).strip()
    return ""


class Hints:
    """The long-press bubble of one mounted table (``section``: the game's section)."""

    def __init__(self, section: Any) -> None:
        self.section = section
        self.bubble = js.document.createElement("div")
        self.bubble.className = "hint-bubble"
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
        origin = event.target
        usable = found(origin) and hasattr(origin, "closest")
        target: Any = origin.closest(MEANING) if usable else None
        if not found(target) or not meaning(target):
            return
        self.target = target
        self.timer = js.setTimeout(self._fire, HOLD_MS)

    def fire(self, *_args: Any) -> None:
        self.timer = None
        target = self.target
        if not found(target) or not target.isConnected:
            return
        box = target.getBoundingClientRect()
        self.bubble.textContent = meaning(target)
        self.bubble.hidden = False
        root = js.document.documentElement
        x, y = place(
            (float(box.left), float(box.top), float(box.right), float(box.bottom)),
            (float(self.bubble.offsetWidth), float(self.bubble.offsetHeight)),
            (float(root.clientWidth), float(js.window.innerHeight)),
        )
        self.bubble.style.left = f"{x:.0f}px"
        self.bubble.style.top = f"{y:.0f}px"
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
