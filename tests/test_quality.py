"""Lint, format and strict typing of the package are part of the suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=ROOT)


def test_ruff_lint_is_clean():
    result = run("ruff", "check", "py", "tests", "web", "build.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_applied():
    result = run("ruff", "format", "--check", "py", "tests", "web", "build.py")
    assert result.returncode == 0, result.stdout + result.stderr


def test_package_is_strictly_typed():
    result = run("mypy", "py/optimus")
    assert result.returncode == 0, result.stdout + result.stderr


def test_rules_package_has_no_browser_imports():
    offenders = []
    for path in (ROOT / "py" / "optimus").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for word in ("import js", "from js ", "import pyscript", "from pyscript", "pyodide"):
            if word in text:
                offenders.append(f"{path.relative_to(ROOT)}: {word}")
    assert not offenders, offenders
