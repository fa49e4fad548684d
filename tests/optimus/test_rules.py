"""Every rule of shared/reference/optimus.md, one or more tests each."""

from __future__ import annotations

import itertools

import pytest

from optimus.core.protocol import IllegalMove, play
from optimus.optimus.game import (
    COLOUR_FACES,
    JOKERS,
    NUMBER_FACES,
    SOLO_ROLLS,
    OptimusState,
    solo_band,
)
from optimus.optimus.sheet import COLOURS, COLUMN_MASKS, COLUMN_POINTS, box_name

from .scenario import after_open_rolls, fresh, mask, roll, solo_roll


def refused(state: OptimusState, player: int, move: str, reason: str) -> None:
    with pytest.raises(IllegalMove) as exc:
        play(state, player, move)
    assert reason in exc.value.reason


# -- dice ---------------------------------------------------------------------


def test_three_colour_dice_with_a_joker_and_three_number_dice_with_a_joker() -> None:
    s = fresh(3)
    faces = []
    while s.is_chance():
        outcomes = s.chance_outcomes()
        assert all(w == 1 for _, w in outcomes)
        faces.append("".join(o for o, _ in outcomes))
        s.apply_chance(outcomes[0][0])
    assert faces == [COLOUR_FACES] * 3 + [NUMBER_FACES] * 3
    assert COLOUR_FACES == "gybrox" and NUMBER_FACES == "12345?"


def test_solo_rolls_two_colour_and_two_number_dice() -> None:
    s = fresh(1)
    events = 0
    while s.is_chance():
        s.apply_chance(s.chance_outcomes()[0][0])
        events += 1
    assert events == 4 and s.dice_c == ["g", "g"] and s.dice_n == ["1", "1"]


# -- a roll ---------------------------------------------------------------------


def test_first_three_rolls_everyone_chooses_from_all_six_at_once() -> None:
    s = fresh(3)
    for r in (1, 2, 3):
        assert s.roll == r and s.active == (r - 1) % 3
        roll(s, "yrg", "213")
        assert s.phase == "all" and s.actors() == (0, 1, 2)
        for p in range(3):
            assert s.open_dice(p) == (["y", "r", "g"], ["2", "1", "3"])
            play(s, p, "pass")
    roll(s, "yrg", "213")
    assert s.roll == 4 and s.phase == "active" and s.actors() == (0,)


def test_others_choose_from_the_four_dice_the_active_player_left() -> None:
    s = after_open_rolls(fresh(3))
    roll(s, "yrg", "213")
    assert s.actors() == (0,)
    play(s, 0, "y2 H2 H3")
    assert s.phase == "others" and s.actors() == (1, 2)
    assert s.open_dice(1) == (["r", "g"], ["1", "3"])
    legal = s.legal_moves(1)
    assert "r1 H1" in legal and all(m == "pass" or m[0] in "rg" and m[1] in "13" for m in legal)
    refused(s, 1, "y2 H2 H3", "the active player took the others")
    refused(s, 1, "r2 H1 I1", "no number die shows '2'")
    refused(s, 0, "pass", "already chosen")


def test_a_waiting_player_is_told_the_active_player_chooses_first() -> None:
    s = after_open_rolls(fresh(3))
    roll(s, "yrg", "213")
    refused(s, 2, "pass", "the active player (player 0) chooses first")


def test_a_die_with_a_twin_face_stays_open_after_the_active_takes_one() -> None:
    s = after_open_rolls(fresh(2), 5)  # active: seat 0
    roll(s, "yyg", "223")
    play(s, 0, "y2 H2 H3")
    assert s.open_dice(1) == (["y", "g"], ["2", "3"])
    assert "y2 H2 H3" in s.legal_moves(1)


def test_when_the_active_player_passes_the_others_choose_from_all_six() -> None:
    s = after_open_rolls(fresh(3))
    roll(s, "yrg", "213")
    play(s, 0, "pass")
    assert s.open_dice(1) == (["y", "r", "g"], ["2", "1", "3"])
    assert "y2 H2 H3" in s.legal_moves(1)


def test_several_players_may_choose_the_same_pair() -> None:
    s = after_open_rolls(fresh(3))
    roll(s, "yrg", "213")
    play(s, 0, "g3 H4 G5 H5")
    play(s, 1, "r1 H1")
    play(s, 2, "r1 H1")
    assert s.marks == [mask("H4", "G5", "H5"), mask("H1"), mask("H1")]
    assert s.roll == 5 and s.phase == "roll"


def test_everyone_may_pass_and_nothing_is_marked() -> None:
    s = after_open_rolls(fresh(2))
    roll(s, "xrg", "?13")
    play(s, 1, "pass")
    play(s, 0, "pass")
    assert s.marks == [0, 0] and s.jokers_used == [0, 0]


