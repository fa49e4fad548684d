"""The Optimus 2 score sheet as data, and the rules of its five areas.

Every number of the sheet (cells, values, thresholds, multipliers, score
tables, bonuses per slot, row/column/bar bonuses, round track, solo rules)
lives in one JSON file under ``sheets/``; :func:`load_sheet` reads and
validates it into a frozen :class:`SheetDef`. A variant sheet is a new data
file, not new code.

A player's sheet during play is a flat ``list[int]`` (cheap to copy) whose
layout is given by the offsets of its :class:`SheetDef`; the functions below
read and change it. Bonuses gained by an entry are applied at once when they
need no decision (actions, foxes); "?" bonuses are returned as *tasks*
(``(kind, value, rows)`` tuples) that the player must resolve next.

>>> sd = load_sheet()
>>> sh = sd.new_sheet()
>>> enter_pink(sd, sh, 6), enter_pink(sd, sh, 1), enter_pink(sd, sh, 2)
([], [], [])
>>> sh[sd.AC], area_scores(sd, sh)
(1, [0, 0, 0, 9, 0])
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from optimus.core import data
from optimus.core.protocol import GameError

DICE = ("white", "yellow", "blue", "green", "pink", "silver")
"""Die colours by index; areas use the same index (1 yellow .. 5 silver)."""
WHITE, YELLOW, BLUE, GREEN, PINK, SILVER = range(6)
AREAS = ("yellow", "blue", "green", "pink", "silver")
"""Area names in score order (``area_scores`` returns them in this order)."""
ACTIONS = ("reroll", "return", "extra")

# Bonus codes.
NONE, REROLL, RETURN, EXTRA, FOX = 0, 1, 2, 3, 4
Q_YELLOW, Q_BLUE, Q_GREEN, Q_PINK, Q_SILVER, Q_ANY = 5, 6, 7, 8, 9, 10
BONUS_NAMES = {
    "reroll": REROLL,
    "return": RETURN,
    "extra": EXTRA,
    "fox": FOX,
    "yellow?": Q_YELLOW,
    "blue?": Q_BLUE,
    "green?": Q_GREEN,
    "pink?": Q_PINK,
    "silver?": Q_SILVER,
    "any?": Q_ANY,
}
BONUS_TEXT = {code: name for name, code in BONUS_NAMES.items()}

Task = tuple[str, int, int]
"""A pending entry: ``(kind, value, rows)``.

Kinds: ``Y`` yellow (value 0: any cell), ``S`` silver (value 0: any value;
``rows`` a bit mask of the rows allowed), ``B``/``G``/``P`` blue/green/pink
"?" (the player chooses the value), ``A`` a "?" of any colour.
"""

Q_TASK: dict[int, Task] = {
    Q_YELLOW: ("Y", 0, 0),
    Q_BLUE: ("B", 0, 0),
    Q_GREEN: ("G", 0, 0),
    Q_PINK: ("P", 0, 0),
    Q_SILVER: ("S", 0, 0b1111),
    Q_ANY: ("A", 0, 0),
}


class SheetError(GameError):
    """A sheet definition file that is missing, malformed or inconsistent."""


@dataclass(frozen=True)
class SheetDef:
    """One score sheet, validated; offsets give the flat layout of a player's sheet."""

    name: str
    rounds: tuple[int, ...]
    """Rounds by player count (index 0 unused)."""
    choices: int
    round_track: tuple[int, ...]
    silver_values: int
    silver_score: tuple[int, ...]
    silver_column_bonus: tuple[int, ...]
    yellow_rows: int
    yellow_columns: int
    yellow_cells: tuple[tuple[int, int, int], ...]
    """(row, column, value) per cell, rows and columns from 1."""
    yellow_row_bonus: tuple[int, ...]
    yellow_column_bonus: tuple[int, ...]
    yellow_score: tuple[int, ...]
    blue_score: tuple[int, ...]
    blue_bonus: tuple[int, ...]
    green_mult: tuple[int, ...]
    green_bonus: tuple[int, ...]
    pink_threshold: tuple[int, ...]
    pink_bonus: tuple[int, ...]
    action_slots: tuple[int, int, int]
    action_last_bonus: tuple[int, int, int]
    solo_rounds: int
    solo_passive_dice: int
    solo_tie_order: tuple[int, ...]
    rating: tuple[tuple[int | None, str], ...]
    blue_slots: int = 0
    green_slots: int = 0
    pink_slots: int = 0
    # Derived tables (not in the file).
    cells_of_value: tuple[tuple[int, ...], ...] = field(default=(), repr=False)
    row_cells: tuple[tuple[int, ...], ...] = field(default=(), repr=False)
    column_cells: tuple[tuple[int, ...], ...] = field(default=(), repr=False)
    cell_names: tuple[str, ...] = field(default=(), repr=False)
    # Flat layout of a player's sheet.
    Y: int = 0
    BN: int = 0
    GN: int = 0
    PN: int = 0
    S: int = 0
    AC: int = 0
    AU: int = 0
    FOX: int = 0
    XM: int = 0
    size: int = 0

    def new_sheet(self) -> list[int]:
        return [0] * self.size

    def rounds_for(self, players: int) -> int:
        return self.solo_rounds if players == 1 else self.rounds[players]

    def rating_for(self, total: float) -> str:
        """The solo rating band of a total."""
        for low, label in self.rating:
            if low is None or total >= low:
                return label
        return self.rating[-1][1]


