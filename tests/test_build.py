"""build.py without network or browser: pins are enforced, the wheel is well formed."""

from __future__ import annotations

import ast
import base64
import gzip
import hashlib
import importlib
import importlib.util
import io
import json
import re
import shutil
import sys
import traceback
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType

import pytest

from optimus.games import GAMES, listed
from sitebuild import PY_SRC, STAMP_NAME, BuildError, archives
from sitebuild.archives import SHARED_UNIT, build_wheel
from sitebuild.bytecode import precompile_stdlib, precompile_wheel, pyc_bytes, with_bytecode
from sitebuild.dist import build as build_site
from sitebuild.files import hash_tree, zip_bytes
from sitebuild.manifest import ICON_SIZES, write_app_files
from sitebuild.page import game_cards
from sitebuild.pins import PINS, PYSCRIPT_VERSION, TEST_PINS, Pin, fetch, verify_sha256
from sitebuild.pyodide import STDLIB_DROPPED, bytecode_salt, read_boot_modules, trimmed_lock
from sitebuild.pyscript import PYSCRIPT_PATCHES, patch_pyscript_core, pyscript_chunks
from sitebuild.server import start_server

ROOT = Path(__file__).resolve().parents[1]


def test_verify_sha256_accepts_the_pinned_hash(tmp_path: Path) -> None:
    payload = tmp_path / "runtime.tgz"
    payload.write_bytes(b"pinned bytes")
    verify_sha256(payload, hashlib.sha256(b"pinned bytes").hexdigest(), "runtime")


def test_verify_sha256_refuses_a_mismatch_and_says_what_to_do(tmp_path: Path) -> None:
    payload = tmp_path / "runtime.tgz"
    payload.write_bytes(b"tampered bytes")
    expected = hashlib.sha256(b"pinned bytes").hexdigest()
    with pytest.raises(BuildError) as caught:
        verify_sha256(payload, expected, "pyodide@314.0.7")
    message = str(caught.value)
    assert "sha256 mismatch for pyodide@314.0.7" in message
    assert expected in message and hashlib.sha256(b"tampered bytes").hexdigest() in message
    assert f"Delete {payload}" in message and "PINS" in message


def test_fetch_refuses_a_cached_file_with_the_wrong_hash_without_downloading(
    tmp_path: Path,
) -> None:
    pin = Pin("demo", "npm", "demo@1.0.0", "demo-1.0.0.tgz", "0" * 64)
    (tmp_path / pin.file_name).write_bytes(b"not what was pinned")
    with pytest.raises(BuildError, match="sha256 mismatch for demo@1.0.0"):
        fetch(pin, cache=tmp_path)


SHA256 = re.compile(r"[0-9a-f]{64}")


def test_every_pin_has_a_full_lowercase_sha256() -> None:
    for pin in [*PINS.values(), *TEST_PINS.values()]:
        assert SHA256.fullmatch(pin.sha256), pin
    assert len({pin.sha256 for pin in [*PINS.values(), *TEST_PINS.values()]}) == 4
    # What the check refuses: a short, long, upper-case or non-hex digest.
    for bad in ("0" * 63, "0" * 65, "A" * 64, "g" * 64, ""):
        assert not SHA256.fullmatch(bad)


def test_wheel_is_a_valid_pure_python_wheel_named_by_its_content(tmp_path: Path) -> None:
    src = tmp_path / "src" / "optimus"
    src.mkdir(parents=True)
    (src / "__init__.py").write_text("__version__ = '0.1.0'\n")
    first = build_wheel(tmp_path / "a", src=src)
    again = build_wheel(tmp_path / "b", src=src)
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
    assert build_wheel(tmp_path / "c", src=src).name != first.name
    # What its bytecode depends on besides the source changes the name too.
    salted = build_wheel(tmp_path / "d", src=src, salt=b"another Pyodide")
    assert salted.name != build_wheel(tmp_path / "e", src=src).name