def test_others_choices_are_hidden_until_everyone_has_chosen() -> None:
    s = after_open_rolls(fresh(4))
    roll(s, "yrg", "213")
    play(s, 3, "pass")  # roll 4: seat 3 is active
    a, b = s.clone(), s.clone()
    play(a, 0, "r1 H1")
    play(b, 0, "pass")
    for p in (None, 1, 2):
        assert a.observation(p) == b.observation(p)
    assert a.observation(1)["chosen"] == [True, False, False, False]
    play(a, 1, "pass")
    play(a, 2, "pass")
    assert a.marks[0] == mask("H1")
    assert {"event": "choice", "player": 0, "move": "r1 H1"} in a.observation(1)["log"]


def test_the_active_choice_is_public_before_the_others_choose() -> None:
    s = after_open_rolls(fresh(3))
    roll(s, "yrg", "213")
    play(s, 0, "y2 H2 H3")
    assert s.observation(1)["active_move"] == "y2 H2 H3"
    assert s.observation(1)["open_dice"] == {"colour": ["r", "g"], "number": ["1", "3"]}


# -- jokers and "!" --------------------------------------------------------------


def test_x_names_any_colour_and_question_mark_any_number() -> None:
    s = after_open_rolls(fresh(2), 5)
    roll(s, "xgg", "?11")
    legal = s.legal_moves(0)
    assert "x1 H1" in legal and "x1 H2" in legal and "x1 H6" in legal
    assert "g? H4 H5" in legal and "g? H4" in legal
    assert "x? H6 G6 H7" not in legal  # two colours
    assert "x? H1 I1 J1" in legal


def test_each_joker_costs_one_exclamation_mark_when_the_marks_are_made() -> None:
    s = after_open_rolls(fresh(2), 5)
    roll(s, "xxg", "??1")
    play(s, 0, "x? H1 I1 J1")
    assert s.jokers_used == [0, 0]  # not yet: the others still choose
    play(s, 1, "x1 H2")
    assert s.jokers_used == [2, 1]
    assert s.breakdown(0)["jokers"] == JOKERS - 2


def test_passing_never_spends_an_exclamation_mark() -> None:
    s = solo_roll("xx", "??")
    play(s, 0, "pass")
    assert s.jokers_used == [0]


def test_no_exclamation_mark_left_means_no_joker() -> None:
    s = after_open_rolls(fresh(1))
    s.jokers_used[0] = JOKERS
    roll(s, "xr", "?1")
    legal = s.legal_moves(0)
    assert legal == ["pass", "r1 H1"]
    refused(s, 0, "x1 H2", "would cost 1 '!' and you have 0")


def test_two_jokers_need_two_exclamation_marks() -> None:
    s = after_open_rolls(fresh(1))
    s.jokers_used[0] = JOKERS - 1
    roll(s, "xr", "?1")
    legal = s.legal_moves(0)
    assert "x1 H2" in legal and "r? H1 I1" in legal
    assert not any(m.startswith("x?") for m in legal)
    refused(s, 0, "x? H2 H3", "would cost 2 '!' and you have 1")


# -- marking ----------------------------------------------------------------------


def test_column_h_is_a_valid_start_and_other_boxes_need_a_marked_neighbour() -> None:
    s = solo_roll("yr", "21")
    assert "y2 H2 H3" in s.legal_moves(0) and "y2 G2 H2" in s.legal_moves(0)
    refused(s, 0, "y2 F1 G1", "column H or next to a box you marked before")


def test_column_h_stays_a_valid_start_later_in_the_game() -> None:
    s = after_open_rolls(fresh(1), 12)
    s.marks[0] = mask("A1", "B1", "A2")
    roll(s, "bg", "11")
    assert "b1 H7" in s.legal_moves(0)
    assert "g1 B2" in s.legal_moves(0) and "g1 C7" not in s.legal_moves(0)


def test_never_diagonal() -> None:
    s = solo_roll("rr", "11", "H1")
    assert "r1 I1" in s.legal_moves(0)
    refused(s, 0, "r1 I2", "column H or next to a box you marked before")


