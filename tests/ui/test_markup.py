"""web/markup.py: text meets markup escaped, markup is never escaped twice."""

from __future__ import annotations

from typing import Any

import pytest

from tests.webstub import page_module


@pytest.fixture
def markup(monkeypatch: pytest.MonkeyPatch) -> Any:
    return page_module(monkeypatch, "markup")


def test_a_players_name_cannot_open_an_element(markup: Any) -> None:
    name = '<img src=x onerror="alert(1)">'
    out = markup.html('<p title="{n}">{n}</p>', n=name)
    assert "<img" not in out
    assert out.count("<p") == 1
    assert '"alert' not in out


def test_markup_is_kept_and_never_escaped_twice(markup: Any) -> None:
    inner = markup.html("<b>{}</b>", "a & b")
    outer = markup.html("<li>{}</li>", inner)
    assert outer == "<li><b>a &amp; b</b></li>"
    assert markup.escape(markup.escape("&")) == "&amp;"


def test_adding_and_joining_plain_text_escapes_it(markup: Any) -> None:
    m = markup.Markup("<br>")
    assert m + "<" == "<br>&lt;"
    assert "<" + m == "&lt;<br>"
    assert isinstance("<" + m, markup.Markup)
    assert markup.join(["<", m], ",") == "&lt;,<br>"


def test_numbers_keep_their_format_spec(markup: Any) -> None:
    assert markup.html("{:+d} {:.1f}", 3, 2.25) == "+3 2.2"


def test_a_field_may_not_reach_into_its_argument(markup: Any) -> None:
    with pytest.raises(ValueError, match="name an argument"):
        markup.html("{x.__class__}", x="a")


@pytest.mark.parametrize(
    ("value", "quoted"),
    [("plain", '"plain"'), ('a"]b', '"a\\"]b"'), ("back\\slash", '"back\\\\slash"')],
)
def test_css_string_quotes_a_selector_value(markup: Any, value: str, quoted: str) -> None:
    assert markup.css_string(value) == quoted


@pytest.mark.parametrize(
    "value",
    ["", "plain", "<b>", "a & b", "&amp;", "\"quoted\" and 'single'", "<&>\"'" * 3, 42, None],
)
def test_escape_escapes_exactly_as_html_escape(markup: Any, value: object) -> None:
    """The page's escaping, without importing :mod:`html` (its table of 2,231 entities
    cost the first visit of a game, docs/boot.md)."""
    import html

    assert markup.escape(value) == html.escape(str(value), quote=True)
