"""Optimus 2's colours and "?" bonuses in words (the view, the log and the end screen
say them alike)."""

from __future__ import annotations

from optimus.i18n import N_, _, pgettext


def colour_name(colour: str) -> str:
    """A colour (an area, a "?" answer) named on its own, as a heading or a button."""
    words = {
        "white": pgettext("colour name", "White"),
        "yellow": pgettext("colour name", "Yellow"),
        "blue": pgettext("colour name", "Blue"),
        "green": pgettext("colour name", "Green"),
        "pink": pgettext("colour name", "Pink"),
        "silver": pgettext("colour name", "Silver"),
    }
    return words[colour]


QUESTIONS = {
    "yellow": N_("yellow '?'"),
    "blue": N_("blue '?'"),
    "green": N_("green '?'"),
    "pink": N_("pink '?'"),
    "silver": N_("silver '?'"),
}
"""A "?" bonus of each area, for :func:`question` (only the one asked is translated: a
table draws about 90 of them, which made a third of its view's time)."""


def question(colour: str) -> str:
    """A "?" bonus of one area, in words (``blue '?'``)."""
    return _(QUESTIONS[colour])
