"""Our code split into the boot's archives and the ones fetched later (build.py's
``split_archives``/``unit_config``, web/lazy.py's ``Archives``), in CPython.

The browser side (fetching, the loading note, offline) is in tests/e2e."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from optimus.games import GAMES
from sitebuild import PY_SRC, BuildError, archives
from sitebuild.files import zip_bytes
from sitebuild.howto import compiled as howto_compiled
from sitebuild.i18n import compiled as i18n_compiled

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses need the module registered
    spec.loader.exec_module(module)
    return module


lazy = _load("optimus_web_lazy", ROOT / "web" / "lazy.py")


@pytest.fixture(scope="module")
def split(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[str, bytes]]]:
    out = tmp_path_factory.mktemp("archives")
    wheel = archives.build_wheel(out).read_bytes()
    web = archives.build_web_zip(out).read_bytes()
    return dict(archives.split_archives(wheel, web))


def test_the_boot_ships_only_what_it_imports_and_each_file_goes_in_one_archive(split) -> None:
    out = Path(PY_SRC)
    ours = {f"optimus/{p.relative_to(out).as_posix()}" for p in out.rglob("*") if p.is_file()}
    ours = {n for n in ours if "__pycache__" not in n and not n.endswith(".pyc")}
    ours |= {f"optimus_web/{p.name}" for p in (ROOT / "web").glob("*.py")}
    ours |= {name for name, _ in i18n_compiled()} | {name for name, _ in howto_compiled()}
    names = [name for entries in split.values() for name, _ in entries]
    code = [name for name in names if ".dist-info/" not in name]
    assert sorted(code) == sorted(ours)  # every file once
    boot = {name for unit in ("wheel", "web") for name, _ in split[unit]}
    assert {n for n in boot if ".dist-info/" not in n} == set(archives.BOOT_MODULES_OF_OURS)
    assert any(name.endswith(".dist-info/METADATA") for name, _ in split["wheel"])
    record = dict(split["wheel"])[next(n for n in boot if n.endswith("RECORD"))].decode()
    assert "optimus/__init__.py,sha256=" in record and "optimus/core/" not in record
    assert "optimus/games.py" in boot  # the page's boot reads the game descriptions
    # Every described game's package, view model and view in its own archive, and
    # nowhere else (a view module not written yet is simply not there).
    assert set(split) == {"wheel", "web", archives.SHARED_UNIT, *GAMES}
    for game in GAMES:
        mine = {name for name, _ in split[game]}
        assert f"optimus/{game}/game.py" in mine and f"optimus/{game}/view.py" in mine
        assert f"optimus_web/{game}_view.py" in mine
        elsewhere = {n for unit, entries in split.items() if unit != game for n, _ in entries}
        assert not any(n.startswith(f"optimus/{game}/") for n in elsewhere)
        assert not any(n.startswith(f"optimus_web/{game}_view.") for n in elsewhere)
    shared = {name for name, _ in split[archives.SHARED_UNIT]}
    assert {"optimus/core/protocol.py", "optimus_web/table.py", "optimus/ui/session.py"} <= shared


def test_a_game_whose_package_matches_nothing_stops_the_build(
    split, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(archives.GAME_UNITS, "fileiras", ("optimus/cards/",))
    wheel = zip_bytes([(n, d) for unit in split.values() for n, d in unit])
    with pytest.raises(BuildError, match=r"GAME_UNITS\['fileiras'\] names optimus/cards/"):
        archives.split_archives(wheel, zip_bytes([]))


def test_each_unit_says_which_packages_it_continues_and_what_it_needs(split) -> None:
    units = {k: v for k, v in split.items() if k not in ("wheel", "web")}
    files = {unit: f"app/{unit}-0000.zip.gz" for unit in units}
    config = archives.unit_config(units, files)
    assert config["table"] == {
        "url": "./app/table-0000.zip.gz",
        "file": "table-0000.zip",
        "extends": ["optimus", "optimus_web"],
        "needs": [],
    }
    for game in GAMES:
        assert config[game]["extends"] == ["optimus", "optimus_web"]
        # The page fetches the shared archive with every game (web/lazy.py).
        assert config[game]["needs"] == []


def test_lazy_archives_are_stored_zips_gzipped_whole() -> None:
    entries = [("pkg/__init__.py", b"X = 1\n" * 50), ("pkg/a.py", b"Y = 2\n" * 50)]
    packed = archives.gzipped_stored_zip(zip_bytes(entries))
    import gzip

    archive = zipfile.ZipFile(io.BytesIO(gzip.decompress(packed)))
    assert [(i.filename, i.compress_type) for i in archive.infolist()] == [
        ("pkg/__init__.py", zipfile.ZIP_STORED),
        ("pkg/a.py", zipfile.ZIP_STORED),
    ]
    assert archive.read("pkg/a.py") == entries[1][1]
    assert archives.gzipped_stored_zip(zip_bytes(entries)) == packed  # deterministic


# Runs in a fresh interpreter with only the boot's two archives on sys.path (our
# package is on the test run's own path, from py/): fetches the fileiras unit
# through web/lazy.py and imports the game from it.
_CHILD = r"""
import asyncio, json, sys
paths, files, lazy_path, directory = json.loads(sys.argv[1])
sys.path[:0] = paths
import importlib.util
spec = importlib.util.spec_from_file_location("lazy", lazy_path)
lazy = importlib.util.module_from_spec(spec); spec.loader.exec_module(lazy)
import optimus
try:
    import optimus.fileiras.game
    print("rows before loading")
