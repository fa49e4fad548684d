"""Move text of Optimus 2, precomputed per sheet (so the fast path only looks up).

Using a die (active choice, passive pick, or with the ``extra`` prefix an
extra die) names the die, the area for the white die, and the target where
there is a choice of one:

* ``yellow r1c2`` -- the yellow die circles (or, if circled, crosses) the cell
  in row 1, column 2; ``white yellow r1c2`` the white die as yellow;
* ``blue``, ``green``, ``pink`` (``white blue`` ...) -- the next slot;
* ``silver pink`` (``white silver pink``) -- the silver die's value in the
  pink row of the silver area.

Bonuses and silver chains ask one question at a time: ``mark r1c2``
(yellow), ``mark blue 4`` (silver row and value), ``write 7`` (blue, green or
pink "?"), ``choose green`` (a "?" of any colour). Turn control: ``pass``
(decline a roll, or a passive pick), ``reroll``, ``return white`` (a tray die
back into the next roll), ``roll``, ``end`` (nothing left to roll), ``done``
(no more extra dice).

>>> from optimus.optimus2.sheet import load_sheet
>>> mt = move_table(load_sheet())
>>> mt.place[place_code(WHITE, SILVER, 3)], unpack(mt.parse_place["yellow r1c2"])
('white silver pink', (1, 1, 0))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TypeVar

from optimus.optimus2.sheet import (
    AREAS,
    DICE,
    Q_BLUE,
    Q_GREEN,
    Q_PINK,
    Q_SILVER,
    Q_YELLOW,
    SILVER,
    WHITE,
    YELLOW,
    SheetDef,
)

Place = int
"""A die entry coded as ``die << 7 | area << 4 | target`` (target: yellow cell, silver row or 0)."""


def place_code(die: int, area: int, target: int) -> Place:
    return die << 7 | area << 4 | target


def unpack(place: Place) -> tuple[int, int, int]:
    """(die, area, target) of a coded entry."""
    return place >> 7, place >> 4 & 7, place & 15


CONTROL = ("pass", "reroll", "roll", "end", "done")

T = TypeVar("T")
DieTable = tuple[tuple[tuple[T, ...], ...], ...]
"""Per die, per area (index 1-5; 0 unused), per target (yellow cell, silver row, or 0
for blue, green and pink) one entry; empty where the die cannot enter the area.
The engine lists a die's entries from such a table, as codes or as text."""


@dataclass(frozen=True)
class MoveTable:
    place: dict[Place, str]
    parse_place: dict[str, Place]
    extra: dict[Place, str]
    parse_extra: dict[str, Place]
    mark_cell: tuple[str, ...]
    """``mark r1c2`` per yellow cell."""
    mark_silver: dict[int, str]
    """``mark yellow 3`` by ``row * 8 + value``."""
    write: tuple[str, ...]
    """``write N`` by N."""
    choose: dict[int, str]
    """``choose yellow`` by "?" bonus code."""
    parse_task: dict[str, int]
    returns: tuple[str, ...]
    """``return white`` per die."""
    parse_return: dict[str, int]
    codes: DieTable[Place]
    """``codes[die][area][target]``: the coded entry (see :class:`DieTable`)."""
    texts: DieTable[str]
    """The same entries as move text."""
    extra_texts: DieTable[str]
    """The same entries as extra-die move text (``extra ...``)."""


CHOOSE_CODES = {
    "yellow": Q_YELLOW,
    "blue": Q_BLUE,
    "green": Q_GREEN,
    "pink": Q_PINK,
    "silver": Q_SILVER,
}


_TABLES: dict[int, tuple[SheetDef, MoveTable]] = {}


def move_table(sd: SheetDef) -> MoveTable:
    """The move table of ``sd`` (cached by identity: hashing a sheet is slow)."""
    hit = _TABLES.get(id(sd))
    if hit is not None and hit[0] is sd:
        return hit[1]
    mt = _move_table(sd)
    _TABLES[id(sd)] = (sd, mt)  # keeps ``sd`` alive, so its id stays its own
    return mt


def _die_table(sd: SheetDef, entry: dict[Place, T]) -> DieTable[T]:
    targets = (0, len(sd.cell_names), 1, 1, 1, 4)
    return tuple(
        tuple(
            tuple(entry[place_code(d, a, t)] for t in range(targets[a]))
            if a and d in (WHITE, a)
            else ()
            for a in range(6)
        )
        for d in range(6)
    )


@cache
def _move_table(sd: SheetDef) -> MoveTable:
    place: dict[Place, str] = {}
    for d in range(6):
        for a in range(1, 6):
            if d != WHITE and d != a:
                continue
            head = f"white {AREAS[a - 1]}" if d == WHITE else DICE[d]
            if a == YELLOW:
                for c, name in enumerate(sd.cell_names):
                    place[place_code(d, a, c)] = f"{head} {name}"
            elif a == SILVER:
                for r in range(4):
                    place[place_code(d, a, r)] = f"{head} {AREAS[r]}"
            else:
                place[place_code(d, a, 0)] = head
    extra = {k: f"extra {v}" for k, v in place.items()}
    mark_cell = tuple(f"mark {name}" for name in sd.cell_names)
    mark_silver = {
        r * 8 + v: f"mark {AREAS[r]} {v}" for r in range(4) for v in range(1, sd.silver_values + 1)
    }
    write = tuple(f"write {n}" for n in range(13))
    choose = {code: f"choose {name}" for name, code in CHOOSE_CODES.items()}
    parse_task: dict[str, int] = {}
    parse_task.update({t: i for i, t in enumerate(mark_cell)})
    parse_task.update({t: k for k, t in mark_silver.items()})
    parse_task.update({t: n for n, t in enumerate(write)})
    parse_task.update({t: k for k, t in choose.items()})
    returns = tuple(f"return {d}" for d in DICE)
    return MoveTable(
        place=place,
        parse_place={v: k for k, v in place.items()},
        extra=extra,
        parse_extra={v: k for k, v in extra.items()},
        mark_cell=mark_cell,
        mark_silver=mark_silver,
        write=write,
        choose=choose,
        parse_task=parse_task,
        returns=returns,
        parse_return={t: d for d, t in enumerate(returns)},
        codes=_die_table(sd, {k: k for k in place}),
        texts=_die_table(sd, place),
        extra_texts=_die_table(sd, extra),
    )
