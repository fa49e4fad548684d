"""Optimus 2's colours and "?" bonuses in words: the rules' reasons, the view, the log
and the end screen say them alike, from one table each.

>>> colour_name("blue"), die_word("blue"), row_word("blue"), question("blue")
('Blue', 'blue', 'blue', "blue '?'")
>>> task_reason(("S", 4, 3))
'first resolve your bonus: mark the 4 in a silver row'
>>> task_text(("S", 4, 3))
'Silver chain: mark the 4 in a highlighted silver row.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from optimus.i18n import N_, NP_, _, pgettext


class _Words(NamedTuple):
    """A colour's words (the ``pgettext`` messages of their contexts; "" where none)."""

    name: str
    """``pgettext("colour name", ...)``: named on its own, as a heading or a button."""
    die: str
    """``pgettext("die colour", ...)``: as the colour of a die (goes with "die")."""
    row: str
    """``pgettext("row colour", ...)``: as the colour of a silver row (goes with "row")."""
    question: str
    """``_(...)``: the area's "?" bonus."""


WORDS = {
    "white": _Words(NP_("colour name", "White"), NP_("die colour", "white"), "", ""),
    "yellow": _Words(
        NP_("colour name", "Yellow"),
        NP_("die colour", "yellow"),
        NP_("row colour", "yellow"),
        N_("yellow '?'"),
    ),
    "blue": _Words(
        NP_("colour name", "Blue"),
        NP_("die colour", "blue"),
        NP_("row colour", "blue"),
        N_("blue '?'"),
    ),
    "green": _Words(
        NP_("colour name", "Green"),
        NP_("die colour", "green"),
        NP_("row colour", "green"),
        N_("green '?'"),
    ),
    "pink": _Words(
        NP_("colour name", "Pink"),
        NP_("die colour", "pink"),
        NP_("row colour", "pink"),
        N_("pink '?'"),
    ),
    "silver": _Words(
        NP_("colour name", "Silver"), NP_("die colour", "silver"), "", N_("silver '?'")
    ),
}
"""Each colour's words (only the one asked is translated: a table draws about 90 "?"
bonuses, which made a third of its view's time)."""


def colour_name(colour: str) -> str:
    """A colour (an area, a "?" answer) named on its own, as a heading or a button."""
    return pgettext("colour name", WORDS[colour].name)


def die_word(colour: str) -> str:
    """A die's colour as a word that goes with "die"."""
    return pgettext("die colour", WORDS[colour].die)


def row_word(colour: str) -> str:
    """A silver row's colour as a word that goes with "row"."""
    return pgettext("row colour", WORDS[colour].row)


def question(colour: str) -> str:
    """A "?" bonus of one area, in words (``blue '?'``)."""
    return _(WORDS[colour].question)


TASKS = {
    "Y=": (
        N_("first resolve your bonus: a yellow entry of {value}"),
        N_("Bonus: circle or cross a highlighted yellow cell."),
    ),
    "Y": (
        N_("first resolve your bonus: circle or cross a yellow cell"),
        N_("Bonus: circle or cross a highlighted yellow cell."),
    ),
    "S=": (
        N_("first resolve your bonus: mark the {value} in a silver row"),
        N_("Silver chain: mark the {value} in a highlighted silver row."),
    ),
    "S": (
        N_("first resolve your bonus: a silver '?', mark any open silver cell"),
        N_("Bonus: mark any highlighted silver cell."),
    ),
    "A": (
        N_("first resolve your bonus: a '?' of any colour, choose its area"),
        N_("Bonus: a '?' of any colour — choose its area."),
    ),
    "B": (
        N_("first resolve your bonus: a blue '?', write its value"),
        N_("Bonus: choose the value to write in blue."),
    ),
    "G": (
        N_("first resolve your bonus: a green '?', write its value"),
        N_("Bonus: choose the value to write in green."),
    ),
    "P": (
        N_("first resolve your bonus: a pink '?', write its value"),
        N_("Bonus: choose the value to write in pink."),
    ),
}
"""A pending bonus or chain question (its kind; ``=`` when it names a value): why
nothing else may be done while it waits, and what to do now."""


def _task_words(task: Sequence[Any]) -> tuple[tuple[str, str], dict[str, Any]]:
    kind, value, _rows = task
    key = f"{kind}=" if value and kind in ("Y", "S") else kind
    return TASKS.get(key, TASKS["P"]), {"value": value}


def task_reason(task: Sequence[Any]) -> str:
    """Why nothing else may be done while a bonus question waits, in words."""
    (reason, _status), values = _task_words(task)
    return _(reason, **values)


def task_text(task: Sequence[Any]) -> str:
    """A pending bonus or chain question, in words (the status line)."""
    (_reason, status), values = _task_words(task)
    return _(status, **values)
