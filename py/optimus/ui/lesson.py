"""Learn to play: a short guided game on a fixed deal, one step at a time (docs/coach.md).

A game's lesson is data in its own package (``optimus/<id>/view_lesson.py``, declared by
``GameInfo.lesson``): a fixed seed, the bots beside the person (none: alone) and
6-10 :class:`Step`\\ s.  Each step points at one part of the table (a *target*: a name
the table knows, web/lesson.py) and says in a sentence or two what to do and why;
then the person does it on the real table.  A step is one of three kinds:

- *read*: nothing to do but read it, then "Next" (the status line, the score, Undo);
- *tap*: tap the part pointed at (a die, a box: a step of a move not made yet);
- *move*: play one of its ``moves`` (the first is the lesson's own line: the pure
  test replays it on the seed and checks every step's moves are legal there).

:class:`Run` is the runner's logic, without a page: which step is shown, what a tap
does (:meth:`Run.judge`: go on, or be explained and stopped), and going back with
Undo.  The last step says the rest is the person's; the game then goes on unguided.
A lesson game is practice: never counted in the records or for a daily challenge.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from optimus.core.protocol import Game
from optimus.games import LEARN
from optimus.i18n import N_
from optimus.ui.session import TableSession

__all__ = ["LEARN", "Lesson", "Run", "Step", "Verdict", "replay"]
NEXT = N_("Next")
"""A read step's button."""
PLAY_ON = N_("Play on")
"""The last step's button: the rest of the game is the person's."""
SKIP = N_("Skip")
"""Leave the lesson (the game goes on, unguided)."""
STEP_OF = N_("Step {n} of {total}")
READ_FIRST = N_("Read this first, then press Next.")
"""A tap on the table during a read step."""
NOT_THAT = N_("Not that one for now: tap what the bubble points at.")
"""A tap on another lit thing during a tap or move step (a step's own ``wrong`` says more)."""
NOT_LIT = N_("That isn't lit: it cannot be used now. Lit things are the ones you can tap.")
"""A tap on something that is not lit (it would do nothing)."""
WAIT_BOT = N_("Wait for the bot's move: the bubble comes back on your turn.")


class Step(NamedTuple):
    """One step of a lesson."""

    target: str
    """What it points at: ``"status"``, ``"panels"``, ``"score"``, ``"undo"``, ``"log"``,
    ``"move"`` (the element of the step's move) or a name of the game's own table,
    ``"name"`` or ``"name:argument"`` (``"die:yellow"``, ``"box:G1"``)."""
    text: str
    """What to do and why (English, marked with ``N_``; in the game's catalog)."""
    moves: tuple[str, ...] = ()
    """The moves that complete it (the first: the lesson's line); none: a read or tap step."""
    tap: bool = False
    """Whether tapping the target completes it (a die, a box: a step of a move)."""
    wrong: str = ""
    """What a tap on another lit thing is told (English, ``N_``); "": :data:`NOT_THAT`."""

    @property
    def kind(self) -> str:
        """``"move"``, ``"tap"`` or ``"read"``.

        >>> Step("status", "Hi").kind, Step("die:y", "Tap", tap=True).kind
        ('read', 'tap')
        >>> Step("move", "Draw", ("draw",)).kind
        'move'
        """
        if self.moves:
            return "move"
        return "tap" if self.tap else "read"


class Lesson(NamedTuple):
    """A game's guided game: its deal and its steps."""

    seed: int
    """The fixed deal."""
    steps: tuple[Step, ...]
    """In order; the last one says the rest of the game is the person's (a read step)."""
    bots: tuple[str, ...] = ()
    """The bot levels beside the person, who sits first (none: alone)."""
    options: Mapping[str, object] = {}
    """The game's own options (those not named: their defaults)."""

    @property
    def seats(self) -> list[str]:
        """The table's seats: the person first, then the bots."""
        return ["human", *self.bots]


class Verdict(NamedTuple):
    """What a tap on the table does during a lesson."""

    go: bool
    """Whether the tap goes on to the table (else it is stopped)."""
    said: str = ""
    """Why it was stopped (English, marked with ``N_``), "" when it goes on."""


class Mark(NamedTuple):
    """A move step done: where to go back to when Undo takes its move back."""

    back_to: int
    """The step shown again."""
    events: int
    """The record's length before the move."""


