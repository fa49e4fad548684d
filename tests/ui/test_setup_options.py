"""The set-up form's own options follow from the game's description (web/setup.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from optimus.games import GAMES, GameInfo, Option
from tests.ui import test_deals as deals_test
from tests.webstub import page_module

DICE = deals_test.DICE._replace(
    options=(
        Option("bonus", True, "Bonus <b>on</b>"),
        Option("sheet", "b", "Sheet", ("a", "b", "c"), value_label=f"{__name__}:sheet_words"),
    )
)
"""A game made here: a yes/no option and a select whose values have words."""


def sheet_words(value: str) -> str:
    return f"Sheet {value.upper()}"


@pytest.fixture
def setup(monkeypatch: pytest.MonkeyPatch) -> Any:
    return page_module(monkeypatch, "setup")


def test_a_yes_no_option_is_a_check_box_and_any_other_a_select(setup: Any) -> None:
    settings = {"bonus": False, "sheet": "c"}
    choices = {"sheet": ["a", "b", "c", "c2"]}  # a page may offer more (recent sheets)
    html = setup.option_fields(DICE.options, settings, choices)
    assert re.search(r'<input type="checkbox" name="bonus" data-setting="bonus">', html)
    assert "Bonus &lt;b&gt;on&lt;/b&gt;" in html  # a label is text, never markup
    select = re.search(r'<select name="sheet" data-setting="sheet">(.*?)</select>', html, re.S)
    assert select is not None
    options = re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', select.group(1))
    assert options == [
        ("a", "", "Sheet A"),
        ("b", "", "Sheet B"),
        ("c", " selected", "Sheet C"),
        ("c2", "", "Sheet C2"),
    ]
    assert html.index('name="bonus"') < html.index('name="sheet"')  # the declared order
    checked = setup.option_fields(DICE.options, {"bonus": True, "sheet": "a"}, choices)
    assert 'data-setting="bonus" checked>' in checked


@pytest.mark.parametrize("info", list(GAMES.values()), ids=list(GAMES))
def test_every_game_s_form_offers_its_declared_options_at_their_defaults(
    setup: Any, info: GameInfo
) -> None:
    settings = info.option_defaults()
    choices = {o.key: list(o.allowed()) for o in info.options}
    html = setup.option_fields(info.options, settings, choices)
    assert re.findall(r'data-setting="([^"]+)"', html) == [o.key for o in info.options]
    for option in info.options:
        assert option.default in option.allowed()
        if option.is_check:
            checked = f'data-setting="{option.key}" checked>' in html
            assert checked == option.default
        else:
            assert re.search(rf'<option value="{option.default}" selected>', html)
