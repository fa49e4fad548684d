"""What every game shares: the protocol, seeded randomness, records, bots, arena."""

from optimus.core.bots import Bot, Budget, RandomBot, SearchBot
from optimus.core.protocol import (
    JSON,
    Game,
    GameError,
    IllegalMove,
    OptionError,
    Outcome,
    RecordError,
    State,
    play,
)
from optimus.core.record import Match, Record, replay
from optimus.core.registry import get_game
from optimus.core.rng import Rng, derive_seed

__all__ = [
    "JSON",
    "Bot",
    "Budget",
    "Game",
    "GameError",
    "IllegalMove",
    "Match",
    "OptionError",
    "Outcome",
    "RandomBot",
    "Record",
    "RecordError",
    "Rng",
    "SearchBot",
    "State",
    "derive_seed",
    "get_game",
    "play",
    "replay",
]
