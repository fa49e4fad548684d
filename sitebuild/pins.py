"""The pinned runtime: what the build downloads, from where, with which sha256.

Each file is fetched once with the registry's own client (``npm pack``, ``pip
download``) into ``.cache/downloads/`` and checked against its pin on every
build, so a rebuild needs no network.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from sitebuild import ROOT, BuildError

CACHE = ROOT / ".cache" / "downloads"
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
        return tar_member(archive, "axe.min.js").decode("utf-8")


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


def require_tool(argv0: str, hint: str) -> None:
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
            require_tool(
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


def tar_member(archive: tarfile.TarFile, name: str) -> bytes:
    member = archive.extractfile(f"package/{name}")
    if member is None:
        raise BuildError(f"{name} is missing from {archive.name!r}")
    return member.read()
