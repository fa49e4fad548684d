"""A learned afterstate value of an Optimus 2 sheet, for the bots.

The value of a player's position is its score now plus a linear function of
features of its sheet (per area: what is filled and what is still open; the
foxes, the lowest areas and the foxes times them; the actions in hand; the
hand-written estimate of :mod:`optimus.optimus2.heuristics`; the dice of the turn
still to choose), with one set of weights per stretch of the game left
(``t``, the share of the game left, in :data:`BUCKETS` steps). At the end
(``t == 0``) the value is the score itself.

The weights are package data (``value_weights.json``), fitted by
:mod:`optimus_lab.optimus2.train` (self-play, approximate policy iteration).

>>> from optimus.optimus2.sheet import load_sheet
>>> sd = load_sheet()
>>> learned_value(sd, sd.new_sheet(), 0.0, 0.0, Model(((),) * BUCKETS))
0.0
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from operator import mul

from optimus.core.weights import Shelf
from optimus.optimus2.heuristics import DEFAULT, FITS, effective_areas, fox_progress, sheet_value
from optimus.optimus2.sheet import SheetDef, area_scores

BUCKETS = 6
"""Stretches of the game left with their own weights (``t`` in steps of 1/6: in solo, a
round each, its end included)."""

FEATURES = (
    "bias",
    "heuristic",
    "hand",
    "eff_yellow",
    "eff_blue",
    "eff_green",
    "eff_pink",
    "eff_silver",
    "yellow_crosses",
    "yellow_circles",
    "blue_filled",
    "blue_room",
    "green_filled",
    "green_open",
    "green_next",
    "pink_filled",
    "silver_marks",
    "silver_near",
    "rerolls",
    "returns",
    "extras",
    "foxes",
    "fox_progress",
    "low_now",
    "low_eff",
    "foxes_low_eff",
    "foxes_low_now",
    "progress_low_eff",
    "yellow",
    "blue",
    "green",
    "pink",
    "silver",
    "low_eff_sq",
    "within",
    "within_heuristic",
)
"""Names of the features, in the order of :func:`features`."""

SOFT = 3.0
"""Temperature of the soft minimum over the effective areas."""


def bucket(t: float) -> int:
    """The weights' index for share ``t`` of the game left (``t > 0``)."""
    return min(BUCKETS - 1, max(0, math.ceil(t * BUCKETS) - 1))


def score_of(now: list[int], foxes: int) -> int:
    return sum(now) + foxes * min(now)


def features(sd: SheetDef, sh: list[int], t: float, hand: float) -> tuple[int, list[float]]:
    """The score now and the features of :data:`FEATURES` of sheet ``sh``.

    ``hand``: the worth, in good picks, of the dice still to choose this turn
    (:func:`optimus.optimus2.bots.turn_future` with weight 1).
    """
    Y = sd.Y
    cells = sh[Y : Y + len(sd.yellow_cells)]
    crosses = cells.count(2)
    n = sh[sd.BN]
    last = sh[sd.BN + n] if n else 13
    GN = sd.GN
    g = sh[GN]
    green_now = 0
    for i in range(GN + 1, GN + g, 2):
        green_now += sh[i] - sh[i + 1]
    PN = sd.PN
    S = sd.S
    r0, r1, r2, r3 = sh[S : S + 4]
    ss = sd.silver_score
    now = [
        sd.yellow_score[crosses],
        sd.blue_score[n],
        green_now,
        sum(sh[PN + 1 : PN + 1 + sh[PN]]),
        ss[r0.bit_count()] + ss[r1.bit_count()] + ss[r2.bit_count()] + ss[r3.bit_count()],
    ]  # area_scores(sd, sh), from the counts at hand
    foxes = sh[sd.FOX]
    low_int = min(now)
    score = sum(now) + foxes * low_int
    eff = effective_areas(sd, sh, t)
    heur = sheet_value(sd, sh, t, areas=eff)
    near = 0
    for v in range(sd.silver_values):
        bit = 1 << v
        if (r0 & bit) + (r1 & bit) + (r2 & bit) + (r3 & bit) == 3 * bit:
            near += 1
    AC, AU = sd.AC, sd.AU
    low_now = float(low_int)
    low = min(eff)
    exp = math.exp
    low_eff = low - SOFT * math.log(
        exp((low - eff[0]) / SOFT)
        + exp((low - eff[1]) / SOFT)
        + exp((low - eff[2]) / SOFT)
        + exp((low - eff[3]) / SOFT)
        + exp((low - eff[4]) / SOFT)
    )
    prog = fox_progress(sd, sh)
    within = t * BUCKETS - bucket(t)
    feats = [
        1.0,
        heur - score,
        hand,
        eff[0] - now[0],
        eff[1] - now[1],
        eff[2] - now[2],
        eff[3] - now[3],
        eff[4] - now[4],
        float(crosses),
        float(cells.count(1)),
        float(n),
        FITS[min(last, 12)] * (sd.blue_slots - n),
        float(g),
        float(sh[sd.GN + g]) if g % 2 else 0.0,
        float(sd.green_mult[g]) if g < sd.green_slots and not g % 2 else 0.0,
        float(sh[sd.PN]),
        float(r0.bit_count() + r1.bit_count() + r2.bit_count() + r3.bit_count()),
        float(near),
        float(sh[AC] - sh[AU]),
        float(sh[AC + 1] - sh[AU + 1]),
        float(sh[AC + 2] - sh[AU + 2]),
        float(foxes),
        prog,
        low_now,
        low_eff,
        foxes * low_eff,
        foxes * low_now,
        prog * low_eff,
        float(now[0]),
        float(now[1]),
        float(now[2]),
        float(now[3]),
        float(now[4]),
        low_eff * low_eff / 50,
        within,
        within * (heur - score),
    ]
    return score, feats


