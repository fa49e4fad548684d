#!/usr/bin/env python3
"""Build, serve, test and benchmark the Optimus Table static site.

Usage::

    python build.py                      # fetch pinned runtime files (cached) and build dist/
    python build.py serve [--port N]     # build, then serve dist/ on http://127.0.0.1:N (8000)
    python build.py test [pytest args]   # install test tools, build, run the whole test suite
    python build.py bench-boot [--runs N] [--pages npm,bare,site]
                                         # cold boots: bare Pyodide (npm, as built) vs the site

The build needs nothing beyond the standard library.  The runtime (Pyodide,
PyScript, micropip) is fetched once with ``npm pack`` / ``pip download`` into
``.cache/downloads/``, checked against the sha256 pins below, and reused on
every later build, so a rebuild needs no network.  The modules the boot imports
are then precompiled by that Pyodide under Node (``.cache/precompiled/``; see
docs/boot.md).  Only the ``test`` and
``bench-boot`` sub-commands import third-party code (pytest, Playwright), after
installing it.

What ``dist/`` holds (every name that can change carries a version or hash, so a
browser never runs a stale file out of its HTTP cache)::

    index.html                      the landing page; CSS and the boot config inlined
    sw.js                           the service worker: the whole build offline (web/sw.js)
    manifest-<hash>.webmanifest     web app manifest; icon-192-<hash>.png, icon-512-<hash>.png
    favicon-<hash>.svg
    pyodide-314.0.7-<hash>/         the runtime files the page loads: python_stdlib.zip
                                    with the boot's modules precompiled, micropip
                                    precompiled, a lock file trimmed to micropip
    pyscript-0.7.31-<hash>/         PyScript's dist (JS only, no source maps, no unused chunks;
                                    its start-up trimmed: PYSCRIPT_PATCHES)
    wheels/optimus_table-0.1.0+<hash>-py3-none-any.whl   the rules package's boot part (its
                                    __init__) as bytecode, imported from the wheel itself
                                    (on sys.path)
    app/web-<hash>.zip              the DOM layer's boot part (package ``optimus_web``), the same
    app/<unit>-<hash>.zip.gz        the rest of our code as bytecode, fetched after the boot: an
                                    archive per game and one they share (docs/boot.md)
    bench/bare.html                 a bare Pyodide page for ``bench-boot``
"""

from __future__ import annotations

import argparse
import ast
import base64
import dataclasses
import functools
import gzip
import hashlib
import html
import http.server
import importlib.util
import inspect
import io
import json
import marshal
import os
import re
import shutil
import socketserver
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import tomllib
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
CACHE = ROOT / ".cache" / "downloads"
PY_SRC = ROOT / "py" / "optimus"
WEB_SRC = ROOT / "web"
INDEX_TEMPLATE = ROOT / "index.html"
CHROMIUM = os.environ.get("OPTIMUS_CHROMIUM", "/usr/bin/chromium")
STAMP_NAME = ".build-stamp.json"
BOOT_MODULES = WEB_SRC / "boot-modules.txt"
PRECOMPILED = ROOT / ".cache" / "precompiled"
# Where the page keeps our archives in Pyodide's file system; each is imported
# from there, on sys.path or a package's __path__ (docs/boot.md).
ARCHIVES = "/lib/optimus-table"

# Our code ships in archives of its own (docs/boot.md, "Each game in an archive
# of its own").  The boot fetches only what the landing page imports: these
# modules, in the wheel (``optimus``) and the web zip (``optimus_web``).
BOOT_MODULES_OF_OURS = (
    "optimus/__init__.py",
    "optimus/games.py",
    "optimus_web/__init__.py",
    "optimus_web/lazy.py",
    "optimus_web/main.py",
    "optimus_web/router.py",
)
# Each game's rules, bots, view model and view: an archive fetched when the
# page's preloading starts or at the first visit of the game's route, whichever
# comes first (web/lazy.py).  Keyed by the game's route.
GAME_UNITS = {
    "fileiras": ("optimus/fileiras/", "optimus/ui/fileiras.py", "optimus_web/fileiras_view.py"),
    "optimus": ("optimus/optimus/", "optimus/ui/optimus.py", "optimus_web/optimus_view.py"),
    "optimus2": ("optimus/optimus2/", "optimus/ui/optimus2.py", "optimus_web/optimus2_view.py"),
}
# Everything else of ours (the rules' core, the table frame every game shares,
# user bots, the CLI's modules): one more archive, which each game's needs first.
SHARED_UNIT = "table"
# Whether our archives carry the source of each module beside its bytecode: no,
# about 150 kB less to download; tracebacks in the page then show the file and
# line of our modules but not the line's text (docs/boot.md).
OUR_SOURCES_SHIPPED = False

PYODIDE_VERSION = "314.0.7"
PYSCRIPT_VERSION = "0.7.31"
MICROPIP_VERSION = "0.11.1"
MICROPIP_WHEEL = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"


# --------------------------------------------------------------------------- pins


@dataclasses.dataclass(frozen=True)
class Pin:
    """One pinned download: how to fetch it and the sha256 it must have."""

    name: str
    kind: str  # "npm" (npm pack) or "pip" (pip download)
    spec: str  # what to ask the client for
    file_name: str  # the file the client writes
    sha256: str


PINS: dict[str, Pin] = {
    "pyodide": Pin(
        "pyodide",
        "npm",
        f"pyodide@{PYODIDE_VERSION}",
        f"pyodide-{PYODIDE_VERSION}.tgz",
        "66b7949e5a0cba2250b586d7e368bf12fb482800748d182c4618254b685ffaa0",
    ),
    "pyscript": Pin(
        "pyscript",
        "npm",
        f"@pyscript/core@{PYSCRIPT_VERSION}",
        f"pyscript-core-{PYSCRIPT_VERSION}.tgz",
        "b2ca1a0c0956aebd990a7c8524cca1eb061444a8319a7264d2f31ef30bea276a",
    ),
    "micropip": Pin(
        "micropip",
        "pip",
        f"micropip=={MICROPIP_VERSION}",
        f"micropip-{MICROPIP_VERSION}-py3-none-any.whl",
        "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3",
    ),
}

# Tools the browser tests use, never shipped in dist/: fetched at test time the
# same way as the runtime (npm pack, sha256-checked, cached).
TEST_PINS: dict[str, Pin] = {
    "axe-core": Pin(
        "axe-core",
        "npm",
        "axe-core@4.10.3",
        "axe-core-4.10.3.tgz",
        "0f2b4d7dcdf7d1219df8d1959ad68e565f51d14c3f0d88bb71cd59abeb956292",
    ),
}


def axe_source(cache: Path = CACHE) -> str:
    """axe-core's browser script (the accessibility audit the browser tests inject)."""
    with tarfile.open(fetch(TEST_PINS["axe-core"], cache)) as archive:
        return _tar_member(archive, "axe.min.js").decode("utf-8")


# The only files of the Pyodide npm package the page loads.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

# PyScript plugins the page never uses.  They are switched off in the config
# ("!name") so PyScript does not import them at start-up.
PYSCRIPT_DISABLED_PLUGINS = (
    "deprecations-manager",
    "donkey",
    "py-editor",
    "py-game",
    "py-terminal",
)
# The PyScript chunks our page loads: the entry point, its core, and the error
# plugin (kept: it reports Python errors, which index.html turns into a message),
# plus everything they import statically.  The other chunks are only reached by
# dynamic imports our config never triggers: code editor (codemirror), terminal
# (xterm), MicroPython, TOML configs (ours is JSON), the package graph (only
# read when `packages` is set without `index_urls`), zip (MicroPython only), the
# worker service-worker shim.  Measured in Chromium: the page requests exactly
# the shipped set (tests/e2e checks that no request 404s).
PYSCRIPT_ENTRY_STEMS = ("core", "error")

# Changes the build makes to PyScript's core chunk, as (what it replaces, with what)
# pairs; each must match exactly once in the pinned chunk, or the build stops
# (docs/boot.md says what each one is for and how to review it after a bump).
#
# Before the page's first script, PyScript runs generated Python (its
# "codeBeforeRun") that writes its `pyscript` package into the file system and then
# imports it, only to delete the name again.
#
# 1. That import costs 140-300 ms of the boot (its modules compiled from source,
#    `html` and its entities, the JS lookups of `pyscript.context`), and nothing on
#    this page uses `pyscript`: it becomes `_pyscript = None`.  (Since the patches
#    below, this generated Python still runs in PyScript's workers, not on the page.)
# 2. Writing the package that way costs 15-30 ms more: the 33 kB of Python source,
#    the package's files as string literals, is converted to a Python string,
#    parsed to an AST and compiled before every script the page runs.  On the page
#    (the "py" type in the main thread), the package's files are now written from
#    JavaScript instead, straight into Pyodide's file system, when a script is about
#    to run (PyScript's own onReady, before the script's code), and the generated
#    Python is left out.  Workers and MicroPython keep PyScript's way.  The files
#    are the same, at the same place: a script that imports `pyscript` gets it.
#    - `__optimusFiles` collects the (path, content or folder) pairs PyScript's
#      generator walks, in its order (a folder before its files);
#    - `__optimusWrite(interpreter)` writes them under the working directory;
#    - the main thread's hooks get "" for PyScript's generated code;
#    - PyScript's onReady for "py" scripts calls `__optimusWrite`.
PYSCRIPT_PATCHES = (
    (
        '"import pyscript as _pyscript"',
        '"_pyscript = None  # optimus: imported on first use (docs/boot.md)"',
    ),
    (
        "const{entries:yo}=Object,",
        "const{entries:yo}=Object,__optimusFiles=[],__optimusWrite=i=>{"
        "const c=i.FS.cwd(),u=new TextEncoder;"
        "for(const[p,v]of __optimusFiles)"
        '"string"==typeof v?i.FS.writeFile(c+p.slice(1),u.encode(v),{canOwn:!0})'
        ":i.FS.mkdirTree(c+p.slice(1))},",
    ),
    (
        "wo=(e,t)=>{for(const[n,r]of yo(t))if(go.path(",
        "wo=(e,t)=>{for(const[n,r]of yo(t))if(__optimusFiles.push([`${e}/${n}`,r]),go.path(",
    ),
    (
        'const n="mpy"===t?Ao.replace(bo,""):Ao,r={};',
        'const n="mpy"===t?Ao.replace(bo,""):e===vo?"":Ao,r={};',
    ),
    (
        "async onReady(t,n){m(t);",
        'async onReady(t,n){m(t),"py"===e&&__optimusWrite(t.interpreter);',
    ),
    # 3. Before it calls loadPyodide, PyScript opens its package cache (an IndexedDB
    #    database), reads it whole and closes it again; it only uses it when the
    #    config lists `packages`, and ours lists none.  Without `packages` it gets a
    #    stand-in with the three methods it calls, and loadPyodide starts at once.
    (
        "l=new h(`${c}@${t}`)",
        "l=a?new h(`${c}@${t}`):{sync(){},clear(){},close(){}}",
    ),
)


