"""PyScript's chunks the page loads (and the plugins its config switches off)."""

from __future__ import annotations

import re
import tarfile
from collections.abc import Sequence
from pathlib import Path

from sitebuild import BuildError
from sitebuild.files import hash_tree
from sitebuild.pins import PYSCRIPT_VERSION, tar_member

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
# pairs; each must match exactly once in the pinned chunk, or the build stops.
#
# Before each script, PyScript runs generated Python (its "codeBeforeRun") that
# writes its `pyscript` package into the file system, then imports it only to
# delete the name again.  Nothing on this page uses `pyscript`, and that import
# costs main-thread time at boot (its modules compiled from source, `html` and its
# entities, the JS lookups of `pyscript.context`): it becomes `_pyscript = None`.
# A script that wants `pyscript` still finds the package and imports it itself.
# The patch matches a string of PyScript's generated Python, not a minified name.
#
# Kept because a paired measurement shows its gain: the site against the same
# build without it, 15 alternating cold loads (`python build.py bench-boot
# --pages site,unpatched`): docs/boot.md.  Other patches measured no gain there
# and were dropped (docs/notes/boot-history.md).
PYSCRIPT_PATCHES = (
    (
        '"import pyscript as _pyscript"',
        '"_pyscript = None  # optimus: imported on first use (docs/boot.md)"',
    ),
)


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


def install_pyscript(
    pyscript_tgz: Path, dist: Path, patches: Sequence[tuple[str, str]] = PYSCRIPT_PATCHES
) -> Path:
    """Copy PyScript's needed chunks into ``dist/pyscript-<version>/`` (its core chunk
    patched: ``PYSCRIPT_PATCHES``); return that dir."""
    with tarfile.open(pyscript_tgz) as archive:
        names = [
            m.name.removeprefix("package/dist/")
            for m in archive.getmembers()
            if m.isfile() and m.name.startswith("package/dist/") and m.name.count("/") == 2
        ]
        files = {
            name: tar_member(archive, f"dist/{name}").decode("utf-8")
            for name in names
            if name.endswith((".js", ".css"))
        }
    chunks = pyscript_chunks(files)
    cores = [name for name in chunks if re.fullmatch(r"core-[A-Za-z0-9_]{8}\.js", name)]
    if len(cores) != 1:
        raise BuildError(f"PyScript {PYSCRIPT_VERSION}: expected one core-<hash>.js, got {cores}")
    files[cores[0]] = patch_pyscript_core(files[cores[0]], patches)
    # The chunks keep PyScript's names, so the directory's name carries a hash of
    # what is in it: a browser never pairs this page with an unpatched cached chunk.
    tag = hash_tree((name, files[name].encode()) for name in chunks)[:8]
    target = dist / f"pyscript-{PYSCRIPT_VERSION}-{tag}"
    target.mkdir(parents=True)
    for name in chunks:
        (target / name).write_text(files[name], encoding="utf-8")
    return target
