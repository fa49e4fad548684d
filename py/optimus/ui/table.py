"""What every game table shares, as plain data: settings, pacing, log, highlights, ranks.

The DOM layer (``web/table.py``) draws these; game pages add only their own
board.  Nothing here touches the browser.

>>> bot_delay("instant", reduced_motion=False), bot_delay("normal", reduced_motion=True)
(0.0, 0.8)
>>> animation_ms("normal", reduced_motion=True)
0
>>> ranks([10, 30, 10])
[2, 1, 2]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from optimus import i18n
from optimus.core import jsontext
from optimus.core.protocol import JSON, GameError, IllegalMove
from optimus.core.rng import Rng
from optimus.i18n import N_, _, ngettext


class Words(Mapping[str, str]):
    """A mapping of keys to sentences kept as data (``N_``), read in the language spoken
    when they are read: ``SPEED_LABELS["fast"]`` is "Fast", or "Rápida" in Portuguese.

    >>> Words({"a": "Hello"})["a"], list(Words({"a": "Hello"}).items())
    ('Hello', [('a', 'Hello')])
    """

    def __init__(self, english: Mapping[str, str]) -> None:
        self.english = dict(english)
        """The sentences in English (the catalogs' keys)."""

    def __getitem__(self, key: str) -> str:
        return _(self.english[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self.english)

    def __len__(self) -> int:
        return len(self.english)


SPEEDS: dict[str, float] = {"instant": 0.0, "fast": 0.35, "normal": 0.8, "slow": 1.4}
"""Seconds from one bot action to the next, per speed setting."""

SPEED_LABELS: Mapping[str, str] = Words(
    {
        "instant": N_("Instant (no animation)"),
        "fast": N_("Fast"),
        "normal": N_("Normal"),
        "slow": N_("Slow"),
    }
)
"""The speed setting's choices, in the language spoken when read."""

THINKING: dict[str, float] = {"quick": 800.0, "careful": 4000.0}
"""Per "Bots think" setting, what the bots between two of a person's decisions share
(ms of wall time, :attr:`optimus.ui.session.TableSession.wait_ms`): "quick" answers in
about a second; "careful" lets a searching bot use its whole budget on most devices."""

THINKING_LABELS: Mapping[str, str] = Words(
    {
        "quick": N_("Quickly (about a second)"),
        "careful": N_("Carefully (a few seconds, stronger)"),
    }
)
"""The "Bots think" setting's choices, in the language spoken when read."""

MAX_SETTINGS = 20_000
"""The longest settings text read (characters): they are a few short values."""

SAVE_SET_ASIDE = N_(
    "Your saved game could not be read, so it was set aside (a copy is kept in this "
    "browser). You can start a new game."
)
SAVE_STOPPED = N_(
    "Your saved game stopped the page the last time it was opened, so it was set aside "
    "(a copy is kept in this browser). You can start a new game."
)
SAVE_REMOVED = N_(
    "Your saved game could not be read, and this browser's storage is too full to keep a "
    "copy of it, so it was removed. You can start a new game."
)
STORAGE_REFUSED = N_(
    "This browser does not let the page keep data, so this game cannot be resumed "
    "after you close the page."
)
STORAGE_FULL = N_(
    "This browser's storage for this site is full, so a new game cannot be saved: it "
    "cannot be resumed after you close the page. A game saved before is kept."
)
SAVE_FULL = N_(
    "This browser's storage for this site is full, so this game can no longer be saved. "
    "If you close the page, it will resume from the last move that was saved."
)
OTHER_TAB = N_("This game is open in another tab. Play it here, or close this tab.")
TIE_RULE = N_("Players with the same total share the victory: there is no tie-break.")
"""These sentences are English (catalog keys): show them with ``_(ui.TIE_RULE)``."""


# -- what the frame draws for every game ------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """A move the person can make now, with the words on its button."""

    move: str
    label: str


@dataclass(frozen=True)
class Status:
    """The status line: whose turn it is and what they must do now, in words."""

    tone: str
    """``you`` (the person acts), ``bot``, ``wait`` or ``over``."""
    text: str


@dataclass(frozen=True)
class Panel:
    """A player's compact panel (the game draws its summary and details beside it)."""

    seat: int
    name: str
    score: int
    turn: bool
    """Whether this player is to act now ("▶ to play")."""
    you: bool
    last: str
    """The player's last action, short ("took row 2"); "" before the first one."""


@dataclass(frozen=True)
class ScoreLine:
    """One line of a player's breakdown on the end screen: ``text``, ``detail``, ``value``."""

    text: str
    value: str
    """The points, as shown (``+6``, ``12``) or a word (a solo rating band)."""
    detail: str = ""
    """Small words after the text (how the points were made)."""
    kind: str = ""
    """``plus``, ``minus`` or a game's own class for the line."""
    icon: str = ""
    """A piece the game draws before the text (a card, an area's chip): its own key."""
    data: tuple[tuple[str, str], ...] = ()
    """``data-*`` attributes of the value (``(("area", "blue"),)``), for tests and styles."""


@dataclass(frozen=True)
class FinalScore:
    """A player's result: rank (ties share one), total and the breakdown in the game's terms."""

    seat: int
    name: str
    rank: int
    total: int
    lines: tuple[ScoreLine, ...]
    why: str = ""
    """One sentence on what counted (Fileiras: which colours counted plus)."""


@dataclass(frozen=True)
class EndScreen:
    """The end screen: the headline, how totals and ties were decided, every player's result."""

    headline: str
    rules: str
    players: tuple[FinalScore, ...]
    """Best first (rank, then seat)."""


def refusal(exc: GameError) -> str:
    """What the table says when the person's move is refused: the reason in words, as a sentence.

    A refused move shows its reason only, never the move's notation.

    >>> refusal(IllegalMove("o2 H6", "the 2 die means exactly 2 boxes, not 1"))
    'The 2 die means exactly 2 boxes, not 1.'
    """
    reason = (exc.reason if isinstance(exc, IllegalMove) else str(exc)).strip().rstrip(".")
    if not reason:
        return _("That move is not allowed now.")
    return f"{reason[:1].upper()}{reason[1:]}."  # the game's reason, in the language spoken


def bot_delay(speed: str, reduced_motion: bool) -> float:
    """Seconds between two bot actions.

    Reduced motion removes movement, not pacing: the table still waits so that a
    player can follow each action.
    """
    del reduced_motion
    return SPEEDS.get(speed, SPEEDS["normal"])


def animation_ms(speed: str, reduced_motion: bool) -> int:
    """How long a card or die travels (0: it just appears in its new place)."""
    if reduced_motion:
        return 0
    return int(min(600.0, SPEEDS.get(speed, SPEEDS["normal"]) * 700))


def read_settings(
    raw: str | None, defaults: Mapping[str, JSON], choices: Mapping[str, Sequence[JSON]]
) -> dict[str, JSON]:
    """Saved settings checked against ``choices``; anything unknown or invalid is the default.

    >>> read_settings('{"speed": "fast", "players": 9}', {"speed": "normal", "players": 3},
    ...               {"speed": list(SPEEDS), "players": [2, 3, 4, 5]})
    {'speed': 'fast', 'players': 3}
    >>> read_settings("{not json", {"speed": "normal"}, {"speed": list(SPEEDS)})
    {'speed': 'normal'}
    """
    settings = dict(defaults)
    try:
        data = jsontext.loads(raw, MAX_SETTINGS) if raw else {}
    except ValueError:
        data = {}
    if isinstance(data, dict):
        for key, allowed in choices.items():
            value = data.get(key)
            # bool is an int in Python: compare types too, so True never passes for 1.
            if any(value == a and type(value) is type(a) for a in allowed):
                settings[key] = value
    return settings


def log_lines(
    entries: Iterable[Mapping[str, Any]],
    describe: Callable[[Mapping[str, Any]], str | None],
    limit: int = 40,
) -> list[str]:
    """One sentence per logged decision, newest first (events without a sentence skipped)."""
    lines = [line for entry in entries if (line := describe(entry))]
    return lines[::-1][:limit]


def last_actions(
    entries: Sequence[Mapping[str, Any]], kinds: Iterable[str]
) -> dict[int, tuple[int, Mapping[str, Any]]]:
    """Each player's latest action among ``kinds``: seat -> (index in ``entries``, entry).

    The table keeps it highlighted until that player acts again.

    >>> log = [{"event": "take", "player": 0}, {"event": "draw", "player": 1},
    ...        {"event": "place", "player": 0}]
    >>> {s: e["event"] for s, (_, e) in last_actions(log, {"take", "place"}).items()}
    {0: 'place'}
    """
    wanted = set(kinds)
    last: dict[int, tuple[int, Mapping[str, Any]]] = {}
    for i, entry in enumerate(entries):
        player = entry.get("player")
        if entry.get("event") in wanted and isinstance(player, int):
            last[player] = (i, entry)
    return last


def ranks(totals: Sequence[float]) -> list[int]:
    """Competition ranks: equal totals share a rank, the next rank skips."""
    return [1 + sum(1 for t in totals if t > mine) for mine in totals]


def headline(winners: Sequence[int], names: Sequence[str], you: int | None) -> str:
    """The end screen's first line, in words.

    >>> headline([0], ["You", "Bot 2"], 0), headline([1], ["You", "Bot 2"], 0)
    ('You win!', 'Bot 2 wins!')
    >>> headline([0, 1], ["You", "Bot 2"], 0)
    'Shared victory: You and Bot 2.'
    """
    if len(winners) == 1:
        if winners[0] == you:
            return _("You win!")
        return _("{who} wins!", who=names[winners[0]])
    return _("Shared victory: {names}.", names=i18n.names([names[w] for w in winners]))


def points(n: int) -> str:
    """``1 pt``, ``-3 pts`` (the number as the language writes it).

    >>> points(1), points(-3), points(1234)
    ('1 pt', '-3 pts', '1,234 pts')
    """
    return ngettext("{n} pt", "{n} pts", n)


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
    """
    people = sum(1 for kind in seats if kind == "human" or kind.startswith("human:"))
    owner = seats.index("human") if "human" in seats else None
    names = []
    for i, kind in enumerate(seats):
        seat = i + 1
        other = seat if owner is None or i < owner else i  # the set-up form's number
        if kind == "human":
            if people == 1:
                names.append(_("You") if human is None else human)
            elif human is not None and owner == i:
                names.append(human)
            else:
                names.append(_("Player {seat}", seat=seat))
        elif kind.startswith("human:"):
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
        index = min(max(int(place), 1), count) - 1 if place.isdigit() else 0
    return [*bots[:index], "human", *bots[index:]]


def human_seat(seats: Sequence[str]) -> int | None:
    """The device owner's seat (the first ``"human"``), else the first person's."""
    if "human" in seats:
        return seats.index("human")
    return next((i for i, kind in enumerate(seats) if kind.startswith("human:")), None)


class LogNotes:
    """The table's own sentences (a player's bot that failed) among the game's log lines.

    The game gives its newest lines only; a note is placed where it was made by
    counting the lines that arrived since (the new lines are those before the
    previous newest ones).

    >>> log = LogNotes()
    >>> log.lines(["B draws", "A takes"], ["B failed: normal played"])
    [('note', 'B failed: normal played'), ('', 'B draws'), ('', 'A takes')]
    >>> log.lines(["A draws", "B draws", "A takes"], [])
    [('', 'A draws'), ('note', 'B failed: normal played'), ('', 'B draws'), ('', 'A takes')]
    >>> log.lines(["C", "A draws"], [])  # the game shows its newest two lines only
    [('', 'C'), ('', 'A draws')]
    """

    def __init__(self) -> None:
        self.previous: list[str] = []
        self.total = 0
        self.notes: list[tuple[int, str]] = []

    def lines(self, lines: list[str], notes: list[str]) -> list[tuple[str, str]]:
        """(class, sentence) pairs, newest first: ``""`` for the game's, ``"note"`` for ours."""
        self.total += _arrived(self.previous, lines)
        self.previous = list(lines)
        self.notes += [(self.total, note) for note in notes]
        keyed: list[tuple[float, str, str]] = [
            (self.total - 1 - j, "", line) for j, line in enumerate(lines)
        ]
        oldest = self.total - len(lines)
        keyed += [
            (at - 0.5, "note", note) for at, note in self.notes if at > oldest or at == self.total
        ]
        keyed.sort(key=lambda item: -item[0])
        return [(cls, line) for _, cls, line in keyed]


def _arrived(previous: list[str], lines: list[str]) -> int:
    """How many of ``lines`` (newest first) are new since ``previous``."""
    if not previous:
        return len(lines)
    for k in range(len(lines) + 1):
        m = min(len(lines) - k, len(previous))
        if lines[k : k + m] == previous[:m]:
            return k
    return len(lines)
