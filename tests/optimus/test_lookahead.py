"""The exact expectation over the next roll that ``hard`` searches with."""

from __future__ import annotations

import itertools
import random
from collections.abc import Generator, Sequence

import pytest

from optimus.core.bots import Budget, run_to_end
from optimus.core.rng import Rng
from optimus.optimus.bots import HardBot
from optimus.optimus.game import JOKERS, OptimusGame, marking_choices
from optimus.optimus.heuristics import DEFAULT, Evaluator
from optimus.optimus.lookahead import (
    Lookahead,
    expected_best,
    face_gains,
    next_roll_dice,
    pair_gains,
)

from .scenario import after_open_rolls, fresh, mask, roll

NEG = float("-inf")


def _brute(table: list[list[float]], dice: int) -> float:
    total = 0.0
    for cs in itertools.product(range(6), repeat=dice):
        for ns in itertools.product(range(6), repeat=dice):
            total += max([0.0] + [table[c][n] for c in cs for n in ns])
    return total / 6 ** (2 * dice)


@pytest.mark.parametrize("dice", [2, 3])
def test_expected_best_is_the_mean_over_every_roll(dice: int) -> None:
    rng = Rng(dice)
    for _ in range(4):
        table = [
            [NEG if rng.randrange(4) == 0 else (rng.randrange(800) - 300) / 100 for _ in range(6)]
            for _ in range(6)
        ]
        assert expected_best(table, dice) == pytest.approx(_brute(table, dice), abs=1e-9)


def test_pair_gains_are_the_best_marking_of_each_colour_and_size() -> None:
    s = after_open_rolls(fresh(1))
    s.marks[0] = mask("H3", "H4", "G4")
    ev = Evaluator(s, 0)
    marks = s.marks[0]
    table = pair_gains(ev, marks)
    for k in range(5):
        for n in range(1, 6):
            gains = [ev.gain(marks, m, 0) for m, _ in marking_choices(s.layout, marks, k, n)]
            assert table[k][n - 1] == (max(gains) if gains else NEG)


def test_a_joker_face_is_the_best_of_its_row_less_its_cost() -> None:
    pairs = [[float(k * 5 + n) for n in range(5)] for k in range(5)]
    pairs[2][4] = NEG
    t = face_gains(pairs, 2, 1.5)
    assert t[1][3] == pairs[1][3]
    assert t[5][0] == max(row[0] for row in pairs) - 1.5
    assert t[3][5] == max(pairs[3]) - 1.5
    assert t[5][5] == 24.0 - 3.0
    assert face_gains(pairs, 1, 1.5)[5][5] == NEG  # two jokers, one "!" left
    assert face_gains(pairs, 0, 1.5)[5][0] == NEG


def test_next_roll_dice_follows_who_chooses_from_what() -> None:
    assert next_roll_dice(fresh(1), 0, 5) == 2
    three = fresh(3)
    assert next_roll_dice(three, 2, 2) == 3  # open roll: all six dice
    assert next_roll_dice(three, 1, 5) == 3  # roll 5 of 3 players: seat 1 active
    assert next_roll_dice(three, 2, 5) == 2  # the four dice the active player leaves


def test_after_the_last_solo_roll_a_sheet_is_worth_its_score() -> None:
    s = after_open_rolls(fresh(1), 30)
    s.marks[0] = mask("H1", "H2", "H3", "H4", "H5", "H6", "H7")
    look = Lookahead(s, 0, DEFAULT)
    score = 1 + JOKERS - 2 * 14  # column H, eight "!", fourteen stars left
    assert look.one(s.marks[0], JOKERS) == pytest.approx(score)
    two = look.two(s.marks[0], JOKERS)
    with pytest.raises(StopIteration) as stop:
        next(two)
    assert stop.value.value == pytest.approx(score)


