"""The Optimus page's idle warm-up (web/game_page.py ``warm``) in CPython, with a
stand-in ``localStorage`` (tests/webstub.py): warming deals a game nobody sees, so
it must leave nothing a player can see, such as a random sheet among the recent ones."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from tests.ui.test_web_storage import LocalStorage, Window
from tests.webstub import page_module

SETTINGS = "optimus-table.optimus.settings"
SHEETS = "optimus-table.optimus.sheets"


def page(
    monkeypatch: pytest.MonkeyPatch, sheet: str, recent: list[int]
) -> tuple[Any, LocalStorage]:
    """The Optimus page as a player who last chose ``sheet`` and played ``recent`` opens it."""
    view = page_module(monkeypatch, "optimus_view")
    local = LocalStorage()
    local.items[SETTINGS] = json.dumps({"sheet": sheet})
    local.items[SHEETS] = json.dumps(recent)
    sys.modules["js"].window = Window(local)  # type: ignore[attr-defined]
    table = view.OptimusView()
    assert table.settings["sheet"] == sheet
    return table, local


@pytest.mark.parametrize(
    ("sheet", "recent"), [("random", []), ("random", [17]), ("random:5", [17, 5])]
)
def test_warming_up_leaves_the_recent_sheets_and_the_storage_as_they_were(
    monkeypatch, sheet, recent
):
    table, local = page(monkeypatch, sheet, recent)
    before = dict(local.items)
    choices = list(table.choices["sheet"])
    table.warm()
    assert local.items == before
    assert table.recent == recent
    assert table.choices["sheet"] == choices
    assert table.settings["sheet"] == sheet


def test_a_game_started_with_a_random_sheet_heads_the_recent_ones(monkeypatch):
    table, local = page(monkeypatch, "random", [17])
    table.warm()
    started: list[Any] = []  # the shared table's start (it needs the page), stood in for
    monkeypatch.setattr(sys.modules["optimus_web.table"].GameTable, "start_with", started.append)
    session = table.new_session(42)
    table.start_with(session)
    assert started == [session]
    assert session.record.options["sheet"] == "random:42"
    assert table.recent == [42, 17]
    assert json.loads(local.items[SHEETS]) == [42, 17]
    assert "random:42" in table.choices["sheet"]
