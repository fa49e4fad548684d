"""The review as the page shows it (optimus.ui.review_view) and its accuracy in the records.

Pure: a game played here in CPython is reviewed in slices as the page runs it; what
the page shows (the accuracy, the costliest decisions, the chart, the grades' steps)
is checked against the review itself; the accuracy kept with a record survives a
dump, a merge and an old store without it.
"""

from __future__ import annotations

import json

import pytest

from optimus.core.arena import play_record
from optimus.core.registry import get_game
from optimus.core.review import GRADES, Review
from optimus.games import GAMES, listed
from optimus.ui import records, review_view, stats


@pytest.fixture(scope="module")
def reviewed() -> review_view.ReviewRun:
    """A two-player Fileiras game, seat 0 an ``easy`` bot standing in for a person."""
    game = get_game("fileiras")
    record = play_record(game, ["easy", "hard"], 4, {"players": 2})
    run = review_view.ReviewRun(game, record, [0])
    slices = 0
    while run.step(5.0):
        slices += 1
        assert 0 <= run.done <= run.total
    assert slices > 1  # the page gets its turn back between slices
    return run


def test_slices_give_the_same_review_as_one_go(reviewed: review_view.ReviewRun) -> None:
    game = get_game("fileiras")
    whole = Review(game, reviewed.review.record, [0]).finish()
    assert reviewed.finished and not reviewed.cancelled and reviewed.percent == 100
    assert whole.decisions == reviewed.review.decisions


def test_a_cancelled_review_stops_and_leaves_the_record_as_it_was() -> None:
    game = get_game("optimus2")
    record = play_record(game, ["easy"], 2, {"players": 1})
    before = record.to_json()
    run = review_view.ReviewRun(game, record, [0])
    assert run.step(1.0)
    run.cancel()
    assert run.cancelled and not run.finished and not run.step(25.0)
    assert run.done < run.total and record.to_json() == before


def test_the_summary_and_the_costliest_decisions_agree_with_the_review(
    reviewed: review_view.ReviewRun,
) -> None:
    review = reviewed.review
    s = review_view.summary(review)
    seat = review.accuracy()[0]
    assert (s.decisions, s.mean_loss, s.best_share) == (
        seat.decisions,
        seat.mean_loss,
        seat.best_share,
    )
    assert [g for g, _ in s.counts] == list(GRADES)
    assert sum(n for _, n in s.counts) == s.decisions
    kept = s.kept()
    assert kept["coach"] == "hard" and kept["decisions"] == s.decisions
    costly = review_view.costliest(review.decisions)
    assert costly and all(d.loss > 0 and d.move != d.best for d in costly)
    worst = max(d.loss for d in review.decisions)
    assert costly[0].loss == worst
    assert "%" in review_view.summary_words(s)


def test_the_chart_has_a_point_per_decision_and_marks_each_round(
    reviewed: review_view.ReviewRun,
) -> None:
    review = reviewed.review
    events = [d.event for d in review.decisions]
    rounds = review_view.decision_rounds(get_game("fileiras"), review.record, events)
    assert set(rounds) == set(events)
    chart = review_view.value_chart(review.decisions, rounds, stats.Box())
    assert len(chart.played.split()) == len(chart.best.split()) == len(review.decisions)
    seen = [r for r in dict.fromkeys(rounds[e] for e in events) if r is not None]
    marked = [n for n, _ in chart.rounds]
    assert len(seen) > 1 and marked[0] == seen[0] and len(marked) > 1
    assert [n for n in seen if n in marked] == marked  # in order, some left out for room
    xs = [x for _, x in chart.rounds]
    assert all(b - a >= review_view.ROUND_ROOM for a, b in zip(xs, xs[1:], strict=False))
    box = stats.Box()
    for x, y, grade in chart.dots:  # inside the plot
        assert box.left <= x <= box.width - box.right and box.top <= y <= box.height - box.bottom
        assert grade in GRADES


@pytest.mark.parametrize("info", [i for i in listed() if i.coach], ids=lambda i: i.id)
def test_the_grades_steps_are_read_from_the_games_coach(info: object) -> None:
    coach = GAMES[info.id].coach  # type: ignore[attr-defined]
    assert coach is not None
    steps = review_view.grade_steps(coach)
    assert [g for g, _ in steps] == list(GRADES)
    for (_, said), most in zip(steps, coach.steps, strict=False):
        assert review_view.points(most) in said
    assert review_view.points(coach.steps[-1]) in steps[-1][1]


def test_only_people_are_reviewed_and_only_games_with_a_coach() -> None:
    assert review_view.reviewed_seats(["easy", "human:Ana", "hard", "human"]) == [1, 3]
    assert not review_view.reviewable(GAMES["optimus"], ["easy", "hard"])
    assert review_view.reviewable(GAMES["optimus"], ["easy", "human"])
    assert not review_view.reviewable(GAMES["tiny"], ["human"])


ACCURACY = {"decisions": 12, "mean_loss": 0.8, "best_share": 0.5, "coach": "hard"}


def kept_game(ident: str = "r1", day: str = "2026-12-02") -> records.Records:
    r = records.Records()
    r.add(records.Result("optimus2", "hard", 2, 200, True, day, {"events": []}, ident=ident))
    return r


def test_the_accuracy_is_kept_with_the_record_and_read_back() -> None:
    r = kept_game()
    assert r.accuracy_of("optimus2", "r1") is None
    r.keep_accuracy("optimus2", "r1", ACCURACY)
    read = records.load(records.dump(r)).records
    assert read.accuracy_of("optimus2", "r1") == {**ACCURACY, "day": "2026-12-02"}
    r.keep_accuracy("optimus2", "r1", {**ACCURACY, "best_share": 0.75})  # reviewed again
    assert stats.accuracy(r, "optimus2").best == (75,)
    merged = records.merge(kept_game(), r)
    assert merged.accuracy_of("optimus2", "r1") is not None
    assert records.merge(merged, merged).accuracy == merged.accuracy


def test_a_store_without_accuracy_loads_and_dumps_as_before() -> None:
    r = kept_game()
    text = records.dump(r)
    assert "accuracy" not in json.loads(text)
    assert records.load(text).records.accuracy == {}


@pytest.mark.parametrize(
    "bad",
    [{"best_share": 1.5}, {"mean_loss": -1}, {"decisions": 2.5}, {"mean_loss": True}],
)
def test_a_tampered_accuracy_is_refused(bad: dict[str, object]) -> None:
    r = kept_game()
    r.keep_accuracy("optimus2", "r1", ACCURACY)
    data = json.loads(records.dump(r))
    data["accuracy"]["optimus2"]["r1"].update(bad)
    loaded = records.load(json.dumps(data))
    assert loaded.problem and loaded.records.accuracy == {}


def test_the_accuracy_chart_follows_the_days_the_games_ended() -> None:
    r = records.Records()
    for ident, day, share in (("a", "2026-12-05", 0.9), ("b", "2026-12-01", 0.3)):
        r.add(records.Result("fileiras", "hard", 2, 10, False, day, {}, ident=ident))
        r.keep_accuracy("fileiras", ident, {**ACCURACY, "best_share": share})
    shown = stats.accuracy(r, "fileiras")
    assert shown.best == (30, 90) and shown.average == (30.0, 60.0)
    assert stats.accuracy(r, "optimus").best == ()