@dataclass(frozen=True)
class Model:
    """Weights per bucket of the game left (:func:`bucket`), each over :data:`FEATURES`."""

    weights: tuple[tuple[float, ...], ...]
    base: float = 0.0
    """Share of the hand-written evaluation (:func:`base_gain`) the weights correct."""


def learned_value(
    sd: SheetDef, sh: list[int], t: float, hand: float, model: Model, scale: float = 1.0
) -> float:
    """Score now plus the model's estimate of the points still to come (the score at the end).

    ``scale``: the model's correction of the hand-written estimate times this.
    """
    if t <= 0:
        return float(score_of(area_scores(sd, sh), sh[sd.FOX]))
    score, feats = features(sd, sh, t, hand)
    w = model.weights[bucket(t)]
    v = score + model.base * base_gain(feats)
    if not w:
        return v
    correction: float = sum(map(mul, w, feats))
    return v + scale * correction


PICK = DEFAULT.pick


def base_gain(feats: list[float]) -> float:
    """The points to come by the hand-written evaluation (``optimus.optimus2.bots.value``)."""
    return feats[1] + PICK * feats[2]


_SEEN: dict[tuple[object, ...], float] = {}
"""Values already computed by :func:`named_value` (positions recur across the playouts of
one decision: ~3,600 new ones a solo decision); emptied when it grows past :data:`SEEN_MAX`
(~7 MB) or a model is registered."""
SEEN_MAX = 10_000


TD_PREFIX = "td"
"""A model name starting so is a :class:`optimus.optimus2.td.TdModel` (its ``scale`` unused)."""


def named_value(
    sd: SheetDef, sh: list[int], t: float, hand: float, name: str, scale: float = 1.0
) -> float:
    """:func:`learned_value` with the model named ``name`` (:func:`get_model`; a name starting
    with :data:`TD_PREFIX`: :func:`optimus.optimus2.td.td_value`), remembered."""
    key = (name, scale, sd.name, t, hand, *sh)
    v = _SEEN.get(key)
    if v is None:
        if len(_SEEN) >= SEEN_MAX:
            _SEEN.clear()
        if name.startswith(TD_PREFIX):
            from optimus.optimus2.td import get_td, td_value  # only when used

            v = _SEEN[key] = td_value(sd, sh, t, hand, get_td(name))
        else:
            v = _SEEN[key] = learned_value(sd, sh, t, hand, get_model(name), scale)
    return v


def clear_seen() -> None:
    """Forget the values :func:`named_value` remembers (after a model's weights change)."""
    _SEEN.clear()


MODELS: Shelf[Model] = Shelf(
    "optimus.optimus2", lambda text, where: parse_model(text, where), clear_seen
)
"""The fitted corrections by name: registered (training, tests), else the package's
``optimus/optimus2/<name>.json``."""
register_model = MODELS.register
unregister_model = MODELS.unregister
registered_model = MODELS.registered
get_model = MODELS.get
load_model = MODELS.shipped


def read_model(path: str) -> Model:
    """The :class:`Model` of the weights file at ``path`` (:func:`parse_model`); a file that
    cannot be read raises ValueError too, naming it."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror or e}") from None
    return parse_model(text, path)


def parse_model(text: str, where: str = "value weights") -> Model:
    """A :class:`Model` from the JSON :mod:`optimus_lab.optimus2.train` writes, checked."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ValueError(f"{where}: not JSON ({e})") from None
    if not isinstance(data, dict) or data.get("features") != list(FEATURES):
        raise ValueError(
            f"{where}: the features are not those of this version ({len(FEATURES)} named in"
            " optimus.optimus2.value.FEATURES); refit with python -m optimus_lab.optimus2.train"
        )
    weights = data.get("weights")
    if not isinstance(weights, list) or len(weights) != BUCKETS:
        raise ValueError(f"{where}: expected {BUCKETS} lists of weights")
    out: list[tuple[float, ...]] = []
    for i, w in enumerate(weights):
        if w == []:
            out.append(())
            continue
        if not isinstance(w, list) or len(w) != len(FEATURES):
            raise ValueError(f"{where}: weights[{i}] must have {len(FEATURES)} numbers")
        if not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in w
        ):
            raise ValueError(f"{where}: weights[{i}] must hold finite numbers only")
        out.append(tuple(float(x) for x in w))
    base = data.get("base", 0.0)
    if not isinstance(base, (int, float)) or isinstance(base, bool) or not math.isfinite(base):
        raise ValueError(f"{where}: base must be a number")
    return Model(tuple(out), float(base))