class Run:
    """One lesson in progress: the step shown and what a tap does.

    >>> lesson = Lesson(1, (
    ...     Step("status", "Read"), Step("die:y", "Tap it", tap=True),
    ...     Step("move", "Mark", ("y1 H2",)), Step("status", "Yours now")))
    >>> run = Run(lesson)
    >>> run.judge(None, on_target=False, lit=True).said == READ_FIRST
    True
    >>> run.next(); run.index
    1
    >>> run.judge(None, on_target=False, lit=True).go  # another die: explained
    False
    >>> run.judge(None, on_target=True, lit=True).go, run.index
    (True, 2)
    >>> run.judge("pass", on_target=False, lit=True).go, run.index
    (False, 2)
    >>> run.judge(None, on_target=False, lit=True).go  # a box: a step of the move
    True
    >>> run.judge("y1 H2", on_target=True, lit=True, events=5).go, run.index
    (True, 3)
    >>> run.undone(5); run.index  # Undo took the move back: its steps again
    1
    """

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.index = 0
        """The step shown (``len(steps)``: the lesson is over, the game goes on)."""
        self.marks: list[Mark] = []
        self._since = 0
        """The first step after the last move step done (where Undo comes back to)."""

    @property
    def step(self) -> Step | None:
        """The step shown, None once the lesson is over."""
        steps = self.lesson.steps
        return steps[self.index] if self.index < len(steps) else None

    @property
    def over(self) -> bool:
        return self.step is None

    @property
    def last(self) -> bool:
        """Whether the step shown is the last (the rest is the person's)."""
        return self.index == len(self.lesson.steps) - 1

    def next(self) -> None:
        """A read step's "Next" (the last one's "Play on": the lesson is over)."""
        if self.step is not None and self.step.kind == "read":
            self.index += 1

    def skip(self) -> None:
        """Leave the lesson: the game goes on, unguided."""
        self.index = len(self.lesson.steps)

    def judge(self, move: str | None, on_target: bool, lit: bool, events: int = 0) -> Verdict:
        """A tap on the table: ``move`` the move it plays (None: not a move), ``on_target``
        whether it is on the part pointed at, ``lit`` whether it does anything at all
        (a move, or a step of one); ``events`` the record's length now.  A tap that
        completes the step moves the lesson on."""
        step = self.step
        if step is None:
            return Verdict(True)
        if not lit:
            return Verdict(False, NOT_LIT)
        kind = step.kind
        if kind == "read":
            return Verdict(False, READ_FIRST)
        if kind == "tap":
            if on_target and move is None:
                self.index += 1
                return Verdict(True)
            return Verdict(False, step.wrong or NOT_THAT)
        if move is None:  # a step of the move (a die chosen, a box pencilled)
            return Verdict(True)
        if move in step.moves:
            steps = self.lesson.steps
            back = next(i for i in range(self._since, self.index + 1) if steps[i].kind != "read")
            self.marks.append(Mark(back, events))
            self.index += 1
            self._since = self.index
            return Verdict(True)
        return Verdict(False, step.wrong or NOT_THAT)

    def undone(self, events: int) -> None:
        """The record is ``events`` long now: a move step whose move Undo took back is
        shown again (with the steps that led to it)."""
        while self.marks and events <= self.marks[-1].events and not self.over:
            mark = self.marks.pop()
            self.index = self._since = mark.back_to


def replay(lesson: Lesson, game: Game) -> list[tuple[int, list[str]]]:
    """Play ``lesson``'s line on its seed (the bots answering as at the table): for each
    move step, its index and the legal moves of the person at that point.  Raises
    ``ValueError`` when a step's first move is not legal there (the pure tests call it)."""
    session = TableSession(game, dict(lesson.options), lesson.seed, lesson.seats)
    found = []
    for i, step in enumerate(lesson.steps):
        if not step.moves:
            continue
        while session.bot_to_act() is not None:
            session.think(1000.0)
        seat = session.human_to_act()
        if seat is None:
            raise ValueError(f"step {i + 1}: the game is over")
        legal = list(session.state.legal_moves(seat))
        found.append((i, legal))
        wanted = [m for m in step.moves if m not in legal]
        if wanted:
            raise ValueError(f"step {i + 1}: {wanted} not legal; legal: {legal}")
        session.play(seat, step.moves[0])
    return found
