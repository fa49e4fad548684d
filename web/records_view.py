"""The records page (``#/records``): per game and level, the daily challenges, the replays.

Reads the records store (:class:`~.storage.RecordsStore`, ``optimus-table.records``):
games played, wins, best and mean score, the solo rating bands reached, the
last 30 scores as a small chart (with the scores in words beside it), each
daily challenge's streak, and the kept games to watch again
(``#/<game>/replay/<n>``).  The records can be cleared (after a confirmation),
exported as a file and imported from one (merged; a bad file changes nothing).
"""

from __future__ import annotations

import asyncio
from typing import Any

import js
from pyodide.ffi import create_proxy, to_js

from optimus import i18n
from optimus.games import GAMES, listed
from optimus.i18n import _, ngettext
from optimus.ui import deals, records
from optimus.ui import table as ui

from .deal_links import day_text
from .markup import Markup, html, join
from .router import found
from .storage import RecordsStore, Storage

EXPORT_NAME = "optimus-table-records.json"


def level_label(level: str) -> str:
    """A records line's level in words."""
    if level == "solo":
        return _("Solo")
    if level == "people":
        return _("People only, no bots")
    if level in ("random", "easy", "normal", "hard"):
        return _("Strongest bot: {level}", level=ui.level_name(level))
    return _("Strongest bot: {level}", level=level.partition(":")[2] or level)


def chart_html(scores: tuple[int, ...]) -> Markup:
    """The last scores as a small line chart, with its text alternative."""
    if not scores:
        return Markup()
    words = ", ".join(i18n.number(s) for s in scores)
    alt = ngettext(
        "The last score: {scores}",
        "The last {n} scores, oldest first: {scores}",
        len(scores),
        n=len(scores),
        scores=words,
    )
    return html(
        '<svg class="chart" viewBox="0 0 120 32" width="120" height="32" role="img" '
        'aria-label="{alt}"><title>{alt}</title>'
        '<polyline points="{points}" fill="none" stroke="currentColor" stroke-width="2"/>'
        "</svg>",
        alt=alt,
        points=records.chart_points(scores, 120, 32),
    )


