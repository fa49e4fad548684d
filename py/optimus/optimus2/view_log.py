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
from typing import Any

from optimus.i18n import _, pgettext
from optimus.optimus2.game import die_word as die_colour
from optimus.optimus2.game import row_word as row_colour
from optimus.ui import table as ui

from .view_words import question

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
        """The event, with ``pass`` told apart: ``skip`` a roll, ``none`` taken."""
        ev = str(e.get("event"))
        if ev == "pass":
            return "none" if self.passive or e.get("player") != self.active else "skip"
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

    def _bonus_kind(self, e: Mapping[str, Any]) -> str:
        parts = str(e.get("move", "")).split()
        if parts[0] in ("choose", "write"):
            return parts[0]
        return "yellow" if len(parts) == 2 else "silver"

    def _yours(self, e: Mapping[str, Any]) -> str | None:
        kind, v = self._kind(e), self._what(e)
        if kind == "first":
            return _("You play first.")
        if kind == "turn":
            return _("Your active turn.")
        if kind == "use":
            return _("You chose {what}.", **v)
        if kind == "none":
            return _("You took no die.")
        if kind == "skip":
            return _("You skipped this roll.")
        if kind == "reroll":
            return _("You rerolled the dice.")
        if kind == "return":
            return _("You brought the {colour} die back from the tray.", **v)
        if kind == "pick":
            return _("You picked {what}.", **v)
        if kind == "extra":
            return _("You used an extra die: {what}.", **v)
        if kind == "bonus":
            bonus = self._bonus_kind(e)
            if bonus == "choose":
                return _("You turned the '?' into a {bonus}.", **v)
            if bonus == "write":
                return _("You wrote {value} with a bonus.", **v)
            if bonus == "yellow":
                return _(
                    "You marked the yellow cell in row {row}, column {column} with a bonus.", **v
                )
            return _("You marked the {value} in the {row} row of silver.", **v)
        return None

    def _theirs(self, e: Mapping[str, Any], who: str) -> str | None:
        kind, v = self._kind(e), self._what(e)
        if kind == "first":
            return _("{who} plays first.", who=who)
        if kind == "turn":
            return _("{who}'s active turn.", who=who)
        if kind == "use":
            return _("{who} chose {what}.", who=who, **v)
        if kind == "none":
            return _("{who} took no die.", who=who)
        if kind == "skip":
            return _("{who} skipped this roll.", who=who)
        if kind == "reroll":
            return _("{who} rerolled the dice.", who=who)
        if kind == "return":
            return _("{who} brought the {colour} die back from the tray.", who=who, **v)
        if kind == "pick":
            return _("{who} picked {what}.", who=who, **v)
        if kind == "extra":
            return _("{who} used an extra die: {what}.", who=who, **v)
        if kind == "bonus":
            bonus = self._bonus_kind(e)
            if bonus == "choose":
                return _("{who} turned the '?' into a {bonus}.", who=who, **v)
            if bonus == "write":
                return _("{who} wrote {value} with a bonus.", who=who, **v)
            if bonus == "yellow":
                return _(
                    "{who} marked the yellow cell in row {row}, column {column} with a bonus.",
                    who=who,
                    **v,
                )
            return _("{who} marked the {value} in the {row} row of silver.", who=who, **v)
        return None

    def action(self, e: Mapping[str, Any]) -> str:
        """The player's decision alone, for their panel (``chose the blue 5 in blue``)."""
        if e.get("player") == self.you:
            return self._your_action(e)
        kind, v = self._kind(e), self._what(e)
        if kind == "use":
            return _("chose {what}", **v)
        if kind == "none":
            return _("took no die")
        if kind == "skip":
            return _("skipped this roll")
        if kind == "reroll":
            return _("rerolled the dice")
        if kind == "return":
            return _("brought the {colour} die back from the tray", **v)
        if kind == "pick":
            return _("picked {what}", **v)
        if kind == "extra":
            return _("used an extra die: {what}", **v)
        if kind == "bonus":
            bonus = self._bonus_kind(e)
            if bonus == "choose":
                return _("turned the '?' into a {bonus}", **v)
            if bonus == "write":
                return _("wrote {value} with a bonus", **v)
            if bonus == "yellow":
                return _("marked the yellow cell in row {row}, column {column} with a bonus", **v)
            return _("marked the {value} in the {row} row of silver", **v)
        return ""

    def _your_action(self, e: Mapping[str, Any]) -> str:
        """The person's own decision alone, for their panel (said to "you")."""
        kind, v = self._kind(e), self._what(e)
        if kind == "use":
            return pgettext("your action", "chose {what}", **v)
        if kind == "none":
            return pgettext("your action", "took no die")
        if kind == "skip":
            return pgettext("your action", "skipped this roll")
        if kind == "reroll":
            return pgettext("your action", "rerolled the dice")
        if kind == "return":
            return pgettext("your action", "brought the {colour} die back from the tray", **v)
        if kind == "pick":
            return pgettext("your action", "picked {what}", **v)
        if kind == "extra":
            return pgettext("your action", "used an extra die: {what}", **v)
        if kind == "bonus":
            bonus = self._bonus_kind(e)
            if bonus == "choose":
                return pgettext("your action", "turned the '?' into a {bonus}", **v)
            if bonus == "write":
                return pgettext("your action", "wrote {value} with a bonus", **v)
            if bonus == "yellow":
                return pgettext(
                    "your action",
                    "marked the yellow cell in row {row}, column {column} with a bonus",
                    **v,
                )
            return pgettext("your action", "marked the {value} in the {row} row of silver", **v)
        return ""


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