class BuildError(RuntimeError):
    """A build step failed; the message says what went wrong and what to do."""


def sha256_file(path: Path) -> str:
    """Return the hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(functools.partial(handle.read, 1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_sha256(path: Path, expected: str, what: str) -> None:
    """Refuse ``path`` unless its sha256 is ``expected``; the error says how to recover."""
    actual = sha256_file(path)
    if actual != expected.lower():
        raise BuildError(
            f"sha256 mismatch for {what} ({path}):\n"
            f"  expected {expected}\n"
            f"  got      {actual}\n"
            f"The file is corrupt or upstream changed it. Delete {path} and run the build again "
            f"to download it afresh; if the mismatch persists, check the new file by hand and "
            f"only then update the pin in build.py (PINS)."
        )


def _require_tool(argv0: str, hint: str) -> None:
    if shutil.which(argv0) is None:
        raise BuildError(
            f"`{argv0}` is needed to download the pinned runtime files but is not on PATH. {hint}"
        )


def fetch(pin: Pin, cache: Path = CACHE) -> Path:
    """Return the verified cached file for ``pin``, downloading it first if needed."""
    target = cache / pin.file_name
    if not target.exists():
        cache.mkdir(parents=True, exist_ok=True)
        shown = target.relative_to(ROOT) if target.is_relative_to(ROOT) else target
        print(f"fetch: {pin.spec} -> {shown}", flush=True)
        if pin.kind == "npm":
            _require_tool(
                "npm", "Install Node.js 20+ with npm (e.g. `apt-get install -y nodejs npm`)."
            )
            cmd = ["npm", "pack", pin.spec, "--pack-destination", str(cache), "--silent"]
        elif pin.kind == "pip":
            cmd = [
                sys.executable, "-m", "pip", "download", pin.spec, "--dest", str(cache),
                "--python-version", "3.14", "--only-binary=:all:", "--no-deps",
                "--disable-pip-version-check", "--quiet",
            ]  # fmt: skip
        else:  # pragma: no cover - a typo in PINS
            raise BuildError(f"unknown pin kind {pin.kind!r}")
        try:
            result = subprocess.run(cmd, capture_output=True, text=True, check=False)
        except OSError as exc:
            raise BuildError(f"could not run {cmd[0]}: {exc}") from exc
        if result.returncode != 0 or not target.exists():
            raise BuildError(
                f"downloading {pin.spec} failed (exit {result.returncode}); is the registry "
                f"reachable? Command: {' '.join(cmd)}\n{result.stdout}{result.stderr}".rstrip()
            )
    verify_sha256(target, pin.sha256, pin.spec)
    return target


# --------------------------------------------------------------------------- wheel


def _hash_tree(paths: Iterable[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()
    for name, data in sorted(paths):
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def _package_files(src: Path, prefix: str) -> list[tuple[str, bytes]]:
    """All files under ``src`` (minus caches), as (archive name, bytes), sorted."""
    files = []
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if not path.is_file() or "__pycache__" in rel.parts or path.suffix in {".pyc", ".pyo"}:
            continue
        if any(part.startswith(".") for part in rel.parts):
            continue
        files.append((f"{prefix}/{rel.as_posix()}", path.read_bytes()))
    return files


def _zip_bytes(entries: Sequence[tuple[str, bytes]], stored: bool = False) -> bytes:
    """A deterministic zip (fixed timestamps and permissions) of ``entries``, each
    member deflated (or ``stored`` as it is)."""
    method = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=method, compresslevel=9) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = method
            archive.writestr(info, data)
    return buffer.getvalue()


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


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
    files = _package_files(src, src.name)
    extra = [("salt", salt)] if salt else []
    label = _hash_tree([*files, ("version", project["version"].encode()), *extra])[:8]
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
    record = [f"{name},{_record_hash(data)},{len(data)}" for name, data in entries]
    record.append(f"{info_dir}/RECORD,,")
    entries.append((f"{info_dir}/RECORD", ("\n".join(record) + "\n").encode()))

    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"{dist_name}-{version}-py3-none-any.whl"
    wheel.write_bytes(_zip_bytes(entries))
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
    data = _zip_bytes(entries)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"web-{hashlib.sha256(data).hexdigest()[:8]}.zip"
    target.write_bytes(data)
    return target


def _entries(archive: bytes) -> list[tuple[str, bytes]]:
    source = zipfile.ZipFile(io.BytesIO(archive))
    return [(name, source.read(name)) for name in source.namelist()]


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

    A prefix of ``GAME_UNITS`` that matches no file raises ``BuildError`` (a game's
    files were moved: its archive would be empty).
    """
    split: dict[str, list[tuple[str, bytes]]] = {"wheel": [], "web": [], SHARED_UNIT: []}
    split |= {game: [] for game in GAME_UNITS}
    record = None
    for origin, archive in (("wheel", wheel), ("web", web_zip)):
        for name, data in _entries(archive):
            if name.endswith(".dist-info/RECORD"):
                record = name
                continue
            unit = _unit_of(name)
            split[origin if unit == "boot" else unit].append((name, data))
    for game, prefixes in GAME_UNITS.items():
        for prefix in prefixes:
            if not any(name.startswith(prefix) for name, _ in split[game]):
                raise BuildError(f"GAME_UNITS[{game!r}] names {prefix}, which matches no file")
    split["wheel"] = _with_record(split["wheel"], record)
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
    return gzip.compress(_zip_bytes(_entries(archive), stored=True), compresslevel=9, mtime=0)


# --------------------------------------------------------------------------- runtime


def _tar_member(archive: tarfile.TarFile, name: str) -> bytes:
    member = archive.extractfile(f"package/{name}")
    if member is None:
        raise BuildError(f"{name} is missing from {archive.name!r}")
    return member.read()


def trimmed_lock(lock: dict[str, Any], file_name: str, wheel: bytes) -> dict[str, Any]:
    """Pyodide's lock file reduced to micropip (and its dependencies).

    Only micropip is ever loaded from the lock, on demand (our wheel comes by URL), so the
    other ~350 entries (118 KB) are dead weight on every cold load.  micropip's
    sha256 is replaced with that of the wheel we ship (pitfall 1: Pyodide's lock
    lists a different build of the same version and the browser's integrity
    check would refuse ours).
    """
    packages = lock["packages"]
    keep: dict[str, Any] = {}
    todo = ["micropip"]
    while todo:
        name = todo.pop()
        if name in keep:
            continue
        if name not in packages:
            raise BuildError(f"{name} is not in Pyodide's lock file")
        keep[name] = dict(packages[name])
        todo.extend(keep[name].get("depends", []))
    if keep["micropip"]["depends"]:
        raise BuildError("micropip now has dependencies in the lock file; ship their wheels too")
    keep["micropip"]["file_name"] = file_name
    keep["micropip"]["sha256"] = hashlib.sha256(wheel).hexdigest()
    keep["micropip"]["version"] = MICROPIP_VERSION
    return {"info": lock["info"], "packages": keep}


def install_pyodide(
    pyodide_tgz: Path, micropip_wheel: Path, dist: Path, boot_modules: Sequence[str]
) -> Path:
    """Copy the runtime files into ``dist/pyodide-<version>-<hash>/``; return that dir.

    ``python_stdlib.zip`` and the micropip wheel are the precompiled ones (see
    ``precompiled_runtime``); the hash in the directory name covers every file,
    so a browser never pairs a new page with a stale runtime file.
    """
    with tarfile.open(pyodide_tgz) as archive:
        blobs = {name: _tar_member(archive, name) for name in PYODIDE_FILES}
    stdlib, micropip = precompiled_runtime(pyodide_tgz, micropip_wheel, boot_modules)
    blobs["python_stdlib.zip"] = stdlib
    blobs[micropip_wheel.name] = micropip
    lock = trimmed_lock(json.loads(blobs["pyodide-lock.json"]), micropip_wheel.name, micropip)
    blobs["pyodide-lock.json"] = json.dumps(lock, separators=(",", ":"), sort_keys=True).encode()
    tag = _hash_tree(blobs.items())[:8]
    target = dist / f"pyodide-{PYODIDE_VERSION}-{tag}"
    target.mkdir(parents=True)
    for name, data in blobs.items():
        (target / name).write_bytes(data)
    return target


