"""The value network's training (optimus_lab.optimus2.net): gradients, resumes, Ray, export."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from optimus.core.arena import executor
from optimus.optimus2.game import Optimus2State
from optimus.optimus2.net import feature_names, forward, parse_net, position
from optimus.optimus2.sheet import load_sheet
from optimus_lab.optimus2 import net

SMALL = {"hidden": [8, 8], "block": 4, "eval_every": 0, "report": 4, "eval_games": 4}


def small_run(folder: Path, **cfg: object) -> net.Run:
    return net.Run(str(folder), {**net.DEFAULTS, **SMALL, **cfg})


def test_the_gradients_are_those_of_the_loss() -> None:
    p = {k: v.astype(np.float64) for k, v in net.init_params(40, [6, 5], 3).items()}
    rng = np.random.default_rng(0)
    feats = [sorted(rng.choice(40, 12, replace=False).tolist()) for _ in range(5)]
    x = net.encode(feats, 40, np.float64)
    target = rng.standard_normal(5)
    g, _ = net.gradients(p, x, target)
    for k in net.NAMES:
        for _ in range(3):
            i = tuple(int(rng.integers(n)) for n in p[k].shape)
            if k == "w1":
                i = (feats[1][2], i[1])
            old = p[k][i]
            p[k][i] = old + 1e-6
            up = net.gradients(p, x, target)[1]
            p[k][i] = old - 1e-6
            down = net.gradients(p, x, target)[1]
            p[k][i] = old
            assert (up - down) / 2e-6 == pytest.approx(float(g[k][i]), rel=1e-4, abs=1e-8), k


def test_a_resumed_run_goes_on_exactly_as_one_run(tmp_path: Path) -> None:
    pool = executor(1)
    one = small_run(tmp_path / "one")
    net.train(one, 8, pool, echo=False)
    two = small_run(tmp_path / "two")
    (tmp_path / "two").mkdir()
    net.train(two, 4, pool, echo=False)
    again = net.Run.load(str(tmp_path / "two"))
    assert again.episodes == 4 and again.opt.t == 4
    net.train(again, 8, pool, echo=False)
    for k in net.NAMES:
        assert np.array_equal(one.p[k], again.p[k]), k
        assert np.array_equal(one.opt.m[k], again.opt.m[k]), k
    assert one.recent == again.recent


def test_the_curve_has_a_line_per_evaluation_and_a_resume_drops_later_lines(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    run = small_run(folder, eval_every=4)
    net.train(run, 8, executor(1), echo=False)
    rows = run.curve()
    assert [r["episodes"] for r in rows] == [0, 4, 8]
    assert all(r["heldout_mean"] > 0 and r["wall_s"] >= 0 for r in rows)
    assert len(rows[0]["heldout_areas"]) == 5 and rows[0]["heldout_foxes"] >= 0
    assert rows[0]["heldout_ci"] > 0
    assert rows[1]["train_mean"] is not None and rows[1]["cap"] == 4
    with open(run.curve_path, "a", encoding="utf-8") as f:  # a line written before a stop
        f.write(json.dumps({**rows[-1], "episodes": 12}) + "\n")
    assert [r["episodes"] for r in net.Run.load(str(folder)).curve()] == [0, 4, 8]


def test_a_game_depends_on_the_seed_and_its_number_only_and_the_cap_holds() -> None:
    p = net.init_params(len(feature_names(load_sheet())), [8, 8], 1)
    a = net.play(p, 5, 7, 0.1, 2)
    assert a == net.play(p, 5, 7, 0.1, 2)
    assert a != net.play(p, 5, 8, 0.1, 2)
    ((feats, nows),) = a[0]
    assert a[2][0] <= 2
    assert a[1] == a[3] and a[1][0] > 0 and len(feats) == len(nows) > 10


def test_schedules() -> None:
    cfg = {**net.DEFAULTS, "curriculum": "4:10,8:20", "epsilon": 0.08, "epsilon_end": 0.01}
    assert [net.cap_at(cfg, g) for g in (0, 9, 10, 19, 20)] == [4, 4, 8, 8, None]
    cfg["anneal"] = 100
    assert net.epsilon_at(cfg, 0) == 0.08
    assert net.epsilon_at(cfg, 50) == pytest.approx(0.045)
    assert net.epsilon_at(cfg, 500) == pytest.approx(0.01)


def test_the_exported_network_gives_the_numpy_values_in_pure_python(tmp_path: Path) -> None:
    sd = load_sheet()
    p = net.init_params(len(feature_names(sd)), [16, 12], 4)
    rng = np.random.default_rng(1)
    for k in net.NAMES:  # a network with biases and live units of both signs
        p[k] += (rng.standard_normal(p[k].shape) * 0.1).astype(np.float32)
    model = parse_net(net.export_json(p, {}, digits=9))
    feats = net.play(p, 2, 0, 0.2, None)[0][0][0]
    values = net.predict(p, feats)
    pure = [forward(model, idx) for idx in feats]
    assert np.allclose(values, pure, rtol=0, atol=1e-6 * net.SCALE)
    # the shipped precision (3 significant digits): within a point of the float32 values
    short = parse_net(net.export_json(p, {}))
    assert max(abs(forward(short, i) - v) for i, v in zip(feats, values, strict=True)) < 1.0
    s = Optimus2State(1, sd)
    assert position(s, 0)[0] == 0


def test_ray_plays_the_same_episodes_as_local_processes() -> None:
    pytest.importorskip("ray")
    p = net.init_params(len(feature_names(load_sheet())), [8, 8], 2)
    p3 = net.init_params(len(feature_names(load_sheet(), True)), [8, 8], 2)
    tasks: list[net.Block] = [
        (p, 9, [0, 2], [0.1, 0.1], [4, 4], "train", 1),
        (p, 9, [1, 3], [0.1, 0.1], [None, None], "train", 1),
        (p3, 9, [0], [0.1], [None], "train", 3),
    ]
    held: list[tuple[net.Params, int, list[int], int]] = [(p3, 5, [0], 3)]
    local = executor(2)
    try:
        expected = list(local.map(net.play_block, tasks))
        expected_held = list(local.map(net.eval_block, held))
    finally:
        local.shutdown()
    pool = net.make_pool(2, "")
    try:
        assert pool.map(net.play_block, tasks) == expected
        assert pool.map(net.eval_block, held) == expected_held  # games against normal
    finally:
        pool.ray.shutdown()


def test_the_command_line_trains_resumes_with_a_change_and_exports(tmp_path: Path) -> None:
    folder = str(tmp_path / "run")
    small = ["--hidden", "8,8", "--block", "2", "--eval-every", "0", "--report", "2"]
    net.main(["train", "--run", folder, "--episodes", "2", *small])
    with pytest.raises(SystemExit):  # a second start would lose the first
        net.main(["train", "--run", folder, "--episodes", "4"])
    for bad in (
        ["train", "--run", folder, "--resume", "--hidden", "16,16"],  # a run's shape stays
        ["train", "--run", folder + "x", "--resume"],  # no such run
        ["export", "--run", folder + "x", "--out", str(tmp_path / "x.json")],
        ["train", "--run", folder + "y", "--hidden", "16"],
        ["train", "--run", folder + "y", "--curriculum", "4-100"],
        ["train", "--run", folder + "y", "--players", "5"],
    ):
        with pytest.raises(SystemExit):
            net.main(bad)
    assert not os.path.exists(folder + "y")
    net.main(["train", "--run", folder, "--episodes", "4", "--resume", "--lr", "0.01"])
    run = net.Run.load(folder)
    assert run.episodes == 4 and run.cfg["lr"] == 0.01 and run.opt.lr == 0.01
    assert run.cfg["changes"] == [{"episodes": 2, "lr": 0.01}]
    out = tmp_path / "net.json"
    net.main(["export", "--run", folder, "--out", str(out)])
    model = parse_net(out.read_text(encoding="utf-8"))
    assert len(model.w1) == len(feature_names(load_sheet())) and len(model.b2) == 8


def test_a_run_with_others_learns_the_margin_and_is_evaluated_against_normal(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "multi"
    run = small_run(folder, players=3, eval_every=2, eval_games=2, block=2, report=2)
    assert len(run.p["w1"]) == len(feature_names(load_sheet(), True))
    net.train(run, 2, executor(1), echo=False)
    rows = run.curve()
    assert [r["episodes"] for r in rows] == [0, 2]
    assert 0 <= rows[-1]["heldout_win"] <= 1 and rows[-1]["heldout_mean"] > 0
    assert rows[-1]["train_mean"] > 0  # the seats' mean score
    traces, margins, _, scores, ends = net.play(run.p, 1, 0, 0.0, None, "train", 3)
    assert [sum(e[:5]) + e[5] * min(e[:5]) for e in ends] == scores
    assert len(traces) == 3 and abs(sum(margins)) < 1e-9
    assert margins[0] == pytest.approx(scores[0] - (scores[1] + scores[2]) / 2)
    model = parse_net(net.export_json(run.p, {}, digits=9, multi=True))
    assert model.multi
    feats = traces[1][0]
    assert np.allclose(
        net.predict(run.p, feats), [forward(model, i) for i in feats], rtol=0, atol=1e-4
    )


def test_a_run_saved_before_a_setting_existed_resumes_with_its_default(tmp_path: Path) -> None:
    run = small_run(tmp_path / "old")
    net.train(run, 4, executor(1), echo=False)
    with np.load(run.state_path) as z:
        arrays = dict(z)
    meta = json.loads(bytes(arrays["meta"]).decode())
    del meta["cfg"]["players"]  # the runs started before games with others
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    np.savez_compressed(run.state_path, **arrays)
    again = net.Run.load(run.folder)
    assert again.cfg["players"] == 1 and again.episodes == 4


def test_the_arena_plays_an_exported_network_from_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from optimus.core.arena import play_game
    from optimus.optimus2.game import Optimus2Game

    game = Optimus2Game()
    opts = game.normalize_options({"players": 1})
    spec = ["optimus_lab.optimus2.net:FileNetBot"]
    monkeypatch.delenv("OPTIMUS2_NET", raising=False)
    with pytest.raises(ValueError, match="OPTIMUS2_NET"):
        play_game(game, spec, 0, 1, opts, None)
    p = net.init_params(len(feature_names(load_sheet())), [8, 8], 3)
    out = tmp_path / "net.json"
    out.write_text(net.export_json(p, {}), encoding="utf-8")
    monkeypatch.setenv("OPTIMUS2_NET", str(out))
    scores, _, _ = play_game(game, spec, 0, 1, opts, None)
    assert scores[0] > 0


def test_speed_measures_self_play_and_restores_the_network_s_calls(tmp_path: Path) -> None:
    run = small_run(tmp_path / "speed")
    figures = net.speed(run, 2)
    assert figures["games_per_s"] > 0 and 0 < figures["network_share"] < 1
    assert net.predict.__name__ == "predict"  # the timing wrapper is gone
