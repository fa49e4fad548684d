"""Keyed updates of the board (first step: a whole redraw)."""

from __future__ import annotations

from typing import Any


def patch(node: Any, markup: str) -> None:
    """Make ``node``'s content ``markup``."""
    node.innerHTML = markup
