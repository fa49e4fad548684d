"""build.py without network or browser: pins are enforced, the wheel is well formed."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _build_module() -> ModuleType:
    if "optimus_build" in sys.modules:  # already loaded by tests/e2e/conftest.py
        return sys.modules["optimus_build"]
    spec = importlib.util.spec_from_file_location("optimus_build", ROOT / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


build = _build_module()


def test_verify_sha256_accepts_the_pinned_hash(tmp_path: Path) -> None:
    payload = tmp_path / "runtime.tgz"
    payload.write_bytes(b"pinned bytes")
    build.verify_sha256(payload, hashlib.sha256(b"pinned bytes").hexdigest(), "runtime")


def test_verify_sha256_refuses_a_mismatch_and_says_what_to_do(tmp_path: Path) -> None:
    payload = tmp_path / "runtime.tgz"
    payload.write_bytes(b"tampered bytes")
    expected = hashlib.sha256(b"pinned bytes").hexdigest()
    with pytest.raises(build.BuildError) as caught:
        build.verify_sha256(payload, expected, "pyodide@314.0.7")
    message = str(caught.value)
    assert "sha256 mismatch for pyodide@314.0.7" in message
    assert expected in message and hashlib.sha256(b"tampered bytes").hexdigest() in message
    assert f"Delete {payload}" in message and "PINS" in message


def test_fetch_refuses_a_cached_file_with_the_wrong_hash_without_downloading(
    tmp_path: Path,
) -> None:
    pin = build.Pin("demo", "npm", "demo@1.0.0", "demo-1.0.0.tgz", "0" * 64)
    (tmp_path / pin.file_name).write_bytes(b"not what was pinned")
    with pytest.raises(build.BuildError, match="sha256 mismatch for demo@1.0.0"):
        build.fetch(pin, cache=tmp_path)


def test_every_pin_has_a_full_sha256() -> None:
    for pin in build.PINS.values():
        assert len(pin.sha256) == 64 and int(pin.sha256, 16) >= 0, pin


def test_wheel_is_a_valid_pure_python_wheel_named_by_its_content(tmp_path: Path) -> None:
    src = tmp_path / "src" / "optimus"
    src.mkdir(parents=True)
    (src / "__init__.py").write_text("__version__ = '0.1.0'\n")
    first = build.build_wheel(tmp_path / "a", src=src)
    again = build.build_wheel(tmp_path / "b", src=src)
    assert first.name == again.name and first.read_bytes() == again.read_bytes()  # reproducible
    assert first.name.startswith("optimus_table-0.1.0+") and first.name.endswith(
        "-py3-none-any.whl"
    )

    with zipfile.ZipFile(first) as wheel:
        names = wheel.namelist()
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/WHEEL"))
        record = wheel.read(f"{info}/RECORD").decode().splitlines()
        assert "Root-Is-Purelib: true" in wheel.read(f"{info}/WHEEL").decode()
        assert "Name: optimus-table" in wheel.read(f"{info}/METADATA").decode()
        for line in record:
            name, digest, size = line.rsplit(",", 2)
            if name.endswith("RECORD"):
                continue
            data = wheel.read(name)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert digest == f"sha256={expected}" and int(size) == len(data)
        assert {line.split(",")[0] for line in record} == set(names)

    (src / "__init__.py").write_text("__version__ = '0.1.0'  # changed\n")
    assert build.build_wheel(tmp_path / "c", src=src).name != first.name


def test_trimmed_lock_keeps_micropip_with_the_shipped_wheels_hash(tmp_path: Path) -> None:
    wheel = tmp_path / "micropip-0.11.1-py3-none-any.whl"
    wheel.write_bytes(b"wheel bytes")
    lock = {
        "info": {"python": "3.14.2"},
        "packages": {
            "micropip": {"name": "micropip", "depends": [], "file_name": "x.whl", "sha256": "bad"},
            "numpy": {"name": "numpy", "depends": [], "file_name": "numpy.whl", "sha256": "n"},
        },
    }
    trimmed = build.trimmed_lock(lock, wheel)
    assert list(trimmed["packages"]) == ["micropip"]
    assert trimmed["packages"]["micropip"]["sha256"] == hashlib.sha256(b"wheel bytes").hexdigest()
    assert trimmed["packages"]["micropip"]["file_name"] == wheel.name
    assert trimmed["info"] == lock["info"]
    json.dumps(trimmed)


def test_pyscript_chunks_follow_static_imports_only() -> None:
    files = {
        "core.js": 'export{a}from"./core-AAAAAAAA.js";',
        "core-AAAAAAAA.js": 'p={e:()=>import("./editor-BBBBBBBB.js"),'
        'r:()=>import("./error-CCCCCCCC.js")}',
        "error-CCCCCCCC.js": 'import{e}from"./core-AAAAAAAA.js";',
        "editor-BBBBBBBB.js": 'import"./big-DDDDDDDD.js";',
        "big-DDDDDDDD.js": "",
        "core.css": "",
    }
    assert build.pyscript_chunks(files) == [
        "core-AAAAAAAA.js",
        "core.css",
        "core.js",
        "error-CCCCCCCC.js",
    ]
