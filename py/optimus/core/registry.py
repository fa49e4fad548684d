"""Where games are found by name (imported lazily, so loading one is cheap).

The games are those described in :mod:`optimus.games`.
"""

from __future__ import annotations

import importlib

from optimus.core.protocol import Game, GameError
from optimus.games import GAMES

_cache: dict[str, Game] = {}


def available_games() -> list[str]:
    return sorted(GAMES)


def get_game(name: str) -> Game:
    """The game registered as ``name``; a clear :class:`GameError` otherwise.

    >>> all(get_game(name).name == name for name in GAMES)
    True
    """
    if name in _cache:
        return _cache[name]
    if name not in GAMES:
        raise GameError(f"unknown game {name!r} (known: {', '.join(available_games())})")
    module, _, cls = GAMES[name].rules.partition(":")
    try:
        game: Game = getattr(importlib.import_module(module), cls)()
    except ModuleNotFoundError as exc:
        raise GameError(f"game {name!r} is not installed ({exc})") from None
    _cache[name] = game
    return game
