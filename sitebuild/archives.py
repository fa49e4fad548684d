"""Our code as the archives the page fetches: the boot's wheel and web zip, an
archive per game and one the games share (docs/boot.md, "What the build does
for it").

Which game's archive a file goes in comes from the game descriptions
(``optimus.games.GAMES``): every described game gets one, listed or not.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import tomllib
from pathlib import Path
from typing import Any

from optimus.games import GAMES
from sitebuild import PY_SRC, ROOT, WEB_SRC, BuildError
from sitebuild.files import (
    hash_tree,
    package_files,
    record_hash,
    with_record,
    zip_bytes,
    zip_entries,
    zip_members,
)
from sitebuild.howto import compiled as howto_compiled
from sitebuild.i18n import compiled

# Where the page keeps our archives in Pyodide's file system; each is imported
# from there, on sys.path or a package's __path__ (docs/boot.md).
ARCHIVES = "/lib/optimus-table"

# Our code ships in archives of its own (docs/boot.md, "What the build does for
# it").  The boot fetches only what the landing page imports: these
# modules, in the wheel (``optimus``) and the web zip (``optimus_web``).
BOOT_MODULES_OF_OURS = (
    "optimus/__init__.py",
    "optimus/games.py",
    "optimus/i18n.py",
    "optimus_web/__init__.py",
    "optimus_web/lazy.py",
    "optimus_web/main.py",
    "optimus_web/router.py",
    "optimus_web/store_keys.py",
)
# Each game's rules, bots, view model and view: an archive fetched when the
# page's preloading starts or at the first visit of the game's route, whichever
# comes first (web/lazy.py).  Keyed by the game's id; its first prefix, the
# game's package, must match files, the others are taken when they exist.
GAME_UNITS: dict[str, tuple[str, ...]] = {
    game: info.archive_files() for game, info in GAMES.items()
}
# Everything else of ours (the rules' core, the table frame every game shares,
# user bots, the CLI's modules): one more archive, which each game's needs first.
SHARED_UNIT = "table"
# Whether our archives carry the source of each module beside its bytecode: no,
# about 150 kB less to download; tracebacks in the page then show the file and
# line of our modules but not the line's text (docs/boot.md).
OUR_SOURCES_SHIPPED = False


def read_project() -> dict[str, Any]:
    """The ``[project]`` table of pyproject.toml."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        project: dict[str, Any] = tomllib.load(handle)["project"]
    return project


def build_wheel(out_dir: Path, src: Path = PY_SRC, salt: bytes = b"") -> Path:
    """Build the pure-Python wheel of ``py/optimus`` into ``out_dir``.

    The version gets a local label made of the first 8 hex digits of a hash of
    the package's files (and ``salt``: what else its shipped form depends on), e.g.
    ``0.1.0+1a2b3c4d``, so the file name changes with the content and browsers
    never reuse a stale wheel.
    """
    project = read_project()
    dist_name = re.sub(r"[-_.]+", "_", project["name"]).lower()
    files = package_files(src, src.name)
    if src == PY_SRC:  # the catalogs, compiled from locale/ (sitebuild/i18n.py)
        files = sorted([*files, *compiled(), *howto_compiled()])
    salted = [("salt", salt)] if salt else []
    label = hash_tree([*files, ("version", project["version"].encode()), *salted])[:8]
    version = f"{project['version']}+{label}"
    info_dir = f"{dist_name}-{version}.dist-info"

    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {version}",
        f"Summary: {project.get('description', '')}",
        f"Requires-Python: {project.get('requires-python', '>=3.11')}",
    ]
    if isinstance(project.get("license"), dict) and "text" in project["license"]:
        metadata.append(f"License: {project['license']['text']}")
    wheel_meta = [
        "Wheel-Version: 1.0",
        "Generator: optimus-table build.py",
        "Root-Is-Purelib: true",
        "Tag: py3-none-any",
    ]
    extra: list[tuple[str, bytes]] = [
        (f"{info_dir}/METADATA", ("\n".join(metadata) + "\n").encode()),
        (f"{info_dir}/WHEEL", ("\n".join(wheel_meta) + "\n").encode()),
        (f"{info_dir}/top_level.txt", f"{src.name}\n".encode()),
    ]
    scripts = project.get("scripts", {})
    if scripts:
        lines = ["[console_scripts]", *(f"{k} = {v}" for k, v in sorted(scripts.items()))]
        extra.append((f"{info_dir}/entry_points.txt", ("\n".join(lines) + "\n").encode()))
    entries = files + extra
    record = [f"{name},{record_hash(data)},{len(data)}" for name, data in entries]
    record.append(f"{info_dir}/RECORD,,")
    entries.append((f"{info_dir}/RECORD", ("\n".join(record) + "\n").encode()))

    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"{dist_name}-{version}-py3-none-any.whl"
    wheel.write_bytes(zip_bytes(entries))
    return wheel


