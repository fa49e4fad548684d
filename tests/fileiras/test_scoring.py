"""Scoring: the worked examples, the 6-card cap, jokers, the advanced table, ties."""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest

from optimus.fileiras.cards import COLOURS, JOKER, PLUS2
from optimus.fileiras.scoring import (
    ADVANCED_TABLE,
    STANDARD_TABLE,
    Scorer,
    best_score,
    colour_points,
    score_breakdown,
)


def brute_force(counts: list[int], in_play: list[int], advanced: bool) -> int:
    """Independent reference: every joker colour, every choice of three plus colours."""
    table = ADVANCED_TABLE if advanced else STANDARD_TABLE
    best = None
    for assignment in product(in_play, repeat=counts[JOKER]):
        final = [counts[k] for k in range(7)]
        for k in assignment:
            final[k] += 1
        values = [table[min(final[k], 6)] for k in range(7)]
        for plus in combinations(range(7), 3):
            total = sum(v if k in plus else -v for k, v in enumerate(values))
            best = total if best is None or total > best else best
    assert best is not None
    return best + 2 * counts[PLUS2]


def test_seed_example_is_30() -> None:
    b = score_breakdown({"yellow": 5, "green": 4, "blue": 3, "grey": 3, "orange": 1, "+2": 3})
    assert b.total == 30
    assert b.plus2_points == 6
    points = {c.colour: c.points for c in b.colours}
    assert points["yellow"] == 15 and points["green"] == 10 and points["orange"] == -1
    assert sorted([points["blue"], points["grey"]]) == [-6, 6]
    assert b.plus_colours[:2] == ["yellow", "green"] and b.plus_colours[2] in ("blue", "grey")


def test_published_example_is_41_with_joker_on_yellow() -> None:
    b = score_breakdown({"green": 6, "yellow": 4, "red": 3, "blue": 2, "joker": 1, "+2": 1})
    assert b.total == 41
    assert b.jokers == {"yellow": 1}
    assert b.plus_colours == ["green", "yellow", "red"]
    assert {c.colour: c.points for c in b.colours} == {
        "green": 21,
        "yellow": 15,
        "red": 6,
        "blue": -3,
    }


@pytest.mark.parametrize("cards", [6, 7, 8, 9])
def test_six_or_more_cards_score_21(cards: int) -> None:
    assert best_score({"yellow": cards}) == 21
    assert colour_points(cards) == 21


def test_more_than_six_cards_do_not_lose_points_as_a_minus_colour() -> None:
    base = {"yellow": 6, "green": 6, "blue": 6}
    assert best_score({**base, "red": 6}) == best_score({**base, "red": 9}) == 63 - 21


def test_joker_goes_to_second_colour_when_the_best_has_six() -> None:
    b = score_breakdown({"yellow": 6, "green": 2, "joker": 1})
    assert b.total == 21 + 6
    assert b.jokers == {"green": 1}


def test_several_jokers_split_between_colours() -> None:
    b = score_breakdown({"yellow": 4, "green": 1, "joker": 3})
    assert b.total == 21 + 3  # two jokers complete six yellow, one makes two green
    assert b.jokers == {"yellow": 2, "green": 1}
    assert best_score({"joker": 3}) == 6  # three jokers as one colour


def test_plus_two_cards_are_always_positive() -> None:
    assert best_score({"+2": 4}) == 8
    colours = {c: 1 for c in COLOURS}
    assert best_score({**colours, "+2": 2}) == 3 - 4 + 4


def test_only_three_colours_score_plus() -> None:
    assert best_score({c: 2 for c in COLOURS}) == 3 * 3 - 4 * 3


def test_advanced_table_values() -> None:
    assert [colour_points(n, advanced=True) for n in range(8)] == [0, 1, 4, 8, 7, 6, 5, 5]
    assert best_score({"yellow": 4}, advanced=True) == 7


def test_advanced_plus_colours_are_best_values_not_most_cards() -> None:
    b = score_breakdown({"yellow": 5, "green": 3, "blue": 3, "grey": 3}, advanced=True)
    assert b.total == 24 - 6
    assert set(b.plus_colours) == {"green", "blue", "grey"}
    assert [c.points for c in b.colours if c.colour == "yellow"] == [-6]


def test_advanced_joker_may_open_a_colour_rather_than_spoil_a_three() -> None:
    b = score_breakdown({"yellow": 3, "joker": 1}, advanced=True)
    assert b.total == 8 + 1
    assert b.jokers != {"yellow": 1}


def test_jokers_only_become_colours_in_play() -> None:
    in_play = ["yellow", "green", "blue", "grey", "orange"]
    b = score_breakdown({"joker": 3}, colours=in_play)
    assert set(b.jokers) <= set(in_play)
    with pytest.raises(ValueError, match="not in play"):
        score_breakdown({"red": 1}, colours=in_play)


def test_bad_collections_are_refused() -> None:
    with pytest.raises(ValueError):
        score_breakdown({"last": 1})
    with pytest.raises(KeyError):
        score_breakdown({"purple": 1})
    with pytest.raises(ValueError):
        score_breakdown({"yellow": -1})


def test_breakdown_adds_up_and_is_json() -> None:
    b = score_breakdown({"green": 6, "yellow": 4, "red": 3, "blue": 2, "joker": 1, "+2": 1})
    data = b.to_json()
    assert data["total"] == sum(c["points"] for c in data["colours"]) + data["plus2_points"]
    assert data["colours"][1] == {
        "colour": "yellow",
        "cards": 4,
        "jokers": 1,
        "points": 15,
        "plus": True,
    }


@pytest.mark.parametrize("advanced", [False, True])
@pytest.mark.parametrize("colours_in_play", [5, 6, 7])
def test_exhaustive_search_matches_brute_force(advanced: bool, colours_in_play: int) -> None:
    rng = random.Random(colours_in_play * 2 + advanced)
    in_play = list(range(colours_in_play))
    scorer = Scorer.get(tuple(in_play), advanced)
    for _ in range(150):
        counts = [0] * 9
        for k in in_play:
            counts[k] = rng.choice([0, 0, 1, 2, 3, 4, 5, 6, 7])
        counts[JOKER] = rng.randrange(4)
        counts[PLUS2] = rng.randrange(4)
        expected = brute_force(counts, in_play, advanced)
        assert scorer.value(counts) == expected, counts
        names = [COLOURS[k] for k in in_play]
        b = score_breakdown(counts, advanced=advanced, colours=names)
        assert b.total == expected
        assert sum(b.jokers.values()) == counts[JOKER]


def test_scorer_gain() -> None:
    scorer = Scorer.get(tuple(range(7)), False)
    coll = [2, 0, 0, 0, 0, 0, 0, 0, 0]
    assert scorer.gain(coll, [0, PLUS2]) == (6 - 3) + 2
    assert scorer.gain(coll, []) == 0
    assert coll == [2, 0, 0, 0, 0, 0, 0, 0, 0]
