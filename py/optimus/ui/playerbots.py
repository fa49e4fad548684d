"""Players' own bots at the table: the protocol with the bot worker, and what is said when
one fails.

A player's bot never runs in the table's session: the session asks the bot worker
for its decision (:meth:`PlayerBotSeats.asking`, ``web/botworker.py``) and plays the
reply (:meth:`PlayerBotSeats.answer`); a bot that fails a decision (an illegal move,
an error, too long, stopped) has the decision made by the fallback level's bot,
and the table says so (a :class:`Note`).  A saved game seats a player's bot again
only if it is loaded in the page (:func:`resume_seats`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from optimus import i18n
from optimus.core import userbots
from optimus.core.bots import Bot, Budget, Thinking
from optimus.core.botworker import Ask
from optimus.core.protocol import Game, RecordError, State
from optimus.core.record import Match
from optimus.i18n import N_, _
from optimus.ui.seats import bot_kind, is_person, people_problem

FALLBACK = "normal"
"""The level that plays a decision a player's bot could not make."""


@dataclass(frozen=True)
class Note:
    """Something the table must tell about a seat (a player's bot that failed).

    Kept as a sentence of the catalogs (``message``, English, with ``{who}`` for the
    seat's name and ``{fallback}`` for the bot standing in) and its values, so that it
    is said in the language spoken when it is shown.

    >>> note = Note(1, COULD_NOT_START, (("problem", "ValueError: x"),), "normal")
    >>> note.say("MyBot 2")
    'MyBot 2 could not start (ValueError: x): the Normal bot plays every move.'
    """

    seat: int
    message: str
    values: tuple[tuple[str, str], ...] = ()
    fallback: str = FALLBACK
    """The level of the bot that stands in."""
    by_seat: bool = False
    """Names the seat by its number (``Seat 2``), not its current name (its bot changed)."""

    def say(self, name: str) -> str:
        """The whole sentence in the language spoken now; ``name``: the seat's name."""
        who = _("Seat {seat}", seat=self.seat + 1) if self.by_seat else name
        return _(self.message, who=who, fallback=bot_kind(self.fallback), **dict(self.values))

    @property
    def text(self) -> str:
        """The sentence, naming the seat by its number (for logs and tests)."""
        return self.say(_("Seat {seat}", seat=self.seat + 1))


COULD_NOT_START = N_("{who} could not start ({problem}): the {fallback} plays every move.")
ILLEGAL = N_("{who} chose an illegal move ({move}): the {fallback} played this move for it.")
FAILED = N_("{who} failed while thinking ({problem}): the {fallback} played this move for it.")
TOO_LONG = N_("{who} thought for more than {seconds} s: the {fallback} played this move for it.")
STOPPED = N_(
    "{who} took too long (no answer within {seconds} s) and was stopped: the {fallback} "
    "played this move for it, and plays its moves from now on."
)
BROKE = N_(
    "{who} was stopped ({problem}): the {fallback} played this move for it, and plays its "
    "moves from now on."
)
NOT_LOADED = N_(
    "{who} was your bot {bot}, which is not loaded in this page: the {fallback} plays it "
    "(add your bot before resuming to seat it again)."
)


class Seated(Protocol):
    """What a table's session has that its players' bots' seats need."""

    game: Game
    key: int
    remote: dict[int, str]
    notes: list[Note]
    match: Match
    _seed: int
    _budget: Budget | None
    _thinking: tuple[int, Thinking] | None

    @property
    def state(self) -> State: ...
    def bot_to_act(self) -> int | None: ...
    def asking_seat(self) -> int | None: ...
    def _legal(self, seat: int, move: object) -> bool: ...
    def _give_up(self, seat: int, message: str, **values: str) -> None: ...
    def _note(self, seat: int, message: str, **values: str) -> None: ...
    def _start(self, seat: int, bot: Bot) -> None: ...
    def _fallback(self, seat: int) -> Bot: ...


