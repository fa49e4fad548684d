"""Learn to play (optimus.ui.lesson): every game's lesson is legal on its fixed deal,
and the runner moves on with the right tap and explains a wrong one."""

from __future__ import annotations

import pytest

from optimus.core.registry import get_game
from optimus.games import GAMES, call
from optimus.ui import lesson as guide
from optimus.ui.lesson import Lesson, Run, Step

WITH_LESSONS = [info.id for info in GAMES.values() if info.lesson]


def test_every_listed_game_has_a_lesson() -> None:
    assert [info.id for info in GAMES.values() if info.listed] == WITH_LESSONS


@pytest.mark.parametrize("game_id", WITH_LESSONS)
def test_every_step_is_legal_on_the_fixed_deal(game_id: str) -> None:
    info = GAMES[game_id]
    lesson: Lesson = call(info.lesson)
    assert 6 <= len(lesson.steps) <= 10
    assert info.players[0] <= len(lesson.seats) <= info.players[1]
    assert all(level in info.levels for level in lesson.bots)
    assert lesson.steps[-1].kind == "read"  # the rest is the person's
    assert "Hint" in lesson.steps[-1].text
    checked = guide.replay(lesson, get_game(game_id))
    kinds = [s.kind for s in lesson.steps]
    assert [i for i, _legal in checked] == [i for i, k in enumerate(kinds) if k == "move"]
    assert checked
    for i, legal in checked:  # a real choice: a wrong move exists to be explained
        step = lesson.steps[i]
        assert set(step.moves) <= set(legal)
    assert any(len(legal) > len(lesson.steps[i].moves) for i, legal in checked)


@pytest.mark.parametrize("game_id", WITH_LESSONS)
def test_a_wrong_first_move_is_caught_by_the_replay(game_id: str) -> None:
    lesson: Lesson = call(GAMES[game_id].lesson)
    first = next(i for i, s in enumerate(lesson.steps) if s.moves)
    broken = list(lesson.steps)
    broken[first] = broken[first]._replace(moves=("no such move",))
    with pytest.raises(ValueError, match=f"step {first + 1}"):
        guide.replay(lesson._replace(steps=tuple(broken)), get_game(game_id))


def lesson_of_four() -> Lesson:
    return Lesson(
        seed=1,
        steps=(
            Step("status", "Read this"),
            Step("die:y", "Tap the die", tap=True),
            Step("move", "Mark", moves=("y1 H2",), wrong="Mark H2"),
            Step("status", "Yours now"),
        ),
    )


def test_a_read_step_waits_for_next() -> None:
    run = Run(lesson_of_four())
    verdict = run.judge("y1 H2", on_target=False, lit=True)
    assert not verdict.go and verdict.said == guide.READ_FIRST and run.index == 0
    run.next()
    assert run.index == 1 and run.step is not None and run.step.kind == "tap"


def test_the_right_tap_and_the_right_move_move_on() -> None:
    run = Run(lesson_of_four())
    run.next()
    assert run.judge(None, on_target=True, lit=True).go and run.index == 2
    assert run.judge(None, on_target=False, lit=True).go  # a step of the move: goes
    assert run.index == 2
    assert run.judge("y1 H2", on_target=True, lit=True, events=3).go
    assert run.index == 3 and run.last and not run.over
    run.next()
    assert run.over and run.judge("anything", on_target=False, lit=True).go


def test_a_wrong_tap_is_explained_and_does_not_move_on() -> None:
    run = Run(lesson_of_four())
    run.next()
    verdict = run.judge(None, on_target=False, lit=True)
    assert verdict == guide.Verdict(False, guide.NOT_THAT) and run.index == 1
    assert run.judge(None, on_target=True, lit=False).said == guide.NOT_LIT
    run.judge(None, on_target=True, lit=True)
    verdict = run.judge("pass", on_target=False, lit=True)
    assert verdict == guide.Verdict(False, "Mark H2") and run.index == 2


def test_undo_of_a_lesson_move_shows_its_steps_again() -> None:
    run = Run(lesson_of_four())
    run.next()
    run.judge(None, on_target=True, lit=True)
    run.judge("y1 H2", on_target=True, lit=True, events=7)
    run.undone(9)  # the record grew: nothing taken back
    assert run.index == 3
    run.undone(7)
    assert run.index == 1


def test_skip_ends_the_lesson() -> None:
    run = Run(lesson_of_four())
    run.skip()
    assert run.over and run.step is None
    assert run.judge(None, on_target=False, lit=False).go


def test_a_lesson_game_is_practice_and_stays_so_when_resumed() -> None:
    from optimus.ui.session import TableSession

    lesson: Lesson = call(GAMES["fileiras"].lesson)
    game = get_game("fileiras")
    session = TableSession(game, dict(lesson.options), lesson.seed, lesson.seats)
    session.practice = session.lesson = True
    resumed = TableSession.load(game, session.save())
    assert resumed.lesson and resumed.practice
    plain = TableSession.load(game, TableSession(game, {}, 1, ["human", "easy"]).save())
    assert not plain.lesson and not plain.practice
