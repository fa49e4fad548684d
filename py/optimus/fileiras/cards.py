"""The cards of Fileiras: kinds, names and the composition of the deck.

A card is identified by its *kind*, a small integer: the seven colours come
first (``0``-``6``), then the joker, the "+2" card and the last-round card.
Cards of one kind are interchangeable, so decks and collections are counts
per kind, never lists of cards.

>>> KIND_NAMES[JOKER], KIND_NAMES[PLUS2], KIND_NAMES[LAST]
('joker', '+2', 'last')
>>> kind_of("grey") == COLOURS.index("grey")
True
>>> sum(full_deck())
77
"""

from __future__ import annotations

from optimus.i18n import N_, _

COLOURS: tuple[str, ...] = ("yellow", "green", "blue", "grey", "orange", "red", "brown")
"""The seven colours (names are the project's; the seed names five of them)."""

NUM_COLOURS = len(COLOURS)
CARDS_PER_COLOUR = 9
JOKER = NUM_COLOURS
PLUS2 = NUM_COLOURS + 1
LAST = NUM_COLOURS + 2
NUM_KINDS = LAST + 1
"""Kinds in a deck: colours, joker, "+2", last-round card."""
COLLECTION_KINDS = PLUS2 + 1
"""Kinds a player can collect (all but the last-round card)."""

JOKERS = 3
PLUS2_CARDS = 10
CARDS_BENEATH_LAST = 15
"""The last-round card is placed so that exactly this many cards lie beneath it."""

KIND_NAMES: tuple[str, ...] = (*COLOURS, "joker", "+2", "last")
_KIND_BY_NAME = {name: k for k, name in enumerate(KIND_NAMES)}

LABELS: dict[str, str] = {
    "yellow": N_("Yellow"),
    "green": N_("Green"),
    "blue": N_("Blue"),
    "grey": N_("Grey"),
    "orange": N_("Orange"),
    "red": N_("Red"),
    "brown": N_("Brown"),
    "joker": N_("Joker"),
    "+2": "+2",
    "last": N_("Last round"),
}
"""Each card kind's name as players read it (English; :func:`label` translates)."""


def label(name: str) -> str:
    """A card kind's name in the language spoken now (``"Red"``; an unknown name as is).

    >>> label("grey"), label("+2")
    ('Grey', '+2')
    """
    return _(LABELS[name]) if name in LABELS else name


def word(name: str) -> str:
    """A card kind's name inside a sentence: in small letters, as colours are written
    in running text in every language spoken here ("You drew red.", "…: blue, joker").

    >>> word("grey"), word("joker"), word("+2")
    ('grey', 'joker', '+2')
    """
    return label(name).lower()


def kind_of(name: str) -> int:
    """The kind of a card name; ``KeyError`` for an unknown name."""
    return _KIND_BY_NAME[name]


def is_kind_name(name: str) -> bool:
    return name in _KIND_BY_NAME


def full_deck() -> list[int]:
    """Counts per kind of the whole box (before colours are removed).

    >>> deck = full_deck()
    >>> deck[0], deck[JOKER], deck[PLUS2], deck[LAST]
    (9, 3, 10, 1)
    """
    counts = [CARDS_PER_COLOUR] * NUM_COLOURS + [JOKERS, PLUS2_CARDS, 1]
    assert len(counts) == NUM_KINDS
    return counts


def removed_colour_count(players: int) -> int:
    """Colours taken out of the game at set-up: 2 players 2, 3 players 1, else 0.

    >>> [removed_colour_count(n) for n in (2, 3, 4, 5)]
    [2, 1, 0, 0]
    """
    return {2: 2, 3: 1}.get(players, 0)


def start_cards_per_player(players: int) -> int:
    """Colour cards each player starts with (2 in the 2-player variant)."""
    return 2 if players == 2 else 1


def row_capacities(players: int) -> tuple[int, ...]:
    """Rows and their capacities: 1, 2 and 3 for two players, else one row of 3 per player.

    >>> row_capacities(2), row_capacities(4)
    ((1, 2, 3), (3, 3, 3, 3))
    """
    if players == 2:
        return (1, 2, 3)
    return (3,) * players


def counts_to_names(counts: list[int] | tuple[int, ...]) -> dict[str, int]:
    """Counts per kind as ``{name: count}`` (all kinds of ``counts``, zeros included)."""
    return {KIND_NAMES[k]: n for k, n in enumerate(counts)}


def names_to_counts(names: dict[str, int], size: int) -> list[int]:
    """The inverse of :func:`counts_to_names` for the first ``size`` kinds."""
    counts = [0] * size
    for name, n in names.items():
        counts[kind_of(name)] = int(n)
    return counts
