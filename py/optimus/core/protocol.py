"""The game protocol every game implements.

A game is a :class:`Game` (a factory with a name, player counts, options and
bot levels) and a :class:`State` (plain, mutable, cloneable data plus the
rules that act on it).

Conventions shared by all games:

* **Moves are text.** A move is a short string such as ``"draw"`` or
  ``"take 2"`` -- hashable, readable, JSON as it is, like a UCI move in chess.
  :meth:`State.legal_moves` is the single source of truth: the UI highlights
  exactly those, bots choose among them and the checked path refuses anything
  else.
* **Chance is explicit.** Rules never call a random generator. When
  :meth:`State.is_chance` is true, whoever runs the game asks
  :meth:`State.chance_outcomes` (outcome text and integer weight), picks one
  with its own seeded generator and applies it with
  :meth:`State.apply_chance`. Outcomes that are all equally likely (a die)
  may be given as :class:`EqualOutcomes`, which a runner draws from by index
  (the same draw, faster). A hidden deck is therefore a multiset, never an
  order, so no state holds a future that a player could peek at.
* **Several players may act at once.** :meth:`State.actors` lists every
  player who must choose now; simultaneous choices are applied one by one, in
  any order, and no observation shows another player's pending choice.
* **Two paths.** :meth:`State.apply_move` is the fast, unchecked path for
  bots; :func:`play` checks and raises :class:`IllegalMove` with the reason.
"""

from __future__ import annotations

import abc
import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from optimus.core.jsontext import whole_number
from optimus.i18n import _

if TYPE_CHECKING:
    from optimus.core.bots import Bot, Budget
    from optimus.core.rng import Rng

JSON = Any
"""A value made of dicts, lists, str, int, float, bool and None."""


class GameError(ValueError):
    """Base class of the errors a game raises for bad input."""


class IllegalMove(GameError):
    """A move that the rules do not allow now; the message says why."""

    def __init__(self, move: str, reason: str) -> None:
        super().__init__(f"illegal move {move!r}: {reason}")
        self.move = move
        self.reason = reason


class OptionError(GameError):
    """Game options that are unknown or out of range; the message says which."""


