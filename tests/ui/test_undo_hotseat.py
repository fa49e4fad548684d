"""Undo (a person takes back their own decisions) and pass-and-play (several people at
one device, with or without bots) in the table session, for the three games."""

from __future__ import annotations

import json

import pytest

from optimus.core import RecordError
from optimus.core.record import CHANCE, replay
from optimus.core.registry import get_game
from optimus.core.rng import Rng
from optimus.games import listed
from optimus.ui import table as ui
from optimus.ui.seats import is_person
from optimus.ui.session import (
    A_DECISION,
    ANOTHER_PERSON,
    NOTHING_YET,
    WITH_REVEALS,
    TableSession,
    TakeBack,
)

GAMES = tuple(info.id for info in listed())


def people_play(session: TableSession, rng: Rng) -> tuple[int, str] | None:
    """One person's decision (at random), as the table would take it; None if a bot's turn."""
    seat = session.human_to_act()
    if seat is None:
        return None
    session.holder = seat
    move = rng.choice(session.state.legal_moves(seat))
    session.play(seat, move)
    return seat, move


def bots_answer(session: TableSession) -> None:
    while session.bot_to_act() is not None:
        session.think(slice_ms=50)


def test_undo_takes_back_the_persons_decision_before_and_after_the_bots_answer():
    s = TableSession(get_game("optimus"), {}, seed=11, seats=["human", "normal"])
    assert s.record.events[-1][0] == CHANCE  # the first roll
    nothing = s.take_back(0)
    assert nothing.events == 0 and nothing.why == NOTHING_YET
    assert s.undoable(0) == 0 and s.undo(0) is None  # nothing of the person's yet
    before = list(s.record.events)
    obs = s.state.observation(0)
    rng_state = s.match.rng
    move = s.state.legal_moves(0)[-1]
    s.play(0, move)  # everyone uses the same roll: the bot has not answered yet
    assert s.take_back(0) == TakeBack(1, move, reveals=False, answers=0)
    assert s.take_back(0).words() == A_DECISION and not s.take_back(0).asks(s.practice)
    assert s.undoable(0) == 1 and s.undoable(1) == 0
    assert s.undo(1) is None  # a bot's seat takes nothing back
    assert s.undo(0) == move
    assert s.record.events == before and s.state.observation(0) == obs
    assert s.match.rng is rng_state and not s.practice
    s.play(0, "pass")
    bots_answer(s)  # the bot answered and the next roll is out
    after = s.record.events[len(before) :]
    assert after[0] == (0, "pass") and after[-1][0] == CHANCE
    back = s.take_back(0)
    assert back.events == len(after) and back.move == "pass" and back.reveals
    assert back.answers == sum(1 for who, _ in after if who == 1) >= 1
    assert back.words() == WITH_REVEALS and back.asks(practice=False)
    assert not back.asks(practice=True)  # asked once: the game is practice already
    assert s.undo(0) == "pass"
    assert s.record.events == before and s.practice  # a roll was taken back: practice
    assert s.state.observation(0) == obs
    assert json.loads(s.save())["practice"] is True
    again = TableSession.load(get_game("optimus"), s.save())
    assert again.practice and again.record.events == before
    assert "practice" not in json.loads(TableSession(get_game("optimus"), {}, 1, ["human"]).save())


def test_a_taken_back_card_makes_the_game_practice_and_undo_never_crosses_a_person():
    s = TableSession(get_game("fileiras"), {}, seed=3, seats=["human", "human:Ana"])
    seat = s.human_to_act()
    assert seat is not None and s.state.legal_moves(seat) == ["draw"]
    s.play(seat, "draw")  # a card is drawn: taking it back is practice
    assert s.record.events[-1][0] == CHANCE
    back = s.take_back(seat)
    assert back.events == 2 and back.reveals and back.move == "draw"
    assert not s.handing_over(seat)
    s.play(seat, s.state.legal_moves(seat)[0])  # the card placed: the other person's turn
    other = s.human_to_act()
    assert other is not None and other != seat
    assert s.handing_over(seat) and not s.handing_over(other)  # Undo is off till they take it
    assert s.take_back(other).why == NOTHING_YET
    s.holder = other
    s.play(other, "draw")
    s.play(other, s.state.legal_moves(other)[0])
    refused = s.take_back(seat)  # the other person played since: never across them
    assert refused.events == 0 and refused.why == ANOTHER_PERSON
    assert s.undo(seat) is None and not s.practice
    assert s.undoable(other) == 2  # the other's place, then draw
    assert s.undo(other) is not None and not s.practice  # the place: nothing revealed
    assert s.undo(other) == "draw" and s.practice
    assert s.take_back(other).why == NOTHING_YET  # back to before any decision of theirs


@pytest.mark.parametrize("game", GAMES)
def test_undone_moves_leave_the_game_as_if_never_played(game):
    """People play at random, taking back some of their decisions (one or several in a
    row, as far as nothing revealed goes with them) and choosing again; the record is
    then exactly a game where the undone moves were never played, chance included (the
    generator is unaffected)."""
    rng = Rng(7)
    s = TableSession(get_game(game), {}, seed=21, seats=["human", "human:Ana", "easy"])
    undone = deepest = 0
    while not s.state.is_terminal():
        if s.bot_to_act() is not None:
            s.think(slice_ms=50)
            continue
        seat, _move = people_play(s, rng) or (0, "")
        back = s.take_back(seat)
        assert back.events or s.state.is_terminal()
        if back.events and not back.reveals and rng.random() < 0.5:
            events = list(s.record.events)
            taken = 0
            while (back := s.take_back(seat)).events and not back.reveals:
                assert s.undo(seat) == back.move
                taken += back.events
                assert s.record.events == events[:-taken]
                assert s.state.observation(None) == replay(s.record).observation(None)
            deepest = max(deepest, taken)
            undone += taken
    assert undone > 3 and not s.practice
    # The same choices made without taking any back give the same game, chance included.
    again = TableSession(get_game(game), {}, seed=21, seats=["human", "human:Ana", "easy"])
    for who, what in s.record.events:
        if who != CHANCE:
            assert isinstance(who, int)
            again.match.play(who, what)
    assert again.record.events == s.record.events
    if game == "optimus2":
        assert deepest >= 2  # a die and then its bonus's answers: several in a row


