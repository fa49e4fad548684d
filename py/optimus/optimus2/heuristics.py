"""A hand-written evaluation of an Optimus 2 sheet, for the bots.

:func:`sheet_value` estimates what a sheet will be worth at the end: each
area's *effective* score (its score plus partial credit for work in progress:
yellow circles, a half green pair, room left in blue), the foxes times the
lowest effective area (with the foxes still expected), and the actions in
hand. ``t`` is the share of the game still to play (1 at the start, 0 at the
end): credit for unfinished work and for rerolls and returns fades with it.

>>> from optimus.optimus2.sheet import load_sheet
>>> sd = load_sheet()
>>> sheet_value(sd, sd.new_sheet(), 0.0)
0.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from optimus.optimus2.sheet import FOX, SheetDef


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights; the defaults were tuned by
    ``python -m optimus_lab.optimus2.tune``."""

    circle: float = 1.2
    """A circled yellow cell counts as this share of a cross (times t)."""
    blue_room: float = 10.0
    """Further blue entries expected over a whole game if every sum fitted (times t and
    the chance that a blue + white sum is not above the last value)."""
    blue_credit: float = 0.4
    """Share of the expected further blue entries credited."""
    green_half: float = 1.125
    """Share of an open green pair's expected result credited (times t)."""
    fox_future: float = 3.0
    """Foxes still expected at the start of the game (fades with t)."""
    reroll: float = 3.0
    ret: float = 3.0
    extra: float = 11.25
    fox_low: float = 13.333
    """Growth of the lowest area still expected at the start (values foxes early)."""
    min_weight: float = 1.0
    """Extra weight on the lowest area besides the foxes (balance)."""
    pick: float = 7.0
    """Rough worth of one good pick later in the same turn (see ``bots.turn_future``)."""
    soft: float = 1.5
    """Temperature of a soft minimum over the areas (0: the plain minimum)."""
    fox_prog: float = 0.0
    """Foxes expected from the progress towards each fox still to win (see ``fox_progress``)."""
    model: str = ""
    """A learned afterstate value (:mod:`optimus.optimus2.value`, by name) used instead of
    all of the above ('': none)."""
    scale: float = 1.0
    """With :attr:`model`: its learned correction times this."""


DEFAULT = Weights()

MULTI_TD = "td4"
"""The names (:attr:`Weights.model`) of the multi-player TD values start with this:
``optimus.optimus2.bots.value`` adds their opponent-aware terms (``td4_weights.json``)."""

FITS = tuple(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= v) / 36 for v in range(13))
"""Chance that the sum of two dice is at most v."""


def interpolate(table: tuple[int, ...], x: float) -> float:
    """The score table ``table`` read at a fractional count ``x``, linearly between its
    entries; a count past the end reads the last value (no area scores more).

    >>> interpolate((0, 3, 10), 1.5), interpolate((0, 3, 10), 2.0), interpolate((0, 3, 10), 7.4)
    (6.5, 10, 10)
    """
    lo = int(x)
    if lo + 1 >= len(table):
        return table[-1]
    return table[lo] + (x - lo) * (table[lo + 1] - table[lo])


def effective_areas(sd: SheetDef, sh: list[int], t: float, w: Weights = DEFAULT) -> list[float]:
    """Effective scores of yellow, blue, green, pink, silver."""
    # yellow: crosses, plus part of a cross per circle not yet crossed
    cells = sh[sd.Y : sd.Y + len(sd.yellow_cells)]
    crosses = cells.count(2)
    circles = cells.count(1)
    yellow = interpolate(sd.yellow_score, crosses + w.circle * t * circles)
    # blue: filled slots, plus room left (a low last value closes the area)
    BN = sd.BN
    n = sh[BN]
    bt = sd.blue_score
    blue: float = bt[n]
    if n < sd.blue_slots:
        last = sh[BN + n] if n else 13
        x = n + w.blue_credit * min(sd.blue_slots - n, w.blue_room * t * FITS[min(last, 12)])
        blue = interpolate(bt, x)
    # green: complete pairs; an open pair's expected result in part
    GN = sd.GN
    g = sh[GN]
    green: float = 0.0
    for i in range(0, g - 1, 2):
        green += sh[GN + 1 + i] - sh[GN + 2 + i]
    if g % 2 and g < sd.green_slots:
        green += w.green_half * t * (sh[GN + g] - 2.5 * sd.green_mult[g])
    # pink: the sum
    PN = sd.PN
    pink = float(sum(sh[PN + 1 : PN + 1 + sh[PN]]))
    # silver: per row
    S = sd.S
    ss = sd.silver_score
    silver = float(
        ss[sh[S].bit_count()]
        + ss[sh[S + 1].bit_count()]
        + ss[sh[S + 2].bit_count()]
        + ss[sh[S + 3].bit_count()]
    )
    return [yellow, blue, green, pink, silver]


