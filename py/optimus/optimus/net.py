"""A value network of an Optimus solo sheet, run in pure Python (no numpy: the page).

The value of a solo player's sheet after a move is its score now (what it would
score if the game ended: :func:`~optimus.optimus.value.score_now`) plus a small
neural network's estimate of the points still to come. The network reads a few
hundred yes/no *features* of the sheet (:func:`active` lists those that are on),
face-blind (the afterstate holds no dice) and about the sheet only: solo, a column
or a colour always scores its first-finisher points, so who finishes first, which
matters with others, has no feature. The groups, and why:

* ``box`` / ``open`` / ``star``: per box, marked; free and markable now (column H or
  next to a mark: the frontier the next rolls grow from); an unmarked star (-2 at
  the end, and where the stars are differs between sheets). Per box, because the
  columns' points and the sheet's geometry are positional;
* per column: its free boxes (one-hot, 0 is done: a column's points come at 0, and
  how likely it is to get there depends on how many are left), how many colour runs
  still have free boxes (each needs its own roll) and whether it can be marked now
  -- the linear evaluation's column state (:mod:`optimus.optimus.value`), split;
* per colour: its free boxes and the rolls its free pieces need (a piece of more
  than five boxes needs two), as *thermometers* (a count ``k`` turns on its first
  ``k`` steps), and done (its bonus);
* "!" left, rolls left, unmarked stars (all and those open now), the pieces the
  blocks are cut into, boxes marked (in fives): thermometers.

The network is an MLP with two hidden layers of ReLUs (:mod:`optimus.core.mlp`).
Its first layer is the sum of the rows of the features that are on; one
decision's afterstates differ from the sheet before it in a few features only, so
:func:`move_values` sums that sheet's rows once and adds and takes away the rows
that differ (:func:`afterstates` lists every afterstate's features of a decision at
once, from the sheet's: the lab's trainer). The weights are package data
(``net_weights.json``, written by ``python -m optimus_lab.optimus.net export``);
:mod:`optimus_lab.optimus.net` learns them by TD(lambda) in solo self-play, with the
same features.

>>> from optimus.optimus.sheet import layout_of, standard_sheet
>>> lay = layout_of(standard_sheet("harbour"))
>>> idx = active(lay, 0, 8, 29)
>>> len(FEATURES) > 500, len(idx) == len(set(idx)), FEATURES[idx[0]]
(True, True, 'open:H1')
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from operator import sub

from optimus.core.mlp import Mlp, hidden, output, parse_net_json
from optimus.core.weights import Shelf
from optimus.optimus.game import (
    COLOUR_FACES,
    FACE_COLOURS,
    FACE_NUMBERS,
    JOKERS,
    NUMBER_FACES,
    SOLO_ROLLS,
    OptimusState,
    joker_cost,
    marking_choices,
    parse_move,
)
from optimus.optimus.sheet import (
    BOXES,
    COLOURS,
    COLS,
    COLUMN_MASKS,
    NUM_COLOURS,
    ROWS,
    Layout,
    bits,
    box_name,
    eligible_of,
)
from optimus.optimus.value import _piece_sizes, cuts, score_now, sheet_of

COLOUR_FREE = 21
"""Boxes of a colour."""
NEED_STEPS = 8
STAR_STEPS = 15
CUT_STEPS = 12
BOX_STEP = 5
BOX_STEPS = BOXES // BOX_STEP


def _names() -> tuple[tuple[str, ...], dict[str, int]]:
    names: list[str] = []
    start: dict[str, int] = {}

    def group(name: str, items: Iterable[object]) -> None:
        start[name] = len(names)
        names.extend(f"{name}:{x}" for x in items)

    boxes = [box_name(i) for i in range(BOXES)]
    group("box", boxes)
    group("open", boxes)
    group("star", boxes)
    letters = [box_name(c)[0] for c in range(COLS)]
    group("colfree", [f"{c}{n}" for c in letters for n in range(ROWS + 1)])
    group("colruns", [f"{c}{n}" for c in letters for n in range(1, NUM_COLOURS + 1)])
    group("colopen", letters)
    group("cfree", [f"{k}{n}" for k in COLOURS for n in range(1, COLOUR_FREE + 1)])
    group("cneed", [f"{k}{n}" for k in COLOURS for n in range(1, NEED_STEPS + 1)])
    group("cdone", COLOURS)
    group("jokers", range(1, JOKERS + 1))
    group("rolls", range(1, SOLO_ROLLS))
    group("stars", range(1, STAR_STEPS + 1))
    group("stars_open", range(1, STAR_STEPS + 1))
    group("cuts", range(1, CUT_STEPS + 1))
    group("boxes", range(1, BOX_STEPS + 1))
    return tuple(names), start


FEATURES, START = _names()
"""The features' names in index order, and where each group starts."""
_BOX, _OPEN, _STAR = START["box"], START["open"], START["star"]
_COLFREE, _COLRUNS, _COLOPEN = START["colfree"], START["colruns"], START["colopen"]
_CFREE, _CNEED, _CDONE = START["cfree"], START["cneed"], START["cdone"]
_JOKERS, _ROLLS, _STARS, _STARS_OPEN = (
    START["jokers"],
    START["rolls"],
    START["stars"],
    START["stars_open"],
)
_CUTS, _BOXES = START["cuts"], START["boxes"]
_FULL = (1 << BOXES) - 1


