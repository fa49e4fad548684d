"""A learned evaluation of Optimus sheets for solo games (used by the bots in solo).

The value of a sheet with ``r`` rolls to come is its score if the game ended
now plus a linear function of features whose weights were fitted, one set
per number of rolls left, by fitted dynamic programming on self-play
(:mod:`optimus_lab.optimus.train`): to the exact mean, over the next roll, of the
best sheet it allows, valued with one roll less. The features, all
sums over columns, colours and boxes, so a move's value changes only where
the move marks:

* each unfinished column: its first value, in the slot of its *state* -- how
  many colour runs still have free boxes (each needs its own roll), how many
  boxes are free, and whether a box of it can be marked now; the fitted
  weight is close to the chance of completing such a column;
* each unfinished colour: its bonus, in the slot of how many rolls its free
  pieces need (a piece of more than five boxes needs two) and how many boxes
  are free;
* unused "!", unmarked stars (all, and those that can be marked now), boxes
  marked, free boxes next to a mark (room to grow) and pieces a block is cut
  into.

It has the interface of :class:`~optimus.optimus.heuristics.Evaluator` that the
bots and :mod:`optimus.optimus.lookahead` use (``value``, ``gain``,
``frontier_of``, ``joker``, ``layout``). The weights ship as package data
(``value_weights.json``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import Any, ClassVar, Self

from optimus.core import data
from optimus.optimus.game import COLOUR_BONUS, SOLO_ROLLS, OptimusState
from optimus.optimus.heuristics import DEFAULT, Evaluator, Params
from optimus.optimus.sheet import (
    COLS,
    COLUMN_MASKS,
    COLUMN_POINTS,
    NUM_COLOURS,
    Layout,
    bits,
    columns_of,
    components,
    eligible_of,
)

WEIGHTS_FILE = "value_weights.json"
ALL_COLUMNS = (1 << COLS) - 1
MAX_NUMBER = 5
"""The largest number a die shows: a longer piece needs two markings or more."""

# -- the feature vector -------------------------------------------------------
SCALARS = ("boxes", "frontier", "jokers", "stars", "stars_open", "cuts")
COLUMN_SLOTS = 6 * 8 * 2
"""Column state: runs left (1-5) x boxes left (1-7) x markable now (0/1)."""
COLOUR_NEED_CAP = 8
COLOUR_LEFT_BUCKET = (0, 1, 2, 3, 4, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9)
"""Free boxes of a colour (0-21) in buckets."""
COLOUR_SLOTS = (COLOUR_NEED_CAP + 1) * 10
COLUMN_BASE = len(SCALARS)
COLOUR_BASE = COLUMN_BASE + COLUMN_SLOTS
FEATURES = COLOUR_BASE + COLOUR_SLOTS

BUCKETS = SOLO_ROLLS + 1
"""One set of weights per number of rolls left (0: the game is over, all zero)."""


def bucket_of(rolls_left: int) -> int:
    return max(0, min(rolls_left, SOLO_ROLLS))


def column_slot(runs: int, free: int, open_now: bool) -> int:
    return COLUMN_BASE + (runs * 8 + free) * 2 + open_now


def colour_slot(need: int, free: int) -> int:
    return COLOUR_BASE + min(need, COLOUR_NEED_CAP) * 10 + COLOUR_LEFT_BUCKET[free]


def _piece_sizes(layout: Layout, b: int, free: int) -> tuple[int, int]:
    """``(pieces, rolls needed)`` of the free boxes ``free`` of block ``b`` (cached)."""
    key = (b, free)
    cache = layout.__dict__.setdefault("_piece_needs", {})
    found: tuple[int, int] | None = cache.get(key)
    if found is None:
        pieces = components(free)
        need = sum(-(-p.bit_count() // MAX_NUMBER) for p in pieces)
        found = cache[key] = (len(pieces), need)
    return found


class Sheet:
    """Per-sheet geometry the features need: column colour runs, blocks by colour."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.runs = [tuple(cm & km for km in layout.colour_masks) for cm in COLUMN_MASKS]


@functools.lru_cache(maxsize=64)
def sheet_of(layout: Layout) -> Sheet:
    return Sheet(layout)


def column_state(sheet: Sheet, c: int, marks: int, eligible: int) -> int:
    """The feature slot of unfinished column ``c`` (``-1`` when complete)."""
    free = ~marks
    cm = COLUMN_MASKS[c]
    n = (cm & free).bit_count()
    if not n:
        return -1
    runs = 0
    for rm in sheet.runs[c]:
        if rm & free:
            runs += 1
    return column_slot(runs, n, bool(eligible & cm))