def test_one_roll_ahead_adds_the_mean_best_gain_of_the_next_roll() -> None:
    s = after_open_rolls(fresh(1), 10)
    marks = mask("H3", "H4")
    look = Lookahead(s, 0, DEFAULT)
    ev = look.after(11)
    by_hand = 0.0
    for dice_c in itertools.product(range(6), repeat=2):
        for dice_n in itertools.product(range(6), repeat=2):
            best = 0.0
            for c in set(dice_c):
                for n in set(dice_n):
                    cost = (c == 5) + (n == 5)
                    for k in range(5) if c == 5 else (c,):
                        for size in range(1, 6) if n == 5 else (n + 1,):
                            for m, _ in marking_choices(s.layout, marks, k, size):
                                best = max(best, ev.gain(marks, m, cost))
            by_hand += best / 6**4
    assert look.one(marks, JOKERS) == pytest.approx(ev.value(marks, JOKERS) + by_hand)


def test_hard_takes_the_points_on_the_last_solo_roll() -> None:
    s = after_open_rolls(fresh(1), 30)
    s.marks[0] = mask("H1", "H2", "H3", "H4", "H5", "H6")  # H7 (blue) finishes column H
    roll(s, "bg", "13")  # b3 H7 I7 J7: the column (1) and the star of J7 (2)
    bot = HardBot(OptimusGame(), 0, Rng(1), Budget(iterations=2))
    assert bot.choose(s.observation(0), s.legal_moves(0)) == "b3 H7 I7 J7"


def _leaf_values(
    roll_: int, marks: int, left: int, options: Sequence[tuple[int, int]]
) -> Generator[None, None, list[float]]:
    """A leaf for the tests: a made-up value of the boxes plus 0.7 a "!" left, the
    rolls after ``roll_`` counted."""
    yield None
    return [
        random.Random(marks | m).uniform(-3, 9) + 0.7 * (left - c) + 0.1 * roll_ for m, c in options
    ]


@pytest.mark.parametrize(
    ("at", "boxes", "left", "inner"),
    [
        (10, ("H3", "H4"), JOKERS, 1),
        (17, ("H3", "H4", "G4", "I4", "I5"), 1, 1),
        (24, ("H1",), 0, 1),
        (12, ("H3", "H4", "G4"), 2, 2),
        (12, ("H3", "H4", "G4"), 2, 100),
    ],
)
def test_one_roll_ahead_on_a_leaf_is_the_mean_over_every_roll(
    at: int, boxes: tuple[str, ...], left: int, inner: int
) -> None:
    """Each of the 6^4 rolls: the best of passing and, per pair of dice taken, each colour
    and size they allow marked in one of the ``inner`` ways the evaluation likes most,
    valued by the leaf a roll later."""
    s = after_open_rolls(fresh(1), at)
    marks = mask(*boxes)
    look = Lookahead(s, 0, DEFAULT, leaf=_leaf_values, inner=inner)
    ev = look.after(at + 1)

    def leaf(m: int, j: int) -> float:
        values: list[float] = run_to_end(_leaf_values(at + 1, marks, left, [(m, left - j)]))
        return values[0]

    best_masks = {}
    for k in range(5):
        for size in range(1, 6):
            found = [m for m, _ in marking_choices(s.layout, marks, k, size)]
            found.sort(key=lambda m: -ev.gain(marks, m, 0))  # stable: ties in order
            best_masks[k, size] = found[:inner]
    by_hand = 0.0
    for dice_c in itertools.product(range(6), repeat=2):
        for dice_n in itertools.product(range(6), repeat=2):
            best = leaf(0, left)
            for c in set(dice_c):
                for n in set(dice_n):
                    cost = (c == 5) + (n == 5)
                    if cost > left:
                        continue
                    for k in range(5) if c == 5 else (c,):
                        for size in range(1, 6) if n == 5 else (n + 1,):
                            for m in best_masks[k, size]:
                                best = max(best, leaf(m, left - cost))
            by_hand += best / 6**4
    assert look.one(marks, left) == pytest.approx(by_hand, abs=1e-9)


def test_on_a_leaf_the_last_roll_is_the_leaf_itself() -> None:
    s = after_open_rolls(fresh(1), 30)
    marks = mask("H3", "H4")
    look = Lookahead(s, 0, DEFAULT, leaf=_leaf_values)
    assert look.one(marks, 3) == run_to_end(_leaf_values(30, marks, 3, [(0, 0)]))[0]