# --------------------------------------------------------------------------- precompiled runtime
#
# Pyodide's npm package ships the standard library as source, so every cold
# load compiles each module it imports: about 1.3 s of the 2.3 s a bare
# Pyodide takes to start on this machine.  The build compiles the modules the
# boot imports (web/boot-modules.txt) and micropip's modules ahead of time, with
# the very Python that runs in the browser (Pyodide itself, under Node), and
# ships them as sourceless .pyc files.  The helpers below run both there and in
# CPython (the unit tests), so they use the standard library only.


def strip_docstrings(tree: ast.Module) -> ast.Module:
    """Remove module and function docstrings from ``tree`` (most of what ``-OO`` drops).

    Class docstrings stay: without one, ``@dataclass`` builds a ``__doc__`` from
    ``inspect.signature`` at class creation, which costs more than it saves.
    Assertions stay too (unlike ``-OO``).
    """
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            first = body[0] if body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                if len(body) == 1:
                    body[0] = ast.copy_location(ast.Pass(), first)
                else:
                    del body[0]
    return tree


def pyc_bytes(source: bytes, filename: str) -> bytes:
    """A sourceless .pyc of ``source`` for the running Python, docstrings stripped.

    ``filename`` is the path the module will have at run time (tracebacks show it).
    """
    tree = strip_docstrings(ast.parse(source, filename))
    code = compile(tree, filename, "exec", dont_inherit=True)
    header = importlib.util.MAGIC_NUMBER + bytes(12)  # flags 0, mtime 0, size 0: unchecked
    return header + marshal.dumps(code)


def precompile_stdlib(
    stdlib: bytes, modules: Iterable[str], root: str, dropped: Iterable[str] = ()
) -> bytes:
    """``python_stdlib.zip`` with ``modules`` as sourceless .pyc, without the
    top-level modules and packages named in ``dropped``; the rest unchanged.

    ``root`` is where the zip is mounted at run time (``/lib/python314.zip``).
    A name that is not a source module of the zip, or that is dropped, raises
    ``ValueError``.
    """
    source = zipfile.ZipFile(io.BytesIO(stdlib))
    gone = set(dropped)

    def top(name: str) -> str:
        return name.split("/", 1)[0].removesuffix(".py")

    present = {name for name in source.namelist() if top(name) not in gone}
    wanted: dict[str, str] = {}
    for module in modules:
        if module.split(".", 1)[0] in gone:
            raise ValueError(f"{module} is imported at boot but its package is dropped")
        path = module.replace(".", "/")
        entry = next((p for p in (f"{path}.py", f"{path}/__init__.py") if p in present), None)
        if entry is None:
            raise ValueError(f"{module} is not a source module of the standard library zip")
        wanted[entry] = module
    entries = []
    for name in source.namelist():
        if name in present:
            data = source.read(name)
            if name in wanted:
                data, name = pyc_bytes(data, f"{root}/{name}"), name + "c"
            entries.append((name, data))
    return _zip_bytes(entries)


def _with_record(entries: list[tuple[str, bytes]], record: str | None) -> list[tuple[str, bytes]]:
    """``entries`` plus a wheel RECORD named ``record`` that lists them (none if None)."""
    if record is None:
        return entries
    rows = [f"{name},{_record_hash(data)},{len(data)}" for name, data in entries]
    rows.append(f"{record},,")
    return [*entries, (record, ("\n".join(rows) + "\n").encode())]


def precompile_wheel(wheel: bytes, site_packages: str) -> bytes:
    """A pure-Python wheel with every module as a sourceless .pyc and RECORD rewritten.

    ``site_packages`` is where the wheel is unpacked at run time.
    """
    source = zipfile.ZipFile(io.BytesIO(wheel))
    entries: list[tuple[str, bytes]] = []
    record = None
    for name in source.namelist():
        if name.endswith(".dist-info/RECORD"):
            record = name
            continue
        data = source.read(name)
        if name.endswith(".py") and ".dist-info/" not in name:
            data, name = pyc_bytes(data, f"{site_packages}/{name}"), name + "c"
        entries.append((name, data))
    if record is None:
        raise ValueError("the wheel has no RECORD")
    return _zip_bytes(_with_record(entries, record))


def with_bytecode(archive: bytes, root: str = "", sources: bool = True) -> bytes:
    """A wheel or zip of Python packages plus, beside each module ``x.py``, its
    bytecode for the running Python as ``x.pyc`` (a wheel's RECORD is rewritten);
    without ``sources``, the bytecode replaces the module's source.

    That is where ``zipimport`` looks for bytecode: the page imports our code
    straight from these archives on ``sys.path`` (docs/boot.md).  Our own code
    keeps its docstrings.  The .pyc files are "unchecked hash-based" (PEP 552):
    each records the hash of the source it was compiled from (tests/test_build.py
    checks them against the source beside them, or in the repository), and the
    import system does not read the source to check it again on every import:
    both come from this one step, into one archive named by its content.
    (Unpacked into a directory, Python ignores a .pyc beside its source.)
    ``root`` is the archive's path at run time (tracebacks name ``<root>/<module>``,
    and show its lines only when the source is there).
    """
    source = zipfile.ZipFile(io.BytesIO(archive))
    entries: list[tuple[str, bytes]] = []
    record = None
    for name in source.namelist():
        if name.endswith(".dist-info/RECORD"):
            record = name
            continue
        data = source.read(name)
        module = name.endswith(".py") and ".dist-info/" not in name
        if sources or not module:
            entries.append((name, data))
        if module:
            code = compile(data, f"{root}/{name}" if root else name, "exec", dont_inherit=True)
            flags = (0b01).to_bytes(4, "little")  # hash-based, not checked at import
            header = importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(data)
            entries.append((name + "c", header + marshal.dumps(code)))
    return _zip_bytes(_with_record(entries, record))


# Runs under Node: loads the pinned Pyodide, copies the inputs into its file
# system, runs the Python job, and copies the outputs back.
_NODE_RUNNER = """
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
try {
  const job = JSON.parse(readFileSync(process.argv[2], "utf8"));
  const { loadPyodide } = await import(pathToFileURL(job.runtime + "/pyodide.mjs").href);
  // No column ranges in the bytecode (as `python -X no_debug_ranges`): a quarter
  // smaller; tracebacks through these modules lose only their ^^^ markers.
  const env = { HOME: "/home/pyodide", PYTHONNODEBUGRANGES: "1" };
  const py = await loadPyodide({ indexURL: job.runtime + "/", env });
  for (const [inside, host] of Object.entries(job.inputs)) {
    py.FS.writeFile(inside, readFileSync(host));
  }
  py.runPython(job.code);
  for (const [inside, host] of Object.entries(job.outputs)) {
    writeFileSync(host, py.FS.readFile(inside));
  }
} catch (error) {
  // Only the message: an uncaught error would print a line of minified Pyodide.
  process.stderr.write(String(error && error.message ? error.message : error) + "\\n");
  process.exitCode = 1;
}
"""

# The job Pyodide runs: the helpers below, then the two conversions.  The node
# runner has written the inputs to /tmp/stdlib.zip and /tmp/micropip.whl.
_PYODIDE_JOB = """
import ast, base64, hashlib, importlib.util, io, marshal, os, sysconfig, zipfile
from collections.abc import Iterable, Sequence
{helpers}
os.makedirs("/tmp/out", exist_ok=True)
with open("/tmp/stdlib.zip", "rb") as source, open("/tmp/out/python_stdlib.zip", "wb") as out:
    out.write(precompile_stdlib(source.read(), {modules!r}, "/lib/python314.zip", {dropped!r}))
with open("/tmp/micropip.whl", "rb") as source, open("/tmp/out/micropip.whl", "wb") as out:
    out.write(precompile_wheel(source.read(), sysconfig.get_path("purelib")))
"""

_PYODIDE_HELPERS = (
    _record_hash,
    _zip_bytes,
    strip_docstrings,
    pyc_bytes,
    precompile_stdlib,
    _with_record,
    precompile_wheel,
)

# The job that adds bytecode to our own wheel and web zip (/tmp/<name> -> /tmp/out/<name>).
_OUR_JOB = """
import base64, hashlib, importlib.util, io, marshal, os, zipfile
{helpers}
os.makedirs("/tmp/out", exist_ok=True)
for name in {names!r}:
    with open("/tmp/" + name, "rb") as source, open("/tmp/out/" + name, "wb") as out:
        out.write(with_bytecode(source.read(), {root!r} + "/" + name, {sources!r}))
"""

_OUR_HELPERS = (_record_hash, _zip_bytes, _with_record, with_bytecode)


# Standard-library modules the site's runtime leaves out (about 450 kB): they
# cannot work in a browser page (a terminal REPL, debuggers, processes, mail
# and FTP clients, servers, opening a browser) or are developer tools with no
# use on this page (unittest, doctest, pydoc).  Pyodide itself already leaves
# out tkinter, idlelib, venv, ensurepip and the test suite.  tests/test_quality.py
# checks that no code of ours imports one; to use one, delete it here.
STDLIB_DROPPED = (
    "__hello__",
    "__phello__",
    "_pyrepl",
    "antigravity",
    "bdb",
    "doctest",
    "ftplib",
    "imaplib",
    "mailbox",
    "multiprocessing",
    "pdb",
    "poplib",
    "pty",
    "pyclbr",
    "pydoc",
    "smtplib",
    "tabnanny",
    "this",
    "trace",
    "tty",
    "unittest",
    "webbrowser",
    "wsgiref",
    "xmlrpc",
    "zipapp",
)