# -- loading -------------------------------------------------------------------


def _req(data: dict[str, Any], key: str, where: str) -> Any:
    if not isinstance(data, dict):
        raise SheetError(f"{where} must be an object")
    if key not in data:
        raise SheetError(f"{where} has no {key!r}")
    return data[key]


def _ints(value: Any, where: str, n: int | None = None, lo: int = 0, hi: int = 10**6) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise SheetError(f"{where} must be a list of whole numbers")
    if n is not None and len(value) != n:
        raise SheetError(f"{where} must have {n} entries, not {len(value)}")
    for v in value:
        if not lo <= v <= hi:
            raise SheetError(f"{where}: {v} is outside {lo}-{hi}")
    return value


def _bonus(name: Any, where: str, allow_none: bool = True) -> int:
    if name is None and allow_none:
        return NONE
    if name not in BONUS_NAMES:
        known = ", ".join(BONUS_NAMES)
        raise SheetError(f"{where}: unknown bonus {name!r} (known: {known})")
    return BONUS_NAMES[name]


def _bonuses(value: Any, where: str, n: int, allow_none: bool = True) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != n:
        raise SheetError(f"{where} must be a list of {n} bonuses")
    return tuple(_bonus(v, f"{where}[{i + 1}]", allow_none) for i, v in enumerate(value))


def _score_table(value: Any, where: str, n: int) -> tuple[int, ...]:
    table = _ints(value, where, n + 1, -1000, 10**6)
    if table[0] != 0:
        raise SheetError(f"{where} must start with 0 (nothing marked scores nothing)")
    if any(b < a for a, b in zip(table, table[1:], strict=False)):
        raise SheetError(f"{where} must not decrease")
    return tuple(table)


