"""A table's deal links and daily challenge (docs/table.md, "Links, daily, records").

The router gives the table the rest of the address: a deal's link
(``#/<game>?seed=812&players=you,hard,hard``) starts that game, ``daily`` the
day's challenge, as the game's description declares it.  A link is data only
(:mod:`optimus.ui.deals`): what it gets wrong is dropped with a notice shown as
text.  :class:`DailyMark` remembers which game in play is a daily challenge.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import js

from optimus import i18n
from optimus.core.protocol import JSON, Game
from optimus.i18n import _
from optimus.ui import deals
from optimus.ui.seats import HUMAN, is_person
from optimus.ui.session import TableSession

from . import store_keys
from .frame import show_notices
from .hosts import TableFacts
from .storage import Saves, Storage


def day_text(iso: str) -> str:
    """A ``2026-12-02`` date as the language writes it."""
    day = datetime.date.fromisoformat(iso)
    return i18n.date(day.year, day.month, day.day)


def page_url(route: str) -> str:
    """The whole address of ``route`` (``#/…``) on this page."""
    where = js.window.location
    return f"{where.origin}{where.pathname}{where.search}{route}"


def show_link_notices(root: Any, notices: Sequence[str]) -> None:
    """What a link got wrong, above the table (text, never markup); none: removed."""
    show_notices(root, "link-notices", list(notices))


class DailyMark:
    """Which game in play is a daily challenge: its seed and day, kept in storage so a
    resumed game still counts as the day's."""

    def __init__(self, storage: Storage, game_id: str) -> None:
        self.storage = storage
        self.game_id = game_id
        self.key = store_keys.daily(game_id)
        self.day = ""
        """The date of the daily challenge in play (``2026-12-02``), or ""."""

    def remember(self, seed: int, day: str) -> None:
        """The game about to start with ``seed`` is ``day``'s challenge ("": none)."""
        if day:
            self.storage.set(self.key, deals.daily_mark(seed, day))
        else:
            self.storage.remove(self.key)

    def started(self, seed: int) -> str:
        """A game of ``seed`` is shown: it is the daily challenge if it was remembered so.
        A mark that cannot be trusted is removed; what to say then (else "")."""
        self.day = ""
        kept = self.storage.get(self.key)
        if not kept:
            return ""
        try:
            marked, day = deals.read_daily_mark(kept, self.game_id, deals.today())
        except ValueError as exc:
            self.storage.remove(self.key)
            js.console.warn(f"{self.game_id}: daily mark removed: {exc}")  # not shown
            return _(deals.BAD_DAILY_MARK)
        self.day = day if marked == seed else ""
        return ""


class LinkHost(TableFacts, Protocol):
    """What the deal links need of their table."""

    game: Game
    levels: list[str]
    max_humans: int
    saves: Saves

    def confirm(self, text: str, yes: str, on_yes: Callable[[], None]) -> None: ...

    def start_with(self, session: TableSession) -> None: ...


class DealLinks:
    """A table's deal links and daily challenge."""

    def __init__(self, host: LinkHost, daily: DailyMark) -> None:
        self.host = host
        self.daily = daily

    def open(self, sub: str, query: str) -> None:
        """A deal's link (``sub`` empty, ``query`` its deal) or ``daily``; anything else
        is said to be no part of the game."""
        h = self.host
        if not sub and not query:
            return
        notices: list[str] = []
        deal: deals.Deal | None = None
        if sub == "daily" and h.info.daily is not None:
            day, said = deals.daily_day(query, deals.today())
            notices += said
            deal = deals.daily(h.info, day)
        elif sub:
            notices.append(
                _(
                    "The link's page “{name}” is not part of {game}: ignored.",
                    name=deals._shown(sub),
                    game=h.title,
                )
            )
        else:
            parsed = deals.parse(query, h.info, h.levels)
            notices += parsed.notices
            deal = parsed.deal
            if deal is None and not notices:
                notices.append(_("The link names no deal (its seed is missing): nothing started."))
        js.window.history.replaceState(js.window.history.state, "", f"#/{h.game_id}")
        if deal is not None:
            deal, seated = self.seatable(deal)
            notices += seated
        show_link_notices(h.root, notices)
        if deal is not None:
            self.play(deal)

    def seatable(self, deal: deals.Deal) -> tuple[deals.Deal, list[str]]:
        """``deal`` with the seats this table can seat: more people at the device
        ("human:<name>") up to the table's limit; past it, the game's default bot."""
        notices = []
        seats = []
        people = 0
        for seat in deal.seats:
            if is_person(seat):
                people += 1
            if seat.startswith(HUMAN + ":") and people > self.host.max_humans:
                seats.append(self.host.info.default_level)
                notices.append(
                    _(
                        "Too many people for one device: {name}'s seat is played by a bot.",
                        name=seat.partition(":")[2],
                    )
                )
            else:
                seats.append(seat)
        if HUMAN not in seats:
            seats[0] = HUMAN
        return deals.Deal(deal.game, deal.seed, tuple(seats), deal.options, deal.daily), notices

    def play(self, deal: deals.Deal) -> None:
        """Start ``deal``; a game in progress is replaced only once the person agrees."""
        h = self.host

        def start() -> None:
            options: dict[str, JSON] = {**h.info.option_defaults(), **deal.options}
            self.daily.remember(deal.seed, deal.daily)
            h.start_with(TableSession(h.game, options, deal.seed, list(deal.seats)))

        if h.saves.exists():
            h.confirm(
                _("Start the game of the link? The game in progress will be replaced."),
                _("Start it"),
                start,
            )
        else:
            start()
