"""The Optimus strength tool (optimus_lab.optimus.strength)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from optimus.core.arena import run_arena
from optimus.core.bots import Budget
from optimus.core.rng import Rng
from optimus.optimus.game import OptimusGame
from optimus_lab.optimus import strength


def test_a_run_logs_the_arenas_games_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "easy.jsonl"
    strength.main(["--players", "easy", "--games", "2", "--seed", "3", "--log", str(log)])
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["g"] for r in rows] == [0, 1]
    assert all(len(r["cpu_ms"][0]) == 30 for r in rows)  # a decision per solo roll
    # the same games as the arena's
    arena = run_arena(OptimusGame(), ["easy"], 2, 3, {}, Budget(iterations=4), jobs=1)
    players = arena["players"]
    assert isinstance(players, list) and isinstance(players[0], dict)
    assert sum(r["scores"][0] for r in rows) / 2 == players[0]["mean_score"]
    # a longer run goes on where the log ends; the same run again is a paired difference of 0
    strength.main(["--players", "easy", "--games", "3", "--seed", "3", "--log", str(log)])
    assert len(log.read_text().splitlines()) == 3
    capsys.readouterr()
    strength.main(["--summary", "--log", str(log), "--against", str(log)])
    out = capsys.readouterr().out
    assert "3 games" in out and "score +0.00" in out


def test_the_one_roll_bot_never_searches_two_rolls_deep() -> None:
    bot = strength.OneRollBot(OptimusGame(), 0, Rng(1), Budget(iterations=4))
    assert bot.limits() == (0, None)
