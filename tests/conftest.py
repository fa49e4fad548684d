"""Fixtures shared by the build's tests and the browser tests."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from optimus import i18n
from sitebuild import DIST, ROOT, BuildError
from sitebuild.dist import build, dist_is_fresh


@pytest.fixture(scope="session")
def dist() -> Path:
    """dist/, built now if missing or older than its sources (a build error fails with
    its message): no test is skipped, or reads a stale build, for want of one.  Quick
    once ``.cache/`` holds the runtime.  The parallel workers of one run build it once:
    the first to come holds a lock, the others find it fresh."""
    if dist_is_fresh():
        return DIST
    with _locked(ROOT / ".cache" / "dist.lock"):
        if not dist_is_fresh():
            try:
                build(quiet=True)
            except BuildError as exc:
                pytest.fail(f"could not build dist/: {exc}", pytrace=False)
    return DIST


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (made if missing) while the block runs; where
    the system has no ``fcntl`` (Windows), no lock: one process at a time is assumed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        try:
            import fcntl
        except ImportError:
            yield
            return
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture
def speak() -> Iterator[Callable[[str], None]]:
    """``speak(lang)``: the rules and views speak ``lang`` (its translations read from
    the .po files), until the test ends; then English again."""
    from sitebuild.i18n import install

    def use(lang: str) -> None:
        install(lang)
        i18n.use(lang)

    try:
        yield use
    finally:
        i18n.use("en")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests run last, whatever order they were named in (in a parallel run,
    the workers take them first, a file at a time: tests/e2e/conftest.py).

    Playwright's sync API keeps an asyncio loop running in the test thread while it
    is started, and ``asyncio.run()`` refuses to start under a running loop: the
    browser tests stop it after the last of them (tests/e2e/conftest.py), so a test or
    doctest that runs a coroutine (the bot worker's messages) may come after them.
    """
    items.sort(key=lambda item: Path(item.path).parent.name == "e2e")
