"""Fixtures shared by the build's tests and the browser tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from optimus import i18n
from sitebuild import DIST, BuildError
from sitebuild.dist import build, dist_is_fresh


@pytest.fixture(scope="session")
def dist() -> Path:
    """dist/, built now if missing or older than its sources (a build error fails with
    its message): no test is skipped, or reads a stale build, for want of one.  Quick
    once ``.cache/`` holds the runtime."""
    if not dist_is_fresh():
        try:
            build(quiet=True)
        except BuildError as exc:
            pytest.fail(f"could not build dist/: {exc}", pytrace=False)
    return DIST


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
    """Browser tests run last, whatever order they were named in.

    Playwright's sync API keeps an asyncio loop running in the test thread from
    its first page to the end of the session, and ``asyncio.run()`` refuses to
    start under a running loop: a test or doctest that runs a coroutine (the bot
    worker's messages) would fail only when it came after a browser test.
    """
    items.sort(key=lambda item: Path(item.path).parent.name == "e2e")
