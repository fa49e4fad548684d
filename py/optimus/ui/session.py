"""A table in play: seats (human or bot), the match, and bots thinking in slices.

The DOM layer owns nothing but drawing and clicks: it asks the session whose
turn it is, hands it a human's move, or lets a bot think for a slice of a few
milliseconds and then yields to the browser, so the page never freezes.  A
player's own bot never runs here: its decisions are asked of the bot worker
(:mod:`optimus.ui.playerbots`, :mod:`optimus.core.botworker`).

>>> from optimus.tiny.game import TinyGame
>>> s = TableSession(TinyGame(), {"players": 2}, seed=1, seats=["random", "random"])
>>> while not s.state.is_terminal():
...     _ = s.think(slice_ms=5)
>>> s.state.is_terminal()
True
"""

from __future__ import annotations

import contextlib
import itertools
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from optimus.core import jsontext, userbots
from optimus.core.arena import resolve_bot
from optimus.core.bots import Bot, Budget, Thinking
from optimus.core.protocol import JSON, Game, GameError, RecordError, State
from optimus.core.record import CHANCE, Match, Record, replay
from optimus.core.rng import Rng, derive_seed
from optimus.i18n import N_
from optimus.ui.playerbots import FALLBACK, Note, PlayerBotSeats, resume_seats
from optimus.ui.playerbots import fallback_level as fallback_level  # named here too (web/)
from optimus.ui.seats import is_person

WAIT_MS = 800.0
"""What the bots' decisions between two of the people's share (wall time, from the
person's decision), by default ("Bots think: quickly"; "carefully" gives them more,
:data:`optimus.ui.table.THINKING`): each may think for half of what is left of it, between
:data:`FLOOR_MS` and :data:`DECISION_MS`, so a person waits about this long for a
round of bots however many decisions it holds."""
DECISION_MS = WAIT_MS / 2
"""The longest a built-in bot that searches thinks per decision at the table with
:data:`WAIT_MS` (half of it), on any device: its own budget, capped by this clock
(wall time from the decision's start, the page's turns between slices included).  A
fast device stops at the bot's own limit first; a slow one plays the best move found
by then."""
FLOOR_MS = 20.0
"""The least a searching bot's decision gets at the table when the wait is spent (its
search stops at this clock and plays its best move so far: ``docs/bots.md``)."""


def decision_ms(spent_ms: float, wait_ms: float = WAIT_MS) -> float:
    """The clock of a bot's decision when the bots before it in this wait took
    ``spent_ms`` of the ``wait_ms`` they share: half of what is left, at most half of
    the wait (:data:`DECISION_MS` for :data:`WAIT_MS`) and at least :data:`FLOOR_MS`.

    >>> decision_ms(0), decision_ms(400), decision_ms(790), decision_ms(5000)
    (400.0, 200.0, 20.0, 20.0)
    >>> decision_ms(0, 4000), decision_ms(3000, 4000)
    (2000.0, 500.0)
    """
    return min(wait_ms / 2, max(FLOOR_MS, (wait_ms - spent_ms) / 2))


NOTHING_YET = N_("Nothing to undo yet: you have not decided anything.")
"""Why Undo takes nothing back (:attr:`TakeBack.why`): no decision of the seat yet."""
ANOTHER_PERSON = N_("Nothing to undo: another person has played since your last decision.")
"""Why: another person's move came after the seat's last one (never taken back)."""
GAME_OVER = N_("Nothing to undo: the game is over.")
"""Why: the game is over."""
HANDING_OVER = N_("Undo is off while the device is handed over.")
"""Why, on the hand-over screen (:meth:`TableSession.handing_over`)."""
BECOMES_PRACTICE = N_(
    "Undo takes back your last decision and what was revealed after it (a card drawn, "
    "dice rolled). The game then becomes practice: it will not count in your records "
    "nor for a daily challenge."
)
"""What Undo asks first when it takes back a reveal in a game not yet practice."""
A_STEP = N_("Undo: take back the last step of your move")
"""What Undo takes back: a step of the move in progress (the page's own)."""
WITH_REVEALS = N_("Undo: take back your last decision and what was revealed after it (practice)")
WITH_ANSWERS = N_("Undo: take back your last decision and the bots' answers")
A_DECISION = N_("Undo: take back your last decision")
"""What Undo takes back: a decision, with the reveals or the bots' answers after it
(:meth:`TakeBack.words`)."""


