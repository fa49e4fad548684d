"""Every game described in optimus.games conforms to the rules protocol, and its
description agrees with its rules (the site reads the description before the
rules are loaded)."""

from __future__ import annotations

import importlib

import pytest

from optimus.core.arena import play_game
from optimus.core.bots import Budget
from optimus.core.conformance import check_random_game, check_replays, random_match
from optimus.core.registry import available_games, get_game
from optimus.games import GAMES, link_text, listed

IDS = sorted(GAMES)


def test_the_registry_holds_exactly_the_described_games() -> None:
    assert available_games() == IDS
    shown = [info.id for info in listed()]
    assert shown and shown == [g for g in GAMES if GAMES[g].listed]  # in the landing's order


@pytest.mark.parametrize("game_id", IDS)
def test_the_description_agrees_with_the_rules(game_id: str) -> None:
    info = GAMES[game_id]
    game = get_game(game_id)
    assert game.name == info.id
    assert game.title == info.title
    assert (game.min_players, game.max_players) == info.players
    assert info.first_players in info.player_counts
    assert set(info.levels) <= set(game.bot_levels()), "the form offers a level no bot has"
    assert info.default_level in info.levels
    # Every game is laid out alike: its rules, its view data, its bots (if any) in
    # optimus/<id>/, its board in web/<id>_view.py (checked by the browser tests).
    package = f"optimus.{info.id}"
    for role in ("game", "view"):
        importlib.import_module(f"{package}.{role}")
    assert game.bots in ("", f"{package}.bots")


@pytest.mark.parametrize("game_id", IDS)
def test_the_declared_options_are_the_rules_own(game_id: str) -> None:
    """Each option's default and every value a link may name start a game, and the
    rules' defaults are the description's."""
    info = GAMES[game_id]
    game = get_game(game_id)
    for option in info.options:
        assert game.default_options[option.key] == option.default
        assert option.default in option.allowed()
        assert len(option.said) in (0, len(option.allowed()))
        for value in option.allowed():
            read = option.read_link(link_text(value))
            if read is not None:  # what a link (and so a replay or "Copy link") carries
                state = game.new_state(game.normalize_options({option.key: read}))
                assert not state.is_terminal()
    if info.daily is not None:
        made = info.daily_deal(12345)
        assert made is not None
        bots, options = made
        assert set(bots) <= set(info.levels) and info.players[0] <= 1 + len(bots)
        game.new_state(game.normalize_options({"players": 1 + len(bots), **options}))


@pytest.mark.parametrize("game_id", IDS)
def test_every_player_count_plays_random_games_by_the_protocol(game_id: str) -> None:
    info = GAMES[game_id]
    game = get_game(game_id)
    for players in info.player_counts:
        check_random_game(game, {"players": players}, seed=players, deep=False)
        check_replays(random_match(game, {"players": players}, seed=100 + players))


@pytest.mark.parametrize("game_id", IDS)
def test_every_offered_bot_level_finishes_a_game(game_id: str) -> None:
    info = GAMES[game_id]
    game = get_game(game_id)
    players = max(info.players[0], min(2, info.players[1]))
    for level in info.levels:
        scores, _, times = play_game(
            game, [level] * players, 0, 7, {"players": players}, Budget(iterations=2)
        )
        assert len(scores) == players and all(times), level


def test_a_description_derives_where_its_game_is() -> None:
    info = next(iter(GAMES.values()))._replace(id="chess")
    assert info.rules == "optimus.chess.game:ChessGame"
    assert info.view == "optimus_web.chess_view:ChessView"
    assert info.archive_files() == ("optimus/chess/", "optimus_web/chess_view.py")
