"""Pieces in motion: where an element is, and moving it there from where it was.

Before a move is drawn the table remembers where the pieces are
(``GameTable.capture``) and, once drawn, moves them from there
(``GameTable.animate``): by default every travelling piece (an element with
``data-piece="<name>"``: a die, a card) that moved flies from its old place
(:func:`piece_rects`, :func:`fly_moved`).  Only pieces that travel carry
``data-piece``: a sheet that shifts a little when the controls above it change
must not fly.  A game may do its
own with :func:`fly` (a piece on the board) or :func:`send` (copies of pieces
that left it, e.g. a taken row's cards flying to the taker's panel).  With
"instant" or ``prefers-reduced-motion`` nothing moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import js
from pyodide.ffi import create_once_callable, to_js

from .router import found

Rect = tuple[float, float, float, float]
"""left, top, width, height in the viewport."""


def _js(value: Any) -> Any:
    return to_js(value, dict_converter=js.Object.fromEntries)


def rect(element: Any) -> Rect | None:
    if not found(element):
        return None
    r = element.getBoundingClientRect()
    return (float(r.left), float(r.top), float(r.width), float(r.height))


def reduced_motion() -> bool:
    try:
        query = "(prefers-reduced-motion: reduce)"  # not shown
        return bool(js.window.matchMedia(query).matches)
    except Exception:
        return False


def scroller(node: Any) -> Any:
    """The box that scrolls ``node`` up and down: its nearest ancestor that scrolls (the
    play screen on a phone), else the page's."""
    box = node.parentElement
    while found(box):
        overflow = str(js.window.getComputedStyle(box).overflowY)
        if overflow in ("auto", "scroll") and box.scrollHeight > box.clientHeight:
            return box
        box = box.parentElement
    return js.document.scrollingElement


def reveal(nodes: Any, bars: str = "") -> None:
    """Scroll so that ``nodes`` (a NodeList: the places a picked die can go to) come into
    view, as ``scrollIntoView({block: "nearest"})`` would for all of them together: no
    scroll when they show already, else the least that shows them (their top, when they
    are taller than the view); smooth, unless the system asks for reduced motion.  The
    sticky ``bars`` (a selector: controls kept at the bottom of a phone's screen) cover
    the view's bottom: what they cover is not in view."""
    items = [node for node in nodes if found(node)]
    if not items:
        return
    rects = [node.getBoundingClientRect() for node in items]
    box = scroller(items[0])
    page = bool(box.isSameNode(js.document.scrollingElement))
    view = box.getBoundingClientRect()
    top = 0.0 if page else float(view.top) + float(box.clientTop)
    bottom = float(js.window.innerHeight) if page else top + float(box.clientHeight)
    for bar in box.querySelectorAll(bars) if bars else ():
        if str(js.window.getComputedStyle(bar).position) == "sticky":
            bottom = min(bottom, float(bar.getBoundingClientRect().top))
    first = min(float(r.top) for r in rects) - 4
    last = max(float(r.bottom) for r in rects) + 4
    if first < top or last - first > bottom - top:
        delta = first - top
    elif last > bottom:
        delta = last - bottom
    else:
        return
    behavior = "auto" if reduced_motion() else "smooth"
    box.scrollBy(_js({"top": delta, "behavior": behavior}))


def fly(element: Any, source: Rect | None, ms: int) -> None:
    """Move ``element`` (already in its new place) from ``source`` to where it is."""
    target = rect(element)
    if source is None or target is None:
        return
    dx = source[0] - target[0]
    dy = source[1] - target[1]
    element.animate(
        _js([{"transform": f"translate({dx}px, {dy}px)"}, {"transform": "none"}]),
        _js({"duration": ms, "easing": "ease-out"}),
    )


def piece_rects(root: Any) -> dict[str, Rect]:
    """Where each travelling piece (``data-piece="<name>"``) inside ``root`` is now."""
    out: dict[str, Rect] = {}
    for node in root.querySelectorAll("[data-piece]"):
        box = rect(node)
        if box is not None:
            out[str(node.getAttribute("data-piece"))] = box
    return out


def fly_moved(root: Any, before: dict[str, Rect], ms: int) -> None:
    """Every travelling piece inside ``root`` that moved since ``before`` (``piece_rects``)
    flies from where it was; a piece inside one that flies moves with it."""
    flying: list[Any] = []
    for node in root.querySelectorAll("[data-piece]"):
        was = before.get(str(node.getAttribute("data-piece")))
        now = rect(node)
        if was is None or now is None or (abs(was[0] - now[0]) <= 2 and abs(was[1] - now[1]) <= 2):
            continue
        if not any(bool(f.contains(node)) for f in flying):
            fly(node, was, ms)
            flying.append(node)


def send(root: Any, pieces: Sequence[tuple[Rect, str]], destination: Any, ms: int) -> None:
    """Copies of pieces (rect, HTML), drawn in ``root``, travel to ``destination``."""
    target = rect(destination)
    if target is None or root is None:
        return
    tx, ty = target[0] + target[2] / 2, target[1] + target[3] / 2
    for (x, y, w, h), inner in pieces:
        ghost = js.document.createElement("div")
        ghost.className = "ghost"
        ghost.setAttribute("aria-hidden", "true")
        ghost.style.cssText = f"left:{x}px;top:{y}px;width:{w}px;height:{h}px"
        ghost.innerHTML = inner
        root.append(ghost)
        dx, dy = tx - (x + w / 2), ty - (y + h / 2)
        end = f"translate({dx}px, {dy}px) scale(0.4)"  # not shown
        motion = ghost.animate(
            _js(
                [
                    {"transform": "none", "opacity": 1},
                    {"transform": end, "opacity": 0.2},
                ]
            ),
            _js({"duration": ms, "easing": "ease-in"}),
        )
        motion.onfinish = create_once_callable(lambda _e, g=ghost: g.remove())
