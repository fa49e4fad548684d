"""The Pyodide runtime the page loads, and running Pyodide under Node at build time.

Pyodide's npm package ships the standard library as source, so every cold
load would compile each module it imports.  The build compiles the modules the
boot imports (web/boot-modules.txt), micropip, and our own archives ahead of
time with the very Python that runs in the browser (Pyodide itself, under
Node; ``sitebuild.bytecode``), cached in ``.cache/precompiled/``.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import shutil
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sitebuild import ROOT, WEB_SRC, BuildError
from sitebuild import archives as ours
from sitebuild.bytecode import (
    precompile_stdlib,
    precompile_wheel,
    pyc_bytes,
    strip_docstrings,
    with_bytecode,
)
from sitebuild.files import hash_tree, record_hash, with_record, zip_bytes, zip_members
from sitebuild.pins import MICROPIP_VERSION, PYODIDE_VERSION, require_tool, sha256_file, tar_member

BOOT_MODULES = WEB_SRC / "boot-modules.txt"
PRECOMPILED = ROOT / ".cache" / "precompiled"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


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
        blobs = {name: tar_member(archive, name) for name in PYODIDE_FILES}
    stdlib, micropip = precompiled_runtime(pyodide_tgz, micropip_wheel, boot_modules)
    blobs["python_stdlib.zip"] = stdlib
    blobs[micropip_wheel.name] = micropip
    lock = trimmed_lock(json.loads(blobs["pyodide-lock.json"]), micropip_wheel.name, micropip)
    blobs["pyodide-lock.json"] = json.dumps(lock, separators=(",", ":"), sort_keys=True).encode()
    tag = hash_tree(blobs.items())[:8]
    target = dist / f"pyodide-{PYODIDE_VERSION}-{tag}"
    target.mkdir(parents=True)
    for name, data in blobs.items():
        (target / name).write_bytes(data)
    return target


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
    record_hash,
    zip_bytes,
    zip_members,
    strip_docstrings,
    pyc_bytes,
    precompile_stdlib,
    with_record,
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

_OUR_HELPERS = (record_hash, zip_bytes, zip_members, with_record, with_bytecode)


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
        stdlib = tar_member(archive, "python_stdlib.zip")
    inputs = {"/tmp/stdlib.zip": stdlib, "/tmp/micropip.whl": micropip_wheel.read_bytes()}
    out = _pyodide_job(pyodide_tgz, key, code, inputs, ("python_stdlib.zip", "micropip.whl"))
    return out["python_stdlib.zip"], out["micropip.whl"]


def bytecode_salt(pyodide_tgz: Path) -> bytes:
    """What the bytecode in our archives depends on besides their sources: the
    runtime, the compiling code, ``OUR_SOURCES_SHIPPED``.  Mixed into the archives'
    names, so that a browser never takes bytecode for another Python from its cache
    (without the source beside it, that module could not be imported)."""
    helpers = "\n\n".join(inspect.getsource(f) for f in _OUR_HELPERS)
    parts = [
        sha256_file(pyodide_tgz),
        _OUR_JOB,
        helpers,
        _NODE_RUNNER,
        str(ours.OUR_SOURCES_SHIPPED),
    ]
    return "\0".join(parts).encode()


def with_bytecode_in_pyodide(pyodide_tgz: Path, archives: dict[str, bytes]) -> dict[str, bytes]:
    """``with_bytecode`` of each archive ({file name: bytes}; the page puts it on
    ``sys.path`` as ``ARCHIVES/<file name>``), run by the pinned Pyodide under Node
    (so the bytecode is that of the browser's Python); cached like
    ``precompiled_runtime``."""
    helpers = "\n\n".join(inspect.getsource(f) for f in _OUR_HELPERS)
    code = _OUR_JOB.format(
        helpers=helpers,
        names=sorted(archives),
        root=ours.ARCHIVES,
        sources=ours.OUR_SOURCES_SHIPPED,
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
    require_tool("node", "Node.js 18 or later (https://nodejs.org) runs Pyodide to precompile")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        runtime = work / "pyodide"
        runtime.mkdir()
        with tarfile.open(pyodide_tgz) as archive:
            for name in PYODIDE_FILES:
                (runtime / name).write_bytes(tar_member(archive, name))
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
