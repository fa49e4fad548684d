"""A value network of an Optimus 2 afterstate, run in pure Python (no numpy: the page).

The value of a player's position is its score now plus a small neural network's
estimate of the points still to come (the final score at the end of the game).
The network reads a few hundred yes/no *features* of the position (:func:`active`
lists the ones that are on), all face-blind but for the dice on the table:

* per area, what is marked (yellow cells circled or crossed, rows and columns
  complete; blue, green and pink entries made and the last or open value written;
  silver marks per row and per column), as indicators and counts (a count ``k``
  turns on its first ``k`` steps, a *thermometer*);
* every area's score now and the lowest (what a fox is worth), in steps;
* actions in hand and circled, foxes, extra dice taken this round;
* where the turn stands: round, phase, choices made, dice to roll and in the tray,
  the dice's places and the values of those out of hand (a die in hand is rolled
  before it is used), the first pending bonus question.

The network is an MLP with two hidden layers of ReLUs. Its first layer reads
yes/no features, so it is the sum of the rows of the features that are on (a
sparse product: about a hundred rows of the ~450); the rest is two small dense
products. The weights are package data (``net_weights.json``, written by
``python -m optimus_lab.optimus2.net export``); :mod:`optimus_lab.optimus2.net`
learns them by TD(lambda) in self-play, with the same features.

In a game with others a second network (:attr:`NetModel.multi`) values the player's
margin over the others' mean score, from its own features and a few of the others'
(:func:`position_multi`: the number of players, its seat, its gaps to the best and to
the mean, the best other's lowest area and foxes).

A player chooses by *afterstate argmax*: every legal move is applied on a copy
(a reroll too: its afterstate is the sheet with one reroll fewer, the dice still to
roll) and the move with the highest value is played (:class:`NetBot`).

>>> from optimus.optimus2.game import Optimus2State
>>> from optimus.optimus2.sheet import load_sheet
>>> s = Optimus2State(1, load_sheet())
>>> len(feature_names(s.sd)) == layout(s.sd).size, len(active(s, 0)) > 10
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from optimus.core.bots import ChoiceBot
from optimus.core.mlp import Mlp, Near, check_layers, forward, read_layers
from optimus.core.weights import Shelf
from optimus.optimus2.game import HAND, TRAY, Optimus2State
from optimus.optimus2.sheet import SheetDef

PHASES = ("roll", "choose", "preroll", "task", "extra", "simul", "over", "first")
TASK_KINDS = ("Y", "S", "B", "G", "P", "A")
PHASE_INDEX = {x: i for i, x in enumerate(PHASES)}
TASK_INDEX = {x: i for i, x in enumerate(TASK_KINDS)}
AREA_STEP = 6
"""Points per step of an area's score thermometer."""
AREA_STEPS = 14
LOW_STEP = 4
LOW_STEPS = 15
GREEN_LOW = -10
"""The green score's thermometer starts here (a pair may score below zero)."""
GREEN_STEP = 5
GREEN_STEPS = 15
PINK_STEP = 6
PINK_STEPS = 12
FOX_STEPS = 12
ROUND_MAX = 6


@dataclass(frozen=True)
class Layout:
    """Where each group of features starts, for one sheet (see :func:`feature_names`)."""

    names: tuple[str, ...]
    start: dict[str, int]

    @property
    def size(self) -> int:
        return len(self.names)


@cache
def layout(sd: SheetDef) -> Layout:
    """The features of sheet ``sd``, in groups (each group's names in order)."""
    return _layout(sd)


