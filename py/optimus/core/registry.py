"""Where games are found by name (imported lazily, so loading one is cheap)."""

from __future__ import annotations

import importlib

from optimus.core.protocol import Game, GameError

# name -> "module:Class"; a game appears here once its rules exist.
GAMES: dict[str, str] = {
    "fileiras": "optimus.fileiras.game:FileirasGame",
    "optimus": "optimus.optimus.game:OptimusGame",
    "optimus2": "optimus.optimus2.game:Optimus2Game",
    "tiny": "optimus.tiny:TinyGame",
}

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
        raise GameError(f"unknown game {name!r} (known: {', '.join(available_games())})")
    module, _, cls = GAMES[name].partition(":")
    try:
        game: Game = getattr(importlib.import_module(module), cls)()
    except ModuleNotFoundError as exc:
        raise GameError(f"game {name!r} is not installed ({exc})") from None
    _cache[name] = game
    return game
