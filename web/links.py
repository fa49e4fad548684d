"""A table's links, daily challenge, records and replays (docs/table.md, "Links, daily, records").

:class:`Links` belongs to one :class:`~.table.GameTable` and joins three parts,
each talking to the table through a small ``Protocol`` of what it needs:

- :mod:`.deal_links`: a deal's link (``#/<game>?seed=812&players=you,hard,hard``)
  and ``daily``, the day's challenge;
- :mod:`.end_extras`: a finished game kept in the records, and the end screen's
  same deal, link and daily share;
- :mod:`.replay_bar`: ``replay/<n>``, a finished game of the records step by step;
- :mod:`.review_screen`: "Review the game", from the end screen and from a replay.

It routes the rest of the address to them and says in the game bar's title
whether the game shown is a daily challenge or a replay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import js

from optimus.i18n import _
from optimus.ui import deals
from optimus.ui import table as ui
from optimus.ui.replay import Replay
from optimus.ui.session import TableSession

from .deal_links import DailyMark, DealLinks, LinkHost, day_text, show_link_notices
from .end_extras import EndExtras, EndHost
from .markup import Markup, html
from .replay_bar import ReplayBar, ReplayHost
from .review_screen import ReviewHost, ReviewScreen
from .router import found
from .storage import RecordsStore, Storage

__all__ = ["Links", "day_text"]


class Host(LinkHost, EndHost, ReplayHost, ReviewHost, Protocol):
    """What the links need of their table: what each part needs."""

    storage: Storage


class Links:
    """The links, daily challenge, records and replays of one table (``host``)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        store = RecordsStore(host.storage)
        self.store = store
        self.practice = False
        """Whether the daily challenge in play is a practice try (the day's counted try
        was finished before it started)."""
        self.mark = DailyMark(host.storage, host.game_id)
        self.deals = DealLinks(host, self.mark)
        self.extras = EndExtras(host, self.mark, store)
        self.replays = ReplayBar(host, store, self._title)
        self.review = ReviewScreen(host, store, self.replays)

    @property
    def replay(self) -> Replay | None:
        """The replay shown, if any (nothing can be played then)."""
        return self.replays.shown

    def open(self, sub: str, query: str) -> None:
        """The router's rest of the address: a deal, ``daily``, ``replay/<n>`` or nothing."""
        if self.host.root is None:
            return
        if sub.startswith("replay/"):
            self.replays.open(sub.removeprefix("replay/"))
            return
        if self.replay is not None:
            self.host.show_setup()
        self.deals.open(sub, query)

    def show_replay(self, shown: Replay) -> None:
        """Show ``shown`` again (the table drawn anew, in another language)."""
        self.replays.show(shown)

    def started(self, session: TableSession) -> None:
        """A game is shown: is it a daily challenge (said in the game bar's title)?"""
        if session is not self.extras.kept:  # not the same finished game drawn again
            said = self.mark.started(session.record.seed)
            if said:
                show_link_notices(self.host.root, [said])
            day = self.mark.day
            self.practice = bool(day) and self.counted(day) is not None
        self._title()

    def counted(self, day: str) -> int | None:
        """The score that counts for ``day``'s challenge, once a try of it was finished."""
        return self.store.read().daily_score(self.host.game_id, day)

    def offer_html(self) -> Markup:
        """The set-up's way to today's challenge (a game that has one): to play, or
        played already (then a try is practice)."""
        h = self.host
        if h.info.daily is None:
            return Markup()
        today = deals.today().isoformat()
        score = self.counted(today)
        if score is None:
            said = _(
                "Today's challenge: the same deal for everyone today; your first finished try "
                "counts."
            )
            go = _("Play today's challenge")
        else:
            said = _(
                "Today's challenge: {points}, counted. Another try is practice.",
                points=ui.points(score),
            )
            go = _("Practise today's challenge")
        return html(
            '<p class="daily-offer" data-role="daily-offer">{said} '
            '<a class="btn" href="#/{game}/daily">{go}</a></p>',
            said=said,
            game=h.game_id,
            go=go,
        )

    def finished(self) -> None:
        """The game just ended: keep it in the records (once per game; never a replay)."""
        if self.replay is None:
            self.extras.finished()

    def decorate_end(self) -> None:
        """The end screen's own part (none in a replay)."""
        if self.replay is None:
            self.extras.decorate()

    def actions(self) -> dict[str, Callable[[Any], None]]:
        """The end screen's and the replay bar's actions (``data-action``)."""
        return {
            **self.extras.actions(),
            **self.replays.actions(),
            **self.review.actions(),
            "review": lambda _t: self.open_review(),
        }

    def open_review(self) -> None:
        """ "Review the game": the replay shown, else the finished game of the end screen."""
        shown = self.replay
        if shown is not None:
            self.review.open(shown.record, shown.seats, self.replays.ident)
            return
        session = self.host.session
        if session is not None and session.state.is_terminal():
            ident = self.extras.kept_ident if session is self.extras.kept else ""
            self.review.open(session.record, session.seats, ident)

    def read_only(self) -> bool:
        return self.replays.read_only()

    def changed(self, target: Any) -> bool:
        return self.replays.changed(target)

    def left(self) -> None:
        """The table shows something else (set-up, a game): no replay bar, no notices, no
        review running."""
        self.review.close()
        self.replays.left()
        self._title()

    def retitle(self) -> None:
        """Say again in the game bar's title what the game shown is (it became practice)."""
        self._title()

    def _title(self) -> None:
        """The game bar's title, with a small line under it in a daily challenge, a
        replay or a game that became practice (something revealed was taken back)."""
        title = js.document.getElementById("game-title")
        if not found(title):
            return
        note = ""
        session = self.host.session
        practice = session is not None and session.practice  # a reveal was taken back
        if self.replay is not None:
            note = _("Replay of a finished game")
        elif self.mark.day and self.practice:
            note = _(
                "Daily challenge of {date}: practice (your first try counted)",
                date=day_text(self.mark.day),
            )
        elif self.mark.day and practice:
            note = _("Daily challenge of {date}: practice", date=day_text(self.mark.day))
        elif self.mark.day:
            note = _("Daily challenge of {date}", date=day_text(self.mark.day))
        elif practice:
            note = _("Practice: not counted in your records")
        title.textContent = self.host.title
        if note:
            line = js.document.createElement("span")
            line.className = "title-note"
            line.setAttribute("data-role", "title-note")
            if self.replay is None and (practice or (self.practice and self.mark.day)):
                line.setAttribute("data-practice", "")
            line.textContent = note
            title.append(" ", line)
