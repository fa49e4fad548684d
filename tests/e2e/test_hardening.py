"""What a bad file, a full disk or a second tab can still do to a game, in Chromium.

Pages are ``guarded`` (conftest.py): console errors, page errors and requests to
other hosts fail the test.  Each wait is on a state, never on time.
"""

from __future__ import annotations

from typing import Any

SAVE = "optimus-table.fileiras.save"
SETUP = "[data-role=setup]"
NOTICE = ".setup .notice"
GET = "key => localStorage.getItem(key)"
PUT = "([key, value]) => localStorage.setItem(key, value)"


def test_a_deeply_nested_save_is_set_aside_and_the_page_lives(guarded: Any, site: str) -> None:
    page = guarded.page
    page.goto(site + "#/")
    guarded.wait_ready()
    deep = "[" * 8000 + "]" * 8000  # 16 KB that once crashed the Python runtime
    page.evaluate(PUT, [SAVE, deep])
    page.click('a.game-card[data-game="fileiras"]')
    page.wait_for_selector(SETUP)
    notice = page.locator(NOTICE).inner_text()
    assert "could not be read" in notice and "set aside" in notice
    assert page.evaluate(GET, f"{SAVE}.backup") == deep
    assert page.evaluate(GET, SAVE) is None
    page.click("[data-action=start]")  # the page goes on
    page.wait_for_selector(".fboard")
