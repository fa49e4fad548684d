"""The words of Optimus's colours and dice, in the player's language.

A colour has three forms, because Portuguese and Catalan adjectives agree with
their noun: the colour as a noun (a die's face, the colour a joker stands for),
the colour of one box, and a count of boxes of a colour (``3 red boxes``).

>>> colour_name("r"), colour_name("x"), box_colour("g"), boxes_of("r", 3), die_name("number", "?")
('red', 'colour joker', 'green', '3 red boxes', 'number joker die')
"""

from __future__ import annotations

from typing import NamedTuple

from optimus.i18n import NN_, NP_, ngettext, pgettext
from optimus.optimus.sheet import COLOUR_NAMES, COLOURS


class _Words(NamedTuple):
    """A colour's words: the ``pgettext`` messages of its contexts, the plural forms."""

    noun: str
    """``pgettext("colour", ...)``: the colour as a noun."""
    box: str
    """``pgettext("box colour", ...)``: the colour of one box."""
    boxes: tuple[str, str]
    """``ngettext(...)``: a count of boxes of the colour."""
    die: str
    """``pgettext("die", ...)``: its colour die."""


WORDS = {
    "g": _Words(
        NP_("colour", "green"),
        NP_("box colour", "green"),
        NN_("{n} green box", "{n} green boxes"),
        NP_("die", "green colour die"),
    ),
    "y": _Words(
        NP_("colour", "yellow"),
        NP_("box colour", "yellow"),
        NN_("{n} yellow box", "{n} yellow boxes"),
        NP_("die", "yellow colour die"),
    ),
    "b": _Words(
        NP_("colour", "blue"),
        NP_("box colour", "blue"),
        NN_("{n} blue box", "{n} blue boxes"),
        NP_("die", "blue colour die"),
    ),
    "r": _Words(
        NP_("colour", "red"),
        NP_("box colour", "red"),
        NN_("{n} red box", "{n} red boxes"),
        NP_("die", "red colour die"),
    ),
    "o": _Words(
        NP_("colour", "orange"),
        NP_("box colour", "orange"),
        NN_("{n} orange box", "{n} orange boxes"),
        NP_("die", "orange colour die"),
    ),
}
"""Each box colour's words, by its face (``g y b r o``)."""

JOKER = _Words(NP_("colour", "colour joker"), "", ("", ""), NP_("die", "colour joker die"))
"""The colour joker's words (``x``, any face not a colour): it colours no box."""


def colour_name(face: str) -> str:
    """The colour of a face (``g y b r o``) as a noun, or ``colour joker`` for ``x``."""
    return pgettext("colour", WORDS.get(face, JOKER).noun)


def number_name(face: str) -> str:
    """A number die's face in words: the digit, or ``number joker`` for ``?``."""
    return pgettext("number", "number joker") if face == "?" else face


def box_colour(face: str) -> str:
    """The colour of one box, as its adjective (``H3, red, star``)."""
    return pgettext("box colour", WORDS[face].box)


def boxes_of(face: str, n: int) -> str:
    """``n`` boxes of a colour: ``1 green box``, ``3 red boxes``."""
    return ngettext(*WORDS[face].boxes, n)


def die_name(kind: str, face: str) -> str:
    """A die by its face: ``red colour die``, ``3 number die``, ``colour joker die``."""
    if kind == "number":
        if face == "?":
            return pgettext("die", "number joker die")
        return pgettext("die", "{number} number die", number=face)
    return pgettext("die", WORDS.get(face, JOKER).die)


def colour_of_name(name: str) -> str:
    """The face of an English colour name as the engine logs it (``red`` -> ``r``)."""
    return COLOURS[COLOUR_NAMES.index(name)] if name in COLOUR_NAMES else ""