def build_web_zip(out_dir: Path, src: Path = WEB_SRC) -> Path:
    """Pack ``web/*.py`` as the package ``optimus_web`` into ``app/web-<hash>.zip``.

    PyScript's ``files`` config writes it into the interpreter's file system as
    it is, and the page puts it on ``sys.path`` (imported from the zip, like the
    wheel: docs/boot.md).
    """
    entries = [(f"optimus_web/{path.name}", path.read_bytes()) for path in sorted(src.glob("*.py"))]
    if not any(name.endswith("/__init__.py") for name, _ in entries):
        entries.insert(0, ("optimus_web/__init__.py", b'"""The DOM layer of Optimus Table."""\n'))
    data = zip_bytes(entries)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"web-{hashlib.sha256(data).hexdigest()[:8]}.zip"
    target.write_bytes(data)
    return target


def _unit_of(name: str) -> str:
    """Which archive a file of ours goes in: ``"boot"``, a game's or ``SHARED_UNIT``."""
    if name in BOOT_MODULES_OF_OURS or ".dist-info/" in name:
        return "boot"
    for game, prefixes in GAME_UNITS.items():
        if name.startswith(prefixes):
            return game
    return SHARED_UNIT


def split_archives(wheel: bytes, web_zip: bytes) -> dict[str, list[tuple[str, bytes]]]:
    """The files of our wheel and web zip by the archive they ship in: ``"wheel"``
    and ``"web"`` (what the boot imports, and the wheel's metadata, its RECORD
    rewritten), ``SHARED_UNIT`` and each game of ``GAME_UNITS``.

    A game whose package (the first prefix of ``GAME_UNITS``) matches no file
    raises ``BuildError`` (its files were moved: its archive would lack its rules).
    """
    split: dict[str, list[tuple[str, bytes]]] = {"wheel": [], "web": [], SHARED_UNIT: []}
    split |= {game: [] for game in GAME_UNITS}
    members, record = zip_members(wheel)
    origins = [("wheel", members), ("web", zip_members(web_zip)[0])]
    for origin, entries in origins:
        for name, data in entries:
            unit = _unit_of(name)
            split[origin if unit == "boot" else unit].append((name, data))
    for game, (package, *_) in GAME_UNITS.items():
        if not any(name.startswith(package) for name, _ in split[game]):
            raise BuildError(f"GAME_UNITS[{game!r}] names {package}, which matches no file")
    split["wheel"] = with_record(split["wheel"], record)
    return split


def unit_config(units: dict[str, list[tuple[str, bytes]]], files: dict[str, str]) -> dict[str, Any]:
    """What the page needs to fetch and mount each archive of ``units`` (as
    ``split_archives`` makes them, without ``"wheel"`` and ``"web"``); ``files``
    maps each unit to its served file (``app/<unit>-<hash>.zip.gz``).

    Per unit: ``url``; ``file``, its name once unpacked into ``ARCHIVES``;
    ``extends``, the packages (dotted, parents first) whose ``__init__`` is in an
    archive mounted before, and whose ``__path__`` gets this archive's folder;
    ``needs``, the units holding those packages' ``__init__``, mounted first.
    """
    home: dict[str, str] = {}  # package -> the unit with its __init__ (boot included)
    for name in (*BOOT_MODULES_OF_OURS, *(n for entries in units.values() for n, _ in entries)):
        if name.endswith("/__init__.py"):
            home.setdefault(name.removesuffix("/__init__.py").replace("/", "."), _unit_of(name))
    config: dict[str, Any] = {}
    for unit, entries in units.items():
        extends: set[str] = set()
        for name, _ in entries:
            parts = name.split("/")[:-1]
            for depth in range(1, len(parts) + 1):
                package = ".".join(parts[:depth])
                if home.get(package) == unit:
                    break  # the rest is below a package of this archive's own
                if package not in home:
                    raise BuildError(f"{name}: package {package} has no __init__.py")
                extends.add(package)
        ordered = sorted(extends, key=lambda package: (package.count("."), package))
        needs = sorted({home[package] for package in extends} - {"boot"})
        served = files[unit]
        config[unit] = {
            "url": f"./{served}",
            "file": served.rsplit("/", 1)[-1].removesuffix(".gz"),
            "extends": ordered,
            "needs": needs,
        }
    return config


def gzipped_stored_zip(archive: bytes) -> bytes:
    """``archive`` with its members stored, then gzipped whole: smaller than a zip of
    deflated members (the modules share names and strings), and read without
    inflating each module at import.  The page fetches it and unpacks it once."""
    return gzip.compress(zip_bytes(zip_entries(archive), stored=True), compresslevel=9, mtime=0)
