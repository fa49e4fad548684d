"""One rule for people's names, wherever seats come from (issue 39, item 13): a link, the
set-up form and a save all use :func:`optimus.ui.seats.name_problem`, so no two panels
of a table say the same name."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from optimus import i18n
from optimus.core.protocol import RecordError
from optimus.games import GAMES
from optimus.tiny.game import TinyGame
from optimus.ui import seats as ui
from optimus.ui.deals import parse
from optimus.ui.session import TableSession
from sitebuild.i18n import install
from tests.webstub import page_module

LEVELS = ("easy", "normal", "hard")
FILEIRAS = GAMES["fileiras"]  # 2-5 players


def link_seats(players: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    parsed = parse(f"seed=9&players={players}", FILEIRAS, LEVELS)
    assert parsed.deal is not None
    return parsed.deal.seats, parsed.notices


def test_a_link_cannot_seat_two_people_of_one_name() -> None:
    seats, notices = link_seats("you,Ana,ana,hard")
    assert seats == ("human", "human:Ana", "hard")
    assert notices == ("The link seats two people called “ana”: the second was left out.",)


@pytest.mark.parametrize("name", ["You", "you", "Player 3", "Hard bot 1", "easy BOT 2"])
def test_a_link_cannot_give_a_person_a_name_the_table_gives(name: str) -> None:
    seats, notices = link_seats(f"you,{name},hard,Rui")
    assert seats == ("human", "hard", "human:Rui")
    assert len(notices) == 1 and "has a name the table gives its players" in notices[0]


def test_the_names_of_a_link_s_table_are_all_different() -> None:
    seats, _notices = link_seats("you,Player 3,human:,Ana")
    names = ui.seat_names(seats)
    assert len(set(names)) == len(names)


def test_a_name_the_table_gives_in_the_language_spoken_is_refused_too() -> None:
    install("pt")
    try:
        i18n.use("pt")
        assert ui.name_problem("Jogador 3") == "table"
        assert ui.name_problem("Você") == "table"
    finally:
        i18n.use("en")
    assert ui.name_problem("Player 3") == "table"


def save_of(seats: list[str]) -> str:
    s = TableSession(TinyGame(), {}, seed=5, seats=seats)
    return s.save()


@pytest.mark.parametrize(
    "seats",
    [
        ["human", "human:Ana", "human:ANA"],
        ["human", "human:You"],
        ["human", "human:Player 3", "human:"],
        ["human", "human:Random bot 1"],
        ["human", "human:Ana  Luísa"],  # untidy: a link or the form never writes it
    ],
)
def test_a_save_whose_people_break_the_rule_is_refused(seats: list[str]) -> None:
    text = json.dumps({**json.loads(save_of(["human", "random"])), "seats": seats})
    text = text.replace('"players": 2', f'"players": {len(seats)}')
    with pytest.raises(RecordError, match="names its people oddly"):
        TableSession.load(TinyGame(), text)


def test_a_save_of_well_named_people_resumes() -> None:
    seats = ["human", "human:Ana", "human:", "random"]
    assert TableSession.load(TinyGame(), save_of(seats)).seats == seats


def test_the_owners_name_is_left_out_when_another_person_has_it() -> None:
    assert ui.seat_names(["human", "human:Ana"], "ANA") == ["Player 1", "Ana"]
    assert ui.seat_names(["human", "human:Ana"], "Rui") == ["Rui", "Ana"]


class Names:
    """The names typed on the set-up form (``web/setup.People``'s ``get``)."""

    def __init__(self, **typed: str) -> None:
        self.typed = typed

    def get(self, key: str) -> str:
        return self.typed.get(key, "")


@pytest.fixture
def setup(monkeypatch: pytest.MonkeyPatch) -> Any:
    return page_module(monkeypatch, "setup")


FORM = {"players": 3, "bot0": "person", "bot1": "person", "seat": "1"}


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ({"you": "Ana", "bot0": "ana"}, "Two people are called “ana”"),
        ({"you": "You"}, "“You” is a name the table gives its players"),
        ({"bot0": "Player 3"}, "“Player 3” is a name the table gives its players"),
        ({"bot1": "Normal bot 1"}, "“Normal bot 1” is a name the table gives"),
        ({"bot1": "<b>"}, "“<b>” cannot be a name"),
    ],
)
def test_the_set_up_form_says_the_same_rule(setup: Any, typed: dict[str, str], said: str) -> None:
    problem = setup.people_problem(FORM, Names(**typed))
    assert problem is not None and problem.startswith(said)


def test_the_set_up_form_takes_different_names(setup: Any) -> None:
    assert setup.people_problem(FORM, Names(you="Ana", bot0="Rui", bot1="")) is None
    assert "optimus_web.setup" in sys.modules
