"""The end screen's extras: the records, the same deal again, its link, the daily share.

When a game ends it is added to the records (:class:`~.storage.RecordsStore`),
and the end screen offers the same deal again, its link, and for a daily
challenge whether this try counts and a short text to share.  The solo rating
band comes from the observation keys the game's description names
(:attr:`optimus.games.GameInfo.solo_band`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, Protocol

import js

from optimus.i18n import _
from optimus.ui import deals, records
from optimus.ui import table as ui
from optimus.ui.session import TableSession

from .deal_links import DailyMark, day_text, page_url
from .hosts import SessionFacts, TableFacts
from .markup import Markup, html
from .router import found
from .storage import RecordsStore


def allowed(feature: str) -> bool:
    """Whether the page's permissions policy lets it use ``feature`` (a blog's iframe
    may not let it use the clipboard or the share sheet: asking anyway logs an error)."""
    policy: Any = getattr(js.document, "permissionsPolicy", None)
    if not found(policy):
        policy = getattr(js.document, "featurePolicy", None)
    if not found(policy):
        return True  # the browser does not say: try, and fall back on a refusal
    try:
        return bool(policy.allowsFeature(feature))
    except Exception:
        return True


class EndHost(TableFacts, SessionFacts, Protocol):
    """What the end screen's extras need of their table."""

    you: int | None

    def end(self) -> ui.EndScreen: ...

    def final_observation(self) -> Any: ...

    def start_with(self, session: TableSession) -> None: ...


