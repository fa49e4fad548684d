"""The bot interface, the random bot and a reusable budgeted search base.

A bot sees only an observation (what its seat may know) and the legal moves;
it has its own seeded generator and a budget. Thinking is a generator that
yields now and then, so a browser can run it in slices without freezing the
page; :meth:`Bot.choose` runs it to the end in one go.

>>> from optimus.core.registry import available_games, get_game
>>> from optimus.core.rng import Rng
>>> bot = RandomBot(get_game(available_games()[0]), 0, Rng(1), None)
>>> bot.choose({}, ["a", "b"]) in ("a", "b")
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from optimus.core.protocol import JSON, Game, State
from optimus.core.rng import Rng

Thinking = Generator[None, None, str]


@dataclass(frozen=True)
class Budget:
    """How much a bot may think per decision: milliseconds and/or iterations."""

    time_ms: float | None = None
    iterations: int | None = None

    def capped(self, time_ms: float) -> Budget:
        """This budget, thinking ``time_ms`` at the most; a budget that sets no limit
        (a bot that does not search) stays as it is.

        >>> Budget(iterations=60).capped(500), Budget(time_ms=300).capped(500)
        (Budget(time_ms=500, iterations=60), Budget(time_ms=300, iterations=None))
        """
        if self.time_ms is None and self.iterations is None:
            return self
        time_ms = time_ms if self.time_ms is None else min(self.time_ms, time_ms)
        return Budget(time_ms, self.iterations)

    def __post_init__(self) -> None:
        if self.time_ms is not None and self.time_ms <= 0:
            raise ValueError("time_ms must be positive")
        if self.iterations is not None and self.iterations <= 0:
            raise ValueError("iterations must be positive")


T = TypeVar("T")


def run_to_end(steps: Generator[None, None, T]) -> T:
    """Run a computation that yields now and then (thinking in slices) to its end; its result."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            result: T = stop.value
            return result


@dataclass(frozen=True)
class Appraisal:
    """A bot's values of the moves of one decision, the coach's view of it
    (:mod:`optimus.core.review`): ``values`` holds at least the move asked about and
    ``best``, the move the bot would play; higher is better, in the bot's own points
    (expected final score, or margin over the others where it plays for that).

    >>> a = Appraisal({"a": 10.0, "b": 7.5}, "a")
    >>> a.loss("b"), a.loss("a")
    (2.5, 0.0)
    """

    values: Mapping[str, float]
    best: str

    def loss(self, move: str) -> float:
        """The points ``move`` gives away against the best move (never below 0)."""
        if move == self.best:
            return 0.0
        return max(0.0, self.values[self.best] - self.values[move])


Appraising = Generator[None, None, Appraisal]


class Bot:
    """Base class of bots. Subclasses implement :meth:`think`.

    Constructor arguments: the game, the bot's seat, its own generator and
    a budget (``None``: the bot's default).
    """

    level: ClassVar[str] = "bot"
    default_budget: ClassVar[Budget] = Budget()

    def __init__(self, game: Game, player: int, rng: Rng, budget: Budget | None = None) -> None:
        self.game = game
        self.player = player
        self.rng = rng
        self.budget = budget or self.default_budget

    def think(self, observation: Mapping[str, JSON], legal_moves: list[str]) -> Thinking:
        """Yield ``None`` to pause now and then; return the chosen move."""
        raise NotImplementedError
        yield  # pragma: no cover  (makes this a generator)

    def warm(self, observation: Mapping[str, JSON]) -> None:
        """Load now what this seat's first decision from ``observation`` would load (a value
        network's weights), so that it does not land in a person's wait; nothing by
        default."""

    def rebuild(self, observation: Mapping[str, JSON], rng: Rng | None = None) -> Any:
        """A game state this seat's observation shows
        (:meth:`~optimus.core.protocol.Game.state_from_observation`), what it hides drawn
        from ``rng`` (the bot's own generator by default)."""
        return self.game.state_from_observation(observation, self.player, rng or self.rng)

    def limits(self, fallback: int | None = None) -> tuple[int | None, float | None]:
        """The budget as ``(iterations, deadline)``, the deadline a :func:`time.perf_counter`
        time from now; a budget that sets neither gets ``fallback`` iterations (None: the
        default budget's)."""
        limit = self.budget.iterations
        deadline = None
        if self.budget.time_ms is not None:
            deadline = time.perf_counter() + self.budget.time_ms / 1000
        if limit is None and deadline is None:
            limit = self.default_budget.iterations if fallback is None else fallback
        return limit, deadline

    def appraise(
        self, observation: Mapping[str, JSON], legal_moves: list[str], move: str
    ) -> Appraising:
        """Yield ``None`` now and then; return this bot's :class:`Appraisal` of the decision
        (``move``: the one played, valued whatever the bot thinks of it). Only the bots
        the coach reads implement it (a :class:`StateBot` through
        :meth:`StateBot.appraise_state`)."""
        raise NotImplementedError(f"the {self.level} bot cannot appraise a decision")
        yield  # pragma: no cover

    def choose(self, observation: Mapping[str, JSON], legal_moves: list[str]) -> str:
        """Think to the end and return the move."""
        if not legal_moves:
            raise ValueError("a bot was asked to move with no legal moves")
        return run_to_end(self.think(observation, legal_moves))


