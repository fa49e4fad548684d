"""A small value network run in pure Python (no numpy: the page), shared by the games.

An MLP with two hidden layers of ReLUs on yes/no features: the first layer is the
sum of the rows of the features that are on (a sparse product: :func:`hidden`), the
rest two small dense products (:func:`output`). The lab trains it
(:mod:`optimus_lab.tdnet`) and writes its layers as JSON (``w1`` one row per feature,
``w2`` one row per unit of the second layer, ``w3`` the output's weights, the output
in points); :func:`parse_layers` reads and checks them.

>>> m = Mlp([[1.0, -1.0], [0.5, 2.0]], [0.0, 0.0], [[1.0, 1.0]], [0.0], [2.0], 3.0)
>>> forward(m, [0]), forward(m, [1]), forward(m, [0, 1])
(5.0, 8.0, 8.0)
>>> output(m, shift(m, hidden(m, [0]), [1], [0])) == forward(m, [1])
True
>>> near = Near(m)
>>> [near.value(idx) for idx in ([0], [1], [0, 1])]
[5.0, 8.0, 8.0]
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from operator import itemgetter, mul, sub
from typing import Any


@dataclass(frozen=True)
class Mlp:
    """The layers: ``w1`` one row per feature (the first layer's sparse sum), ``w2`` one
    row per unit of the second layer (its inputs' weights), ``w3`` the output's."""

    w1: list[list[float]]
    b1: list[float]
    w2: list[list[float]]
    b2: list[float]
    w3: list[float]
    b3: float

    @cached_property
    def w1_by_unit(self) -> list[list[float]]:
        """``w1`` transposed: one row per unit of the first layer (its features' weights)."""
        return [list(col) for col in zip(*self.w1, strict=True)]


def hidden(model: Mlp, idx: Sequence[int]) -> list[float]:
    """The first layer's sums (before its ReLU) for the features ``idx`` (those on)."""
    if len(idx) < 2:
        return shift(model, list(model.b1), idx, ())
    pick = itemgetter(*idx)
    return [b + sum(pick(col)) for b, col in zip(model.b1, model.w1_by_unit, strict=True)]


def shift(model: Mlp, h: list[float], on: Sequence[int], off: Sequence[int]) -> list[float]:
    """The first layer's sums ``h`` with the features ``on`` turned on and ``off`` off (a
    position that differs from another in a few features). Past two rows, each unit's
    rows are summed in one pass (``zip`` of the rows, ``sum`` per unit: 3-6 times faster
    for the 10-20 rows an afterstate of Optimus with others changes than a pass per row)."""
    w1 = model.w1
    if len(on) + len(off) <= 2:
        for i in on:
            h = list(map(float.__add__, h, w1[i]))
        for i in off:
            h = list(map(float.__sub__, h, w1[i]))
        return h
    if on:
        h = list(map(sum, zip(h, *[w1[i] for i in on], strict=True)))
    if off:
        h = list(map(sub, h, map(sum, zip(*[w1[i] for i in off], strict=True))))
    return h


_sumprod = getattr(math, "sumprod", None)
"""``math.sumprod`` (Python 3.12 and later: the page's), a dot product in C."""


def output(model: Mlp, h: Sequence[float]) -> float:
    """The network's output from the first layer's sums ``h``."""
    if _sumprod is not None:
        a = [x if x > 0.0 else 0.0 for x in h]
        out = model.b3
        for row, b, w in zip(model.w2, model.b2, model.w3, strict=True):
            z = b + _sumprod(row, a)
            if z > 0.0:
                out += w * z
        return out
    nz = [(k, x) for k, x in enumerate(h) if x > 0.0]
    keys = [k for k, _ in nz]
    xs = [x for _, x in nz]
    out = model.b3
    for row, b, w in zip(model.w2, model.b2, model.w3, strict=True):
        z = b + sum(map(mul, [row[k] for k in keys], xs))
        if z > 0.0:
            out += w * z
    return out


def forward(model: Mlp, idx: Sequence[int]) -> float:
    """The network's output for the features ``idx`` (those on)."""
    return output(model, hidden(model, idx))


class Near:
    """The outputs of positions that differ from each other in a few features (one
    decision's afterstates): the first position's first layer is summed in full
    (:func:`hidden`), each next one's shifted from it by the features that differ
    (:func:`shift`), a few rows instead of all of them."""

    def __init__(self, model: Mlp) -> None:
        self.model = model
        self.base: set[int] | None = None
        self.idx: Sequence[int] = ()
        self.h: list[float] = []

    def value(self, idx: Sequence[int]) -> float:
        """The network's output for the features ``idx`` (those on)."""
        model = self.model
        if self.base is None:
            self.base, self.idx, self.h = set(idx), idx, hidden(model, idx)
            return output(model, self.h)
        base, now = self.base, set(idx)
        on = [i for i in idx if i not in base]
        off = [i for i in self.idx if i not in now]
        if len(on) + len(off) >= len(idx):
            return output(model, hidden(model, idx))
        return output(model, shift(model, self.h, on, off))


def parse_net_json(text: str, features: Sequence[str], where: str) -> Mlp:
    """The network of an exported JSON text (a trainer's ``export``: its layers and the
    names of its ``features``), checked: JSON, a network, the same features in the same
    order, layers that fit; else ValueError saying what, and where."""
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ValueError(f"{where}: not JSON ({e})") from None
    if not isinstance(data, dict) or "w1" not in data:
        raise ValueError(f"{where}: not a value network")
    if tuple(data.get("features", ())) != tuple(features):
        raise ValueError(f"{where}: its features are not those of this version")
    return Mlp(**parse_layers(data, len(features), where))


def parse_layers(data: Any, features: int, where: str) -> dict[str, Any]:
    """The layers of the JSON object ``data`` (``Mlp``'s fields), checked: ``features``
    rows of ``w1``, shapes that fit, finite numbers; else ValueError saying what."""
    layers = read_layers(data, where)
    check_layers(layers, features, where)
    return layers


def read_layers(data: Any, where: str) -> dict[str, Any]:
    """The layers of the JSON object ``data`` as numbers (not checked: :func:`check_layers`)."""
    try:
        w1 = [[float(x) for x in row] for row in data["w1"]]
        b1 = [float(x) for x in data["b1"]]
        w2 = [[float(x) for x in row] for row in data["w2"]]
        b2 = [float(x) for x in data["b2"]]
        w3 = [float(x) for x in data["w3"]]
        b3 = float(data["b3"])
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ValueError(f"{where}: not a value network ({e!r})") from None
    return {"w1": w1, "b1": b1, "w2": w2, "b2": b2, "w3": w3, "b3": b3}


def check_layers(layers: dict[str, Any], features: int, where: str) -> None:
    """ValueError unless ``layers`` has ``features`` rows of ``w1``, shapes that fit and
    finite numbers."""
    w1, b1, w2, b2, w3, b3 = (layers[k] for k in ("w1", "b1", "w2", "b2", "w3", "b3"))
    h1, h2 = len(b1), len(b2)
    if (
        len(w1) != features
        or any(len(r) != h1 for r in w1)
        or len(w2) != h2
        or any(len(r) != h1 for r in w2)
        or len(w3) != h2
    ):
        raise ValueError(f"{where}: the layers' shapes do not fit")
    flat = [b3, *b1, *b2, *w3, *(x for r in w1 for x in r), *(x for r in w2 for x in r)]
    if not all(math.isfinite(x) for x in flat):
        raise ValueError(f"{where}: weights must be finite numbers")


__all__ = [
    "Mlp",
    "Near",
    "check_layers",
    "forward",
    "hidden",
    "output",
    "parse_layers",
    "read_layers",
    "shift",
]
