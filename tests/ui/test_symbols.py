"""Each game's symbols (issue 36 §2): declared once by its view data (``symbols()``),
every symbol the table draws, each with its meaning in the player's language; the game
bar's "Symbols" screen draws them all (tests/e2e/test_touch.py)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest

from optimus import i18n
from optimus.fileiras import view as fileiras_view
from optimus.optimus import view as optimus_view
from optimus.optimus2 import view as optimus2_view
from optimus.ui import table as ui
from sitebuild.i18n import english_left, english_phrases, install

GAMES = ("optimus", "optimus2", "fileiras")


@pytest.fixture(scope="module", autouse=True)
def catalogs() -> Iterator[None]:
    install("pt")
    install("ca")
    yield
    i18n.use("en")


def symbols(game: str) -> list[ui.Symbol]:
    return list(importlib.import_module(f"optimus.{game}.view").symbols())


@pytest.mark.parametrize("game", GAMES)
def test_every_symbol_has_a_meaning_and_appears_once(game: str) -> None:
    found = symbols(game)
    assert len(found) >= 8
    assert all(isinstance(s, ui.Symbol) and s.glyph and len(s.meaning) > 5 for s in found)
    assert len({(s.glyph, s.piece) for s in found}) == len(found)


def test_the_symbols_are_those_the_tables_draw() -> None:
    """The colour symbols come from the tables' own (one source: never two lists)."""
    glyphs = {s.glyph for s in symbols("optimus")}
    assert set(optimus_view.SYMBOLS.values()) <= glyphs
    assert {"★", "!"} <= glyphs
    glyphs = {s.glyph for s in symbols("optimus2")}
    assert set(optimus2_view.SYMBOLS.values()) <= glyphs
    assert {"↻", "↩", "+1", "✪"} <= glyphs
    glyphs = {s.glyph for s in symbols("fileiras")}
    kinds = fileiras_view.COLOUR_SYMBOLS
    assert {fileiras_view.card(k).symbol for k in kinds} <= glyphs
    assert {s.piece for s in symbols("fileiras") if s.piece} == {f"card-{k}" for k in kinds}


@pytest.mark.parametrize("lang", ["pt", "ca"])
@pytest.mark.parametrize("game", GAMES)
def test_the_meanings_speak_the_players_language(game: str, lang: str) -> None:
    english = [s.meaning for s in symbols(game)]
    i18n.use(lang)
    try:
        spoken = [s.meaning for s in symbols(game)]
    finally:
        i18n.use("en")
    assert all(a != b for a, b in zip(english, spoken, strict=True))
    phrases = english_phrases(lang, [game, "table"])
    assert english_left(" | ".join(spoken), phrases) == []