def read_boot_modules(path: Path = BOOT_MODULES) -> list[str]:
    """The module names in ``path`` (one per line; ``#`` starts a comment)."""
    names = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return sorted({name for name in names if name})


def precompiled_runtime(
    pyodide_tgz: Path, micropip_wheel: Path, boot_modules: Sequence[str]
) -> tuple[bytes, bytes]:
    """(python_stdlib.zip, micropip wheel) precompiled by the pinned Pyodide under Node.

    The cache key covers the runtime, the wheel and the job (module lists included).
    """
    helpers = "\n\n".join(inspect.getsource(f) for f in _PYODIDE_HELPERS)
    code = _PYODIDE_JOB.format(
        helpers=helpers, modules=list(boot_modules), dropped=sorted(STDLIB_DROPPED)
    )
    parts = [sha256_file(pyodide_tgz), sha256_file(micropip_wheel), code, _NODE_RUNNER]
    key = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]
    with tarfile.open(pyodide_tgz) as archive:
        stdlib = _tar_member(archive, "python_stdlib.zip")
    inputs = {"/tmp/stdlib.zip": stdlib, "/tmp/micropip.whl": micropip_wheel.read_bytes()}
    out = _pyodide_job(pyodide_tgz, key, code, inputs, ("python_stdlib.zip", "micropip.whl"))
    return out["python_stdlib.zip"], out["micropip.whl"]


def bytecode_salt(pyodide_tgz: Path) -> bytes:
    """What the bytecode in our archives depends on besides their sources: the
    runtime, the compiling code, ``OUR_SOURCES_SHIPPED``.  Mixed into the archives'
    names, so that a browser never takes bytecode for another Python from its cache
    (without the source beside it, that module could not be imported)."""
    helpers = "\n\n".join(inspect.getsource(f) for f in _OUR_HELPERS)
    parts = [sha256_file(pyodide_tgz), _OUR_JOB, helpers, _NODE_RUNNER, str(OUR_SOURCES_SHIPPED)]
    return "\0".join(parts).encode()


def with_bytecode_in_pyodide(pyodide_tgz: Path, archives: dict[str, bytes]) -> dict[str, bytes]:
    """``with_bytecode`` of each archive ({file name: bytes}; the page puts it on
    ``sys.path`` as ``ARCHIVES/<file name>``), run by the pinned Pyodide under Node
    (so the bytecode is that of the browser's Python); cached like
    ``precompiled_runtime``."""
    helpers = "\n\n".join(inspect.getsource(f) for f in _OUR_HELPERS)
    code = _OUR_JOB.format(
        helpers=helpers, names=sorted(archives), root=ARCHIVES, sources=OUR_SOURCES_SHIPPED
    )
    parts = [sha256_file(pyodide_tgz), code, _NODE_RUNNER]
    parts += [
        f"{name}:{hashlib.sha256(data).hexdigest()}" for name, data in sorted(archives.items())
    ]
    key = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]
    inputs = {f"/tmp/{name}": data for name, data in archives.items()}
    return _pyodide_job(pyodide_tgz, key, code, inputs, tuple(sorted(archives)))


def _pyodide_job(
    pyodide_tgz: Path, key: str, code: str, inputs: dict[str, bytes], outputs: Sequence[str]
) -> dict[str, bytes]:
    """Run ``code`` in the pinned Pyodide under Node, with ``inputs`` ({path inside:
    bytes}) in its file system; return the files it wrote to ``/tmp/out/<name>``.

    Cached in ``.cache/precompiled/<key>/``, so a rebuild needs neither Node nor time.
    """
    cache = PRECOMPILED / key
    paths = {name: cache / name for name in outputs}
    if all(path.exists() for path in paths.values()):
        return {name: path.read_bytes() for name, path in paths.items()}
    _require_tool("node", "Node.js 18 or later (https://nodejs.org) runs Pyodide to precompile")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        runtime = work / "pyodide"
        runtime.mkdir()
        with tarfile.open(pyodide_tgz) as archive:
            for name in PYODIDE_FILES:
                (runtime / name).write_bytes(_tar_member(archive, name))
        (work / "runner.mjs").write_text(_NODE_RUNNER)
        staged = work / "out"
        staged.mkdir()
        (work / "in").mkdir()
        host_inputs = {}
        for number, (inside, data) in enumerate(inputs.items()):
            host = work / "in" / f"{number}-{Path(inside).name}"
            host.write_bytes(data)
            host_inputs[inside] = str(host)
        job = {
            "runtime": str(runtime),
            "code": code,
            "inputs": host_inputs,
            "outputs": {f"/tmp/out/{name}": str(staged / name) for name in outputs},
        }
        (work / "job.json").write_text(json.dumps(job))
        result = subprocess.run(
            ["node", str(work / "runner.mjs"), str(work / "job.json")],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            # Keep the readable lines: a Python traceback, not minified JS source.
            lines = (result.stderr or result.stdout).strip().splitlines()
            tail = "\n".join(line for line in lines if len(line) < 400)[-3000:]
            raise BuildError(f"precompiling with Pyodide under Node failed:\n{tail}")
        cache.mkdir(parents=True, exist_ok=True)
        for name, path in paths.items():
            shutil.copyfile(staged / name, path)
    seconds = time.perf_counter() - started
    print(f"precompiled {', '.join(outputs)} with Pyodide under Node in {seconds:.1f} s")
    return {name: path.read_bytes() for name, path in paths.items()}


def _stem(name: str) -> str:
    """``core-C9KDLldu.js`` -> ``core``; ``core.js`` -> ``core``."""
    base = name.rsplit(".", 1)[0]
    return re.sub(r"-[A-Za-z0-9_]{8}$", "", base)


def pyscript_chunks(files: dict[str, str]) -> list[str]:
    """The PyScript dist files to ship, given {name: text} of its .js/.css files.

    The entry chunks (``PYSCRIPT_ENTRY_STEMS``) and the closure of their static
    ``import ... from "./x.js"`` statements; no source maps.
    """
    todo = [name for name in files if _stem(name) in PYSCRIPT_ENTRY_STEMS]
    keep: set[str] = set()
    while todo:
        name = todo.pop()
        if name in keep:
            continue
        keep.add(name)
        for ref in re.findall(r'(?:from|import)\s*"\./([^"]+)"', files[name]):
            if ref not in files:
                raise BuildError(f"PyScript chunk {name} imports {ref}, which its dist/ lacks")
            todo.append(ref)
    return sorted(keep)


def patch_pyscript_core(text: str, patches: Sequence[tuple[str, str]] = PYSCRIPT_PATCHES) -> str:
    """PyScript's core chunk with ``patches`` applied; each must match exactly once."""
    for old, new in patches:
        count = text.count(old)
        if count != 1:
            raise BuildError(
                f"PyScript {PYSCRIPT_VERSION}'s core chunk contains {old} {count} times, not once: "
                "the build's patch of PyScript no longer applies. Review PYSCRIPT_PATCHES "
                "against the new version (docs/boot.md) before shipping it."
            )
        text = text.replace(old, new)
    return text


def install_pyscript(pyscript_tgz: Path, dist: Path) -> Path:
    """Copy PyScript's needed chunks into ``dist/pyscript-<version>/`` (its core chunk
    patched: ``PYSCRIPT_PATCHES``); return that dir."""
    with tarfile.open(pyscript_tgz) as archive:
        names = [
            m.name.removeprefix("package/dist/")
            for m in archive.getmembers()
            if m.isfile() and m.name.startswith("package/dist/") and m.name.count("/") == 2
        ]
        files = {
            name: _tar_member(archive, f"dist/{name}").decode("utf-8")
            for name in names
            if name.endswith((".js", ".css"))
        }
    chunks = pyscript_chunks(files)
    cores = [name for name in chunks if re.fullmatch(r"core-[A-Za-z0-9_]{8}\.js", name)]
    if len(cores) != 1:
        raise BuildError(f"PyScript {PYSCRIPT_VERSION}: expected one core-<hash>.js, got {cores}")
    files[cores[0]] = patch_pyscript_core(files[cores[0]])
    # The chunks keep PyScript's names, so the directory's name carries a hash of
    # what is in it: a browser never pairs this page with an unpatched cached chunk.
    tag = _hash_tree((name, files[name].encode()) for name in chunks)[:8]
    target = dist / f"pyscript-{PYSCRIPT_VERSION}-{tag}"
    target.mkdir(parents=True)
    for name in chunks:
        (target / name).write_text(files[name], encoding="utf-8")
    return target


# --------------------------------------------------------------------------- icons
#
# The web app manifest needs PNG icons (192 and 512 px) for Chromium to offer
# installing the site.  web/favicon.svg is a rounded square and five dots, so
# the build draws it itself: the SVG shapes it uses (rect with rx, circle,
# hex fills, groups) are rendered with anti-aliased edges and written as PNG
# with zlib.  That keeps the build on the standard library and free of a
# browser; a shape it cannot draw is refused with a message.


@dataclasses.dataclass(frozen=True)
class Shape:
    """A filled shape of the icon, in the SVG's user units."""

    kind: str  # "rect" (x, y, width, height, rx) or "circle" (cx, cy, r)
    geometry: tuple[float, ...]
    rgba: tuple[float, float, float, float]  # channels 0..1


def _svg_colour(value: str, opacity: float) -> tuple[float, float, float, float]:
    match = re.fullmatch(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})", value.strip())
    if match is None:
        raise BuildError(f"favicon.svg: fill {value!r} is not a #rgb or #rrggbb colour")
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    r, g, b = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b, opacity)