except ModuleNotFoundError:
    pass
served, units = files["served"], files["units"]
fetched = []
async def fetch(url):
    fetched.append(url)
    await asyncio.sleep(0)
    if url not in served:
        raise OSError(f"{url}: HTTP 404")
    with open(served[url], "rb") as handle:
        return handle.read()
async def main():
    archives = lazy.Archives(units, fetch, directory)
    assert not archives.loaded("fileiras") and archives.loaded("no-such-unit")
    first, again = archives.load("fileiras"), archives.load("fileiras")
    assert first is again
    await first
    assert archives.loaded("fileiras") and archives.loaded("table")
    assert not archives.loaded("optimus2")
    from optimus.core.registry import get_game
    game = get_game("fileiras")
    import optimus.fileiras.view, optimus.fileiras.game
    print(type(game).__name__, len(game.bot_levels()) > 0)
    print(sorted(url.split("/")[-1].split("-")[0] for url in fetched))
    print(optimus.fileiras.game.__file__.replace(directory, "<dir>"))
    print(optimus.fileiras.view.__file__.replace(directory, "<dir>"))
    print(optimus.core.protocol.__file__.replace(directory, "<dir>"))
    # A failed download fails its load, and a later load tries again.
    broken = dict(units, optimus2=dict(units["optimus2"], url="./app/gone.zip.gz"))
    archives = lazy.Archives(broken, fetch, directory)
    try:
        await archives.load("optimus2")
    except OSError as exc:
        print("failed:", exc)
    assert not archives.loaded("optimus2")
    served["./app/gone.zip.gz"] = served[units["optimus2"]["url"]]
    await archives.load("optimus2")
    import optimus.optimus2.game
    print("retried:", archives.loaded("optimus2"))
asyncio.run(main())
"""


def test_the_boot_archives_alone_lack_the_games_and_a_fetched_unit_brings_one(
    split, tmp_path: Path
) -> None:
    """Built without Pyodide's bytecode (sources only): the split and the mounting."""
    boot = {}
    for unit, name in (("wheel", "optimus_table-0-py3-none-any.whl"), ("web", "web.zip")):
        boot[unit] = tmp_path / name
        boot[unit].write_bytes(zip_bytes(split[unit]))
    units = {k: v for k, v in split.items() if k not in ("wheel", "web")}
    files = {unit: f"app/{unit}-0000.zip.gz" for unit in units}
    config = archives.unit_config(units, files)
    served = {}
    for unit, entries in units.items():
        path = tmp_path / f"{unit}.zip.gz"
        path.write_bytes(archives.gzipped_stored_zip(zip_bytes(entries)))
        served[config[unit]["url"]] = str(path)
    directory = tmp_path / "fs"
    directory.mkdir()
    argument = json.dumps(
        [
            [str(boot["web"]), str(boot["wheel"])],
            {"served": served, "units": config},
            str(ROOT / "web" / "lazy.py"),
            str(directory),
        ]
    )
    result = subprocess.run(
        [sys.executable, "-c", _CHILD, argument],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "FileirasGame True",
        "['fileiras', 'table']",  # each once, though asked twice
        "<dir>/fileiras-0000.zip/optimus/fileiras/game.py",
        "<dir>/fileiras-0000.zip/optimus/fileiras/view.py",
        "<dir>/table-0000.zip/optimus/core/protocol.py",
        "failed: ./app/gone.zip.gz: HTTP 404",
        "retried: True",
    ]
