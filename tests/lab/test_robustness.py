"""The robustness benchmark command (optimus_lab.robustness) at a tiny size."""

from __future__ import annotations

import pytest

from optimus_lab.robustness import main


def test_the_command_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "6", "--game", "tiny", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("tiny: 6 games, ") and ", 0 exceptions, " in out
