"""Fileiras speaks Brazilian Portuguese and Catalan: whole games played through the views.

Each game is rendered after every move in the language (status, log, panels, deck,
rows, the board's HTML and the end screen) and no English phrase of the fileiras
catalog may be left in what a player reads.  The shared table's own sentences
(seat names, headline) are the table catalog's, checked with it.
"""

from __future__ import annotations

import types
from typing import Any

import pytest

from optimus import i18n
from optimus.core.protocol import IllegalMove, play
from optimus.core.record import Match
from optimus.core.rng import Rng
from optimus.fileiras import view as vm
from optimus.fileiras.bots import easy_choice
from optimus.fileiras.game import FileirasGame
from optimus.ui import table as ui
from sitebuild.i18n import capitals_after_colons, english_left, english_phrases
from tests.webstub import page_module
from tests.webstub import readable as shown

from .scenario import draw_place, run, start

LANGS = ("pt", "ca")
GAME = FileirasGame()


@pytest.fixture
def board(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The Fileiras board of the page (web/fileiras_view.py, tests/webstub.py), unmounted."""
    fv = page_module(monkeypatch, "fileiras_view")
    return fv.FileirasView.__new__(fv.FileirasView)


def readable(markup: str) -> list[str]:
    """What a player reads of some HTML (tests/webstub.py), line by line."""
    return shown(markup).splitlines()


def table_texts(obs: dict[str, Any], names: list[str], you: int, view: Any) -> list[str]:
    """Everything a player reads of one position: the view data and the board's HTML."""
    t = vm.table(obs, names, you)
    texts = [t.status.text, t.deck.hint, *t.log]
    texts += [p.last for p in t.panels]
    for c in [*t.removed, *([t.drawn] if t.drawn else [])]:
        texts += [c.label, c.caption]
    for row in t.rows:
        texts += [c.label for c in row.cards] + [c.caption for c in row.cards]
    view.you = you
    texts += readable(view.board_html(t))
    for panel in t.panels:
        texts += readable(view.panel_summary(t, panel) + view.panel_detail(t, panel))
    return texts


def end_texts(obs: dict[str, Any], names: list[str], you: int, winners: list[int]) -> list[str]:
    end = vm.end_screen(obs, names, you, winners)
    texts = [end.rules]
    for p in end.players:
        texts += [p.why, *(line.text for line in p.lines)]
    return texts


def play_game(seed: int, players: int, you: int, view: Any) -> list[str]:
    """A whole game of bots (the easy level), rendered for seat ``you`` after every move."""
    m = Match(GAME, {"players": players, "advanced": seed % 2 == 1}, seed)
    rng = Rng(seed)
    names = [f"Ana {i + 1}" for i in range(players)]
    texts = []
    while not m.state.is_terminal():
        texts += table_texts(m.state.observation(you), names, you, view)
        actor = m.state.actors()[0]
        moves = m.state.legal_moves(actor)
        move = easy_choice(m.state, actor) if rng.random() < 0.7 else rng.choice(moves)
        m.play(actor, move)
    final = m.state.observation(you)
    texts += table_texts(final, names, you, view)
    texts += end_texts(m.state.observation(None), names, you, list(m.state.outcome().winners))
    return texts


def english_in(texts: list[str], lang: str) -> list[str]:
    phrases = english_phrases(lang, ["fileiras"])
    assert len(phrases) > 80  # the catalog is translated
    return english_left("\n".join(sorted(set(texts))), phrases)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4), (4, 5)])
def test_a_whole_game_reads_without_english(lang: str, seed: int, players: int, speak, board):  # type: ignore[no-untyped-def]
    speak(lang)
    texts = play_game(seed, players, seed % players, board)
    assert len(texts) > 100
    assert english_in(texts, lang) == []
    names = [f"Ana {i + 1}" for i in range(players)]
    assert capitals_after_colons("\n".join(texts), names) == []  # "took row 2: blue, +2"


@pytest.mark.parametrize("lang", LANGS)
def test_the_set_up_words_and_the_options_are_translated(lang: str, speak, board) -> None:  # type: ignore[no-untyped-def]
    speak(lang)
    texts = [board.player_label(n) for n in (2, 3, 4, 5)]
    texts += [rules_text(vm.RULES), i18n._(board.lead)]
    for players in (2, 3, 4):
        for advanced in (True, False):
            session = types.SimpleNamespace(
                record=types.SimpleNamespace(options={"advanced": advanced}),
                seats=["human"] + ["easy"] * (players - 1),
            )
            texts.append(board.options_text(session))
    assert english_in(texts, lang) == []
    if lang == "pt":
        assert texts[0] == "2 jogadores (fileiras de 1, 2 e 3 cartas)"
        assert texts[2] == "4 jogadores"
        assert texts[-1] == "4 jogadores; tabela de pontuação padrão (1, 3, 6, 10, 15, 21)."
    else:
        assert texts[1] == "3 jugadors (un color queda fora)"
        assert (
            texts[-4]
            == "3 jugadors; un color fora; taula de puntuació avançada (1, 4, 8, 7, 6, 5)."
        )


