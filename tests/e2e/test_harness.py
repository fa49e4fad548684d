"""The browser tests' own guard: what it catches that no Playwright call would."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest


def test_a_tab_whose_renderer_crashed_fails_the_guard_with_the_error_that_is_run_again(
    browser: Any, site: str, guard_context: Callable[..., Any]
) -> None:
    from playwright.sync_api import Error

    origin = site.rstrip("/")
    # "Target crashed" is the error tests/e2e/conftest.py runs a test again for.
    crashed = r"^Target crashed: the renderer of \[.+\] died"
    with (
        pytest.raises(AssertionError, match=crashed),
        guard_context(browser.new_context(), origin) as guard,
    ):
        guard.expect_errors()
        page = guard.page
        with (
            page.expect_event("crash", timeout=30_000),
            contextlib.suppress(Error),  # the navigation itself is aborted
        ):
            page.goto("chrome://crash")
