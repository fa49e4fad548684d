"""The value learned by temporal differences (optimus.optimus2.td), its trainer
(optimus_lab.optimus2.td) and the experimental level that plays from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from optimus.core.rng import Rng
from optimus.optimus2.bots import (
    TD,
    TdBot,
    TdLookBot,
    progress_left,
    turn_future,
    value,
)
from optimus.optimus2.game import Optimus2Game, sheet_view
from optimus.optimus2.sheet import load_sheet, total_score
from optimus.optimus2.td import (
    MOMENTS,
    TdModel,
    flat_indices,
    flat_size,
    load_td,
    parse_td,
    register_td,
    table_indices,
    td_json,
    td_value,
    unregister_td,
)
from optimus.optimus2.value import BUCKETS, clear_seen, features, load_model, named_value
from optimus_lab.optimus2 import td as trainer

from .test_value import random_positions


def reference_indices(sd: object, sh: list[int]) -> list[int]:
    """The tables' entries read from the sheet's readable view, the slow way."""
    view = sheet_view(load_sheet(), sh, [], 0)
    yellow, blue, green, pink = view["yellow"], view["blue"], view["green"], view["pink"]
    silver, actions = view["silver"], view["actions"]
    assert isinstance(yellow, list) and isinstance(blue, list) and isinstance(green, list)
    assert isinstance(pink, list) and isinstance(silver, list) and isinstance(actions, dict)
    crosses = sum(1 for c in yellow if c == 2)
    circles = sum(1 for c in yellow if c == 1)
    marks = sum(len(row) for row in silver)
    near = sum(1 for v in range(1, 7) if sum(1 for row in silver if v in row) == 3)
    hand = [min(3, a["circled"] - a["used"]) for a in actions.values()]
    areas = view["areas"]
    assert isinstance(areas, dict)
    low = min(areas.values())
    return [
        crosses * 11 + circles,
        len(blue) * 14 + (blue[-1] if blue else 13),
        len(green) * 7 + (green[-1] if len(green) % 2 else 0),
        len(pink) * 7 + (pink[-1] if pink else 0),
        marks * 7 + near,
        (hand[0] * 4 + hand[1]) * 4 + hand[2],
        min(int(str(view["foxes"])), 7) * 16 + min(int(str(low)) // 4, 15),
    ]


def test_table_entries_match_a_slow_reference_on_random_states() -> None:
    seen = 0
    for seed in range(12):
        for s in random_positions(seed, 1 + seed % 4):
            for sh in s.sheets:
                t = progress_left(s)
                _, feats = features(s.sd, sh, max(t, 0.01), 0.0)
                assert table_indices(s.sd, sh, feats) == reference_indices(s.sd, sh)
                seen += 1
    assert seen > 500


def test_flat_entries_are_in_range_and_one_per_table_and_the_moment() -> None:
    sd = load_sheet()
    size = flat_size(sd)
    for s in random_positions(3):
        t = progress_left(s)
        if t <= 0:
            continue
        _, feats = features(sd, s.sheets[0], t, 0.0)
        idx = flat_indices(sd, s.sheets[0], t, feats)
        assert len(idx) == 8 and all(0 <= i < size for i in idx)
        assert idx[-1] >= size - MOMENTS - 1


def test_value_is_the_corrected_evaluation_plus_the_entries_and_the_score_at_the_end() -> None:
    sd = load_sheet()
    dense = load_model("value_weights")
    zero = TdModel(dense, [0.0] * flat_size(sd))
    ones = TdModel(dense, [1.0] * flat_size(sd))
    for s in random_positions(5):
        t, hand = progress_left(s), turn_future(s, 0, 1.0)
        sh = s.sheets[0]
        if t <= 0:
            assert td_value(sd, sh, t, hand, ones) == total_score(sd, sh)
            continue
        base = named_value(sd, sh, t, hand, "value_weights")
        assert td_value(sd, sh, t, hand, zero) == pytest.approx(base)
        assert td_value(sd, sh, t, hand, ones) == pytest.approx(base + 8)


def test_a_registered_model_is_the_one_the_bots_value_with() -> None:
    sd = load_sheet()
    s = random_positions(7)[20]
    model = TdModel(load_model("value_weights"), [2.5] * flat_size(sd))
    register_td(TD.model, model)
    clear_seen()
    try:
        t, hand = progress_left(s), turn_future(s, 0, 1.0)
        assert value(s, 0, TD) == pytest.approx(td_value(sd, s.sheets[0], t, hand, model))
    finally:
        unregister_td(TD.model)
        clear_seen()


def test_the_shipped_weights_load_and_a_file_is_checked() -> None:
    shipped = load_td("td_weights")
    assert len(shipped.tables) == flat_size(load_sheet()) == BUCKETS * 852 + MOMENTS + 1
    text = td_json(shipped, games=3)
    assert parse_td(text).tables == pytest.approx(shipped.tables, abs=1e-3)
    data = json.loads(text)
    for broken, reason in (
        ("{", "not JSON"),
        (json.dumps({**data, "tables_names": ["x"]}), "not those of this version"),
        (json.dumps({**data, "tables": data["tables"][:-1]}), "entries"),
        (json.dumps({**data, "tables": [*data["tables"][:-1], "x"]}), "finite"),
    ):
        with pytest.raises(ValueError, match=reason):
            parse_td(broken)


def test_training_resumed_equals_one_longer_run(tmp_path: Path) -> None:
    options = {"lam": 0.7, "alpha": 0.02, "epsilon": 0.2, "rerolls": 1, "report": 1}
    whole = trainer.train(trainer.new_state(5), 3, echo=False, **options)
    path = str(tmp_path / "state.json")
    trainer.train(trainer.new_state(5), 2, out=path, echo=False, **options)
    resumed = trainer.train(trainer.load(path), 3, out=path, echo=False, **options)
    assert resumed["games"] == whole["games"] == 3
    assert resumed["tables"] == whole["tables"]
    assert resumed["visits"] == whole["visits"]
    assert resumed["curve"] == whole["curve"]
    assert any(x != 0 for x in whole["tables"])
    assert trainer.load(path)["tables"] == whole["tables"]


@pytest.mark.parametrize("bot", [TdBot, TdLookBot])
def test_the_td_levels_play_legal_moves_from_random_positions(bot: type[TdBot]) -> None:
    game = Optimus2Game()
    decided = 0
    for seed in range(24):
        positions = random_positions(100 + seed, 1 + seed % 4)
        s = positions[Rng(seed).randrange(len(positions))]
        if s.is_terminal():
            continue
        p = s.actors()[0]
        legal = s.legal_moves(p)
        move = bot(game, p, Rng(seed)).choose(s.observation(p), legal)
        assert move in legal
        decided += 1
    assert decided >= 20
