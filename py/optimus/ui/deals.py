"""Deals: a whole game named by a link, and the daily challenge of each game.

A deal is everything that makes two games the same game: which game, the seed,
who sits where (the person, bots by level, further people by name) and the
game's own options.  It is written in the page's address as a route with a
query::

    #/<game>?seed=812&players=you,hard,hard
    #/<game>?seed=90&players=you,Ana,normal&sheet=random:4411&bonuses=0

``you`` is the person holding the device, a bot level names a bot, any other
word is the name of one more person at the same device.  A link is data: an
unknown or malformed parameter is dropped with a notice naming it, and a name
keeps letters, digits, spaces and a few marks only, so it can never become
markup or code.

The daily challenge is a deal made from the date (UTC): the same for everyone,
with no server.

Which options a link may set, how it spells them and what a game's daily
challenge is all come from the game's description (:mod:`optimus.games`).

>>> game = next(iter(GAMES.values()))
>>> deal = parse(f"seed=812&players=you,{game.default_level}", game, game.levels)
>>> deal.deal.seats == ("human", game.default_level), deal.notices
(True, ())
>>> link(deal.deal) == f"#/{game.id}?seed=812&players=you,{game.default_level}"
True
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, quote

from optimus.core.jsontext import whole_number
from optimus.core.protocol import JSON
from optimus.games import GAMES, GameInfo, link_text
from optimus.i18n import N_, _
from optimus.ui.seats import HUMAN, PERSON_NAME, is_person, name_problem, person_name

YOU = "you"
MAX_SEED = 2**31 - 1
NAME = PERSON_NAME
"""A person's name in a link: the table's rule (a letter or digit first, at most 20
characters of letters, digits, spaces and ``.'’-``)."""


@dataclass(frozen=True)
class Deal:
    """One game, exactly: ``seats[i]`` is ``"human"`` (the person), a bot level, or
    ``"human:<name>"`` (one more person at the device)."""

    game: str
    seed: int
    seats: tuple[str, ...]
    options: Mapping[str, JSON] = field(default_factory=dict)
    daily: str = ""
    """The date of the daily challenge this deal is (``2026-12-02``), or ""."""


@dataclass(frozen=True)
class Parsed:
    """A link's deal (None when it names no playable game) and what was ignored."""

    deal: Deal | None
    notices: tuple[str, ...] = ()


def link(deal: Deal) -> str:
    """The route of ``deal`` (``#/<game>?seed=…&players=…&<options>``)."""
    players = []
    for seat in deal.seats:
        if seat == HUMAN:
            players.append(YOU)
        elif seat.startswith(HUMAN + ":"):
            players.append(quote(seat.partition(":")[2], safe=""))
        else:
            players.append(seat)
    query = [f"seed={deal.seed}", "players=" + ",".join(players)]
    query += [f"{k}={quote(link_text(v), safe=':')}" for k, v in sorted(deal.options.items())]
    return f"#/{deal.game}?" + "&".join(query)


def _shown(text: str) -> str:
    """A piece of a link as a notice shows it: short, and only as text."""
    text = text if len(text) <= 30 else text[:30] + "…"
    return text


def described(game: str | GameInfo) -> GameInfo | None:
    """A game's description: given, or looked up by its id (None: no such game)."""
    return game if isinstance(game, GameInfo) else GAMES.get(game)


def parse(query: str, game: str | GameInfo, levels: Sequence[str]) -> Parsed:
    """The deal named by ``query`` (the part after ``?``) for ``game`` (its id or its
    description); ``levels`` are its bot levels.  The game's own options are read as its
    description declares them (:meth:`optimus.games.Option.read_link`).

    Missing parts take the set-up form's defaults (no seed: none, the page draws
    one).  Anything unknown, malformed or out of range is left out, each with a
    notice in words.
    """
    info = described(game)
    if info is None:
        name = game if isinstance(game, str) else game.id
        return Parsed(None, (_("There is no game called “{name}” here.", name=_shown(name)),))
    own = {option.key: option for option in info.options}
    notices: list[str] = []
    seed: int | None = None
    seats: list[str] = []
    options: dict[str, JSON] = {}
    if len(query) > 2000:
        return Parsed(None, (_("The link is too long to be a game: it was ignored."),))
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key == "seed":
            number = whole_number(value)
            if number is not None and number <= MAX_SEED:
                seed = number
            else:
                notices.append(
                    _("The link's seed “{value}” is not a number: ignored.", value=_shown(value))
                )
        elif key == "players":
            seats, bad = _seats(value, levels)
            notices += bad
        elif key in own:
            chosen = own[key].read_link(value)
            if chosen is not None:
                options[key] = chosen
            else:
                notices.append(
                    _(
                        "The link's {name} “{value}” is not one of this game's: ignored.",
                        name=key,
                        value=_shown(value),
                    )
                )
        elif key == "lang":
            continue  # the page's language, read by index.html
        else:
            notices.append(_("The link's “{name}” means nothing here: ignored.", name=_shown(key)))
    if seats and not info.players[0] <= len(seats) <= info.players[1]:
        notices.append(
            _(
                "{game} is for {fewest}-{most} players, not {n}: the link's players were ignored.",
                game=info.title,
                fewest=info.players[0],
                most=info.players[1],
                n=len(seats),
            )
        )
        seats = []
    if seats and not any(is_person(s) for s in seats):
        notices.append(_("The link seats no person: its players were ignored."))
        seats = []
    if seed is None:
        return Parsed(None, tuple(notices))
    if not seats:
        seats = [HUMAN, *([info.default_level] * (info.first_players - 1))]
    return Parsed(Deal(info.id, seed, tuple(seats), options), tuple(notices))


LINK_NAME_PROBLEMS = {
    "bad": N_("The link's player “{name}” is not a name: left out."),
    "table": N_("The link's player “{name}” has a name the table gives its players: left out."),
    "taken": N_("The link seats two people called “{name}”: the second was left out."),
}
"""Why a link's person was left out (the table's rule for names, :func:`name_problem`)."""


def _seats(value: str, levels: Sequence[str]) -> tuple[list[str], list[str]]:
    seats: list[str] = []
    notices: list[str] = []
    named: list[str] = []
    for word in value.split(","):
        word = word.strip()
        if word.lower() == YOU and HUMAN not in seats:
            seats.append(HUMAN)
        elif word.lower() in levels:
            seats.append(word.lower())
        elif (problem := name_problem(word, named)) is not None:
            notices.append(_(LINK_NAME_PROBLEMS[problem], name=_shown(word)))
        else:
            name = person_name(word) or word  # tidied (a name by the rule)
            named.append(name)
            seats.append(f"{HUMAN}:{name}")
    return seats, notices


# -- the daily challenge ---------------------------------------------------------------


def today() -> datetime.date:
    """Today's date in UTC (the daily challenge changes at midnight UTC)."""
    return datetime.datetime.now(datetime.UTC).date()


def daily_seed(game: str, day: datetime.date) -> int:
    """The seed of ``game``'s challenge on ``day``: the same for everyone.

    >>> day = datetime.date(2026, 12, 2)
    >>> daily_seed("any", day) == daily_seed("any", datetime.date(2026, 12, 2))
    True
    >>> daily_seed("any", day) != daily_seed("any", day + datetime.timedelta(days=1))
    True
    """
    text = f"optimus-table daily {game} {day.isoformat()}"  # not shown: the seed's source
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:4], "big") % MAX_SEED


