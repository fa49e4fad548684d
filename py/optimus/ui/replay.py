"""A finished game watched again, step by step: pure, so it is tested in CPython.

A replay is made from a kept record and who sat where (:func:`make`); it knows
the steps worth showing (those where a player acts, and the end: never chance's
own) and, when the game's description names what counts its rounds
(:attr:`optimus.games.GameInfo.step_mark`), where each round starts.
:func:`session_at` gives the session at a step, for the page to draw: nobody
acts in it (every seat a bot that is never asked).

>>> from optimus.core.registry import get_game
>>> from optimus.games import GAMES
>>> from optimus.ui.session import TableSession
>>> info = next(i for i in GAMES.values() if i.players[0] == 1)
>>> game = get_game(info.id)
>>> played = TableSession(game, {}, 5, [info.levels[0]])
>>> while not played.state.is_terminal():
...     _ = played.think(slice_ms=50)
>>> shown = make(game, info, 0, {**played.record.to_dict(), "seats": ["human"]})
>>> shown.step == shown.total == len(played.record.events)
True
>>> first = session_at(game, shown.at(0))
>>> first.state.is_terminal(), len(first.record.events) == shown.stops[0]
(False, True)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from optimus.core.protocol import Game, apply_chance_checked, play
from optimus.core.record import CHANCE, Record
from optimus.core.record import replay as replay_record
from optimus.games import GameInfo
from optimus.i18n import _
from optimus.ui.records import rounds
from optimus.ui.session import TableSession, fallback_level


@dataclass(frozen=True)
class Replay:
    """A finished game watched again: its record, seats and the step shown."""

    index: int
    """Its place among the records' kept games."""
    record: Record
    seats: tuple[str, ...]
    """Who sat where (``human``, ``human:<name>``, bot levels), as the game was played."""
    stops: tuple[int, ...]
    """The steps shown: those where a player acts, and the end (not chance's own)."""
    rounds: tuple[tuple[int, int], ...] = ()
    """(round, its first step) for the "Jump to" list, in order."""
    step: int = 0
    """The number of events shown."""

    @property
    def total(self) -> int:
        """The number of events of the whole game."""
        return len(self.record.events)

    def snap(self, step: int, back: bool = False) -> int:
        """The step shown for ``step``: the next stop (``back``: the previous one)."""
        if back:
            return max((k for k in self.stops if k <= step), default=self.stops[0])
        return min((k for k in self.stops if k >= step), default=self.stops[-1])

    def at(self, step: int | None) -> Replay:
        """The same replay at ``step`` (snapped to a stop; None: the end)."""
        return replace(self, step=self.total if step is None else self.snap(step))

    def by(self, delta: int) -> Replay:
        """The replay ``delta`` stops on (back when negative)."""
        return replace(self, step=self.snap(self.step + delta, back=delta < 0))

    @property
    def position(self) -> tuple[int, int]:
        """Which step is shown, counted from 1, and how many there are (the stops)."""
        return self.stops.index(self.snap(self.step, back=True)) + 1, len(self.stops)

    @property
    def round(self) -> int | None:
        """The round the step shown belongs to (None when the game counts no rounds)."""
        return max(((k, n) for n, k in self.rounds if k <= self.step), default=(0, None))[1]

    def said(self) -> str:
        """Which step of which round is shown, for the status line.

        >>> from optimus.core.record import Record
        >>> record = Record("g", {}, 1, [(0, "m")] * 7)
        >>> shown = Replay(0, record, ("human",), (0, 2, 5, 7), ((1, 0), (2, 5)))
        >>> shown.at(2).said(), shown.at(None).said()
        ('Replay, round 1 of 2: step 2 of 4.', 'Replay, round 2 of 2: step 4 of 4 (the end).')
        >>> replace(shown, rounds=()).at(0).said()
        'Replay: step 1 of 4.'
        """
        k, n = self.position
        rnd = self.round
        if rnd is None:
            if k == n:
                return _("Replay: step {k} of {n} (the end).", k=k, n=n)
            return _("Replay: step {k} of {n}.", k=k, n=n)
        rounds = len(self.rounds)
        if k == n:
            return _(
                "Replay, round {round} of {rounds}: step {k} of {n} (the end).",
                round=rnd,
                rounds=rounds,
                k=k,
                n=n,
            )
        return _(
            "Replay, round {round} of {rounds}: step {k} of {n}.",
            round=rnd,
            rounds=rounds,
            k=k,
            n=n,
        )


def make(game: Game, info: GameInfo, index: int, data: Any) -> Replay:
    """The replay of a kept game (``data``: its record with ``seats``), shown at its end.

    Raises ValueError (or the record's :class:`~optimus.core.protocol.RecordError`, a
    :class:`~optimus.core.protocol.GameError`) when it is not a finished game of ``game``.
    """
    record = Record.from_dict(data)
    seats = data.get("seats") if isinstance(data, Mapping) else None
    if not (isinstance(seats, list) and all(isinstance(s, str) for s in seats)):
        raise ValueError("seats")  # not shown
    if len(seats) != record.options.get("players"):
        raise ValueError("players")  # not shown
    state = replay_record(record, upto=0, game=game)
    marks: list[int | None] = []
    stops: list[int] = []
    for k in range(len(record.events) + 1):
        if k:  # one event more (checked as it is applied)
            who, what = record.events[k - 1]
            if who == CHANCE:
                apply_chance_checked(state, what)
            else:
                play(state, int(who), what)
        if state.is_chance() and not state.is_terminal():
            marks.append(None)
            continue
        stops.append(k)
        marks.append(info.step(state.observation(None)))
    if not stops or not state.is_terminal():
        raise ValueError("not a finished game")  # not shown
    starts = tuple(rounds(marks))
    return Replay(index, record, tuple(seats), tuple(stops), starts, stops[-1])


def session_at(game: Game, shown: Replay) -> TableSession:
    """The game as it was at ``shown``'s step, seated by bots that are never asked
    (nobody acts in a replay)."""
    record = shown.record
    part = Record(record.game, dict(record.options), record.seed, record.events[: shown.step])
    data = part.to_dict()
    data["seats"] = [fallback_level(game)] * len(shown.seats)
    return TableSession.load(game, json.dumps(data))