def svg_shapes(svg: str) -> tuple[tuple[float, float, float, float], list[Shape]]:
    """The viewBox and the filled shapes, in paint order, of a simple SVG icon."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    view_box = tuple(float(v) for v in root.get("viewBox", "").replace(",", " ").split())
    if len(view_box) != 4:
        raise BuildError("favicon.svg needs a viewBox of four numbers")
    shapes: list[Shape] = []

    def walk(node: Any, fill: str, opacity: float) -> None:
        tag = node.tag.rsplit("}", 1)[-1]
        fill = node.get("fill", fill)
        opacity *= float(node.get("opacity", "1")) * float(node.get("fill-opacity", "1"))
        if tag in ("svg", "g"):
            for child in node:
                walk(child, fill, opacity)
            return
        if tag in ("title", "desc"):
            return
        if fill == "none":
            return
        number = lambda name: float(node.get(name, "0"))  # noqa: E731
        if tag == "rect":
            rx = number("rx") or number("ry")
            geometry = (number("x"), number("y"), number("width"), number("height"), rx)
        elif tag == "circle":
            geometry = (number("cx"), number("cy"), number("r"))
        else:
            raise BuildError(
                f"favicon.svg uses <{tag}>, which the build's icon renderer does not draw "
                "(it draws rect, circle and g): draw the icon with those, or extend svg_shapes"
            )
        shapes.append(Shape(tag, geometry, _svg_colour(fill, opacity)))

    walk(root, "#000000", 1.0)
    return (view_box[0], view_box[1], view_box[2], view_box[3]), shapes


def _signed_distance(shape: Shape, x: float, y: float) -> float:
    """Distance from (x, y) to the shape's edge: negative inside."""
    if shape.kind == "circle":
        cx, cy, r = shape.geometry
        return float(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 - r)
    left, top, width, height, rx = shape.geometry
    rx = min(rx, width / 2, height / 2)
    qx = abs(x - left - width / 2) - (width / 2 - rx)
    qy = abs(y - top - height / 2) - (height / 2 - rx)
    outside = (max(qx, 0.0) ** 2 + max(qy, 0.0) ** 2) ** 0.5
    return float(outside + min(max(qx, qy), 0.0) - rx)


def _centre_and_half_width(shape: Shape, y: float) -> tuple[float, float]:
    """The shape's centre x and its half width on the line ``y`` (negative: missed)."""
    if shape.kind == "circle":
        cx, cy, r = shape.geometry
        dy = abs(y - cy)
        return cx, (r * r - dy * dy) ** 0.5 if dy <= r else -1.0
    left, top, width, height, rx = shape.geometry
    rx = min(rx, width / 2, height / 2)
    dy = abs(y - top - height / 2) - (height / 2 - rx)
    if dy <= 0:
        return left + width / 2, width / 2
    return left + width / 2, width / 2 - rx + (rx * rx - dy * dy) ** 0.5 if dy <= rx else -1.0


def render_icon(svg: str, size: int) -> bytes:
    """``svg`` drawn as a ``size`` x ``size`` RGBA PNG (transparent background)."""
    (vx, vy, vw, vh), shapes = svg_shapes(svg)
    scale = size / max(vw, vh)  # pixels per user unit
    pixels = [[0.0, 0.0, 0.0, 0.0] for _ in range(size * size)]  # premultiplied RGBA
    for shape in shapes:
        r, g, b, a = shape.rgba
        for py in range(size):
            y = vy + (py + 0.5) / scale
            cx, half = _centre_and_half_width(shape, y)
            above = _centre_and_half_width(shape, y - 1 / scale)[1]
            below = _centre_and_half_width(shape, y + 1 / scale)[1]
            if max(above, half, below) < 0:
                continue  # the row is more than a pixel away from the shape
            # Pixels whose 2x2-pixel box is inside are fully covered (the shapes are
            # convex, so their half width is smallest at one end of that band).
            inner = min(above, below)
            outer = max(above, half, below) + 2 / scale
            first = max(0, int((cx - outer - vx) * scale))
            last = min(size, int((cx + outer - vx) * scale) + 1)
            for px in range(first, last):
                x = vx + (px + 0.5) / scale
                if abs(x - cx) < inner - 1 / scale:
                    cover = a
                else:  # near the edge: coverage from the distance to it, a one-pixel ramp
                    d = _signed_distance(shape, x, y) * scale
                    cover = a * min(1.0, max(0.0, 0.5 - d))
                if cover:
                    pixel = pixels[py * size + px]
                    keep = 1.0 - cover
                    pixel[0] = r * cover + pixel[0] * keep
                    pixel[1] = g * cover + pixel[1] * keep
                    pixel[2] = b * cover + pixel[2] * keep
                    pixel[3] = cover + pixel[3] * keep
    raw = bytearray()
    for py in range(size):
        raw.append(0)  # PNG filter: none
        for pr, pg, pb, pa in pixels[py * size : (py + 1) * size]:
            if pa:
                raw += bytes((round(pr / pa * 255), round(pg / pa * 255), round(pb / pa * 255)))
            else:
                raw += b"\0\0\0"
            raw.append(round(pa * 255))
    return png_bytes(size, size, bytes(raw))


def png_bytes(width: int, height: int, rgba_rows: bytes) -> bytes:
    """A PNG of 8-bit RGBA rows, each preceded by its filter byte."""
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes((8, 6, 0, 0, 0))
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", header),
            chunk(b"IDAT", zlib.compress(rgba_rows, 9)),
            chunk(b"IEND", b""),
        )
    )


ICON_SIZES = (192, 512)
THEME_COLOUR = "#1f5f5b"  # the icon's square, also the browser bar of the installed app
BACKGROUND_COLOUR = "#f6f1e7"  # the page's background (web/style.css --bg): the splash screen


def _hashed(directory: Path, stem: str, suffix: str, data: bytes) -> Path:
    """Write ``data`` to ``directory/<stem>-<hash><suffix>`` and return that path."""
    path = directory / f"{stem}-{hashlib.sha256(data).hexdigest()[:8]}{suffix}"
    path.write_bytes(data)
    return path


