"""The player's records: every finished game, per game and bot level, kept in the browser.

Plain data, saved as one versioned JSON text (the page keeps it in storage, or in
memory when storage is refused).  Per game and *level* (``solo``, or the
strongest bot level at the table): games played, wins, best and mean score, the
last 30 scores, the solo rating bands reached; per game, the daily challenges
(the first finished try of a day counts) and their streak; and the last 20
finished games' records, plus every daily challenge's, to watch again.

Every finished game is kept as one small *result* with an identity (its ``id``):
a store is a set of results, so merging one into another (an import, or two tabs
writing at once) counts each game once however often it is merged.  A store of
the first version (counts only) keeps its counts as a *base* line, named by its
content, which counts once as well.

A text that is not a records store (corrupt, too big or too deep, another
version, a number no game can reach) is never trusted: :func:`load` gives a fresh
store and says why; the page keeps the text aside.  :func:`fit` keeps a store
within :data:`BUDGET` characters (oldest replays go first, never a result), so
nothing written is ever refused by the next read.

>>> r = Records()
>>> r.add(Result("mygame", "hard", 3, 41, True, "2026-12-02", {"events": []}, ident="a1"))
False
>>> r.add(Result("mygame", "hard", 3, 35, False, "2026-12-02", {"events": []}, ident="b2"))
False
>>> s = r.stats("mygame")[0]
>>> s.level, s.played, s.wins, s.best, s.mean
('hard', 2, 1, 41, 38.0)
>>> load(dump(r)).records.stats("mygame") == r.stats("mygame")
True
>>> merge(r, r).stats("mygame") == r.stats("mygame")  # each game counts once
True
"""

from __future__ import annotations

import datetime
import hashlib
import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from optimus.core import jsontext
from optimus.core.protocol import JSON
from optimus.i18n import N_
from optimus.ui.seats import is_person

VERSION = 2
SCORES_KEPT = 30
HISTORY_KEPT = 1000
"""The most scores a records page's history chart shows (the newest)."""
REPLAYS_KEPT = 20
MAX_TEXT = 4_000_000
"""The largest records text read (characters); a bigger one is set aside."""
BUDGET = 1_500_000
"""The largest records text written (characters): well under :data:`MAX_TEXT`, and
under the few megabytes a browser gives a site's storage."""
MAX_DEPTH = 64
"""The deepest nesting of brackets a records text may have (games' records are shallow)."""
SCORE_LIMIT = 100_000
"""No game of the site scores beyond this, up or down: a score past it is not a score."""
PLAYED_LIMIT = 10_000_000
"""No one plays more games than this: a count past it is not a count."""
LEVELS_ORDER = ("solo", "people", "random", "easy", "normal", "hard")


def new_ident() -> str:
    """A result's identity: random, 12 hex digits."""
    return os.urandom(6).hex()


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
    ident: str = ""
    """Its identity ("": :meth:`Records.add` gives it one)."""
    assisted: bool = False
    """Whether a hint was used in it (:mod:`optimus.ui.hint`): it counts, marked so."""

    def identified(self) -> Result:
        """This result with an identity (the same one on every call of the copy)."""
        return self if self.ident else replace(self, ident=new_ident())


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
    history: tuple[int, ...] = ()
    """Every score known one by one, oldest first (at most :data:`HISTORY_KEPT`; a
    first-version store kept its last 30 only)."""


def _line() -> dict[str, Any]:
    return {"bases": [], "results": []}


