"""Lint, format and strict typing of the package and the build are part of the suite."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BROWSER_IMPORT = re.compile(
    r"^\s*(import|from)\s+(js|pyscript|pyodide|pyodide_js|micropip)\b", re.MULTILINE
)
"""A browser module imported at any depth (inside a function too)."""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=ROOT)


def test_ruff_lint_is_clean():
    result = run("ruff", "check", "py", "tests", "web", "build.py", "sitebuild")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_applied():
    result = run("ruff", "format", "--check", "py", "tests", "web", "build.py", "sitebuild")
    assert result.returncode == 0, result.stdout + result.stderr


def test_package_and_build_are_strictly_typed():
    result = run("mypy")  # pyproject.toml's files: py/, sitebuild, build.py and web/
    assert result.returncode == 0, result.stdout + result.stderr


def test_strict_typing_covers_the_page_too():
    """web/ is checked like the rules (its browser modules typed as Any in typings/)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["strict"] is True
    assert {"py/optimus", "web"} <= set(config["files"])
    assert "typings" in config["mypy_path"].split(":")


def test_rules_package_has_no_browser_imports():
    offenders = [
        f"{path.relative_to(ROOT)}: {m.group(0).strip()}"
        for path in (ROOT / "py" / "optimus").rglob("*.py")
        for m in BROWSER_IMPORT.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, offenders


def test_the_browser_import_check_would_catch_one():
    assert BROWSER_IMPORT.search("import json\nfrom pyodide.ffi import x") is not None
    assert BROWSER_IMPORT.search("def f():\n    import pyodide_js\n") is not None
    assert BROWSER_IMPORT.search("async def f():\n    import micropip\n") is not None
    assert BROWSER_IMPORT.search("import json\nimport jsonschema") is None