def parse_sheet(data: Any) -> SheetDef:
    """Validate a sheet definition (parsed JSON) and build its :class:`SheetDef`."""
    dice = _req(data, "dice", "the sheet")
    if list(dice) != list(DICE):
        raise SheetError(f"the sheet's dice must be {list(DICE)}, not {dice!r}")
    rounds_map = _req(data, "rounds", "the sheet")
    if not isinstance(rounds_map, dict) or sorted(rounds_map) != ["1", "2", "3", "4"]:
        raise SheetError("the sheet's rounds must give the rounds for 1, 2, 3 and 4 players")
    rounds = [0] + [
        _ints([rounds_map[str(n)]], f"rounds for {n} players", 1, 1, 50)[0] for n in range(1, 5)
    ]
    choices = _ints([_req(data, "choices_per_turn", "the sheet")], "choices_per_turn", 1, 1, 6)[0]
    track_raw = _req(data, "round_track", "the sheet")
    if not isinstance(track_raw, list):
        raise SheetError("round_track must be a list of bonuses")
    track = _bonuses(track_raw, "round_track", len(track_raw))

    silver = _req(data, "silver", "the sheet")
    if list(_req(silver, "rows", "silver")) != list(AREAS[:4]):
        raise SheetError(f"silver rows must be {list(AREAS[:4])}")
    sv = _ints([_req(silver, "values", "silver")], "silver values", 1, 1, 6)[0]
    silver_score = _score_table(_req(silver, "score", "silver"), "silver score", sv)
    silver_col = _bonuses(_req(silver, "column_bonus", "silver"), "silver column_bonus", sv)

    yellow = _req(data, "yellow", "the sheet")
    yr = _ints([_req(yellow, "rows", "yellow")], "yellow rows", 1, 1, 10)[0]
    yc = _ints([_req(yellow, "columns", "yellow")], "yellow columns", 1, 1, 10)[0]
    cells_raw = _req(yellow, "cells", "yellow")
    if not isinstance(cells_raw, list) or not cells_raw:
        raise SheetError("yellow cells must be a non-empty list")
    cells: list[tuple[int, int, int]] = []
    for i, c in enumerate(cells_raw):
        where = f"yellow cell {i + 1}"
        r = _ints([_req(c, "row", where)], f"{where} row", 1, 1, yr)[0]
        col = _ints([_req(c, "column", where)], f"{where} column", 1, 1, yc)[0]
        v = _ints([_req(c, "value", where)], f"{where} value", 1, 1, 6)[0]
        if any((r, col) == (a, b) for a, b, _ in cells):
            raise SheetError(f"{where}: two cells at row {r}, column {col}")
        cells.append((r, col, v))
    row_cells = tuple(tuple(i for i, c in enumerate(cells) if c[0] == r) for r in range(1, yr + 1))
    col_cells = tuple(tuple(i for i, c in enumerate(cells) if c[1] == k) for k in range(1, yc + 1))
    for name, groups in (("row", row_cells), ("column", col_cells)):
        for k, g in enumerate(groups):
            if not g:
                raise SheetError(f"yellow {name} {k + 1} has no cell")
    yellow_score = _score_table(_req(yellow, "score", "yellow"), "yellow score", len(cells))
    yrb = _bonuses(_req(yellow, "row_bonus", "yellow"), "yellow row_bonus", yr)
    ycb = _bonuses(_req(yellow, "column_bonus", "yellow"), "yellow column_bonus", yc)

    blue = _req(data, "blue", "the sheet")
    blue_bonus_raw = _req(blue, "bonus", "blue")
    if not isinstance(blue_bonus_raw, list) or not blue_bonus_raw:
        raise SheetError("blue bonus must be a list with one entry per slot")
    nb = len(blue_bonus_raw)
    blue_bonus = _bonuses(blue_bonus_raw, "blue bonus", nb)
    blue_score = _score_table(_req(blue, "score", "blue"), "blue score", nb)

    green = _req(data, "green", "the sheet")
    mult = tuple(_ints(_req(green, "multipliers", "green"), "green multipliers", None, 1, 10))
    if not mult or len(mult) % 2:
        raise SheetError("green multipliers must come in pairs (an even, non-zero count)")
    green_bonus = _bonuses(_req(green, "bonus", "green"), "green bonus", len(mult))

    pink = _req(data, "pink", "the sheet")
    thr = tuple(_ints(_req(pink, "thresholds", "pink"), "pink thresholds", None, 0, 6))
    if not thr:
        raise SheetError("pink thresholds must have one entry per slot")
    pink_bonus = _bonuses(_req(pink, "bonus", "pink"), "pink bonus", len(thr))
    for i, (t, b) in enumerate(zip(thr, pink_bonus, strict=True)):
        if (t == 0) != (b == NONE):
            raise SheetError(f"pink slot {i + 1}: a bonus needs a threshold and vice versa")

    actions = _req(data, "actions", "the sheet")
    slots: list[int] = []
    last: list[int] = []
    for a in ACTIONS:
        bar = _req(actions, a, "actions")
        slots.append(_ints([_req(bar, "slots", f"action bar {a}")], f"{a} slots", 1, 1, 20)[0])
        last.append(_bonus(bar.get("last_bonus"), f"action bar {a} last_bonus"))

    solo = _req(data, "solo", "the sheet")
    solo_rounds = _ints([_req(solo, "rounds", "solo")], "solo rounds", 1, 1, 50)[0]
    spd = _ints([_req(solo, "passive_dice", "solo")], "solo passive_dice", 1, 1, 6)[0]
    tie = _req(solo, "tie_order", "solo")
    if not isinstance(tie, list) or sorted(tie) != sorted(DICE):
        raise SheetError(f"solo tie_order must list each die once: {list(DICE)}")
    rating_raw = _req(solo, "rating", "solo")
    rating: list[tuple[int | None, str]] = []
    for i, band in enumerate(rating_raw if isinstance(rating_raw, list) else []):
        low = _req(band, "min", f"rating band {i + 1}")
        label = _req(band, "label", f"rating band {i + 1}")
        if low is not None and (not isinstance(low, int) or isinstance(low, bool)):
            raise SheetError(f"rating band {i + 1}: min must be a whole number or null")
        if not isinstance(label, str):
            raise SheetError(f"rating band {i + 1}: label must be text")
        rating.append((low, label))
    if not rating or rating[-1][0] is not None:
        raise SheetError("solo rating must be a list of bands ending with min null")
    mins = [m for m, _ in rating[:-1]]
    if any(m is None for m in mins) or mins != sorted(mins, reverse=True):  # type: ignore[type-var]
        raise SheetError("solo rating bands must go from the highest minimum down")

    nc, ng, npk = len(cells), len(mult), len(thr)
    Y = 0
    BN = Y + nc
    GN = BN + 1 + nb
    PN = GN + 1 + ng
    S = PN + 1 + npk
    AC = S + 4
    AU = AC + 3
    FOXO = AU + 3
    XM = FOXO + 1
    return SheetDef(
        name=str(data.get("name", "sheet")),
        rounds=tuple(rounds),
        choices=choices,
        round_track=track,
        silver_values=sv,
        silver_score=silver_score,
        silver_column_bonus=silver_col,
        yellow_rows=yr,
        yellow_columns=yc,
        yellow_cells=tuple(cells),
        yellow_row_bonus=yrb,
        yellow_column_bonus=ycb,
        yellow_score=yellow_score,
        blue_score=blue_score,
        blue_bonus=blue_bonus,
        green_mult=mult,
        green_bonus=green_bonus,
        pink_threshold=thr,
        pink_bonus=pink_bonus,
        blue_slots=nb,
        green_slots=ng,
        pink_slots=npk,
        action_slots=(slots[0], slots[1], slots[2]),
        action_last_bonus=(last[0], last[1], last[2]),
        solo_rounds=solo_rounds,
        solo_passive_dice=spd,
        solo_tie_order=tuple(DICE.index(d) for d in tie),
        rating=tuple(rating),
        cells_of_value=tuple(tuple(i for i, c in enumerate(cells) if c[2] == v) for v in range(7)),
        row_cells=row_cells,
        column_cells=col_cells,
        cell_names=tuple(f"r{r}c{c}" for r, c, _ in cells),
        Y=Y,
        BN=BN,
        GN=GN,
        PN=PN,
        S=S,
        AC=AC,
        AU=AU,
        FOX=FOXO,
        XM=XM,
        size=XM + 1,
    )


