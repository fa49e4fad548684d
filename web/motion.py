"""Pieces in motion: where an element is, and moving it there from where it was.

A game page remembers where its pieces are before a move is drawn
(``GameTable.capture``) and, once drawn, moves them from there
(``GameTable.animate``) with :func:`fly` (the piece is still on the board) or
:func:`send` (copies of pieces that left it, e.g. a taken row's cards flying to
the taker's panel).  With "instant" or ``prefers-reduced-motion`` nothing moves.
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
        return bool(js.window.matchMedia("(prefers-reduced-motion: reduce)").matches)
    except Exception:
        return False


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
        motion = ghost.animate(
            _js(
                [
                    {"transform": "none", "opacity": 1},
                    {"transform": f"translate({dx}px, {dy}px) scale(0.4)", "opacity": 0.2},
                ]
            ),
            _js({"duration": ms, "easing": "ease-in"}),
        )
        motion.onfinish = create_once_callable(lambda _e, g=ghost: g.remove())
