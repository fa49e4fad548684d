"""Exact expectation over the next roll, for Optimus's ``hard`` bot.

A roll offers a player a few colour dice and a few number dice; the player
takes one of each (or passes). What the next roll is worth to a sheet is the
expectation, over every way the dice can fall, of the best gain the dice
then allow. That best gain depends only on the *pair of faces* taken, so it
is computed once per colour and number (25 pairs: the best marking of that
colour and size), turned into a 6 x 6 table of faces (a joker face is the
best of its row or column, less the "!" it costs), and the expectation runs
over the multisets of dice with their probabilities: 21 x 21 for two colour
and two number dice, 56 x 56 for three.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from itertools import combinations_with_replacement
from math import factorial

from optimus.core.bots import run_to_end
from optimus.optimus.game import OPEN_ROLLS, SOLO_ROLLS, OptimusState, marking_choices
from optimus.optimus.heuristics import Params
from optimus.optimus.sheet import NUM_COLOURS
from optimus.optimus.value import SheetEvaluator, make_evaluator

NEG = float("-inf")
FACES = 6
"""Faces of a die: five colours (or numbers 1-5), then the joker."""
NUMBERS = 5


def _multisets(dice: int) -> list[tuple[tuple[int, ...], float]]:
    """Every multiset of ``dice`` faces with its probability (dice thrown independently)."""
    out = []
    for faces in combinations_with_replacement(range(FACES), dice):
        ways = factorial(dice)
        for f in set(faces):
            ways //= factorial(faces.count(f))
        out.append((tuple(sorted(set(faces))), ways / FACES**dice))
    return out


MULTISETS = {2: _multisets(2), 3: _multisets(3)}


def best_markings_steps(
    ev: SheetEvaluator, marks: int
) -> Generator[None, None, list[list[tuple[float, int]]]]:
    """``B[k][n - 1]``: the best marking of ``n`` boxes of colour ``k`` by the evaluation,
    ``(gain, new boxes)`` (``(-inf, 0)``: none), yielding after every colour (a busy sheet
    has hundreds of markings)."""
    front = ev.frontier_of(marks)
    layout = ev.layout
    gain = ev.gain
    table = []
    for k in range(NUM_COLOURS):
        row = []
        for n in range(1, NUMBERS + 1):
            best, best_mask = NEG, 0
            for mask, _ in marking_choices(layout, marks, k, n):
                g = gain(marks, mask, 0, front)
                if g > best:
                    best, best_mask = g, mask
            row.append((best, best_mask))
        table.append(row)
        yield None
    return table


def top_markings_steps(
    ev: SheetEvaluator, marks: int, count: int
) -> Generator[None, None, list[list[list[int]]]]:
    """``M[k][n - 1]``: the ``count`` best markings of ``n`` boxes of colour ``k`` by the
    evaluation (their new boxes, best first; ties: the first), yielding after every colour."""
    front = ev.frontier_of(marks)
    layout = ev.layout
    gain = ev.gain
    table = []
    for k in range(NUM_COLOURS):
        row = []
        for n in range(1, NUMBERS + 1):
            ranked = sorted(
                (
                    (-gain(marks, mask, 0, front), i, mask)
                    for i, (mask, _) in enumerate(marking_choices(layout, marks, k, n))
                ),
            )
            row.append([mask for _, _, mask in ranked[:count]])
        table.append(row)
        yield None
    return table


def pair_gains_steps(ev: SheetEvaluator, marks: int) -> Generator[None, None, list[list[float]]]:
    """:func:`pair_gains`, yielding after every colour (a busy sheet has hundreds of markings)."""
    best = yield from best_markings_steps(ev, marks)
    return [[g for g, _ in row] for row in best]


def pair_gains(ev: SheetEvaluator, marks: int) -> list[list[float]]:
    """``G[k][n - 1]``: the best gain of marking ``n`` boxes of colour ``k`` (``-inf``: none)."""
    return run_to_end(pair_gains_steps(ev, marks))


def face_gains(pairs: list[list[float]], jokers_left: int, joker: float) -> list[list[float]]:
    """``T[colour face][number face]`` from :func:`pair_gains`; face 5 is the joker."""
    table = [row + [NEG] for row in pairs] + [[NEG] * FACES]
    if jokers_left >= 1:
        for n in range(NUMBERS):
            table[NUMBER_JOKER][n] = max(pairs[k][n] for k in range(NUM_COLOURS)) - joker
        for k in range(NUM_COLOURS):
            table[k][NUMBER_JOKER] = max(pairs[k]) - joker
    if jokers_left >= 2:
        table[NUMBER_JOKER][NUMBER_JOKER] = max(max(row) for row in pairs) - 2 * joker
    return table


NUMBER_JOKER = 5
"""Index of the joker face (the X colour die, the ? number die)."""


def expected_best(table: list[list[float]], dice: int, floor: float = 0.0) -> float:
    """Mean over a roll of ``dice`` colour and ``dice`` number dice of the best entry taken.

    The player takes one colour and one number die: the best entry of the rows
    and columns the dice show, never below ``floor`` (passing). For each
    multiset of colour faces, the number dice are independent, so the mean of
    their best is read off the sorted column values: the ``i``-th lowest of
    six is the best with probability ``(i/6)^dice - ((i-1)/6)^dice``.
    """
    weights = _MAX_WEIGHTS[dice]
    total = 0.0
    for cs, pc in MULTISETS[dice]:
        if len(cs) == 1:
            row = table[cs[0]]
            values = sorted(v if v > floor else floor for v in row)
        else:
            values = sorted(max(floor, *(table[c][n] for c in cs)) for n in range(FACES))
        acc = 0.0
        for w, v in zip(weights, values, strict=True):
            acc += w * v
        total += pc * acc
    return total


_MAX_WEIGHTS = {
    d: [(i / FACES) ** d - ((i - 1) / FACES) ** d for i in range(1, FACES + 1)] for d in (2, 3)
}
"""Probability that the ``i``-th lowest of six face values is the best of ``d`` dice."""


def next_roll_dice(state: OptimusState, player: int, roll: int) -> int:
    """How many colour (and number) dice ``player`` will choose from in roll ``roll``.

    Solo: two. Otherwise three when every player chooses from all six (the
    first rolls) or when ``player`` is active, else two (what the active
    player leaves, taken as random).
    """
    if state.solo:
        return 2
    if roll <= OPEN_ROLLS or (roll - 1) % state.num_players == player:
        return 3
    return 2


Leaf = Callable[[int, int, int, Sequence[tuple[int, int]]], Generator[None, None, list[float]]]
"""Another valuation of a solo player's sheets at the leaves of :meth:`Lookahead.one`:
``leaf(roll, marks, jokers_left, options)`` values each sheet ``(marks | mask,
jokers_left - cost)`` of ``options`` once roll ``roll`` is made (yielding as it likes);
a value network's (:class:`optimus.optimus.net.NetLeaf`)."""


