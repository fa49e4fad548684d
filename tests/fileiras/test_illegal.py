"""Illegal moves are refused on the checked path, each with a specific reason."""

from __future__ import annotations

import pytest

from optimus.core.protocol import IllegalMove, play
from optimus.fileiras.game import FileirasState

from .scenario import draw_place, run, start


def refuse(state, player: int, move: str, reason: str) -> None:  # type: ignore[no-untyped-def]
    before = state.observation(None)
    with pytest.raises(IllegalMove) as info:
        play(state, player, move)
    assert reason in info.value.reason
    assert state.observation(None) == before  # nothing changed


def red_on_row_1() -> FileirasState:
    """Four players, player 0 first, who has drawn a red card and placed it on row 1."""
    s = start(4, first=0)
    draw_place(s, "red", 1)
    return s


def test_place_before_drawing() -> None:
    s = red_on_row_1()
    refuse(s, 1, "place 2", "there is no drawn card to place: draw first")


def test_must_place_the_drawn_card_first() -> None:
    s = red_on_row_1()
    run(s, "draw", "blue")
    refuse(s, 1, "take 1", "you must place the drawn card (blue) first")
    refuse(s, 1, "draw", "you must place the drawn card (blue) first")


def test_take_an_empty_row() -> None:
    s = red_on_row_1()
    refuse(s, 1, "take 2", "row 2 is empty: there is nothing to take")


def test_row_already_taken() -> None:
    s = red_on_row_1()
    run(s, "take 1")
    refuse(s, 2, "take 1", "row 1 was already taken this round (by player 1)")
    run(s, "draw", "green")
    refuse(s, 2, "place 1", "row 1 was already taken this round")


def test_row_full() -> None:
    s = start(4, first=0)
    for _ in range(3):
        draw_place(s, "red", 1)
    run(s, "draw", "green")
    refuse(s, 3, "place 1", "row 1 is full (3 of 3 cards)")


def test_must_take_when_all_rows_full() -> None:
    s = start(2, first=0)
    for row in (1, 2, 2, 3, 3, 3):
        draw_place(s, "yellow", row)
    refuse(s, 0, "draw", "every row still on the table is full: you must take a row")


def test_player_who_already_took() -> None:
    s = start(3, first=0)
    draw_place(s, "red", 1)
    run(s, "take 1")  # player 1
    assert s.explain_illegal(1, "draw") == "you already took a row this round (row 1)"
    refuse(s, 1, "draw", "you already took a row this round")  # the checked path says so too


def test_not_your_turn() -> None:
    s = start(3, first=0)
    assert s.explain_illegal(2, "draw") == "it is not your turn (player 0 is to play)"
    refuse(s, 2, "draw", "it is not your turn (player 0 is to play)")


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("take 9", "there is no row '9' (rows are 1-4)"),
        ("take x", "there is no row 'x'"),
        ("take 0", "there is no row '0'"),
        ("take ²", "there is no row '²'"),  # str.isdigit says yes, int says no
        ("take ①", "there is no row '①'"),
        ("take " + "1" * 5000, "there is no row '11111"),  # past int()'s 4,300 digits
        ("pass", "unknown move"),
        ("draw 2", "unknown move"),
        ("take", "unknown move"),
    ],
)
def test_malformed_moves(move: str, reason: str) -> None:
    s = red_on_row_1()
    refuse(s, 1, move, reason)


def test_chance_pending_and_game_over() -> None:
    s = start(3, first=0)
    run(s, "draw")
    refuse(s, 0, "place 1", "a chance event")
    assert s.explain_illegal(0, "place 1").startswith("a chance event")
    s.phase = "over"
    refuse(s, 0, "draw", "the game is over")
    assert s.explain_illegal(0, "draw") == "the game is over"
