"""Where games are found by name (imported lazily, so loading one is cheap)."""

from __future__ import annotations

import importlib

from optimus.core.protocol import Game, GameError

# name -> "module:Class"; a game appears here once its rules exist.
GAMES: dict[str, str] = {
    "fileiras": "optimus.rows.game:FileirasGame",
    "optimus": "optimus.grid.game:OptimusGame",
    "tiny": "optimus.tiny:TinyGame",
}

# Games of the product whose rules are still being written.
PLANNED = {"optimus2": "Optimus 2"}

_cache: dict[str, Game] = {}


def available_games() -> list[str]:
    return sorted(GAMES)


def get_game(name: str) -> Game:
    """The game registered as ``name``; a clear :class:`GameError` otherwise.

    >>> get_game("tiny").name
    'tiny'
    """
    if name in _cache:
        return _cache[name]
    if name not in GAMES:
        if name in PLANNED:
            raise GameError(f"{PLANNED[name]} is not playable yet")
        raise GameError(f"unknown game {name!r} (known: {', '.join(available_games())})")
    module, _, cls = GAMES[name].partition(":")
    try:
        game: Game = getattr(importlib.import_module(module), cls)()
    except ModuleNotFoundError as exc:
        raise GameError(f"game {name!r} is not installed ({exc})") from None
    _cache[name] = game
    return game
