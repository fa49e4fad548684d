"""A learned evaluation of Optimus sheets for games with others (2-6 players).

The solo value (:mod:`optimus.optimus.value`) with what a game with others
changes:

* a column or colour is worth what its completion would score *now*: its
  first value while no one else has taken it, else the second (the same
  rule as the scoring, :meth:`~optimus.optimus.game.OptimusState.breakdown`);
* each unfinished column and colour whose first value is still open is
  counted in a second set of slots when it is *contested* -- another
  player has marked at least as many of its boxes (the race for the first
  value);
* the game ends when a player completes a second colour: the weights come in
  one set per *estimated* number of rolls left, from the roll and from how
  near the most advanced player is to two colours (see :func:`rolls_left`).

The weights were fitted by regression to the final score (Monte Carlo) on
self-play games with others (:mod:`optimus_lab.optimus.train_multi`); they ship
as package data (``value_multi_weights.json``), read the first time a bot needs
them. The evaluator has the interface the bots and
:mod:`optimus.optimus.lookahead` use (``value``, ``gain``, ``frontier_of``,
``joker``, ``layout``).
"""

from __future__ import annotations

import copy
import functools
import itertools
from typing import Any, ClassVar

from optimus.optimus.game import COLOUR_BONUS, MAX_ROLLS, OptimusState
from optimus.optimus.sheet import (
    COLS,
    COLUMN_MASKS,
    COLUMN_POINTS,
    NUM_COLOURS,
    Layout,
    eligible_of,
)
from optimus.optimus.value import (
    COLOUR_SLOTS,
    COLUMN_SLOTS,
    BucketWeights,
    LearnedEvaluator,
    colour_state,
    column_state,
    scalar_features,
    sheet_of,
)

WEIGHTS_FILE = "value_multi_weights.json"
FORMAT = "optimus-grid-value-multi-1"
HORIZON = 30
"""Estimated rolls left are capped here: one set of weights per 1..HORIZON (0: over)."""
BUCKETS = HORIZON + 1
SCALARS = 6
"""As the solo value's: boxes, frontier, "!" left, stars, stars open, cuts."""
COLUMN_BASE = SCALARS
CONTESTED_COLUMN = COLUMN_SLOTS
"""Added to a column's slot when its first value is open and another is as far on."""
COLOUR_BASE = COLUMN_BASE + 2 * COLUMN_SLOTS
CONTESTED_COLOUR = COLOUR_SLOTS
FEATURES = COLOUR_BASE + 2 * COLOUR_SLOTS


REMAINING = ((0.0, 42.0), (1.0, 33.0), (1.5, 24.0), (1.7, 18.0), (2.0, 1.0))
"""Rolls a game with others still lasts by the most advanced player's two fullest
colours (their shares summed): measured on greedy self-play (2-4 players),
joined by straight lines."""


def rolls_left(state: OptimusState) -> int:
    """Estimated rolls to come in a game with others (1..HORIZON; 0 when over).

    From the most advanced player's two fullest colours (the game ends when a
    player completes a second colour), by :data:`REMAINING`; never past the
    roll limit.
    """
    if state.phase == "over":
        return 0
    best = 0.0
    masks = state.layout.colour_masks
    for marks in state.marks:
        fills = sorted(((marks & m).bit_count() / m.bit_count() for m in masks), reverse=True)
        best = max(best, fills[0] + fills[1])
    est = REMAINING[-1][1]
    for (x0, y0), (x1, y1) in itertools.pairwise(REMAINING):
        if best <= x1:
            est = y0 + (y1 - y0) * (best - x0) / (x1 - x0)
            break
    est = min(est, float(MAX_ROLLS - state.roll))
    return max(1, min(HORIZON, round(est)))


class Context:
    """What the value of one player's sheets needs from the rest of the game.

    ``ahead``: the sheets valued are those after ``ahead`` rolls more than
    ``state``'s (the lookahead's), with that many rolls fewer to come.
    ``column_done[c]`` / ``colour_done[k]``: what completing column ``c`` /
    colour ``k`` scores the player now (the points already scored if done);
    ``column_open`` / ``colour_open``: whether the first value is still to
    take; ``column_lead`` / ``colour_lead``: the most boxes another player has
    marked in it.
    """

    def __init__(self, state: OptimusState, player: int, ahead: int = 0) -> None:
        layout = state.layout
        self.layout = layout
        left = rolls_left(state)
        self.rolls_left = max(1, left - ahead) if left else 0
        others = [state.marks[p] for p in range(state.num_players) if p != player]
        self.column_done: list[float] = []
        self.column_open: list[bool] = []
        self.column_lead: list[int] = []
        for c, cm in enumerate(COLUMN_MASKS):
            when = state.column_roll[player][c] or state.roll
            first = not state.column_first[c] or state.column_first[c] == when
            self.column_done.append(float(COLUMN_POINTS[c][0 if first else 1]))
            self.column_open.append(not state.column_first[c])
            self.column_lead.append(max(((m & cm).bit_count() for m in others), default=0))
        self.colour_done: list[float] = []
        self.colour_open: list[bool] = []
        self.colour_lead: list[int] = []
        for k, km in enumerate(layout.colour_masks):
            when = state.colour_roll[player][k] or state.roll
            first = not state.colour_first[k] or state.colour_first[k] == when
            bonus = COLOUR_BONUS[0 if first else 1] if state.bonuses else 0
            self.colour_done.append(float(bonus))
            self.colour_open.append(not state.colour_first[k])
            self.colour_lead.append(max(((m & km).bit_count() for m in others), default=0))


