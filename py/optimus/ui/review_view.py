"""The review of a finished game as the page shows it: pure, so it is tested in CPython.

The page reviews the seats a record marks as people (:func:`reviewed_seats`) with the
game's coach (:class:`optimus.core.review.Review`), in slices of the page's idle
time (:class:`ReviewRun`: the same slices the page gives its bots); then it shows
what this module makes of the decisions: the accuracy (:class:`Summary`), a chart
of the coach's value of the position after each decision, the rounds marked along
its axis (:func:`value_chart`), and the costliest decisions (:func:`costliest`).
The accuracy kept with the game's record is :meth:`Summary.kept`; the rules drawer's
"How the review grades a decision" is :func:`grade_steps`, read from the game's
:class:`~optimus.games.Coach`.

>>> from optimus.core.arena import play_record
>>> from optimus.core.registry import get_game
>>> game = get_game("optimus2")
>>> record = play_record(game, ["easy"], 3, {"players": 1})
>>> run = ReviewRun(game, record, [0])
>>> while run.step(25.0):
...     pass
>>> run.done == run.total > 10, run.finished
(True, True)
>>> s = summary(run.review)
>>> s.decisions == run.total, sum(n for _, n in s.counts) == s.decisions
(True, True)
>>> [d.loss for d in costliest(run.review.decisions)] == sorted(
...     (d.loss for d in run.review.decisions), reverse=True)[:3]
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from optimus import i18n
from optimus.core.protocol import Game
from optimus.core.record import Record, apply_event
from optimus.core.review import GRADES, Decision, Review
from optimus.games import GAMES, Coach, GameInfo
from optimus.i18n import N_, _, ngettext

from .seats import is_person
from .stats import Box, _points, _scale
from .words import Words

GRADE_NAMES: Mapping[str, str] = Words(
    {
        "best": N_("Best"),
        "good": N_("Good"),
        "inaccuracy": N_("Inaccuracy"),
        "mistake": N_("Mistake"),
        "blunder": N_("Blunder"),
    }
)
"""A decision's grade in words (:data:`optimus.core.review.GRADES`), in the language
spoken when read."""

COSTLIEST = 3
"""How many of the costliest decisions the review lists."""
ROUND_ROOM = 16.0
"""The least room (SVG units) between two rounds marked along the chart: a game of many
rolls (Optimus) has only some marked."""
TICK_ROOM = 12.0
"""The least room (SVG units) between zero and the lowest or highest value marked."""


def reviewed_seats(seats: Sequence[str]) -> list[int]:
    """The seats a review rates: those the record marks as people.

    >>> reviewed_seats(["hard", "human", "human:Ana", "easy"])
    [1, 2]
    """
    return [i for i, kind in enumerate(seats) if is_person(kind)]


def reviewable(info: GameInfo, seats: Sequence[str]) -> bool:
    """Whether a game of ``info`` seated by ``seats`` can be reviewed: the game has a
    coach and a person sat.

    >>> reviewable(GAMES["fileiras"], ["human", "hard"]), reviewable(GAMES["tiny"], ["human"])
    (True, False)
    """
    return info.coach is not None and bool(reviewed_seats(seats))


class ReviewRun:
    """A review run in slices (the page's idle time): :meth:`step` thinks for about
    ``slice_ms`` and says whether there is more to do; :meth:`cancel` stops it at any
    time (the record is never changed)."""

    def __init__(
        self, game: Game, record: Record, seats: Sequence[int], review: Review | None = None
    ) -> None:
        self.review = review or Review(game, record, list(seats))
        self._steps: Generator[None, None, Review] | None = self.review.run()
        self.finished = False
        self.cancelled = False

    @property
    def done(self) -> int:
        return self.review.done

    @property
    def total(self) -> int:
        return self.review.total

    def step(self, slice_ms: float = 25.0) -> bool:
        """Think for about ``slice_ms`` (at least one step); True while there is more."""
        steps = self._steps
        if steps is None:
            return False
        until = time.perf_counter() + slice_ms / 1000
        try:
            next(steps)
            while time.perf_counter() < until:
                next(steps)
        except StopIteration:
            self._steps = None
            self.finished = True
            return False
        return True

    def cancel(self) -> None:
        """Stop here: nothing more is appraised."""
        if self._steps is not None:
            self._steps.close()
        self._steps = None
        self.cancelled = not self.finished

    @property
    def percent(self) -> int:
        """The share of the decisions appraised, in whole per cent."""
        return 100 if not self.total else math.floor(100 * self.done / self.total)


@dataclass(frozen=True)
class Summary:
    """The accuracy of the reviewed seats together: mean loss, share of best decisions,
    how many decisions of each grade, and the coach's level."""

    decisions: int
    mean_loss: float
    best_share: float
    counts: tuple[tuple[str, int], ...]
    """``(grade, how many)`` for every grade, best first."""
    coach: str

    def kept(self) -> dict[str, Any]:
        """What the records keep of it (:meth:`optimus.ui.records.Records.keep_accuracy`).

        >>> Summary(4, 0.123456, 0.75, (), "hard").kept()
        {'decisions': 4, 'mean_loss': 0.1235, 'best_share': 0.75, 'coach': 'hard'}
        """
        return {
            "decisions": self.decisions,
            "mean_loss": round(self.mean_loss, 4),
            "best_share": round(self.best_share, 4),
            "coach": self.coach,
        }


def summary(review: Review) -> Summary:
    """The accuracy of ``review``'s seats together (one person: that person's)."""
    decisions = review.decisions
    n = len(decisions)
    counts = tuple((g, sum(d.grade == g for d in decisions)) for g in GRADES)
    mean = math.fsum(d.loss for d in decisions) / n if n else 0.0
    best = counts[0][1] / n if n else 0.0
    return Summary(n, mean, best, counts, review.coach.level)


def costliest(decisions: Sequence[Decision], n: int = COSTLIEST) -> list[Decision]:
    """The ``n`` decisions that lost the most (the earliest first among equals), none
    that lost nothing.

    >>> d = [Decision(i, 0, "a", "b", 0, loss, loss, "good") for i, loss in
    ...      enumerate([1.0, 0.0, 3.0, 1.0, 2.0])]
    >>> [x.event for x in costliest(d)]
    [2, 4, 0]
    """
    lost = [d for d in decisions if d.loss > 0]
    return sorted(lost, key=lambda d: (-d.loss, d.event))[:n]


def decision_rounds(game: Game, record: Record, events: Sequence[int]) -> dict[int, int | None]:
    """The round (or roll) each of ``events`` was decided in, as a replay's "Jump to"
    counts them (:attr:`optimus.games.GameInfo.step_mark`)."""
    info = GAMES[game.name]
    wanted = set(events)
    out: dict[int, int | None] = {}
    state = game.new_state(game.normalize_options(record.options))
    for i, (who, what) in enumerate(record.events):
        if i in wanted:
            out[i] = info.step(state.observation(None))
        if i >= max(wanted, default=-1):
            break
        apply_event(state, i, who, what)
    return out


@dataclass(frozen=True)
class ValueChart:
    """The coach's value after each decision, placed in a box (SVG user units)."""

    played: str
    """The ``points`` of the polyline of the moves played's values."""
    best: str
    """...and of the best moves' values."""
    dots: tuple[tuple[float, float, str], ...]
    """Each decision's point and grade."""
    y_ticks: tuple[tuple[float, float], ...]
    """Values marked on the left axis: ``(value, y)``."""
    rounds: tuple[tuple[int, float], ...]
    """Where each round starts along the bottom: ``(round, x)``."""


def value_chart(
    decisions: Sequence[Decision], rounds: Mapping[int, int | None], box: Box | None = None
) -> ValueChart:
    """The value of each decision's move played (and of the best move) in ``box``, the
    first decision left; the rounds (``rounds[event]``) marked where each starts, at
    least :data:`ROUND_ROOM` apart.

    >>> d = [Decision(e, 0, "a", "b", v, v + 1, 1, "good") for e, v in ((0, 0), (5, 4), (9, 9))]
    >>> c = value_chart(d, {0: 1, 5: 1, 9: 2}, Box(100, 50, 0, 0, 0, 0))
    >>> c.played, c.rounds
    ('0.0,50.0 50.0,30.0 100.0,5.0', ((1, 0.0), (2, 100.0)))
    >>> c.y_ticks
    ((0, 50.0), (10, 0.0))
    >>> many = [Decision(e, 0, "a", "b", e % 3, 2, 1, "good") for e in range(40)]
    >>> shown = value_chart(many, {e: e for e in range(40)}, Box(100, 50, 0, 0, 0, 0)).rounds
    >>> shown[:3], all(b[1] - a[1] >= ROUND_ROOM for a, b in zip(shown, shown[1:]))
    (((0, 0.0), (7, 17.9), (14, 35.9)), True)
    """
    if not decisions:
        return ValueChart("", "", (), (), ())
    x0, y0, w, h = (box or Box()).inner
    values = [d.value for d in decisions] + [d.best_value for d in decisions]
    low, high = math.floor(min(values)), math.ceil(max(values))
    yo, yk = _scale(low, high, y0 + h, y0)
    n = len(decisions)
    xo, xk = _scale(0, n - 1, x0, x0 + w) if n > 1 else (x0 + w / 2, 0.0)
    played = [(xo + i * xk, yo + d.value * yk) for i, d in enumerate(decisions)]
    best = [(xo + i * xk, yo + d.best_value * yk) for i, d in enumerate(decisions)]
    dots = tuple(
        (round(x, 1), round(y, 1), d.grade) for (x, y), d in zip(played, decisions, strict=True)
    )
    ticks = [low, high]
    if low < 0 < high and min(-low, high) * abs(yk) >= TICK_ROOM:  # zero, where it fits
        ticks.insert(1, 0)
    y_ticks = tuple((v, round(yo + v * yk, 1)) for v in ticks)
    marks: list[tuple[int, float]] = []
    last: int | None = None
    for i, d in enumerate(decisions):
        r = rounds.get(d.event)
        x = round(xo + i * xk, 1)
        if r is not None and r != last and (not marks or x - marks[-1][1] >= ROUND_ROOM):
            marks.append((r, x))
        last = r if r is not None else last
    return ValueChart(_points(played), _points(best), dots, y_ticks, tuple(marks))


def value_words() -> str:
    """What the chart's values are: the coach's value of the position after each
    decision, in its own points (Optimus 2 alone: the expected final score; with others
    and in Fileiras: the expected margin; docs/coach.md)."""
    return _("The coach's value of your position after each of your decisions")


def points(value: float) -> str:
    """A loss or a value in points, in the language spoken (two decimals under 1).

    >>> points(0.135), points(3.0), points(12.44)
    ('0.14', '3.0', '12.4')
    """
    return i18n.number(value, 2 if abs(value) < 1 else 1)


def grade_steps(coach: Coach) -> list[tuple[str, str]]:
    """Each grade and the points a decision lost to earn it, in words, read from the
    game's :class:`~optimus.games.Coach` (the rules drawer's table).

    >>> [w for _, w in grade_steps(Coach((0.5, 2.0, 5.0, 12.0)))]
    ['0.50 points or less', 'up to 2.0 points', 'up to 5.0 points', 'up to 12.0 points', \
'more than 12.0 points']
    """
    out = []
    for i, grade in enumerate(GRADES):
        if i == 0:
            said = _("{points} points or less", points=points(coach.steps[0]))
        elif i < len(coach.steps):
            said = _("up to {points} points", points=points(coach.steps[i]))
        else:
            said = _("more than {points} points", points=points(coach.steps[-1]))
        out.append((grade, said))
    return out


def summary_words(s: Summary) -> str:
    """The accuracy in one sentence.

    >>> summary_words(Summary(20, 1.25, 0.6, (), "hard"))
    'Mean loss: 1.2 points per decision; best moves: 60% of 20 decisions.'
    """
    return ngettext(
        "Mean loss: {loss} points per decision; best moves: {share}% of {n} decision.",
        "Mean loss: {loss} points per decision; best moves: {share}% of {n} decisions.",
        s.decisions,
        loss=points(s.mean_loss),
        share=i18n.number(round(100 * s.best_share)),
        n=i18n.number(s.decisions),
    )