@pytest.mark.parametrize(
    ("colours", "numbers", "marked", "move", "reason"),
    [
        ("yg", "32", (), "y3 H2 H3", "exactly 3 boxes, not 2"),
        ("yg", "32", (), "g2 H2 H3", "H2 is yellow, not green"),
        ("yg", "32", (), "y2 H2 H2", "listed twice"),
        ("yy", "22", ("H3", "I3", "H4"), "y2 H2 I4", "one block"),
        ("yy", "22", ("H2",), "y2 H2 H3", "H2 is already marked"),
        ("yy", "22", (), "mark H2", "moves are 'pass' or two dice faces"),
        ("yy", "22", (), "y2 Z9", "is not a box"),
        ("yy", "22", (), "y2 H3 H2", "write the boxes in reading order: 'y2 H2 H3'"),
    ],
    ids=[
        "count",
        "colour",
        "twice",
        "across-blocks",
        "already-marked",
        "unknown-text",
        "no-such-box",
        "reading-order",
    ],
)
def test_a_marking_against_the_rules_is_refused_with_its_reason(
    colours: str, numbers: str, marked: tuple[str, ...], move: str, reason: str
) -> None:
    refused(solo_roll(colours, numbers, *marked), 0, move, reason)


def test_new_marks_must_be_connected_among_themselves() -> None:
    s = solo_roll("rr", "22", "I1")
    # H1 and J1 are in one red block, but only through the marked I1
    refused(s, 0, "r2 H1 J1", "one group joined side by side")
    assert "r2 H1 J1" not in s.legal_moves(0) and "r2 J1 J2" in s.legal_moves(0)


# -- completing columns and colours -----------------------------------------------


def _all_but(column: int, box: str) -> int:
    return COLUMN_MASKS[column] & ~mask(box)


def test_same_roll_column_completions_all_score_first_later_ones_score_later() -> None:
    s = after_open_rolls(fresh(3))  # roll 4: active seat 0
    for p in range(3):
        s.marks[p] = _all_but(0, "A5")  # A5: the orange box of one
    roll(s, "oog", "112")
    play(s, 0, "o1 A5")
    play(s, 1, "o1 A5")
    play(s, 2, "pass")
    assert [s.breakdown(p)["columns"] for p in range(3)] == [5, 5, 0]
    roll(s, "oog", "112")  # roll 5: active seat 1
    play(s, 1, "pass")
    play(s, 0, "pass")
    play(s, 2, "o1 A5")
    assert [s.breakdown(p)["columns"] for p in range(3)] == [5, 5, 3]


def test_every_column_pays_its_published_points() -> None:
    assert COLUMN_POINTS == (
        (5, 3), (3, 2), (3, 2), (3, 2), (2, 1), (2, 1), (2, 1), (1, 0),
        (2, 1), (2, 1), (2, 1), (3, 2), (3, 2), (3, 2), (5, 3),
    )  # fmt: skip
    s = fresh(2)
    s.marks = [(1 << 105) - 1, (1 << 105) - 1]
    s.column_roll = [[4] * 15, [6] * 15]
    s.column_first = [4] * 15
    assert s.breakdown(0)["columns"] == sum(f for f, _ in COLUMN_POINTS) == 41
    assert s.breakdown(1)["columns"] == sum(later for _, later in COLUMN_POINTS) == 24


def _orange_but_a5() -> int:
    s = fresh(1)
    return s.layout.colour_masks[COLOURS.index("o")] & ~mask("A5")


@pytest.mark.parametrize("bonuses", [True, False])
def test_colour_bonus_five_first_ties_included_three_later_or_off(bonuses: bool) -> None:
    s = after_open_rolls(fresh(3, bonuses=bonuses))
    for p in range(3):
        s.marks[p] = _orange_but_a5() | mask("A4", "A6")
    roll(s, "oog", "112")
    play(s, 0, "o1 A5")
    play(s, 1, "o1 A5")
    play(s, 2, "pass")
    roll(s, "oog", "112")
    play(s, 1, "pass")
    play(s, 0, "pass")
    play(s, 2, "o1 A5")
    expected = [5, 5, 3] if bonuses else [0, 0, 0]
    assert [s.breakdown(p)["colours"] for p in range(3)] == expected
    assert [s.colours_done(p) for p in range(3)] == [1, 1, 1]
    assert not s.is_terminal()


def test_the_game_ends_after_the_roll_in_which_someone_completes_a_second_colour() -> None:
    s = after_open_rolls(fresh(3))
    green = s.layout.colour_masks[COLOURS.index("g")]
    s.marks[2] = green | _orange_but_a5() | mask("A4", "A6")
    s.colour_roll[2][COLOURS.index("g")] = 2
    s.colour_first[COLOURS.index("g")] = 2
    roll(s, "oyr", "121")
    play(s, 0, "y2 H2 H3")
    play(s, 2, "o1 A5")  # second colour: the roll is still finished by everyone
    assert not s.is_terminal() and s.actors() == (1,)
    play(s, 1, "r1 H1")
    assert s.is_terminal()
    assert s.marks[0] == mask("H2", "H3") and s.marks[1] == mask("H1")
    assert s.colours_done(2) == 2


