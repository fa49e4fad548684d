"""Optimus 2 in Brazilian Portuguese and Catalan: whole games played by bots, every text
of the table read after every move, and not one English phrase of the game's catalog left.

The table's own sentences (the shared frame, the seat names) are another catalog's: only
the ``optimus2`` catalog's English is looked for here.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from optimus import i18n
from optimus.core import Match, Rng
from optimus.core.protocol import IllegalMove, play
from optimus.optimus2 import view as vm
from optimus.optimus2.bots import EasyBot
from optimus.optimus2.game import Optimus2Game
from optimus.optimus2.sheet import REROLL
from optimus.ui import table as ui
from sitebuild.i18n import capitals_after_colons, english_left, english_phrases
from tests.webstub import page_module, readable

from .scenario import roll, start
from .test_view import A_TURN

ROOT = Path(__file__).resolve().parents[2]
GAME = Optimus2Game()
NAMES = ["Ana", "Bia", "Caio", "Duda"]
"""Names that are no word of any catalog."""


@pytest.fixture(params=["pt", "ca"])
def lang(request: pytest.FixtureRequest, speak: Any) -> str:
    """Speak the language (its catalogs read from the .po files), English again after."""
    code = str(request.param)
    speak(code)
    return code


@pytest.fixture
def web(monkeypatch: pytest.MonkeyPatch) -> Any:
    """web/optimus2_view.py, as ``optimus_web.optimus2_view`` (tests/webstub.py)."""
    return page_module(monkeypatch, "optimus2_view")


def texts(t: vm.Table) -> list[str]:
    """Every text of the view data: status, log, panels, buttons, dice, sheets."""
    out = [t.status.text, *t.log]
    out += [p.last for p in t.players]
    out += [c.label for c in (*t.controls, *t.writes, *t.chooses)]
    out += [text for d in t.dice for text in (d.label, d.choose_label, d.return_label)]
    out += [b.label for b in t.round_track]
    for p in t.players:
        s = p.sheet
        out += [c.will for c in (*s.blue, *s.green, *s.pink)]
        out += [c.bonus.label for c in (*s.blue, *s.green, *s.pink)]
        out += [b.label for b in (*s.yellow_row_bonus, *s.yellow_column_bonus)]
        out += [b.label for b in s.silver_column_bonus]
    return out


def play_game(seed: int, players: int, web: Any) -> set[str]:
    """A whole game, bots at every seat (easy and random), the table drawn for every seat
    after every move (the board and the players' sheets for the seat to act); every text
    seen."""
    match = Match(GAME, {"players": players}, seed)
    rng = Rng(seed)
    bots = [EasyBot(GAME, p, Rng(seed + p)) for p in range(players)]
    names = NAMES[:players]
    view = object.__new__(web.Optimus2View)
    seen: set[str] = set()
    while not match.state.is_terminal():
        actor = match.state.actors()[0]
        for seat in range(players):
            obs = match.state.observation(seat)
            t = vm.table(obs, names, seat)
            seen.update(texts(t))
            if seat != actor:
                continue
            for d in t.dice:  # a chosen die lights its cells, with what they would write
                if d.selectable:
                    chosen = vm.table(obs, names, seat, d.die)
                    seen.add(chosen.status.text)
                    seen.add(readable(view.board_html(chosen)))
                    break
            seen.add(readable(view.board_html(t)))
            for panel in t.panels:
                seen.add(readable(view.panel_summary(t, panel)))
                if panel.seat != seat:
                    seen.add(readable(view.panel_detail(t, panel)))
        legal = match.state.legal_moves(actor)
        if actor % 2 == 0 or (players == 1 and seed % 2):
            move = bots[actor].choose(match.state.observation(actor), legal)
        else:
            move = rng.choice(legal)
        match.play(actor, move)
    final = match.state.observation(None)
    end = vm.end_screen(final, names, 0, match.state.outcome().winners)
    seen.add(end.rules)
    seen.update(f"{line.text} {line.detail}" for p in end.players for line in p.lines)
    seen.update(texts(vm.table(final, names, 0)))
    seats = ["human"] + ["easy"] * (players - 1)
    session = SimpleNamespace(seats=seats, state=match.state)
    seen.update([view.options_text(session), *(view.player_label(n) for n in range(1, 5))])
    seen.update([i18n._(rule) for rule in vm.RULES] + [i18n._(view.lead)])
    return seen


@pytest.mark.parametrize(("seed", "players"), [(1, 1), (2, 1), (3, 3), (4, 4)])
def test_a_whole_game_leaves_no_english(lang: str, web: Any, seed: int, players: int) -> None:
    seen = play_game(seed, players, web)
    text = "\n".join(sorted(seen))
    assert len(seen) > 200
    left = english_left(text, english_phrases(lang, ["optimus2"]))
    assert not left, left
    assert capitals_after_colons(text, NAMES) == []


def test_the_log_says_who_did_what_in_each_language(lang: str) -> None:
    log = [
        *A_TURN,
        {"event": "extra", "player": 0, "move": "extra white yellow r3c4"},
    ]
    lines, last = vm.described_log(log, ["Ana", "Bia"], 0)
    said = {
        "pt": [
            "Você usou um dado extra: o 3 branco como amarelo, na casa amarela da linha 3, "
            "coluna 4.",
            "Você não pegou nenhum dado.",
            "Bia marcou o 2 na linha amarela da área prata.",
            "Bia escolheu o 5 prata na linha rosa da área prata.",
            "Rolagem: branco 3, prata 5, rosa 2.",
            "Turno ativo de Bia.",
            "Começa a rodada 2.",
        ],
        "ca": [
            "Has fet servir un dau extra: el dau blanc amb un 3 com a groc, a la casella groga "
            "de la fila 3, columna 4.",
            "No has agafat cap dau.",
            "Bia ha marcat el valor 2 a la fila groga de l'àrea de plata.",
            "Bia ha triat el dau platejat amb un 5 a la fila rosa de l'àrea de plata.",
            "Tirada: blanc 3, platejat 5, rosa 2.",
            "Torn actiu de Bia.",
            "Comença la ronda 2.",
        ],
    }
    assert lines == said[lang]
    assert (
        last
        == {
            "pt": {
                0: "usou um dado extra: o 3 branco como amarelo, na casa amarela da linha 3, "
                "coluna 4",
                1: "marcou o 2 na linha amarela da área prata",
            },
            "ca": {  # the person's own panel says "tu"
                0: "has fet servir un dau extra: el dau blanc amb un 3 com a groc, a la casella "
                "groga de la fila 3, columna 4",
                1: "ha marcat el valor 2 a la fila groga de l'àrea de plata",
            },
        }[lang]
    )


def test_counts_take_the_plural_of_each_language(lang: str) -> None:
    sd = vm.load_sheet("standard")
    sheet = {
        "yellow": [2] + [0] * 9,
        "blue": [9, 8],
        "green": [4, 2, 6],
        "pink": [],
        "silver": [[1], [], [2, 3], []],
    }
    details = vm.area_details(sd, sheet)
    assert (
        details
        == {
            "pt": {
                "yellow": "1 casa riscada",
                "blue": "2 espaços preenchidos",
                "green": "par 4−2",
                "pink": "nada escrito",
                "silver": "marcas por linha 1, 0, 2, 0",
            },
            "ca": {
                "yellow": "1 casella ratllada",
                "blue": "2 caselles omplertes",
                "green": "parella 4−2",
                "pink": "res escrit",
                "silver": "marques per fila 1, 0, 2, 0",
            },
        }[lang]
    )


def test_a_refused_move_gives_its_reason_in_the_language(lang: str) -> None:
    s = start(2)
    roll(s, "123456")  # the yellow die shows 2; row 1, column 2 holds a 3
    with pytest.raises(IllegalMove) as refused:
        play(s, 0, "yellow r1c2")
    assert (
        ui.refusal(refused.value)
        == {
            "pt": "A casa amarela da linha 1, coluna 2 tem um 3, o dado mostra 2.",
            "ca": "La casella groga de la fila 1, columna 2 té un 3, el dau mostra un 2.",
        }[lang]
    )
    with pytest.raises(IllegalMove) as refused:
        play(s, 1, "pink")
    assert (
        refused.value.reason
        == {
            "pt": "não é a sua vez (esperando o jogador 1)",
            "ca": "no és el teu torn (s'espera el jugador 1)",
        }[lang]
    )


def test_english_stays_the_default() -> None:
    assert i18n.language() == "en"
    assert vm.die("silver", 5).label == "silver die showing 5"
    assert vm.bonus(4).label == "fox"


def test_the_solo_rating_is_told_in_the_language(lang: str) -> None:
    sd = vm.load_sheet("standard")
    top, band, bottom = sd.rating[0][1], sd.rating[1][1], sd.rating[-1][1]
    assert (vm.rating_text(sd, top), vm.rating_text(sd, band), vm.rating_text(sd, bottom)) == {
        "pt": ("320 ou mais", "300-319", "abaixo de 140"),
        "ca": ("320 o més", "300-319", "menys de 140"),
    }[lang]
    match = Match(GAME, {"players": 1}, 7)
    rng = Rng(7)
    while not match.state.is_terminal():
        p = match.state.actors()[0]
        match.play(p, rng.choice(match.state.legal_moves(p)))
    end = vm.end_screen(match.state.observation(None), ["Ana"], 0, [0])
    said = vm.rating_text(sd, str(match.state.observation(None)["rating"]))
    opening = {"pt": "Classificação solo: {}.", "ca": "Valoració en solitari: {}."}[lang]
    assert end.rules.startswith(opening.format(said))


def test_a_bonus_is_named_in_the_language_spoken_when_drawn(lang: str) -> None:
    """A bonus's words are those of the language spoken when it is drawn: English after
    English, the language's again after it (and a translated "?" is the one asked)."""
    spoken = (vm.bonus(REROLL).label, vm.question("blue"), vm.question("pink"))
    i18n.use("en")
    english = (vm.bonus(REROLL).label, vm.question("blue"), vm.question("pink"))
    i18n.use(lang)
    assert english == ("reroll", "blue '?'", "pink '?'")
    assert all(s != e for s, e in zip(spoken, english, strict=True))
    assert (vm.bonus(REROLL).label, vm.question("blue"), vm.question("pink")) == spoken