@cache
def load_sheet(name: str = "standard") -> SheetDef:
    """The sheet ``sheets/<name>.json`` of the package, validated (cached)."""
    if not name.replace("_", "").replace("-", "").isalnum():
        raise SheetError(f"bad sheet name {name!r}")
    try:
        text = data.text("optimus.optimus2", f"sheets/{name}.json")
    except OSError:
        raise SheetError(f"no sheet named {name!r}") from None
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SheetError(f"sheet {name!r} is not valid JSON: {exc}") from None
    return parse_sheet(parsed)


# -- entries -------------------------------------------------------------------


def gain(sd: SheetDef, sh: list[int], code: int, out: list[Task]) -> None:
    """Gain bonus ``code``: actions and foxes at once, "?" bonuses appended to ``out``."""
    if code == NONE:
        return
    if code <= EXTRA:
        a = code - 1
        i = sd.AC + a
        if sh[i] < sd.action_slots[a]:
            sh[i] += 1
            if sh[i] == sd.action_slots[a]:
                gain(sd, sh, sd.action_last_bonus[a], out)
    elif code == FOX:
        sh[sd.FOX] += 1
    else:
        out.append(Q_TASK[code])


def yellow_targets(sd: SheetDef, sh: list[int], value: int) -> list[int]:
    """Cells a yellow ``value`` may mark (0: any): open ones to circle, circled ones to cross."""
    Y = sd.Y
    cells = sd.cells_of_value[value] if value else range(len(sd.yellow_cells))
    return [c for c in cells if sh[Y + c] < 2]