class EndExtras:
    """The records, same deal, link and daily share of one table's finished games."""

    def __init__(self, host: EndHost, daily: DailyMark, store: RecordsStore) -> None:
        self.host = host
        self.daily = daily
        self.store = store
        self.store.on_said = self.records_said
        self.records_notice = ""
        """What the records could not keep of the finished game (storage full), or ""."""
        self.counted: bool | None = None
        """Whether the finished game counted for its daily challenge (None: not a daily)."""
        self.kept: TableSession | None = None
        """The finished game last kept in the records."""

    def my_result(self) -> tuple[ui.FinalScore, str] | None:
        """The person's line of the finished game's end screen, and the solo rating band
        reached (English, "" when none); None when no person sits."""
        h = self.host
        session = h.session
        if session is None or h.you is None:
            return None
        mine = next((p for p in h.end().players if p.seat == h.you), None)
        if mine is None:
            return None
        band = h.info.solo_rating(h.final_observation()) if len(session.seats) == 1 else ""
        return mine, band

    def finished(self) -> None:
        """The game just ended: keep it in the records (once per game)."""
        h = self.host
        session = h.session
        if session is None or session is self.kept:
            return
        self.kept = session
        self.counted = None
        self.records_notice = ""
        outcome = self.my_result()
        if outcome is None:
            return
        if session.practice:  # something revealed was taken back: not counted
            self.daily.remember(0, "")
            return
        mine, rating = outcome
        result = records.Result(
            h.game_id,
            records.level_of(session.seats),
            len(session.seats),
            mine.total,
            h.you in session.state.outcome().winners,
            deals.today().isoformat(),
            json.loads(session.save()),
            rating,
            self.daily.day,
        )
        try:
            counted = self.store.add(result)
        except Exception as exc:  # never lose the end screen over the records
            js.console.warn(f"records: {exc!r}")  # not shown
            return
        self.counted = counted if self.daily.day else None
        self.daily.remember(0, "")

    def deal(self) -> deals.Deal | None:
        """The deal of the game shown (its seed, seats and the game's own options)."""
        h = self.host
        session = h.session
        if session is None:
            return None
        own = h.info.own_options(session.record.options)
        return deals.Deal(h.game_id, session.record.seed, tuple(session.seats), own)

    def decorate(self) -> None:
        """The end screen's own part: daily or practice, same deal, link, share, records."""
        root = self.host.root
        dialog: Any = root.querySelector("[data-role=end]") if root is not None else None
        if not found(dialog):
            return
        note = Markup()
        share = Markup()
        session = self.host.session
        if session is not None and session.lesson:
            said = _(
                "Practice: a guided game (Learn to play) does not count in your records "
                "nor for a daily challenge."
            )
            note = html('<p class="daily-note" data-role="practice-note">{}</p>', said)
        elif session is not None and session.practice:
            said = _(
                "Practice: something revealed was taken back, so this game does not count "
                "in your records nor for a daily challenge."
            )
            note = html('<p class="daily-note" data-role="practice-note">{}</p>', said)
        elif self.daily.day:
            date = day_text(self.daily.day)
            if self.counted:
                said = _("This try counts for the daily challenge of {date}.", date=date)
            else:
                said = _(
                    "Practice: only the first finished try of the daily challenge of {date} "
                    "counts.",
                    date=date,
                )
            note = html('<p class="daily-note" data-role="daily-note">{}</p>', said)
            share = html(
                '<button type="button" class="btn" data-action="share-daily">{}</button>',
                _("Share the result"),
            )
        note += self.records_notice_html()
        extra = html(
            """
<div class="end-more" data-role="end-more">{note}
<p class="dialog-actions">
  <button type="button" class="btn" data-action="same-deal">{same}
  </button>
  <button type="button" class="btn" data-action="copy-link">{copy}</button>
  {share}
  <a class="btn" href="#/records">{records}</a></p>
<p class="small" data-role="link-said" role="status"></p>
<input type="text" readonly class="link-text" data-role="link-text" aria-label="{label}" hidden>
</div>""",
            note=note,
            same=_("Play the same deal again"),
            copy=_("Copy link"),
            share=share,
            records=_("Your records"),
            label=_("Link to this deal"),
        )
        dialog.insertAdjacentHTML("beforeend", extra)

    def records_said(self, notice: str) -> None:
        """The records could not keep all of the finished game: said on its end screen."""
        self.records_notice = notice
        root = self.host.root
        more: Any = root.querySelector("[data-role=end-more]") if root is not None else None
        if found(more) and not found(more.querySelector("[data-role=records-said]")):
            more.insertAdjacentHTML("afterbegin", self.records_notice_html())

    def records_notice_html(self) -> Markup:
        if not self.records_notice:
            return Markup()
        said = _(self.records_notice)
        return html('<p class="notice" data-role="records-said" role="alert">{}</p>', said)

    def actions(self) -> dict[str, Callable[[Any], None]]:
        """The end screen's actions (``data-action``)."""
        return {
            "same-deal": lambda _t: self.same_deal(),
            "copy-link": lambda _t: self.copy_link(),
            "share-daily": lambda _t: self.share_daily(),
        }

    def same_deal(self) -> None:
        old = self.host.session
        if old is None:
            return
        session = TableSession(old.game, old.record.options, old.record.seed, list(old.seats))
        self.daily.remember(old.record.seed, self.daily.day)
        self.host.start_with(session)

    def copy_link(self) -> None:
        deal = self.deal()
        if deal is not None:
            self.copy(page_url(deals.link(deal)), _("Link copied."))

    def share_daily(self) -> None:
        """Share the day's counted result (the first finished try's, even after a
        practice try), else this game's when the records could not keep it."""
        h = self.host
        outcome = self.my_result() if self.daily.day else None
        if outcome is None:
            return
        mine, band = outcome
        shown = _(band) if band else ""
        rating = next((line.value for line in mine.lines if line.kind == "band"), shown)
        points = mine.total
        counted = self.store.read().daily_result(h.game_id, self.daily.day)
        if counted is not None:
            points, band = counted
            rating = _(band) if band else ""
        url = page_url(f"#/{h.game_id}/daily?date={self.daily.day}")
        day = day_text(self.daily.day)
        text = deals.share_text(h.title, day, ui.points(points), rating, url)
        if found(getattr(js.navigator, "share", None)) and allowed("web-share"):
            asyncio.ensure_future(self._share(text))
        else:
            self.copy(text, _("Result copied: paste it where you like."))

    async def _share(self, text: str) -> None:
        from pyodide.ffi import to_js

        try:
            await js.navigator.share(to_js({"text": text}, dict_converter=js.Object.fromEntries))
        except Exception:  # cancelled by the person, or refused: offer it to copy
            self.copy(text, _("Result copied: paste it where you like."))

    def copy(self, text: str, said: str) -> None:
        """Copy ``text`` (the clipboard where the browser lets us, else a selected field)."""
        asyncio.ensure_future(self._copy(text, said))

    async def _copy(self, text: str, said: str) -> None:
        root = self.host.root
        if root is None:
            return
        field = root.querySelector("[data-role=link-text]")
        status = root.querySelector("[data-role=link-said]")
        try:
            clipboard: Any = getattr(js.navigator, "clipboard", None)
            if not found(clipboard) or not allowed("clipboard-write"):
                raise OSError("no clipboard")  # not shown
            await clipboard.writeText(text)
        except Exception:
            if found(field):
                field.value = text
                field.hidden = False
                field.focus()
                field.select()
            if found(status):
                status.textContent = _("Copy it from the field below (Ctrl+C or ⌘+C).")
            return
        if found(field):
            field.value = text
        if found(status):
            status.textContent = said
