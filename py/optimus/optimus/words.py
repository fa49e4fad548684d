"""The words of Optimus's colours and dice, in the player's language.

A colour has three forms, because Portuguese and Catalan adjectives agree with
their noun: the colour as a noun (a die's face, the colour a joker stands for),
the colour of one box, and a count of boxes of a colour (``3 red boxes``).

>>> colour_name("r"), colour_name("x"), box_colour("g"), boxes_of("r", 3), die_name("number", "?")
('red', 'colour joker', 'green', '3 red boxes', 'number joker die')
"""

from __future__ import annotations

from optimus.i18n import ngettext, pgettext
from optimus.optimus.sheet import COLOUR_NAMES, COLOURS


def colour_name(face: str) -> str:
    """The colour of a face (``g y b r o``) as a noun, or ``colour joker`` for ``x``."""
    if face == "g":
        return pgettext("colour", "green")
    if face == "y":
        return pgettext("colour", "yellow")
    if face == "b":
        return pgettext("colour", "blue")
    if face == "r":
        return pgettext("colour", "red")
    if face == "o":
        return pgettext("colour", "orange")
    return pgettext("colour", "colour joker")


def number_name(face: str) -> str:
    """A number die's face in words: the digit, or ``number joker`` for ``?``."""
    return pgettext("number", "number joker") if face == "?" else face


def box_colour(face: str) -> str:
    """The colour of one box, as its adjective (``H3, red, star``)."""
    if face == "g":
        return pgettext("box colour", "green")
    if face == "y":
        return pgettext("box colour", "yellow")
    if face == "b":
        return pgettext("box colour", "blue")
    if face == "r":
        return pgettext("box colour", "red")
    return pgettext("box colour", "orange")


def boxes_of(face: str, n: int) -> str:
    """``n`` boxes of a colour: ``1 green box``, ``3 red boxes``."""
    if face == "g":
        return ngettext("{n} green box", "{n} green boxes", n)
    if face == "y":
        return ngettext("{n} yellow box", "{n} yellow boxes", n)
    if face == "b":
        return ngettext("{n} blue box", "{n} blue boxes", n)
    if face == "r":
        return ngettext("{n} red box", "{n} red boxes", n)
    return ngettext("{n} orange box", "{n} orange boxes", n)


def die_name(kind: str, face: str) -> str:
    """A die by its face: ``red colour die``, ``3 number die``, ``colour joker die``."""
    if kind == "number":
        if face == "?":
            return pgettext("die", "number joker die")
        return pgettext("die", "{number} number die", number=face)
    if face == "g":
        return pgettext("die", "green colour die")
    if face == "y":
        return pgettext("die", "yellow colour die")
    if face == "b":
        return pgettext("die", "blue colour die")
    if face == "r":
        return pgettext("die", "red colour die")
    if face == "o":
        return pgettext("die", "orange colour die")
    return pgettext("die", "colour joker die")


def colour_of_name(name: str) -> str:
    """The face of an English colour name as the engine logs it (``red`` -> ``r``)."""
    return COLOURS[COLOUR_NAMES.index(name)] if name in COLOUR_NAMES else ""