def daily(game: str | GameInfo, day: datetime.date) -> Deal | None:
    """``game``'s challenge on ``day`` as its description declares it (its bots, its
    options from the day's seed); None for a game that has none.

    >>> day = datetime.date(2026, 12, 2)
    >>> for info in GAMES.values():
    ...     deal = daily(info, day)
    ...     assert deal is None or deal.seats[0] == "human" and deal.daily == "2026-12-02"
    """
    info = described(game)
    made = info.daily_deal(daily_seed(info.id, day)) if info is not None else None
    if info is None or made is None:
        return None
    bots, options = made
    seed = daily_seed(info.id, day)
    return Deal(info.id, seed, (HUMAN, *bots), options, daily=day.isoformat())


def daily_day(query: str, now: datetime.date) -> tuple[datetime.date, tuple[str, ...]]:
    """The day of a daily challenge's address: today (``now``), or the link's
    ``date=YYYY-MM-DD`` when it is a day that has come (a past challenge played
    again, the tests' fixed day); anything else is ignored with a notice.

    >>> day = datetime.date(2026, 12, 2)
    >>> daily_day("date=2026-11-30", day)[0], daily_day("", day)[0]
    (datetime.date(2026, 11, 30), datetime.date(2026, 12, 2))
    >>> daily_day("date=2027-01-01&x=1", day)[0], len(daily_day("date=2027-01-01&x=1", day)[1])
    (datetime.date(2026, 12, 2), 2)
    """
    day = now
    notices: list[str] = []
    for key, value in parse_qsl(query[:2000], keep_blank_values=True):
        if key == "date":
            try:
                asked = datetime.date.fromisoformat(value)
            except ValueError:
                asked = None
            if asked is not None and asked <= now and len(value) == 10:
                day = asked
            else:
                notices.append(
                    _(
                        "The link's date “{value}” is not a day that has come: "
                        "today's challenge instead.",
                        value=_shown(value),
                    )
                )
        elif key != "lang":
            notices.append(_("The link's “{name}” means nothing here: ignored.", name=_shown(key)))
    return day, tuple(notices)