class RecordsView:
    """The router's view of ``#/records``."""

    def __init__(self) -> None:
        i18n.load("optimus.ui")
        self.storage = Storage()
        self.store = RecordsStore(self.storage)
        self.root: Any = None
        self.said: list[str] = []
        """What the last action said (imported, cleared, a bad file)."""
        self.exported = ""
        """The text of the last export, shown to copy (a download may be refused)."""
        self.store.on_said = self._said
        self._click = create_proxy(self._on_click)
        self._change = create_proxy(self._on_change)

    def mount(self, container: Any) -> None:
        self.root = container
        title = js.document.getElementById("game-title")
        if found(title):
            title.textContent = _("Your records")
        js.document.title = f"{_('Your records')} · Optimus Table"  # not shown: names only
        container.addEventListener("click", self._click)
        container.addEventListener("change", self._change)
        self.draw()

    def unmount(self) -> None:
        if self.root is not None:
            self.root.removeEventListener("click", self._click)
            self.root.removeEventListener("change", self._change)
        self.root = None

    def relabel(self) -> None:
        root = self.root
        if root is not None:
            self.unmount()
            self.mount(root)

    # -- drawing ----------------------------------------------------------------------------
    def draw(self) -> None:
        if self.root is None:
            return
        kept = self.store.records
        notices = [_(n) for n in self.store.take_notices()]
        if not self.storage.persistent:
            notices.append(
                _(
                    "This browser does not let the page keep data: your records last only "
                    "until you close the page."
                )
            )
        said = join(html('<p class="notice">{}</p>', n) for n in notices)
        said += join(
            html('<p class="notice" data-role="records-said">{}</p>', n) for n in self.said
        )
        self.root.innerHTML = html(
            """
<div class="records-page" data-role="records">
  <div role="status" aria-live="polite">{said}</div>
  {games}
  <section class="records-replays" aria-labelledby="records-replays-title">
    <h2 id="records-replays-title">{watch_again}</h2>{replays}</section>
  <section class="records-tools" aria-labelledby="records-tools-title">
    <h2 id="records-tools-title">{file}</h2>
    <p class="dialog-actions">
      <button type="button" class="btn" data-action="records-export">{export}</button>
      <label class="btn records-import">{import_}
        <input type="file" accept=".json,application/json" data-role="records-import"></label>
      <button type="button" class="btn" data-action="records-clear">{clear_word}</button>
    </p>{exported}
  </section>
  <dialog class="small-dialog" data-role="records-confirm" aria-labelledby="records-confirm-text">
    <p id="records-confirm-text">{clear}</p>
    <p class="dialog-actions">
      <button type="button" class="btn" data-action="records-keep">{cancel}</button>
      <button type="button" class="btn primary" data-action="records-cleared">
        {clear_word}</button></p>
  </dialog>
</div>""",
            said=said,
            games=join(self.game_html(info.id, info.title, kept) for info in listed()),
            watch_again=_("Games to watch again"),
            replays=self.replays_html(kept),
            file=_("Your record file"),
            export=_("Export"),
            import_=_("Import…"),
            clear_word=_("Clear"),
            exported=self.exported_html(),
            clear=_("Clear all records? This cannot be undone (export them first to keep them)."),
            cancel=_("Cancel"),
        )

    def exported_html(self) -> Markup:
        """The exported text to copy by hand: open where a download may be refused (a
        sandboxed iframe refuses it without a word), folded elsewhere."""
        if not self.exported:
            return Markup()
        return html(
            '<details class="records-text" data-role="records-text"{open}>'
            "<summary>{summary}</summary>"
            '<textarea readonly rows="6" aria-label="{label}" data-role="records-text-area">'
            "{text}</textarea></details>",
            open=Markup(" open" if framed() else ""),
            summary=_("No file saved? Copy this text into a file named {name}.", name=EXPORT_NAME),
            label=_("Your records as text"),
            text=self.exported,
        )

    def game_html(self, game: str, title: str, kept: records.Records) -> Markup:
        lines = kept.stats(game)
        streak = kept.streak(game, deals.today())
        today = deals.today().isoformat()
        score = kept.daily_score(game, today)
        daily = (
            _("Today's challenge: {points}.", points=ui.points(score))
            if score is not None
            else _("Today's challenge is still to play.")
        )
        streak_said = ngettext(
            "Daily challenge streak: {n} day.",
            "Daily challenge streak: {n} days.",
            streak,
            n=streak,
        )
        challenge = html(
            """
  <p><span data-role="streak" data-streak="{streak}">{streak_said}</span> {daily}
    <a href="#/{game}/daily">{play}</a></p>""",
            streak=streak,
            streak_said=streak_said,
            daily=daily,
            game=game,
            play=_("Play the daily challenge"),
        )
        head = html(
            """
<section class="records-game" data-game="{game}" aria-labelledby="records-{game}">
  <h2 id="records-{game}">{title}</h2>{challenge}""",
            game=game,
            title=title,
            challenge=challenge if GAMES[game].daily else "",
        )
        if not lines:
            return head + html('<p class="small">{}</p></section>', _("No finished game yet."))
        rows = []
        for s in lines:
            bands = ", ".join(
                _("{band} ×{n}", band=_(band), n=n) for band, n in sorted(s.bands.items())
            )
            rows.append(
                html(
                    '<tr data-level="{level}" data-played="{played}" data-wins="{wins}" '
                    'data-best="{best}">'
                    '<th scope="row">{label}</th>'
                    "<td>{n_played}</td><td>{n_wins}</td>"
                    "<td>{n_best}</td><td>{n_mean}</td>"
                    "<td>{bands}</td><td>{chart}</td></tr>",
                    level=s.level,
                    played=s.played,
                    wins=s.wins,
                    best=s.best,
                    label=level_label(s.level),
                    n_played=i18n.number(s.played),
                    n_wins=i18n.number(s.wins),
                    n_best=i18n.number(s.best),
                    n_mean=i18n.number(s.mean, 1),
                    bands=bands,
                    chart=chart_html(s.scores),
                )
            )
        heads = join(
            html('<th scope="col">{}</th>', h)
            for h in (
                _("Table"),
                _("Played"),
                _("Wins"),
                _("Best"),
                _("Mean"),
                _("Solo rating bands"),
                _("Last scores"),
            )
        )
        return head + html(
            '<div class="records-table" tabindex="0" role="region" aria-label="{label}">'
            "<table><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>"
            "</div></section>",
            label=_("{game}: your records", game=title),
            heads=heads,
            rows=join(rows),
        )

    def replays_html(self, kept: records.Records) -> Markup:
        items = []
        for n, entry in reversed(list(enumerate(kept.replays))):
            info = GAMES.get(str(entry["game"]))
            if info is None:
                continue
            day = str(entry["daily"] or entry["day"])
            try:
                when = day_text(day)
            except ValueError:
                continue
            what = (
                _(
                    "{game}, daily challenge of {date}: {points}",
                    game=info.title,
                    date=when,
                    points=ui.points(int(entry["score"])),
                )
                if entry["daily"]
                else _(
                    "{game}, {date}: {points}",
                    game=info.title,
                    date=when,
                    points=ui.points(int(entry["score"])),
                )
            )
            items.append(
                html(
                    '<li data-replay="{n}">{what} <a href="#/{game}/replay/{n}">{watch}</a></li>',
                    n=n,
                    what=what,
                    game=info.id,
                    watch=_("Watch"),
                )
            )
        if not items:
            return html('<p class="small">{}</p>', _("No finished game yet."))
        return html('<ul class="replays">{}</ul>', join(items))

    # -- actions --------------------------------------------------------------------------------
    def _on_click(self, event: Any) -> None:
        origin = event.target
        if not found(origin) or not hasattr(origin, "closest") or self.root is None:
            return
        target = origin.closest("[data-action]")
        if not found(target):
            return
        action = str(target.getAttribute("data-action"))
        dialog = self.root.querySelector("[data-role=records-confirm]")
        if action == "records-export":
            self.export()
        elif action == "records-clear" and found(dialog):
            dialog.showModal()
            dialog.querySelector("[data-action=records-keep]").focus()
        elif action == "records-keep" and found(dialog):
            dialog.close()
        elif action == "records-cleared":
            if found(dialog):
                dialog.close()
            self.exported = ""
            self.said = [_("Your records were cleared.")]
            self.store.replace(records.Records())
            self.draw()
            self._focus("[data-action=records-clear]")

    def _on_change(self, event: Any) -> None:
        target = event.target
        if not found(target) or str(target.getAttribute("data-role")) != "records-import":
            return
        files = target.files
        if not found(files) or files.length == 0:
            return
        asyncio.ensure_future(self.import_file(files.item(0)))

    def _focus(self, selector: str) -> None:
        if self.root is not None:
            node = self.root.querySelector(selector)
            if found(node):
                node.focus()

    def _said(self, notice: str) -> None:
        """A write lost something (storage full): say it here."""
        self.said = [_(notice)]
        self.draw()

    def export(self) -> None:
        """Download the records as a JSON file (made here: nothing leaves the browser),
        and show its text to copy (where the download is refused, nothing else says so)."""
        text = records.dump(self.store.read())
        self.exported = text
        self.draw()
        self._focus("[data-role=records-text] summary")
        blob = js.Blob.new(
            to_js([text]), to_js({"type": "application/json"}, dict_converter=js.Object.fromEntries)
        )
        url = js.URL.createObjectURL(blob)
        link = js.document.createElement("a")
        link.href = url
        link.download = EXPORT_NAME
        self.root.append(link)
        link.click()
        link.remove()
        js.setTimeout(create_proxy(lambda: js.URL.revokeObjectURL(url)), 1000)

    async def import_file(self, file: Any) -> None:
        """Merge a records file into these records; a bad file changes nothing, and says
        why in words."""
        try:
            if int(file.size) > records.MAX_TEXT * 4:
                raise ValueError("too big")  # not shown
            text = str(await file.text())
        except Exception as exc:
            js.console.warn(f"records import: {exc!r}")  # not shown
            text = "x" * (records.MAX_TEXT + 1)  # said too big
        loaded = records.load(text or "null")
        if loaded.problem:
            js.console.warn(f"records import refused: {loaded.problem}")  # not shown
            sentence, values = records.refusal(loaded.problem)
            self._imported(sentence, values)
        else:
            self.store.merge_in(loaded.records, self._imported)

    def _imported(self, notice: str | None, values: dict[str, str] | None = None) -> None:
        self.said = [_(notice or records.IMPORTED, **(values or {}))]
        self.draw()
        self._focus("[data-role=records-import]")


def framed() -> bool:
    """Whether the page is in a frame or has an opaque origin (a sandboxed iframe)."""
    try:
        return str(js.window.origin) == "null" or js.window.top != js.window.self
    except Exception:  # a frame whose top cannot be looked at
        return True