def _layout(sd: SheetDef) -> Layout:
    names: list[str] = []
    start: dict[str, int] = {}

    def group(name: str, items: Sequence[object]) -> None:
        start[name] = len(names)
        names.extend(f"{name}:{x}" for x in items)

    nc = len(sd.yellow_cells)
    group("ycircled", sd.cell_names)
    group("ycrossed", sd.cell_names)
    group("ycrosses", range(1, nc + 1))
    group("yrow", range(1, sd.yellow_rows + 1))
    group("ycol", range(1, sd.yellow_columns + 1))
    group("bn", range(1, sd.blue_slots + 1))
    group("blast", range(2, 13))
    group("gn", range(1, sd.green_slots + 1))
    group("gopen", range(1, 6 * max(sd.green_mult) + 1))
    group("gscore", range(1, GREEN_STEPS + 1))
    group("pn", range(1, sd.pink_slots + 1))
    group("plast", range(1, 7))
    group("pscore", range(1, PINK_STEPS + 1))
    sv = sd.silver_values
    group("smark", [f"{r}{v}" for r in range(4) for v in range(1, sv + 1)])
    group("srow", [f"{r}:{k}" for r in range(4) for k in range(1, sv + 1)])
    group("scol", [f"{v}:{k}" for v in range(1, sv + 1) for k in range(1, 5)])
    group("avail", [f"{a}:{k}" for a in range(3) for k in range(1, sd.action_slots[a] + 1)])
    group("circled", [f"{a}:{k}" for a in range(3) for k in range(1, sd.action_slots[a] + 1)])
    group("foxes", range(1, FOX_STEPS + 1))
    group("area", [f"{a}:{k}" for a in range(5) for k in range(1, AREA_STEPS + 1)])
    group("low", range(1, LOW_STEPS + 1))
    group("round", range(1, ROUND_MAX + 1))
    group("phase", PHASES)
    group("picks", range(sd.choices + 1))
    group("stage", range(3))
    group("solo_passive", ["yes"])
    group("stg", range(-1, 3))
    group("hand", range(7))
    group("tray", range(7))
    group("xm", range(6))
    group("die", [f"{d}:{v}" for d in range(6) for v in range(1, 7)])
    group("loc", [f"{d}:{x}" for d in range(6) for x in range(3)])
    group("pending", range(4))
    group("task", TASK_KINDS)
    group("taskval", range(7))
    return Layout(tuple(names), start)


def feature_names(sd: SheetDef, multi: bool = False) -> tuple[str, ...]:
    """The names of the features of sheet ``sd``, in index order (``multi``: those of
    the value in a game with others, :func:`position_multi`)."""
    return multi_layout(sd).names if multi else layout(sd).names


GAP_STEP = 5
"""Points per step of the score gaps' thermometers (games with others)."""
GAP_STEPS = 12


@cache
def multi_layout(sd: SheetDef) -> Layout:
    """The features of a position in a game with others: the player's own
    (:func:`layout`), then the others' (:func:`position_multi`)."""
    own = layout(sd)
    names = list(own.names)
    start = dict(own.start)

    def group(name: str, items: Sequence[object]) -> None:
        start[name] = len(names)
        names.extend(f"{name}:{x}" for x in items)

    group("players", range(2, 5))
    group("seat", range(4))
    group("ahead_best", range(1, GAP_STEPS + 1))
    group("behind_best", range(1, GAP_STEPS + 1))
    group("ahead_mean", range(1, GAP_STEPS + 1))
    group("behind_mean", range(1, GAP_STEPS + 1))
    group("best_low", range(1, LOW_STEPS + 1))
    group("best_foxes", range(1, FOX_STEPS + 1))
    return Layout(tuple(names), start)


def score_now(sd: SheetDef, sh: list[int]) -> int:
    """The sheet's total now (``sheet.total_score``, from the counts at hand)."""
    areas = area_now(sd, sh)
    return sum(areas) + sh[sd.FOX] * min(areas)


def area_now(sd: SheetDef, sh: list[int]) -> list[int]:
    """The five areas' scores (``sheet.area_scores``)."""
    Y = sd.Y
    crosses = sh[Y : Y + len(sd.yellow_cells)].count(2)
    GN, PN, S = sd.GN, sd.PN, sd.S
    green = 0
    for i in range(GN + 1, GN + sh[GN], 2):
        green += sh[i] - sh[i + 1]
    ss = sd.silver_score
    return [
        sd.yellow_score[crosses],
        sd.blue_score[sh[sd.BN]],
        green,
        sum(sh[PN + 1 : PN + 1 + sh[PN]]),
        ss[sh[S].bit_count()]
        + ss[sh[S + 1].bit_count()]
        + ss[sh[S + 2].bit_count()]
        + ss[sh[S + 3].bit_count()],
    ]


def active(s: Optimus2State, p: int) -> list[int]:
    """The indices of the features of player ``p``'s position in ``s`` that are on."""
    return position(s, p)[1]


