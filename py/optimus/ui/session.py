"""A table in play: seats (human or bot), the match, and bots thinking in slices.

The DOM layer owns nothing but drawing and clicks: it asks the session whose
turn it is, hands it a human's move, or lets a bot think for a slice of a few
milliseconds and then yields to the browser, so the page never freezes.

>>> from optimus.tiny import TinyGame
>>> s = TableSession(TinyGame(), {"players": 2}, seed=1, seats=["random", "random"])
>>> while not s.state.is_terminal():
...     _ = s.think(slice_ms=5)
>>> s.state.is_terminal()
True
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence

from optimus.core.arena import resolve_bot
from optimus.core.bots import Bot, Budget, Thinking
from optimus.core.protocol import JSON, Game, GameError, RecordError, State
from optimus.core.record import Match, Record, replay
from optimus.core.rng import Rng, derive_seed

HUMAN = "human"


class TableSession:
    """One game at the table. ``seats[i]`` is ``"human"`` or a bot level."""

    def __init__(
        self,
        game: Game,
        options: Mapping[str, JSON],
        seed: int,
        seats: Sequence[str],
        budget: Budget | None = None,
    ) -> None:
        opts = dict(options)
        opts["players"] = len(seats)
        self.game = game
        self.seats = list(seats)
        self.match = Match(game, opts, seed)
        self.bots: dict[int, Bot] = {}
        for i, kind in enumerate(self.seats):
            if kind != HUMAN:
                factory = resolve_bot(game, kind)
                self.bots[i] = factory(game, i, Rng(derive_seed(seed, "bot", i)), budget)
        self._thinking: tuple[int, Thinking] | None = None

    @property
    def state(self) -> State:
        return self.match.state

    @property
    def record(self) -> Record:
        return self.match.record

    def next_actor(self) -> int | None:
        """The seat to act next (the first of simultaneous actors), or None at the end."""
        if self.state.is_terminal():
            return None
        actors = self.state.actors()
        humans = [a for a in actors if a not in self.bots]
        return humans[0] if humans else actors[0]

    def human_to_act(self) -> int | None:
        seat = self.next_actor()
        return seat if seat is not None and seat not in self.bots else None

    def bot_to_act(self) -> int | None:
        seat = self.next_actor()
        return seat if seat is not None and seat in self.bots else None

    def play(self, seat: int, move: str) -> None:
        """A human's move, checked (raises IllegalMove with the reason)."""
        if seat in self.bots:
            raise GameError(f"seat {seat} is played by a bot")
        self.match.play(seat, move)

    def think(self, slice_ms: float = 25.0) -> str | None:
        """Let the bot to act think for about ``slice_ms``; return its move once made.

        Returns None while the bot is still thinking (call again after
        yielding to the browser) or if no bot is to act.
        """
        seat = self.bot_to_act()
        if seat is None:
            self._thinking = None
            return None
        if self._thinking is None or self._thinking[0] != seat:
            obs = self.state.observation(seat)
            legal = self.state.legal_moves(seat)
            self._thinking = (seat, self.bots[seat].think(obs, legal))
        deadline = time.perf_counter() + slice_ms / 1000
        gen = self._thinking[1]
        while True:
            try:
                next(gen)
            except StopIteration as stop:
                move: str = stop.value
                self._thinking = None
                self.match.play(seat, move)
                return move
            if time.perf_counter() >= deadline:
                return None

    @property
    def is_thinking(self) -> bool:
        return self._thinking is not None

    def save(self) -> str:
        """The game so far as JSON: the record plus who sits where."""
        data = self.record.to_dict()
        data["seats"] = self.seats
        return json.dumps(data, separators=(",", ":"))

    @staticmethod
    def load(
        game: Game, text: str, budget: Budget | None = None, max_humans: int | None = None
    ) -> TableSession:
        """Resume a saved game; a corrupt save raises RecordError and changes nothing.

        ``max_humans`` refuses saves with more human seats than the table can
        seat (a page for one person would wait for ever on a second one).
        """
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as exc:
            raise RecordError(f"the saved game is not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise RecordError("the saved game is not a JSON object")
        record = Record.from_dict(data)
        seats = data.get("seats")
        if not (isinstance(seats, list) and all(isinstance(s, str) for s in seats)):
            raise RecordError("the saved game does not say who sits where")
        if len(seats) != record.options.get("players"):
            raise RecordError("the saved game's seats do not match its player count")
        humans = seats.count(HUMAN)
        if max_humans is not None and humans > max_humans:
            raise RecordError(
                f"the saved game has {humans} human seats; this table seats at most {max_humans}"
            )
        for kind in seats:
            if kind != HUMAN and kind not in game.bot_levels():
                raise RecordError(f"the saved game names an unknown bot {kind!r}")
        final = replay(record, game=game)
        session = TableSession(game, record.options, record.seed, seats, budget)
        session.match.state = final
        session.match.record = record
        session.match.rng = _rng_after(record)
        return session


def _rng_after(record: Record) -> Rng:
    """A chance generator for the rest of a resumed game.

    A fresh generator derived from the seed and the number of events keeps
    resumed games reproducible (the same save always continues the same way).
    """
    return Rng(derive_seed(record.seed, "chance", "resume", len(record.events)))