def daily_mark(seed: int, day: str) -> str:
    """How storage keeps the daily challenge in play (``"<seed> <day>"``), read back by
    :func:`read_daily_mark`."""
    return f"{seed} {day}"


BAD_DAILY_MARK = N_(
    "This game's note that it is a daily challenge could not be read: it is played as practice."
)
"""Said when a stored daily mark is refused (:func:`read_daily_mark`)."""


def read_daily_mark(text: str, game: str, now: datetime.date) -> tuple[int, str]:
    """The seed and day of ``game``'s stored daily mark (:func:`daily_mark`), checked as a
    save is: the seed a number, the day a real ``YYYY-MM-DD`` that has come (``now``),
    and the seed that day's challenge of ``game``.  :class:`ValueError` (its reason in
    English, not shown) for anything else: storage is written by every page of the site.

    >>> day = datetime.date(2026, 12, 2)
    >>> read_daily_mark(daily_mark(daily_seed("dice", day), "2026-12-02"), "dice", day)[1]
    '2026-12-02'
    >>> for bad in ("1 2026-13-45", f"{daily_seed('dice', day)} 2027-12-02", "7 2026-12-02"):
    ...     try:
    ...         read_daily_mark(bad, "dice", day)
    ...     except ValueError as exc:
    ...         print(exc)
    the day '2026-13-45' is not a date
    the day '2027-12-02' has not come
    the seed is not that day's challenge
    """
    seed_text, _sep, day_text = text.partition(" ")
    seed = whole_number(seed_text)
    if seed is None:
        raise ValueError(f"the seed {_shown(seed_text)!r} is not a number")  # not shown
    try:
        day = datetime.date.fromisoformat(day_text)
    except ValueError:
        day = None
    if day is None or day.isoformat() != day_text:
        raise ValueError(f"the day {_shown(day_text)!r} is not a date")  # not shown
    if day > now:
        raise ValueError(f"the day {day_text!r} has not come")  # not shown
    if seed != daily_seed(game, day):
        raise ValueError("the seed is not that day's challenge")  # not shown
    return seed, day_text


def share_text(
    game: str, day: str, points: str, rating: str, url: str, assisted: bool = False
) -> str:
    """The daily challenge's result as shared: game, date, score (``assisted``: said to
    be played with hints), solo rating, link.

    >>> share_text("Dice", "Dec 2, 2026", "212 points", "", "https://x/#/dice/daily")
    'Dice, daily challenge of Dec 2, 2026: 212 points. https://x/#/dice/daily'
    >>> share_text("Dice", "Dec 2, 2026", "212 points", "", "https://x/#/dice/daily", True)
    'Dice, daily challenge of Dec 2, 2026: 212 points, assisted (hints used). https://x/#/dice/daily'
    """
    if assisted:
        points = _("{points}, assisted (hints used)", points=points)
    if rating:
        return _(
            "{game}, daily challenge of {date}: {points}, solo rating {rating}. {link}",
            game=game,
            date=day,
            points=points,
            rating=rating,
            link=url,
        )
    return _(
        "{game}, daily challenge of {date}: {points}. {link}",
        game=game,
        date=day,
        points=points,
        link=url,
    )