def position_multi(s: Optimus2State, p: int) -> tuple[float, list[int]]:
    """Player ``p``'s margin now (its score less the others' mean) and the features of its
    position in a game with others: its own (:func:`position`), then the number of
    players, its seat after the round's first player, its gaps (in steps of
    :data:`GAP_STEP` points, ahead or behind) to the best of the others and to their
    mean, and the best other's lowest area and foxes."""
    sd = s.sd
    st = multi_layout(sd).start
    score, out = position(s, p)
    n = s.num_players
    others = []
    for q in range(n):
        if q != p:
            sh = s.sheets[q]
            areas = area_now(sd, sh)
            others.append((sum(areas) + sh[sd.FOX] * min(areas), min(areas), sh[sd.FOX]))
    best = max(others)
    mean = sum(o[0] for o in others) / len(others)
    add = out.append
    add(st["players"] + min(4, max(2, n)) - 2)
    add(st["seat"] + (p - s.first) % n)
    for name, gap in (("best", score - best[0]), ("mean", score - mean)):
        k = min(GAP_STEPS, int(abs(gap) // GAP_STEP))
        b = st[("ahead_" if gap > 0 else "behind_") + name]
        out.extend(range(b, b + k))
    out.extend(range(st["best_low"], st["best_low"] + min(LOW_STEPS, max(0, best[1]) // LOW_STEP)))
    out.extend(range(st["best_foxes"], st["best_foxes"] + min(FOX_STEPS, best[2])))
    return score - mean, out


def margin_now(s: Optimus2State, p: int) -> float:
    """Player ``p``'s score now less the mean of the others'."""
    scores = [score_now(s.sd, sh) for sh in s.sheets]
    return scores[p] - (sum(scores) - scores[p]) / (len(scores) - 1)


Part = tuple[tuple[int, ...], tuple[int, ...]]
"""An area's features and score (green and pink: their features and both scores)."""

_LAST: list[Any] = [None, {}]
"""The last sheet seen and its features' layout."""

_PARTS: dict[tuple[int, ...], Part] = {}
"""Areas seen lately (by sheet, area and the area's numbers): the afterstates of one
decision differ in an area or two."""


def position(s: Optimus2State, p: int) -> tuple[int, list[int]]:
    """Player ``p``'s score now and the features of :func:`active`."""
    sd = s.sd
    last = _LAST
    if last[0] is not sd:  # hashing a sheet for layout's cache is slow
        last[:] = [sd, layout(sd).start]
    st: dict[str, int] = last[1]
    sh = s.sheets[p]
    parts = _PARTS
    if len(parts) > 200_000:
        parts.clear()
    out: list[int] = []
    areas: list[int] = []
    key = (id(sd), 0, *sh[sd.Y : sd.BN])
    hit = parts.get(key)
    if hit is None:
        hit = parts[key] = _yellow(sd, st, sh)
    out.extend(hit[0])
    areas += hit[1]
    n = sh[sd.BN]
    areas.append(sd.blue_score[n])
    out.extend(range(st["bn"], st["bn"] + n))
    if n:
        out.append(st["blast"] + min(12, max(2, sh[sd.BN + n])) - 2)
    key = (id(sd), 1, *sh[sd.GN : sd.S])
    hit = parts.get(key)
    if hit is None:
        hit = parts[key] = _green_pink(sd, st, sh)
    out.extend(hit[0])
    green, pink = hit[1]
    key = (id(sd), 2, *sh[sd.S : sd.S + 4])
    hit = parts.get(key)
    if hit is None:
        hit = parts[key] = _silver(sd, st, sh)
    out.extend(hit[0])
    areas += (green, pink, *hit[1])
    # actions, foxes; the areas' scores
    key = (id(sd), 3, *sh[sd.AC : sd.XM])
    hit = parts.get(key)
    if hit is None:
        hit = parts[key] = _actions(sd, st, sh)
    out.extend(hit[0])
    key = (id(sd), 4, *areas)
    hit = parts.get(key)
    if hit is None:
        hit = parts[key] = _areas(st, areas)
    out.extend(hit[0])
    low = min(areas)
    score = sum(areas) + sh[sd.FOX] * low
    add = out.append
    # where the turn stands
    add(st["round"] + min(ROUND_MAX, max(1, s.round)) - 1)
    add(st["phase"] + PHASE_INDEX[s.phase])
    add(st["picks"] + min(sd.choices, s.picks))
    add(st["stage"] + s.stage)
    if s.solo_passive:
        add(st["solo_passive"])
    add(st["stg"] + s.stg[p] + 1)
    loc, val = s.loc, s.val
    add(st["hand"] + loc.count(HAND))
    add(st["tray"] + loc.count(TRAY))
    xm = sh[sd.XM]
    b = st["xm"]
    for d in range(6):
        if xm >> d & 1:
            add(b + d)
    bd, bl = st["die"], st["loc"]
    for d in range(6):
        x = loc[d]
        if x != HAND and val[d]:  # a die in hand is rolled before it is used
            add(bd + d * 6 + val[d] - 1)
        add(bl + d * 3 + x)
    pend = s.pend[p]
    add(st["pending"] + min(3, len(pend)))
    if pend:
        kind, value, _rows = pend[0]
        add(st["task"] + TASK_INDEX[kind])
        add(st["taskval"] + min(6, value))
    return score, out


def _actions(sd: SheetDef, st: dict[str, int], sh: list[int]) -> Part:
    """The actions' and foxes' features."""
    out: list[int] = []
    ba, bc = st["avail"], st["circled"]
    AC, AU = sd.AC, sd.AU
    for a in range(3):
        out.extend(range(ba, ba + sh[AC + a] - sh[AU + a]))
        out.extend(range(bc, bc + sh[AC + a]))
        ba += sd.action_slots[a]
        bc += sd.action_slots[a]
    out.extend(range(st["foxes"], st["foxes"] + min(FOX_STEPS, sh[sd.FOX])))
    return tuple(out), ()


def _areas(st: dict[str, int], areas: list[int]) -> Part:
    """The areas' scores' features."""
    out: list[int] = []
    b = st["area"]
    for a, x in enumerate(areas):
        out.extend(range(b + a * AREA_STEPS, b + a * AREA_STEPS + min(AREA_STEPS, x // AREA_STEP)))
    low = max(0, min(areas))
    out.extend(range(st["low"], st["low"] + min(LOW_STEPS, low // LOW_STEP)))
    return tuple(out), ()


def _yellow(sd: SheetDef, st: dict[str, int], sh: list[int]) -> Part:
    out: list[int] = []
    add = out.append
    cells = sh[sd.Y : sd.Y + len(sd.yellow_cells)]
    b1, b2 = st["ycircled"], st["ycrossed"]
    for c, x in enumerate(cells):
        if x:
            add(b1 + c)
            if x == 2:
                add(b2 + c)
    crosses = cells.count(2)
    out.extend(range(st["ycrosses"], st["ycrosses"] + crosses))
    b = st["yrow"]
    for r, group in enumerate(sd.row_cells):
        if all(cells[c] for c in group):
            add(b + r)
    b = st["ycol"]
    for k, group in enumerate(sd.column_cells):
        if all(cells[c] for c in group):
            add(b + k)
    return tuple(out), (sd.yellow_score[crosses],)


def _green_pink(sd: SheetDef, st: dict[str, int], sh: list[int]) -> Part:
    """Green's and pink's features, and their scores."""
    out: list[int] = []
    GN = sd.GN
    g = sh[GN]
    out.extend(range(st["gn"], st["gn"] + g))
    if g % 2:
        out.append(st["gopen"] + sh[GN + g] - 1)
    green = 0
    for i in range(GN + 1, GN + g, 2):
        green += sh[i] - sh[i + 1]
    k = min(GREEN_STEPS, max(0, (green - GREEN_LOW) // GREEN_STEP))
    out.extend(range(st["gscore"], st["gscore"] + k))
    PN = sd.PN
    n = sh[PN]
    out.extend(range(st["pn"], st["pn"] + n))
    if n:
        out.append(st["plast"] + sh[PN + n] - 1)
    pink = sum(sh[PN + 1 : PN + 1 + n])
    out.extend(range(st["pscore"], st["pscore"] + min(PINK_STEPS, pink // PINK_STEP)))
    return tuple(out), (green, pink)


def _silver(sd: SheetDef, st: dict[str, int], sh: list[int]) -> Part:
    out: list[int] = []
    S, sv = sd.S, sd.silver_values
    rows = sh[S : S + 4]
    b, br = st["smark"], st["srow"]
    for r, bits in enumerate(rows):
        for v in range(sv):
            if bits >> v & 1:
                out.append(b + r * sv + v)
        out.extend(range(br + r * sv, br + r * sv + bits.bit_count()))
    b = st["scol"]
    for v in range(sv):
        k = (rows[0] >> v & 1) + (rows[1] >> v & 1) + (rows[2] >> v & 1) + (rows[3] >> v & 1)
        out.extend(range(b + v * 4, b + v * 4 + k))
    ss = sd.silver_score
    return tuple(out), (sum(ss[x.bit_count()] for x in rows),)


@dataclass(frozen=True)
class NetModel(Mlp):
    """A value network (:class:`optimus.core.mlp.Mlp`) of the standard sheet or another."""

    sheet: str = "standard"
    multi: bool = False
    """False: the solo value (the final score); True: the value with others (the final
    margin over the others' mean score, on :func:`position_multi`'s features)."""


def state_value(model: NetModel, s: Optimus2State, p: int, near: Near | None = None) -> float:
    """Player ``p``'s value of ``s``: the score now plus the network's points to come
    (the score itself once the game is over); a network of the game with others: the
    margin now plus its margin to come. ``near``: the network run from the positions
    valued before (one decision's afterstates, :class:`~optimus.core.mlp.Near`)."""
    if model.multi:
        if s.phase == "over":
            return margin_now(s, p)
        margin, idx = position_multi(s, p)
    else:
        if s.phase == "over":
            return float(score_now(s.sd, s.sheets[p]))
        score, idx = position(s, p)
        margin = float(score)
    return margin + (near.value(idx) if near is not None else forward(model, idx))


def afterstates(s: Optimus2State, p: int, legal: Sequence[str]) -> list[Optimus2State]:
    """Each legal move's afterstate (the move applied on a copy, before any chance)."""
    out = []
    for move in legal:
        c = s.clone()
        c.apply_move(p, move)
        out.append(c)
    return out


def move_values(model: NetModel, s: Optimus2State, p: int, legal: Sequence[str]) -> Iterator[float]:
    """The network's value of each legal move's afterstate, one at a time (a bot that
    thinks in slices yields between them); the first layer is shifted from one
    afterstate to the next (:class:`~optimus.core.mlp.Near`)."""
    near = Near(model)
    for c in afterstates(s, p, legal):
        yield state_value(model, c, p, near)


def best_move(model: NetModel, s: Optimus2State, p: int, legal: Sequence[str]) -> str:
    """The legal move whose afterstate the network values highest (the first of ties)."""
    values = list(move_values(model, s, p, legal))
    return legal[values.index(max(values))]


def parse_net(text: str, where: str = "net weights") -> NetModel:
    """A :class:`NetModel` from the JSON ``optimus_lab.optimus2.net export`` writes, checked."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ValueError(f"{where}: not JSON ({e})") from None
    from optimus.optimus2.sheet import load_sheet

    try:
        sheet = str(data.get("sheet", "standard"))
        names = tuple(data["features"])
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ValueError(f"{where}: not a value network ({e!r})") from None
    layers = read_layers(data, where)
    multi = names == feature_names(load_sheet(sheet), True)
    if not multi and names != feature_names(load_sheet(sheet)):
        raise ValueError(f"{where}: its features are not those of this version")
    check_layers(layers, len(names), where)
    return NetModel(**layers, sheet=sheet, multi=multi)


NETS: Shelf[NetModel] = Shelf("optimus.optimus2", parse_net)
"""The value networks by name: registered (training, tests, the lab's runs), else the
package's ``optimus/optimus2/<name>.json``."""


class NetBot(ChoiceBot):
    """Afterstate argmax on the value network (:func:`best_move`): with others on
    :attr:`multi` if there is one, else on the solo network. Experimental: not in the
    levels (the arena plays it as ``optimus.optimus2.net:NetBot``)."""

    level = "net"
    weights: ClassVar[str] = "net_weights"
    """The solo network's name in :data:`NETS`."""
    multi: ClassVar[str] = "net4_weights"
    """The name of the network of games with others."""

    def choice(self, state: Optimus2State, legal_moves: list[str]) -> str:
        name = self.weights
        if state.num_players > 1 and has_net(self.multi):
            name = self.multi
        return best_move(NETS.get(name), state, self.player, legal_moves)


def has_net(name: str) -> bool:
    """Whether the network ``name`` is registered or shipped (``<name>.json``)."""
    return NETS.has(name)


__all__ = [
    "NETS",
    "NetBot",
    "NetModel",
    "active",
    "best_move",
    "feature_names",
    "forward",
    "has_net",
    "move_values",
    "parse_net",
    "position",
    "position_multi",
    "state_value",
]
