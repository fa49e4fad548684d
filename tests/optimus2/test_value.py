"""The learned afterstate value (optimus.optimus2.value) and its training
(optimus_lab.optimus2.train)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from optimus.core.rng import Rng
from optimus.optimus2 import value as vf
from optimus.optimus2.bots import LEVELS, progress_left, roll_randomly, turn_future, value
from optimus.optimus2.game import Optimus2State
from optimus.optimus2.heuristics import DEFAULT, Weights
from optimus.optimus2.sheet import load_sheet, total_score
from optimus.optimus2.value import BUCKETS, FEATURES, Model
from optimus_lab.optimus2.train import (
    Sample,
    centred,
    fit,
    group,
    model_json,
    play,
    ridge_fit,
    solo,
)


def random_positions(seed: int, players: int = 1) -> list[Optimus2State]:
    """Every position of one random game (solo by default) where someone is to move,
    and its end."""
    s = Optimus2State(players, load_sheet())
    rng = Rng(seed)
    out = []
    while not s.is_terminal():
        if s.is_chance():
            roll_randomly(s, rng)
            continue
        out.append(s.clone())
        p = s.actors()[0]
        legal = s.legal_moves(p)
        s.apply_move(p, legal[rng.randrange(len(legal))])
    out.append(s)
    return out


def test_buckets_cover_the_game_and_the_end_is_the_score() -> None:
    assert [vf.bucket(x / 60) for x in (1, 10, 11, 30, 59, 60)] == [0, 0, 1, 2, 5, 5]
    shipped = vf.load_model("value_weights")
    for seed in (1, 2):
        end = random_positions(seed)[-1]
        assert progress_left(end) == 0
        sd, sh = end.sd, end.sheets[0]
        assert vf.learned_value(sd, sh, 0.0, 0.0, shipped) == total_score(sd, sh)
        assert value(end, 0, Weights(model="value_weights")) == total_score(sd, sh)


def test_with_no_correction_the_value_is_the_hand_written_one() -> None:
    zero = Model(tuple((0.0,) * len(FEATURES) for _ in range(BUCKETS)), base=1.0)
    vf.register_model("zero-test", zero)
    w = Weights(model="zero-test")
    for s in random_positions(3)[::5]:
        assert value(s, 0, w) == pytest.approx(value(s, 0, DEFAULT), abs=1e-9)


def test_the_weights_of_the_bucket_of_the_game_left_are_used() -> None:
    s = random_positions(4)[20]
    t = progress_left(s)
    assert t > 0
    sd, sh = s.sd, s.sheets[0]
    score, feats = vf.features(sd, sh, t, 0.0)
    assert feats[0] == 1.0  # the bias
    # only the bias of this position's bucket is set: the value rises by exactly it
    weights = [(0.0,) * len(FEATURES)] * BUCKETS
    weights[vf.bucket(t)] = (5.0,) + (0.0,) * (len(FEATURES) - 1)
    model = Model(tuple(weights))
    assert vf.learned_value(sd, sh, t, 0.0, model) == pytest.approx(score + 5.0)
    vf.register_model("bias-test", model)
    before = value(s, 0, Weights(model="bias-test"))
    weights[vf.bucket(t)] = (9.0,) + (0.0,) * (len(FEATURES) - 1)
    vf.register_model("bias-test", Model(tuple(weights)))
    assert value(s, 0, Weights(model="bias-test")) == pytest.approx(before + 4.0)


def test_a_remembered_value_is_the_model_value_of_that_very_position() -> None:
    model = vf.load_model("value_weights")
    seen = set()
    for s in random_positions(9):
        t = progress_left(s)
        hand = 0.5 if t > 0.5 else 0.0
        sd, sh = s.sd, s.sheets[0]
        want = vf.learned_value(sd, sh, t, hand, model)
        assert vf.named_value(sd, sh, t, hand, "value_weights") == want
        assert vf.named_value(sd, sh, t, hand, "value_weights") == want  # asked again
        seen.add(want)
    assert len(seen) > 10  # the positions differ, and so do their values
    # the same sheet with other dice still to choose, or another model, is another value
    s = random_positions(9)[10]
    t, sd, sh = progress_left(s), s.sd, s.sheets[0]
    vf.register_model("zero-test", Model(((0.0,) * len(FEATURES),) * BUCKETS, base=1.0))
    assert vf.named_value(sd, sh, t, 0.0, "value_weights") != vf.named_value(
        sd, sh, t, 1.0, "value_weights"
    )
    assert vf.named_value(sd, sh, t, 1.0, "zero-test") == vf.learned_value(
        sd, sh, t, 1.0, vf.get_model("zero-test")
    )


def test_the_remembered_values_stay_few(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vf, "SEEN_MAX", 5)
    model = vf.load_model("value_weights")
    for s in random_positions(10)[:30]:
        t, sd, sh = progress_left(s), s.sd, s.sheets[0]
        assert vf.named_value(sd, sh, t, 0.0, "value_weights") == vf.learned_value(
            sd, sh, t, 0.0, model
        )
        assert len(vf._SEEN) <= 5  # emptied once full, not grown


def test_a_malformed_weights_file_is_refused_with_the_reason() -> None:
    good = json.loads(model_json(vf.load_model("value_weights"), {}))
    vf.parse_model(json.dumps(good))  # the shipped model round-trips
    with pytest.raises(ValueError, match="not JSON"):
        vf.parse_model("{nope")
    with pytest.raises(ValueError, match="refit"):
        vf.parse_model(json.dumps({**good, "features": good["features"][:-1]}))
    with pytest.raises(ValueError, match=f"expected {BUCKETS}"):
        vf.parse_model(json.dumps({**good, "weights": good["weights"][:-1]}))
    short = [w[:] for w in good["weights"]]
    short[2] = short[2][:-1]
    with pytest.raises(ValueError, match=r"weights\[2\]"):
        vf.parse_model(json.dumps({**good, "weights": short}))
    text = json.dumps({**good, "weights": [[math.inf] * len(FEATURES)] * BUCKETS})
    with pytest.raises(ValueError, match="finite"):
        vf.parse_model(text.replace("Infinity", "1e999"))
    with pytest.raises(ValueError, match="finite"):
        vf.parse_model(json.dumps({**good, "weights": [[True] * len(FEATURES)] * BUCKETS}))
    with pytest.raises(ValueError, match="base"):
        vf.parse_model(json.dumps({**good, "base": "one"}))


def test_the_shipped_weights_load_and_hard_uses_them() -> None:
    model = vf.load_model("value_weights")
    assert vf.get_model("value_weights") is model
    assert len(model.weights) == BUCKETS
    assert sum(1 for w in model.weights if w) >= BUCKETS - 1
    hard = LEVELS["hard"]
    assert hard.judge.model == "value_weights"  # type: ignore[attr-defined]
    assert hard.weights.model == "value_weights"  # type: ignore[attr-defined]  # playouts too
    assert LEVELS["normal"].weights.model == ""  # type: ignore[attr-defined]  # hand-written
    # the model changes the value of a position mid-game
    s = random_positions(5)[25]
    assert value(s, 0, hard.judge) != pytest.approx(value(s, 0, DEFAULT))  # type: ignore[attr-defined]


def test_the_shipped_round_end_weights_load_and_hard_values_its_solo_playouts_with_them() -> None:
    ends = vf.load_model("value_end")
    assert len(ends.weights) == BUCKETS
    # fitted at the ends of rounds 1-5: t = 5/6 ... 1/6, buckets 4 ... 0
    assert all(ends.weights[vf.bucket((6 - r) / 6)] for r in range(1, 6))
    assert LEVELS["hard"].end.model == "value_end"  # type: ignore[attr-defined]
    end_of_round = next(p for p in random_positions(5) if p.round == 3 and p.picks == 0)
    assert progress_left(end_of_round) == pytest.approx(4 / 6)  # as at the end of round 2
    # another value than the judge's at the same position
    assert value(end_of_round, 0, LEVELS["hard"].end) != pytest.approx(  # type: ignore[attr-defined]
        value(end_of_round, 0, LEVELS["hard"].judge)  # type: ignore[attr-defined]
    )


def test_centred_groups_leave_only_the_differences_within_a_decision() -> None:
    k = len(FEATURES)
    g1 = [(1, [1.0] * k, 10.0), (1, [3.0] * k, 14.0)]
    g2 = [(2, [0.0] * k, -1.0), (2, [2.0] * k, 1.0), (2, [4.0] * k, 3.0)]
    out = centred([g1, g2])
    assert [y for _, _, y in out] == [-2.0, 2.0, -2.0, 0.0, 2.0]
    assert [f[0] for _, f, _ in out] == [-1.0, 1.0, -2.0, 0.0, 2.0]
    assert [b for b, _, _ in out] == [1, 1, 2, 2, 2]


def test_the_fit_recovers_a_linear_rule_of_the_differences() -> None:
    rng = Rng(8)
    k = len(FEATURES)
    rule = [0.0] * k
    rule[3], rule[10] = 2.0, -1.5
    groups = []
    for _ in range(400):
        g = []
        offset = rng.random() * 50  # a decision's own level: the differences ignore it
        for _ in range(3):
            f = [rng.random() * 4 for _ in range(k)]
            g.append((0, f, offset + sum(a * b for a, b in zip(rule, f, strict=True))))
        groups.append(g)
    model = fit(groups, ridge=0.0)
    assert model.base == 1.0
    assert model.weights[0][3] == pytest.approx(2.0, abs=1e-6)
    assert model.weights[0][10] == pytest.approx(-1.5, abs=1e-6)
    assert all(not w for w in model.weights[1:])  # no positions, no weights
    plain = ridge_fit([(f, y) for _, f, y in centred(groups)], 0.0)
    assert plain[3] == pytest.approx(2.0, abs=1e-6)


def test_a_group_holds_the_best_afterstates_played_out_with_their_targets() -> None:
    s = random_positions(6)[4]
    legal = s.legal_moves(0)
    assert len(legal) > 2
    got = group(s, 0, legal, DEFAULT, 3, seed=11, rerolls=0)
    assert 2 <= len(got) <= 3
    assert len({b for b, _, _ in got}) == 1  # one bucket
    for _, f, y in got:
        assert len(f) == len(FEATURES)
        # target: final score less the hand-written value; finals lie in a sane range
        assert -100 < y + vf.base_gain(f) < 400
    assert got == group(s, 0, legal, DEFAULT, 3, seed=11, rerolls=0)  # seeded


def test_self_play_without_sampled_rerolls_never_rerolls_and_keeps_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ``--rerolls 0`` divided by zero when a reroll was on offer; it now never rerolls.
    import optimus.optimus2.bots as bots

    def no_reroll(*args: object, **kw: object) -> None:
        raise AssertionError("a reroll was valued with --rerolls 0")

    monkeypatch.setattr(bots, "reroll_steps", no_reroll)
    final, groups = play(7, DEFAULT, 0.3, 3, 0)
    assert groups and all(len(g) > 1 for g in groups)
    # Recording the groups (on copies) leaves the game itself as it would be without.
    assert final == solo(7, DEFAULT, 0)


def test_training_starts_from_a_weights_file_and_plays_each_fit_shrunk(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import optimus_lab.optimus2.train as train

    k = len(FEATURES)
    rule = [0.0] * k
    rule[5] = 3.0
    rng = Rng(2)
    played: list[Model] = []

    def fake_play(
        seed: int, w: Weights, share: float, top: int, rerolls: int
    ) -> tuple[int, list[list[Sample]]]:
        played.append(vf.get_model(w.model))
        groups = []
        for _ in range(40):
            g: list[Sample] = []
            for _ in range(3):
                f = [rng.random() for _ in range(k)]
                g.append((0, f, sum(a * b for a, b in zip(rule, f, strict=True))))
            groups.append(g)
        return 0, groups

    monkeypatch.setattr(train, "play", fake_play)
    init = vf.load_model("value_weights")
    start = tmp_path / "start.json"
    start.write_text(model_json(init, {}), encoding="utf-8")
    out = tmp_path / "out.json"
    train.main(
        ["--games", "2", "--rounds", "2", "--init", str(start), "--play-shrink", "0.5"]
        + ["--shrink", "0.25", "--ridge", "0", "--out", str(out)]
    )
    assert len(played) == 4
    # round one plays the file's model; round two the first fit at half its weight
    assert played[0] == played[1] == vf.parse_model(start.read_text(encoding="utf-8"))
    assert played[2].weights[0][5] == pytest.approx(1.5, abs=1e-6)
    shipped = vf.parse_model(out.read_text(encoding="utf-8"))
    assert shipped.weights[0][5] == pytest.approx(0.75, abs=1e-5)


def test_a_scaled_correction_scales_only_the_learned_part() -> None:
    model = vf.load_model("value_weights")
    s = random_positions(4)[20]
    t, sd, sh = progress_left(s), s.sd, s.sheets[0]
    plain = vf.learned_value(sd, sh, t, 1.0, model, 0.0)
    one = vf.learned_value(sd, sh, t, 1.0, model)
    assert plain == vf.learned_value(sd, sh, t, 1.0, Model(((),) * BUCKETS, base=1.0))
    assert one != pytest.approx(plain)
    assert vf.learned_value(sd, sh, t, 1.0, model, 3.0) - plain == pytest.approx(3 * (one - plain))
    # remembered apart: the same position at another scale is another value
    assert vf.named_value(sd, sh, t, 1.0, "value_weights", 3.0) == pytest.approx(
        vf.learned_value(sd, sh, t, 1.0, model, 3.0)
    )
    assert vf.named_value(sd, sh, t, 1.0, "value_weights") == one
    assert value(s, 0, Weights(model="value_weights", scale=0.0)) == vf.learned_value(
        sd, sh, t, turn_future(s, 0, 1.0), model, 0.0
    )


def test_a_round_group_holds_sibling_positions_at_the_end_of_the_round() -> None:
    from optimus_lab.optimus2.train import round_group

    w = Weights(model="value_weights")
    s = random_positions(6)[4]
    legal = s.legal_moves(0)
    got = round_group(s, 0, legal, w, 3, seed=11, rerolls=2)
    assert 2 <= len(got) <= 3
    (b,) = {b for b, _, _ in got}
    assert b == vf.bucket((6 - s.round) / 6)  # valued where the next round begins
    assert got == round_group(s, 0, legal, w, 3, seed=11, rerolls=2)  # seeded
    # in the last round the end of the round is the end of the game: nothing to learn
    last = next(p for p in random_positions(6) if p.round == 6 and len(p.legal_moves(0)) > 2)
    assert round_group(last, 0, last.legal_moves(0), w, 3, seed=11, rerolls=2) == []


def test_end_fit_measures_how_much_of_the_differences_a_correction_explains() -> None:
    from optimus_lab.optimus2.train import end_fit

    rng = Rng(3)
    k = len(FEATURES)
    rule = [0.0] * k
    rule[4] = 2.0
    groups = [
        [(1, f, 2.0 * f[4] + 9.0) for f in ([rng.random() for _ in range(k)] for _ in range(3))]
        for _ in range(50)
    ]
    exact = Model(tuple(tuple(rule) if b == 1 else () for b in range(BUCKETS)), base=1.0)
    assert end_fit(groups, exact) == pytest.approx((1.0, 1.0, 1.0))
    half = Model(tuple(tuple(x / 2 for x in rule) if b == 1 else () for b in range(BUCKETS)))
    r2, best, r2_best = end_fit(groups, half)
    assert (r2, best, r2_best) == pytest.approx((0.75, 2.0, 1.0))
    assert end_fit(groups, Model(((),) * BUCKETS))[:2] == (0.0, 0.0)


def test_a_race_group_holds_each_candidate_s_afterstate_and_its_playouts_mean() -> None:
    from optimus.optimus2.bots import settle_greedy
    from optimus_lab.optimus2.train import race_group

    w = Weights(model="value_weights")
    s = random_positions(6)[4]
    legal = [m for m in s.legal_moves(0) if m != "reroll"]
    cands = [*legal[:3], "reroll"]
    results = [[10.0, 20.0], [30.0], [5.0, 5.0, 8.0], [99.0]]
    got = race_group(s, 0, cands, results, w)
    assert len(got) == 3  # the reroll has no afterstate
    for (b, f, y), move, res in zip(got, cands, results, strict=False):
        c = s.clone()
        c.apply_move(0, move)
        settle_greedy(c, 0, w)
        t = progress_left(c)
        score, feats = vf.features(c.sd, c.sheets[0], t, turn_future(c, 0, 1.0))
        assert (b, f) == (vf.bucket(t), feats)
        assert y == pytest.approx(sum(res) / len(res) - score - vf.base_gain(feats))
    # one candidate alone teaches no difference; the game's last pick teaches nothing
    assert race_group(s, 0, [legal[0], "reroll"], [[1.0], [2.0]], w) == []
    last = random_positions(6)[-2]
    moves = last.legal_moves(0)
    assert race_group(last, 0, moves, [[1.0]] * len(moves), w) == []


def test_the_recorder_plays_as_hard_and_keeps_its_raced_decisions(tmp_path: Path) -> None:
    from optimus.core.bots import Budget, run_to_end
    from optimus.optimus2.bots import HardBot
    from optimus.optimus2.game import Optimus2Game
    from optimus_lab.optimus2.train import Recorder, main, read_groups

    game = Optimus2Game()
    s = random_positions(6)[4]
    obs, legal = s.observation(0), s.legal_moves(0)
    Recorder.groups = []
    assert Recorder.solo_net is None  # hard plays its networks: the recorder, the race
    assert Recorder.multi_net is None
    race = type("Race", (HardBot,), {"solo_net": None, "multi_net": None})
    hard = race(game, 0, Rng(3), Budget(iterations=3))
    rec = Recorder(game, 0, Rng(3), Budget(iterations=3))
    assert run_to_end(rec.think(obs, legal)) == run_to_end(hard.think(obs, legal))
    assert len(Recorder.groups) == 1 and len(Recorder.groups[0]) > 1
    assert [len(r) for r in rec.raced] == [len(r) for r in hard.raced]

    log = tmp_path / "d.jsonl"
    args = ["--distill", "1", "--iterations", "1", "--seed", "5", "--log", str(log)]
    main(args)
    main(args)  # resumes: the game is logged already
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [r["g"] for r in rows] == [0]
    groups = read_groups([str(log), str(log)])  # a game in two logs counts once
    assert len(groups) == len(rows[0]["groups"]) > 10
    out = tmp_path / "w.json"
    main(["--fit-from", str(log), "--shrink", "0.5", "--out", str(out)])
    model = vf.parse_model(out.read_text(encoding="utf-8"))
    assert model.weights[vf.bucket(0.9)] == pytest.approx(
        tuple(0.5 * x for x in fit(groups).weights[vf.bucket(0.9)]), abs=1e-5
    )


def test_a_fit_from_logs_refuses_a_bad_log_or_a_missing_out_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from optimus_lab.optimus2.train import main

    good = tmp_path / "good.jsonl"
    group = [[1, [0.5] * len(FEATURES), 2.0], [1, [1.5] * len(FEATURES), 3.0]]
    good.write_text(json.dumps({"g": 0, "score": 200, "groups": [group]}) + "\n")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(good.read_text() + json.dumps({"g": 1, "groups": [[[1, [0.5], 2.0]]]}) + "\n")
    out = tmp_path / "w.json"
    for log, reason in (
        (bad, "bad.jsonl, line 2: not a game of groups"),
        (tmp_path / "none.jsonl", "none.jsonl: No such file"),
    ):
        with pytest.raises(SystemExit):
            main(["--fit-from", str(log), "--out", str(out)])
        assert reason in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--fit-from", str(good)])  # no --out: the shipped weights stay as they are
    assert "--fit-from needs --out" in capsys.readouterr().err
    assert not out.exists()
    main(["--fit-from", str(good), "--out", str(out)])
    assert vf.parse_model(out.read_text(encoding="utf-8")).base == 1.0


def test_the_round_end_groups_are_logged_game_by_game_and_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from optimus_lab.optimus2.train import main, play, read_groups, round_group

    log = tmp_path / "e.jsonl"
    args = ["--share", "0.1", "--seed", "40", "--log", str(log), "--scales", "1"]
    main(["--ends", "1", *args])
    capsys.readouterr()
    main(["--ends", "2", *args])  # resumes: plays game 1 only
    assert capsys.readouterr().out.startswith("1 games,")
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [r["g"] for r in rows] == [0, 1]
    w = Weights(model="value_weights")
    expected = [gr for g in (0, 1) for gr in play(40 + g, w, 0.1, 4, 2, round_group)[1]]
    got = read_groups([str(log)])
    assert len(got) == len(expected) >= 2
    for a, b in zip(got, expected, strict=True):
        assert [x[0] for x in a] == [x[0] for x in b]
        assert [x[2] for x in a] == pytest.approx([x[2] for x in b], abs=1e-5)
