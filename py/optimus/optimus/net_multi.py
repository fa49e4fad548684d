"""A value network of an Optimus sheet in a game with others, in pure Python (no numpy).

What it values: a seat's afterstate (its sheet after its move, the others' as the roll
found them) in *margin*: its score now minus the best other's score now (each as the
sheets stand: columns and colours at their first or second value, "!" left, stars),
plus the network's estimate of how that margin changes by the end. The final margin
over the *best* other (not the others' mean) is what decides a win: a bot that keeps
the margin over the leader high wins most, and its scale (points) is the solo
network's, whose layers start the training (``--init-solo``). A seat's afterstate that
completes its second colour ends the game: its value is its margin then.

The features: those of the solo network (:mod:`optimus.optimus.net`, the same indices,
its "rolls left" group always off: with others the game ends when someone completes
two colours, not after a number of rolls), then what the others' sheets and the table
add, summed over the others so that which seat is which does not matter (the network
is blind to the order of the others):

* ``taken_col`` / ``taken_colour``: per column and colour, someone completed it (its
  first value or bonus is gone for those who have not);
* ``near_col`` / ``near_colour``: per column and colour not taken, the fewest free
  boxes of any other who has not completed it (thermometers: a race for the first
  value is on);
* ``end``: the fewest free boxes of an undone colour of an other who has one colour
  done (how near the game is to its end), with ``end_one``: some other has one colour;
* ``gap_up`` / ``gap_down``: the margin now, thermometers either way;
* ``round`` (rolls played, in threes), ``players``, ``next_active`` (rolls until the
  seat chooses first) and ``open`` (the next roll is one of the first three).

:func:`move_values` values a decision's moves: one afterstate per distinct (new boxes,
"!" spent), the first layer summed once and shifted by the features each afterstate
turns on and off (:class:`optimus.core.mlp.Near`). :data:`NETS` holds the networks by
name (``net_multi_weights.json`` in the package, read on first use); the lab's
:mod:`optimus_lab.optimus.net_multi` learns them by TD(lambda) in self-play.

>>> from optimus.core.record import Match
>>> from optimus.optimus.game import OptimusGame
>>> s = Match(OptimusGame(), {"players": 3}, seed=1).state
>>> idx = active(context(s, 0), 0, 8)
>>> len(FEATURES) > len(net.FEATURES), len(idx) == len(set(idx)), FEATURES[idx[-1]]
(True, True, 'open')
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass

from optimus.core.mlp import Mlp, Near, parse_net_json
from optimus.core.weights import Shelf
from optimus.optimus import net
from optimus.optimus.game import (
    COLOUR_BONUS,
    JOKERS,
    OPEN_ROLLS,
    STAR_PENALTY,
    OptimusState,
)
from optimus.optimus.net import Choice
from optimus.optimus.sheet import COLS, COLUMN_MASKS, COLUMN_POINTS, NUM_COLOURS, Layout

NEAR_COL = 3
NEAR_COLOUR = (1, 2, 3, 4, 6, 9)
END_STEPS = (1, 2, 3, 4, 6, 9, 13)
GAP_STEPS = (1, 2, 3, 5, 7, 10, 14, 19)
ROUND_STEP = 3
ROUND_STEPS = 15
MAX_PLAYERS = 4


def _names() -> tuple[tuple[str, ...], dict[str, int]]:
    names = list(net.FEATURES)
    start: dict[str, int] = {}

    def group(name: str, items: Iterable[object]) -> None:
        start[name] = len(names)
        names.extend(f"{name}:{x}" for x in items)

    cols = range(COLS)
    group("taken_col", cols)
    group("near_col", [f"{c}<={n}" for c in cols for n in range(1, NEAR_COL + 1)])
    group("taken_colour", range(NUM_COLOURS))
    group("near_colour", [f"{k}<={n}" for k in range(NUM_COLOURS) for n in NEAR_COLOUR])
    group("end", [f"<={n}" for n in END_STEPS])
    start["end_one"] = len(names)
    names.append("end_one")
    group("gap_up", [f">={n}" for n in GAP_STEPS])
    group("gap_down", [f"<=-{n}" for n in GAP_STEPS])
    group("round", [f">={ROUND_STEP * n}" for n in range(1, ROUND_STEPS + 1)])
    group("players", range(2, MAX_PLAYERS + 1))
    group("next_active", range(MAX_PLAYERS))
    start["open"] = len(names)
    names.append("open")
    return tuple(names), start


FEATURES, START = _names()
"""The features' names in index order (the solo network's first), and where each of the
groups added here starts."""
_GAP_UP, _GAP_DOWN = START["gap_up"], START["gap_down"]


@dataclass(frozen=True)
class Context:
    """What a seat's afterstates of one decision share: the state's table, summed over
    the others."""

    layout: Layout
    bonuses: bool
    column_first: tuple[int, ...]
    """Per column: someone completed it before this roll (its first value is gone)."""
    colour_first: tuple[int, ...]
    own_columns: tuple[bool, ...]
    """Per column: the seat completed it first (earlier rolls)."""
    own_column_done: tuple[bool, ...]
    own_colours: tuple[bool, ...]
    own_colour_done: tuple[bool, ...]
    best_other: float
    """The best score of the others now."""
    common: tuple[int, ...]
    """The features on whatever the seat's move (the table's)."""


def context(state: OptimusState, me: int) -> Context:
    """The context of seat ``me``'s decision (a game with others) in ``state``."""
    n = state.num_players
    others = [p for p in range(n) if p != me]
    layout = state.layout
    free = [~state.marks[p] for p in others]
    out: list[int] = []
    for c, cm in enumerate(COLUMN_MASKS):
        if state.column_first[c]:
            out.append(START["taken_col"] + c)
            continue
        near = min((cm & f).bit_count() for f in free)
        base = START["near_col"] + c * NEAR_COL
        out.extend(range(base + max(0, near - 1), base + NEAR_COL))
    colour_masks = layout.colour_masks
    for k, km in enumerate(colour_masks):
        if state.colour_first[k]:
            out.append(START["taken_colour"] + k)
            continue
        near = min((km & f).bit_count() for f in free)
        base = START["near_colour"] + k * len(NEAR_COLOUR)
        out.extend(base + i for i, s in enumerate(NEAR_COLOUR) if near <= s)
    end = None
    for p, f in zip(others, free, strict=True):
        if state.colours_done(p) >= 1:
            left = min((km & f).bit_count() for k, km in enumerate(colour_masks) if km & f)
            end = left if end is None else min(end, left)
    if end is not None:
        out.extend(START["end"] + i for i, s in enumerate(END_STEPS) if end <= s)
        out.append(START["end_one"])
    rounds = min(ROUND_STEPS, state.roll // ROUND_STEP)
    out.extend(range(START["round"], START["round"] + rounds))
    out.append(START["players"] + min(n, MAX_PLAYERS) - 2)
    out.append(START["next_active"] + min(MAX_PLAYERS - 1, (me - state.roll % n) % n))
    if state.roll + 1 <= OPEN_ROLLS:
        out.append(START["open"])
    return Context(
        layout=layout,
        bonuses=state.bonuses,
        column_first=tuple(state.column_first),
        colour_first=tuple(state.colour_first),
        own_columns=tuple(
            bool(r) and state.column_first[c] == r for c, r in enumerate(state.column_roll[me])
        ),
        own_column_done=tuple(bool(r) for r in state.column_roll[me]),
        own_colours=tuple(
            bool(r) and state.colour_first[k] == r for k, r in enumerate(state.colour_roll[me])
        ),
        own_colour_done=tuple(bool(r) for r in state.colour_roll[me]),
        best_other=max(float(state.breakdown(p)["total"]) for p in others),
        common=tuple(out),
    )


def score(ctx: Context, marks: int, jokers_left: int) -> tuple[int, int]:
    """The seat's score with ``marks`` and ``jokers_left`` (its completions this roll at
    their first value if no one completed them before), and its colours done."""
    free = ~marks
    v = jokers_left - STAR_PENALTY * (ctx.layout.star_mask & free).bit_count()
    for c, cm in enumerate(COLUMN_MASKS):
        if not cm & free:
            first = ctx.own_columns[c] if ctx.own_column_done[c] else not ctx.column_first[c]
            v += COLUMN_POINTS[c][0 if first else 1]
    done = 0
    for k, km in enumerate(ctx.layout.colour_masks):
        if not km & free:
            done += 1
            if ctx.bonuses:
                first = ctx.own_colours[k] if ctx.own_colour_done[k] else not ctx.colour_first[k]
                v += COLOUR_BONUS[0 if first else 1]
    return v, done


def gap_features(margin: float) -> list[int]:
    """The thermometers of the margin now."""
    if margin >= 0:
        return [_GAP_UP + i for i, s in enumerate(GAP_STEPS) if margin >= s]
    return [_GAP_DOWN + i for i, s in enumerate(GAP_STEPS) if -margin >= s]


def active(ctx: Context, marks: int, jokers_left: int) -> list[int]:
    """The features on for the seat's sheet ``marks`` with ``jokers_left`` "!"."""
    points, _ = score(ctx, marks, jokers_left)
    return [
        *net.active(ctx.layout, marks, jokers_left, 0),
        *ctx.common,
        *gap_features(points - ctx.best_other),
    ]


def afterstates(
    ctx: Context, marks: int, jokers_left: int, options: Sequence[Choice]
) -> tuple[list[list[int]], list[float], list[bool]]:
    """Each option's afterstate: its features (:func:`active`'s lists, faster), its margin
    now and whether it ends the game (the seat's second colour)."""
    solo = net.afterstates(ctx.layout, marks, jokers_left, 0, options)
    common = list(ctx.common)
    feats, margins, over = [], [], []
    for f, (mask, cost) in zip(solo, options, strict=True):
        points, done = score(ctx, marks | mask, jokers_left - cost)
        margin = float(points) - ctx.best_other
        f += common
        f += gap_features(margin)
        feats.append(f)
        margins.append(margin)
        over.append(done >= 2)
    return feats, margins, over


def parse_net(text: str, where: str = "multi-player net weights") -> Mlp:
    """The network of the JSON ``optimus_lab.optimus.net_multi export`` writes, checked."""
    return parse_net_json(text, FEATURES, where)


NETS: Shelf[Mlp] = Shelf("optimus.optimus", parse_net)
"""The networks for games with others by name: registered, else the package's
``optimus/optimus/<name>.json``."""


def has_net(name: str) -> bool:
    """Whether the network ``name`` is registered or shipped (``<name>.json``)."""
    return NETS.has(name)


def option_values(
    model: Mlp, ctx: Context, marks: int, jokers_left: int, options: Sequence[Choice]
) -> Generator[None, None, list[float]]:
    """Each option's afterstate value: its margin now plus the network's change to come
    (none if it ends the game). Yields every :data:`~optimus.optimus.net.NET_SLICE`."""
    feats, margins, over = afterstates(ctx, marks, jokers_left, options)
    near = Near(model)
    out = []
    for n, (f, margin, end) in enumerate(zip(feats, margins, over, strict=True)):
        out.append(margin if end else margin + near.value(f))
        if n % net.NET_SLICE == net.NET_SLICE - 1:
            yield None
    return out


def move_values(
    model: Mlp, state: OptimusState, me: int, legal: Sequence[str]
) -> Generator[None, None, dict[str, float]]:
    """With others: each legal move's afterstate value (moves with the same new boxes and
    "!" spent share theirs: :func:`~optimus.optimus.net.move_choices`;
    :func:`option_values`)."""
    options, of_move = net.move_choices(legal)
    left = JOKERS - state.jokers_used[me]
    ctx = context(state, me)
    values = yield from option_values(model, ctx, state.marks[me], left, options)
    return {move: values[i] for move, i in zip(legal, of_move, strict=True)}


__all__ = [
    "FEATURES",
    "NETS",
    "Context",
    "active",
    "afterstates",
    "context",
    "gap_features",
    "has_net",
    "move_values",
    "option_values",
    "parse_net",
    "score",
]
