"""Optimus 2's log in words: a whole sentence per event for the log, and each player's
last decision alone for their panel.

>>> lines, last = described_log(
...     [{"event": "turn", "player": 1}, {"event": "roll", "dice": {"blue": 4}},
...      {"event": "use", "player": 1, "move": "blue"}], ["You", "Ana"], you=0)
>>> lines[0], last
('Ana chose the blue 4 in blue.', {1: 'chose the blue 4 in blue'})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from optimus.i18n import N_, NP_, _, pgettext
from optimus.ui import table as ui

from .words import die_word as die_colour
from .words import question
from .words import row_word as row_colour

DECISIONS = ("use", "pass", "reroll", "bonus", "return", "extra", "pick")
"""Logged events that are a player's own decision (the last one stays highlighted)."""


def _die_text(name: str, values: Mapping[str, int]) -> str:
    v = values.get(name)
    if v:
        return _("the {colour} {value}", colour=die_colour(name), value=v)
    return _("the {colour} die", colour=die_colour(name))


def _cell_place(cell: str) -> tuple[int, int]:
    """``r3c4`` -> (3, 4)."""
    row, _sep, column = cell.removeprefix("r").partition("c")
    return int(row), int(column)


def place_text(move: str, values: Mapping[str, int]) -> str:
    """``white silver pink`` -> ``the white 4 as silver in the pink row of silver``."""
    parts = move.split()
    name = parts[0]
    white = name == "white"
    area = parts[1] if white else name
    rest = parts[2:] if white else parts[1:]
    d = _die_text(name, values)
    if area == "yellow" and rest:
        row, column = _cell_place(rest[0])
        v = {"die": d, "row": row, "column": column}
        if white:
            return _("{die} as yellow, on the yellow cell in row {row}, column {column}", **v)
        return _("{die} on the yellow cell in row {row}, column {column}", **v)
    if area == "silver" and rest:
        if white:
            return _("{die} as silver in the {row} row of silver", die=d, row=row_colour(rest[0]))
        return _("{die} in the {row} row of silver", die=d, row=row_colour(rest[0]))
    if area == "blue":
        total = values.get("blue", 0) + values.get("white", 0)
        if values.get("blue") and values.get("white"):
            if white:
                return _("{die} as blue (blue + white: {total})", die=d, total=total)
            return _("{die} in blue (blue + white: {total})", die=d, total=total)
        return _("{die} as blue", die=d) if white else _("{die} in blue", die=d)
    if area == "green":
        return _("{die} as green", die=d) if white else _("{die} in green", die=d)
    if area == "pink":
        return _("{die} as pink", die=d) if white else _("{die} in pink", die=d)
    return d


class _Said(NamedTuple):
    """An event's words: the log's sentence (the person's own, another player's) and the
    decision alone for the player's panel (another's, the person's own; "" where none)."""

    yours: str
    theirs: str
    """Says ``{who}``."""
    action: str = ""
    your_action: str = ""
    """``pgettext("your action", ...)``."""


SAID = {
    "first": _Said(N_("You play first."), N_("{who} plays first.")),
    "turn": _Said(N_("Your active turn."), N_("{who}'s active turn.")),
    "use": _Said(
        N_("You chose {what}."),
        N_("{who} chose {what}."),
        N_("chose {what}"),
        NP_("your action", "chose {what}"),
    ),
    "none": _Said(
        N_("You took no die."),
        N_("{who} took no die."),
        N_("took no die"),
        NP_("your action", "took no die"),
    ),
    "skip": _Said(
        N_("You skipped this roll."),
        N_("{who} skipped this roll."),
        N_("skipped this roll"),
        NP_("your action", "skipped this roll"),
    ),
    "reroll": _Said(
        N_("You rerolled the dice."),
        N_("{who} rerolled the dice."),
        N_("rerolled the dice"),
        NP_("your action", "rerolled the dice"),
    ),
    "return": _Said(
        N_("You brought the {colour} die back from the tray."),
        N_("{who} brought the {colour} die back from the tray."),
        N_("brought the {colour} die back from the tray"),
        NP_("your action", "brought the {colour} die back from the tray"),
    ),
    "pick": _Said(
        N_("You picked {what}."),
        N_("{who} picked {what}."),
        N_("picked {what}"),
        NP_("your action", "picked {what}"),
    ),
    "extra": _Said(
        N_("You used an extra die: {what}."),
        N_("{who} used an extra die: {what}."),
        N_("used an extra die: {what}"),
        NP_("your action", "used an extra die: {what}"),
    ),
    "bonus:choose": _Said(
        N_("You turned the '?' into a {bonus}."),
        N_("{who} turned the '?' into a {bonus}."),
        N_("turned the '?' into a {bonus}"),
        NP_("your action", "turned the '?' into a {bonus}"),
    ),
    "bonus:write": _Said(
        N_("You wrote {value} with a bonus."),
        N_("{who} wrote {value} with a bonus."),
        N_("wrote {value} with a bonus"),
        NP_("your action", "wrote {value} with a bonus"),
    ),
    "bonus:yellow": _Said(
        N_("You marked the yellow cell in row {row}, column {column} with a bonus."),
        N_("{who} marked the yellow cell in row {row}, column {column} with a bonus."),
        N_("marked the yellow cell in row {row}, column {column} with a bonus"),
        NP_("your action", "marked the yellow cell in row {row}, column {column} with a bonus"),
    ),
    "bonus:silver": _Said(
        N_("You marked the {value} in the {row} row of silver."),
        N_("{who} marked the {value} in the {row} row of silver."),
        N_("marked the {value} in the {row} row of silver"),
        NP_("your action", "marked the {value} in the {row} row of silver"),
    ),
}
"""Each player event's words, by its kind (``_Describer._kind``)."""