@dataclass
class Records:
    """Everything kept: ``games[game][level]`` lines (``results``: ``[id, score, won,
    band]`` each, oldest first; ``bases``: the counts of a first-version store),
    ``daily[game][day]``, replays, and ``accuracy[game][id]``: the coach's review of
    a kept game (:meth:`keep_accuracy`)."""

    games: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    daily: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    replays: list[dict[str, Any]] = field(default_factory=list)
    accuracy: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    """Per game and result id, the accuracy of its person's decisions as the coach
    reviewed them: ``decisions``, ``mean_loss``, ``best_share``, ``coach`` (its level)
    and ``day`` (the day the game ended): kept apart from the replays, so that a
    replay dropped for room keeps its accuracy in the chart."""

    def keep_accuracy(self, game: str, ident: str, accuracy: Mapping[str, Any]) -> None:
        """Keep the review's ``accuracy`` of the kept game ``ident`` (again: replaced).

        >>> r = Records()
        >>> r.add(Result("g", "hard", 2, 41, True, "2026-12-02", {}, ident="a1"))
        False
        >>> r.keep_accuracy("g", "a1", {"decisions": 9, "mean_loss": 0.5, "best_share": 0.5,
        ...                             "coach": "hard"})
        >>> r.accuracy_of("g", "a1")["day"], load(dump(r)).records.accuracy == r.accuracy
        ('2026-12-02', True)
        """
        entry = _accuracy_entry({**accuracy, "day": accuracy.get("day") or self.day_of(ident)})
        self.accuracy.setdefault(game, {})[ident] = entry

    def accuracy_of(self, game: str, ident: str) -> dict[str, Any] | None:
        """The kept accuracy of the kept game ``ident`` (None: never reviewed)."""
        return self.accuracy.get(game, {}).get(ident)

    def day_of(self, ident: str) -> str:
        """The day the kept game ``ident`` ended, as its replay says ("" when gone)."""
        return next((str(r["day"]) for r in self.replays if r["id"] == ident), "")

    def has(self, game: str, level: str, ident: str) -> bool:
        """Whether the result ``ident`` is counted already."""
        line = self.games.get(game, {}).get(level)
        return line is not None and any(r[0] == ident for r in line["results"])

    def add(self, result: Result) -> bool:
        """Keep ``result`` (once: a result already kept, by its identity, changes
        nothing); True when it is the counted try of a daily challenge (the first
        finished one of that day), False for practice and ordinary games."""
        result = result.identified()
        if self.has(result.game, result.level, result.ident):
            days = self.daily.get(result.game, {})
            return bool(result.daily) and days.get(result.daily, {}).get("id") == result.ident
        line = self.games.setdefault(result.game, {}).setdefault(result.level, _line())
        line["results"].append([result.ident, result.score, int(result.won), result.rating])
        counted = False
        if result.daily:
            days = self.daily.setdefault(result.game, {})
            if result.daily not in days:
                days[result.daily] = {
                    "score": result.score,
                    "rating": result.rating,
                    "id": result.ident,
                }
                if result.assisted:
                    days[result.daily]["assisted"] = True
                counted = True
        entry = {
            "id": result.ident,
            "game": result.game,
            "level": result.level,
            "players": result.players,
            "score": result.score,
            "won": result.won,
            "day": result.day,
            "daily": result.daily if counted else "",
            "record": dict(result.record),
        }
        if result.assisted:
            entry["assisted"] = True
        self.replays.append(entry)
        _trim_replays(self.replays)
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
            bases, results = line["bases"], line["results"]
            played = sum(b["played"] for b in bases) + len(results)
            if not played:
                continue
            bests = [b["best"] for b in bases if b["best"] is not None]
            bests += [r[1] for r in results]
            total = sum(b["total"] for b in bases) + sum(r[1] for r in results)
            scores = [s for b in bases for s in b["scores"]] + [r[1] for r in results]
            bands: dict[str, int] = {}
            for b in bases:
                for band, n in b["bands"].items():
                    bands[band] = bands.get(band, 0) + n
            for r in results:
                if r[3]:
                    bands[r[3]] = bands.get(r[3], 0) + 1
            out.append(
                Stats(
                    game,
                    level,
                    played,
                    sum(b["wins"] for b in bases) + sum(r[2] for r in results),
                    max(bests, default=0),
                    round(total / played, 1),
                    tuple(scores[-SCORES_KEPT:]),
                    bands,
                    tuple(scores[-HISTORY_KEPT:]),
                )
            )
        return out

    def daily_score(self, game: str, day: str) -> int | None:
        """The counted score of ``game``'s challenge on ``day``, if it was played."""
        entry = self.daily.get(game, {}).get(day)
        return int(entry["score"]) if entry else None

    def daily_result(self, game: str, day: str) -> tuple[int, str] | None:
        """The counted try of ``game``'s challenge on ``day`` (its score and solo rating
        band, "" when none): what is shared, whichever try just ended.

        >>> r = Records()
        >>> r.add(Result("g", "solo", 1, 36, False, "2026-12-02", {}, "B", daily="2026-12-02"))
        True
        >>> r.add(Result("g", "solo", 1, 32, False, "2026-12-02", {}, "C", daily="2026-12-02"))
        False
        >>> r.daily_result("g", "2026-12-02"), r.daily_result("g", "2026-12-03")
        ((36, 'B'), None)
        """
        entry = self.daily.get(game, {}).get(day)
        return (int(entry["score"]), str(entry.get("rating", ""))) if entry else None

    def daily_assisted(self, game: str, day: str) -> bool:
        """Whether the counted try of ``game``'s challenge on ``day`` used a hint.

        >>> r = Records()
        >>> day = "2026-12-02"
        >>> r.add(Result("g", "solo", 1, 36, False, day, {}, "", day, assisted=True))
        True
        >>> r.daily_assisted("g", day), r.daily_assisted("g", "2026-12-03")
        (True, False)
        """
        return bool(self.daily.get(game, {}).get(day, {}).get("assisted"))

    def streak(self, game: str, today: datetime.date) -> int:
        """Days in a row, up to today (or yesterday, if today's is still to play), on
        which ``game``'s daily challenge was finished.

        >>> days = {"2026-12-01": {"score": 1}, "2026-12-02": {"score": 2}}
        >>> r, day = Records(daily={"mygame": days}), datetime.date
        >>> r.streak("mygame", day(2026, 12, 2)), r.streak("mygame", day(2026, 12, 3))
        (2, 2)
        >>> r.streak("mygame", datetime.date(2026, 12, 5))
        0
        """
        days = self.daily.get(game, {})
        day = today if today.isoformat() in days else today - datetime.timedelta(days=1)
        count = 0
        while day.isoformat() in days:
            count += 1
            day -= datetime.timedelta(days=1)
        return count


