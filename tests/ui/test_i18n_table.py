"""The shared table in Portuguese and Catalan (CPython): seat names, the end screen's
headline, points, refusals, the notes on a player's bot, the set-up choices and the
rules drawer speak the language chosen, and English comes back after."""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from optimus import i18n
from optimus.core.protocol import GameError, IllegalMove
from optimus.fileiras.game import FileirasGame
from optimus.optimus2 import view as optimus2_view
from optimus.ui import table as ui
from optimus.ui.playerbots import COULD_NOT_START, NOT_LOADED, Note, resume_seats
from optimus.ui.session import TableSession
from sitebuild.i18n import english_left, english_phrases, install
from tests.webstub import page_module

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def catalogs() -> None:
    """Both languages' table catalogs, straight from the .po files."""
    install("pt")
    install("ca")


@pytest.fixture
def speak() -> Iterator[Any]:
    """``speak(lang)`` switches the language; English is always restored after the test."""
    try:
        yield i18n.use
    finally:
        i18n.use("en")


def english(lang: str) -> dict[str, str]:
    return english_phrases(lang, ["table"])


def words(page: str) -> str:
    """What of some HTML a player reads or hears: its text and its labels."""
    labels = re.findall(r'(?:aria-label|title)="([^"]*)"', page)
    return " | ".join([re.sub(r"<[^>]*>", " | ", page), *labels])


def test_seat_names_in_each_language(speak: Any) -> None:
    seats = ["human", "easy", "normal", "hard", "mybot:MyBot"]
    speak("pt")
    assert ui.seat_names(seats) == [
        "Você",
        "Bot fácil 1",
        "Bot normal 2",
        "Bot difícil 3",
        "MyBot 4",
    ]
    assert ui.seat_names(["human", "human"]) == ["Jogador 1", "Jogador 2"]
    speak("ca")
    assert ui.seat_names(seats) == ["Tu", "Bot fàcil 1", "Bot normal 2", "Bot difícil 3", "MyBot 4"]
    assert ui.seat_names(["random", "human"]) == ["Bot a l'atzar 1", "Tu"]
    speak("en")
    assert ui.seat_names(seats) == ["You", "Easy bot 1", "Normal bot 2", "Hard bot 3", "MyBot 4"]


@pytest.mark.parametrize("lang", ["pt", "ca"])
def test_headline_for_one_winner_and_a_shared_victory(speak: Any, lang: str) -> None:
    speak(lang)
    names = ui.seat_names(["human", "easy", "hard"])
    you_win = ui.headline([0], names, 0)
    bot_wins = ui.headline([1], names, 0)
    shared = ui.headline([0, 1, 2], names, 0)
    assert you_win == {"pt": "Você venceu!", "ca": "Has guanyat!"}[lang]
    assert bot_wins == {"pt": "Bot fácil 1 venceu!", "ca": "Ha guanyat Bot fàcil 1!"}[lang]
    assert (
        shared
        == {
            "pt": "Vitória compartilhada: Você, Bot fácil 1 e Bot difícil 2.",
            "ca": "Victòria compartida: Tu, Bot fàcil 1 i Bot difícil 2.",
        }[lang]
    )
    # The person's victory is decided by seat, never by a name.
    assert ui.headline([1], ["Bia", "Caio"], 1) == you_win
    assert ui.headline([1], ["Bia", "Caio"], 0).startswith(("Caio", "Ha guanyat Caio"))
    for text in (you_win, bot_wins, shared):
        assert english_left(text, english(lang)) == [], text


def test_points_count_with_each_language_plural_and_numbers(speak: Any) -> None:
    speak("pt")
    assert [ui.points(n) for n in (0, 1, 2, -3, 1234)] == [
        "0 pts",
        "1 pt",
        "2 pts",
        "-3 pts",
        "1.234 pts",
    ]
    speak("ca")
    assert [ui.points(n) for n in (0, 1, 1234)] == ["0 pts", "1 pt", "1.234 pts"]
    speak("en")
    assert [ui.points(n) for n in (0, 1, -1, 1234)] == ["0 pts", "1 pt", "-1 pt", "1,234 pts"]


def test_a_refusal_without_a_reason_is_said_in_the_language(speak: Any) -> None:
    speak("pt")
    assert ui.refusal(GameError("")) == "Essa jogada não é permitida agora."
    # A game's reason (already in the language) is made a sentence, nothing added.
    assert ui.refusal(IllegalMove("x", "a fileira está cheia")) == "A fileira está cheia."
    speak("ca")
    assert ui.refusal(GameError("")) == "Ara no es pot fer aquesta jugada."
    speak("en")
    assert ui.refusal(GameError("")) == "That move is not allowed now."


