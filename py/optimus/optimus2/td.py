"""An afterstate value of an Optimus 2 sheet learned by temporal differences (level ``td``).

The value of a player's position is the corrected evaluation of
:mod:`optimus.optimus2.value` (the score now, the hand-written points to come and
the fitted linear correction of ``value_weights.json``) plus the sum of a few
*tuple tables*, one entry of each looked up by a small part of the sheet (an
n-tuple network over the sheet's areas):

* ``yellow``: crosses and circles;
* ``blue``: entries made and the last value written;
* ``green``: entries made and the open pair's first value;
* ``pink``: entries made and the last value written;
* ``silver``: marks in all and columns one mark short of complete;
* ``actions``: rerolls, returns and extra dice in hand (each up to 3);
* ``foxes``: foxes (up to 7) and the lowest area now (in steps of 4 points).

Every table has one set of entries per stretch of the game left (the buckets of
:func:`optimus.optimus2.value.bucket`). One more table, ``moment``, holds one
entry per step of the game left (:data:`MOMENTS`): the same for the afterstates
of one decision, it only sets the value's level (the fitted correction was fitted
to differences between siblings, so its level is arbitrary). At the end of the
game the value is the score. The tables are package data (``td_weights.json``),
learned by TD(lambda) on afterstates of solo self-play (``python -m optimus_lab.optimus2.td``); the
look-up is a handful of integer operations on top of the corrected evaluation.

The multi-player value (``td4_weights.json``, ``players`` > 1, learned in 4-player self-play
with ``--players 4``) has the same tables, learned towards the final margin over the
others' mean score, and one *gift weight* per bucket: ``optimus.optimus2.bots.value``
takes that weight times the tray gift the player leaves the passive players at the end of
its own turn off its sheet's value (its name starts with
``optimus.optimus2.heuristics.MULTI_TD``).

>>> from optimus.optimus2.sheet import load_sheet
>>> sd = load_sheet()
>>> table_indices(sd, sd.new_sheet(), [0.0] * 36)
[0, 13, 0, 0, 0, 0, 0]
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from operator import mul

from optimus.core.weights import Shelf
from optimus.optimus2.sheet import SheetDef, area_scores
from optimus.optimus2.value import (
    BUCKETS,
    FEATURES,
    Model,
    base_gain,
    bucket,
    clear_seen,
    features,
    load_model,
    score_of,
)

TABLES = ("yellow", "blue", "green", "pink", "silver", "actions", "foxes")
"""Names of the tuple tables, in the order of :func:`table_indices`."""

ACTIONS_CAP = 3
FOXES_CAP = 7
LOW_STEP = 4
LOW_CAP = 15

MOMENTS = 36
"""Steps of the ``moment`` table over the game (solo: half a turn's three picks, a step each)."""

F_FOXES = FEATURES.index("foxes")
F_LOW = FEATURES.index("low_now")
F_CROSSES = FEATURES.index("yellow_crosses")
F_CIRCLES = FEATURES.index("yellow_circles")
F_MARKS = FEATURES.index("silver_marks")
F_NEAR = FEATURES.index("silver_near")
F_REROLLS = FEATURES.index("rerolls")


def table_sizes(sd: SheetDef) -> tuple[int, ...]:
    """The number of entries of each table of :data:`TABLES` for sheet ``sd`` (one bucket)."""
    y = len(sd.yellow_cells) + 1
    a = ACTIONS_CAP + 1
    return (
        y * y,
        (sd.blue_slots + 1) * 14,
        (sd.green_slots + 1) * 7,
        (sd.pink_slots + 1) * 7,
        (4 * sd.silver_values + 1) * (sd.silver_values + 1),
        a * a * a,
        (FOXES_CAP + 1) * (LOW_CAP + 1),
    )


@cache
def offsets(sd: SheetDef) -> tuple[tuple[int, ...], int]:
    """Where each table starts within a bucket's entries, and a bucket's size."""
    out, at = [], 0
    for n in table_sizes(sd):
        out.append(at)
        at += n
    return tuple(out), at


def table_indices(sd: SheetDef, sh: list[int], feats: list[float]) -> list[int]:
    """The entry of each table (within the table) for sheet ``sh``, whose
    :func:`optimus.optimus2.value.features` are ``feats``."""
    y = len(sd.yellow_cells) + 1
    n = sh[sd.BN]
    g = sh[sd.GN]
    p = sh[sd.PN]
    cap = ACTIONS_CAP
    r = min(int(feats[F_REROLLS]), cap)
    t = min(int(feats[F_REROLLS + 1]), cap)
    e = min(int(feats[F_REROLLS + 2]), cap)
    return [
        int(feats[F_CROSSES]) * y + int(feats[F_CIRCLES]),
        n * 14 + (sh[sd.BN + n] if n else 13),
        g * 7 + (sh[sd.GN + g] if g % 2 else 0),
        p * 7 + (sh[sd.PN + p] if p else 0),
        int(feats[F_MARKS]) * (sd.silver_values + 1) + int(feats[F_NEAR]),
        (r * (cap + 1) + t) * (cap + 1) + e,
        min(int(feats[F_FOXES]), FOXES_CAP) * (LOW_CAP + 1)
        + min(int(feats[F_LOW]) // LOW_STEP, LOW_CAP),
    ]


def moment(t: float) -> int:
    """The ``moment`` entry of share ``t`` of the game left."""
    return min(MOMENTS, max(0, round(t * MOMENTS)))


def flat_size(sd: SheetDef) -> int:
    """The number of entries of a :class:`TdModel`'s tables: the buckets', then ``moment``'s."""
    return BUCKETS * offsets(sd)[1] + MOMENTS + 1


def flat_indices(sd: SheetDef, sh: list[int], t: float, feats: list[float]) -> list[int]:
    """The entries of the tables in the flat weight list of a :class:`TdModel` (``t > 0``):
    ``moment``'s last."""
    starts, size = offsets(sd)
    base = bucket(t) * size
    out = [base + s + i for s, i in zip(starts, table_indices(sd, sh, feats), strict=True)]
    out.append(BUCKETS * size + moment(t))
    return out


@dataclass(frozen=True)
class TdModel:
    """The corrected evaluation ``dense`` plus the tuple tables' entries (per bucket, flat)."""

    dense: Model
    tables: list[float]
    sheet: str = "standard"
    players: int = 1
    """1: the solo value (the final score); more: the multi-player value (the final margin
    over the others' mean, ``heuristics.MULTI_TD``)."""
    gift: tuple[float, ...] = ()
    """Multi-player: per bucket, the weight of the tray gift left to the passive players
    at the end of the player's own turn (``optimus.optimus2.bots.tray_gift``)."""


def prior(feats: list[float], t: float, dense: Model) -> float:
    """The corrected evaluation's points to come (``value.learned_value`` less the score)."""
    w = dense.weights[bucket(t)]
    v = dense.base * base_gain(feats)
    if w:
        v += sum(map(mul, w, feats))
    return v


def td_parts(
    sd: SheetDef, sh: list[int], t: float, hand: float, model: TdModel
) -> tuple[float, list[int]]:
    """The value of the sheet and the entries of the tables it reads (none at the end)."""
    if t <= 0:
        return float(score_of(area_scores(sd, sh), sh[sd.FOX])), []
    score, feats = features(sd, sh, t, hand)
    v = score + prior(feats, t, model.dense)
    if sd.name != model.sheet:
        return v, []
    idx = flat_indices(sd, sh, t, feats)
    w = model.tables
    for i in idx:
        v += w[i]
    return v, idx


def td_value(sd: SheetDef, sh: list[int], t: float, hand: float, model: TdModel) -> float:
    """Score now plus the points to come by the corrected evaluation and the tables."""
    return td_parts(sd, sh, t, hand, model)[0]


TDS: Shelf[TdModel] = Shelf(
    "optimus.optimus2", lambda text, where: parse_td(text, where), clear_seen
)
"""The TD values by name: registered (training, tests), else the package's
``optimus/optimus2/<name>.json``; a change empties ``optimus.optimus2.value``'s cache of values."""
register_td = TDS.register
unregister_td = TDS.unregister
get_td = TDS.get
load_td = TDS.shipped


def parse_td(text: str, where: str = "td weights") -> TdModel:
    """A :class:`TdModel` from the JSON the trainer writes (``tables``: the flat entries,
    ``dense``: the name of the package's corrected evaluation), checked."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ValueError(f"{where}: not JSON ({e})") from None
    if not isinstance(data, dict) or data.get("tables_names") != list(TABLES):
        raise ValueError(f"{where}: the tables are not those of this version ({TABLES})")
    tables = data.get("tables")
    if not isinstance(tables, list) or not all(
        isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in tables
    ):
        raise ValueError(f"{where}: tables must be a list of finite numbers")
    from optimus.optimus2.sheet import load_sheet

    sheet = str(data.get("sheet", "standard"))
    if len(tables) != flat_size(load_sheet(sheet)):
        raise ValueError(f"{where}: expected {flat_size(load_sheet(sheet))} entries")
    dense = load_model(str(data.get("dense", "value_weights")))
    players = data.get("players", 1)
    gift = data.get("gift", [])
    if not isinstance(players, int) or players < 1:
        raise ValueError(f"{where}: players must be a positive integer")
    if players > 1 and (
        not isinstance(gift, list)
        or len(gift) != BUCKETS
        or not all(isinstance(x, (int, float)) and math.isfinite(x) for x in gift)
    ):
        raise ValueError(f"{where}: a multi-player value needs {BUCKETS} gift weights")
    weights = tuple(float(x) for x in gift) if players > 1 else ()
    return TdModel(dense, [float(x) for x in tables], sheet, players, weights)


def td_json(model: TdModel, dense: str = "value_weights", **meta: object) -> str:
    """The JSON of ``model`` (:func:`parse_td` reads it), entries to 3 decimals."""
    extra: dict[str, object] = {}
    if model.players > 1:
        extra = {"players": model.players, "gift": [round(x, 4) for x in model.gift]}
    data = {
        **meta,
        **extra,
        "sheet": model.sheet,
        "dense": dense,
        "tables_names": list(TABLES),
        "tables": [round(x, 3) for x in model.tables],
    }
    return json.dumps(data, separators=(",", ":"))