def _trim_replays(replays: list[dict[str, Any]], keep: int = REPLAYS_KEPT) -> None:
    """Keep the last ``keep`` ordinary games' replays (every daily challenge's stays)."""
    ordinary = [i for i, r in enumerate(replays) if not r["daily"]]
    for i in reversed(ordinary[: max(0, len(ordinary) - keep)]):
        del replays[i]


@dataclass(frozen=True)
class Loaded:
    """What :func:`load` read: the records, and why the text was not used (or "")."""

    records: Records
    problem: str = ""
    """A short code for the tests and the console ("too deep"); :func:`said` says it in
    words."""


def dump(records: Records) -> str:
    """The records as the text kept in storage (and exported)."""
    data: dict[str, JSON] = {
        "format": "optimus-table-records",
        "version": VERSION,
        "games": records.games,
        "daily": records.daily,
        "replays": records.replays,
    }
    if records.accuracy:  # a store never reviewed reads as it always did
        data["accuracy"] = records.accuracy
    return json.dumps(data, separators=(",", ":"), sort_keys=True, allow_nan=False)


class Refused(ValueError):
    """A records text holds something no store of ours could: a number out of range,
    counts that disagree."""


def _no_constant(name: str) -> Any:
    raise Refused(f"number {name}")


def _float(text: str) -> Any:
    value = float(text)
    if not math.isfinite(value):
        raise Refused(f"number {text[:20]}")
    return value