class RandomBot(Bot):
    """Picks a legal move uniformly at random."""

    level = "random"

    def think(self, observation: Mapping[str, JSON], legal_moves: list[str]) -> Thinking:
        return self.rng.choice(legal_moves)
        yield  # pragma: no cover


class StateBot(Bot):
    """A bot that decides from the state it rebuilds from its observation.

    It plays the only legal move when there is one; otherwise it thinks with
    :meth:`decide` on the game's state for its observation (:meth:`Bot.rebuild`).
    """

    def think(self, observation: Mapping[str, JSON], legal_moves: list[str]) -> Thinking:
        if len(legal_moves) == 1:
            return legal_moves[0]
        return (yield from self.decide(self.rebuild(observation), legal_moves))

    def decide(self, state: Any, legal_moves: list[str]) -> Thinking:
        """Yield ``None`` now and then; return the move to play in ``state`` (two legal
        moves or more)."""
        raise NotImplementedError
        yield  # pragma: no cover

    def appraise(
        self, observation: Mapping[str, JSON], legal_moves: list[str], move: str
    ) -> Appraising:
        if len(legal_moves) == 1:
            return Appraisal({move: 0.0}, move)
        return (yield from self.appraise_state(self.rebuild(observation), legal_moves, move))

    def appraise_state(self, state: Any, legal_moves: list[str], move: str) -> Appraising:
        """:meth:`Bot.appraise` on the state rebuilt from the observation (two legal moves
        or more): a level the coach reads overrides it."""
        raise NotImplementedError(f"the {self.level} bot cannot appraise a decision")
        yield  # pragma: no cover


class ChoiceBot(StateBot):
    """A :class:`StateBot` that decides at once: each level gives :meth:`choice`."""

    def decide(self, state: Any, legal_moves: list[str]) -> Thinking:
        return self.choice(state, legal_moves)
        yield  # pragma: no cover

    def choice(self, state: Any, legal_moves: list[str]) -> str:
        """The move to play in ``state`` (two legal moves or more)."""
        raise NotImplementedError


def sample_chance(state: State, rng: Rng) -> None:
    """Apply one chance event sampled with ``rng``."""
    state.apply_chance(rng.pick(state.chance_outcomes()))


class SearchBot(Bot):
    """Budgeted flat Monte Carlo search with UCB1 at the root.

    Each iteration rebuilds a full state from the observation (filling hidden
    information by sampling), applies one candidate move, and plays the game
    out with :meth:`policy` (random by default) up to :attr:`depth`
    decisions, then scores it with :meth:`evaluate`. Games subclass it and
    override ``policy``/``evaluate``/``candidates`` to make it strong.
    """

    level = "search"
    default_budget = Budget(time_ms=200)
    exploration: ClassVar[float] = 1.0
    depth: ClassVar[int | None] = None
    """Decisions to simulate after the candidate move (``None``: to the end)."""
    redeterminize: ClassVar[bool] = True
    """Sample hidden information anew each iteration (False: build it once)."""

    def candidates(self, observation: Mapping[str, JSON], legal_moves: list[str]) -> list[str]:
        """The root moves worth searching (all by default)."""
        return legal_moves

    def policy(self, state: State, player: int, legal_moves: list[str]) -> str:
        """The playout policy."""
        return self.rng.choice(legal_moves)

    def evaluate(self, state: State) -> float:
        """Value of a (possibly unfinished) state for this bot: own score minus best other."""
        scores = state.scores()
        mine = scores[self.player]
        others = [s for i, s in enumerate(scores) if i != self.player]
        return mine - max(others) if others else mine

    def simulate(self, state: State) -> float:
        steps = 0
        while not state.is_terminal():
            if state.is_chance():
                sample_chance(state, self.rng)
                continue
            if self.depth is not None and steps >= self.depth:
                break
            for p in state.actors():
                legal = state.legal_moves(p)
                state.apply_move(p, self.policy(state, p, legal))
                steps += 1
                if state.is_chance() or state.is_terminal():
                    break
        return self.evaluate(state)

    def think(self, observation: Mapping[str, JSON], legal_moves: list[str]) -> Thinking:
        moves = self.candidates(observation, legal_moves) or legal_moves
        if len(moves) == 1:
            return moves[0]
        visits = [0] * len(moves)
        totals = [0.0] * len(moves)
        limit, deadline = self.limits(1000)
        base: State | None = None
        done = 0
        while (limit is None or done < limit) and (
            deadline is None or time.perf_counter() < deadline or done < len(moves)
        ):
            if done < len(moves):
                k = done
            else:
                log_n = math.log(done)
                spread = max(
                    1e-9,
                    max(totals[i] / visits[i] for i in range(len(moves)))
                    - min(totals[i] / visits[i] for i in range(len(moves))),
                )
                k = max(
                    range(len(moves)),
                    key=lambda i: (
                        totals[i] / visits[i]
                        + self.exploration * spread * math.sqrt(log_n / visits[i])
                    ),
                )
            if base is None or self.redeterminize:
                base = self.rebuild(observation)
            state = base.clone() if not self.redeterminize else base
            state.apply_move(self.player, moves[k])
            totals[k] += self.simulate(state)
            visits[k] += 1
            done += 1
            yield None
        best = max(range(len(moves)), key=lambda i: (totals[i] / visits[i], visits[i]))
        return moves[best]
