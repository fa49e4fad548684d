"""A table's links, daily challenge, records and replays (docs/table.md, "Links, daily, records").

:class:`Links` belongs to one :class:`~.table.GameTable`.  The router gives it the
rest of the address (``open(sub, query)``): a deal's link
(``#/optimus2?seed=812&players=you,hard,hard``) starts that game, ``daily`` the
day's challenge, ``replay/<n>`` shows a finished game of the records step by
step.  A link is data only (:mod:`optimus.ui.deals`): what it gets wrong is
dropped with a notice shown as text.  When a game ends it is added to the
records (:class:`~.storage.RecordsStore`), and the end screen offers the same
deal again, its link, and for a daily challenge a short text to share.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import re
from collections.abc import Callable
from typing import Any

import js

from optimus import i18n
from optimus.core.protocol import (
    JSON,
    GameError,
    RecordError,
    apply_chance_checked,
    play,
)
from optimus.core.record import CHANCE, Record, replay
from optimus.i18n import _
from optimus.ui import deals, records
from optimus.ui import table as ui
from optimus.ui.seats import HUMAN, is_person
from optimus.ui.session import TableSession, fallback_level

from . import store_keys
from .frame import show_notices
from .router import esc, found
from .storage import RecordsStore

MOVE = re.compile(r'\sdata-move="[^"]*"')


def day_text(iso: str) -> str:
    """A ``2026-12-02`` date as the language writes it."""
    day = datetime.date.fromisoformat(iso)
    return i18n.date(day.year, day.month, day.day)


def allowed(feature: str) -> bool:
    """Whether the page's permissions policy lets it use ``feature`` (a blog's iframe
    may not let it use the clipboard or the share sheet: asking anyway logs an error)."""
    policy = getattr(js.document, "permissionsPolicy", None)
    if not found(policy):
        policy = getattr(js.document, "featurePolicy", None)
    if not found(policy):
        return True  # the browser does not say: try, and fall back on a refusal
    try:
        return bool(policy.allowsFeature(feature))
    except Exception:
        return True


def page_url(route: str) -> str:
    """The whole address of ``route`` (``#/…``) on this page."""
    where = js.window.location
    return f"{where.origin}{where.pathname}{where.search}{route}"


class Replay:
    """A finished game watched again: its record, seats and the step shown."""

    def __init__(
        self,
        index: int,
        record: Record,
        seats: list[str],
        marks: list[int | None],
        stops: list[int],
    ):
        self.index = index
        self.record = record
        self.seats = seats
        self.stops = stops
        """The steps shown: those where a player acts, and the end (not chance's own)."""
        self.step = stops[-1]
        self.rounds = records.rounds(marks)

    def snap(self, step: int, back: bool = False) -> int:
        """The step shown for ``step``: the next stop (``back``: the previous one)."""
        if back:
            return max((k for k in self.stops if k <= step), default=self.stops[0])
        return min((k for k in self.stops if k >= step), default=self.stops[-1])


class Links:
    """The links, daily challenge, records and replays of one table (``table``)."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.store = RecordsStore(table.storage)
        self.daily = ""
        """The date of the daily challenge in play (``2026-12-02``), or ""."""
        self.counted: bool | None = None
        """Whether the finished game counted for its daily challenge (None: not a daily)."""
        self.replay: Replay | None = None
        self._finished: Any = None
        self._daily_key = store_keys.daily(table.game_id)

    # -- the address ------------------------------------------------------------------
    def link_choices(self) -> dict[str, Any]:
        """What a link may set of the game's own options (the table's ``link_choice``)."""
        t = self.table
        return {key: t.link_choice(key) for key in type(t).choices}

    def open(self, sub: str, query: str) -> None:
        """The router's rest of the address: a deal, ``daily``, ``replay/<n>`` or nothing."""
        t = self.table
        if t.root is None:
            return
        if sub.startswith("replay/"):
            self.open_replay(sub.removeprefix("replay/"))
            return
        if self.replay is not None:
            t.show_setup()
        if not sub and not query:
            return
        game = t.game_id
        notices: list[str] = []
        deal: deals.Deal | None = None
        if sub == "daily":
            day, said = deals.daily_day(query, deals.today())
            notices += said
            deal = deals.daily(game, day)
        elif sub:
            notices.append(
                _(
                    "The link's page “{name}” is not part of {game}: ignored.",
                    name=deals._shown(sub),
                    game=t.title,
                )
            )
        else:
            parsed = deals.parse(query, game, t.levels, self.link_choices())
            notices += parsed.notices
            deal = parsed.deal
            if deal is None and not notices:
                notices.append(_("The link names no deal (its seed is missing): nothing started."))
        js.window.history.replaceState(js.window.history.state, "", f"#/{game}")
        if deal is not None:
            deal, said = self.seatable(deal)
            notices += said
        self.show_notices(notices)
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
            if seat.startswith(HUMAN + ":") and people > self.table.max_humans:
                seats.append(self.table.info.default_level)
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

    def show_notices(self, notices: list[str]) -> None:
        """What a link got wrong, above the table (text, never markup); none: removed."""
        show_notices(self.table.root, "link-notices", notices)

    def play(self, deal: deals.Deal) -> None:
        """Start ``deal``; a game in progress is replaced only once the person agrees."""
        t = self.table

        def start() -> None:
            own = {k: v for k, v in type(t).defaults.items() if k in type(t).choices}
            options: dict[str, JSON] = {**own, **deal.options}
            self.remember_daily(deal.seed, deal.daily)
            t.start_with(TableSession(t.game, options, deal.seed, list(deal.seats)))

        if t.saves.exists():
            t.confirm(
                _("Start the game of the link? The game in progress will be replaced."),
                _("Start it"),
                start,
            )
        else:
            start()

    # -- the daily challenge ------------------------------------------------------------
    def remember_daily(self, seed: int, day: str) -> None:
        if day:
            self.table.storage.set(self._daily_key, f"{seed} {day}")
        else:
            self.table.storage.remove(self._daily_key)

    def started(self, session: TableSession) -> None:
        """A game is shown: is it a daily challenge (said in the game bar's title)?"""
        if session is self._finished:  # the same finished game drawn again (a language switch)
            self._title()
            return
        kept = (self.table.storage.get(self._daily_key) or "").split()
        seed = session.record.seed
        self.daily = kept[1] if len(kept) == 2 and kept[0] == str(seed) else ""
        self._title()

    def _title(self) -> None:
        """The game bar's title, with a small line under it in a daily challenge or replay."""
        title = js.document.getElementById("game-title")
        if not found(title):
            return
        t = self.table
        note = ""
        if self.replay is not None:
            note = _("Replay of a finished game")
        elif self.daily:
            note = _("Daily challenge of {date}", date=day_text(self.daily))
        title.textContent = t.title
        if note:
            line = js.document.createElement("span")
            line.className = "title-note"
            line.setAttribute("data-role", "title-note")
            line.textContent = note
            title.append(" ", line)

    # -- the end ---------------------------------------------------------------------------
    def my_result(self) -> tuple[ui.FinalScore, str] | None:
        """The person's line of the finished game's end screen, and the solo rating band
        reached (English, "" when none); None when no person sits."""
        t = self.table
        session = t.session
        if session is None or t.you is None:
            return None
        mine = next((p for p in t.end().players if p.seat == t.you), None)
        if mine is None:
            return None
        obs = t.final_observation()
        band = ""
        if isinstance(obs, dict) and len(session.seats) == 1:
            band = str(obs.get("solo_band") or obs.get("rating") or "")
        return mine, band

    def finished(self) -> None:
        """The game just ended: keep it in the records (once per game)."""
        t = self.table
        session = t.session
        if session is None or session is self._finished or self.replay is not None:
            return
        self._finished = session
        self.counted = None
        outcome = self.my_result()
        if outcome is None:
            return
        mine, rating = outcome
        result = records.Result(
            t.game_id,
            records.level_of(session.seats),
            len(session.seats),
            mine.total,
            t.you in session.state.outcome().winners,
            deals.today().isoformat(),
            json.loads(session.save()),
            rating,
            self.daily,
        )
        try:
            counted = self.store.add(result)
        except Exception as exc:  # never lose the end screen over the records
            js.console.warn(f"records: {exc!r}")  # not shown
            return
        self.counted = counted if self.daily else None
        self.remember_daily(0, "")

    def deal(self) -> deals.Deal | None:
        """The deal of the game shown (its seed, seats and the game's own options)."""
        session = self.table.session
        if session is None:
            return None
        opts = session.record.options
        own = {k: opts[k] for k in type(self.table).choices if k in opts}
        return deals.Deal(self.table.game_id, session.record.seed, tuple(session.seats), own)

    def decorate_end(self) -> None:
        """The end screen's own part: daily or practice, same deal, link, share, records."""
        t = self.table
        dialog = t.root.querySelector("[data-role=end]") if t.root is not None else None
        if not found(dialog) or self.replay is not None:
            return
        note = ""
        if self.daily:
            date = day_text(self.daily)
            if self.counted:
                said = _("This try counts for the daily challenge of {date}.", date=date)
            else:
                said = _(
                    "Practice: only the first finished try of the daily challenge of {date} "
                    "counts.",
                    date=date,
                )
            note = f'<p class="daily-note" data-role="daily-note">{esc(said)}</p>'
        share = ""
        if self.daily:
            share = (
                '<button type="button" class="btn" data-action="share-daily">'
                f"{esc(_('Share the result'))}</button>"
            )
        label = esc(_("Link to this deal"))
        extra = f"""
<div class="end-more" data-role="end-more">{note}
<p class="dialog-actions">
  <button type="button" class="btn" data-action="same-deal">{esc(_("Play the same deal again"))}
  </button>
  <button type="button" class="btn" data-action="copy-link">{esc(_("Copy link"))}</button>
  {share}
  <a class="btn" href="#/records">{esc(_("Your records"))}</a></p>
<p class="small" data-role="link-said" role="status"></p>
<input type="text" readonly class="link-text" data-role="link-text" aria-label="{label}" hidden>
</div>"""
        dialog.insertAdjacentHTML("beforeend", extra)

    def actions(self) -> dict[str, Callable[[Any], None]]:
        """The end screen's and the replay bar's actions (``data-action``)."""
        return {
            "same-deal": lambda _t: self.same_deal(),
            "copy-link": lambda _t: self.copy_link(),
            "share-daily": lambda _t: self.share_daily(),
            "replay-start": lambda _t: self.step_to(0),
            "replay-back": lambda _t: self.step_by(-1),
            "replay-forward": lambda _t: self.step_by(1),
            "replay-end": lambda _t: self.step_to(None),
        }

    def same_deal(self) -> None:
        old = self.table.session
        if old is None:
            return
        daily = self.daily
        session = TableSession(old.game, old.record.options, old.record.seed, list(old.seats))
        self.remember_daily(old.record.seed, daily)
        self.table.start_with(session)

    def copy_link(self) -> None:
        deal = self.deal()
        if deal is not None:
            self.copy(page_url(deals.link(deal)), _("Link copied."))

    def share_daily(self) -> None:
        t = self.table
        outcome = self.my_result() if self.daily else None
        if outcome is None:
            return
        mine, band = outcome
        shown = _(band) if band else ""
        rating = next((line.value for line in mine.lines if line.kind == "band"), shown)
        url = page_url(f"#/{t.game_id}/daily?date={self.daily}")
        text = deals.share_text(t.title, day_text(self.daily), ui.points(mine.total), rating, url)
        if found(getattr(js.navigator, "share", None)) and allowed("web-share"):
            asyncio.ensure_future(self._share(text))
        else:
            self.copy(text, _("Result copied: paste it where you like."))

    async def _share(self, text: str) -> None:
        from pyodide.ffi import to_js  # type: ignore[import-not-found]

        try:
            await js.navigator.share(to_js({"text": text}, dict_converter=js.Object.fromEntries))
        except Exception:  # cancelled by the person, or refused: offer it to copy
            self.copy(text, _("Result copied: paste it where you like."))

    def copy(self, text: str, said: str) -> None:
        """Copy ``text`` (the clipboard where the browser lets us, else a selected field)."""
        asyncio.ensure_future(self._copy(text, said))

    async def _copy(self, text: str, said: str) -> None:
        root = self.table.root
        if root is None:
            return
        field = root.querySelector("[data-role=link-text]")
        status = root.querySelector("[data-role=link-said]")
        try:
            clipboard = getattr(js.navigator, "clipboard", None)
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

    # -- replays ------------------------------------------------------------------------------
    def open_replay(self, number: str) -> None:
        """``#/<game>/replay/<n>``: the records' n-th kept game, from its end."""
        t = self.table
        kept = self.store.read().replays
        entry = kept[int(number)] if number.isdigit() and int(number) < len(kept) else None
        shown: Replay | None = None
        if entry is not None and entry.get("game") == t.game_id:
            try:
                shown = self.make_replay(int(number), entry["record"])
            except (RecordError, GameError, ValueError, TypeError, KeyError) as exc:
                js.console.warn(f"replay {number}: {exc!r}")  # not shown
        if shown is None:
            self.replay = None
            t.show_setup()
            self.show_notices(
                [
                    _(
                        "There is no finished game {n} of {game} in your records to watch.",
                        n=deals._shown(number),
                        game=t.title,
                    )
                ]
            )
            return
        self.show_replay(shown)

    def make_replay(self, index: int, data: Any) -> Replay:
        t = self.table
        record = Record.from_dict(data)
        seats = data.get("seats") if isinstance(data, dict) else None
        if not (isinstance(seats, list) and all(isinstance(s, str) for s in seats)):
            raise ValueError("seats")
        if len(seats) != record.options.get("players"):
            raise ValueError("players")
        state = replay(record, upto=0, game=t.game)
        marks: list[int | None] = []
        stops: list[int] = []
        for k in range(len(record.events) + 1):
            if k:  # one event more (checked when the step is shown)
                who, what = record.events[k - 1]
                if who == CHANCE:
                    apply_chance_checked(state, what)
                else:
                    play(state, int(who), what)
            if state.is_chance() and not state.is_terminal():
                marks.append(None)
                continue
            stops.append(k)
            obs = state.observation(None)
            mark = obs.get("round", obs.get("roll")) if isinstance(obs, dict) else None
            marks.append(int(mark) if isinstance(mark, int) and mark > 0 else None)
        if not stops or not state.is_terminal():
            raise ValueError("not a finished game")
        return Replay(index, record, seats, marks, stops)

    def show_replay(self, shown: Replay) -> None:
        t = self.table
        t.driver.stop()
        t.dialogs.close_all()
        self.show_notices([])
        if t.tabs is not None:
            t.tabs.release()  # watching is not playing
        self.replay = shown
        t.frame.show_play()
        bar = t.root.querySelector("[data-role=replay-bar]")
        if found(bar):
            bar.remove()
        t.root.querySelector("[data-role=screen]").insertAdjacentHTML(
            "beforebegin", self.bar_html(shown)
        )
        self._title()
        self.step_to(shown.step)

    def bar_html(self, shown: Replay) -> str:
        rounds = "".join(
            f'<option value="{k}">{esc(_("Round {n}", n=n))}</option>' for n, k in shown.rounds
        )
        return f"""
<nav class="replay-bar" data-role="replay-bar" aria-label="{esc(_("Replay"))}">
  <button type="button" class="btn" data-action="replay-start">{esc(_("Start"))}</button>
  <button type="button" class="btn" data-action="replay-back">{esc(_("Step back"))}</button>
  <button type="button" class="btn" data-action="replay-forward">{esc(_("Step forward"))}
  </button>
  <button type="button" class="btn" data-action="replay-end">{esc(_("End"))}</button>
  <label class="field replay-round">{esc(_("Jump to"))}
    <select data-role="replay-round"><option value="">…</option>{rounds}</select></label>
  <span class="small" data-role="replay-step"></span>
  <a class="btn" href="#/records">{esc(_("Your records"))}</a>
</nav>"""

    def read_only(self, board: str) -> str:
        """The board as drawn: in a replay, without its moves (nothing can be played)."""
        if self.replay is None:
            return board
        return MOVE.sub("", board)

    def changed(self, target: Any) -> bool:
        """A change on the replay bar (the round to jump to); True if it was one."""
        if self.replay is None or str(target.getAttribute("data-role")) != "replay-round":
            return False
        value = str(target.value)
        if value.isdigit():
            self.step_to(int(value))
        return True

    def step_by(self, delta: int) -> None:
        shown = self.replay
        if shown is not None:
            self.step_to(shown.snap(shown.step + delta, back=delta < 0))

    def step_to(self, step: int | None) -> None:
        """Show the state after ``step`` events (None: the end)."""
        t = self.table
        shown = self.replay
        if shown is None or t.root is None:
            return
        total = len(shown.record.events)
        shown.step = total if step is None else shown.snap(step)
        record = shown.record
        upto = Record(record.game, dict(record.options), record.seed, record.events[: shown.step])
        seats = [fallback_level(t.game)] * len(shown.seats)  # nobody acts in a replay
        session = TableSession(t.game, record.options, record.seed, seats)
        session.match.state = replay(record, upto=shown.step, game=t.game)
        session.match.record = upto
        t.session = session
        t.you = ui.human_seat(shown.seats)
        t.names = t.seat_names(shown.seats)
        t._log = ui.LogNotes()
        t.render()
        said = t.root.querySelector("[data-role=replay-step]")
        if found(said):
            said.textContent = _("Step {k} of {n}", k=i18n.number(shown.step), n=i18n.number(total))
        t.root.setAttribute("data-replay-step", str(shown.step))

    def left(self) -> None:
        """The table shows something else (set-up, a game): no replay bar, no notices."""
        self.replay = None
        root = self.table.root
        if root is not None:
            bar = root.querySelector("[data-role=replay-bar]")
            if found(bar):
                bar.remove()
            root.removeAttribute("data-replay-step")
        self._title()