@dataclass(frozen=True)
class FoxSources:
    """Where a sheet gives foxes: the slot numbers (from 1; 0: none) and the cells."""

    blue: int
    green: int
    pink: int
    yellow_cells: tuple[int, ...]
    silver_bit: int
    bars: tuple[int, ...]
    silver_bits: tuple[int, ...] = ()
    """The single bits of :attr:`silver_bit`, lowest first."""


_SOURCES: dict[int, tuple[SheetDef, FoxSources]] = {}


def fox_sources(sd: SheetDef) -> FoxSources:
    """The fox bonuses of sheet ``sd`` (read from its data, not hard-coded; cached)."""
    hit = _SOURCES.get(id(sd))
    if hit is not None and hit[0] is sd:
        return hit[1]

    def slot(bonus: tuple[int, ...]) -> int:
        return bonus.index(FOX) + 1 if FOX in bonus else 0

    cells: tuple[int, ...] = ()
    for c, code in enumerate(sd.yellow_column_bonus):
        if code == FOX:
            cells += sd.column_cells[c]
    bit = 0
    for v, code in enumerate(sd.silver_column_bonus):
        if code == FOX:
            bit |= 1 << v
    bars = tuple(a for a in range(3) if sd.action_last_bonus[a] == FOX)
    bits = tuple(1 << v for v in range(sd.silver_values) if bit >> v & 1)
    fs = FoxSources(
        slot(sd.blue_bonus), slot(sd.green_bonus), slot(sd.pink_bonus), cells, bit, bars, bits
    )
    _SOURCES[id(sd)] = (sd, fs)
    return fs


def fox_progress(sd: SheetDef, sh: list[int]) -> float:
    """Sum of the squared progress (0-1) towards each fox not yet won.

    Progress is the share of the slots filled before a fox slot, of the cells of
    a fox column circled, of the rows with a fox column's value marked, of a fox
    action bar circled. A blue fox whose slot the last value leaves hardly any
    room for counts with the chance that sums still fit.
    """
    fs = fox_sources(sd)
    total = 0.0
    if fs.blue:
        n = sh[sd.BN]
        if n < fs.blue:
            last = sh[sd.BN + n] if n else 13
            total += (n / fs.blue) ** 2 * FITS[min(last, 12)]
    if fs.green:
        g = sh[sd.GN]
        if g < fs.green:
            total += (g / fs.green) ** 2
    if fs.pink:
        k = sh[sd.PN]
        if k < fs.pink:
            total += (k / fs.pink) ** 2
    if fs.yellow_cells:
        Y = sd.Y
        done = 0
        for c in fs.yellow_cells:
            if sh[Y + c]:
                done += 1
        if done < len(fs.yellow_cells):
            total += (done / len(fs.yellow_cells)) ** 2
    if fs.silver_bit:
        S = sd.S
        r0, r1, r2, r3 = sh[S], sh[S + 1], sh[S + 2], sh[S + 3]
        for bit in fs.silver_bits:
            rows = (r0 & bit > 0) + (r1 & bit > 0) + (r2 & bit > 0) + (r3 & bit > 0)
            if rows < 4:
                total += (rows / 4) ** 2
    for a in fs.bars:
        c = sh[sd.AC + a]
        if c < sd.action_slots[a]:
            total += (c / sd.action_slots[a]) ** 2
    return total


def sheet_value(
    sd: SheetDef, sh: list[int], t: float, w: Weights = DEFAULT, areas: list[float] | None = None
) -> float:
    """Estimated final worth of a sheet with share ``t`` of the game left.

    ``areas``: its :func:`effective_areas` (with ``w``) when the caller has them already.
    """
    if areas is None:
        areas = effective_areas(sd, sh, t, w)
    # the lowest area is judged without blue's projected room (no other area has one)
    a0, b, a2, a3, a4 = areas[0], float(sd.blue_score[sh[sd.BN]]), areas[2], areas[3], areas[4]
    low = min(a0, b, a2, a3, a4)
    if w.soft > 0:
        tau = w.soft
        exp = math.exp
        low -= tau * math.log(
            exp((low - a0) / tau)
            + exp((low - b) / tau)
            + exp((low - a2) / tau)
            + exp((low - a3) / tau)
            + exp((low - a4) / tau)
        )
    foxes = sh[sd.FOX] + w.fox_future * t
    if w.fox_prog:
        foxes += w.fox_prog * math.sqrt(t) * fox_progress(sd, sh)
    low_end = low + w.fox_low * t
    AC, AU = sd.AC, sd.AU
    actions = 0.0
    if t > 0:  # at the end, actions left are worth nothing (the extra dice too)
        actions = (
            (sh[AC] - sh[AU]) * w.reroll * t
            + (sh[AC + 1] - sh[AU + 1]) * w.ret * t
            + (sh[AC + 2] - sh[AU + 2]) * w.extra
        )
    return sum(areas) + foxes * low_end + w.min_weight * t * low + actions