class Lookahead:
    """Values of one player's sheets looking one or two rolls ahead, from roll ``state.roll``.

    ``after(t)`` is the evaluation of a sheet once roll ``t`` is made (its
    fading credit counts the rolls after ``t``). ``one(marks, left)`` is the
    mean over the next roll of the best sheet it allows, each valued by the
    evaluation; ``two(...)`` the same two rolls deep, where in the second-to-
    last roll the player takes, per colour and number, the marking that is
    best one roll ahead (from the one the evaluation likes most of that colour
    and size). In solo the game's end is known: no roll is counted after 30.

    With a ``leaf`` (solo), :meth:`one` values the sheets the next roll can leave by
    the leaf instead: per colour and number the best by the leaf of the ``inner``
    markings the evaluation likes most, the sheet passing, and a "!" at what the leaf
    says one is worth on that sheet.
    """

    def __init__(
        self,
        state: OptimusState,
        player: int,
        params: Params,
        learned: bool = True,
        multi: bool = False,
        leaf: Leaf | None = None,
        inner: int = 1,
    ) -> None:
        self.state = state
        self.leaf = leaf
        self.inner = inner
        self.player = player
        self.params = params
        self.learned = learned
        self.multi = multi
        self._evs: dict[int, SheetEvaluator] = {}

    def after(self, roll: int) -> SheetEvaluator:
        ev = self._evs.get(roll)
        if ev is None:
            sim = self.state.clone()
            sim.roll = roll
            ahead = roll - self.state.roll
            ev = make_evaluator(sim, self.player, self.params, self.learned, self.multi, ahead)
            self._evs[roll] = ev
        return ev

    def last(self, roll: int) -> bool:
        return self.state.solo and roll >= SOLO_ROLLS

    def one(self, marks: int, left: int, roll: int | None = None) -> float:
        """Sheet after roll ``roll`` (default: this one): the mean best after the next roll."""
        return run_to_end(self.one_steps(marks, left, roll))

    def one_steps(
        self, marks: int, left: int, roll: int | None = None
    ) -> Generator[None, None, float]:
        """:meth:`one`, yielding after every colour of the next roll valued."""
        t = self.state.roll if roll is None else roll
        if self.leaf is not None:
            return (yield from self.one_leaf(marks, left, t))
        if self.last(t):
            return self.after(t).value(marks, left)
        ev = self.after(t + 1)
        pairs = yield from pair_gains_steps(ev, marks)
        table = face_gains(pairs, left, ev.joker)
        dice = next_roll_dice(self.state, self.player, t + 1)
        return ev.value(marks, left) + expected_best(table, dice)

    def one_leaf(self, marks: int, left: int, t: int) -> Generator[None, None, float]:
        """:meth:`one_steps` on the leaf: the sheets after roll ``t + 1`` valued by it."""
        assert self.leaf is not None
        if self.last(t):
            return (yield from self.leaf(t, marks, left, [(0, 0)]))[0]
        if self.inner == 1:
            best = yield from best_markings_steps(self.after(t + 1), marks)
            tops = [[[mask] if mask else [] for _, mask in row] for row in best]
        else:
            tops = yield from top_markings_steps(self.after(t + 1), marks, self.inner)
        spare = 2 if left else 1
        options = [(0, 0), (0, 1)][:spare]
        options += [(mask, 0) for row in tops for masks in row for mask in masks]
        values = yield from self.leaf(t + 1, marks, left, options)
        stay = values[0]
        # a "!" costs what the leaf says one is worth on the sheet passing
        joker = stay - values[1] if left else 0.0
        it = iter(values[spare:])
        pairs = [
            [max([next(it) - stay for _ in masks], default=NEG) for masks in row] for row in tops
        ]
        table = face_gains(pairs, left, joker)
        return stay + expected_best(table, next_roll_dice(self.state, self.player, t + 1))

    def two(self, marks: int, left: int) -> Generator[None, None, float]:
        """Sheet after this roll: the mean over two rolls (yields after every colour valued)."""
        t = self.state.roll
        if self.last(t + 1):
            return self.one(marks, left)
        ev = self.after(t + 1)
        front = ev.frontier_of(marks)
        stay = yield from self.one_steps(marks, left, t + 1)
        pairs: list[list[float]] = []
        for k in range(NUM_COLOURS):
            row = []
            for n in range(1, NUMBERS + 1):
                best_gain, best_mask = NEG, 0
                for mask, _ in marking_choices(ev.layout, marks, k, n):
                    g = ev.gain(marks, mask, 0, front)
                    if g > best_gain:
                        best_gain, best_mask = g, mask
                if best_mask:
                    value = yield from self.one_steps(marks | best_mask, left, t + 1)
                    row.append(value - stay)
                else:
                    row.append(NEG)
            pairs.append(row)
        # a joker's cost is charged as the evaluation's value of an unused "!"
        table = face_gains(pairs, left, ev.joker)
        dice = next_roll_dice(self.state, self.player, t + 1)
        return stay + expected_best(table, dice)


__all__ = [
    "Leaf",
    "Lookahead",
    "best_markings_steps",
    "expected_best",
    "face_gains",
    "next_roll_dice",
    "pair_gains",
    "top_markings_steps",
]