def load(text: str | None) -> Loaded:
    """Records from their text; a fresh store with the reason when the text cannot be
    trusted (the caller keeps the text aside before replacing it).  Every number is
    checked: whole, within what a game can score or a person can play, counts that
    agree (``Infinity`` and ``1e400`` are no numbers).

    >>> load(None).problem, load('{"format": "optimus-table-records", "version": 1}').problem
    ('', '')
    >>> load("[" * 9000).problem
    'too deep'
    >>> load('{"format": "optimus-table-records", "version": 99}').problem
    'version 99'
    >>> load('{"format": "optimus-table-records", "version": 2, "games": Infinity}').problem
    'number Infinity'
    """
    if not text:
        return Loaded(Records())
    refused = jsontext.problem(text, MAX_TEXT, MAX_DEPTH)
    if refused:
        return Loaded(Records(), refused.partition(" (")[0])
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_float)
    except Refused as exc:
        return Loaded(Records(), str(exc))
    except ValueError:  # not JSON, or an integer of more than 4,300 digits
        return Loaded(Records(), "not JSON")  # not shown
    if not isinstance(data, dict) or data.get("format") != "optimus-table-records":
        return Loaded(Records(), "not a records file")  # not shown
    version = data.get("version")
    if version not in (1, VERSION) or isinstance(version, bool):
        return Loaded(Records(), f"version {short(version)}")
    try:
        games = _games(data.get("games", {})) if version == VERSION else _games_v1(data)
        records = Records(
            games,
            _daily(data.get("daily", {})),
            _replays(data.get("replays", [])),
            _accuracy(data.get("accuracy", {})),
        )
    except Refused as exc:
        return Loaded(Records(), str(exc))
    except Exception as exc:  # noqa: BLE001 - any shape a tampered text has
        return Loaded(Records(), f"damaged ({type(exc).__name__})")
    return Loaded(records)


def short(value: object, limit: int = 30) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[: limit - 1] + "…"


def whole(value: Any, low: int, high: int, what: str) -> int:
    """``value`` when it is a whole number from ``low`` to ``high`` (:class:`Refused` else).

    >>> whole(3, 0, 5, "x"), whole(3.0, 0, 5, "x")
    (3, 3)
    >>> whole(10**400, 0, 5, "total")
    Traceback (most recent call last):
    ...
    optimus.ui.records.Refused: number total
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(what)
    if isinstance(value, float):
        if not value.is_integer():
            raise Refused(f"number {what}")
        value = int(value)
    if not low <= value <= high:
        raise Refused(f"number {what}")
    return int(value)


def score(value: Any, what: str = "score") -> int:
    return whole(value, -SCORE_LIMIT, SCORE_LIMIT, what)


def _games(raw: Any) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for game, levels in dict(raw).items():
        for level, line in dict(levels).items():
            results = []
            for r in list(line["results"]):
                ident, points, won, band = list(r)
                if not isinstance(ident, str) or not 0 < len(ident) <= 40:
                    raise ValueError("result id")
                results.append([ident, score(points), whole(won, 0, 1, "won"), str(band)])
            if len({r[0] for r in results}) != len(results):
                raise Refused("counts (one result twice)")  # not shown
            bases = [_base(b) for b in list(line.get("bases", []))]
            out.setdefault(str(game), {})[str(level)] = {"bases": bases, "results": results}
    return out


def _games_v1(data: Mapping[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """A first-version store's counts, each line a base named by its content."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for game, levels in dict(data.get("games", {})).items():
        for level, line in dict(levels).items():
            base = _base({**dict(line), "id": ""})
            name = json.dumps([game, level, base], sort_keys=True).encode()
            base["id"] = "v1:" + hashlib.sha256(name).hexdigest()[:16]
            out.setdefault(str(game), {})[str(level)] = {"bases": [base], "results": []}
    return out


