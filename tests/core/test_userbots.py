"""A player's bot from a file: loading, finding Bot subclasses, the arena's file.py:Class."""

from __future__ import annotations

import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from optimus.core import userbots
from optimus.core.arena import resolve_bot, run_arena
from optimus.core.bots import Bot
from optimus.core.protocol import GameError
from optimus.fileiras.game import FileirasGame
from optimus.tiny.game import TinyGame

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "greedy_bot.py"


def test_a_source_becomes_a_module_with_its_bots_in_order():
    module = userbots.load_source(
        "two_bots.py",
        "from optimus.core.bots import Bot, RandomBot\n"
        "import json\n"
        "class First(RandomBot):\n    pass\n"
        "class Helper:\n    pass\n"
        "class Second(Bot):\n    def think(self, o, m):\n        yield\n        return m[0]\n",
    )
    assert [userbots.spec_of(c) for c in userbots.find_bots(module)] == [
        "two_bots:First",
        "two_bots:Second",
    ]
    assert sys.modules["two_bots"] is module  # dataclasses and pickling need it


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("x = 1\ndef f(:\n", "bad.py, line 2: SyntaxError"),
        ("x = 1\n  y = 2\n", "bad.py, line 2: IndentationError"),
        ("import math\nimport no_such_module_here\n", "bad.py, line 2: ModuleNotFoundError"),
        ("a = 1\nb = 2\nc = 1 / 0\n", "bad.py, line 3: ZeroDivisionError: division by zero"),
    ],
)
def test_syntax_and_import_errors_name_the_line(source, message):
    with pytest.raises(userbots.UserBotError) as caught:
        userbots.load_source("bad.py", source)
    assert str(caught.value).startswith(message)
    assert "bad" not in sys.modules  # a failed import leaves nothing behind


def test_a_file_without_a_bot_is_refused_in_words():
    module = userbots.load_source("plain.py", "from optimus.core.bots import Bot\nX = 1\n")
    with pytest.raises(userbots.UserBotError, match="plain.py defines no subclass of .*Bot"):
        userbots.find_bots(module)


def test_a_file_cannot_hide_a_module_of_the_page():
    with pytest.raises(userbots.UserBotError, match="'json' already exists"):
        userbots.load_source("json.py", "X = 1\n")
    assert "X" not in vars(sys.modules["json"])


def test_a_newer_file_of_the_same_name_replaces_the_older():
    userbots.load_source(
        "again.py", "from optimus.core.bots import RandomBot\nclass A(RandomBot): pass\n"
    )
    second = userbots.load_source(
        "again.py", "from optimus.core.bots import RandomBot\nclass B(RandomBot): pass\n"
    )
    assert [c.__name__ for c in userbots.find_bots(second)] == ["B"]
    assert sys.modules["again"] is second


def test_a_file_that_is_not_text_is_refused():
    with pytest.raises(userbots.UserBotError, match="not a UTF-8 text file"):
        userbots.decode(b"PK\x03\x04\xff\xfe", "bot.py")


def test_registered_bots_are_per_game_and_named_by_class_and_module():
    userbots.forget()
    module = userbots.load_source(
        "reg_bot.py", "from optimus.core.bots import RandomBot\nclass R(RandomBot): pass\n"
    )
    specs = [userbots.spec_of(c) for c in userbots.find_bots(module)]
    file = userbots.BotFile("reg_bot.py", b"...")
    assert userbots.register("fileiras", specs, file) == ["reg_bot:R"]
    assert userbots.registered("fileiras") == {"reg_bot:R": file}
    assert userbots.files("fileiras") == [file]
    assert userbots.registered("optimus") == {}
    assert userbots.label("reg_bot:R") == "R (reg_bot)"
    userbots.forget()
    assert userbots.registered("fileiras") == {}


def test_the_arena_takes_a_path_to_a_file():
    factory = resolve_bot(FileirasGame(), f"{EXAMPLE}:GreedyBot")
    assert isinstance(factory, type) and issubclass(factory, Bot)
    result = run_arena(FileirasGame(), [f"{EXAMPLE}:GreedyBot", "easy"], games=2, seed=3)
    players = result["players"]
    assert isinstance(players, list) and len(players) == 2


def test_bad_files_are_game_errors(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("def think(:\n")
    with pytest.raises(GameError, match="broken.py, line 1: SyntaxError"):
        resolve_bot(TinyGame(), f"{broken}:Bot")
    with pytest.raises(GameError, match="cannot read .*missing.py"):
        resolve_bot(TinyGame(), f"{tmp_path / 'missing.py'}:Bot")
    with pytest.raises(GameError, match=r"has no class 'Nope' \(its bots: GreedyBot\)"):
        resolve_bot(TinyGame(), f"{EXAMPLE}:Nope")
    with pytest.raises(GameError, match="not a subclass"):
        resolve_bot(TinyGame(), f"{EXAMPLE}:Budget")


def test_the_cli_reports_a_bad_file_without_a_traceback(tmp_path):
    broken = tmp_path / "broken_cli.py"
    broken.write_text("import os\nfrom nowhere import thing\n")
    run = subprocess.run(
        [sys.executable, "-m", "optimus", "arena", "fileiras", "--players", f"{broken}:X,easy"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "py"), "PATH": ""},
        cwd=tmp_path,
    )
    assert run.returncode == 2, run.stderr
    assert "broken_cli.py, line 2: ModuleNotFoundError" in run.stderr
    assert "Traceback" not in run.stderr


def make_wheel(path: Path, files: dict[str, str]) -> bytes:
    """A minimal pure-Python wheel, as the browser test builds one."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
        archive.writestr("mywheelbot-0.1.dist-info/METADATA", "Name: mywheelbot\nVersion: 0.1\n")
    return path.read_bytes()


def install(data: bytes, where: Path) -> None:
    """What micropip does with a pure wheel: unpack it on the import path."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(where)


def test_a_wheel_names_its_modules_and_its_bots_are_found(tmp_path, monkeypatch):
    source = EXAMPLE.read_text()
    data = make_wheel(
        tmp_path / "w.whl",
        {"wheelbots/__init__.py": "from .greedy import GreedyBot\n", "wheelbots/greedy.py": source},
    )
    assert userbots.wheel_modules(data, "w.whl") == ["wheelbots"]
    site = tmp_path / "site"
    install(data, site)
    monkeypatch.syspath_prepend(str(site))
    modules = userbots.import_installed(["wheelbots"])
    assert [userbots.spec_of(c) for c in userbots.find_bots(*modules)] == [
        "wheelbots.greedy:GreedyBot"
    ]


def test_bad_wheels_are_refused_in_words(tmp_path, monkeypatch):
    with pytest.raises(userbots.UserBotError, match="x.whl is not a wheel"):
        userbots.wheel_modules(b"not a zip", "x.whl")
    only_meta = make_wheel(tmp_path / "m.whl", {})
    with pytest.raises(userbots.UserBotError, match="holds no Python module"):
        userbots.wheel_modules(only_meta, "m.whl")
    hiding = make_wheel(tmp_path / "h.whl", {"json/__init__.py": "X = 1\n"})
    with pytest.raises(userbots.UserBotError, match="'json' would hide"):
        userbots.wheel_modules(hiding, "h.whl")
    broken = make_wheel(tmp_path / "b.whl", {"brokenwheel/__init__.py": "a = 1\nimport nowhere\n"})
    install(broken, tmp_path / "site")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    with pytest.raises(userbots.UserBotError, match=r"__init__.py, line 2: ModuleNotFoundError"):
        userbots.import_installed(userbots.wheel_modules(broken, "b.whl"))