def describer(
    names: Sequence[str], you: int | None = None
) -> Callable[[Mapping[str, Any]], str | None]:
    """A log describer that follows the dice values as the log goes (roll entries).

    ``you`` is the person's seat: their sentences say "You"."""
    return _Describer(names, you).sentence


class _Describer:
    """Log entries in words: a whole sentence (the person's own, or another player's) for
    the log, and the action alone for the player's panel."""

    def __init__(self, names: Sequence[str], you: int | None) -> None:
        self.names = names
        self.you = you
        self.values: dict[str, int] = {}
        self.active = -1
        self.passive = False

    def sentence(self, e: Mapping[str, Any]) -> str | None:
        ev = e.get("event")
        p = e.get("player")
        if ev == "round":
            self.passive = False
            return _("Round {round} begins.", round=e["round"])
        if ev == "turn":
            self.active = int(p) if isinstance(p, int) else -1
            self.passive = False
            self.values.clear()
        if ev == "roll":
            dice = dict(e.get("dice", {}))
            self.values.update(dice)
            shown = ", ".join(f"{die_colour(d)} {v}" for d, v in dice.items())
            return _("Rolled: {dice}.", dice=shown)
        if ev == "solo_passive":
            self.passive = True
            self.values.clear()
            return _("Passive turn: all six dice are rolled; the three lowest go to the tray.")
        if ev == "end":
            return _("The game is over.")
        if not isinstance(p, int) or not 0 <= p < len(self.names):
            return None
        if p == self.you:
            return self._yours(e)
        return self._theirs(e, self.names[p])

    def _kind(self, e: Mapping[str, Any]) -> str:
        """The event's key in :data:`SAID`: the event, with ``pass`` told apart (``skip``
        a roll, ``none`` taken) and a bonus by what it answers."""
        ev = str(e.get("event"))
        if ev == "pass":
            return "none" if self.passive or e.get("player") != self.active else "skip"
        if ev == "bonus":
            parts = str(e.get("move", "")).split()
            if parts[0] in ("choose", "write"):
                return f"bonus:{parts[0]}"
            return "bonus:yellow" if len(parts) == 2 else "bonus:silver"
        return ev

    def _what(self, e: Mapping[str, Any]) -> dict[str, Any]:
        """The values of the event's sentence."""
        move = str(e.get("move", ""))
        ev = e.get("event")
        if ev in ("use", "pick"):
            return {"what": place_text(move, self.values)}
        if ev == "extra":
            return {"what": place_text(move.removeprefix("extra "), self.values)}
        if ev == "return":
            return {"colour": die_colour(move.split()[-1])}
        if ev == "bonus":
            parts = move.split()
            if parts[0] == "choose":
                return {"bonus": question(parts[1])}
            if parts[0] == "write":
                return {"value": parts[1]}
            if len(parts) == 2:
                row, column = _cell_place(parts[1])
                return {"row": row, "column": column}
            return {"value": parts[2], "row": row_colour(parts[1])}
        return {}

    def _said(self, e: Mapping[str, Any]) -> tuple[_Said | None, dict[str, Any]]:
        """The event's words (None: it has none) and the values of its sentences."""
        said = SAID.get(self._kind(e))
        return said, self._what(e) if said else {}

    def _yours(self, e: Mapping[str, Any]) -> str | None:
        said, v = self._said(e)
        return _(said.yours, **v) if said else None

    def _theirs(self, e: Mapping[str, Any], who: str) -> str | None:
        said, v = self._said(e)
        return _(said.theirs, who=who, **v) if said else None

    def action(self, e: Mapping[str, Any]) -> str:
        """The player's decision alone, for their panel (``chose the blue 5 in blue``)."""
        said, v = self._said(e)
        if said is None or not said.action:
            return ""
        if e.get("player") == self.you:  # said to "you"
            return pgettext("your action", said.your_action, **v)
        return _(said.action, **v)


def described_log(
    log: Sequence[Mapping[str, Any]], names: Sequence[str], you: int | None = None
) -> tuple[list[str], dict[int, str]]:
    """The log's sentences (newest first) and each player's last decision, in words."""
    describe = _Describer(names, you)
    actions: list[str] = []

    def record(entry: Mapping[str, Any]) -> str | None:
        said = describe.sentence(entry)
        actions.append(describe.action(entry) if entry.get("event") in DECISIONS else "")
        return said

    lines = ui.log_lines(log, record)
    last = {seat: actions[at] for seat, (at, _e) in ui.last_actions(log, DECISIONS).items()}
    return lines, last
