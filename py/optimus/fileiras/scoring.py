"""Scoring of a Fileiras collection, exact and fast.

Per colour, a set of cards is worth a table value (standard: 1, 3, 6, 10, 15,
21 for 1-6+ cards; advanced: 1, 4, 8, 7, 6, 5). Three colours score plus,
every other colour scores minus; each "+2" card adds 2. Jokers become cards
of any colour in play, and the joker colours and the three plus colours are
chosen to maximise the score -- an exhaustive search over at most 7^3 joker
assignments, memoised.

The public entry points are :func:`score_breakdown` (total plus an
explanation, for the UI), :func:`best_score` (just the total) and
:class:`Scorer` (the fast, memoised path the rules and bots use).

The seed's example: 5 yellow, 4 green, 3 blue, 3 grey, 1 orange, 3 "+2".

>>> best_score({"yellow": 5, "green": 4, "blue": 3, "grey": 3, "orange": 1, "+2": 3})
30
>>> b = score_breakdown({"green": 6, "yellow": 4, "red": 3, "blue": 2, "joker": 1, "+2": 1})
>>> b.total, b.jokers, b.plus_colours
(41, {'yellow': 1}, ['green', 'yellow', 'red'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import ClassVar

from optimus.core.protocol import JSON
from optimus.fileiras.cards import COLOURS, JOKER, NUM_COLOURS, PLUS2, kind_of

STANDARD_TABLE: tuple[int, ...] = (0, 1, 3, 6, 10, 15, 21)
"""Points by number of cards of one colour (index 6 stands for 6 or more)."""
ADVANCED_TABLE: tuple[int, ...] = (0, 1, 4, 8, 7, 6, 5)
"""The optional advanced side of the table (published)."""
PLUS_COLOURS = 3
PLUS2_POINTS = 2


def colour_points(cards: int, advanced: bool = False) -> int:
    """Table value of ``cards`` cards of one colour (before the plus/minus sign).

    >>> [colour_points(n) for n in range(9)]
    [0, 1, 3, 6, 10, 15, 21, 21, 21]
    >>> [colour_points(n, advanced=True) for n in range(1, 8)]
    [1, 4, 8, 7, 6, 5, 5]
    """
    table = ADVANCED_TABLE if advanced else STANDARD_TABLE
    return table[min(cards, 6)]


def _signed_total(counts: Sequence[int], table: tuple[int, ...]) -> int:
    """Best plus/minus split for fixed colour counts: top three plus, the rest minus."""
    values = sorted((table[c if c < 6 else 6] for c in counts), reverse=True)
    return 2 * sum(values[:PLUS_COLOURS]) - sum(values)


@lru_cache(maxsize=200_000)
def _solve(
    counts_desc: tuple[int, ...], jokers: int, advanced: bool
) -> tuple[int, tuple[int, ...]]:
    """Best colour score and the jokers added per position of ``counts_desc``.

    ``counts_desc`` holds the card counts of every colour in play, largest
    first; jokers may go to any of them (the first best assignment in
    enumeration order wins, which favours the colours with most cards).
    """
    table = ADVANCED_TABLE if advanced else STANDARD_TABLE
    positions = len(counts_desc)
    if jokers == 0 or positions == 0:
        return _signed_total(counts_desc, table), (0,) * positions
    best_value: int | None = None
    best_adds: tuple[int, ...] = ()
    seen: set[tuple[int, ...]] = set()
    for combo in combinations_with_replacement(range(positions), jokers):
        adds = [0] * positions
        for pos in combo:
            adds[pos] += 1
        final = tuple(sorted((c + a for c, a in zip(counts_desc, adds, strict=True)), reverse=True))
        if final in seen:
            continue
        seen.add(final)
        value = _signed_total(final, table)
        if best_value is None or value > best_value:
            best_value, best_adds = value, tuple(adds)
    assert best_value is not None
    return best_value, best_adds


class Scorer:
    """Fast memoised scoring for one set of colours in play and one table.

    ``collection`` arguments are count sequences indexed by card kind (the
    seven colours, then jokers, then "+2" cards); colours not in play must
    have count 0.

    >>> s = Scorer.get(tuple(range(7)), False)
    >>> s.value([5, 4, 3, 3, 1, 0, 0, 0, 3])
    30
    """

    __slots__ = ("_memo", "advanced", "colours")
    _instances: ClassVar[dict[tuple[tuple[int, ...], bool], Scorer]] = {}
    MAX_MEMO: ClassVar[int] = 400_000

    def __init__(self, colours: tuple[int, ...], advanced: bool) -> None:
        self.colours = colours
        self.advanced = advanced
        self._memo: dict[tuple[int, ...], int] = {}

    @classmethod
    def get(cls, colours: tuple[int, ...], advanced: bool) -> Scorer:
        """The shared scorer for these colours in play (kinds) and this table."""
        key = (colours, advanced)
        scorer = cls._instances.get(key)
        if scorer is None:
            scorer = cls._instances[key] = Scorer(colours, advanced)
        return scorer

    def colour_value(self, collection: Sequence[int]) -> int:
        """Best score of the colour cards and jokers (without "+2" cards)."""
        key = tuple(collection[: JOKER + 1])
        value = self._memo.get(key)
        if value is None:
            counts = tuple(sorted((collection[k] for k in self.colours), reverse=True))
            value = _solve(counts, collection[JOKER], self.advanced)[0]
            if len(self._memo) >= self.MAX_MEMO:
                self._memo.clear()
            self._memo[key] = value
        return value

    def value(self, collection: Sequence[int]) -> int:
        """The best total score of a collection."""
        return self.colour_value(collection) + PLUS2_POINTS * collection[PLUS2]

    def gain(self, collection: Sequence[int], cards: Sequence[int]) -> int:
        """How much the best score changes if ``cards`` (kinds) join ``collection``."""
        if not cards:
            return 0
        after = list(collection)
        for k in cards:
            after[k] += 1
        return self.value(after) - self.value(collection)


@dataclass(frozen=True)
class ColourScore:
    """One colour of a breakdown: cards held, jokers assigned, signed points."""

    colour: str
    cards: int
    jokers: int
    points: int
    plus: bool

    def to_json(self) -> dict[str, JSON]:
        return {
            "colour": self.colour,
            "cards": self.cards,
            "jokers": self.jokers,
            "points": self.points,
            "plus": self.plus,
        }


@dataclass(frozen=True)
class Breakdown:
    """A collection's best score and how it is made up.

    ``colours`` lists every colour with at least one card (jokers included),
    plus colours first; ``jokers`` maps colours to the jokers they received.
    """

    total: int
    colours: list[ColourScore]
    jokers: dict[str, int]
    plus_colours: list[str]
    plus2_cards: int
    plus2_points: int
    advanced: bool = False
    colour_points: int = field(default=0)

    def to_json(self) -> dict[str, JSON]:
        return {
            "total": self.total,
            "colour_points": self.colour_points,
            "colours": [c.to_json() for c in self.colours],
            "jokers": dict(self.jokers),
            "plus_colours": list(self.plus_colours),
            "plus2_cards": self.plus2_cards,
            "plus2_points": self.plus2_points,
            "advanced": self.advanced,
        }


def _as_counts(collection: Mapping[str, int] | Sequence[int]) -> list[int]:
    counts = [0] * (PLUS2 + 1)
    if isinstance(collection, Mapping):
        for name, n in collection.items():
            kind = kind_of(name)
            if kind > PLUS2:
                raise ValueError(f"a collection cannot hold the {name!r} card")
            if n < 0:
                raise ValueError(f"negative count for {name!r}")
            counts[kind] += int(n)
    else:
        if len(collection) > PLUS2 + 1:
            raise ValueError("a collection has at most 9 kinds (7 colours, joker, +2)")
        for k, n in enumerate(collection):
            if n < 0:
                raise ValueError("negative count in a collection")
            counts[k] = int(n)
    return counts


def _colour_kinds(colours: Sequence[str] | None) -> tuple[int, ...]:
    if colours is None:
        return tuple(range(NUM_COLOURS))
    kinds = tuple(sorted({kind_of(c) for c in colours}))
    if any(k >= NUM_COLOURS for k in kinds):
        raise ValueError(f"not colours: {colours!r}")
    return kinds


@lru_cache(maxsize=128)
def cached_breakdown(
    counts: tuple[int, ...], colours: tuple[int, ...], advanced: bool
) -> Breakdown:
    """The breakdown for counts by kind and colour kinds in play (unchecked, memoised).

    Each observation asks it for every player's collection, which changes by a row
    at a time: a few recent ones are all it needs, and a page playing game after
    game keeps no more than these (the bots score with ``_solve``, not this)."""
    order = sorted(colours, key=lambda k: (-counts[k], k))
    desc = tuple(counts[k] for k in order)
    colour_total, adds = _solve(desc, counts[JOKER], advanced)
    final = {k: counts[k] + a for k, a in zip(order, adds, strict=True)}
    ranked = sorted(order, key=lambda k: (-colour_points(final[k], advanced), -final[k], k))
    plus = [k for k in ranked[:PLUS_COLOURS] if final[k] > 0]
    held = [k for k in ranked if final[k] > 0]
    entries = [
        ColourScore(
            colour=COLOURS[k],
            cards=counts[k],
            jokers=final[k] - counts[k],
            points=colour_points(final[k], advanced) * (1 if k in plus else -1),
            plus=k in plus,
        )
        for k in held
    ]
    assert sum(e.points for e in entries) == colour_total
    plus2 = counts[PLUS2]
    return Breakdown(
        total=colour_total + PLUS2_POINTS * plus2,
        colours=entries,
        jokers={COLOURS[k]: final[k] - counts[k] for k in held if final[k] > counts[k]},
        plus_colours=[COLOURS[k] for k in plus],
        plus2_cards=plus2,
        plus2_points=PLUS2_POINTS * plus2,
        advanced=advanced,
        colour_points=colour_total,
    )


def score_breakdown(
    collection: Mapping[str, int] | Sequence[int],
    *,
    advanced: bool = False,
    colours: Sequence[str] | None = None,
) -> Breakdown:
    """The best score of a collection and its explanation.

    ``collection`` is ``{name: count}`` (colour names, ``"joker"``, ``"+2"``)
    or counts by kind. ``colours`` are the colours in play (default all
    seven); jokers only become colours in play. The returned object is shared
    (cached): do not modify it.

    >>> b = score_breakdown({"yellow": 2, "joker": 2}, advanced=True)
    >>> b.total, b.jokers  # 3 yellow (8) beats 4 yellow (7); the other joker opens a colour
    (9, {'yellow': 1, 'green': 1})
    """
    counts = _as_counts(collection)
    kinds = _colour_kinds(colours)
    for k in range(NUM_COLOURS):
        if counts[k] and k not in kinds:
            raise ValueError(f"{COLOURS[k]} is not in play")
    return cached_breakdown(tuple(counts), kinds, advanced)


def best_score(
    collection: Mapping[str, int] | Sequence[int],
    *,
    advanced: bool = False,
    colours: Sequence[str] | None = None,
) -> int:
    """The best total score of a collection (see :func:`score_breakdown`)."""
    return score_breakdown(collection, advanced=advanced, colours=colours).total
