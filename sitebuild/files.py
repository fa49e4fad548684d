"""Deterministic zips, content hashes and files named by their content.

``record_hash``, ``zip_bytes`` and ``with_record`` also run inside Pyodide
(``sitebuild.pyodide`` sends their source there): they use the standard
library only, and no name of this package.
"""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path


def hash_tree(paths: Iterable[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()
    for name, data in sorted(paths):
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def package_files(src: Path, prefix: str) -> list[tuple[str, bytes]]:
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


def zip_bytes(entries: Sequence[tuple[str, bytes]], stored: bool = False) -> bytes:
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


def record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def zip_entries(archive: bytes) -> list[tuple[str, bytes]]:
    source = zipfile.ZipFile(io.BytesIO(archive))
    return [(name, source.read(name)) for name in source.namelist()]


def zip_members(archive: bytes) -> tuple[list[tuple[str, bytes]], str | None]:
    """The members of a zip or wheel but its RECORD, and the RECORD's name (None if none)."""
    source = zipfile.ZipFile(io.BytesIO(archive))
    record = next((n for n in source.namelist() if n.endswith(".dist-info/RECORD")), None)
    return [(name, source.read(name)) for name in source.namelist() if name != record], record


def with_record(entries: list[tuple[str, bytes]], record: str | None) -> list[tuple[str, bytes]]:
    """``entries`` plus a wheel RECORD named ``record`` that lists them (none if None)."""
    if record is None:
        return entries
    rows = [f"{name},{record_hash(data)},{len(data)}" for name, data in entries]
    rows.append(f"{record},,")
    return [*entries, (record, ("\n".join(rows) + "\n").encode())]


def hashed(directory: Path, stem: str, suffix: str, data: bytes) -> Path:
    """Write ``data`` to ``directory/<stem>-<hash><suffix>`` and return that path."""
    path = directory / f"{stem}-{hashlib.sha256(data).hexdigest()[:8]}{suffix}"
    path.write_bytes(data)
    return path


def rel(path: Path, dist: Path) -> str:
    return "./" + path.relative_to(dist).as_posix()