@dataclass(frozen=True)
class TakeBack:
    """What Undo would take back for a seat (:meth:`TableSession.take_back`)."""

    events: int = 0
    """How many events of the record go, the seat's decision first (0: none)."""
    move: str = ""
    """The seat's decision taken back."""
    reveals: bool = False
    """Whether a chance event is among them (a card drawn, dice rolled): taking them
    back makes the game practice."""
    answers: int = 0
    """How many other seats' (bots') moves go with it."""
    why: str = ""
    """When nothing can be taken back, why (English, a catalog key: said with ``_``)."""

    def words(self) -> str:
        """What Undo says it takes back, or why nothing (English, a catalog key).

        >>> TakeBack(3, "pass", reveals=True, answers=1).words() == WITH_REVEALS
        True
        >>> TakeBack(2, "pass", answers=1).words() == WITH_ANSWERS
        True
        >>> TakeBack(why=NOTHING_YET).words()
        'Nothing to undo yet: you have not decided anything.'
        """
        if not self.events:
            return self.why
        if self.reveals:
            return WITH_REVEALS
        return WITH_ANSWERS if self.answers else A_DECISION

    def asks(self, practice: bool) -> bool:
        """Whether Undo asks first: it takes back something revealed, in a game that is
        not practice yet (the game becomes practice)."""
        return self.reveals and not practice


Context = tuple[int, int, frozenset[int], tuple[str, ...]]
"""Where a bot decided while a person decided (``TableSession._context``)."""
MAX_SAVE = 500_000
"""The longest save read (characters): a long game's save is about 20 KB."""


def table_budget(
    factory: object, budget: Budget | None, time_ms: float = DECISION_MS
) -> Budget | None:
    """The budget a built-in bot gets at the table: ``budget`` when the table sets
    one, otherwise the bot's own default capped at ``time_ms`` (before each decision:
    :func:`decision_ms`; while a person decides: :data:`DECISION_MS`).

    >>> class Deep:  # a bot that would think for 5 s if let
    ...     default_budget = Budget(time_ms=5000)
    >>> table_budget(Deep, None).time_ms, table_budget(Deep, Budget(iterations=2))
    (400.0, Budget(time_ms=None, iterations=2))
    """
    if budget is not None:
        return budget
    default = getattr(factory, "default_budget", None)
    return default.capped(time_ms) if isinstance(default, Budget) else None


