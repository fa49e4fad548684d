"""``--jobs``: games shared between processes give exactly the results of one process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from optimus.core.arena import run_arena
from optimus.core.registry import get_game

ROOT = Path(__file__).resolve().parents[2]


def _without_times(result: dict) -> dict:
    out = dict(result)
    out["players"] = [
        {k: v for k, v in p.items() if not k.startswith("decision_ms")} for p in result["players"]
    ]
    return out


@pytest.mark.parametrize(
    ("name", "specs", "games", "options"),
    [
        ("tiny", ["random", "random", "random"], 13, {}),
        ("fileiras", ["normal", "easy", "random"], 5, {}),
        ("optimus", ["random", "random"], 3, {"sheet": "random:4"}),
    ],
)
def test_jobs_give_exactly_the_results_of_one_process(name, specs, games, options) -> None:
    game = get_game(name)
    one = run_arena(game, specs, games, 7, options, jobs=1)
    two = run_arena(game, specs, games, 7, options, jobs=2)
    many = run_arena(game, specs, games, 7, options, jobs=games + 3)
    assert _without_times(one) == _without_times(two) == _without_times(many)
    assert all(p["decision_ms_mean"] is not None for p in two["players"])


def test_cli_jobs_flag_matches_one_process() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    runs = []
    for jobs in ("1", "2"):
        args = ["arena", "tiny", "--players", "random,random", "--games", "9", "--json"]
        run = subprocess.run(
            [sys.executable, "-m", "optimus", *args, "--jobs", jobs],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
        )
        assert run.returncode == 0, run.stderr
        runs.append(_without_times(json.loads(run.stdout)))
    assert runs[0] == runs[1]
