"""``python build.py test``: the test tools, Debian's Chromium, then pytest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from sitebuild import ROOT, BuildError
from sitebuild.archives import read_project
from sitebuild.dist import build

CHROMIUM = os.environ.get("OPTIMUS_CHROMIUM", "/usr/bin/chromium")


def pip_install(requirements: Sequence[str]) -> None:
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


PARALLEL = ["--numprocesses", "2", "--dist", "loadgroup"]
"""pytest-xdist: two workers; each file of browser tests is a group run whole by one
worker, the largest first (tests/e2e/conftest.py), the quick tests in between."""


def run_tests(pytest_args: Sequence[str]) -> int:
    """Install test tools, build, run pytest (testpaths from pyproject) and return its code.

    pytest runs in two processes (``PARALLEL``) and lists the 15 slowest tests at the
    end (``--durations=15``); the arguments given after them win (``-n 0``: one process).
    """
    requirements = read_project().get("optional-dependencies", {}).get("test", [])
    pip_install(requirements)
    ensure_chromium()
    build()
    env = {**os.environ, "OPTIMUS_CHROMIUM": CHROMIUM}
    return subprocess.run(
        [sys.executable, "-m", "pytest", *PARALLEL, "--durations=15", *pytest_args],
        cwd=ROOT,
        env=env,
        check=False,
    ).returncode


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
