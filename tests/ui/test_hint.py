"""The hint (optimus.ui.hint): the move ``hard`` would make at the same budget and seed,
the budget a ``hard`` seat of the table gets, and a line saying why."""

from __future__ import annotations

import pytest

from optimus import i18n
from optimus.core.bots import Budget
from optimus.core.registry import get_game
from optimus.core.rng import Rng, derive_seed
from optimus.ui.hint import Hint
from optimus.ui.session import DECISION_MS, TableSession, decision_ms, table_budget
from sitebuild.i18n import install

CASES = [
    ("optimus", ["human", "normal"], Budget(iterations=2)),
    ("optimus", ["human"], Budget(iterations=2)),
    ("optimus2", ["human", "normal"], Budget(iterations=4)),
    ("optimus2", ["human"], None),  # alone: the value network, no search
    ("fileiras", ["human", "normal", "normal"], Budget(iterations=12)),
]
POSITIONS = 4
"""The person's decisions checked per game (each a new position)."""


def _bots_to_person(session: TableSession) -> int:
    while session.human_to_act() is None:
        assert session.think(slice_ms=1000) is not None or session.bot_to_act() is not None
    seat = session.human_to_act()
    assert seat is not None
    return seat


@pytest.mark.parametrize(("game_id", "seats", "budget"), CASES)
def test_the_hint_is_hards_move_at_the_same_budget_and_seed(game_id, seats, budget):
    game = get_game(game_id)
    session = TableSession(game, {}, 11, seats, budget)
    hard = game.bot_levels()["hard"]
    checked = 0
    while checked < POSITIONS and not session.state.is_terminal():
        seat = _bots_to_person(session)
        legal = session.state.legal_moves(seat)
        if len(legal) < 2:
            session.play(seat, legal[0])
            continue
        obs = session.state.observation(seat)
        found = Hint(session, seat).finish()
        # hard itself, built apart: the same seed (of the position) and the same budget
        seed = derive_seed(11, "hint", seat, len(session.record.events))
        mine = table_budget(hard, budget, decision_ms(0, session.wait_ms))
        assert found.move == hard(game, seat, Rng(seed), mine).choose(obs, legal)
        assert found.values[found.move] is not None and found.moves == len(legal)
        assert found.why()
        # nothing was played: the position is the same, and the hint is for it still
        assert session.state.legal_moves(seat) == legal
        # play another move than the hint now and then, so positions differ from hard's game
        session.play(seat, found.move if checked % 2 else legal[-1])
        checked += 1
    assert checked == POSITIONS


def test_the_hint_thinks_with_the_budget_of_a_hard_seat_at_the_table():
    game = get_game("fileiras")
    session = TableSession(game, {}, 3, ["human", "hard"])
    hard = game.bot_levels()["hard"]
    assert session.coach_bot(0).budget == table_budget(hard, None, DECISION_MS)
    assert session.bots[1].budget == table_budget(hard, None, DECISION_MS)
    session.wait_ms = 4000.0  # "Bots think: carefully"
    assert session.coach_bot(0).budget == table_budget(hard, None, 2000.0)
    assert type(session.coach_bot(0)) is hard


def test_the_hint_is_for_its_position_only():
    session = TableSession(get_game("fileiras"), {}, 2, ["human", "normal"], Budget(iterations=4))
    seat = _bots_to_person(session)
    hint = Hint(session, seat)
    assert hint.current()
    session.play(seat, hint.finish().move)
    assert not hint.current()


def test_the_why_line_says_the_points_now_and_the_value_against_the_next_best():
    from optimus.ui.hint import Found

    found = Found("take 2", 3.0, {"take 2": 5.25, "draw": 4.0, "take 1": 1.0}, 3)
    assert found.why() == (
        "+3 points now. The coach values it 1.2 points above its next best (3 moves weighed)."
    )
    close = Found("draw", 0.0, {"draw": 4.0, "take 1": 3.99}, 2).why()
    assert close == "The coach values it about as much as its next best (2 moves weighed)."
    assert Found("pass", 0.0, {"pass": 0.0}, 1).why() == "It is the only move."
    install("pt")
    i18n.use("pt")
    try:
        said = found.why()
    finally:
        i18n.use("en")
    assert "3" in said and "coach values" not in said
