"""The learned multi-player evaluation (optimus.optimus.value_multi) and its training
(optimus_lab.optimus.train_multi)."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import optimus
from optimus.core.rng import Rng
from optimus.optimus.game import JOKERS, markings
from optimus.optimus.heuristics import Evaluator
from optimus.optimus.lookahead import Lookahead
from optimus.optimus.value import make_evaluator
from optimus.optimus.value_multi import (
    BUCKETS,
    FEATURES,
    Context,
    MultiEvaluator,
    MultiModel,
    multi_evaluator,
    rolls_left,
    score_now,
    shipped_multi_model,
)
from optimus_lab.optimus import train_multi

from .scenario import after_open_rolls, fresh, mask


def _model(seed: int) -> MultiModel:
    rng = Rng(seed)
    return MultiModel(
        [[(rng.randrange(2001) - 1000) / 1000 for _ in range(FEATURES)] for _ in range(BUCKETS)]
    )


def _random_marks(rng: Rng, state_layout: object, steps: int) -> int:
    marks = 0
    for _ in range(rng.randrange(steps)):
        found = markings(state_layout, marks, rng.randrange(5), 1 + rng.randrange(5))  # type: ignore[arg-type]
        if found:
            marks |= found[rng.randrange(len(found))]
    return marks


def test_a_moves_gain_is_the_change_of_the_sheets_value() -> None:
    model = _model(3)
    rng = Rng(4)
    for trial in range(12):
        s = after_open_rolls(fresh(2 + trial % 3), 5 + trial)
        for p in range(s.num_players):
            s.marks[p] = _random_marks(rng, s.layout, 25)
        # a column taken first by another player earlier: only its second value is open
        s.column_first[7] = 2
        ev = multi_evaluator(s, 0, model, ahead=trial % 2)
        ctx = Context(s, 0, ahead=trial % 2)
        for marks in (s.marks[0], _random_marks(rng, s.layout, 30)):
            left = rng.randrange(JOKERS + 1)
            assert ev.value(marks, left) == pytest.approx(model.predict(ctx, s.layout, marks, left))
            for colour, number in itertools.product(range(5), range(1, 6)):
                for move in markings(s.layout, marks, colour, number)[:3]:
                    cost = rng.randrange(min(2, left) + 1)
                    assert ev.gain(marks, move, cost) == pytest.approx(
                        ev.value(marks | move, left - cost) - ev.value(marks, left)
                    )


def test_completions_are_valued_as_the_scoring_would_score_them_now() -> None:
    s = after_open_rolls(fresh(3), 6)
    column_h = mask("H1", "H2", "H3", "H4", "H5", "H6", "H7")
    s.marks[0] = column_h
    s.column_roll[0][7] = 5
    s.column_first[7] = 4  # another player completed H a roll before: second value
    s.jokers_used[0] = 2
    ctx = Context(s, 0)
    assert score_now(ctx, s.layout, column_h, JOKERS - 2) == s.breakdown(0)["total"]
    s.column_first[7] = 5  # completed in the same roll as the first: first value
    ctx = Context(s, 0)
    assert score_now(ctx, s.layout, column_h, JOKERS - 2) == s.breakdown(0)["total"]
    # a column no one has completed is worth its first value to complete now
    s.column_first[7] = 0
    s.column_roll[0][7] = 0
    assert Context(s, 0).column_done[7] == 1.0 * ctx.column_done[7]


def test_rolls_left_shrinks_as_the_leader_nears_two_colours_and_with_the_lookahead() -> None:
    s = after_open_rolls(fresh(3), 5)
    early = rolls_left(s)
    # one colour full and most of another: the end is nearer
    s.marks[2] = s.layout.colour_masks[0] | s.layout.colour_masks[1]
    s.marks[2] &= ~(s.layout.colour_masks[1] & -s.layout.colour_masks[1])
    late = rolls_left(s)
    assert 1 <= late < early
    assert Context(s, 0, ahead=1).rolls_left == max(1, late - 1)


def test_the_weights_are_read_only_when_a_bot_asks_for_them_and_used_only_then() -> None:
    # importing the bots (as the app does) does not read the multi-player weights
    code = (
        "import sys; import optimus.optimus.bots, optimus.optimus.lookahead; "
        "print('optimus.optimus.value_multi' in sys.modules)"
    )
    py = str(Path(optimus.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": py}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    ).stdout
    assert out.strip() == "False"
    s = after_open_rolls(fresh(4), 8)
    assert isinstance(make_evaluator(s, 0), Evaluator)  # not asked: the hand-made value
    model = shipped_multi_model()
    assert model is not None and len(model.weights) == BUCKETS
    ev = make_evaluator(s, 0, multi=True)
    assert isinstance(ev, MultiEvaluator)
    # the lookahead values later rolls with fewer rolls to come
    look = Lookahead(s, 0, Evaluator(s, 0).params, multi=True)
    after = look.after(s.roll + 2)
    assert isinstance(after, MultiEvaluator)
    assert after.rolls_left == max(1, ev.rolls_left - 2)
    # solo keeps the solo value
    assert not isinstance(make_evaluator(after_open_rolls(fresh(1), 8), 0, multi=True), Evaluator)


def test_the_shipped_weights_credit_an_unfinished_colour_as_it_fills() -> None:
    s = after_open_rolls(fresh(4), 8)
    model = shipped_multi_model()
    assert model is not None
    ev = multi_evaluator(s, 0, model)
    six = mask("O1", "O2", "O3", "O4", "O5", "O6")
    two = mask("O1", "O2")
    assert ev.value(six, JOKERS) > ev.value(two, JOKERS) + 1


def test_a_tiny_fit_saves_resumes_and_loads_back(tmp_path: pytest.TempPathFactory) -> None:
    path = str(tmp_path / "state.pkl")  # type: ignore[operator]
    lines: list[str] = []
    model = train_multi.train(games=9, rounds=1, seed=5, state_path=path, log=lines.append)
    assert any("held-out error" in line for line in lines)
    # a second run with more rounds resumes after the first
    more: list[str] = []
    again = train_multi.train(games=9, rounds=1, seed=5, state_path=path, log=more.append)
    assert more[0] == "resumed after round 1" and again.weights == model.weights
    loaded = MultiModel.from_json(json.loads(json.dumps(model.to_json())))
    s = after_open_rolls(fresh(3), 6)
    ctx = Context(s, 1)
    for marks in (0, mask("H1", "H2"), mask("O1", "O2", "O3")):
        assert loaded.predict(ctx, s.layout, marks, 5) == pytest.approx(
            model.predict(ctx, s.layout, marks, 5), abs=0.05
        )


def test_a_model_file_of_the_wrong_shape_is_refused() -> None:
    with pytest.raises(ValueError, match="not a multi-player"):
        MultiModel.from_json({"format": "optimus-grid-value-1"})
    with pytest.raises(ValueError, match="buckets"):
        MultiModel([[0.0] * FEATURES])
