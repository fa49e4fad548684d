"""The seats of a table: who sits where, how each is named, and who is a person.

A seat is ``"human"`` (the device's owner), ``"human:<name>"`` (a further person
at the device: pass-and-play), a bot level (``"hard"``) or a player's bot
(``"module:Class"``).  :func:`is_person` is the one rule for "played by a
person"; the names, the set-up form's places and the seat order follow.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from optimus.core.jsontext import whole_number
from optimus.core.rng import Rng
from optimus.i18n import N_, _

from .words import Words

HUMAN = "human"
"""The device owner's seat; ``"human:<name>"`` is a further person's."""


def is_person(kind: str) -> bool:
    """A seat played by a person at this device: ``"human"`` or ``"human:<name>"``.

    >>> is_person("human"), is_person("human:Ana"), is_person("hard"), is_person("m:Bot")
    (True, True, False, False)
    """
    return kind == HUMAN or kind.startswith(HUMAN + ":")


LEVEL_NAMES: Mapping[str, str] = Words(
    {"easy": N_("Easy"), "normal": N_("Normal"), "hard": N_("Hard"), "random": N_("Random")}
)
"""A bot level in words (the set-up form's choices), in the language spoken when read."""

BOT_NAMES = {
    "easy": N_("Easy bot {seat}"),
    "normal": N_("Normal bot {seat}"),
    "hard": N_("Hard bot {seat}"),
    "random": N_("Random bot {seat}"),
}
"""A built-in bot's name at a table: its level and its number among the other players
(``{seat}``: "Other player 1" of the set-up form is bot 1, wherever the person sits)."""

BOT_KINDS = {
    "easy": N_("Easy bot"),
    "normal": N_("Normal bot"),
    "hard": N_("Hard bot"),
    "random": N_("Random bot"),
}
"""A built-in bot named without a seat ("the Normal bot played for it")."""


def level_name(level: str) -> str:
    """A bot level in words: ``Easy``; a level the table does not know, capitalised."""
    return LEVEL_NAMES[level] if level in LEVEL_NAMES else level.capitalize()


def bot_kind(level: str) -> str:
    """A built-in bot of ``level`` in words, without a seat: ``Normal bot``."""
    if level in BOT_KINDS:
        return _(BOT_KINDS[level])
    return _("{level} bot", level=level.capitalize())


PERSON_NAME = re.compile(r"[^\W_][\w .'’-]{0,19}", re.UNICODE)
"""A person's name at the table: a letter or digit first, at most 20 characters of
letters, digits, spaces and ``.'’-`` (the same as in a link: never markup)."""


def person_name(text: str) -> str | None:
    """``text`` as a person's name (spaces tidied), or None if it cannot be one.

    >>> person_name("  Ana  Luísa "), person_name("<b>Ana</b>"), person_name("")
    ('Ana Luísa', None, None)
    """
    name = " ".join(text.split())
    return name if PERSON_NAME.fullmatch(name) else None


NAME_PROBLEMS: Mapping[str, str] = {
    "bad": N_(
        "“{name}” cannot be a name: use letters, digits, spaces and . ' - (at most 20 characters)."
    ),
    "table": N_("“{name}” is a name the table gives its players: choose another one."),
    "taken": N_("Two people are called “{name}”: give each a different name."),
}
"""Why a name cannot be a person's at a table (:func:`name_problem`), in words."""

MOST_SEATS = 6
"""The most seats of any table (Optimus's six): the numbers in the table's own names."""


def table_names() -> frozenset[str]:
    """The names the table gives players itself, casefolded, in English and in the
    language spoken: "You", "Player 1"…, "Easy bot 1"….

    >>> {"you", "player 3", "hard bot 2"} <= table_names()
    True
    """
    words = [N_("You")]
    numbered = [N_("Player {seat}"), *BOT_NAMES.values()]
    names = {w for word in words for w in (word, _(word))}
    for seat in range(1, MOST_SEATS + 1):
        names |= {w.format(seat=seat) for text in numbered for w in (text, _(text))}
    return frozenset(name.casefold() for name in names)


def name_problem(text: str, taken: Iterable[str] = ()) -> str | None:
    """The one rule for a person's name, wherever seats come from (a link, the set-up
    form, a save): why ``text`` cannot name one more person at a table whose people
    are called ``taken`` (a key of :data:`NAME_PROBLEMS`), or None when it can.  A
    name is one (:func:`person_name`), is none of the table's own (:func:`table_names`:
    two panels would say the same) and is nobody else's there (letter case aside).

    >>> name_problem("Ana", ["Rui"]), name_problem(" ana ", ["Ana"]), name_problem("<b>")
    (None, 'taken', 'bad')
    >>> name_problem("You"), name_problem("Player 3"), name_problem("hard BOT 2")
    ('table', 'table', 'table')
    """
    name = person_name(text)
    if name is None:
        return "bad"
    if name.casefold() in table_names():
        return "table"
    if name.casefold() in {other.casefold() for other in taken}:
        return "taken"
    return None


def people_problem(seats: Sequence[str]) -> str | None:
    """Why the people of ``seats`` cannot sit together as named (English, not shown), or
    None; an unnamed person (``"human:"``) is named by the seat.

    >>> people_problem(["human", "human:Ana", "hard"]), people_problem(["human:Ana", "human:ANA"])
    (None, "seat 2: 'taken' name 'ANA'")
    """
    named: list[str] = []
    for i, kind in enumerate(seats):
        name = kind.partition(":")[2] if is_person(kind) else ""
        if not name:
            continue
        problem = name_problem(name, named)
        if problem is not None or person_name(name) != name:
            return f"seat {i + 1}: {problem or 'untidy'!r} name {name[:30]!r}"  # not shown
        named.append(name)
    return None


def seat_names(seats: Sequence[str], human: str | None = None) -> list[str]:
    """Display names: the person is "You"; the other players are numbered in seat
    order as the set-up form numbers them ("Other player 1" is the first seat that is
    not the device owner's), and a bot is named by its level and that number; with
    several people at the device each is named (``"human:<name>"``; the first
    person by ``human``, else by seat).

    >>> seat_names(["human", "easy", "mybot:MyBot"])
    ['You', 'Easy bot 1', 'MyBot 2']
    >>> seat_names(["hard", "human", "easy"])
    ['Hard bot 1', 'You', 'Easy bot 2']
    >>> seat_names(["human", "human", "normal"])
    ['Player 1', 'Player 2', 'Normal bot 2']
    >>> seat_names(["human", "human:Ana", "hard"], "Rui")
    ['Rui', 'Ana', 'Hard bot 2']

    ``human`` is left out when the rule for names refuses it beside the others'
    (:func:`name_problem`): the person is then named by the seat.

    >>> seat_names(["human", "human:Ana"], "ana"), seat_names(["human", "human:Ana"], "You")
    (['Player 1', 'Ana'], ['Player 1', 'Ana'])
    """
    people = sum(1 for kind in seats if is_person(kind))
    others = [kind.partition(":")[2] for kind in seats if kind.startswith(HUMAN + ":")]
    if human is not None and name_problem(human, others) is not None:
        human = None
    owner = seats.index(HUMAN) if HUMAN in seats else None
    names = []
    for i, kind in enumerate(seats):
        seat = i + 1
        other = seat if owner is None or i < owner else i  # the set-up form's number
        if kind == HUMAN:
            if people == 1:
                names.append(_("You") if human is None else human)
            elif human is not None and owner == i:
                names.append(human)
            else:
                names.append(_("Player {seat}", seat=seat))
        elif is_person(kind):
            names.append(kind.partition(":")[2] or _("Player {seat}", seat=seat))
        else:
            names.append(bot_name(kind, other))
    return names


def bot_name(kind: str, n: int) -> str:
    """The name of other player ``n``'s bot of ``kind`` at the table, as the set-up
    form's choice for that seat says it too.

    >>> bot_name("hard", 1), bot_name("mybot:MyBot", 2)
    ('Hard bot 1', 'MyBot 2')
    """
    if kind in BOT_NAMES:
        return _(BOT_NAMES[kind], seat=n)
    return f"{kind.rpartition(':')[2]} {n}"  # a player's bot (module:Class): its class


ORDINALS = (N_("first"), N_("second"), N_("third"), N_("fourth"), N_("fifth"), N_("sixth"))
"""The person's place at the table in words (translated where shown)."""


DRAWN_START = N_("Who starts is drawn at random; then play goes round in this order.")
"""The set-up's words for a game whose rules draw the starting player."""


def seat_choices(most: int, drawn_start: bool = False) -> list[tuple[str, str]]:
    """The person's place at a table of up to ``most`` players: (value, words); the
    first place starts unless the game draws who starts (``drawn_start``).

    >>> seat_choices(3)
    [('1', 'first (you start)'), ('2', 'second'), ('3', 'third'), ('random', 'at a random place')]
    >>> seat_choices(2, drawn_start=True)[0]
    ('1', 'first')
    """
    places = [(str(i + 1), _(ORDINALS[i])) for i in range(most)]
    if not drawn_start:
        places[0] = ("1", _("first (you start)"))
    return [*places, ("random", _("at a random place"))]


def seat_order(bots: Sequence[str], place: str, seed: int) -> list[str]:
    """The seats: the bot levels in order, with ``"human"`` at ``place`` (1-based, or "random").

    A place past the last seat is the last seat; "random" draws the place from the
    game's seed, so the same seed seats everyone the same way.

    >>> seat_order(["easy", "hard"], "2", seed=7)
    ['easy', 'human', 'hard']
    >>> seat_order(["easy"], "5", seed=7)
    ['easy', 'human']
    >>> seat_order([], "random", seed=7)
    ['human']
    """
    count = len(bots) + 1
    if place == "random":
        index = Rng(seed).randrange(count)
    else:
        index = min(max(whole_number(place, 2) or 1, 1), count) - 1
    return [*bots[:index], HUMAN, *bots[index:]]


def human_seat(seats: Sequence[str]) -> int | None:
    """The device owner's seat (the first ``"human"``), else the first person's."""
    if HUMAN in seats:
        return seats.index(HUMAN)
    return next((i for i, kind in enumerate(seats) if is_person(kind)), None)