_BYTES = (BOXES + 7) // 8
Table = tuple[tuple[tuple[int, ...], ...], ...]


def _table(base: int) -> Table:
    """By byte ``j`` of a mask of boxes and its value: ``base`` plus its boxes' indices."""
    return tuple(
        tuple(tuple(base + 8 * j + i for i in range(8) if v >> i & 1) for v in range(256))
        for j in range(_BYTES)
    )


_BOX_ON, _OPEN_ON, _STAR_ON = _table(_BOX), _table(_OPEN), _table(_STAR)


def _on(out: list[int], table: Table, mask: int) -> None:
    """Add to ``out`` the features of ``table`` of the boxes of ``mask``, lowest first."""
    for j, byte in enumerate(mask.to_bytes(_BYTES, "little")):
        if byte:
            out += table[j][byte]


_PARTS: dict[tuple[int, int, int], tuple[int, ...]] = {}
"""Columns' and colours' features by sheet, column or colour and its free boxes (the
afterstates of one decision differ in a column or two)."""


def active(layout: Layout, marks: int, jokers_left: int, rolls_left: int) -> list[int]:
    """The indices of the features that are on for a sheet with ``marks`` and
    ``jokers_left`` "!", ``rolls_left`` rolls before the game ends."""
    free = _FULL & ~marks
    eligible = eligible_of(marks)
    stars = layout.star_mask & free
    out: list[int] = []
    _on(out, _BOX_ON, marks)
    _on(out, _OPEN_ON, eligible)
    _on(out, _STAR_ON, stars)
    parts = _PARTS
    if len(parts) > 200_000:
        parts.clear()
    add = out.append
    lay = id(layout)
    for c, cm in enumerate(COLUMN_MASKS):
        key = (lay, c, cm & free)
        hit = parts.get(key)
        if hit is None:
            hit = parts[key] = _column(layout, c, cm & free)
        out += hit
        if eligible & cm and cm & free:
            add(_COLOPEN + c)
    for k, km in enumerate(layout.colour_masks):
        key = (lay, COLS + k, km & free)
        hit = parts.get(key)
        if hit is None:
            hit = parts[key] = _colour(layout, k, km & free)
        out += hit
    out.extend(range(_JOKERS, _JOKERS + jokers_left))
    out.extend(range(_ROLLS, _ROLLS + min(SOLO_ROLLS - 1, rolls_left)))
    out.extend(range(_STARS, _STARS + min(STAR_STEPS, stars.bit_count())))
    out.extend(range(_STARS_OPEN, _STARS_OPEN + min(STAR_STEPS, (stars & eligible).bit_count())))
    out.extend(range(_CUTS, _CUTS + min(CUT_STEPS, cuts(layout, marks))))
    out.extend(range(_BOXES, _BOXES + marks.bit_count() // BOX_STEP))
    return out


def _part(layout: Layout, i: int, free: int) -> tuple[int, ...]:
    """Column ``i``'s features (``i`` < :data:`COLS`), else colour ``i - COLS``'s (``free``:
    its free boxes), cached as :func:`active` caches them."""
    key = (id(layout), i, free)
    hit = _PARTS.get(key)
    if hit is None:
        if len(_PARTS) > 200_000:
            _PARTS.clear()
        hit = _PARTS[key] = (
            _column(layout, i, free) if i < COLS else _colour(layout, i - COLS, free)
        )
    return hit


def afterstates(
    layout: Layout, marks: int, jokers_left: int, rolls_left: int, options: Sequence[Choice]
) -> list[list[int]]:
    """Each option's afterstate features: ``active(layout, marks | mask, jokers_left - cost,
    rolls_left)`` for each ``(mask, cost)``, the same lists, faster: the columns and
    colours a move leaves alone (its new boxes and the boxes it makes markable are in
    none of their boxes) keep the sheet's parts, and the cuts change in the blocks it
    marks only."""
    free0 = _FULL & ~marks
    eligible0 = eligible_of(marks)
    cols0: list[tuple[int, ...]] = []
    for c, cm in enumerate(COLUMN_MASKS):
        part = _part(layout, c, cm & free0)
        cols0.append(part + (_COLOPEN + c,) if eligible0 & cm and cm & free0 else part)
    colours = layout.colour_masks
    colours0 = [_part(layout, COLS + k, km & free0) for k, km in enumerate(colours)]
    blocks, block_of = layout.blocks, layout.block_of

    def cut(b: int, free: int) -> int:
        bm = blocks[b][1]
        f = bm & free
        return _piece_sizes(layout, b, f)[0] - 1 if f and f != bm else 0

    cuts0 = cuts(layout, marks)
    rolls = range(_ROLLS, _ROLLS + min(SOLO_ROLLS - 1, rolls_left))
    star_mask = layout.star_mask
    out = []
    for mask, cost in options:
        m = marks | mask
        free = free0 & ~mask
        eligible = eligible_of(m)
        stars = star_mask & free
        f: list[int] = []
        _on(f, _BOX_ON, m)
        _on(f, _OPEN_ON, eligible)
        _on(f, _STAR_ON, stars)
        changed = mask | (eligible ^ eligible0)
        for c, cm in enumerate(COLUMN_MASKS):
            if changed & cm:
                f += _part(layout, c, cm & free)
                if eligible & cm and cm & free:
                    f.append(_COLOPEN + c)
            else:
                f += cols0[c]
        for k, km in enumerate(colours):
            f += _part(layout, COLS + k, km & free) if mask & km else colours0[k]
        n_cuts = cuts0
        for b in {block_of[i] for i in bits(mask)}:
            n_cuts += cut(b, free) - cut(b, free0)
        f.extend(range(_JOKERS, _JOKERS + jokers_left - cost))
        f.extend(rolls)
        f.extend(range(_STARS, _STARS + min(STAR_STEPS, stars.bit_count())))
        f.extend(range(_STARS_OPEN, _STARS_OPEN + min(STAR_STEPS, (stars & eligible).bit_count())))
        f.extend(range(_CUTS, _CUTS + min(CUT_STEPS, n_cuts)))
        f.extend(range(_BOXES, _BOXES + m.bit_count() // BOX_STEP))
        out.append(f)
    return out


def _column(layout: Layout, c: int, free: int) -> tuple[int, ...]:
    """Column ``c``'s free boxes and colour runs with free boxes (``free``: its own)."""
    n = free.bit_count()
    if not n:
        return (_COLFREE + c * (ROWS + 1),)
    runs = sum(1 for rm in sheet_of(layout).runs[c] if rm & free)
    return (_COLFREE + c * (ROWS + 1) + n, _COLRUNS + c * NUM_COLOURS + runs - 1)


def _colour(layout: Layout, k: int, free: int) -> tuple[int, ...]:
    """Colour ``k``'s free boxes and the rolls its free pieces need (``free``: its own; a
    piece of more than :data:`~optimus.optimus.value.MAX_NUMBER` boxes needs two or more)."""
    n = free.bit_count()
    if not n:
        return (_CDONE + k,)
    need = 0
    for b in layout.blocks_by_colour[k]:
        f = layout.blocks[b][1] & free
        if f:
            need += _piece_sizes(layout, b, f)[1]
    b = _CNEED + k * NEED_STEPS
    return (*range(_CFREE + k * COLOUR_FREE, _CFREE + k * COLOUR_FREE + n),) + (
        *range(b, b + min(NEED_STEPS, need)),
    )


Choice = tuple[int, int]
"""A move's new boxes (a mask; none: a pass) and the "!" it spends."""


def choices(
    layout: Layout, marks: int, jokers_left: int, dice_c: Sequence[str], dice_n: Sequence[str]
) -> list[Choice]:
    """Every distinct move a solo player has with these dice: the pass first, then each
    different (new boxes, "!" spent) once, in the order of the legal moves."""
    return dice_choices(layout, marks, jokers_left, dice_c, dice_n)[0]


def dice_choices(
    layout: Layout, marks: int, jokers_left: int, dice_c: Sequence[str], dice_n: Sequence[str]
) -> tuple[list[Choice], list[str]]:
    """:func:`choices`, with the faces of the first pair of dice that makes each (the
    colour's and the number's, ``""`` for the pass): with others, the dice a move takes."""
    out: list[Choice] = [(0, 0)]
    faces = [""]
    seen = {(0, 0)}
    for cf in COLOUR_FACES:
        if cf not in dice_c:
            continue
        for nf in NUMBER_FACES:
            if nf not in dice_n:
                continue
            cost = joker_cost(cf, nf)
            if cost > jokers_left:
                continue
            for k in FACE_COLOURS[cf]:
                for n in FACE_NUMBERS[nf]:
                    for mask, _ in marking_choices(layout, marks, k, n):
                        if (mask, cost) not in seen:
                            seen.add((mask, cost))
                            out.append((mask, cost))
                            faces.append(cf + nf)
    return out, faces


def parse_net(text: str, where: str = "net weights") -> Mlp:
    """The network of the JSON ``optimus_lab.optimus.net export`` writes, checked."""
    return parse_net_json(text, FEATURES, where)


NETS: Shelf[Mlp] = Shelf("optimus.optimus", parse_net)
"""The value networks by name: registered (training, tests, the lab's runs), else the
package's ``optimus/optimus/<name>.json``."""


def has_net(name: str) -> bool:
    """Whether the network ``name`` is registered or shipped (``<name>.json``)."""
    return NETS.has(name)


NET_SLICE = 24
"""Afterstates valued between two yields."""


def option_values(
    model: Mlp,
    layout: Layout,
    marks: int,
    jokers_left: int,
    rolls_left: int,
    options: Sequence[Choice],
    anchor: Anchor | None = None,
) -> Generator[None, None, list[float]]:
    """Each option's afterstate value: its score plus the network's points to come (none
    after the last roll). The first layer is summed once for the sheet before the move
    (shifted from ``anchor``'s if given) and shifted by the features each afterstate
    turns on and off. Yields every :data:`NET_SLICE` options."""
    out = []
    if rolls_left:
        base = active(layout, marks, jokers_left, rolls_left)
        h0 = hidden(model, base) if anchor is None else anchor.hidden(model, base)
        was = set(base)
        after = afterstates(layout, marks, jokers_left, rolls_left, options)
    for n, (mask, cost) in enumerate(options):
        m, j = marks | mask, jokers_left - cost
        value = float(score_now(layout, m, j))
        if rolls_left:
            idx = after[n]
            now = set(idx)
            h = _shifted(
                model, h0, [i for i in idx if i not in was], [i for i in base if i not in now]
            )
            value += output(model, h)
        out.append(value)
        if n % NET_SLICE == NET_SLICE - 1:
            yield None
    return out


def _shifted(model: Mlp, h: list[float], on: Sequence[int], off: Sequence[int]) -> list[float]:
    """:func:`~optimus.core.mlp.shift`, the rows added up column by column at once (a
    few times faster in CPython; equal but for the order of the additions)."""
    w1 = model.w1
    if on:
        h = list(map(sum, zip(h, *[w1[i] for i in on], strict=True)))
    if off:
        h = list(map(sub, h, map(sum, zip(*[w1[i] for i in off], strict=True))))
    return h


class Anchor:
    """A sheet's features and first layer's sums (the first asked for), to shift those of
    sheets near it from (a look-ahead's sheets differ from each other in a few boxes)."""

    def __init__(self) -> None:
        self.idx: list[int] = []
        self.on: set[int] = set()
        self.h: list[float] = []

    def hidden(self, model: Mlp, idx: list[int]) -> list[float]:
        """:func:`~optimus.core.mlp.hidden` of ``idx``."""
        if not self.h:
            self.idx, self.on, self.h = idx, set(idx), hidden(model, idx)
            return self.h
        now = set(idx)
        on = [i for i in idx if i not in self.on]
        off = [i for i in self.idx if i not in now]
        if 2 * (len(on) + len(off)) > len(idx):
            return hidden(model, idx)
        return _shifted(model, self.h, on, off)


class NetLeaf:
    """The network as the leaf of a look-ahead (:data:`optimus.optimus.lookahead.Leaf`):
    the sheets of ``layout`` after a roll valued as :func:`option_values` values them."""

    def __init__(self, model: Mlp, layout: Layout) -> None:
        self.model = model
        self.layout = layout
        self.anchor = Anchor()

    def __call__(
        self, roll: int, marks: int, jokers_left: int, options: Sequence[Choice]
    ) -> Generator[None, None, list[float]]:
        rolls_left = max(0, SOLO_ROLLS - roll)
        return option_values(
            self.model, self.layout, marks, jokers_left, rolls_left, options, self.anchor
        )


def move_choices(legal: Sequence[str]) -> tuple[list[Choice], list[int]]:
    """The distinct choices (new boxes, "!" spent) among the moves ``legal``, in the order
    first met (the pass: ``(0, 0)``), and each move's index among them: the moves of a
    choice share its afterstate, valued once (:func:`move_values`, and
    :func:`optimus.optimus.net_multi.move_values` with others).

    >>> options, of_move = move_choices(["pass", "r1 H1", "x1 H1", "r? H1"])
    >>> of_move, [cost for _, cost in options]
    ([0, 1, 2, 2], [0, 0, 1])
    """
    options: list[Choice] = []
    where: dict[Choice, int] = {}
    of_move = []
    for move in legal:
        if move == "pass":
            key: Choice = (0, 0)
        else:
            cf, nf, mask = parse_move(move)
            key = (mask, joker_cost(cf, nf))
        if key not in where:
            where[key] = len(options)
            options.append(key)
        of_move.append(where[key])
    return options, of_move


def move_values(
    model: Mlp, state: OptimusState, me: int, legal: Sequence[str]
) -> Generator[None, None, dict[str, float]]:
    """Solo: each legal move's afterstate value (moves with the same new boxes and "!"
    spent share theirs: :func:`move_choices`; :func:`option_values`)."""
    options, of_move = move_choices(legal)
    rolls_left = max(0, SOLO_ROLLS - state.roll)
    left = JOKERS - state.jokers_used[me]
    values = yield from option_values(
        model, state.layout, state.marks[me], left, rolls_left, options
    )
    return {move: values[i] for move, i in zip(legal, of_move, strict=True)}


__all__ = [
    "FEATURES",
    "Anchor",
    "NETS",
    "Choice",
    "NetLeaf",
    "active",
    "afterstates",
    "choices",
    "dice_choices",
    "has_net",
    "move_choices",
    "move_values",
    "option_values",
    "parse_net",
    "score_now",
]