def test_our_bytecode_salt_follows_the_runtime_and_whether_sources_ship(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our archives are named with it: a browser never takes bytecode made for another
    Python (or archives without sources) from its cache under an old name."""
    runtime = tmp_path / "pyodide.tgz"
    runtime.write_bytes(b"one runtime")
    salt = bytecode_salt(runtime)
    assert bytecode_salt(runtime) == salt
    monkeypatch.setattr(archives, "OUR_SOURCES_SHIPPED", not archives.OUR_SOURCES_SHIPPED)
    assert bytecode_salt(runtime) != salt
    monkeypatch.undo()
    runtime.write_bytes(b"another runtime")
    assert bytecode_salt(runtime) != salt


def test_trimmed_lock_keeps_micropip_with_the_shipped_wheels_hash() -> None:
    lock = {
        "info": {"python": "3.14.2"},
        "packages": {
            "micropip": {"name": "micropip", "depends": [], "file_name": "x.whl", "sha256": "bad"},
            "numpy": {"name": "numpy", "depends": [], "file_name": "numpy.whl", "sha256": "n"},
        },
    }
    trimmed = trimmed_lock(lock, "micropip-0.11.1-py3-none-any.whl", b"wheel bytes")
    assert list(trimmed["packages"]) == ["micropip"]
    assert trimmed["packages"]["micropip"]["sha256"] == hashlib.sha256(b"wheel bytes").hexdigest()
    assert trimmed["packages"]["micropip"]["file_name"] == "micropip-0.11.1-py3-none-any.whl"
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
    assert pyscript_chunks(files) == [
        "core-AAAAAAAA.js",
        "core.css",
        "core.js",
        "error-CCCCCCCC.js",
    ]


def test_pyscript_patch_applies_once_and_refuses_a_chunk_it_does_not_fit() -> None:
    olds = [old for old, _ in PYSCRIPT_PATCHES]
    chunk = ";".join(f"/*{i}*/{old}" for i, old in enumerate(olds))
    patched = patch_pyscript_core(chunk)
    for i, (_, new) in enumerate(PYSCRIPT_PATCHES):
        assert f"/*{i}*/{new}" in patched  # in place, the text around it kept
    assert '"import pyscript as _pyscript"' not in patched
    for missing in range(len(olds)):  # a new version where one no longer fits
        unfit = chunk.replace(olds[missing], olds[missing][:-2] + "?")
        with pytest.raises(BuildError, match="patch of PyScript no longer applies"):
            patch_pyscript_core(unfit)
    with pytest.raises(BuildError, match="patch of PyScript no longer applies"):
        patch_pyscript_core(chunk + chunk)  # ambiguous


def test_built_pyscript_core_is_patched_and_named_by_its_content(dist: Path) -> None:
    """The real dist/: the pinned PyScript took every patch (a version whose chunk they
    no longer fit stops the build), and its directory name changed with it."""
    (directory,) = dist.glob(f"pyscript-{PYSCRIPT_VERSION}-*")
    (core,) = directory.glob("core-*.js")
    text = core.read_text(encoding="utf-8")
    for old, new in PYSCRIPT_PATCHES:
        assert text.count(new) == 1 and old not in text
    chunks = [(p.name, p.read_bytes()) for p in directory.iterdir()]
    assert directory.name.endswith("-" + hash_tree(chunks)[:8])


# --------------------------------------------------------------------------- precompiled runtime
# The helpers run under Pyodide at build time; here they run under this CPython,
# whose own magic number they then use, so the results can be imported for real.

MODULE = b'''"""Module docstring."""

def greet(name):
    """Function docstring."""
    assert name, "a name is needed"
    return "hello " + name

class Box:
    """Only a docstring."""

def empty():
    """Only a docstring."""
'''


def test_pyc_strips_module_and_function_docstrings_but_keeps_asserts() -> None:
    import marshal

    data = pyc_bytes(MODULE, "/lib/demo.py")
    assert data[:4] == importlib.util.MAGIC_NUMBER and data[4:16] == bytes(12)
    namespace: dict[str, object] = {}
    exec(marshal.loads(data[16:]), namespace)
    assert namespace.get("__doc__") is None  # a docstring would set it
    greet = namespace["greet"]
    assert callable(greet) and greet.__doc__ is None and greet("ada") == "hello ada"
    assert greet.__code__.co_filename == "/lib/demo.py"
    with pytest.raises(AssertionError, match="a name is needed"):
        greet("")
    assert namespace["Box"].__doc__ == "Only a docstring."  # type: ignore[attr-defined]
    empty = namespace["empty"]
    assert callable(empty) and empty() is None and empty.__doc__ is None


def _zip(entries: dict[str, bytes]) -> bytes:
    import io

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_precompiled_stdlib_zip_imports_the_listed_modules_from_bytecode(
    tmp_path: Path,
) -> None:
    stdlib = _zip(
        {
            "demo_mod.py": MODULE,
            "demo_pkg/__init__.py": b"from .leaf import VALUE\n",
            "demo_pkg/leaf.py": b"VALUE = 42\n",
            "demo_other.py": b"X = 1\n",
        }
    )
    root = str(tmp_path / "stdlib.zip")
    out = precompile_stdlib(stdlib, ["demo_mod", "demo_pkg"], root)
    Path(root).write_bytes(out)
    with zipfile.ZipFile(root) as archive:
        assert sorted(archive.namelist()) == [
            "demo_mod.pyc",
            "demo_other.py",
            "demo_pkg/__init__.pyc",
            "demo_pkg/leaf.py",
        ]
    sys.path.insert(0, root)
    try:
        import demo_mod  # type: ignore[import-not-found]
        import demo_pkg  # type: ignore[import-not-found]

        assert demo_mod.greet("x") == "hello x" and demo_mod.__doc__ is None
        assert demo_mod.__file__.endswith("demo_mod.pyc")
        assert demo_pkg.VALUE == 42  # the package still finds its source submodule
    finally:
        sys.path.remove(root)
        for name in ("demo_mod", "demo_pkg", "demo_pkg.leaf"):
            sys.modules.pop(name, None)


def test_precompile_stdlib_refuses_an_unknown_module() -> None:
    with pytest.raises(ValueError, match="no_such_module is not a source module"):
        precompile_stdlib(_zip({"a.py": b""}), ["no_such_module"], "/lib/x.zip")


def test_precompiled_wheel_has_bytecode_only_and_a_matching_record() -> None:
    wheel = _zip(
        {
            "demo/__init__.py": MODULE,
            "demo/data.txt": b"kept",
            "demo-1.0.dist-info/METADATA": b"Name: demo\n",
            "demo-1.0.dist-info/RECORD": b"stale\n",
        }
    )
    out = precompile_wheel(wheel, "/lib/site-packages")
    with zipfile.ZipFile(io.BytesIO(out)) as archive:
        names = archive.namelist()
        assert "demo/__init__.pyc" in names and "demo/__init__.py" not in names
        assert archive.read("demo/data.txt") == b"kept"
        rows = archive.read("demo-1.0.dist-info/RECORD").decode().splitlines()
        listed = {row.split(",")[0]: row for row in rows}
        assert set(listed) == set(names)
        for name in names:
            if not name.endswith("RECORD"):
                data = archive.read(name)
                digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                assert listed[name] == f"{name},sha256={digest.decode()},{len(data)}"


def test_boot_module_list_reads_names_and_skips_comments(tmp_path: Path) -> None:
    listing = tmp_path / "boot-modules.txt"
    listing.write_text("# comment\nzipfile\n\njson  # trailing\njson\n")
    assert read_boot_modules(listing) == ["json", "zipfile"]


def test_built_runtime_ships_precompiled_modules_and_micropip(dist: Path) -> None:
    """The real dist/: listed modules are bytecode, the lock matches micropip."""
    stamp = dist / STAMP_NAME
    runtime = dist / json.loads(stamp.read_text())["pyodide"]
    with zipfile.ZipFile(runtime / "python_stdlib.zip") as archive:
        names = set(archive.namelist())
    for module in read_boot_modules():
        path = module.replace(".", "/")
        assert {f"{path}.pyc", f"{path}/__init__.pyc"} & names, module
        assert not {f"{path}.py", f"{path}/__init__.py"} & names, module
    lock = json.loads((runtime / "pyodide-lock.json").read_text())["packages"]["micropip"]
    wheel = (runtime / lock["file_name"]).read_bytes()
    assert lock["sha256"] == hashlib.sha256(wheel).hexdigest()
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        modules = [n for n in archive.namelist() if n.startswith("micropip/")]
        assert modules and all(not n.endswith(".py") for n in modules)


def test_server_gzips_text_when_accepted_and_sends_binaries_as_they_are(tmp_path: Path) -> None:
    import gzip
    import urllib.request

    script = b"export const answer = 42;\n" * 200
    (tmp_path / "index.html").write_bytes(b"<!doctype html><title>t</title>" * 50)
    (tmp_path / "app.mjs").write_bytes(script)
    (tmp_path / "runtime.wasm").write_bytes(b"\0asm" * 500)
    server = start_server(tmp_path)
    try:

        def get(path: str, accept: str | None) -> tuple[dict[str, str], bytes]:
            request = urllib.request.Request(server.url + path)
            if accept:
                request.add_header("Accept-Encoding", accept)
            with urllib.request.urlopen(request) as response:
                return dict(response.headers), response.read()

        headers, body = get("app.mjs", "gzip, deflate")
        assert headers["Content-Encoding"] == "gzip" and len(body) < len(script) / 10
        assert gzip.decompress(body) == script
        assert headers["Content-Type"] == "text/javascript"
        headers, body = get("", "gzip")  # the directory's index.html
        assert headers["Content-Encoding"] == "gzip" and b"<title>" in gzip.decompress(body)
        headers, body = get("app.mjs", None)
        assert "Content-Encoding" not in headers and body == script
        headers, body = get("runtime.wasm", "gzip")
        assert "Content-Encoding" not in headers and body == b"\0asm" * 500
    finally:
        server.close()


def test_precompiled_stdlib_leaves_out_dropped_modules_and_packages() -> None:
    stdlib = _zip(
        {
            "keep.py": b"X = 1\n",
            "pdb.py": b"",
            "unittest/__init__.py": b"",
            "unittest/mock.py": b"",
            "unittesting.py": b"",  # only the exact top-level name goes
        }
    )
    out = precompile_stdlib(stdlib, ["keep"], "/lib/x.zip", ["pdb", "unittest"])
    with zipfile.ZipFile(io.BytesIO(out)) as archive:
        assert sorted(archive.namelist()) == ["keep.pyc", "unittesting.py"]
    with pytest.raises(ValueError, match="unittest.mock is imported at boot"):
        precompile_stdlib(stdlib, ["unittest.mock"], "/lib/x.zip", ["unittest"])


def test_dropped_stdlib_modules_are_not_in_the_boot_list() -> None:
    boot = {name.split(".")[0] for name in read_boot_modules()}
    assert not boot & set(STDLIB_DROPPED)


def _imported_top_levels(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_code_that_runs_in_the_browser_imports_a_dropped_stdlib_module() -> None:
    """build.py leaves some standard-library modules out of the site's runtime."""
    dropped = set(STDLIB_DROPPED)
    sources = [*(ROOT / "py" / "optimus").rglob("*.py"), *(ROOT / "web").glob("*.py")]
    found = {str(p.relative_to(ROOT)): _imported_top_levels(p.read_text()) for p in sources}
    assert not {path: names & dropped for path, names in found.items() if names & dropped}
    assert _imported_top_levels("import unittest.mock\nfrom pdb import set_trace") & dropped == {
        "unittest",
        "pdb",
    }


def _png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and RGBA rows of a PNG in one IDAT chunk, every row of filter 0
    (as the committed icons were written)."""
    import struct
    import zlib

    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert data[24:29] == bytes((8, 6, 0, 0, 0))  # 8-bit RGBA
    at = data.index(b"IDAT")
    length = int.from_bytes(data[at - 4 : at], "big")
    raw = zlib.decompress(data[at + 4 : at + 4 + length])
    stride = 1 + 4 * width
    rows = [raw[i * stride : (i + 1) * stride] for i in range(height)]
    assert all(row[0] == 0 for row in rows)
    return width, height, [row[1:] for row in rows]


def test_committed_icons_are_the_favicon_at_each_size() -> None:
    """web/icon-<size>.png: the favicon drawn once as PNG (the manifest's icons)."""
    for size in ICON_SIZES:
        width, height, rows = _png_pixels((ROOT / "web" / f"icon-{size}.png").read_bytes())
        assert (width, height) == (size, size)

        def pixel(x: float, y: float, rows: list[bytes] = rows, size: int = size) -> bytes:
            px, py = int(x / 64 * size), int(y / 64 * size)  # favicon.svg's viewBox is 64 wide
            return rows[py][4 * px : 4 * px + 4]

        assert pixel(0.5, 0.5) == b"\0\0\0\0"  # outside the rounded square: transparent
        assert pixel(5, 5)[3] == 0  # the rounded corner is cut off
        assert pixel(10, 32) == bytes.fromhex("1f5f5bff")  # the square
        assert pixel(32, 32) == bytes.fromhex("fdf6e3ff")  # the middle dot
        assert pixel(4, 32)[3] > 0  # the square's left edge


def test_app_files_make_an_installable_manifest_with_relative_urls(tmp_path: Path) -> None:
    files = write_app_files(tmp_path, "A description.")
    manifest = json.loads(files["manifest"].read_text())
    assert manifest["start_url"] == manifest["scope"] == manifest["id"] == "./"
    assert manifest["display"] == "standalone" and manifest["description"] == "A description."
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    for icon in manifest["icons"]:
        assert icon["src"].startswith("./") and (tmp_path / icon["src"][2:]).is_file()
    sizes = sorted(icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png")
    assert sizes == ["192x192", "512x512"]
    for size in ICON_SIZES:  # the committed PNGs, as they are
        assert (
            files[f"icon-{size}"].read_bytes() == (ROOT / "web" / f"icon-{size}.png").read_bytes()
        )
    # Content-hashed names: a changed icon is a new file, never a stale cached one.
    assert all(
        path.name.count("-") >= 1 and len(path.stem.rsplit("-", 1)[1]) == 8
        for path in files.values()
    )


def test_service_worker_lists_every_file_of_the_build_but_its_own(tmp_path: Path) -> None:
    dist = build_site(tmp_path / "dist", quiet=True)
    worker = (dist / "sw.js").read_text()
    first, second = worker.splitlines()[:2]
    build_id = json.loads((dist / STAMP_NAME).read_text())["build"]
    assert first == f"const BUILD = {json.dumps(build_id)};"
    files = json.loads(second.removeprefix("const FILES = ").removesuffix(";"))
    shipped = {
        "./" + path.relative_to(dist).as_posix()
        for path in dist.rglob("*")
        if path.is_file()
        and not path.relative_to(dist).as_posix().startswith(("bench/", "."))
        and path.name not in ("sw.js", "index.html")
    }
    assert files[0] == "./" and set(files[1:]) == shipped
    assert any(name.endswith(".whl") for name in files) and any(".webmanifest" in f for f in files)
    page = (dist / "index.html").read_text()
    assert f'<meta name="optimus-build" content="{build_id}">' in page  # checked by the worker
    # The id covers the page and the files: another wheel, another build.
    changed = tmp_path / "src" / "optimus"
    shutil.copytree(PY_SRC, changed, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    init = changed / "__init__.py"
    init.write_text(init.read_text() + "\n__version__ = '0.1.0+other'\n")
    other = build_site(tmp_path / "other", quiet=True, py_src=changed)
    assert json.loads((other / STAMP_NAME).read_text())["build"] != build_id


def test_with_bytecode_ships_checked_pycs_that_zipimport_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page imports our archives as they are (on sys.path): zipimport must take
    the shipped bytecode, made from the source beside it."""
    import zipimport

    source = b'"""Doc."""\nVALUE = 6 * 7\n\ndef where():\n    return where.__code__.co_filename\n'
    entries = [
        ("shipped_pkg/__init__.py", b""),
        ("shipped_pkg/answer.py", source),
        ("shipped_pkg-1.0.dist-info/METADATA", b"Name: shipped-pkg\n"),
        ("shipped_pkg-1.0.dist-info/RECORD", b""),
    ]
    good = tmp_path / "shipped-1.0-py3-none-any.whl"
    good.write_bytes(with_bytecode(zip_bytes(entries), str(good)))
    with zipfile.ZipFile(good) as archive:
        names = archive.namelist()
        record = archive.read("shipped_pkg-1.0.dist-info/RECORD").decode()
    assert "shipped_pkg/answer.pyc" in names and "shipped_pkg/__init__.pyc" in names
    assert "shipped_pkg/answer.py" in names  # the source stays, for tracebacks
    assert not any("dist-info/" in name and name.endswith(".pyc") for name in names)
    assert "shipped_pkg/answer.pyc,sha256=" in record

    def no_compiling(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled from source instead of using the shipped bytecode")

    def fresh_import(archive: Path) -> ModuleType:
        for name in ("shipped_pkg.answer", "shipped_pkg"):
            sys.modules.pop(name, None)
        monkeypatch.syspath_prepend(str(archive))
        try:
            return importlib.import_module("shipped_pkg.answer")
        finally:
            sys.path.remove(str(archive))
            for name in ("shipped_pkg.answer", "shipped_pkg"):
                sys.modules.pop(name, None)

    with monkeypatch.context() as patched:
        patched.setattr(zipimport, "_compile_source", no_compiling)
        answer = fresh_import(good)
    assert answer.VALUE == 42 and answer.__doc__ == "Doc."
    assert answer.__file__ == f"{good}/shipped_pkg/answer.pyc"  # what the page checks
    assert answer.where() == f"{good}/shipped_pkg/answer.py"  # tracebacks name the archive
    with zipfile.ZipFile(good) as archive:
        assert_bytecode_matches_its_source(archive, "shipped_pkg/answer.py")
    # The one way to run stale bytecode is to edit an archive by hand: that check
    # finds it.
    with pytest.raises(AssertionError, match="not compiled from"):
        assert_bytecode_matches_its_source(
            zipfile.ZipFile(io.BytesIO(stale_copy(good))), "shipped_pkg/answer.py"
        )


def test_with_bytecode_without_sources_ships_the_bytecode_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our archives ship without sources (``OUR_SOURCES_SHIPPED``): zipimport takes
    the bytecode alone, and a traceback names the module's file and line."""
    source = b'"""Doc."""\n\n\ndef fail():\n    raise ValueError("here")\n'
    entries = [("sourceless_pkg/__init__.py", b""), ("sourceless_pkg/boom.py", source)]
    archive = tmp_path / "sourceless.zip"
    archive.write_bytes(with_bytecode(zip_bytes(entries), str(archive), False))
    with zipfile.ZipFile(archive) as opened:
        assert sorted(opened.namelist()) == [
            "sourceless_pkg/__init__.pyc",
            "sourceless_pkg/boom.pyc",
        ]
        assert_bytecode_matches_its_source(opened, "sourceless_pkg/boom.py", source)
    monkeypatch.syspath_prepend(str(archive))
    try:
        boom = importlib.import_module("sourceless_pkg.boom")
        assert boom.__doc__ == "Doc." and boom.__file__ == f"{archive}/sourceless_pkg/boom.pyc"
        with pytest.raises(ValueError) as caught:
            boom.fail()
        frame = traceback.extract_tb(caught.value.__traceback__)[-1]
        assert (frame.filename, frame.lineno) == (f"{archive}/sourceless_pkg/boom.py", 5)
    finally:
        for name in ("sourceless_pkg.boom", "sourceless_pkg"):
            sys.modules.pop(name, None)


def stale_copy(archive_path: Path) -> bytes:
    with zipfile.ZipFile(archive_path) as archive:
        return zip_bytes(
            [
                (n, b"VALUE = 1\n" if n == "shipped_pkg/answer.py" else archive.read(n))
                for n in archive.namelist()
            ]
        )


def assert_bytecode_matches_its_source(
    archive: zipfile.ZipFile, module: str, source: bytes | None = None
) -> None:
    """``module``'s .pyc in ``archive`` is unchecked hash-based (PEP 552) and records
    the hash of ``source`` (by default the source beside it; keyed by the .pyc's own
    magic number, so this checks bytecode for another Python too)."""
    import _imp

    header = archive.read(module + "c")[:16]
    assert int.from_bytes(header[4:8], "little") == 0b01, module  # hash-based, unchecked
    key = int.from_bytes(header[:4], "little")
    expected = _imp.source_hash(key, archive.read(module) if source is None else source)
    assert header[8:16] == expected, f"{module}c was not compiled from {module}"


def repository_source(member: str) -> bytes:
    """The source in this repository of an archive's ``optimus/...`` or
    ``optimus_web/...`` module."""
    package, _, rest = member.partition("/")
    folder = {"optimus": ROOT / "py" / "optimus", "optimus_web": ROOT / "web"}[package]
    return (folder / rest).read_bytes()


def built_archives(dist: Path) -> dict[str, bytes]:
    """Our archives in ``dist`` by name (the boot's wheel and web zip, and the zips
    fetched after the boot, unzipped: web/lazy.py)."""
    stamp = json.loads((dist / STAMP_NAME).read_text())
    found = {stamp["wheel"]: (dist / "wheels" / stamp["wheel"]).read_bytes()}
    found[stamp["web"]] = (dist / "app" / stamp["web"]).read_bytes()
    for served in stamp["units"].values():
        found[served] = gzip.decompress((dist / served).read_bytes())
    return found


def test_built_site_ships_our_modules_with_checked_bytecode(dist: Path) -> None:
    """The real dist/: each module of our archives is there as a .pyc for the browser's
    Python (where zipimport looks), made from its source in the repository; the source
    itself ships only if ``OUR_SOURCES_SHIPPED``.  Every described game has an archive."""
    shipped = built_archives(dist)
    assert len(shipped) == 2 + 1 + len(GAMES)
    units = json.loads((dist / STAMP_NAME).read_text())["units"]
    assert set(units) == {*GAMES, SHARED_UNIT}
    for data in shipped.values():
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
            modules = [n[:-1] for n in names if n.endswith(".pyc")]
            assert modules, archive.namelist()
            for module in modules:
                assert (module in names) == archives.OUR_SOURCES_SHIPPED, module
                assert_bytecode_matches_its_source(archive, module, repository_source(module))
            assert not [n for n in names if n.endswith(".py") and n + "c" not in names]


OFFLINE_ONLY = re.compile(r"train|tune|strength|bench|projection")


def test_the_offline_only_pattern_finds_what_it_names() -> None:
    assert OFFLINE_ONLY.search("optimus/optimus2/tune.pyc")
    assert not OFFLINE_ONLY.search("optimus/optimus2/bots.pyc")


def test_built_archives_hold_no_training_tuning_strength_or_bench_module(dist: Path) -> None:
    """Code the page never runs (training, tuning, strength runs, benches) is not shipped."""
    found = [
        f"{name}: {member}"
        for name, data in built_archives(dist).items()
        for member in zipfile.ZipFile(io.BytesIO(data)).namelist()
        if ".dist-info/" not in member and OFFLINE_ONLY.search(member)
    ]
    assert not found


def test_landing_cards_are_drawn_from_the_listed_game_descriptions() -> None:
    template = (ROOT / "index.html").read_text(encoding="utf-8")
    assert template.count("{{GAME_CARDS}}") == 1 and "game-card" not in template
    cards = game_cards(listed())
    for info in GAMES.values():
        link = f'<a class="game-card" href="#/{info.id}" data-game="{info.id}">'
        assert (link in cards) == info.listed, info.id
    assert cards.count('class="game-card"') == len(listed()) < len(GAMES)  # tiny is unlisted
    fileiras = cards[cards.index('data-game="fileiras"') :]
    assert (
        fileiras.index('<span class="game-art art-fileiras" aria-hidden="true">')
        < fileiras.index("<h2>Fileiras</h2>")
        < fileiras.index("<p data-i18n>Row-taking card game with colour sets.</p>")
    )
    # The card's words are marked for the page's script, which translates them.
    assert '<span class="players" data-i18n>2-5 players</span>' in fileiras.split("</li>")[0]


# ----------------------------------------------------------------- Content-Security-Policy


class _PageParts(HTMLParser):
    """The parts of a page that a Content-Security-Policy judges."""

    def __init__(self) -> None:
        super().__init__()
        self.handlers: list[str] = []  # on*= attributes
        self.inline_scripts: list[str] = []  # types of <script> elements without src
        self.styles: list[str] = []  # <style> contents
        self.style_attributes: list[str] = []
        self.policies: list[str] = []
        self.scripts: list[str] = []  # src of <script> elements
        self._in: tuple[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        self.handlers += [f"<{tag} {name}>" for name, _ in attrs if name.startswith("on")]
        if "style" in named:
            self.style_attributes.append(tag)
        if tag == "meta" and (named.get("http-equiv") or "").lower() == "content-security-policy":
            self.policies.append(named.get("content") or "")
        if tag == "script":
            if named.get("src"):
                self.scripts.append(str(named["src"]))
            else:
                self.inline_scripts.append(named.get("type") or "text/javascript")
        if tag == "style":
            self._in = ("style", "")

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            self._in = (self._in[0], self._in[1] + data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "style" and self._in is not None:
            self.styles.append(self._in[1])
            self._in = None


def _policy(text: str) -> dict[str, list[str]]:
    directives = (part.split() for part in text.split(";") if part.strip())
    return {words[0]: words[1:] for words in directives}


def test_the_page_has_a_strict_policy_and_nothing_inline_that_it_would_refuse(
    dist: Path,
) -> None:
    """The built page: a Content-Security-Policy (``default-src 'self'``) in a <meta>,
    no inline event handler, no inline script that a browser would run (data only:
    the landing page's JSON, the Python script), and each inline <style> allowed by
    its hash.  The browser tests fail on any violation (tests/e2e/conftest.py)."""
    page = _PageParts()
    page.feed((dist / "index.html").read_text(encoding="utf-8"))
    assert page.handlers == []
    assert page.style_attributes == []
    (text,) = page.policies
    policy = _policy(text)
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"][0] == "'self'" and "'wasm-unsafe-eval'" in policy["script-src"]
    assert "'unsafe-inline'" not in text and "*" not in text and "http" not in text
    assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    assert set(page.inline_scripts) == {"application/json", "py"}
    for style in page.styles:
        digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy["style-src"]
    # The page's own scripts are files of the build, named by their content.
    for name in ("head", "page"):
        (built,) = [src for src in page.scripts if src.startswith(f"./{name}-")]
        data = (dist / built).read_bytes()
        assert data == (ROOT / "web" / f"{name}.js").read_bytes()
        assert built == f"./{name}-{hashlib.sha256(data).hexdigest()[:8]}.js"


def test_the_policy_allows_unsafe_eval_only_while_pyscript_needs_it(dist: Path) -> None:
    """PyScript 0.7.31 builds its worker hooks with ``Function(...)`` for every script,
    worker or not (measured: without 'unsafe-eval' the boot stops with an EvalError).
    When a new PyScript no longer does, this fails: drop 'unsafe-eval' from
    sitebuild/page.py and docs/embed.md."""
    (directory,) = dist.glob(f"pyscript-{PYSCRIPT_VERSION}-*")
    (core,) = directory.glob("core-*.js")
    assert "return Function(`return(w,x)=>(" in core.read_text(encoding="utf-8")
    page = _PageParts()
    page.feed((dist / "index.html").read_text(encoding="utf-8"))
    assert "'unsafe-eval'" in _policy(page.policies[0])["script-src"]