def _base(line: Mapping[str, Any]) -> dict[str, Any]:
    """The counts of a first-version line, checked: they must agree with each other."""
    played = whole(line["played"], 0, PLAYED_LIMIT, "played")
    wins = whole(line["wins"], 0, PLAYED_LIMIT, "wins")
    if wins > played:
        raise Refused("counts (more wins than games)")  # not shown
    scores = [score(s) for s in list(line["scores"])][-SCORES_KEPT:]
    if len(scores) > played:
        raise Refused("counts (more scores than games)")  # not shown
    bands = {str(k): whole(v, 0, played, "bands") for k, v in dict(line.get("bands", {})).items()}
    if sum(bands.values()) > played:
        raise Refused("counts (more bands than games)")  # not shown
    best = None if line["best"] is None else score(line["best"], "best")
    if (best is None) != (played == 0) or any(s > (best or 0) for s in scores):
        raise Refused("counts (best)")  # not shown
    total = whole(line["total"], -SCORE_LIMIT * played, SCORE_LIMIT * played, "total")
    if played and total > best * played:  # type: ignore[operator]
        raise Refused("counts (total above best)")  # not shown
    ident = str(line.get("id", ""))
    return {
        "id": ident,
        "played": played,
        "wins": wins,
        "best": best,
        "total": total,
        "scores": scores,
        "bands": bands,
    }


def _daily(raw: Any) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for game, days in dict(raw).items():
        for day, entry in dict(days).items():
            datetime.date.fromisoformat(str(day))
            kept = out.setdefault(str(game), {})[str(day)] = {
                "score": score(entry["score"]),
                "rating": str(entry.get("rating", "")),
                "id": str(entry.get("id", "")),
            }
            if entry.get("assisted") is True:
                kept["assisted"] = True
    return out


def _replays(raw: Any) -> list[dict[str, Any]]:
    out = []
    for entry in list(raw):
        if not isinstance(entry, dict) or not isinstance(entry.get("record"), dict):
            raise ValueError("replay")
        out.append(
            {
                "id": str(entry.get("id", "")),
                "game": str(entry["game"]),
                "level": str(entry["level"]),
                "players": whole(entry["players"], 1, 100, "players"),
                "score": score(entry["score"]),
                "won": bool(entry["won"]),
                "day": str(entry["day"]),
                "daily": str(entry.get("daily", "")),
                "record": entry["record"],
            }
        )
        if entry.get("assisted") is True:
            out[-1]["assisted"] = True
    return out


