"""What every game table shares, as plain data: settings, log, highlights, ranks, notices.

The DOM layer (``web/table.py``) draws these; game pages add only their own
board.  Nothing here touches the browser.  Its parts each have a module of their
own, and are named here too (``ui.Status``, ``ui.seat_names``...):
:mod:`.shapes` (what the frame draws), :mod:`.pacing` (speeds, thinking time),
:mod:`.seats` (who sits where, their names, the person rule), :mod:`.words`.

>>> ranks([10, 30, 10])
[2, 1, 2]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from optimus import i18n
from optimus.core import jsontext
from optimus.core.protocol import JSON, GameError, IllegalMove
from optimus.i18n import N_, _, ngettext

from .pacing import SPEED_LABELS, SPEEDS, THINKING, THINKING_LABELS, animation_ms, bot_delay
from .seats import (
    BOT_KINDS,
    BOT_NAMES,
    DRAWN_START,
    HUMAN,
    LEVEL_NAMES,
    ORDINALS,
    PERSON_NAME,
    bot_kind,
    bot_name,
    human_seat,
    is_person,
    level_name,
    person_name,
    seat_choices,
    seat_names,
    seat_order,
)
from .shapes import Choice, EndScreen, FinalScore, Panel, ScoreLine, Status
from .words import Words

__all__ = [
    "BOT_KINDS",
    "BOT_NAMES",
    "DRAWN_START",
    "HUMAN",
    "LEVEL_NAMES",
    "MAX_SETTINGS",
    "ORDINALS",
    "OTHER_TAB",
    "PERSON_NAME",
    "SAVE_FULL",
    "SAVE_REMOVED",
    "SAVE_SET_ASIDE",
    "SAVE_STOPPED",
    "SPEEDS",
    "SPEED_LABELS",
    "STORAGE_FULL",
    "STORAGE_REFUSED",
    "THINKING",
    "THINKING_LABELS",
    "TIE_RULE",
    "Choice",
    "EndScreen",
    "FinalScore",
    "LogNotes",
    "Panel",
    "ScoreLine",
    "Status",
    "Words",
    "animation_ms",
    "bot_delay",
    "bot_kind",
    "bot_name",
    "headline",
    "human_seat",
    "is_person",
    "last_actions",
    "level_name",
    "log_lines",
    "person_name",
    "points",
    "ranks",
    "read_settings",
    "refusal",
    "seat_choices",
    "seat_names",
    "seat_order",
]

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


def tied(totals: Sequence[float]) -> bool:
    """Whether two players or more have the same total: only then does the end screen
    say how ties are decided.

    >>> tied([3, 5, 3]), tied([4]), tied([1, 2])
    (True, False, False)
    """
    return len(set(totals)) < len(totals)


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