def rules_text(bullets: tuple[str, ...]) -> str:
    """The rules drawer's bullets as the frame shows them (each through the catalogs)."""
    return " ".join(i18n._(b) for b in bullets)


def test_log_lines_speak_to_the_person_by_seat_not_by_name(speak) -> None:  # type: ignore[no-untyped-def]
    names = ["Ana", "Bia", "Caio"]  # the person's name is not "You" here: the seat decides
    deal = {"event": "deal", "player": 0, "card": "red"}
    take = {"event": "take", "player": 0, "row": 2, "cards": ["blue", "joker", "+2"]}
    speak("pt")
    assert vm.describe(deal, names, 0) == "Você começa com um vermelho."
    assert vm.describe(deal, names, 1) == "Ana começa com um vermelho."
    assert vm.describe(take, names, 0) == "Você pegou a fileira 2: azul, coringa, +2."
    assert vm.describe({"event": "round", "round": 3, "starter": 2}, names, 0) == (
        "Rodada 3 — Caio começa."
    )
    assert vm.describe({"event": "remove", "colour": "grey"}, names, 0) == (
        "Cinza fica fora desta partida."
    )
    speak("ca")
    assert vm.describe(deal, names, 0) == "Comences amb un vermell."
    assert vm.describe(take, names, 1) == "Ana ha agafat la fila 2: blau, comodí, +2."
    assert vm.describe({"event": "round", "round": 3, "starter": 2}, names, 2) == (
        "Ronda 3 — comences tu."
    )
    assert vm.describe({"event": "draw", "player": 1, "card": "orange"}, names, 0) == (
        "Bia ha robat un taronja."
    )
    assert vm.last_action_text({"event": "take", "row": 1}, mine=True) == "has agafat la fila 1"
    assert vm.last_action_text({"event": "take", "row": 1}) == "ha agafat la fila 1"


def test_counts_take_the_languages_plural_forms(speak) -> None:  # type: ignore[no-untyped-def]
    speak("pt")
    assert (
        vm.deck_hint(False, 1) == "Carta de última rodada: não sai antes de mais 1 carta comprada."
    )
    assert vm.deck_hint(False, 7) == (
        "Carta de última rodada: não sai antes de mais 7 cartas compradas."
    )
    assert (
        vm.colour_text("green", 1, True, jokers=2) == "Verde: 1 carta + 2 coringas, conta positivo"
    )
    speak("ca")
    assert (
        vm.deck_hint(False, 0)
        == "Carta d'última ronda: pot sortir amb la propera carta que es robi."
    )
    assert vm.colour_text("brown", 3, False) == "Marró: 3 cartes, compta en negatiu"
    assert vm.card("+2").caption == "extra" and vm.card("yellow").label == "Groc"


def test_the_status_and_the_end_screen_speak_the_language(speak) -> None:  # type: ignore[no-untyped-def]
    s = start(4, first=0)
    run(s, "draw", "red")
    names = ["Ana", "Bia", "Caio", "Duda"]
    speak("pt")
    assert vm.status(s.observation(0), names, 0).text == (
        "Coloque o vermelho que você comprou em uma fileira destacada."
    )
    assert vm.status(s.observation(1), names, 1).text == "Ana está pensando…"
    speak("ca")
    assert vm.status(s.observation(0), names, 0).text == (
        "Col·loca el vermell que has robat en una fila destacada."
    )
    m = Match(GAME, {"players": 3}, 8)
    while not m.state.is_terminal():
        actor = m.state.actors()[0]
        m.play(actor, easy_choice(m.state, actor))
    end = vm.end_screen(m.state.observation(None), names[:3], 0, list(m.state.outcome().winners))
    assert end.rules.startswith("Cada color val 1, 3, 6, 10, 15 o 21 punts")
    assert all(
        p.why.startswith(("Colors que han comptat en positiu: ", "Cap color")) for p in end.players
    )
    assert all(", compta en " in line.text for p in end.players for line in p.lines[:1])


def test_a_refused_move_gives_its_reason_in_the_language(speak) -> None:  # type: ignore[no-untyped-def]
    s = start(4, first=0)
    draw_place(s, "red", 1)
    speak("pt")
    with pytest.raises(IllegalMove) as refused:
        play(s, 1, "take 2")
    assert ui.refusal(refused.value) == "A fileira 2 está vazia: não há nada para pegar."
    run(s, "draw", "blue")
    speak("ca")
    with pytest.raises(IllegalMove) as refused:
        play(s, 1, "draw")
    assert refused.value.reason == "primer has de col·locar la carta que has robat (blau)"
    assert s.explain_illegal(3, "draw") == "no és el teu torn (li toca al jugador 1)"


def test_english_stays_the_default() -> None:
    assert i18n.language() == "en"
    assert vm.describe({"event": "deal", "player": 0, "card": "red"}, ["You", "B"], 0) == (
        "You start with red."
    )
    assert vm.deck_hint(False, 1) == "Last-round card: not before 1 more draw."
