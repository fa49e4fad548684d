"""The Optimus page keeps the others' small sheets drawn (web/optimus_view.py
``mini_sheet``): the same markup as drawing them anew, kept while the sheet is the same."""

from __future__ import annotations

import sys

import pytest

from optimus.optimus import view as vm
from tests.optimus.test_page_warm import page
from tests.optimus.test_view import positions


def test_kept_small_sheets_are_those_drawn_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    table, _ = page(monkeypatch, "harbour", [])
    sheet_html = sys.modules["optimus_web.optimus_view"].sheet_html
    drawn: dict[int, str] = {}
    unchanged = 0
    for state, _ in positions(5, 3):
        obs = state.observation(0)
        for seat in (1, 2):
            mini = table.mini_sheet(obs, seat)
            assert str(mini) == str(sheet_html(vm.sheet_view(obs, seat), "mini"))
            assert table.mini_sheet(obs, seat) is mini  # kept, not drawn again
            unchanged += drawn.get(seat) == str(mini)
            drawn[seat] = str(mini)
    assert unchanged > 0  # a sheet often stays the same over a move
