"""What a new player trips on (issue 26): every symbol of the Optimus 2 sheet explains
itself in words, the rules drawer has their legend, and the log speaks of rows and
columns (never a cell's code such as ``r3c4``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from optimus.core import Match, Rng
from optimus.optimus2 import view as vm
from optimus.optimus2.game import Optimus2Game
from sitebuild.howto import to_html
from tests.webstub import page_module, readable

GAME = Optimus2Game()
ROOT = Path(__file__).resolve().parents[2]
MARKS = ("↻", "↩", "+1", "✪", "●?", "■?", "▲?", "♥?", "◆?")
CODE = re.compile(r"\b[rcY]\d+(c\d+)?\b")
"""A cell's code (``r3c4``, ``Y12``): no player reads one."""
SYMBOL = re.compile(r"<span ([^>]*)>([^<]*)</span>")


@pytest.fixture
def web(monkeypatch: pytest.MonkeyPatch) -> Any:
    return page_module(monkeypatch, "optimus2_view")


def unexplained(markup: str) -> list[str]:
    """Spans showing a sheet's mark with no words for it (a title and an accessible name)."""
    bad = []
    for attrs, text in SYMBOL.findall(markup):
        if not any(mark in text for mark in MARKS) or 'aria-hidden="true"' in attrs:
            continue
        title = re.search(r'title="([^"]+)"', attrs)
        name = re.search(r'aria-label="([^"]+)"', attrs)
        if not (title and name and re.search(r"[a-z]{3}", name.group(1))):
            bad.append(f"{text}: {attrs}")
    return bad


@pytest.mark.parametrize(("seed", "players"), [(1, 1), (5, 2)])
def test_every_mark_explains_itself_and_the_log_never_names_a_cell_by_code(
    web: Any, seed: int, players: int
) -> None:
    match = Match(GAME, {"players": players}, seed)
    rng = Rng(seed)
    names = ["You", "Bot 1"][:players]
    view = object.__new__(web.Optimus2View)
    seen_marks: set[str] = set()
    while not match.state.is_terminal():
        actor = match.state.actors()[0]
        t = vm.table(match.state.observation(0), names, 0)
        board = view.board_html(t)
        assert unexplained(board) == []
        seen_marks |= {m for m in MARKS if m in board}
        said = [t.status.text, *t.log, *(p.last for p in t.players), readable(board)]
        assert not [line for line in said if CODE.search(line)], said
        match.play(actor, rng.choice(match.state.legal_moves(actor)))
    assert seen_marks >= {"↻", "↩", "+1", "✪"}


@pytest.mark.parametrize("lang", ["en", "pt", "ca"])
def test_the_rules_drawer_has_a_legend_of_every_mark(lang: str) -> None:
    """The drawer shows docs/howto/optimus2.<lang>.md (as the build makes it HTML)."""
    text = to_html((ROOT / "docs" / "howto" / f"optimus2.{lang}.md").read_text("utf-8"))
    for mark in MARKS:
        assert re.search(rf"<td>[^<]*{re.escape(mark)}", text), mark