def colour_state(layout: Layout, k: int, marks: int) -> int:
    """The feature slot of unfinished colour ``k`` (``-1`` when complete)."""
    free = ~marks
    n = (layout.colour_masks[k] & free).bit_count()
    if not n:
        return -1
    need = 0
    for b in layout.blocks_by_colour[k]:
        f = layout.blocks[b][1] & free
        if f:
            need += _piece_sizes(layout, b, f)[1]
    return colour_slot(need, n)


def cuts(layout: Layout, marks: int) -> int:
    """Extra pieces the blocks are cut into by the marks."""
    free = ~marks
    out = 0
    for b, (_, bm) in enumerate(layout.blocks):
        f = bm & free
        if f and f != bm:
            out += _piece_sizes(layout, b, f)[0] - 1
    return out


def score_now(layout: Layout, marks: int, jokers_left: int) -> int:
    """The solo score if the game ended with this sheet."""
    free = ~marks
    v = jokers_left - 2 * (layout.star_mask & free).bit_count()
    for c, cm in enumerate(COLUMN_MASKS):
        if not cm & free:
            v += COLUMN_POINTS[c][0]
    for km in layout.colour_masks:
        if not km & free:
            v += COLOUR_BONUS[0]
    return v


def scalar_features(layout: Layout, marks: int, jokers_left: int) -> dict[int, float]:
    """The first slots of a sheet's feature vector: boxes marked, boxes open to marking,
    "!" left, stars unmarked, stars open, and pieces the unmarked boxes are cut into."""
    eligible = eligible_of(marks)
    stars = layout.star_mask & ~marks
    return {
        0: float(marks.bit_count()),
        1: float(eligible.bit_count()),
        2: float(jokers_left),
        3: float(stars.bit_count()),
        4: float((stars & eligible).bit_count()),
        5: float(cuts(layout, marks)),
    }


def features(layout: Layout, marks: int, jokers_left: int) -> dict[int, float]:
    """The sparse feature vector of a sheet (slot -> value)."""
    sheet = sheet_of(layout)
    eligible = eligible_of(marks)
    out = scalar_features(layout, marks, jokers_left)
    for c in range(COLS):
        s = column_state(sheet, c, marks, eligible)
        if s >= 0:
            out[s] = out.get(s, 0.0) + COLUMN_POINTS[c][0]
    for k in range(NUM_COLOURS):
        s = colour_state(layout, k, marks)
        if s >= 0:
            out[s] = out.get(s, 0.0) + COLOUR_BONUS[0]
    return out


class BucketWeights:
    """Weights by bucket: ``weights[bucket][slot]``, as a JSON file of format :attr:`format`
    (each model below sets its own format, shape and rounding)."""

    format: ClassVar[str] = "optimus-grid-value-1"
    what: ClassVar[str] = "an Optimus value model"
    features: ClassVar[int] = FEATURES
    buckets: ClassVar[int] = BUCKETS
    digits: ClassVar[int] = 5

    def __init__(self, weights: list[list[float]]) -> None:
        if len(weights) != self.buckets or any(len(w) != self.features for w in weights):
            raise ValueError(
                f"{self.what} has {self.buckets} buckets of {self.features} weights, "
                f"not {len(weights)} of {sorted({len(w) for w in weights})}"
            )
        self.weights = weights

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "features": self.features,
            "buckets": self.buckets,
            "weights": [[round(x, self.digits) for x in w] for w in self.weights],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        if data.get("format") != cls.format:
            raise ValueError(f"not {cls.what}: format {data.get('format')!r}")
        return cls([[float(x) for x in w] for w in data["weights"]])

    def write(self, path: str) -> None:
        """Save the weights as the JSON file ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_json(), f, separators=(",", ":"))
            f.write("\n")

    @classmethod
    def shipped(cls, name: str) -> Self | None:
        """The weights of the package's file ``name`` (``None`` if the file is missing)."""
        try:
            text = data.text("optimus.optimus", name)
        except OSError:
            return None
        return cls.from_json(json.loads(text))


class Model(BucketWeights):
    """Weights by bucket of rolls left: ``weights[bucket][slot]``."""

    def predict(self, layout: Layout, marks: int, jokers_left: int, rolls_left: int) -> float:
        """Expected final solo score (slow reference: whole feature vector)."""
        base = float(score_now(layout, marks, jokers_left))
        if rolls_left <= 0:
            return base
        w = self.weights[bucket_of(rolls_left)]
        return base + sum(w[i] * x for i, x in features(layout, marks, jokers_left).items())


@functools.lru_cache(maxsize=1)
def shipped_model() -> Model | None:
    """The weights shipped with the package (``None`` if the file is missing)."""
    return Model.shipped(WEIGHTS_FILE)