class TableSession(PlayerBotSeats):
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
        self.notes: list[Note] = []
        """What the table should say (drained by the page: see :meth:`take_notes`)."""
        self.remote: dict[int, str] = {}
        """Seats of players' bots (seat -> spec), asked of the bot worker; their
        failures fall back to ``FALLBACK`` (logged), whose bot is ``bots[seat]``."""
        self.key = next(_TABLES)
        """This table, for the bot worker (a new game seats its bots again)."""
        self._seed = seed
        self._budget = budget
        self._fallbacks: dict[int, Bot] = {}
        mine = userbots.registered(game.name)
        for i, kind in enumerate(self.seats):
            if is_person(kind):
                continue
            if kind in mine and kind not in game.bot_levels():
                self.remote[i] = kind
                self.bots[i] = self._fallback(i)
            else:
                factory = resolve_bot(game, kind)
                rng = Rng(derive_seed(seed, "bot", i))
                self.bots[i] = factory(game, i, rng, table_budget(factory, budget))
        self._thinking: tuple[int, Thinking] | None = None
        self.wait_ms = WAIT_MS
        """What the bots between two of the people's decisions share (ms of wall time):
        the page's "Bots think" setting (:data:`optimus.ui.table.THINKING`)."""
        self.reserve_ms = 0.0
        """What the page keeps of each wait for drawing the table once the bots are done
        (ms; the page sets it to what its last drawing took, at most half the wait): the
        bots' decisions share :attr:`wait_ms` less this, so a wait on a slow device ends
        about as soon as on a fast one (:meth:`thinking_ms`)."""
        self._wait_from: float | None = None
        """When the wait began: a person's last decision, or the bots' first decision
        since (:func:`decision_ms`)."""
        self._ponder: tuple[int, Context, Thinking] | None = None
        """A bot thinking while a person decides: its seat, what it decides from, its steps."""
        self._pondered: dict[int, tuple[Context, str]] = {}
        """Moves decided that way, by seat: what each was decided from, the move."""
        self.holder: int | None = None
        """The person holding the device (whose table is shown): among simultaneous
        actors, their decision comes first."""
        self.practice = False
        """Whether something revealed was taken back (:meth:`undo`): the game is then
        practice, counted neither in the records nor for a daily challenge (saved)."""
        self.lesson = False
        """Whether it is a guided game (Learn to play, :mod:`optimus.ui.lesson`): practice
        as well (saved)."""
        self.assisted = False
        """Whether a person asked for a hint (:mod:`optimus.ui.hint`): the game counts,
        marked assisted in the records and in a daily challenge's result (saved; Undo
        keeps it)."""

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
        if self.holder in actors and self.holder not in self.bots:
            return self.holder
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
            raise GameError(f"seat {seat} is played by a bot")  # not shown
        self.match.play(seat, move)
        self._wait_from = time.perf_counter()  # the page's drawing and saving count

    @property
    def people(self) -> list[int]:
        """The seats played by people at this device, in seat order."""
        return [i for i, kind in enumerate(self.seats) if is_person(kind)]

    def take_back(self, seat: int) -> TakeBack:
        """What Undo would take back for ``seat`` now: its last decision and everything
        after it, which must be bots' moves and chance events only (the bots' answers,
        a card drawn, dice rolled), never another person's move (nothing is taken back
        across a hand-over).  Taking back a chance event makes the game practice
        (:attr:`practice`).  Nothing at the end of the game, or for a bot's seat; then
        ``why`` says why.

        >>> from optimus.tiny.game import TinyGame
        >>> s = TableSession(TinyGame(), {"players": 1}, seed=1, seats=["human"])
        >>> s.take_back(0).events, s.take_back(0).why == NOTHING_YET
        (0, True)
        """
        if seat in self.bots or not 0 <= seat < len(self.seats):
            return TakeBack(why=NOTHING_YET)  # a bot's seat: never a person's decision
        if self.state.is_terminal():
            return TakeBack(why=GAME_OVER)
        events = self.record.events
        reveals = False
        answers = 0
        for back, (who, what) in enumerate(reversed(events), 1):
            if who == seat:
                return TakeBack(back, what, reveals, answers)
            if who == CHANCE:
                reveals = True
            elif who in self.bots:
                answers += 1
            else:
                decided = any(who == seat for who, _ in events)
                return TakeBack(why=ANOTHER_PERSON if decided else NOTHING_YET)
        return TakeBack(why=NOTHING_YET)

    def handing_over(self, shown: int | None) -> bool:
        """Whether the device is being handed over: several people sit, and the next
        decision is another person's than ``shown``'s (whose table is shown); Undo is
        off then (nothing is taken back across a hand-over).

        >>> from optimus.tiny.game import TinyGame
        >>> s = TableSession(TinyGame(), {}, seed=1, seats=["human", "human:Ana"])
        >>> s.handing_over(s.human_to_act()), s.handing_over(None)
        (False, True)
        """
        if len(self.people) < 2:
            return False
        seat = self.human_to_act()
        return seat is not None and seat != shown

    def undoable(self, seat: int) -> int:
        """How many of ``seat``'s decisions Undo can take back, one after another: back
        to the start of the game or another person's move (see :meth:`take_back`).

        >>> from optimus.tiny.game import TinyGame
        >>> s = TableSession(TinyGame(), {"players": 1}, seed=1, seats=["human"])
        >>> s.undoable(0)
        0
        """
        if not self.take_back(seat).events:
            return 0
        count = 0
        for who, _what in reversed(self.record.events):
            if who == seat:
                count += 1
            elif who != CHANCE and who not in self.bots:
                break
        return count

    def undo(self, seat: int) -> str | None:
        """Take back ``seat``'s last decision and what followed it (see
        :meth:`take_back`); the move taken back, or None when there is none.  The
        record keeps only what was finally played; the chance generator is left as it
        is, so when no chance event is taken back, what is revealed next is the same
        whatever is played instead.  When one is, the game becomes practice (what comes
        next is drawn anew).  A bot thinking is stopped (it starts again from the new
        position)."""
        back = self.take_back(seat)
        if not back.events:
            return None
        del self.record.events[-back.events :]
        if back.reveals:
            self.practice = True
        self.match.state = replay(self.record, game=self.game)
        for thinking in (self._thinking, self._ponder):
            if thinking is not None:
                with contextlib.suppress(Exception):
                    thinking[-1].close()
        self._thinking = self._ponder = None
        self._pondered.clear()
        self._wait_from = None
        return back.move

    def think(self, slice_ms: float = 25.0) -> str | None:
        """Let the bot to act think for about ``slice_ms``; return its move once made.

        Returns None while the bot is still thinking (call again after
        yielding to the browser), if no bot is to act, or if a player's bot is to
        act: its decision is asked of the bot worker (:meth:`asking`).
        """
        seat = self.bot_to_act()
        if seat is None:
            self._thinking = None
            return None
        if self._thinking is None or self._thinking[0] != seat:
            if seat in self.remote:
                return None
            ready = self._take_pondered(seat)
            if isinstance(ready, str):  # decided while a person was deciding
                self.match.play(seat, ready)
                return ready
            if ready is None:
                self._start(seat, self.bots[seat])
        deadline = time.perf_counter() + slice_ms / 1000
        while True:
            assert self._thinking is not None
            try:
                next(self._thinking[1])
            except StopIteration as stop:
                move: str = stop.value
                self._thinking = None
                self.match.play(seat, move)
                return move
            if time.perf_counter() >= deadline:
                return None

    def ponder(self, slice_ms: float = 25.0) -> bool:
        """While a person decides in a simultaneous step (Optimus' common roll, Optimus
        2's passive picks), let a bot that decides in the same step think for about
        ``slice_ms``: the others' choices are hidden from its observation, so the
        person's cannot change its decision.  Its move is kept, not played (nobody
        sees it), and played at once when its turn comes (:meth:`think`); the bot
        thinks with half of :attr:`wait_ms` (the most a wait's decision gets), on the
        person's time, not the wait's.  True while there is more to think about.
        """
        if self.human_to_act() is None:
            return False
        if self._ponder is None:
            for seat in self.state.actors():
                if seat not in self.bots or seat in self.remote:
                    continue
                done = self._pondered.get(seat)
                if done is not None and self._holds(done[0], seat):
                    continue
                key = self._context(seat)
                bot = self.bots[seat]
                self._clock(bot, self.wait_ms / 2)
                state = self.state
                self._ponder = (
                    seat,
                    key,
                    bot.think(state.observation(seat), state.legal_moves(seat)),
                )
                break
            else:
                return False
        seat, key, steps = self._ponder
        deadline = time.perf_counter() + slice_ms / 1000
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                self._pondered[seat] = (key, str(stop.value))
                self._ponder = None
                return True
            if time.perf_counter() >= deadline:
                return True

    def _context(self, seat: int) -> Context:
        """Where ``seat`` decides: the game so far, the others deciding in the same step,
        its legal moves (:meth:`_holds`)."""
        events = self.record.events
        others = frozenset(self.state.actors()) - {seat}
        return len(events), hash(tuple(events)), others, tuple(self.state.legal_moves(seat))

    def _holds(self, context: Context, seat: int) -> bool:
        """Whether a decision ``seat`` made in ``context`` is its decision now: the game
        went on only by the choices of the others deciding in that step (each hidden
        from the others: only that they chose may show), and its moves are the same."""
        n, digest, others, legal = context
        events = self.record.events
        return (
            len(events) >= n
            and hash(tuple(events[:n])) == digest
            and all(who in others for who, _ in events[n:])
            and seat in self.state.actors()
            and tuple(self.state.legal_moves(seat)) == legal
        )

    def _take_pondered(self, seat: int) -> str | bool | None:
        """At the start of ``seat``'s decision: its move if it was made while a person
        decided (:meth:`ponder`), True if that thinking goes on as this decision (it is
        ``_thinking`` now), None to start afresh (a thought for another position is
        dropped)."""
        done = self._pondered.pop(seat, None)
        if done is not None and self._holds(done[0], seat):
            return done[1]
        if self._ponder is not None and self._ponder[0] == seat:
            _, context, steps = self._ponder
            self._ponder = None
            if self._holds(context, seat):
                self._thinking = (seat, steps)
                return True
            steps.close()
        return None

    def warm(self) -> None:
        """Have a bot of each of the game's levels load what its first decision at this
        table would (its network's weights: :meth:`~optimus.core.bots.Bot.warm`), at the
        first bot's seat (alone: the person's, whose hint asks ``hard``), so the first
        wait does not: the person may still pick another level before the game starts."""
        seat = next(iter(self.bots), 0)
        obs = self.state.observation(seat)
        for level in self.game.bot_levels():
            resolve_bot(self.game, level)(self.game, seat, Rng(0), None).warm(obs)

    def thinking_ms(self) -> float:
        """What the bots' decisions of a wait share: :attr:`wait_ms` less the drawing kept
        for its end (:attr:`reserve_ms`, at most half of it).

        >>> from optimus.tiny.game import TinyGame
        >>> s = TableSession(TinyGame(), {"players": 2}, seed=1, seats=["random", "random"])
        >>> s.thinking_ms()
        800.0
        >>> s.reserve_ms = 150.0
        >>> s.thinking_ms()
        650.0
        >>> s.reserve_ms = 5000.0
        >>> s.thinking_ms()
        400.0
        """
        return self.wait_ms - min(self.reserve_ms, self.wait_ms / 2)

    def _clock(self, bot: Bot, time_ms: float) -> None:
        """Cap ``bot``'s own budget at ``time_ms`` for its next decision (unless the
        table was given a budget of its own)."""
        if self._budget is None:
            bot.budget = table_budget(type(bot), None, time_ms) or bot.budget

    def _start(self, seat: int, bot: Bot) -> None:
        if seat not in self.remote:  # the table's clock for this one
            now = time.perf_counter()
            if self._wait_from is None:
                self._wait_from = now
            self._clock(bot, decision_ms((now - self._wait_from) * 1000, self.thinking_ms()))
        obs = self.state.observation(seat)
        legal = self.state.legal_moves(seat)
        self._thinking = (seat, bot.think(obs, legal))

    def coach_bot(self, seat: int) -> Bot:
        """The coach's bot (the game's :attr:`~optimus.games.Coach.level`: ``hard``) for
        ``seat``, as a seat of this table would think: the budget of a wait's first
        decision (:func:`table_budget` capped at :func:`decision_ms` of nothing spent, or
        the table's own budget), a generator of the game's seed and this position (the
        same position, the same hint: :mod:`optimus.ui.hint`).  ValueError when the game
        has no coach."""
        from optimus.games import GAMES

        coach = GAMES[self.game.name].coach
        if coach is None:
            raise ValueError(f"{self.game.title} has no coach")  # not shown
        factory = resolve_bot(self.game, coach.level)
        rng = Rng(derive_seed(self._seed, "hint", seat, len(self.record.events)))
        budget = table_budget(factory, self._budget, decision_ms(0, self.wait_ms))
        return factory(self.game, seat, rng, budget)

    def _fallback(self, seat: int) -> Bot:
        if seat not in self._fallbacks:
            levels = self.game.bot_levels()
            level = FALLBACK if FALLBACK in levels else next(iter(levels))
            rng = Rng(derive_seed(self._seed, "fallback", seat))
            factory = levels[level]
            budget = table_budget(factory, self._budget)
            self._fallbacks[seat] = factory(self.game, seat, rng, budget)
        return self._fallbacks[seat]

    def take_notes(self) -> list[Note]:
        """The notes made since the last call (oldest first)."""
        notes, self.notes = self.notes, []
        return notes

    @property
    def is_thinking(self) -> bool:
        return self._thinking is not None

    def save(self) -> str:
        """The game so far as JSON: the record plus who sits where."""
        data = self.record.to_dict()
        data["seats"] = self.seats
        if self.practice:
            data["practice"] = True
        if self.lesson:
            data["lesson"] = True
        if self.assisted:
            data["assisted"] = True
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
            data = jsontext.loads(text, MAX_SAVE)
        except (ValueError, TypeError) as exc:
            raise RecordError(f"the saved game is not valid JSON: {exc}") from None  # not shown
        if not isinstance(data, dict):
            raise RecordError("the saved game is not a JSON object")  # not shown
        record = Record.from_dict(data)
        seats = data.get("seats")
        if not (isinstance(seats, list) and all(isinstance(s, str) for s in seats)):
            raise RecordError("the saved game does not say who sits where")  # not shown
        if len(seats) != record.options.get("players"):
            raise RecordError("the saved game's seats do not match its player count")  # not shown
        humans = sum(1 for s in seats if is_person(s))
        if max_humans is not None and humans > max_humans:
            raise RecordError(
                f"the saved game has {humans} human seats; "  # not shown
                f"this table seats at most {max_humans}"  # not shown (saves.load logs it)
            )
        seats, notes = resume_seats(game, seats)
        final = replay(record, game=game)
        session = TableSession(game, record.options, record.seed, seats, budget)
        session.notes[:0] = notes
        session.match.state = final
        session.match.record = record
        session.match.rng = _rng_after(record)
        session.practice = data.get("practice") is True
        session.lesson = data.get("lesson") is True
        session.assisted = data.get("assisted") is True
        return session


_TABLES = itertools.count(1)


def _rng_after(record: Record) -> Rng:
    """A chance generator for the rest of a resumed game.

    A fresh generator derived from the seed and the number of events keeps
    resumed games reproducible (the same save always continues the same way).
    """
    return Rng(derive_seed(record.seed, "chance", "resume", len(record.events)))