def enter_yellow(sd: SheetDef, sh: list[int], cell: int) -> list[Task]:
    """Circle an open cell or cross a circled one; circling may complete a row or column."""
    out: list[Task] = []
    i = sd.Y + cell
    if sh[i] == 0:
        sh[i] = 1
        r, c, _ = sd.yellow_cells[cell]
        Y = sd.Y
        if all(sh[Y + k] for k in sd.row_cells[r - 1]):
            gain(sd, sh, sd.yellow_row_bonus[r - 1], out)
        if all(sh[Y + k] for k in sd.column_cells[c - 1]):
            gain(sd, sh, sd.yellow_column_bonus[c - 1], out)
    elif sh[i] == 1:
        sh[i] = 2
    else:
        raise ValueError(f"yellow cell {sd.cell_names[cell]} is already crossed")
    return out


def blue_ok(sd: SheetDef, sh: list[int], total: int) -> bool:
    """True if the blue sum ``total`` may be written (a free slot, not above the last)."""
    n = sh[sd.BN]
    return n < len(sd.blue_bonus) and (n == 0 or total <= sh[sd.BN + n])


def enter_blue(sd: SheetDef, sh: list[int], total: int) -> list[Task]:
    n = sh[sd.BN] + 1
    sh[sd.BN] = n
    sh[sd.BN + n] = total
    out: list[Task] = []
    gain(sd, sh, sd.blue_bonus[n - 1], out)
    return out


def enter_green(sd: SheetDef, sh: list[int], value: int) -> list[Task]:
    """Write ``value`` times the next slot's multiplier."""
    n = sh[sd.GN]
    sh[sd.GN] = n + 1
    sh[sd.GN + 1 + n] = value * sd.green_mult[n]
    out: list[Task] = []
    gain(sd, sh, sd.green_bonus[n], out)
    return out


def enter_pink(sd: SheetDef, sh: list[int], value: int) -> list[Task]:
    """Write ``value``; the slot's bonus only if ``value`` reaches its threshold."""
    n = sh[sd.PN]
    sh[sd.PN] = n + 1
    sh[sd.PN + 1 + n] = value
    out: list[Task] = []
    t = sd.pink_threshold[n]
    if t and value >= t:
        gain(sd, sh, sd.pink_bonus[n], out)
    return out


def silver_rows_open(sd: SheetDef, sh: list[int], value: int, rows: int = 0b1111) -> list[int]:
    """Rows (0 yellow .. 3 pink) within mask ``rows`` where ``value`` is still open."""
    bit = 1 << (value - 1)
    S = sd.S
    return [r for r in range(4) if rows >> r & 1 and not sh[S + r] & bit]


def enter_silver(sd: SheetDef, sh: list[int], row: int, value: int) -> list[Task]:
    """Mark ``value`` in silver row ``row``; a completed column gives its bonus."""
    bit = 1 << (value - 1)
    S = sd.S
    sh[S + row] |= bit
    out: list[Task] = []
    if sh[S] & sh[S + 1] & sh[S + 2] & sh[S + 3] & bit:
        gain(sd, sh, sd.silver_column_bonus[value - 1], out)
    return out


# -- scoring -------------------------------------------------------------------


def yellow_score(sd: SheetDef, sh: list[int]) -> int:
    Y = sd.Y
    return sd.yellow_score[sum(1 for c in range(len(sd.yellow_cells)) if sh[Y + c] == 2)]


def blue_score(sd: SheetDef, sh: list[int]) -> int:
    return sd.blue_score[sh[sd.BN]]


def green_score(sd: SheetDef, sh: list[int]) -> int:
    """Each complete pair: first minus second (may be negative); a half pair scores 0."""
    n = sh[sd.GN]
    g = sd.GN + 1
    return sum(sh[g + i] - sh[g + i + 1] for i in range(0, n - 1, 2))


def pink_score(sd: SheetDef, sh: list[int]) -> int:
    n = sh[sd.PN]
    return sum(sh[sd.PN + 1 : sd.PN + 1 + n])


def silver_score(sd: SheetDef, sh: list[int]) -> int:
    S = sd.S
    table = sd.silver_score
    return sum(table[sh[S + r].bit_count()] for r in range(4))


def area_scores(sd: SheetDef, sh: list[int]) -> list[int]:
    """Scores of yellow, blue, green, pink, silver (the order of :data:`AREAS`)."""
    return [
        yellow_score(sd, sh),
        blue_score(sd, sh),
        green_score(sd, sh),
        pink_score(sd, sh),
        silver_score(sd, sh),
    ]


def total_score(sd: SheetDef, sh: list[int]) -> int:
    """Five areas plus foxes, each fox worth the lowest area score."""
    areas = area_scores(sd, sh)
    return sum(areas) + sh[sd.FOX] * min(areas)