def write_app_files(dist: Path, svg: bytes, description: str) -> dict[str, Path]:
    """The favicon, PNG icons and web app manifest in ``dist``; returns their paths by role.

    Roles: ``favicon``, ``icon-192``, ``icon-512``, ``manifest``.  Every name carries a
    content hash; the manifest's URLs are relative to it (the site's folder), so an
    installed app opens at the site's own path, wherever it is hosted.
    """
    files = {"favicon": _hashed(dist, "favicon", ".svg", svg)}
    for size in ICON_SIZES:
        files[f"icon-{size}"] = _hashed(
            dist, f"icon-{size}", ".png", render_icon(svg.decode(), size)
        )
    icons = [{"src": _rel(files["favicon"], dist), "sizes": "any", "type": "image/svg+xml"}]
    icons += [
        {"src": _rel(files[f"icon-{size}"], dist), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in ICON_SIZES
    ]
    manifest = {
        "name": "Optimus Table",
        "short_name": "Optimus Table",
        "description": description,
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": icons,
    }
    data = (json.dumps(manifest, indent=1, ensure_ascii=False) + "\n").encode()
    files["manifest"] = _hashed(dist, "manifest", ".webmanifest", data)
    return files


# --------------------------------------------------------------------------- page


def inputs_digest() -> str:
    """A hash of everything the build reads; dist/ is stale when it differs."""
    files: list[tuple[str, bytes]] = [
        ("build.py", Path(__file__).read_bytes()),
        ("index.html", INDEX_TEMPLATE.read_bytes()),
        ("pyproject.toml", (ROOT / "pyproject.toml").read_bytes()),
    ]
    files += _package_files(PY_SRC, "py")
    files += _package_files(WEB_SRC, "web")
    return _hash_tree(files)


def _rel(path: Path, dist: Path) -> str:
    return "./" + path.relative_to(dist).as_posix()


def render_index(
    template: str,
    *,
    dist: Path,
    pyodide_dir: Path,
    pyscript_dir: Path,
    wheel: Path,
    web_zip: Path,
    units: dict[str, Any],
    app_files: dict[str, Path],
    css: str,
    build_id: str = "",
) -> str:
    """Fill the ``{{...}}`` slots of index.html: preloads, CSS, icons, manifest, PyScript.

    ``units`` is what ``unit_config`` returns (the archives fetched after the boot);
    ``app_files`` is what ``write_app_files`` returns; ``build_id`` names the build
    (the service worker checks that the page it caches carries it).
    """
    # Our wheel and web zip are written into the file system as they are and
    # imported from there, on sys.path (zipimport, with the bytecode beside each
    # module): nothing to unpack, no package installer (docs/boot.md).  micropip
    # stays shipped and in the lock file, for code that loads it on demand.
    archives = {_rel(path, dist): f"{ARCHIVES}/{path.name}" for path in (web_zip, wheel)}
    config = {
        "interpreter": _rel(pyodide_dir / "pyodide.mjs", dist),
        "files": archives,
        "plugins": [f"!{name}" for name in PYSCRIPT_DISABLED_PLUGINS],
    }
    core = _rel(pyscript_dir / "core.js", dist)
    core_chunk = next(pyscript_dir.glob("core-*.js"))
    # The error plugin's chunk is imported by PyScript's core only after the core
    # has run, and PyScript waits for its plugins before it starts the interpreter:
    # preloaded, it is here by then (docs/boot.md).
    error_chunk = next(pyscript_dir.glob("error-*.js"))
    runtime = [pyodide_dir / name for name in ("pyodide.mjs", "pyodide.asm.mjs")]
    fetched = [pyodide_dir / name for name in ("pyodide.asm.wasm", "python_stdlib.zip")]
    fetched += [pyodide_dir / "pyodide-lock.json", wheel, web_zip]
    # Start every download at once, in parallel with PyScript's own JS, instead
    # of one after another as each loader discovers the next.  `crossorigin`
    # matches the mode of the fetch() calls that later consume these responses.
    preloads = [f'<link rel="modulepreload" href="{core}">']
    preloads += [
        f'<link rel="modulepreload" href="{_rel(path, dist)}">'
        for path in [core_chunk, error_chunk, *runtime]
    ]
    preloads += [
        f'<link rel="preload" as="fetch" crossorigin href="{_rel(path, dist)}">' for path in fetched
    ]
    slots = {
        "CSS": css,
        "FAVICON": _rel(app_files["favicon"], dist),
        "ICON_192": _rel(app_files["icon-192"], dist),
        "MANIFEST": _rel(app_files["manifest"], dist),
        "THEME_COLOUR": THEME_COLOUR,
        "BUILD": build_id,
        "PRELOADS": "\n    ".join(preloads),
        "PYSCRIPT_CORE": core,
        "PYTHON_PATH": json.dumps(list(archives.values())),
        "UNITS": json.dumps(units, sort_keys=True),
        "PYSCRIPT_CONFIG": html.escape(json.dumps(config, separators=(",", ":")), quote=True),
        "MPY_CONFIG": html.escape(
            json.dumps({"plugins": config["plugins"]}, separators=(",", ":"))
        ),
    }

    def fill(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in slots:
            raise BuildError(f"index.html has an unknown slot {{{{{key}}}}}")
        return slots[key]

    page = re.sub(r"\{\{([A-Z_0-9]+)\}\}", fill, template)
    missing = [key for key in slots if "{{" + key + "}}" in page]
    if missing:  # pragma: no cover - defensive
        raise BuildError(f"unfilled slots in index.html: {missing}")
    return page


def bundle_css(src: Path = WEB_SRC) -> str:
    """``web/style.css`` then every other ``web/*.css`` (one per game view), in name order.

    Inlined into index.html: no extra request, and no flash of unstyled page.
    """
    sheets = [src / "style.css", *sorted(p for p in src.glob("*.css") if p.name != "style.css")]
    return "\n".join(
        f"/* {sheet.name} */\n{sheet.read_text(encoding='utf-8').strip()}" for sheet in sheets
    )


BARE_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Bare Pyodide (benchmark)</title>
<link rel="icon" href="data:,">
</head>
<body>
<p id="out">Loading Pyodide…</p>
<script type="module">
import {{ loadPyodide }} from "../{pyodide}/pyodide.mjs";
const pyodide = await loadPyodide({{ indexURL: "../{pyodide}/"{options} }});
document.getElementById("out").textContent = pyodide.runPython("import sys; sys.version");
window.__pythonReadyMs = performance.now();
window.pyodide = pyodide;  // for step-by-step measurements from the console
document.documentElement.dataset.python = "ready";
</script>
</body>
</html>
"""


def page_description(template: str) -> str:
    """The page's ``<meta name="description">``, reused by the web app manifest."""
    match = re.search(r'<meta name="description" content="([^"]*)">', template)
    if match is None:
        raise BuildError('index.html lacks <meta name="description" content="...">')
    return html.unescape(match.group(1))


# Files of dist/ that the service worker does not keep: the benchmark pages, the
# build's own stamp, the GitHub Pages switch, and the worker itself.
OFFLINE_SKIPPED = ("bench/", STAMP_NAME, ".nojekyll", "sw.js", "index.html")


def offline_files(dist: Path) -> list[str]:
    """Paths (relative to ``dist``) of the files the service worker caches, sorted;
    the page itself is cached as ``./`` besides these."""
    names = (path.relative_to(dist).as_posix() for path in dist.rglob("*") if path.is_file())
    return sorted(name for name in names if not name.startswith(OFFLINE_SKIPPED))


def service_worker(build_id: str, files: Sequence[str]) -> str:
    """dist/sw.js: web/sw.js after the build's id and its file list."""
    head = f"const BUILD = {json.dumps(build_id)};\nconst FILES = {json.dumps(list(files))};\n"
    return head + (WEB_SRC / "sw.js").read_text(encoding="utf-8")


def build(dist: Path = DIST, *, quiet: bool = False, py_src: Path = PY_SRC) -> Path:
    """Build the whole site into ``dist`` (replacing it); return ``dist``.

    ``py_src`` is the rules package to ship (the tests build a changed copy).
    """
    started = time.perf_counter()
    sources = {name: fetch(pin) for name, pin in PINS.items()}
    staging = dist.with_name(dist.name + ".tmp")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)

    pyodide_dir = install_pyodide(
        sources["pyodide"], sources["micropip"], staging, read_boot_modules()
    )
    pyscript_dir = install_pyscript(sources["pyscript"], staging)
    salt = bytecode_salt(sources["pyodide"])
    wheel = build_wheel(staging / "wheels", py_src, salt)
    full_web_zip = build_web_zip(staging / "app")
    # The boot's part of our code stays in the wheel and the web zip; the rest goes
    # in an archive per game and one they share, fetched after the boot (docs/boot.md).
    split = split_archives(wheel.read_bytes(), full_web_zip.read_bytes())
    full_web_zip.unlink()

    def named(stem: str, data: bytes) -> str:  # by the content it will have
        return f"{stem}-{hashlib.sha256(data + salt).hexdigest()[:8]}.zip"

    web_data = _zip_bytes(split.pop("web"))
    web_zip = staging / "app" / named("web", web_data)
    archives = {wheel.name: _zip_bytes(split.pop("wheel")), web_zip.name: web_data}
    unit_files: dict[str, str] = {}
    for unit, entries in split.items():
        data = _zip_bytes(entries)
        unit_files[unit] = f"app/{named(unit, data)}.gz"
        archives[unit_files[unit].rsplit("/", 1)[-1].removesuffix(".gz")] = data
    # Our own modules ship with their bytecode too (docs/boot.md): the first visit
    # of a game imports them without compiling.
    compiled = with_bytecode_in_pyodide(sources["pyodide"], archives)
    wheel.write_bytes(compiled[wheel.name])
    web_zip.write_bytes(compiled[web_zip.name])
    for served in unit_files.values():
        unpacked = served.rsplit("/", 1)[-1].removesuffix(".gz")
        (staging / served).write_bytes(gzipped_stored_zip(compiled[unpacked]))
    units = unit_config(split, unit_files)

    template = INDEX_TEMPLATE.read_text(encoding="utf-8")
    app_files = write_app_files(
        staging, (WEB_SRC / "favicon.svg").read_bytes(), page_description(template)
    )
    render = functools.partial(
        render_index,
        template,
        dist=staging,
        pyodide_dir=pyodide_dir,
        pyscript_dir=pyscript_dir,
        wheel=wheel,
        web_zip=web_zip,
        units=units,
        app_files=app_files,
        css=bundle_css(WEB_SRC),
    )
    offline = offline_files(staging)
    build_id = _hash_tree(
        [(name, (staging / name).read_bytes()) for name in offline]
        + [("index.html", render().encode())]
    )[:16]
    (staging / "index.html").write_text(render(build_id=build_id), encoding="utf-8")
    (staging / "sw.js").write_text(
        service_worker(build_id, ["./", *(f"./{name}" for name in offline)]), encoding="utf-8"
    )
    (staging / "bench").mkdir()
    (staging / "bench" / "bare.html").write_text(
        BARE_PAGE.format(pyodide=pyodide_dir.name, options=""), encoding="utf-8"
    )
    (staging / ".nojekyll").write_text("")  # GitHub Pages: serve files as they are
    stamp = {
        "inputs": inputs_digest(),
        "wheel": wheel.name,
        "web": web_zip.name,
        "units": unit_files,
        "pyodide": pyodide_dir.name,
        "build": build_id,
    }
    (staging / STAMP_NAME).write_text(json.dumps(stamp, indent=1) + "\n")

    shutil.rmtree(dist, ignore_errors=True)
    staging.rename(dist)
    if not quiet:
        size = sum(p.stat().st_size for p in dist.rglob("*") if p.is_file())
        print(
            f"built {dist} ({size / 1e6:.1f} MB) in {time.perf_counter() - started:.1f} s; "
            f"wheel {wheel.name}"
        )
    return dist


def dist_is_fresh(dist: Path = DIST) -> bool:
    """True when ``dist`` was built from the current sources."""
    try:
        stamp = json.loads((dist / STAMP_NAME).read_text())
    except (OSError, ValueError):
        return False
    return bool(stamp.get("inputs") == inputs_digest())


# --------------------------------------------------------------------------- serve


MIME_TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
    ".css": "text/css",
    ".html": "text/html; charset=utf-8",
}