class PlayerBotSeats:
    """The seats of players' bots (``remote``: seat -> spec) of a
    :class:`~optimus.ui.session.TableSession`, asked of the bot worker."""

    def asking(self: Seated) -> Ask | None:
        """The decision a player's bot is to make now, to ask of the bot worker
        (then :meth:`answer` its reply); None when no player's bot is to act."""
        seat = self.asking_seat()
        if seat is None:
            return None
        return Ask(
            table=self.key,
            game=self.game.name,
            seat=seat,
            spec=self.remote[seat],
            seed=self._seed,
            budget=self._budget,
            observation=self.state.observation(seat),
            legal=self.state.legal_moves(seat),
        )

    def answer(self: Seated, seat: int, reply: Mapping[str, Any]) -> str | None:
        """The bot worker's reply to :meth:`asking` for ``seat``: its move, played and
        returned when it is legal.  Otherwise (an illegal move, an error, too long,
        stopped, not seated, broke) the table notes why and the fallback bot makes the
        decision (:meth:`think` goes on with it); for a bot stopped, broke or not seated, every
        decision from now on.  A reply that comes too late (not ``seat``'s turn) is
        ignored."""
        if seat != self.asking_seat():
            return None
        if "move" in reply:
            move = reply["move"]
            if self._legal(seat, move):
                self.match.play(seat, move)
                return str(move)
            self._give_up(seat, ILLEGAL, move=_short(move))
        elif "illegal" in reply:
            self._give_up(seat, ILLEGAL, move=_short(reply["illegal"]))
        elif "slow" in reply:
            self._give_up(seat, TOO_LONG, seconds=_seconds(float(reply["slow"])))
        elif "stopped" in reply:
            del self.remote[seat]
            self._give_up(seat, STOPPED, seconds=_seconds(float(reply["stopped"])))
        elif "unseated" in reply:
            del self.remote[seat]
            self._give_up(seat, COULD_NOT_START, problem=_short(reply["unseated"]))
        elif "broke" in reply:
            del self.remote[seat]
            self._give_up(seat, BROKE, problem=_short(reply["broke"]))
        else:
            self._give_up(seat, FAILED, problem=_short(reply.get("error", reply)))
        return None

    def asking_seat(self: Seated) -> int | None:
        """The seat :meth:`asking` is about (without building the question)."""
        seat = self.bot_to_act()
        if seat is None or seat not in self.remote or self._thinking is not None:
            return None
        return seat

    def _legal(self: Seated, seat: int, move: object) -> bool:
        return isinstance(move, str) and move in self.state.legal_moves(seat)

    def _give_up(self: Seated, seat: int, message: str, **values: str) -> None:
        """The player's bot at ``seat`` failed this decision: the fallback makes it."""
        self._note(seat, message, **values)
        self._start(seat, self._fallback(seat))

    def _note(self: Seated, seat: int, message: str, **values: str) -> None:
        self.notes.append(Note(seat, message, tuple(values.items()), fallback_level(self.game)))


def fallback_level(game: Game) -> str:
    """The level that stands in for a failed bot: ``normal`` if the game has it."""
    levels = game.bot_levels()
    return FALLBACK if FALLBACK in levels else next(iter(levels))


def fallback_name(game: Game) -> str:
    """``Normal bot``: the words for the level that stands in for a failed bot."""
    return bot_kind(fallback_level(game))


def resume_seats(game: Game, seats: Sequence[str]) -> tuple[list[str], list[Note]]:
    """The seats a saved game resumes with, and what to say about them.

    A seat of a player's bot (``module:Class``) keeps it only if that bot was
    loaded in this page for this game: a save never loads or imports anything.
    Otherwise the fallback level takes the seat, and a note says so.  Any other
    unknown name, or people named against the table's rule for names
    (:func:`~optimus.ui.seats.people_problem`), makes the save unreadable
    (:class:`RecordError`).
    """
    problem = people_problem(seats)
    if problem is not None:
        raise RecordError(f"the saved game names its people oddly: {problem}")  # not shown
    levels = game.bot_levels()
    mine = userbots.registered(game.name)
    kept: list[str] = []
    notes: list[Note] = []
    for i, kind in enumerate(seats):
        if is_person(kind) or kind in levels or kind in mine:  # "human:": named by the seat
            kept.append(kind)
        elif ":" in kind:
            level = fallback_level(game)
            kept.append(level)
            notes.append(Note(i, NOT_LOADED, (("bot", userbots.label(kind)),), level, by_seat=True))
        else:
            raise RecordError(f"the saved game names an unknown bot {kind!r}")  # not shown
    return kept, notes


def _seconds(value: float) -> str:
    """``0.03``, ``1.5`` (``0,03`` in Portuguese): as short as the value allows.

    >>> _seconds(0.03), _seconds(1.5), _seconds(2.0)
    ('0.03', '1.5', '2')
    """
    text = f"{value:g}"
    digits = len(text.partition(".")[2]) if "e" not in text else 3
    return i18n.number(value, digits)


def _short(value: object, limit: int = 120) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
