"""The bots' fingerprint: a hash of the moves of fixed games, the same on every run."""

from __future__ import annotations

import optimus_lab.fingerprint as fingerprint_module
from optimus_lab.fingerprint import fingerprint, main


def test_the_same_games_give_the_same_hash_and_other_seeds_another() -> None:
    first, cpu = fingerprint("fileiras", ("easy", "normal"), 1, 2)
    again, _ = fingerprint("fileiras", ("easy", "normal"), 1, 2)
    other, _ = fingerprint("fileiras", ("easy", "normal"), 1, 2, seed=8)
    assert first == again != other
    assert set(cpu) == {"easy", "normal"} and all(count > 0 for _, count in cpu.values())


def test_the_command_prints_a_line_per_line_up_of_the_games_asked_for(  # type: ignore[no-untyped-def]
    capsys, monkeypatch
) -> None:
    runs = (("fileiras", ("easy", "normal"), 1, 2), ("optimus", ("easy",), 1, 2))
    monkeypatch.setattr(fingerprint_module, "RUNS", runs)
    main(["--game", "fileiras"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:4] for line in lines] == [
        ["fileiras", "easy,normal", "x1", "it=2"],
    ]
