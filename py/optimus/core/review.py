"""The coach's review of a finished game: every decision of the seats asked for,
valued by the game's strongest bot.

The game's description says which bot rates and how the points lost are graded
(:class:`optimus.games.Coach`). At each decision of a reviewed seat with two legal
moves or more, that bot appraises the position the seat saw
(:meth:`~optimus.core.bots.Bot.appraise`: the value of the move played and of the
move it would play, in its own points); the difference is the decision's *loss*.
Grades: *best* (nothing lost), *good*, *inaccuracy*, *mistake*, *blunder*, by the
game's steps. A seat's *accuracy* is its mean loss and its share of best decisions.

A review reads the record and never changes it; each decision's appraisal has its
own generator (from the record's seed and the event's index), so a review gives
the same figures on any machine and in any order. :meth:`Review.run` thinks in
slices (it yields ``None`` now and then, with :attr:`Review.done` of
:attr:`Review.total` decisions appraised), so the page can run it in idle time and
leave it at any step.

>>> from optimus.core.arena import play_record
>>> from optimus.core.registry import get_game
>>> game = get_game("optimus2")
>>> record = play_record(game, ["easy"], 3, {"players": 1})
>>> review = Review(game, record, [0])
>>> review.finish() is review and review.done == review.total > 10
True
>>> seat = review.accuracy()[0]
>>> seat.decisions == review.total, seat.mean_loss > 0, 0 < seat.best_share < 1
(True, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from optimus.core.arena import resolve_bot
from optimus.core.bots import Bot, Budget, run_to_end
from optimus.core.protocol import (
    BotFactory,
    Game,
    State,
)
from optimus.core.record import Record, apply_event
from optimus.core.rng import Rng, derive_seed

if TYPE_CHECKING:
    from optimus.games import Coach

GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
"""A decision's grades, best first."""


def grade(loss: float, steps: Sequence[float]) -> str:
    """The grade of a decision that lost ``loss`` points, by a game's ``steps``: the most
    a *best* (a move the coach cannot tell from its own), a *good*, an *inaccuracy* and a
    *mistake* may lose; more is a *blunder*.

    >>> [grade(x, (0, 1, 3, 8)) for x in (0, 0.5, 2, 8, 8.5)]
    ['best', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    for name, most in zip(GRADES, steps, strict=False):
        if loss <= most + 1e-9:
            return name
    return GRADES[-1]


@dataclass(frozen=True)
class Decision:
    """One reviewed decision."""

    event: int
    """Its index in the record's events (the position before it: ``replay(record, event)``)."""
    seat: int
    move: str
    best: str
    """The move the coach would have played."""
    value: float
    """The coach's value of the move played."""
    best_value: float
    loss: float
    grade: str


@dataclass(frozen=True)
class SeatReview:
    """A seat's accuracy over the game."""

    seat: int
    decisions: int
    mean_loss: float
    best_share: float
    """The share of its decisions graded *best*."""


@dataclass
class Review:
    """The review of ``record``'s decisions by the seats ``seats`` (see the module)."""

    game: Game
    record: Record
    seats: Sequence[int]
    budget: Budget | None = None
    """The coach's budget (None: its level's default, with no clock)."""
    decisions: list[Decision] = field(default_factory=list)
    """The decisions appraised so far, in the game's order."""
    done: int = 0
    total: int = 0
    coach: Coach = field(init=False)
    level: BotFactory = field(init=False)

    def __post_init__(self) -> None:
        from optimus.games import GAMES

        coach = GAMES[self.game.name].coach
        if coach is None:
            raise ValueError(f"{self.game.title} has no coach")
        self.coach = coach
        self.level = resolve_bot(self.game, coach.level)
        self.total = len(self.to_review(self.start()))

    def start(self) -> State:
        return self.game.new_state(self.game.normalize_options(self.record.options))

    def to_review(self, state: State) -> list[int]:
        """The events that are decisions to review (a seat asked for, two moves or more)."""
        out = []
        for i, (who, what) in enumerate(self.record.events):
            if isinstance(who, int) and who in self.seats and len(state.legal_moves(who)) > 1:
                out.append(i)
            apply_event(state, i, who, what)
        return out

    def run(self) -> Generator[None, None, Review]:
        """Appraise every decision, yielding now and then; the review when done."""
        self.decisions, self.done = [], 0
        budget = self.budget or self.default_budget()
        state = self.start()
        for i, (who, what) in enumerate(self.record.events):
            if isinstance(who, int) and who in self.seats:
                legal = state.legal_moves(who)
                if len(legal) > 1:
                    rng = Rng(derive_seed(self.record.seed, "review", i))
                    judge = self.level(self.game, who, rng, budget)
                    got = yield from judge.appraise(state.observation(who), legal, what)
                    loss = got.loss(what)
                    self.decisions.append(
                        Decision(
                            i,
                            who,
                            what,
                            got.best,
                            got.values[what],
                            got.values[got.best],
                            loss,
                            grade(loss, self.coach.steps),
                        )
                    )
                    self.done += 1
                    yield None
            apply_event(state, i, who, what)
        return self

    def default_budget(self) -> Budget:
        """The coach level's default budget without its clock (the same on any machine)."""
        return self.coach_budget(self.game)

    @staticmethod
    def coach_budget(game: Game) -> Budget:
        """Game ``game``'s coach's default budget without its clock."""
        from optimus.games import GAMES

        coach = GAMES[game.name].coach
        level = resolve_bot(game, coach.level) if coach else Bot
        default: Budget = getattr(level, "default_budget", Bot.default_budget)
        return Budget(iterations=default.iterations) if default.iterations else default

    def finish(self) -> Review:
        """:meth:`run` to the end at once."""
        return run_to_end(self.run())

    def accuracy(self) -> list[SeatReview]:
        """Each reviewed seat's accuracy, by seat."""
        return [seat_accuracy(self.decisions, seat) for seat in sorted(set(self.seats))]


def seat_accuracy(decisions: Sequence[Decision], seat: int) -> SeatReview:
    """Seat ``seat``'s accuracy over ``decisions`` (a seat with none: 0 decisions, 0 lost).

    >>> d = [Decision(0, 1, "a", "a", 5, 5, 0, "best"), Decision(2, 1, "b", "a", 3, 5, 2, "good")]
    >>> seat_accuracy(d, 1)
    SeatReview(seat=1, decisions=2, mean_loss=1.0, best_share=0.5)
    """
    mine = [d for d in decisions if d.seat == seat]
    if not mine:
        return SeatReview(seat, 0, 0.0, 0.0)
    n = len(mine)
    best = sum(d.grade == GRADES[0] for d in mine)
    return SeatReview(seat, n, math.fsum(d.loss for d in mine) / n, best / n)