class LearnedEvaluator:
    """The learned value of one solo player's sheets after roll ``roll``."""

    def __init__(self, layout: Layout, roll: int, model: Model) -> None:
        rolls_left = max(0, SOLO_ROLLS - roll)
        self.read_weights(layout, rolls_left, model.weights, bucket_of(rolls_left))
        self.column_done = [float(COLUMN_POINTS[c][0]) for c in range(COLS)]
        self.colour_done = float(COLOUR_BONUS[0])

    def read_weights(
        self, layout: Layout, rolls_left: int, weights: Sequence[list[float]], index: int
    ) -> None:
        """Take the sheets' ``layout`` and ``weights[index]``, those of ``rolls_left``
        rolls to go (none read when the game is over)."""
        self.layout = layout
        self.sheet = sheet_of(layout)
        self.rolls_left = rolls_left
        self.over = rolls_left == 0
        w = weights[index] if not self.over else [0.0] * FEATURES
        self.w = w
        self.box = w[0]
        self.frontier = w[1]
        self.joker = 1.0 + w[2]
        """What an unused "!" is worth (its point at the end, plus the fitted weight)."""
        self.star = 2.0 - w[3]
        """What marking a star that cannot be marked now is worth."""
        self.star_open = w[4]
        self.cut = w[5]

    def column_term(self, c: int, marks: int, eligible: int) -> float:
        s = column_state(self.sheet, c, marks, eligible)
        if s < 0:
            return self.column_done[c]
        return self.column_done[c] * self.w[s]

    def colour_term(self, k: int, marks: int) -> float:
        s = colour_state(self.layout, k, marks)
        if s < 0:
            return self.colour_done
        return self.colour_done * self.w[s]

    def frontier_of(self, marks: int) -> int:
        return eligible_of(marks).bit_count()

    def value(self, marks: int, jokers_left: int) -> float:
        layout = self.layout
        eligible = eligible_of(marks)
        stars = layout.star_mask & ~marks
        v = (
            self.joker * jokers_left
            + self.box * marks.bit_count()
            + self.frontier * eligible.bit_count()
            - self.star * stars.bit_count()
            + self.star_open * (stars & eligible).bit_count()
            + self.cut * cuts(layout, marks)
        )
        for c in range(COLS):
            v += self.column_term(c, marks, eligible)
        for k in range(NUM_COLOURS):
            v += self.colour_term(k, marks)
        return v

    def gain(self, marks: int, mask: int, cost: int, frontier_before: int = -1) -> float:
        """``value(marks | mask, j - cost) - value(marks, j)``, from what changes."""
        if not mask:
            return -self.joker * cost
        layout = self.layout
        new = marks | mask
        before = eligible_of(marks)
        after = eligible_of(new)
        stars = layout.star_mask
        d = (
            self.star * (stars & mask).bit_count()
            + self.box * mask.bit_count()
            - self.joker * cost
            + self.frontier * (after.bit_count() - before.bit_count())
            + self.star_open * ((stars & after & ~new).bit_count() - (stars & before).bit_count())
        )
        # a mark changes its column and which boxes of the columns beside it are open
        columns = columns_of(mask)
        for c in bits((columns | columns << 1 | columns >> 1) & ALL_COLUMNS):
            d += self.column_term(c, new, after) - self.column_term(c, marks, before)
        low = (mask & -mask).bit_length() - 1
        b = layout.block_of[low]
        k, bm = layout.blocks[b]
        d += self.colour_term(k, new) - self.colour_term(k, marks)
        d += self.cut * (self._cut(b, bm, bm & ~new) - self._cut(b, bm, bm & ~marks))
        return d

    def _cut(self, b: int, bm: int, free: int) -> int:
        if not free or free == bm:
            return 0
        return _piece_sizes(self.layout, b, free)[0] - 1


SheetEvaluator = Evaluator | LearnedEvaluator
"""Either evaluation: both value sheets and moves the same way for the bots."""


def make_evaluator(
    state: OptimusState,
    player: int,
    params: Params = DEFAULT,
    learned: bool = True,
    multi: bool = False,
    ahead: int = 0,
) -> SheetEvaluator:
    """The learned evaluation in solo (when ``learned`` and shipped), else the hand-made one.

    With others and ``multi``: the learned multi-player evaluation
    (:mod:`optimus.optimus.value_multi`, read on first use) for sheets ``ahead``
    rolls after the present one, when shipped.
    """
    if state.solo:
        model = shipped_model() if learned else None
        if model is not None:
            return LearnedEvaluator(state.layout, state.roll, model)
    elif multi:
        from optimus.optimus import value_multi  # the weights are read only when asked for

        multi_model = value_multi.shipped_multi_model()
        if multi_model is not None:
            return value_multi.multi_evaluator(state, player, multi_model, ahead)
    return Evaluator(state, player, params)


__all__ = [
    "FEATURES",
    "LearnedEvaluator",
    "Model",
    "SheetEvaluator",
    "bucket_of",
    "features",
    "make_evaluator",
    "score_now",
    "shipped_model",
]
