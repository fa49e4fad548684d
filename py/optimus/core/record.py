"""Game records and the runner that produces them.

A record is the options, the seed and every event in order: moves as
``[seat, move]`` and chance results as ``["*", outcome]``. It is JSON with a
format version, and replaying it rebuilds the identical state -- which gives
save/resume, undo, share links and bug reports.

>>> from optimus.core.registry import available_games, get_game
>>> game = get_game(available_games()[0])
>>> m = Match(game, {"players": game.max_players}, seed=3)
>>> while not m.state.is_terminal():
...     p = m.state.actors()[0]
...     m.play(p, m.state.legal_moves(p)[0])
>>> again = replay(Record.from_json(m.record.to_json()))
>>> again.observation(None) == m.state.observation(None)
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from optimus.core import jsontext
from optimus.core.protocol import (
    JSON,
    Game,
    GameError,
    RecordError,
    State,
    apply_chance_checked,
    play,
)
from optimus.core.rng import Rng, derive_seed

FORMAT = 1
CHANCE = "*"

Event = tuple[int | str, str]


@dataclass
class Record:
    game: str
    options: dict[str, JSON]
    seed: int
    events: list[Event] = field(default_factory=list)
    format: int = FORMAT

    def to_dict(self) -> dict[str, JSON]:
        return {
            "format": self.format,
            "game": self.game,
            "options": dict(self.options),
            "seed": self.seed,
            "events": [[who, what] for who, what in self.events],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @staticmethod
    def from_dict(data: Any) -> Record:
        """Read a record, refusing anything malformed with a clear reason."""
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(
                f"unsupported record format {data.get('format')!r} (expected {FORMAT})"
            )
        game, options, seed, events = (data.get(k) for k in ("game", "options", "seed", "events"))
        if not isinstance(game, str):
            raise RecordError("the record names no game")
        if not isinstance(options, dict):
            raise RecordError("the record's options must be an object")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError("the record's seed must be a whole number")
        if not isinstance(events, list):
            raise RecordError("the record's events must be a list")
        parsed: list[Event] = []
        for i, ev in enumerate(events):
            ok = (
                isinstance(ev, list)
                and len(ev) == 2
                and isinstance(ev[1], str)
                and (ev[0] == CHANCE or (isinstance(ev[0], int) and not isinstance(ev[0], bool)))
            )
            if not ok:
                raise RecordError(f"event {i} is malformed: {ev!r}")
            parsed.append((ev[0], ev[1]))
        return Record(game=game, options=dict(options), seed=seed, events=parsed)

    @staticmethod
    def from_json(text: str) -> Record:
        try:
            data = jsontext.loads(text)
        except (ValueError, TypeError) as exc:
            raise RecordError(f"the record is not valid JSON: {exc}") from None
        return Record.from_dict(data)


class Match:
    """Runs one game: applies checked moves, samples chance, keeps the record.

    The chance generator is derived from the seed and never reaches the
    state, so observations cannot reveal future draws.
    """

    def __init__(
        self,
        game: Game,
        options: Mapping[str, JSON],
        seed: int,
        *,
        auto_chance: bool = True,
    ) -> None:
        self.game = game
        self.options = game.normalize_options(options)
        self.seed = seed
        self.rng = Rng(derive_seed(seed, "chance"))
        self.state: State = game.new_state(self.options)
        self.record = Record(game=game.name, options=dict(self.options), seed=seed)
        self.auto_chance = auto_chance
        if auto_chance:
            self.resolve_chance()

    def resolve_chance(self) -> list[str]:
        """Sample and apply chance events until a player must act; return them."""
        happened = []
        while self.state.is_chance() and not self.state.is_terminal():
            outcome = self.rng.pick(self.state.chance_outcomes())
            self.state.apply_chance(outcome)
            self.record.events.append((CHANCE, outcome))
            happened.append(outcome)
        return happened

    def play(self, player: int, move: str) -> None:
        """Apply a move (checked), then any chance events that follow."""
        play(self.state, player, move)
        self.record.events.append((player, move))
        if self.auto_chance:
            self.resolve_chance()


def replay(record: Record, upto: int | None = None, game: Game | None = None) -> State:
    """Rebuild the state after the first ``upto`` events (all by default).

    The game is looked up by the record's name unless given. Every event is
    checked; a corrupt record raises :class:`RecordError`.
    """
    from optimus.core.registry import get_game

    try:
        if game is None:
            game = get_game(record.game)
        elif game.name != record.game:
            raise RecordError(f"this is a record of {record.game!r}, not {game.name!r}")
        state = game.new_state(game.normalize_options(record.options))
    except GameError as exc:
        raise RecordError(str(exc)) from None
    events = record.events if upto is None else record.events[:upto]
    for i, (who, what) in enumerate(events):
        apply_event(state, i, who, what)
    return state


def apply_event(state: State, i: int, who: int | str, what: str) -> None:
    """Apply a record's event ``i`` (a chance outcome or a player's move), checked; one
    that does not fit raises :class:`RecordError` naming it."""
    try:
        if who == CHANCE:
            apply_chance_checked(state, what)
        else:
            assert isinstance(who, int)
            play(state, who, what)
    except GameError as exc:
        raise RecordError(f"event {i} ({who}, {what!r}) cannot be replayed: {exc}") from None
