"""Optimus in Brazilian Portuguese and Catalan: whole games read with no English left.

Bots play whole games (solo and several players, several seeds); after every move
the person's table is read as the page shows it (status, log, dice, sheets,
panels, the marking bar, the end screen and its breakdown) through the view model
and the board's HTML, and none of the Optimus catalog's English may be left in it.
Only the ``optimus`` catalog is checked: the shared table's words are another's.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

from optimus import i18n
from optimus.core import Match, Rng
from optimus.core.protocol import IllegalMove
from optimus.core.record import CHANCE
from optimus.optimus import view as vm
from optimus.optimus.game import OptimusGame, OptimusState
from optimus.optimus.sheet import box_index, box_name
from optimus.optimus.words import box_colour
from optimus.ui import table as ui
from sitebuild.i18n import capitals_after_colons, english_left, english_phrases
from tests.webstub import page_module, readable

GAME = OptimusGame()
LANGS = ("pt", "ca")


@pytest.fixture
def board(monkeypatch: pytest.MonkeyPatch) -> Any:
    """web/optimus_view.py, as ``optimus_web.optimus_view`` (tests/webstub.py)."""
    return page_module(monkeypatch, "optimus_view")


def shown(markup: str) -> str:
    """What a page shows of some HTML: its text, and its accessible names and titles."""
    return readable(markup)


# -- the person's table, as the page builds it -------------------------------------


def table(board: Any, m: Match, you: int, pencil: vm.Pencil, names: list[str]) -> vm.Table:
    """What ``OptimusView.view`` builds, for a match in progress."""
    state = m.state
    assert isinstance(state, OptimusState)
    obs = state.observation(you)
    if obs["players"] == 1:
        moves = [str(what) for who, what in m.record.events if who != CHANCE]
        obs = vm.with_solo_choices(obs, moves)
    actor = state.actors()[0] if state.actors() else None
    legal = list(state.legal_moves(you)) if actor == you else []
    return vm.table(
        obs, names, you, actor, legal, pencil, lambda move: state.explain_illegal(you, move)
    )


def read(board: Any, v: vm.Table) -> str:
    """Everything of the table a player can read: status, board, panels, log."""
    view_cls = board.OptimusView
    me = SimpleNamespace(_minis={})
    me.mini_sheet = lambda obs, seat: view_cls.mini_sheet(me, obs, seat)
    parts = [v.status.text, shown(view_cls.board_html(me, v)), *v.log]
    for p in v.panels:
        parts += [p.name, p.last, shown(view_cls.panel_summary(me, v, p))]
        parts.append(shown(view_cls.panel_detail(me, v, p)))
    return "\n".join(parts)


def steps(move: str, faces: list[str]) -> Iterator[vm.Pencil]:
    """The pencil after each click the person makes for ``move``, and one wrong box."""
    p = vm.Pencil()
    yield p
    if move == "pass":
        return
    cf, nf, boxes = vm.parse(move)
    p = vm.choose_die(p, "colour", cf)
    yield p
    p = vm.choose_die(p, "number", nf)
    yield p
    if cf == "x":
        p = vm.name_joker(p, "colour", faces[min(boxes)])
        yield p
    if nf == "?":
        p = vm.name_joker(p, "number", str(len(boxes)))
        yield p
    wrong = next(i for i in range(len(faces)) if i not in boxes and faces[i] != faces[min(boxes)])
    yield vm.toggle_box(p, wrong)  # a box no marking of that colour contains
    if len(boxes) > 1:
        # all the boxes but one, and a wrong one: the engine's reason
        yield vm.toggle_box(replace(p, boxes=tuple(sorted(boxes))[:-1]), wrong)
    for box in sorted(boxes):
        p = vm.toggle_box(p, box)
        yield p


def play(board: Any, players: int, seed: int, levels: list[str]) -> Iterator[str]:
    """A whole game by bots, seat 0 the person's: the text of the table after every
    click and move, then the end screen."""
    factories = GAME.bot_levels()
    m = Match(GAME, {"players": players, "bonuses": seed % 2 == 0}, seed)
    bots = [factories[levels[p]](GAME, p, Rng(seed * 10 + p), None) for p in range(players)]
    names = ui.seat_names(["human", *levels[1:players]])
    you = 0
    while not m.state.is_terminal():
        state = m.state
        assert isinstance(state, OptimusState)
        p = state.actors()[0]
        move = bots[p].choose(state.observation(p), state.legal_moves(p))
        if p == you:
            faces = vm.sheet_faces(state.observation(you))
            for pencil in steps(move, faces):
                yield read(board, table(board, m, you, pencil, names))
        else:
            yield read(board, table(board, m, you, vm.Pencil(), names))
        m.play(p, move)
    final = table(board, m, you, vm.Pencil(), names)
    yield read(board, final)
    obs = m.state.observation(None)
    if players == 1:
        moves = [str(what) for who, what in m.record.events if who != CHANCE]
        obs = vm.with_solo_choices(obs, moves)
    end = vm.end_screen(obs, names, you, m.state.outcome().winners)
    lines = [end.headline, end.rules]
    for f in end.players:
        lines.append(f.name)
        for line in f.lines:
            lines += [line.text, line.value, line.detail]
    yield "\n".join(lines)


def setup_text(board: Any, seats: int) -> str:
    """The set-up screen's and rules drawer's words of the game."""
    view_cls = board.OptimusView
    me = view_cls.__new__(view_cls)  # unmounted: only what the set-up words read
    me.form = SimpleNamespace(values={"sheet": "harbour", "bonuses": True, "speed": "normal"})
    me.choices = {"sheet": [*vm.sheet_choices(), "random:17"]}
    me.seat_fields = lambda: ""
    parts = [i18n._(view_cls.lead), shown(me.setup_fields())]
    parts += [me.player_label(n) for n in range(1, 7)]
    parts += [shown(i18n._(rule)) for rule in view_cls.rules]
    for players in (1, seats):
        for bonuses in (True, False):
            record = SimpleNamespace(options={"sheet": "random:17", "bonuses": bonuses})
            session = SimpleNamespace(record=record, seats=["human"] * players)
            parts.append(me.options_text(session))
    return "\n".join(parts)


GAMES = [(1, 3, ["easy"]), (1, 8, ["normal"]), (2, 5, ["easy", "easy"]), (3, 2, ["easy"] * 3)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("players", "seed", "levels"), GAMES)
def test_whole_games_read_with_no_english_left(
    speak: Any, board: Any, lang: str, players: int, seed: int, levels: list[str]
) -> None:
    phrases = english_phrases(lang, ["optimus"])
    assert len(phrases) > 100
    assert english_left(setup_text(board, 3), phrases)  # in English, the check finds English
    speak(lang)
    lines: set[str] = set()  # every line read, once (the sheets repeat from move to move)
    for text in [setup_text(board, max(players, 2)), *play(board, players, seed, levels)]:
        lines.update(text.splitlines())
    everything = "\n".join(sorted(lines))
    left = english_left(everything, phrases)
    assert not left, f"English in {lang}: {left}"
    names = ui.seat_names(["human", *levels[1:players]])
    assert capitals_after_colons(everything, names) == []  # "…, your turn: choose a die"
    said = {"pt": ("Rodada 1: ", "Colunas:"), "ca": ("Ronda 1: ", "Columnes:")}
    assert all(words in everything for words in said[lang])


def test_the_sentences_read_as_written_in_each_language(speak: Any) -> None:
    names = ["Você", "Bot fácil 2"]
    sheet = ["r"] * 105
    roll = {"event": "roll", "roll": 4, "active": 1, "dice": "gxr 3?1"}
    mine = {"event": "choice", "player": 0, "move": "x? H1 H2"}
    other = {"event": "choice", "player": 1, "move": "r2 H1 H2"}
    done = {"event": "colour", "player": 1, "colour": "red"}
    speak("pt")
    assert vm.describe(roll, names, sheet, 0) == (
        "Rodada 4: Bot fácil 2 rolou verde, coringa de cor, vermelho; 3, coringa de número, 1."
    )
    assert vm.describe(mine, names, sheet, 0) == (
        "Você marcou 2 casas vermelhas (H1 H2) com o coringa de cor como vermelho e o "
        "coringa de número como 2, gastando 2 “!”."
    )
    assert vm.describe(done, names, sheet, 0) == "Bot fácil 2 completou todas as casas do vermelho."
    assert vm.feedback(vm.Pencil(), ["pass", "r1 H1"], sheet, str).text == (
        "Escolha um dado de cor e um dado de número (ou passe)."
    )
    assert vm.sheet_label("random:12") == "Folha aleatória #12"
    speak("ca")
    names = ["Tu", "Bot fàcil 2"]
    assert vm.describe(roll, names, sheet, 0) == (
        "Ronda 4: Bot fàcil 2 ha llançat verd, comodí de color, vermell; 3, comodí numèric, 1."
    )
    # The person's own sentences are the second person's, not a name before a verb.
    assert vm.describe(mine, names, sheet, 0) == (
        "Has marcat 2 caselles vermelles (H1 H2) amb el comodí de color com a vermell i el "
        "comodí numèric com a 2, gastant 2 “!”."
    )
    assert vm.describe(other, names, sheet, 0) == (
        "Bot fàcil 2 ha marcat 2 caselles vermelles (H1 H2) amb el dau vermell i el dau 2."
    )
    assert vm.describe({"event": "choice", "player": 0, "move": "pass"}, names, sheet, 0) == (
        "Has passat."
    )
    assert vm.sheet_label("harbour") == "Port"


def test_counts_take_their_plural_in_each_language(speak: Any) -> None:
    speak("pt")
    half = vm.Pencil(colour="g", number="3", boxes=(box_index("H1"),))
    legal = ["g3 H1 H2 H3"]
    fb = vm.feedback(half, legal, ["g"] * 105, str)
    assert fb.text == "1 de 3 marcadas: faltam mais 2 casas."
    fb = vm.feedback(vm.toggle_box(half, box_index("H2")), legal, ["g"] * 105, str)
    assert fb.text == "2 de 3 marcadas: falta mais 1 casa."
    speak("ca")
    fb = vm.feedback(vm.toggle_box(half, box_index("H2")), legal, ["g"] * 105, str)
    assert fb.text == "2 de 3 marcades: falta 1 casella més."
    fb = vm.feedback(vm.Pencil(colour="g", number="1"), ["g1 H1"], ["g"] * 105, str)
    assert (
        fb.text == "Marca 1 casella verda: les caselles il·luminades poden començar una marcació."
    )


def _marking(seed: int) -> tuple[Match, int, str]:
    """A match at the person's first plain marking of two boxes or more: (match, seat, move)."""
    m = Match(GAME, {"players": 2}, seed)
    rng = Rng(seed)
    while True:
        state = m.state
        assert isinstance(state, OptimusState)
        p = state.actors()[0]
        legal = state.legal_moves(p)
        plain = [mv for mv in legal if mv != "pass" and mv[0] != "x" and mv[1] in "2345"]
        if plain:
            return m, p, plain[0]
        m.play(p, rng.choice(legal))


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_move_gives_its_reason_in_the_language(speak: Any, lang: str) -> None:
    m, p, move = _marking(4)
    state = m.state
    assert isinstance(state, OptimusState)
    cf, nf, boxes = vm.parse(move)
    faces = state.sheet.colours
    other = next(
        i
        for i in range(105)
        if faces[i] != faces[min(boxes)] and not state.marks[p] >> i & 1 and i not in boxes
    )
    wrong = f"{cf}{nf} " + " ".join(box_name(i) for i in sorted([*sorted(boxes)[:-1], other]))
    speak(lang)
    with pytest.raises(IllegalMove) as refused:
        m.play(p, wrong)
    reason = refused.value.reason
    colour = box_colour(vm.sheet_faces(state.observation(p))[other])
    if lang == "pt":
        assert reason.startswith(f"a casa {box_name(other)} é {colour}, não ")
    else:
        assert reason.startswith(f"la casella {box_name(other)} és {colour}, no ")
    assert not english_left(reason, english_phrases(lang, ["optimus"]))
    # Taken twice, a box is refused in the language too.
    twice = f"{cf}{nf} " + " ".join([box_name(min(boxes))] * int(nf))
    with pytest.raises(IllegalMove) as refused:
        m.play(p, twice)
    said = {"pt": "uma casa aparece duas vezes", "ca": "una casella hi surt dues vegades"}
    assert refused.value.reason == said[lang]
    i18n.use("en")
    with pytest.raises(IllegalMove, match="is listed twice"):
        m.play(p, twice)


def test_english_stays_english() -> None:
    assert i18n.language() == "en"
    assert vm.sheet_label("orchard") == "Orchard"
    fb = vm.feedback(vm.Pencil(colour="r", number="2"), ["r2 H1 H2"], ["r"] * 105, str)
    assert fb.text == "Mark 2 red boxes: the lit boxes can start a marking."
