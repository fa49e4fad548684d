"""Keyed updates: make an element's content match new markup by patching it in place.

Replacing ``innerHTML`` re-creates every element: the focused control is gone
(focus falls to the page), and an animation running on a piece stops.
:func:`patch` keeps the elements that are still there and changes only what
differs, as React's ``key``, Elm's ``Html.Keyed`` and lit-html's ``repeat`` do:

- children are matched by key: an element's ``data-key`` (with its tag) says
  which piece it is, wherever it moves among its siblings; elements without
  one are matched in order among siblings of the same tag;
- a matched element keeps its identity: attributes are set or removed, its
  children patched the same way; an equal subtree is left alone
  (``isEqualNode``, one call: most of a board does not change between two
  updates);
- new pieces are inserted, pieces that are gone are removed, and the rest are
  moved into the new order.

The algorithm runs in JavaScript (``optimusPatch``, web/page.js): done from Python,
each node and attribute read crosses from Python to the page, and a table of four
sheets took tens of milliseconds to patch.  ``tests/e2e/test_keyed.py`` checks it.

Give every piece a game draws a stable ``data-key`` (a card's place, a box's
name, a die's colour): a piece that changes its tag (a box that becomes a
button when it can be marked) is a new element.
"""

from __future__ import annotations

from typing import Any

import js


def patch(node: Any, markup: str) -> None:
    """Make ``node``'s content ``markup``, keeping the elements it still has (in the
    page's script, ``optimusPatch`` of web/page.js: one call, not one per node)."""
    js.optimusPatch(node, markup)