# Served gzip-encoded (when accepted), like GitHub Pages does for text; .wasm,
# .zip and .whl go as they are (the archives are compressed already).
GZIP_TYPES = frozenset({".html", ".js", ".mjs", ".css", ".json", ".svg", ".webmanifest"})


@functools.lru_cache(maxsize=64)
def _gzipped(path: Path, mtime_ns: int) -> bytes:
    """``path`` compressed once per version (``mtime_ns`` keys the cache)."""
    return gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)


class StaticHandler(http.server.SimpleHTTPRequestHandler):
    """Serve a directory, optionally mounted under a URL prefix such as ``/sub/path/``.

    ``extra`` maps exact URL paths to (content type, body) pairs served from
    memory (the e2e tests use it for an iframe parent page).
    """

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    prefix = "/"
    extra: dict[str, tuple[str, bytes]] = {}
    quiet = True

    def _strip_prefix(self) -> bool:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path in self.extra:
            content_type, body = self.extra[path]
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command == "GET":
                self.wfile.write(body)
            return False
        if self.prefix != "/":
            if path + "/" == self.prefix:
                self.send_response(301)
                self.send_header("Location", self.prefix)
                self.end_headers()
                return False
            if not path.startswith(self.prefix):
                self.send_error(404, "outside the served prefix")
                return False
            self.path = "/" + self.path[len(self.prefix) :]
        return True

    def do_GET(self) -> None:
        if self._strip_prefix() and not self._send_gzipped():
            super().do_GET()

    def do_HEAD(self) -> None:
        if self._strip_prefix() and not self._send_gzipped():
            super().do_HEAD()

    def _send_gzipped(self) -> bool:
        """Send a text file gzip-encoded when the client accepts it, as static hosts
        such as GitHub Pages do; False (nothing sent) for anything else."""
        if "gzip" not in self.headers.get("Accept-Encoding", ""):
            return False
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?", 1)[0].endswith("/"):
            path = path / "index.html"
        if path.suffix not in GZIP_TYPES or not path.is_file():
            return False
        body = _gzipped(path, path.stat().st_mtime_ns)
        self.send_response(200)
        self.send_header("Content-Type", MIME_TYPES[path.suffix])
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command == "GET":
            self.wfile.write(body)
        return True

    def end_headers(self) -> None:
        # Development server: always revalidate so a rebuild shows at once.
        self.send_header("Cache-Control", "no-cache")
        # As GitHub Pages does: lets a page in a sandboxed iframe (an opaque
        # origin, so every request is cross-origin) load the site's files.
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def make_server(
    directory: Path = DIST,
    port: int = 0,
    *,
    prefix: str = "/",
    extra: dict[str, tuple[str, bytes]] | None = None,
    quiet: bool = True,
) -> http.server.HTTPServer:
    """An HTTP server for ``directory`` on 127.0.0.1:``port`` (0 = a free port)."""
    if not prefix.startswith("/") or not prefix.endswith("/"):
        raise ValueError("prefix must start and end with '/'")
    handler = type(
        "Handler",
        (StaticHandler,),
        {"prefix": prefix, "extra": dict(extra or {}), "quiet": quiet},
    )
    bound = functools.partial(handler, directory=str(directory))
    return _Server(("127.0.0.1", port), bound)


@dataclasses.dataclass
class RunningServer:
    """A server running in a daemon thread; ``url`` ends with the prefix."""

    server: http.server.HTTPServer
    thread: threading.Thread
    url: str

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def start_server(directory: Path = DIST, **kwargs: Any) -> RunningServer:
    """Start ``make_server`` in a thread and return it with its base URL."""
    server = make_server(directory, **kwargs)
    thread = threading.Thread(target=server.serve_forever, name="dist-server", daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    return RunningServer(server, thread, f"http://{host!s}:{port}{kwargs.get('prefix', '/')}")


# --------------------------------------------------------------------------- test


def _pip_install(requirements: Sequence[str]) -> None:
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "--quiet",
        *requirements,
    ]
    print("test: " + " ".join(cmd))
    if subprocess.run(cmd, check=False).returncode != 0:
        raise BuildError(
            f"installing the test tools failed; run `{' '.join(cmd)}` by hand and fix what it "
            "reports"
        )


def ensure_chromium() -> None:
    """Make sure Debian's Chromium is at ``CHROMIUM``; install it with apt where we can."""
    if Path(CHROMIUM).exists():
        return
    can_apt = (
        hasattr(os, "geteuid")
        and os.geteuid() == 0
        and Path("/etc/debian_version").exists()
        and shutil.which("apt-get") is not None
    )
    if not can_apt:
        raise BuildError(
            f"the browser tests need Chromium at {CHROMIUM}, which is missing. Install it "
            "(Debian/Ubuntu: `sudo apt-get install -y chromium`) or point OPTIMUS_CHROMIUM "
            "at a Chromium binary, then rerun `python build.py test`."
        )
    print("test: installing chromium with apt-get")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]):
        if subprocess.run(cmd, check=False, env=env).returncode != 0:
            raise BuildError(f"`{' '.join(cmd)}` failed; install chromium by hand and rerun")
    if not Path(CHROMIUM).exists():
        raise BuildError(
            f"apt installed chromium but {CHROMIUM} is still missing; set OPTIMUS_CHROMIUM"
        )