def _accuracy_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A kept accuracy, checked (:class:`Refused` for a number out of range)."""
    loss, share = entry["mean_loss"], entry["best_share"]
    if isinstance(loss, bool) or not isinstance(loss, int | float) or not 0 <= loss <= SCORE_LIMIT:
        raise Refused("number mean_loss")  # not shown
    if isinstance(share, bool) or not isinstance(share, int | float) or not 0 <= share <= 1:
        raise Refused("number best_share")  # not shown
    day = str(entry.get("day", ""))
    if day:
        datetime.date.fromisoformat(day)
    return {
        "decisions": whole(entry["decisions"], 0, PLAYED_LIMIT, "decisions"),
        "mean_loss": float(loss),
        "best_share": float(share),
        "coach": str(entry["coach"]),
        "day": day,
    }


def _accuracy(raw: Any) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for game, kept in dict(raw).items():
        for ident, entry in dict(kept).items():
            out.setdefault(str(game), {})[str(ident)] = _accuracy_entry(dict(entry))
    return out


def merge(into: Records, other: Records) -> Records:
    """``into`` with ``other``'s records added (an import into a browser that has some,
    another tab's writes): each result counts once (by its identity, a base by its
    name), so merging the same records again changes nothing; daily days already
    kept stay; replays joined (newest kept)."""
    merged = load(dump(into)).records
    for game, levels in other.games.items():
        for level, line in levels.items():
            mine = merged.games.setdefault(game, {}).setdefault(level, _line())
            known = {r[0] for r in mine["results"]}
            mine["results"] += [list(r) for r in line["results"] if r[0] not in known]
            names = {b["id"] for b in mine["bases"]}
            mine["bases"] += [
                json.loads(json.dumps(b)) for b in line["bases"] if b["id"] not in names
            ]
    for game, days in other.daily.items():
        for day, entry in days.items():
            merged.daily.setdefault(game, {}).setdefault(day, dict(entry))
    for game, kept in other.accuracy.items():
        for ident, entry in kept.items():
            merged.accuracy.setdefault(game, {}).setdefault(ident, dict(entry))

    def key(r: Mapping[str, Any]) -> str:
        return str(r["id"]) or json.dumps(r, sort_keys=True)

    seen = {key(r) for r in merged.replays}
    merged.replays += [r for r in other.replays if key(r) not in seen]
    _trim_replays(merged.replays)
    return merged


def fit(records: Records, budget: int = BUDGET) -> tuple[Records, str]:
    """``records`` within ``budget`` characters of text, and the text: the oldest
    replays go first (ordinary games', then daily challenges'), never a result.
    :class:`Refused` when even the results alone do not fit.

    >>> r = Records()
    >>> for n in range(5):
    ...     _ = r.add(Result("mygame", "easy", 2, n, False, "2026-12-02", {"big": "x" * 1000}))
    >>> kept, text = fit(r, 3000)
    >>> len(kept.replays), len(text) <= 3000, kept.stats("mygame")[0].played
    (2, True, 5)
    """
    text = dump(records)
    if len(text) <= budget:
        return records, text
    kept = replace(records, replays=list(records.replays))
    sizes = [len(json.dumps(r, separators=(",", ":"), sort_keys=True)) + 1 for r in kept.replays]
    excess = len(text) - budget
    order = [i for i, r in enumerate(kept.replays) if not r["daily"]]
    order += [i for i, r in enumerate(kept.replays) if r["daily"]]
    dropped = set()
    for i in order:
        if excess <= 0:
            break
        dropped.add(i)
        excess -= sizes[i]
    kept.replays = [r for i, r in enumerate(kept.replays) if i not in dropped]
    text = dump(kept)
    while len(text) > budget and kept.replays:  # the estimate was short: one more
        kept.replays = kept.replays[1:]
        text = dump(kept)
    if len(text) > budget:
        raise Refused("too big")  # not shown
    return kept, text


IMPORTED = N_("The records of the file were added to yours.")
NOT_RECORDS = N_("This file is not a records file of this site: nothing was changed.")
REFUSED_NUMBER = N_(
    "This records file holds a number no game of this site can reach ({what}): nothing was changed."
)
REFUSED_COUNTS = N_("The counts in this records file do not agree: nothing was changed.")
REFUSED_BIG = N_("This file is too big to be a records file of this site: nothing was changed.")
REFUSED_NEWER = N_(
    "This records file was made by a newer version of this site: nothing was changed."
)


def refusal(problem: str) -> tuple[str, dict[str, str]]:
    """Why a file was refused (a :attr:`Loaded.problem`): a sentence of the catalogs
    (English: the page translates it) and its values.

    >>> refusal("number total")
    ('This records file holds a number no game of this site can reach ({what}): nothing was \
changed.', {'what': 'total'})
    >>> refusal("not JSON")[0] == NOT_RECORDS, refusal("version 7")[0] == REFUSED_NEWER
    (True, True)
    """
    kind, _, what = problem.partition(" ")
    if kind == "number":
        return REFUSED_NUMBER, {"what": what}
    if kind == "counts":
        return REFUSED_COUNTS, {}
    if problem in ("too big", "too deep"):  # not shown
        return REFUSED_BIG, {}
    newer = jsontext.whole_number(what, 40)
    if kind == "version" and newer is not None and newer > VERSION:
        return REFUSED_NEWER, {}
    return NOT_RECORDS, {}


def level_of(seats: list[str] | tuple[str, ...]) -> str:
    """The level a table's game counts under: ``solo`` for one person alone, ``people``
    for people only (pass-and-play), else its strongest bot (a level of
    :data:`LEVELS_ORDER`, or a player's bot by its name).

    >>> level_of(["human"]), level_of(["easy", "human", "hard"]), level_of(["human", "human:Ana"])
    ('solo', 'hard', 'people')
    >>> level_of(["human", "mybot:Bot", "easy"])
    'mybot:Bot'
    """
    bots = [s for s in seats if not is_person(s)]
    if not bots:
        return "solo" if len(seats) == 1 else "people"

    def strength(level: str) -> int:
        return LEVELS_ORDER.index(level) if level in LEVELS_ORDER else len(LEVELS_ORDER)

    return max(bots, key=strength)


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
