"""A hand-written evaluation of an Optimus 2 sheet, for the bots.

:func:`sheet_value` estimates what a sheet will be worth at the end: each
area's *effective* score (its score plus partial credit for work in progress:
yellow circles, a half green pair, room left in blue), the foxes times the
lowest effective area (with the foxes still expected), and the actions in
hand. ``t`` is the share of the game still to play (1 at the start, 0 at the
end): credit for unfinished work and for rerolls and returns fades with it.

>>> from optimus.dice.sheet import load_sheet
>>> sd = load_sheet()
>>> sheet_value(sd, sd.new_sheet(), 0.0)
0.0
"""

from __future__ import annotations

from dataclasses import dataclass

from optimus.dice.sheet import SheetDef


@dataclass(frozen=True)
class Weights:
    circle: float = 0.8
    """A circled yellow cell counts as this share of a cross (times t)."""
    blue_room: float = 0.8
    """Further blue entries expected per point of the last value above 1, times t."""
    blue_credit: float = 0.6
    """Share of the expected further blue entries credited."""
    green_half: float = 0.6
    """Share of an open green pair's expected result credited (times t)."""
    fox_future: float = 2.5
    """Foxes still expected at the start of the game (fades with t)."""
    reroll: float = 3.0
    ret: float = 3.0
    extra: float = 6.0
    fox_low: float = 20.0
    """Growth of the lowest area still expected at the start (values foxes early)."""
    min_weight: float = 1.0
    """Extra weight on the lowest area besides the foxes (balance)."""


DEFAULT = Weights()


def effective_areas(sd: SheetDef, sh: list[int], t: float, w: Weights = DEFAULT) -> list[float]:
    """Effective scores of yellow, blue, green, pink, silver."""
    # yellow: crosses, plus part of a cross per circle not yet crossed
    Y = sd.Y
    crosses = circles = 0
    for c in range(len(sd.yellow_cells)):
        m = sh[Y + c]
        if m == 2:
            crosses += 1
        elif m == 1:
            circles += 1
    table = sd.yellow_score
    x = crosses + w.circle * t * circles
    lo = int(x)
    yellow = (
        table[lo] + (x - lo) * (table[lo + 1] - table[lo]) if lo + 1 < len(table) else table[lo]
    )
    # blue: filled slots, plus room left (a low last value closes the area)
    BN = sd.BN
    n = sh[BN]
    bt = sd.blue_score
    blue: float = bt[n]
    if n < sd.blue_slots:
        last = sh[BN + n] if n else 13
        x = n + w.blue_credit * min(sd.blue_slots - n, w.blue_room * t * (last - 1))
        lo = int(x)
        blue = bt[lo] + (x - lo) * (bt[lo + 1] - bt[lo]) if lo + 1 < len(bt) else bt[lo]
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
    silver = float(ss[sh[S].bit_count()] + ss[sh[S + 1].bit_count()])
    silver += ss[sh[S + 2].bit_count()] + ss[sh[S + 3].bit_count()]
    return [yellow, blue, green, pink, silver]


def sheet_value(sd: SheetDef, sh: list[int], t: float, w: Weights = DEFAULT) -> float:
    """Estimated final worth of a sheet with share ``t`` of the game left."""
    areas = effective_areas(sd, sh, t, w)
    low = min(areas)
    foxes = sh[sd.FOX] + w.fox_future * t
    low_end = low + w.fox_low * t
    AC, AU = sd.AC, sd.AU
    actions = (
        (sh[AC] - sh[AU]) * w.reroll * t
        + (sh[AC + 1] - sh[AU + 1]) * w.ret * t
        + (sh[AC + 2] - sh[AU + 2]) * w.extra
    )
    return sum(areas) + foxes * low_end + w.min_weight * t * low + actions
