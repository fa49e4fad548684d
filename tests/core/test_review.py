"""The coach's review: every decision rated by the game's strongest bot (optimus.core.review)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from optimus.__main__ import main
from optimus.core.arena import play_record, resolve_bot
from optimus.core.bots import Appraisal, Bot, Budget, StateBot, run_to_end
from optimus.core.protocol import RecordError
from optimus.core.record import Match, Record
from optimus.core.registry import get_game
from optimus.core.review import GRADES, Review, grade
from optimus.core.rng import Rng, derive_seed
from optimus.games import GAMES

COACHED = [info.id for info in GAMES.values() if info.coach is not None]
# the fewest seats of each game, all played by one level
SEATS = {gid: max(1, GAMES[gid].players[0]) for gid in COACHED}
BUDGETS = {"optimus": Budget(iterations=2)}
QUICK = {"optimus": 2, "fileiras": 16}
"""Smaller budgets than the levels' defaults where those are slow (the test's time)."""


def test_every_listed_game_has_a_coach_whose_level_appraises() -> None:
    assert [info.id for info in GAMES.values() if info.listed] == COACHED
    for gid in COACHED:
        coach = GAMES[gid].coach
        assert coach is not None and list(coach.steps) == sorted(coach.steps)
        factory = resolve_bot(get_game(gid), coach.level)
        assert isinstance(factory, type) and issubclass(factory, StateBot)
        assert factory.appraise_state is not StateBot.appraise_state  # its own appraisal


def test_a_game_without_a_coach_is_refused_in_words() -> None:
    game = get_game("tiny")
    record = play_record(game, ["random"], 1, {"players": 1})
    with pytest.raises(ValueError, match="has no coach"):
        Review(game, record, [0])


def test_grades_follow_the_games_steps() -> None:
    steps = (0.0, 1.0, 3.0, 8.0)
    assert [grade(x, steps) for x in (0.0, 1e-12, 0.1, 1.0, 2.9, 8.0, 8.01)] == [
        "best",
        "best",
        "good",
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    ]
    assert GRADES[0] == "best" and GRADES[-1] == "blunder"


class Blunderer(Bot):
    """Plays as the coach would, but at its ``at``-th decision with a choice plays the
    move the coach values least (a scripted clearly bad decision)."""

    level = "blunderer"
    at = 3

    def think(self, observation: Any, legal_moves: list[str]) -> Any:
        coach = GAMES[self.game.name].coach
        assert coach is not None
        judge = resolve_bot(self.game, coach.level)(self.game, self.player, Rng(7), None)
        if len(legal_moves) > 1:
            Blunderer.seen += 1
            if Blunderer.seen == self.at:
                # every move valued: appraise each as the move played
                worst, low = legal_moves[0], float("inf")
                for move in legal_moves:
                    got = yield from judge.appraise(observation, legal_moves, move)
                    if got.values[move] < low:
                        worst, low = move, got.values[move]
                Blunderer.bad = worst
                return worst
        return (yield from judge.think(observation, legal_moves))

    seen = 0
    bad = ""


def _record_with_blunder(gid: str) -> Record:
    game = get_game(gid)
    Blunderer.seen, Blunderer.bad = 0, ""
    n = SEATS[gid]
    match = Match(game, {"players": n}, 11)
    bots = [Blunderer(game, s, Rng(derive_seed(11, "bot", s))) for s in range(n)]
    state = match.state
    while not state.is_terminal():
        seat = state.actors()[0]
        move = run_to_end(bots[seat].think(state.observation(seat), state.legal_moves(seat)))
        match.play(seat, move)
    assert Blunderer.bad
    return match.record


def test_a_clearly_bad_decision_is_a_mistake_or_a_blunder_and_the_better_move_is_named() -> None:
    gid = "optimus2"  # alone: the network values every move, the worst is far below the best
    record = _record_with_blunder(gid)
    before = record.to_json()
    review = Review(get_game(gid), record, [0]).finish()
    assert record.to_json() == before  # a review never changes the record
    bad = [d for d in review.decisions if d.move == Blunderer.bad and d.grade != "best"]
    assert bad, "the scripted blunder was not found"
    worst = max(review.decisions, key=lambda d: d.loss)
    assert worst.grade in ("mistake", "blunder") and worst.best != worst.move
    assert worst.loss == pytest.approx(worst.best_value - worst.value)
    seat = review.accuracy()[0]
    assert seat.decisions == review.total == len(review.decisions) and seat.best_share < 1


@pytest.mark.parametrize("gid", COACHED)
def test_the_coachs_own_seeded_game_is_rated_best_at_least_nine_times_in_ten(gid: str) -> None:
    game = get_game(gid)
    n = SEATS[gid]
    coach = GAMES[gid].coach
    assert coach is not None
    budget = BUDGETS.get(gid) or Review.coach_budget(game)  # the game's and its review's
    record = play_record(game, [coach.level] * n, 5, {"players": n}, budget)
    before = record.to_json()
    review = Review(game, record, [0], budget).finish()
    assert record.to_json() == before
    for seat in review.accuracy():
        assert seat.decisions > 5
        assert seat.best_share >= 0.9, (seat, [d for d in review.decisions if d.grade != "best"])


def test_a_review_runs_in_slices_and_counts_its_progress() -> None:
    game = get_game("optimus2")
    record = play_record(game, ["easy"], 2, {"players": 1})
    review = Review(game, record, [0])
    steps = review.run()
    seen = []
    for _ in steps:
        seen.append(review.done)
    assert review.total > 10 and seen[-1] == review.total
    assert seen == sorted(seen)  # the count only goes up
    assert len(review.decisions) == review.total


def test_a_corrupt_record_is_refused_with_the_event_named() -> None:
    game = get_game("optimus2")
    record = play_record(game, ["easy"], 2, {"players": 1})
    k = next(i for i, (who, _) in enumerate(record.events) if who == 0)
    record.events[k] = (0, "no such move")
    with pytest.raises(RecordError, match=f"event {k}"):
        Review(game, record, [0])


def test_appraisal_loss_is_never_negative_and_zero_for_the_best() -> None:
    a = Appraisal({"a": 1.0, "b": 3.0, "c": 2.0}, "c")  # a search may pick below another mean
    assert a.loss("c") == 0.0 and a.loss("b") == 0.0 and a.loss("a") == 1.0


def _review_json(capsys: Any, gid: str, spec: str) -> dict[str, Any]:
    n = SEATS[gid]
    args = ["review", gid, "--players", ",".join([spec] * n), "--seed", "1", "--json"]
    if gid in QUICK:  # the players' and the coach's budgets cut for the test's time
        args += ["--iterations", str(QUICK[gid]), "--coach-iterations", str(QUICK[gid])]
    assert main(args) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


@pytest.mark.parametrize("gid", COACHED)
def test_the_review_command_rates_easy_below_hard(capsys: Any, gid: str) -> None:
    easy = _review_json(capsys, gid, "easy")
    hard = _review_json(capsys, gid, "hard")
    for out in (easy, hard):
        assert set(out) >= {"seats", "decisions"}
        assert {"spec", "decisions", "mean_loss", "best_share"} <= set(out["seats"][0])
        assert {"seat", "move", "best", "loss"} <= set(out["decisions"][0])
    mean = [sum(s["mean_loss"] for s in out["seats"]) / len(out["seats"]) for out in (easy, hard)]
    assert mean[0] > mean[1]