@pytest.mark.parametrize("lang", ["pt", "ca"])
def test_set_up_choices_and_constants_speak_the_language(speak: Any, lang: str) -> None:
    speak(lang)
    shown = [
        *(text for _, text in ui.seat_choices(6)),
        *ui.SPEED_LABELS.values(),
        *(ui.level_name(level) for level in ("easy", "normal", "hard", "random")),
        i18n._(ui.TIE_RULE),
        i18n._(ui.SAVE_SET_ASIDE),
        i18n._(ui.STORAGE_REFUSED),
        i18n.date(2026, 4, 2),
    ]
    assert english_left(" | ".join(shown), english(lang)) == []
    first = {"pt": "em primeiro (você começa)", "ca": "primer (comences tu)"}[lang]
    assert ui.seat_choices(2)[0] == ("1", first)
    assert ui.SPEED_LABELS["fast"] == {"pt": "Rápida", "ca": "Ràpida"}[lang]
    assert i18n.date(2026, 4, 2) == {"pt": "2 de abril de 2026", "ca": "2 d'abril de 2026"}[lang]
    speak("en")
    assert ui.seat_choices(2) == [
        ("1", "first (you start)"),
        ("2", "second"),
        ("random", "at a random place"),
    ]
    assert ui.SPEED_LABELS["instant"] == "Instant (no animation)"
    assert ui.level_name("hard") == "Hard" and ui.level_name("wild") == "Wild"


def test_notes_on_a_players_bot_are_whole_sentences_in_the_language(speak: Any) -> None:
    note = Note(1, COULD_NOT_START, (("problem", "ValueError: x"),), "normal")
    speak("pt")
    assert note.say("MyBot 2") == (
        "MyBot 2 não conseguiu começar (ValueError: x): o Bot normal faz todas as jogadas."
    )
    speak("ca")
    said = note.say("MyBot 2")
    assert said.startswith("MyBot 2 no s'ha pogut iniciar (ValueError: x): el Bot normal")
    assert english_left(said, english("ca")) == []
    speak("en")
    assert note.say("MyBot 2") == (
        "MyBot 2 could not start (ValueError: x): the Normal bot plays every move."
    )


def test_a_resumed_seat_whose_bot_is_gone_is_named_by_its_number(speak: Any) -> None:
    seats, notes = resume_seats(FileirasGame(), ["human", "gone:Bot"])
    assert seats == ["human", "normal"] and notes[0].message == NOT_LOADED
    speak("pt")
    said = notes[0].say("ignored")
    assert said.startswith("Lugar 2 era o seu bot Bot (gone), que não está carregado")
    assert english_left(said, english("pt")) == []
    speak("en")
    assert notes[0].text.startswith("Seat 2 was your bot Bot (gone), which is not loaded")


def test_a_bot_that_cannot_start_is_noted_in_the_language_shown(speak: Any) -> None:
    from optimus.core import userbots

    userbots.register("fileiras", ["broken:Broken"], userbots.BotFile("broken.py", b""))
    try:
        session = TableSession(FileirasGame(), {}, seed=1, seats=["broken:Broken", "easy"])
        ask = session.asking()
        assert ask is not None and ask.spec == "broken:Broken"
        # What the bot worker answers when the bot's constructor raised.
        assert session.answer(ask.seat, {"unseated": "RuntimeError: no"}) is None
        (note,) = session.take_notes()
        speak("ca")
        assert note.say("Broken 1") == (
            "Broken 1 no s'ha pogut iniciar (RuntimeError: no): el Bot normal fa totes les jugades."
        )
        # A bot stopped by the page (its worker terminated): the seconds in words too.
        session = TableSession(FileirasGame(), {}, seed=1, seats=["broken:Broken", "easy"])
        assert session.answer(0, {"stopped": 12.5}) is None and session.remote == {}
        (note,) = session.take_notes()
        speak("pt")
        assert note.say("Broken 1").startswith(
            "Broken 1 demorou demais (sem resposta em 12,5 s) e foi interrompido: o Bot normal"
        )
    finally:
        userbots.forget("fileiras")


# -- the rules drawer (web/dialogs.py, imported with its package's name) -------------------


@pytest.fixture(autouse=True)
def no_page_modules_left() -> Iterator[None]:
    """The page's modules imported by a test are forgotten after it (they were imported
    with stand-ins for the browser)."""
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.startswith("optimus_web"):
            del sys.modules[name]


@pytest.fixture
def dialogs(monkeypatch: pytest.MonkeyPatch) -> Any:
    """web/dialogs.py imported as ``optimus_web.dialogs`` (it needs no ``js``)."""
    return page_module(monkeypatch, "dialogs")


def test_the_rules_drawer_shows_the_how_to_play_of_the_language(
    dialogs: Any, monkeypatch: pytest.MonkeyPatch, speak: Any
) -> None:
    asked: list[tuple[str, str]] = []

    def read(game: str, lang: str | None = None) -> str:
        asked.append((game, i18n.language()))
        return "<h3>Objetivo</h3><table><tr><td>1</td></tr></table>"

    monkeypatch.setattr(dialogs.howto, "read", read)
    speak("pt")
    page = dialogs.dialogs_html(
        "fileiras", ["ignored when the how-to-play is there"], "fast", "quick"
    )
    assert asked == [("fileiras", "pt")]
    assert "<h3>Objetivo</h3>" in page and "ignored" not in page
    # A wide table scrolls in its own box, which the keyboard can reach.
    assert (
        '<div class="howto-table" tabindex="0" role="region" aria-label="Tabela 1"><table>' in page
    )
    assert "Como jogar" in page and "Opções em uso" in page and "Rápida" in page
    assert english_left(words(page), english("pt")) == []