def cmd_test(pytest_args: Sequence[str]) -> int:
    """Install test tools, build, run pytest (testpaths from pyproject) and return its code."""
    requirements = read_project().get("optional-dependencies", {}).get("test", [])
    _pip_install(requirements)
    ensure_chromium()
    build()
    env = {**os.environ, "OPTIMUS_CHROMIUM": CHROMIUM}
    return subprocess.run(
        [sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT, env=env, check=False
    ).returncode


# --------------------------------------------------------------------------- benchmark


def browser_args() -> list[str]:
    """Chromium flags for headless runs on this kind of machine (no sandbox, no GPU, quiet)."""
    return [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-features=Translate,MediaRouter,OptimizationHints",
    ]


@dataclasses.dataclass
class Load:
    """One cold load: ms from navigation start to ready, bytes received for the
    requests made before ready, the longest main-thread task before ready, and
    (``route``) ms to show a game route after it: until its view is mounted, and
    until the frame showing it is drawn; ``total_bytes``, all bytes received by the
    end of the load (a visit's and the preloading's included)."""

    ms: float
    bytes: int
    requests: int
    longest_task_ms: float = 0.0
    route_ms: float | None = None
    route_drawn_ms: float | None = None
    cpu_ms: float = 0.0  # CPU time of the page's main thread until ready
    route_cpu_ms: float | None = None  # and during the route visit, until drawn
    total_bytes: int = 0


def _thread_ms(cdp: Any) -> float:
    """CPU time of the page's main thread so far, in ms (Chromium's ThreadTime)."""
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return float(metrics.get("ThreadTime", 0.0)) * 1000


# Collects the page's long tasks (over 50 ms) from the start, for the benchmark.
LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });
"""

# A game's card is clicked.  Timed from the press of the mouse button (the
# mousedown event's timeStamp is when the input arrived, so a task the page was
# running meanwhile counts) until the game's table is mounted (its set-up form is
# in the page: at once in the router's hashchange handler, which runs before this
# listener, or later when the game's archive had to be fetched first and the
# route showed a loading note meanwhile), and until the frame showing it is drawn
# (a task queued from the next animation frame runs after that frame's style,
# layout and paint).
ROUTE_VISIT = """() => { window.__visit = new Promise((resolve) => {
  let pressed = null;
  const press = (event) => { pressed = event.timeStamp; };
  addEventListener("mousedown", press, { capture: true, once: true });
  const view = document.getElementById("game-view");
  const table = () => view.querySelector("[data-role=setup]");
  const mounted = () => {
    const ms = performance.now() - pressed;
    requestAnimationFrame(() => setTimeout(() => resolve([ms, performance.now() - pressed])));
  };
  addEventListener("hashchange", () => {
    if (table()) return mounted();
    const watch = new MutationObserver(() => {
      if (table()) { watch.disconnect(); mounted(); }
    });
    watch.observe(view, { childList: true, subtree: true });
  }, { once: true });
}); }"""


def _visit(page: Any, cdp: Any, route: str) -> tuple[float, float, float]:
    """Click the landing page's link to ``route``: (ms until mounted, ms until drawn,
    main-thread CPU ms meanwhile), as ``ROUTE_VISIT`` times them."""
    box = page.locator(f'a[href="{route}"]').first.bounding_box()
    page.evaluate(ROUTE_VISIT)
    before = _thread_ms(cdp)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    mounted, drawn = page.evaluate("window.__visit")
    return float(mounted), float(drawn), _thread_ms(cdp) - before


@dataclasses.dataclass(frozen=True)
class Network:
    """Emulated network for the benchmark: extra round-trip latency and bandwidth (0 = none)."""

    latency_ms: float = 0.0
    mbps: float = 0.0


def _cold_load(
    browser: Any,
    url: str,
    network: Network = Network(),
    timeout_ms: float = 90_000,
    route: str | None = None,
    pause_ms: float = 0.0,
) -> Load:
    """One cold load of ``url``; then, with ``route``, a click on its link at once
    (or ``pause_ms`` after ready)."""
    # No service worker: its install would download the site again during the run.
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.add_init_script(LONG_TASKS)
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        if network.latency_ms or network.mbps:
            throughput = network.mbps * 1e6 / 8 if network.mbps else -1
            conditions = {"offline": False, "latency": network.latency_ms}
            conditions |= {"downloadThroughput": throughput, "uploadThroughput": throughput}
            cdp.send("Network.emulateNetworkConditions", conditions)
        received: dict[str, int] = {}
        cdp.on(
            "Network.loadingFinished",
            lambda e: received.__setitem__(e["requestId"], int(e["encodedDataLength"])),
        )
        # The boot's bytes are those of the requests made before ready: not those
        # of a visit clicked at once, nor of the preloading that starts later.
        sent: list[str] = []
        cdp.on("Network.requestWillBeSent", lambda e: sent.append(e["requestId"]))
        page.goto(url)
        page.wait_for_selector('html[data-python="ready"]', state="attached", timeout=timeout_ms)
        ms = float(page.evaluate("window.__pythonReadyMs"))
        boot_requests = set(sent)
        # Main-thread CPU time: unlike wall time, barely inflated by other work on
        # a busy machine (it still counts the benchmark's own few ms after ready).
        cpu_ms = _thread_ms(cdp)
        visit = None
        if route is not None and not pause_ms:
            visit = _visit(page, cdp, route)
        longest = max(
            (d for start, d in page.evaluate("window.__longTasks") if start < ms), default=0.0
        )
        page.wait_for_timeout(200)  # let the last loadingFinished events arrive
        boot = [size for request, size in received.items() if request in boot_requests]
        load = Load(ms, sum(boot), len(boot), float(longest), cpu_ms=cpu_ms)
        if route is not None and pause_ms:
            page.wait_for_timeout(max(0.0, pause_ms - 200))
            visit = _visit(page, cdp, route)
        if visit is not None:
            load.route_ms, load.route_drawn_ms, load.route_cpu_ms = visit
        load.total_bytes = sum(received.values())
        return load
    finally:
        context.close()


def _published_pages(pyodide_dir: str) -> dict[str, tuple[str, bytes]]:
    """In-memory pages for the benchmark: bare Pyodide with the npm package's own
    source-only ``python_stdlib.zip`` (the rest of the runtime from dist/)."""
    with tarfile.open(fetch(PINS["pyodide"])) as archive:
        stdlib = _tar_member(archive, "python_stdlib.zip")
    options = ', stdLibURL: new URL("./npm/python_stdlib.zip", location.href).href'
    page = BARE_PAGE.format(pyodide=pyodide_dir, options=options).encode()
    return {
        "/bench/bare-npm.html": ("text/html; charset=utf-8", page),
        "/bench/npm/python_stdlib.zip": ("application/zip", stdlib),
    }


BENCH_PAGES = ("npm", "bare", "site")
BENCH_ROUTE = "#/fileiras"  # the game whose first visit is timed
BENCH_PAUSE_MS = 3000.0  # "a while after ready": the second way the visit is timed


def _visit_text(load: Load) -> str:
    if load.route_ms is None:
        return ""
    return (
        f", {BENCH_ROUTE} mounted {load.route_ms:4.0f} ms, drawn "
        f"{load.route_drawn_ms:4.0f} ms (CPU {load.route_cpu_ms:3.0f} ms)"
    )


def cmd_bench(runs: int, network: Network = Network(), pages: Sequence[str] = BENCH_PAGES) -> int:
    """Alternate cold loads of bare Pyodide (as published, and as built) and the site
    (``pages``: which of them; the ratios need ``bare`` or ``npm`` besides ``site``)."""
    _pip_install(["playwright>=1.40"])
    ensure_chromium()
    if not dist_is_fresh():
        build()
    from playwright.sync_api import sync_playwright

    stamp = json.loads((DIST / STAMP_NAME).read_text())
    server = start_server(DIST, extra=_published_pages(stamp["pyodide"]))
    names = tuple(name for name in BENCH_PAGES if name in pages)
    results: dict[str, list[Load]] = {name: [] for name in names}
    urls = {
        "npm": server.url + "bench/bare-npm.html",
        "bare": server.url + "bench/bare.html",
        "site": server.url,
    }
    # The site's first visit of a game is timed twice: clicked at once when ready,
    # and clicked after a pause (a load of its own, whose boot is not counted).
    paused: list[Load] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=browser_args())
            _cold_load(browser, urls["site"])  # warm the OS file cache; not counted
            for i in range(runs):
                for name in names if i % 2 == 0 else reversed(names):
                    route = BENCH_ROUTE if name == "site" else None
                    load = _cold_load(browser, urls[name], network, route=route)
                    results[name].append(load)
                    print(
                        f"run {i + 1}/{runs} {name:4}: {load.ms:7.0f} ms "
                        f"(CPU {load.cpu_ms:5.0f} ms) {load.bytes / 1e3:8.0f} kB "
                        f"{load.requests:3} requests, "
                        f"longest task {load.longest_task_ms:4.0f} ms{_visit_text(load)}"
                    )
                    if name == "site":
                        load = _cold_load(
                            browser, urls[name], network, route=route, pause_ms=BENCH_PAUSE_MS
                        )
                        paused.append(load)
                        print(
                            f"run {i + 1}/{runs} site, {BENCH_PAUSE_MS / 1000:.0f} s after ready:"
                            f"{_visit_text(load)[1:]}; {load.total_bytes / 1e3:.0f} kB in all"
                        )
            browser.close()
    finally:
        server.close()
    med = {name: statistics.median(load.ms for load in loads) for name, loads in results.items()}
    size = {
        name: int(statistics.median(load.bytes for load in loads))
        for name, loads in results.items()
    }
    shaped = f", emulated {network}" if network != Network() else ""
    print(f"\nmedian of {runs} cold loads (ms from navigation start to data-python=ready{shaped}):")
    labels = {
        "npm": "bare Pyodide as published (npm package)",
        "bare": "bare Pyodide as built (our runtime)    ",
        "site": "the site                               ",
    }
    for name in names:
        longest = statistics.median(load.longest_task_ms for load in results[name])
        print(
            f"  {labels[name]}: {med[name]:5.0f} ms, {size[name] / 1e6:.2f} MB, "
            f"longest main-thread task {longest:.0f} ms"
        )
    cpu = {
        name: statistics.median(load.cpu_ms for load in loads) for name, loads in results.items()
    }
    for ref in (name for name in ("npm", "bare") if name in med and "site" in med):
        print(
            f"  site/{ref}: ratio {med['site'] / med[ref]:.2f} "
            f"(main-thread CPU: {cpu['site']:.0f} / {cpu[ref]:.0f} ms, ratio "
            f"{cpu['site'] / cpu[ref]:.2f}), extra bytes {(size['site'] - size[ref]) / 1000:.0f} kB"
        )
    if paused:
        total = statistics.median(load.total_bytes for load in paused)
        print(
            f"  the site, {BENCH_PAUSE_MS / 1000:.0f} s after ready (preloading done) and a "
            f"visit: {total / 1e6:.2f} MB received in all"
        )
    when = {"clicked when ready": results.get("site", [])}
    when[f"clicked {BENCH_PAUSE_MS / 1000:.0f} s after ready"] = paused
    for label, visits in when.items():
        if visits:
            mounted = statistics.median(load.route_ms or 0.0 for load in visits)
            drawn = statistics.median(load.route_drawn_ms or 0.0 for load in visits)
            visit_cpu = statistics.median(load.route_cpu_ms or 0.0 for load in visits)
            print(
                f"  the site's first visit of {BENCH_ROUTE}, {label}: mounted in {mounted:.0f} ms,"
                f" drawn in {drawn:.0f} ms from the click (main-thread CPU {visit_cpu:.0f} ms)"
            )
    print(
        "  targets: site/bare ratio <= 1.20, extra bytes <= 300 kB; "
        "first game route <= 100 ms after ready"
    )
    return 0


# --------------------------------------------------------------------------- main


def cmd_serve(port: int) -> int:
    build()
    server = make_server(DIST, port, quiet=False)
    print(f"serving {DIST} on http://127.0.0.1:{port}/ (Ctrl+C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] == "test":
            return cmd_test(args[1:])  # everything after `test` goes to pytest untouched
        parser = argparse.ArgumentParser(prog="build.py", description=__doc__.split("\n\n")[0])
        sub = parser.add_subparsers(dest="command")
        serve = sub.add_parser("serve", help="build and serve dist/ on 127.0.0.1")
        serve.add_argument("--port", type=int, default=8000)
        bench = sub.add_parser("bench-boot", help="cold-boot benchmark: bare Pyodide vs the site")
        bench.add_argument(
            "--runs",
            type=int,
            default=15,
            help="cold loads of each page (default 15: a 7-load median moves by 0.2)",
        )
        bench.add_argument("--latency", type=float, default=0.0, help="emulated RTT in ms")
        bench.add_argument("--mbps", type=float, default=0.0, help="emulated bandwidth")
        bench.add_argument(
            "--pages",
            default=",".join(BENCH_PAGES),
            help="which pages to load, of npm,bare,site (default: all three)",
        )
        sub.add_parser(
            "test", help="install test tools, build, run pytest (extra args go to pytest)"
        )
        sub.add_parser("build", help="build dist/ (the default)")
        ns = parser.parse_args(args)
        if ns.command == "serve":
            return cmd_serve(ns.port)
        if ns.command == "bench-boot":
            pages = ns.pages.split(",")
            if not set(pages) <= set(BENCH_PAGES):
                parser.error(f"--pages takes names among {','.join(BENCH_PAGES)}")
            return cmd_bench(ns.runs, Network(ns.latency, ns.mbps), pages)
        build()
        return 0
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
