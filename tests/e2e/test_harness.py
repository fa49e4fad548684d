"""The browser tests' own guard: the crashes it catches, and which failures run again."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any

import pytest


def test_a_crashed_tab_fails_the_guard_and_any_error_it_causes_runs_the_test_again(
    browser: Any,
    site: str,
    guard_context: Callable[..., Any],
    crash_error: Callable[[BaseException], AssertionError | None],
    stops_after: Callable[[pytest.Item, pytest.Item | None], bool],
    request: pytest.FixtureRequest,
) -> None:
    from playwright.sync_api import Error, expect

    marker = request.node.get_closest_marker("flaky")
    assert marker is not None and marker.kwargs["reruns"] >= 1
    test = request.node
    assert not stops_after(test, test)  # the next test of this file keeps the browser
    assert stops_after(test, None)  # the last test stops it

    def rerun(exc: BaseException) -> bool:  # as pytest-rerunfailures matches only_rerun
        text = f"{type(exc).__name__}: {exc}"
        return any(re.search(pattern, text) for pattern in marker.kwargs["only_rerun"])

    with (  # the guard's own check, at its end
        pytest.raises(AssertionError, match=r"^Target crashed: the renderer of \[.+\] died"),
        guard_context(browser.new_context(), site.rstrip("/")) as guard,
    ):
        guard.expect_errors()
        page = guard.page
        with page.expect_event("crash", timeout=30_000), contextlib.suppress(Error):
            page.goto("chrome://crash")  # the navigation itself is aborted
        with pytest.raises(Error) as goto:
            page.goto(site, timeout=30_000)
        assert rerun(goto.value), goto.value  # "Page crashed", not "Target crashed"
        assert crash_error(goto.value) is None  # it says so already
        with pytest.raises((AssertionError, Error)) as waited:
            expect(page.locator("h1")).to_be_visible(timeout=2_000)
        crash = crash_error(waited.value) if not rerun(waited.value) else waited.value
        assert crash is not None and rerun(crash), waited.value
        assert crash_error(ValueError("a plain bug")) is not None  # this guard saw a crash
    assert stops_after(test, test)  # the rerun, and the tests after it, get a fresh browser
    guard.crashes.clear()
    assert not stops_after(test, test)
    assert crash_error(ValueError("a plain bug")) is None  # no crash: no rerun