@pytest.mark.parametrize("game", GAMES)
def test_against_bots_undo_goes_back_decision_by_decision_to_the_start(game):
    """Alone against a bot, every decision of the person can be taken back, the bots'
    answers and the reveals with it, back to the game's first decision."""
    rng = Rng(5)
    s = TableSession(get_game(game), {}, seed=8, seats=["human", "easy"])
    bots_answer(s)
    start = list(s.record.events)
    decisions = 0
    while decisions < 6 and not s.state.is_terminal():
        if people_play(s, rng) is not None:
            decisions += 1
        bots_answer(s)
    assert s.undoable(0) == decisions
    for left in range(decisions, 0, -1):
        back = s.take_back(0)
        n = len(s.record.events)
        assert s.undo(0) == back.move and len(s.record.events) == n - back.events
        assert s.undoable(0) == left - 1
        assert s.state.observation(None) == replay(s.record).observation(None)
    assert s.record.events == start and s.take_back(0).why == NOTHING_YET
    assert s.practice == (game in ("fileiras", "optimus", "optimus2"))


def test_a_different_move_can_be_played_after_undo():
    s = TableSession(get_game("optimus"), {}, seed=5, seats=["human", "human:Ana"])
    s.holder = 0
    moves = s.state.legal_moves(0)
    assert len(moves) > 1
    s.play(0, moves[0])
    assert s.undo(0) == moves[0]
    s.play(0, moves[1])
    assert s.record.events[-1] == (0, moves[1])
    assert s.human_to_act() == 1  # Ana's turn to use the same roll


@pytest.mark.parametrize("game", GAMES)
def test_two_people_and_a_bot_play_to_the_end(game):
    """Pass-and-play: each decision is the person's whose turn it is; a simultaneous
    decision is made by each person in turn, and the second never sees the first's
    pending choice."""
    rng = Rng(3)
    seats = ["human", "easy", "human:Ana"]
    s = TableSession(get_game(game), {}, seed=9, seats=seats)
    assert s.people == [0, 2] and set(s.bots) == {1}
    handovers = hidden = 0
    while not s.state.is_terminal():
        if s.bot_to_act() is not None:
            s.think(slice_ms=50)
            continue
        seat = s.human_to_act()
        assert seat in (0, 2)
        if seat != s.holder:
            handovers += 1
        actors = s.state.actors()
        other = next((a for a in actors if a != seat and a in s.people), None)
        before = s.state.observation(other) if other is not None else None
        people_play(s, rng)
        if other is not None and other in s.state.actors():
            after = s.state.observation(other)
            assert _without_flags(after) == _without_flags(before), game
            hidden += 1
    assert handovers > 5
    assert s.state.outcome().winners
    if game != "fileiras":  # Optimus, Optimus 2: rolls everyone uses
        assert hidden > 0
    names = ui.seat_names(s.seats, "Rui")
    assert names == ["Rui", ui.seat_names(["human", "easy"])[1], "Ana"]


def _without_flags(obs: dict) -> dict:
    """An observation without who has already chosen (Optimus shows that, never what)."""
    return {k: v for k, v in obs.items() if k != "chosen"}


def test_saves_keep_the_people_and_their_names():
    game = get_game("optimus2")
    s = TableSession(game, {}, seed=4, seats=["human", "human:Ana Luísa", "hard"])
    while s.human_to_act() is None:
        s.think(slice_ms=50)
    seat = s.human_to_act()
    assert seat is not None
    s.play(seat, s.state.legal_moves(seat)[0])
    text = s.save()
    again = TableSession.load(game, text, max_humans=6)
    assert again.seats == ["human", "human:Ana Luísa", "hard"]
    assert again.people == [0, 1] and again.record.events == s.record.events
    assert ui.seat_names(again.seats) == ["Player 1", "Ana Luísa", "Hard bot 2"]
    with pytest.raises(RecordError, match="2 human seats"):
        TableSession.load(game, text, max_humans=1)


@pytest.mark.parametrize("name", ["<b>Ana</b>", 'Ana" onclick="x', " Ana", "x" * 40, "_Ana"])
def test_a_name_with_markup_is_refused(name):
    assert ui.person_name(name) != name  # refused (None) or tidied
    data = json.loads(TableSession(get_game("fileiras"), {}, 1, ["human", "easy"]).save())
    data["seats"] = ["human", f"human:{name}"]
    with pytest.raises(RecordError):
        TableSession.load(get_game("fileiras"), json.dumps(data), max_humans=6)


def test_names_are_tidied_and_kinds_told_apart():
    assert ui.person_name("  Ana   Luísa ") == "Ana Luísa"
    assert ui.person_name("O'Neil-2") == "O'Neil-2"
    assert [is_person(k) for k in ("human", "human:Ana", "normal", "mod:Bot")] == [
        True,
        True,
        False,
        False,
    ]
    assert ui.human_seat(["easy", "human:Ana", "human"]) == 2
