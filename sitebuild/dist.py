"""Build the whole site into ``dist/`` from the other modules' parts."""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
import time
from collections.abc import Sequence
from pathlib import Path

from sitebuild import DIST, INDEX_TEMPLATE, PY_SRC, ROOT, STAMP_NAME, WEB_SRC
from sitebuild.archives import (
    SHARED_UNIT,
    build_web_zip,
    build_wheel,
    gzipped_stored_zip,
    split_archives,
    unit_config,
)
from sitebuild.files import hash_tree, package_files, zip_bytes
from sitebuild.i18n import landing
from sitebuild.manifest import page_description, write_app_files
from sitebuild.page import (
    BARE_PAGE,
    bundle_css,
    offline_files,
    render_index,
    service_worker,
    write_page_scripts,
)
from sitebuild.pins import PINS, fetch
from sitebuild.pyodide import (
    bytecode_salt,
    install_pyodide,
    read_boot_modules,
    with_bytecode_in_pyodide,
)
from sitebuild.pyscript import PYSCRIPT_PATCHES, install_pyscript


def inputs_digest() -> str:
    """A hash of everything the build reads; dist/ is stale when it differs."""
    files: list[tuple[str, bytes]] = [
        ("build.py", (ROOT / "build.py").read_bytes()),
        ("index.html", INDEX_TEMPLATE.read_bytes()),
        ("pyproject.toml", (ROOT / "pyproject.toml").read_bytes()),
    ]
    files += package_files(Path(__file__).parent, "sitebuild")
    files += package_files(PY_SRC, "py")
    files += package_files(WEB_SRC, "web")
    return hash_tree(files)


def build(
    dist: Path = DIST,
    *,
    quiet: bool = False,
    py_src: Path = PY_SRC,
    pyscript_patches: Sequence[tuple[str, str]] = PYSCRIPT_PATCHES,
) -> Path:
    """Build the whole site into ``dist`` (replacing it); return ``dist``.

    ``py_src`` is the rules package to ship (the tests build a changed copy);
    ``pyscript_patches``, the changes to PyScript (the bench builds a variant without).
    """
    started = time.perf_counter()
    sources = {name: fetch(pin) for name, pin in PINS.items()}
    staging = dist.with_name(dist.name + ".tmp")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)

    pyodide_dir = install_pyodide(
        sources["pyodide"], sources["micropip"], staging, read_boot_modules()
    )
    pyscript_dir = install_pyscript(sources["pyscript"], staging, pyscript_patches)
    salt = bytecode_salt(sources["pyodide"])
    wheel = build_wheel(staging / "wheels", py_src, salt)
    full_web_zip = build_web_zip(staging / "app")
    # The boot's part of our code stays in the wheel and the web zip; the rest goes
    # in an archive per game and one they share, fetched after the boot (docs/boot.md).
    split = split_archives(wheel.read_bytes(), full_web_zip.read_bytes())
    full_web_zip.unlink()

    def named(stem: str, data: bytes) -> str:  # by the content it will have
        return f"{stem}-{hashlib.sha256(data + salt).hexdigest()[:8]}.zip"

    web_data = zip_bytes(split.pop("web"))
    web_zip = staging / "app" / named("web", web_data)
    archives = {wheel.name: zip_bytes(split.pop("wheel")), web_zip.name: web_data}
    unit_files: dict[str, str] = {}
    for unit, entries in split.items():
        data = zip_bytes(entries)
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
    # The bot worker's script (players' bots run there: docs/bots.md), named by its
    # content; the page finds it in the shared unit's entry.
    worker_js = (WEB_SRC / "botworker.js").read_bytes()
    worker = f"app/botworker-{hashlib.sha256(worker_js).hexdigest()[:8]}.js"
    (staging / worker).write_bytes(worker_js)
    units[SHARED_UNIT]["worker"] = f"./{worker}"

    template = INDEX_TEMPLATE.read_text(encoding="utf-8")
    description = page_description(template)
    in_languages = {
        lang: words[description]
        for lang, words in landing(template).items()
        if description in words
    }
    app_files = write_app_files(staging, description, translated=in_languages)
    app_files |= write_page_scripts(staging)
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
    build_id = hash_tree(
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
