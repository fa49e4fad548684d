"""The player's records: every finished game, per game and bot level, kept in the browser.

Plain data, saved as one versioned JSON text (the page keeps it in storage, or in
memory when storage is refused).  Per game and *level* (``solo``, or the
strongest bot level at the table): games played, wins, best and mean score, the
last 30 scores, the solo rating bands reached; per game, the daily challenges
(the first finished try of a day counts) and their streak; and the last 20
finished games' records, plus every daily challenge's, to watch again.

A text that is not a records store (corrupt, too big or too deep, another
version) is never trusted: :func:`load` gives a fresh store and says so; the page
keeps the text aside.

>>> r = Records()
>>> r.add(Result("fileiras", "hard", 3, 41, True, "2026-12-02", {"events": []}))
False
>>> r.add(Result("fileiras", "hard", 3, 35, False, "2026-12-02", {"events": []}))
False
>>> s = r.stats("fileiras")[0]
>>> s.level, s.played, s.wins, s.best, s.mean
('hard', 2, 1, 41, 38.0)
>>> load(dump(r)).records.stats("fileiras") == r.stats("fileiras")
True
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from optimus.core import jsontext
from optimus.core.protocol import JSON

VERSION = 1
SCORES_KEPT = 30
REPLAYS_KEPT = 20
MAX_TEXT = 4_000_000
"""The largest records text read (characters); a bigger one is set aside."""
MAX_DEPTH = 64
"""The deepest nesting of brackets a records text may have (games' records are shallow)."""
LEVELS_ORDER = ("solo", "people", "random", "easy", "normal", "hard")


@dataclass(frozen=True)
class Result:
    """A finished game, as the records keep it."""

    game: str
    level: str
    """``solo``, or the strongest bot level at the table (a player's bot counts as its name)."""
    players: int
    score: int
    won: bool
    day: str
    """The date it ended (``2026-12-02``, UTC)."""
    record: Mapping[str, Any]
    """The game's record (``Record.to_dict()``): enough to replay it."""
    rating: str = ""
    """The solo rating band reached, if any."""
    daily: str = ""
    """The date of the daily challenge it was a try of, or ""."""


@dataclass(frozen=True)
class Stats:
    """One line of the records page."""

    game: str
    level: str
    played: int
    wins: int
    best: int
    mean: float
    scores: tuple[int, ...]
    """The last scores, oldest first (at most 30)."""
    bands: Mapping[str, int]
    """How many times each solo rating band was reached."""


@dataclass
class Records:
    """Everything kept: ``games[game][level]`` lines, ``daily[game][day]``, replays."""

    games: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    daily: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    replays: list[dict[str, Any]] = field(default_factory=list)

    def add(self, result: Result) -> bool:
        """Keep ``result``; True when it is the counted try of a daily challenge (the
        first finished one of that day), False for practice and ordinary games."""
        line = self.games.setdefault(result.game, {}).setdefault(
            result.level,
            {"played": 0, "wins": 0, "best": None, "total": 0, "scores": [], "bands": {}},
        )
        line["played"] += 1
        line["wins"] += int(result.won)
        line["best"] = result.score if line["best"] is None else max(line["best"], result.score)
        line["total"] += result.score
        line["scores"] = [*line["scores"], result.score][-SCORES_KEPT:]
        if result.rating:
            line["bands"][result.rating] = line["bands"].get(result.rating, 0) + 1
        counted = False
        if result.daily:
            days = self.daily.setdefault(result.game, {})
            if result.daily not in days:
                days[result.daily] = {"score": result.score, "rating": result.rating}
                counted = True
        entry = {
            "game": result.game,
            "level": result.level,
            "players": result.players,
            "score": result.score,
            "won": result.won,
            "day": result.day,
            "daily": result.daily if counted else "",
            "record": dict(result.record),
        }
        self.replays.append(entry)
        ordinary = [i for i, r in enumerate(self.replays) if not r["daily"]]
        for i in reversed(ordinary[: max(0, len(ordinary) - REPLAYS_KEPT)]):
            del self.replays[i]
        return counted

    def stats(self, game: str) -> list[Stats]:
        """``game``'s lines, by level (solo first, then weakest to strongest)."""
        lines = self.games.get(game, {})

        def order(level: str) -> tuple[int, str]:
            known = level in LEVELS_ORDER
            return (LEVELS_ORDER.index(level) if known else len(LEVELS_ORDER), level)

        out = []
        for level in sorted(lines, key=order):
            line = lines[level]
            played = int(line["played"])
            out.append(
                Stats(
                    game,
                    level,
                    played,
                    int(line["wins"]),
                    int(line["best"] if line["best"] is not None else 0),
                    round(line["total"] / played, 1) if played else 0.0,
                    tuple(int(s) for s in line["scores"]),
                    dict(line["bands"]),
                )
            )
        return out

    def daily_score(self, game: str, day: str) -> int | None:
        """The counted score of ``game``'s challenge on ``day``, if it was played."""
        entry = self.daily.get(game, {}).get(day)
        return int(entry["score"]) if entry else None

    def streak(self, game: str, today: datetime.date) -> int:
        """Days in a row, up to today (or yesterday, if today's is still to play), on
        which ``game``'s daily challenge was finished.

        >>> days = {"2026-12-01": {"score": 1}, "2026-12-02": {"score": 2}}
        >>> r, day = Records(daily={"optimus2": days}), datetime.date
        >>> r.streak("optimus2", day(2026, 12, 2)), r.streak("optimus2", day(2026, 12, 3))
        (2, 2)
        >>> r.streak("optimus2", datetime.date(2026, 12, 5))
        0
        """
        days = self.daily.get(game, {})
        day = today if today.isoformat() in days else today - datetime.timedelta(days=1)
        count = 0
        while day.isoformat() in days:
            count += 1
            day -= datetime.timedelta(days=1)
        return count


@dataclass(frozen=True)
class Loaded:
    """What :func:`load` read: the records, and why the text was not used (or "")."""

    records: Records
    problem: str = ""
    """A short code for the tests and the console ("too deep"); the page says it in words."""


def dump(records: Records) -> str:
    """The records as the text kept in storage (and exported)."""
    data: dict[str, JSON] = {
        "format": "optimus-table-records",
        "version": VERSION,
        "games": records.games,
        "daily": records.daily,
        "replays": records.replays,
    }
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def load(text: str | None) -> Loaded:
    """Records from their text; a fresh store with the reason when the text cannot be
    trusted (the caller keeps the text aside before replacing it).

    >>> load(None).problem, load('{"format": "optimus-table-records", "version": 1}').problem
    ('', '')
    >>> load("[" * 9000).problem
    'too deep'
    >>> load('{"format": "optimus-table-records", "version": 99}').problem
    'version 99'
    """
    if not text:
        return Loaded(Records())
    refused = jsontext.problem(text, MAX_TEXT, MAX_DEPTH)
    if refused:
        return Loaded(Records(), refused.partition(" (")[0])
    try:
        data = json.loads(text)
    except ValueError:
        return Loaded(Records(), "not JSON")  # not shown
    if not isinstance(data, dict) or data.get("format") != "optimus-table-records":
        return Loaded(Records(), "not a records file")  # not shown
    if data.get("version") != VERSION:
        return Loaded(Records(), f"version {data.get('version')}")
    try:
        records = Records(
            _games(data.get("games", {})),
            _daily(data.get("daily", {})),
            _replays(data.get("replays", [])),
        )
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        return Loaded(Records(), f"damaged ({type(exc).__name__})")
    return Loaded(records)


def _games(raw: Any) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for game, levels in dict(raw).items():
        for level, line in dict(levels).items():
            scores = [int(s) for s in line["scores"]][-SCORES_KEPT:]
            bands = {str(k): int(v) for k, v in dict(line.get("bands", {})).items()}
            played, wins = int(line["played"]), int(line["wins"])
            if played < 0 or not 0 <= wins <= played:
                raise ValueError("counts")
            best = line["best"]
            out.setdefault(str(game), {})[str(level)] = {
                "played": played,
                "wins": wins,
                "best": None if best is None else int(best),
                "total": int(line["total"]),
                "scores": scores,
                "bands": bands,
            }
    return out


def _daily(raw: Any) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for game, days in dict(raw).items():
        for day, entry in dict(days).items():
            datetime.date.fromisoformat(str(day))
            out.setdefault(str(game), {})[str(day)] = {
                "score": int(entry["score"]),
                "rating": str(entry.get("rating", "")),
            }
    return out


def _replays(raw: Any) -> list[dict[str, Any]]:
    out = []
    for entry in list(raw):
        if not isinstance(entry, dict) or not isinstance(entry.get("record"), dict):
            raise ValueError("replay")
        out.append(
            {
                "game": str(entry["game"]),
                "level": str(entry["level"]),
                "players": int(entry["players"]),
                "score": int(entry["score"]),
                "won": bool(entry["won"]),
                "day": str(entry["day"]),
                "daily": str(entry.get("daily", "")),
                "record": entry["record"],
            }
        )
    return out


def merge(into: Records, other: Records) -> Records:
    """``into`` with ``other``'s records added (an import into a browser that has some):
    counts add up, bests and daily days are kept, replays joined (newest kept)."""
    merged = load(dump(into)).records
    for game, levels in other.games.items():
        for level, line in levels.items():
            mine = merged.games.setdefault(game, {}).get(level)
            if mine is None:
                merged.games[game][level] = json.loads(json.dumps(line))
                continue
            mine["played"] += line["played"]
            mine["wins"] += line["wins"]
            bests = [b for b in (mine["best"], line["best"]) if b is not None]
            mine["best"] = max(bests) if bests else None
            mine["total"] += line["total"]
            mine["scores"] = [*mine["scores"], *line["scores"]][-SCORES_KEPT:]
            for band, n in line["bands"].items():
                mine["bands"][band] = mine["bands"].get(band, 0) + n
    for game, days in other.daily.items():
        for day, entry in days.items():
            merged.daily.setdefault(game, {}).setdefault(day, dict(entry))
    seen = {json.dumps(r, sort_keys=True) for r in merged.replays}
    merged.replays += [r for r in other.replays if json.dumps(r, sort_keys=True) not in seen]
    ordinary = [i for i, r in enumerate(merged.replays) if not r["daily"]]
    for i in reversed(ordinary[: max(0, len(ordinary) - REPLAYS_KEPT)]):
        del merged.replays[i]
    return merged


def level_of(seats: list[str] | tuple[str, ...]) -> str:
    """The level a table's game counts under: ``solo`` for one person alone, ``people``
    for people only (pass-and-play), else its strongest bot (a level of
    :data:`LEVELS_ORDER`, or a player's bot by its name).

    >>> level_of(["human"]), level_of(["easy", "human", "hard"]), level_of(["human", "human:Ana"])
    ('solo', 'hard', 'people')
    >>> level_of(["human", "mybot:Bot", "easy"])
    'mybot:Bot'
    """
    bots = [s for s in seats if s != "human" and not s.startswith("human:")]
    if not bots:
        return "solo" if len(seats) == 1 else "people"

    def strength(level: str) -> int:
        return LEVELS_ORDER.index(level) if level in LEVELS_ORDER else len(LEVELS_ORDER)

    return max(bots, key=strength)


def chart_points(scores: tuple[int, ...] | list[int], width: int = 120, height: int = 32) -> str:
    """The ``points`` of an SVG polyline drawing ``scores`` left to right in a
    ``width`` x ``height`` box (the highest score at the top, 2 units of margin).

    >>> chart_points([10, 20, 15], 100, 24)
    '2.0,22.0 50.0,2.0 98.0,12.0'
    >>> chart_points([5], 100, 24)
    '2.0,12.0 98.0,12.0'
    """
    if not scores:
        return ""
    values = list(scores) if len(scores) > 1 else [scores[0], scores[0]]
    low, high = min(values), max(values)
    span = high - low
    step = (width - 4) / (len(values) - 1)
    points = []
    for i, v in enumerate(values):
        y = height / 2 if span == 0 else 2 + (high - v) * (height - 4) / span
        points.append(f"{2 + i * step:.1f},{y:.1f}")
    return " ".join(points)


def rounds(marks: list[int | None]) -> list[tuple[int, int]]:
    """Where each round starts in a replay: ``marks[k]`` is the round (or roll) after
    ``k`` events; gives (round, the first k showing it), in order.

    >>> rounds([None, 1, 1, 2, 2, 3])
    [(1, 1), (2, 3), (3, 5)]
    """
    out: list[tuple[int, int]] = []
    for k, mark in enumerate(marks):
        if mark is not None and (not out or out[-1][0] != mark):
            out.append((mark, k))
    return out
