"""The value learned by temporal differences (optimus.optimus2.td), its trainer
(optimus_lab.optimus2.td) and the experimental level that plays from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from optimus.core.rng import Rng
from optimus.optimus2.bots import (
    LEARNED,
    TD,
    TD4,
    TdBot,
    TdLookBot,
    gift_left,
    has_td,
    progress_left,
    tray_gift,
    turn_future,
    value,
)
from optimus.optimus2.game import Optimus2Game, sheet_view
from optimus.optimus2.heuristics import Weights
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
from optimus.optimus2.value import (
    BUCKETS,
    bucket,
    clear_seen,
    features,
    load_model,
    named_value,
)
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


def multi_model(level: float = 0.0, gift: float = 0.5) -> TdModel:
    sd = load_sheet()
    return TdModel(
        load_model("value_weights"),
        [level] * flat_size(sd),
        players=4,
        gift=tuple(gift + 0.1 * b for b in range(BUCKETS)),
    )


def test_multi_player_training_resumed_equals_one_longer_run(tmp_path: Path) -> None:
    options = {"lam": 0.7, "alpha": 0.02, "epsilon": 0.2, "rerolls": 1, "report": 1}
    options.update({"batch": 2, "alpha_gift": 0.01, "eval_every": 2, "eval_games": 1})
    whole = trainer.train(trainer.new_state(5, 2), 3, echo=False, **options)
    path = str(tmp_path / "multi.json")
    trainer.train(trainer.new_state(5, 2), 2, out=path, echo=False, **options)
    resumed = trainer.train(trainer.load(path), 3, out=path, echo=False, **options)
    assert resumed["games"] == whole["games"] == 3 and whole["players"] == 2
    assert resumed["tables"] == whole["tables"]
    assert resumed["visits"] == whole["visits"]
    assert resumed["gift"] == whole["gift"] != [trainer.GIFT0] * BUCKETS
    assert resumed["curve"] == whole["curve"]
    assert [p["games"] for p in whole["curve"]] == [0, 1, 2, 3]
    assert "greedy_win" in whole["curve"][0] and "greedy_margin" in whole["curve"][2]
    assert any(x != 0 for x in whole["tables"])
    again = trainer.train(trainer.new_state(5, 2), 3, echo=False, **options)
    assert again["tables"] == whole["tables"] and again["gift"] == whole["gift"]


def test_a_multi_player_game_traces_every_seat_with_its_margin() -> None:
    model = multi_model()
    traces, scores = trainer.play_multi(model, 3, 0, 0.1, 1)
    assert len(traces) == len(scores) == 4
    assert sum(final for _, final in traces) == pytest.approx(0.0)
    for p, (steps, final) in enumerate(traces):
        others = [x for q, x in enumerate(scores) if q != p]
        assert final == pytest.approx(scores[p] - sum(others) / 3)
        assert len(steps) > 10
        assert any(x > 0 for _, _, x, _ in steps)  # the end of its own turns left a gift
        assert all(len(idx) == 8 for _, idx, _, _ in steps)


def test_the_multi_player_value_is_own_sheet_less_gift_less_the_others_but_the_level() -> None:
    model = multi_model(level=1.0)
    register_td(trainer.MULTI_NAME, model)
    try:
        checked = gifts = 0
        for seed in range(6):
            for s in random_positions(40 + seed, 4):
                t = progress_left(s)
                if t <= 0 or s.is_terminal():
                    continue
                for p in range(4):
                    own = named_value(
                        s.sd, s.sheets[p], t, turn_future(s, p, 1.0), trainer.MULTI_NAME
                    )
                    x = tray_gift(s, LEARNED) if gift_left(s, p) else 0.0
                    gifts += x > 0
                    mine = own - model.gift[bucket(t)] * x
                    assert value(s, p, trainer.W4) == pytest.approx(mine)
                    others = [
                        td_value(s.sd, s.sheets[q], t, turn_future(s, q, 1.0), model) - 1.0
                        for q in range(4)
                        if q != p
                    ]
                    v, idx, gx, b = trainer.multi_parts(s, p, model)
                    assert (gx, b) == (pytest.approx(x), bucket(t)) and len(idx) == 8
                    assert v == pytest.approx(mine - sum(others) / 3)
                    checked += 1
        assert checked > 100 and gifts > 0
    finally:
        unregister_td(trainer.MULTI_NAME)
        clear_seen()


def test_a_multi_player_file_round_trips_and_a_solo_file_stays_solo() -> None:
    model = multi_model(gift=0.75)
    back = parse_td(td_json(model, games=2))
    assert back.players == 4 and back.gift == pytest.approx(model.gift)
    data = json.loads(td_json(model))
    with pytest.raises(ValueError, match="gift"):
        parse_td(json.dumps({**data, "gift": data["gift"][:-1]}))
    solo = json.loads(td_json(load_td("td_weights")))
    assert "players" not in solo and "gift" not in solo
    assert parse_td(json.dumps(solo)).players == 1 and parse_td(json.dumps(solo)).gift == ()


def test_the_td_bots_value_solo_games_with_the_solo_value_and_others_with_the_multi() -> None:
    game = Optimus2Game()
    solo = random_positions(11, 1)[5]
    four = random_positions(12, 4)[5]
    register_td(TD4.model, multi_model())
    try:
        assert has_td(TD4.model)
        for bot in (TdBot, TdLookBot):
            assert bot(game, 0, Rng(1)).weights_for(solo) == TD
            assert bot(game, 0, Rng(1)).weights_for(four) == TD4
    finally:
        unregister_td(TD4.model)
        clear_seen()

    class NoMulti(TdBot):
        multi = Weights(model="td4_none")

    assert not has_td("td4_none")
    assert NoMulti(game, 0, Rng(1)).weights_for(four) == TD


def test_the_shipped_multi_player_weights_load_and_the_bots_use_them_with_others() -> None:
    shipped = load_td(TD4.model)
    assert shipped.players == 4 and len(shipped.gift) == BUCKETS
    assert len(shipped.tables) == flat_size(load_sheet())
    assert has_td(TD4.model)
    four = random_positions(13, 2)[3]
    assert TdBot(Optimus2Game(), 0, Rng(1)).weights_for(four) == TD4