def later(ctx: Context, rolls: int = 1) -> Context:
    """The same context ``rolls`` rolls later (fewer rolls to come; 0 stays 0)."""
    out = copy.copy(ctx)
    out.rolls_left = max(0, ctx.rolls_left - rolls)
    return out


def column_slot(ctx: Context, sheet: Any, c: int, marks: int, eligible: int) -> int:
    """Column ``c``'s feature slot (``-1`` when complete)."""
    s = column_state(sheet, c, marks, eligible)
    if s < 0:
        return -1
    s += COLUMN_BASE - SCALARS  # the solo slots start at the same offset
    if ctx.column_open[c] and ctx.column_lead[c] >= (marks & COLUMN_MASKS[c]).bit_count():
        s += CONTESTED_COLUMN
    return s


def colour_slot(ctx: Context, layout: Layout, k: int, marks: int) -> int:
    """Colour ``k``'s feature slot (``-1`` when complete)."""
    s = colour_state(layout, k, marks)
    if s < 0:
        return -1
    s += COLOUR_BASE - (SCALARS + COLUMN_SLOTS)
    if ctx.colour_open[k] and ctx.colour_lead[k] >= (marks & layout.colour_masks[k]).bit_count():
        s += CONTESTED_COLOUR
    return s


def score_now(ctx: Context, layout: Layout, marks: int, jokers_left: int) -> float:
    """The sheet's score if the game ended now (completions scored as they would be now)."""
    free = ~marks
    v = float(jokers_left - 2 * (layout.star_mask & free).bit_count())
    for c, cm in enumerate(COLUMN_MASKS):
        if not cm & free:
            v += ctx.column_done[c]
    for k, km in enumerate(layout.colour_masks):
        if not km & free:
            v += ctx.colour_done[k]
    return v


def features(ctx: Context, layout: Layout, marks: int, jokers_left: int) -> dict[int, float]:
    """The sparse feature vector of a sheet (slot -> value)."""
    sheet = sheet_of(layout)
    eligible = eligible_of(marks)
    out = scalar_features(layout, marks, jokers_left)
    for c in range(COLS):
        s = column_slot(ctx, sheet, c, marks, eligible)
        if s >= 0:
            out[s] = out.get(s, 0.0) + ctx.column_done[c]
    for k in range(NUM_COLOURS):
        s = colour_slot(ctx, layout, k, marks)
        if s >= 0:
            out[s] = out.get(s, 0.0) + ctx.colour_done[k]
    return out


class MultiModel(BucketWeights):
    """Weights by estimated rolls left: ``weights[rolls left][slot]`` (row 0 unused)."""

    format: ClassVar[str] = FORMAT
    what: ClassVar[str] = "a multi-player Optimus value model"
    features: ClassVar[int] = FEATURES
    buckets: ClassVar[int] = BUCKETS
    digits: ClassVar[int] = 4

    def predict(self, ctx: Context, layout: Layout, marks: int, jokers_left: int) -> float:
        """Expected final score (slow reference: the whole feature vector)."""
        base = score_now(ctx, layout, marks, jokers_left)
        if ctx.rolls_left <= 0:
            return base
        w = self.weights[ctx.rolls_left]
        return base + sum(w[i] * x for i, x in features(ctx, layout, marks, jokers_left).items())


@functools.lru_cache(maxsize=1)
def shipped_multi_model() -> MultiModel | None:
    """The weights shipped with the package, read on first use (``None`` if missing)."""
    return MultiModel.shipped(WEIGHTS_FILE)


def multi_evaluator(
    state: OptimusState, player: int, model: MultiModel, ahead: int = 0
) -> MultiEvaluator:
    """The learned value of ``player``'s sheets ``ahead`` rolls after ``state``'s."""
    return MultiEvaluator(Context(state, player, ahead), model)


class MultiEvaluator(LearnedEvaluator):
    """The learned value of one player's sheets in a game with others (in a context)."""

    def __init__(self, ctx: Context, model: MultiModel) -> None:
        self.ctx = ctx
        self.read_weights(ctx.layout, ctx.rolls_left, model.weights, ctx.rolls_left)
        self.column_done = ctx.column_done

    def column_term(self, c: int, marks: int, eligible: int) -> float:
        s = column_slot(self.ctx, self.sheet, c, marks, eligible)
        if s < 0:
            return self.column_done[c]
        return self.column_done[c] * self.w[s]

    def colour_term(self, k: int, marks: int) -> float:
        ctx = self.ctx
        s = colour_slot(ctx, self.layout, k, marks)
        if s < 0:
            return ctx.colour_done[k]
        return ctx.colour_done[k] * self.w[s]


__all__ = [
    "FEATURES",
    "Context",
    "MultiEvaluator",
    "MultiModel",
    "features",
    "later",
    "multi_evaluator",
    "rolls_left",
    "score_now",
    "shipped_multi_model",
]
