"""Text from outside the program (storage, a link, a file), read only when it is safe:
JSON (:func:`loads`) and whole numbers (:func:`whole_number`).

Any page of the site's origin can write ``localStorage``, and a file or a link can
say anything: a text nested thousands of brackets deep exhausts the stack of the
parser (in the browser, the JavaScript stack under Pyodide: the runtime dies and
the page stays blank on every reload).  :func:`loads` measures size and depth
first, without parsing, and refuses what no file of ours could be.

>>> loads('{"a": [1, 2]}')
{'a': [1, 2]}
>>> problem("[" * 9000), problem("[]", max_chars=1)
('too deep (9000 levels of brackets)', 'too big (2 characters)')
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

MAX_DEPTH = 64
"""The deepest nesting of brackets read (our files nest a few levels)."""
MAX_CHARS = 1_000_000
"""The longest text read unless the caller says otherwise (a long game's save is ~20 KB)."""

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def whole_number(text: str, max_digits: int = 10) -> int | None:
    """``text`` as a whole number when it is 1 to ``max_digits`` ASCII digits and nothing
    else; None otherwise.  The one reader of a number written outside the program (a
    link, a route, storage): ``str.isdigit`` accepts ``"²"`` and ``"①"``, which ``int``
    refuses, ``int`` accepts spaces, ``_`` and other scripts' digits, and refuses more
    than 4,300 digits.

    >>> whole_number("812"), whole_number("007"), whole_number("9" * 11)
    (812, 7, None)
    >>> [whole_number(t) for t in ("²", "①", "١٢", " 1", "1_0", "-1", "+1", "")]
    [None, None, None, None, None, None, None, None]
    >>> whole_number("1" * 100_000), whole_number("123456", max_digits=5)
    (None, None)
    """
    if not 0 < len(text) <= max_digits or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


class UnsafeText(ValueError):  # noqa: N818 - a ValueError, as json's own errors are
    """A text too big or too deep to parse."""


def depth(text: str) -> int:
    """The deepest nesting of brackets in a JSON text, without parsing it (strings skipped).

    >>> depth('{"a": [[1], "]]]", "\\\\"["]}'), depth("[" * 9000), depth("7")
    (3, 9000, 0)
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def problem(text: str, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH) -> str:
    """Why ``text`` is not parsed ("" when it may be): too big, or too deep."""
    if len(text) > max_chars:
        return f"too big ({len(text)} characters)"  # not shown
    deepest = depth(text)
    if deepest > max_depth:
        return f"too deep ({deepest} levels of brackets)"  # not shown
    return ""


def loads(text: str, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads(text)``, after checking size and depth (:class:`UnsafeText`, a
    ``ValueError``, when either is too much)."""
    refused = problem(text, max_chars, max_depth)
    if refused:
        raise UnsafeText(refused)
    return json.loads(text)
