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

Give every piece a game draws a stable ``data-key`` (a card's place, a box's
name, a die's colour): a piece that changes its tag (a box that becomes a
button when it can be marked) is a new element.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import js

from .router import found

ELEMENT = 1
TEXT = 3
COMMENT = 8


def patch(node: Any, markup: str) -> None:
    """Make ``node``'s content ``markup``, keeping the elements it still has."""
    template = js.document.createElement("template")
    template.innerHTML = markup
    _children(node, template.content)


def _key(node: Any) -> tuple[str, str] | None:
    if node.nodeType != ELEMENT:
        return None
    key = node.getAttribute("data-key")
    return (str(node.nodeName), str(key)) if found(key) and key else None


def _children(old_parent: Any, new_parent: Any) -> None:
    old = list(old_parent.childNodes)
    new = list(new_parent.childNodes)
    keyed: dict[tuple[str, str], Any] = {}
    unkeyed: dict[str, deque[Any]] = {}
    for child in old:
        key = _key(child)
        if key is not None and key not in keyed:
            keyed[key] = child
        else:
            unkeyed.setdefault(str(child.nodeName), deque()).append(child)
    wanted = []
    for child in new:
        key = _key(child)
        if key is not None:
            match = keyed.pop(key, None)
        else:
            queue = unkeyed.get(str(child.nodeName))
            match = queue.popleft() if queue else None
        if match is None:
            wanted.append(child)  # a new piece: moved in from the template
        else:
            _morph(match, child)
            wanted.append(match)
    for gone in [*keyed.values(), *(n for queue in unkeyed.values() for n in queue)]:
        gone.remove()
    for i, child in enumerate(wanted):
        current = old_parent.childNodes.item(i)
        if not found(current):
            old_parent.appendChild(child)
        elif not current.isSameNode(child):
            old_parent.insertBefore(child, current)


def _morph(old: Any, new: Any) -> None:
    """Make ``old`` (kept) look like ``new``."""
    if old.nodeType in (TEXT, COMMENT):
        if old.nodeValue != new.nodeValue:
            old.nodeValue = new.nodeValue
        return
    if old.isEqualNode(new):
        return
    wanted = {str(a.name): str(a.value) for a in new.attributes}
    for name in [str(a.name) for a in old.attributes]:
        if name not in wanted:
            old.removeAttribute(name)
    for name, value in wanted.items():
        if old.getAttribute(name) != value:
            old.setAttribute(name, value)
    _children(old, new)