class RecordError(GameError):
    """A saved game record that cannot be read or replayed."""


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``winners`` are the seats that share the victory (ties are shared);
    ``ranks`` gives each seat's place, 1 for the winners.
    """

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    ranks: tuple[int, ...]

    @staticmethod
    def from_keys(scores: tuple[float, ...], keys: list[tuple[float, ...]]) -> Outcome:
        """Rank seats by their ranking keys (score first, then tie-breaks).

        >>> Outcome.from_keys((5, 9, 9), [(5,), (9, 1), (9, 1)]).winners
        (1, 2)
        >>> Outcome.from_keys((5, 9, 9), [(5,), (9, 2), (9, 1)]).ranks
        (3, 1, 2)
        """
        ranks = tuple(1 + sum(1 for other in keys if other > k) for k in keys)
        winners = tuple(i for i, r in enumerate(ranks) if r == 1)
        return Outcome(scores=scores, winners=winners, ranks=ranks)


class State(abc.ABC):
    """One position of a game. Subclasses hold plain data only (no generator)."""

    num_players: int

    # -- whose decision -------------------------------------------------
    @abc.abstractmethod
    def actors(self) -> tuple[int, ...]:
        """Seats that must choose now; several means simultaneous choices.

        Empty at a chance node and at the end of the game.
        """

    @abc.abstractmethod
    def is_chance(self) -> bool:
        """True when a chance event (roll, draw) must be applied next."""

    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    # -- chance ---------------------------------------------------------
    def chance_outcomes(self) -> Sequence[tuple[str, int]]:
        """The possible chance results now, as (outcome text, integer weight)."""
        raise NotImplementedError(f"{type(self).__name__} has no chance events")

    def apply_chance(self, outcome: str) -> None:
        """Apply a chance result chosen by the runner."""
        raise NotImplementedError(f"{type(self).__name__} has no chance events")

    # -- moves ----------------------------------------------------------
    @abc.abstractmethod
    def legal_moves(self, player: int) -> list[str]:
        """Every legal move of ``player`` now (empty if the player is not to act)."""

    @abc.abstractmethod
    def apply_move(self, player: int, move: str) -> None:
        """Apply a move without checking it (the fast path for bots)."""

    def common_refusal(self, player: int, chance: str) -> str | None:
        """The reasons every game gives before its own, or None: the game is over;
        ``chance`` while a chance event is due; there is no such player."""
        if self.is_terminal():
            return _("the game is over")
        if self.is_chance():
            return chance
        if not 0 <= player < self.num_players:
            return _("there is no player {player}", player=player)
        return None

    def explain_illegal(self, player: int, move: str) -> str:
        """Why ``move`` is not legal for ``player`` now (override for better reasons)."""
        actors = self.actors()
        if player not in actors:
            waiting = ", ".join(str(a) for a in actors) or "-"
            return _(
                "it is not player {player}'s turn (waiting for {waiting})",
                player=player,
                waiting=waiting,
            )
        legal = self.legal_moves(player)
        shown = ", ".join(repr(m) for m in legal[:12]) + (", ..." if len(legal) > 12 else "")
        return _("it is not one of the legal moves now ({moves})", moves=shown)

    # -- views ----------------------------------------------------------
    @abc.abstractmethod
    def observation(self, player: int | None) -> dict[str, JSON]:
        """What ``player`` may know, as JSON data (``None``: a spectator's view).

        Must not reveal anything a player could not see at a real table: no
        deck order, no other player's pending simultaneous choice.
        """

    @abc.abstractmethod
    def scores(self) -> list[float]:
        """Each seat's current (or final) score."""

    def ranking_keys(self) -> list[tuple[float, ...]]:
        """Keys that order the seats at the end: score first, then tie-breaks."""
        return [(s,) for s in self.scores()]

    def outcome(self) -> Outcome:
        return Outcome.from_keys(tuple(self.scores()), self.ranking_keys())

    @abc.abstractmethod
    def clone(self) -> State:
        """An independent copy (search bots explore on copies)."""


class EqualOutcomes(tuple[tuple[str, int], ...]):
    """Chance outcomes of weight 1 each, read-only (for instance a die's faces).

    :meth:`~optimus.core.rng.Rng.pick` draws one by index, which gives the
    same outcome as walking the weights but costs less.

    >>> EqualOutcomes(["heads", "tails"])
    (('heads', 1), ('tails', 1))
    """

    __slots__ = ()

    def __new__(cls, outcomes: Iterable[str]) -> EqualOutcomes:
        self = super().__new__(cls, [(o, 1) for o in outcomes])
        if not self:
            raise ValueError("a chance event needs at least one outcome")
        return self


BotFactory = Callable[["Game", int, "Rng", "Budget | None"], "Bot"]


class Game(abc.ABC):
    """A game's identity, options and the factory of its initial state."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_options: ClassVar[Mapping[str, JSON]] = {}
    """Options besides ``players``, with their default values."""
    bots: ClassVar[str] = ""
    """The module of the game's bots, whose ``LEVELS`` maps level names to bot classes
    (imported when the levels are first asked for, not with the rules)."""

    def __init_subclass__(cls, described: str = "", **kwargs: Any) -> None:
        """``class XGame(Game, described="x")`` takes its name, title, player counts and
        the defaults of its own options from ``x``'s description (:mod:`optimus.games`);
        ``default_options`` written in the class add the rules' own (not offered)."""
        super().__init_subclass__(**kwargs)
        if not described:
            return
        from optimus.games import GAMES

        info = GAMES[described]
        cls.name = info.id
        cls.title = info.title
        cls.min_players, cls.max_players = info.players
        cls.default_options = {**info.option_defaults(), **cls.__dict__.get("default_options", {})}

    def normalize_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """Complete and check options; raise :class:`OptionError` with the reason.

        Option values given as text (from a command line or a URL) are
        converted to the type of the default value.
        """
        out: dict[str, JSON] = {"players": self.min_players, **self.default_options}
        for key, value in options.items():
            if key not in out:
                known = ", ".join(sorted(out))
                raise OptionError(f"unknown option {key!r} for {self.name} (known: {known})")
            out[key] = _coerce(key, value, out[key])
        players = out["players"]
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.title} is for {self.min_players}-{self.max_players} players, not {players}"
            )
        return out

    @abc.abstractmethod
    def new_state(self, options: Mapping[str, JSON]) -> State:
        """The initial state for normalised options (often a chance node: set-up)."""

    def state_from_observation(
        self, observation: Mapping[str, JSON], player: int, rng: Rng
    ) -> State:
        """A full state consistent with ``player``'s observation (for search bots).

        Hidden information is filled in by sampling with ``rng``, without using
        anything the observation does not contain. By default the state
        :meth:`rebuild` makes: right for a game whose observations hide nothing a
        bot would have to sample (the others' pending choices are not yet made).
        """
        return self.rebuild(observation)

    def rebuild(self, observation: Mapping[str, JSON]) -> State:
        """The state an observation shows (a game whose observations hide nothing)."""
        raise NotImplementedError(f"{self.name} cannot rebuild a state from an observation")

    def bot_levels(self) -> dict[str, BotFactory]:
        """Bot levels by name: ``random``, then the ``LEVELS`` of :attr:`bots`."""
        from optimus.core.bots import RandomBot

        levels: dict[str, BotFactory] = {"random": RandomBot}
        if self.bots:
            levels.update(importlib.import_module(self.bots).LEVELS)
        return levels


def _coerce(key: str, value: JSON, default: JSON) -> JSON:
    if not isinstance(value, str) or isinstance(default, str):
        if isinstance(default, bool) and not isinstance(value, bool):
            raise OptionError(f"option {key!r} must be true or false, not {value!r}")
        int_default = isinstance(default, int) and not isinstance(default, bool)
        if int_default and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(f"option {key!r} must be a whole number, not {value!r}")
        return value
    text = value.strip().lower()
    if isinstance(default, bool):
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise OptionError(f"option {key!r} must be true or false, not {value!r}")
    if isinstance(default, int):
        number = whole_number(text, 18)
        if number is None:
            shown = value if len(value) <= 40 else value[:40] + "…"
            raise OptionError(f"option {key!r} must be a whole number, not {shown!r}")
        return number
    return value


def play(state: State, player: int, move: str) -> None:
    """The checked path: apply ``move`` or raise :class:`IllegalMove` with the reason."""
    if state.is_terminal():
        raise IllegalMove(move, "the game is over")
    if state.is_chance():
        raise IllegalMove(move, "a chance event (roll or draw) must happen first")
    if not 0 <= player < state.num_players:
        raise IllegalMove(move, f"there is no player {player}")
    if player not in state.actors() or move not in state.legal_moves(player):
        raise IllegalMove(move, state.explain_illegal(player, move))
    state.apply_move(player, move)


def apply_chance_checked(state: State, outcome: str) -> None:
    """Apply a chance outcome after checking that it is possible now."""
    if not state.is_chance():
        raise RecordError(f"chance outcome {outcome!r} given where no chance event is due")
    possible = {o for o, w in state.chance_outcomes() if w > 0}
    if outcome not in possible:
        raise RecordError(f"chance outcome {outcome!r} is impossible here")
    state.apply_chance(outcome)
