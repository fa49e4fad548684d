"""The command line plays any valid sheet and refuses bad ones with exit status 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from optimus.optimus.generate import generate_sheet
from optimus.optimus.sheet import standard_sheet

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    return subprocess.run(
        [sys.executable, "-m", "optimus", *args], capture_output=True, text=True, env=env, cwd=ROOT
    )


def arena(sheet: str) -> subprocess.CompletedProcess[str]:
    return cli(
        "arena", "optimus", "--players", "random", "--games", "2", "--jobs", "1",
        "--json", "--option", f"sheet={sheet}",
    )  # fmt: skip


def test_arena_plays_a_sheet_file_and_a_random_sheet(tmp_path: Path) -> None:
    path = tmp_path / "mine.txt"
    path.write_text(generate_sheet(31).text())
    run = arena(str(path))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["options"]["sheet"] == generate_sheet(31).compact()
    run = arena("random:12")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["options"]["sheet"] == "random:12"


def test_arena_refuses_missing_unreadable_and_invalid_sheets(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    invalid = tmp_path / "invalid.txt"
    text = standard_sheet("harbour").text()
    invalid.write_text(text[:20] + text[21:])  # line 2 one letter short
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    cases = [
        (str(tmp_path / "missing.txt"), "cannot read sheet file"),
        (str(folder), "cannot read sheet file"),
        (str(binary), "cannot read sheet file"),
        (str(invalid), "line 2 has 14 letters, not 15"),
        ("random:x", "random:SEED wants a whole number"),
    ]
    for sheet, fragment in cases:
        run = arena(sheet)
        assert run.returncode == 2, (sheet, run.stdout)
        assert fragment in run.stderr and "Traceback" not in run.stderr


def test_bench_reports_random_games_and_the_sheet_generator() -> None:
    run = cli("bench", "--seconds", "0.05", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert {(r["game"], r["players"]) for r in data["random_games"]} >= {
        ("optimus", n) for n in range(1, 7)
    }
    assert data["optimus_sheet_generator_ms"] > 0