def test_without_a_how_to_play_the_drawer_keeps_the_views_points(
    dialogs: Any, monkeypatch: pytest.MonkeyPatch, speak: Any
) -> None:
    monkeypatch.setattr(dialogs.howto, "read", lambda game, lang=None: "")
    point = ui.TIE_RULE  # any sentence of the catalogs, as a view's rules would be
    speak("ca")
    page = dialogs.dialogs_html("tiny", [point], "normal", "careful")
    assert "<li>Els jugadors amb el mateix total comparteixen la victòria" in page
    assert "Com es juga" in page and english_left(words(page), english("ca")) == []
    speak("en")
    page = dialogs.dialogs_html("tiny", [point], "normal", "careful")
    assert f"<ol><li>{point}</li></ol>" in page and "How to play" in page


def test_the_drawer_stresses_starred_words_and_escapes_the_rest(
    dialogs: Any, monkeypatch: pytest.MonkeyPatch, speak: Any
) -> None:
    """A rule's ``*word*`` is bold; any other text, a ``<`` in a translation too, is text."""
    monkeypatch.setattr(dialogs.howto, "read", lambda game, lang=None: "")
    speak("en")
    page = dialogs.dialogs_html("tiny", ["Then *Confirm* <i>or</i> 2 * 3"], "normal", "careful")
    assert "<ol><li>Then <b>Confirm</b> &lt;i&gt;or&lt;/i&gt; 2 * 3</li></ol>" in page
    install("pt")
    speak("pt")
    page = dialogs.dialogs_html("optimus2", [optimus2_view.RULES[1]], "normal", "careful")
    assert "<b>bandeja de prata</b>" in page and "*" not in page.split("<ol>")[1]


@pytest.fixture
def web(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The page's modules that draw the frame, imported as ``optimus_web.*`` with a bare
    stand-in for ``js`` (they touch it only when they run in the page)."""
    names = ("frame", "setup", "storage", "userbots", "router", "keyed", "dialogs")
    page_module(monkeypatch, names[0])  # tests/webstub.py: the stand-ins, then the rest
    return {name: importlib.import_module(f"optimus_web.{name}") for name in names}


@pytest.mark.parametrize("lang", ["pt", "ca"])
def test_the_frame_and_the_set_up_screen_speak_the_language(
    web: Any, speak: Any, lang: str
) -> None:
    from optimus.games import GAMES

    frame, setup, userbots = web["frame"], web["setup"], web["userbots"]
    speak(lang)
    panel = ui.Panel(
        seat=0, name=ui.seat_names(["human"])[0], score=3, turn=True, you=True, last="x"
    )
    settings = {"players": 3, "seat": "1", **{f"bot{i}": "easy" for i in range(4)}}
    fields = setup.seat_fields(settings, {n: f"{n}" for n in (2, 3, 4, 5)}, ["easy", "hard"])
    notes = [Note(1, NOT_LOADED, (("bot", "B (b)"),), "normal", by_seat=True).say("x")]
    picker = userbots.BotPicker("fileiras", {"bot0": ["easy", "hard"]}, ["easy", "hard"])
    pages = {
        "tools": frame.tools_html(),
        "play": frame.play_html(),
        "panel": frame.panel_html(panel, ""),
        "set-up": setup.setup_html(
            [ui.SAVE_SET_ASIDE, ui.STORAGE_REFUSED],
            setup.resume_html(notes),
            i18n._(GAMES["fileiras"].lead),
            fields,
            picker.html(),
        ),
    }
    for part, page in pages.items():
        assert english_left(words(page), english(lang)) == [], part
    assert {"pt": "Bot fácil 1", "ca": "Bot fàcil 1"}[lang] in fields
    speak("en")
    assert "How to play" in frame.tools_html() and "Start a new game" in setup.setup_html(
        [], "resume", "", "", ""
    )


def test_a_players_bot_file_refused_in_the_language(speak: Any) -> None:
    from optimus.core import userbots

    speak("pt")
    with pytest.raises(userbots.UserBotError, match=r"^oops\.py, linha 1: SyntaxError"):
        userbots.load_source("oops.py", "x = (1,\n")
    with pytest.raises(userbots.UserBotError, match="não contém nenhum módulo Python"):
        userbots.wheel_modules(_empty_zip(), "empty.whl")
    speak("en")
    with pytest.raises(userbots.UserBotError, match=r"^oops\.py, line 1: SyntaxError"):
        userbots.load_source("oops.py", "x = (1,\n")


def _empty_zip() -> bytes:
    import io
    import zipfile

    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("x-1.0.dist-info/METADATA", "Name: x\n")
    return data.getvalue()
