"""What a new player trips on (issue 26), in CPython: the set-up says what the table
does (the names of the players, who starts)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from optimus.core.registry import get_game
from optimus.fileiras import view as fileiras_view
from optimus.games import listed
from optimus.ui import table as ui
from optimus.ui.session import TableSession
from tests.webstub import page_module


@pytest.fixture
def setup(monkeypatch: pytest.MonkeyPatch) -> Any:
    return page_module(monkeypatch, "setup")


def chosen_names(fields: str, count: int) -> list[str]:
    """The set-up's words for each other seat's choice (the selected option)."""
    names = []
    for i in range(count - 1):
        select = re.search(rf'<select name="bot{i}".*?</select>', fields, re.S)
        assert select is not None
        chosen = re.search(r"<option [^>]*selected[^>]*>([^<]*)</option>", select.group(0))
        assert chosen is not None
        names.append(chosen.group(1))
    return names


@pytest.mark.parametrize("place", ["1", "2", "3"])
def test_the_set_up_names_each_bot_as_the_table_panels_and_log_do(setup: Any, place: str) -> None:
    levels = ["hard", "easy"]
    settings = {"players": 3, "seat": place, "bot0": "hard", "bot1": "easy"}
    fields = setup.seat_fields(settings, {2: "2", 3: "3"}, ["easy", "normal", "hard"])
    said = chosen_names(fields, 3)
    assert said == ["Hard bot 1", "Easy bot 2"]
    seats = ui.seat_order(levels, place, seed=3)
    names = ui.seat_names(seats)
    assert [n for n, kind in zip(names, seats, strict=True) if kind != "human"] == said
    # The log and the panels of a game at that table say the same names.
    session = TableSession(get_game("fileiras"), {}, 3, seats)
    you = seats.index("human")
    while session.bot_to_act() is not None or session.human_to_act() is not None:
        seat = session.next_actor()
        assert seat is not None
        if seat == you:
            session.play(seat, session.state.legal_moves(seat)[0])
        else:
            session.think(10_000)
        if len(session.record.events) > 12:
            break
    view = fileiras_view.table(session.state.observation(you), names, you)
    assert [p.name for p in view.panels if not p.you] == said
    log = " ".join(view.log)
    assert all(name in log for name in said), log


def starter(game_id: str, session: TableSession) -> int:
    """Who starts the game (the rules' own record of it)."""
    state: Any = session.state
    if game_id == "fileiras":
        return int(state.first_player)
    if game_id == "optimus2":
        return int(state.first)
    return int(state.active)  # Optimus: the active player of the first roll


@pytest.mark.parametrize("game_id", [info.id for info in listed()])
def test_the_set_up_says_who_starts_and_it_happens(setup: Any, game_id: str) -> None:
    from optimus.games import GAMES

    info = GAMES[game_id]
    players = {n: str(n) for n in info.player_counts}
    bots = {f"bot{i}": "easy" for i in range(info.players[1] - 1)}
    settings = {"players": 3, "seat": "1", **bots}
    fields = setup.seat_fields(settings, players, ["easy"], None, info.drawn_start)
    claims_you_start = "first (you start)" in fields
    says_drawn = ui.DRAWN_START in fields
    assert claims_you_start != says_drawn
    starters = set()
    for seed in range(12):
        seats = ui.seat_order(["easy", "easy"], "1", seed)
        session = TableSession(get_game(game_id), {}, seed, seats)
        starters.add(starter(game_id, session))
    if claims_you_start:
        assert starters == {0}  # you sit first, and you start
    else:
        assert starters == {0, 1, 2}  # drawn: anyone may start
