"""Strength runs game by game with CPU decision times (optimus_lab.optimus2.strength)."""

from __future__ import annotations

from optimus.core.arena import mean_ci, run_arena
from optimus.optimus2.game import Optimus2Game
from optimus_lab.optimus2.strength import main, read_log


def test_a_run_resumes_its_log_and_plays_the_arena_s_games(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    log = str(tmp_path / "run.jsonl")
    main(["--players", "easy,normal", "--games", "1", "--seed", "3", "--log", log])
    main(["--players", "easy,normal", "--games", "2", "--seed", "3", "--log", log])
    rows = read_log(log)
    assert [r["g"] for r in rows] == [0, 1]  # the second run added only game 1
    arena = run_arena(Optimus2Game(), ["easy", "normal"], 2, 3)
    players = arena["players"]
    assert isinstance(players, list)
    for i, p in enumerate(players):
        assert isinstance(p, dict)
        assert p["mean_score"] == sum(r["scores"][i] for r in rows) / 2
    assert all(len(r["cpu_ms"][i]) > 10 for r in rows for i in range(2))
    out = capsys.readouterr().out
    assert "2 games" in out and "1 normal: mean" in out
    main(["--players", "easy,normal", "--log", log, "--summary"])
    assert len(read_log(log)) == 2  # a summary plays nothing
    # another process can play other games; the summary counts each game once
    other = str(tmp_path / "other.jsonl")
    main(
        ["--players", "easy,normal", "--first", "2", "--games", "3", "--seed", "3", "--log", other]
    )
    assert [r["g"] for r in read_log(other)] == [2]
    capsys.readouterr()
    main(["--players", "easy,normal", "--summary", "--log", log, "--log", other, "--log", log])
    assert capsys.readouterr().out.startswith("3 games")


def test_mean_ci_is_the_normal_interval_of_the_mean() -> None:
    m, lo, hi = mean_ci([1.0, 3.0])
    assert m == 2.0
    assert (round(lo, 9), hi) == (0.04, 3.96)  # sd sqrt(2): half width 1.96 * sqrt(2) / sqrt(2)


def test_a_summary_against_another_run_pairs_the_games_both_played(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import json

    def write(path: str, scores: dict[int, list[float]]) -> None:
        with open(path, "w", encoding="utf-8") as f:
            for g, s in scores.items():
                row = {"g": g, "scores": s, "wins": [1.0, 0.0], "cpu_ms": [[1.0], [1.0]]}
                f.write(json.dumps(row) + "\n")

    new, old = str(tmp_path / "new.jsonl"), str(tmp_path / "old.jsonl")
    write(new, {0: [10, 5], 1: [14, 5], 2: [30, 5], 7: [99, 5]})
    write(old, {0: [9, 6], 1: [11, 6], 2: [24, 6], 3: [50, 6]})
    main(["--players", "hard,normal", "--summary", "--log", new, "--against", old])
    out = capsys.readouterr().out
    # games 0-2 only: differences 1, 3 and 6 for player 0, -1 each for player 1
    assert "paired over the 3 games in common:" in out
    assert "0 hard: +3.3 (95% CI" in out
    assert "1 normal: -1.0 (95% CI -1.0 to -1.0)" in out
    main(["--players", "hard,normal", "--summary", "--log", str(tmp_path / "none.jsonl")])
    assert "0 games: the logs hold no game yet" in capsys.readouterr().out
    write(old, {5: [1, 1]})
    main(["--players", "hard,normal", "--summary", "--log", new, "--against", old])
    assert "0 games in common, too few" in capsys.readouterr().out


def test_hard_s_playouts_can_be_set_for_a_run_and_are_restored_after(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from optimus.optimus2.bots import LEARNED, ROUND_END, HardBot
    from optimus.optimus2.heuristics import Weights
    from optimus.optimus2.value import get_model, load_model

    shipped = load_model(LEARNED.model).weights[2]
    k = max(range(len(shipped)), key=lambda i: abs(shipped[i]))  # a weight far from 0
    seen: list[tuple[int, str, float, object]] = []

    def stop(self, c, rng):  # type: ignore[no-untyped-def]
        correction = get_model(LEARNED.model).weights[2][k]
        seen.append((self.horizon, self.weights.model, correction, self.end))
        raise KeyboardInterrupt  # the first playout is enough

    monkeypatch.setattr(HardBot, "playout", stop)
    log = str(tmp_path / "h.jsonl")
    args = ["--players", "hard", "--solo", "race", "--games", "1", "--iterations", "1"]
    args += ["--log", log]
    with pytest.raises(KeyboardInterrupt):
        main(
            [*args, "--horizon", "2", "--playouts", "hand", "--correction", "1.5"]
            + ["--end-scale", "2.5"]
        )
    with pytest.raises(KeyboardInterrupt):
        main(args)
    # the defaults: 0, the learned value, the correction as shipped
    ends = Weights(model="value_weights", scale=2.5)
    assert seen == [
        (2, "", 1.5 * shipped[k], ends),
        (0, "value_weights", shipped[k], ROUND_END),
    ]
    assert (HardBot.horizon, HardBot.weights, HardBot.end) == (0, LEARNED, ROUND_END)
    assert get_model(LEARNED.model) is load_model(LEARNED.model)  # no copy left registered


def test_a_correction_that_is_not_a_number_is_refused(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import pytest

    log = str(tmp_path / "c.jsonl")
    for option in ("--correction", "--end-scale"):
        for bad in ("nan", "inf"):
            with pytest.raises(SystemExit):
                main(["--players", "hard", "--games", "1", option, bad, "--log", log])
            assert f"{option} must be a finite number" in capsys.readouterr().err
    assert not (tmp_path / "c.jsonl").exists()  # nothing was played


def test_a_registered_model_is_kept_after_a_correction_run(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from optimus.optimus2.bots import LEARNED, HardBot
    from optimus.optimus2.value import Model, get_model, register_model, unregister_model

    def stop(self, c, rng):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(HardBot, "playout", stop)
    mine = Model(((),) * 6, base=0.5)
    register_model(LEARNED.model, mine)
    try:
        log = str(tmp_path / "m.jsonl")
        with pytest.raises(KeyboardInterrupt):
            main(
                [
                    "--players",
                    "hard",
                    "--solo",
                    "race",
                    "--games",
                    "1",
                    "--correction",
                    "2",
                    "--log",
                    log,
                ]
            )
        assert get_model(LEARNED.model) is mine
    finally:
        unregister_model(LEARNED.model)


def test_a_weights_file_values_hard_s_playouts_ends_for_a_run(
    tmp_path, monkeypatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from optimus.optimus2.bots import ROUND_END, HardBot
    from optimus.optimus2.heuristics import Weights
    from optimus.optimus2.value import BUCKETS, FEATURES, Model, get_model, registered_model
    from optimus_lab.optimus2.strength import END
    from optimus_lab.optimus2.train import model_json

    mine = Model(((1.0,) * len(FEATURES),) * BUCKETS, base=1.0)
    path = tmp_path / "end.json"
    path.write_text(model_json(mine, {}), encoding="utf-8")
    seen: list[tuple[object, Model]] = []

    def stop(self, c, rng):  # type: ignore[no-untyped-def]
        seen.append((self.end, get_model(self.end.model)))
        raise KeyboardInterrupt

    monkeypatch.setattr(HardBot, "playout", stop)
    log = str(tmp_path / "e.jsonl")
    args = ["--players", "hard", "--solo", "race", "--games", "1", "--iterations", "1"]
    args += ["--log", log]
    with pytest.raises(KeyboardInterrupt):
        main([*args, "--end-weights", str(path), "--end-scale", "0.5"])
    assert seen == [(Weights(model=END, scale=0.5), mine)]
    assert HardBot.end == ROUND_END and registered_model(END) is None  # restored after the run
    # a file that is not a weights file is refused with the reason, and nothing is played
    path.write_text("{}", encoding="utf-8")
    with pytest.raises(SystemExit):
        main([*args, "--end-weights", str(path)])
    err = capsys.readouterr().err
    assert "--end-weights" in err and "features are not those of this version" in err
    with pytest.raises(SystemExit):
        main([*args, "--end-weights", str(tmp_path / "missing.json")])
    assert "missing.json" in capsys.readouterr().err
    assert not (tmp_path / "e.jsonl").exists()