def test_one_completed_colour_does_not_end_the_game() -> None:
    s = after_open_rolls(fresh(2))
    s.marks[0] = _orange_but_a5() | mask("A4", "A6")
    roll(s, "oyr", "121")
    play(s, 1, "pass")
    play(s, 0, "o1 A5")
    assert s.colours_done(0) == 1 and not s.is_terminal()


# -- end and score ---------------------------------------------------------------


def test_score_is_columns_plus_bonuses_plus_unused_marks_minus_two_per_unmarked_star() -> None:
    s = fresh(2)
    assert s.breakdown(0) == {"columns": 0, "colours": 0, "jokers": 8, "stars": -30, "total": -22}
    star = box_name(s.layout.star_mask.bit_length() - 1)
    s.marks[0] = mask(star)
    s.jokers_used[0] = 3
    s.column_roll[0][0], s.column_first[0] = 4, 4
    s.colour_roll[0][1], s.colour_first[1] = 5, 2
    assert s.breakdown(0) == {"columns": 5, "colours": 3, "jokers": 5, "stars": -28, "total": -15}
    assert s.scores()[0] == -15.0


def test_tie_break_most_unused_exclamation_marks_then_shared() -> None:
    s = fresh(3)
    s.jokers_used = [2, 0, 0]
    s.column_roll[0][7] = s.column_first[7] = 1  # +1 for seat 0: ties on points with 1 and 2
    s.column_roll[0][4] = s.column_first[4] = 1  # +2
    # seat 0: 3 + 6 - 30 = -21; seats 1, 2: 8 - 30 = -22
    assert s.scores() == [-21.0, -22.0, -22.0]
    s.jokers_used = [3, 0, 1]
    # seat 0: 3 + 5 - 30 = -22 ties with seat 1 (8 unused) on points; seat 2 has -23
    out = s.outcome()
    assert out.scores == (-22.0, -22.0, -23.0) and out.winners == (1,)
    s.jokers_used = [3, 3, 1]
    s.column_roll[1][4] = 1
    s.column_roll[1][7] = 1
    assert s.outcome().winners == (0, 1)


# -- solo --------------------------------------------------------------------------


def test_solo_lasts_thirty_rolls_even_after_two_colours() -> None:
    s = fresh(1)
    s.marks[0] = (1 << 105) - 1 & ~mask("A5")
    for c in range(1, 15):  # every column but A was completed in roll 1
        s.column_roll[0][c] = s.column_first[c] = 1
    for k in range(4):  # so were four colours: orange (A5) is the fifth
        s.colour_roll[0][k] = s.colour_first[k] = 1
    for r in range(1, SOLO_ROLLS + 1):
        assert s.roll == r and not s.is_terminal()
        roll(s, "og", "11")
        assert s.actors() == (0,)
        play(s, 0, "o1 A5" if r == 1 else "pass")
    assert s.is_terminal() and s.colours_done(0) == 5
    b = s.breakdown(0)
    assert b["columns"] == 41 and b["colours"] == 25  # first values always
    assert s.observation(0)["solo_band"] == solo_band(b["total"]) == "above 40"


def test_solo_rating_bands() -> None:
    expected = {-1: "below 0", 0: "0", 1: "1-4", 4: "1-4", 5: "5-8", 16: "13-16", 17: "17-20"}
    expected.update({28: "25-28", 29: "29-32", 40: "37-40", 41: "above 40", 99: "above 40"})
    for score, band in expected.items():
        assert solo_band(score) == band


# -- information -----------------------------------------------------------------------


def test_everything_but_pending_choices_is_public() -> None:
    s = after_open_rolls(fresh(3))
    s.marks[1] = mask("H1", "I1")
    s.jokers_used[2] = 4
    roll(s, "yrg", "213")
    views = [s.observation(p) for p in (None, 0, 1, 2)]
    for v in views:
        assert v["marks"][1] == ["H1", "I1"] and v["jokers_used"][2] == 4
        assert v["dice"] == {"colour": ["y", "r", "g"], "number": ["2", "1", "3"]}
    strip = [{k: x for k, x in v.items() if k not in ("you", "open_dice")} for v in views]
    assert all(x == strip[0] for x in strip)


def test_brute_force_box_sets_are_unique_in_legal_moves() -> None:
    s = solo_roll("xg", "?2")
    legal = s.legal_moves(0)
    assert len(legal) == len(set(legal))
    by_dice = {}
    for m in legal[1:]:
        dice, _, boxes = m.partition(" ")
        by_dice.setdefault(dice, []).append(boxes)
    for boxes in by_dice.values():
        assert len(boxes) == len(set(boxes))
    for dice in ("x?", "x2", "g?", "g2"):
        assert dice in by_dice
    assert set(itertools.chain(by_dice["g2"])) <= set(by_dice["x2"])
