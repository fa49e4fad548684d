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
from .router import esc, found
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


def chart_html(scores: tuple[int, ...]) -> str:
    """The last scores as a small line chart, with its text alternative."""
    if not scores:
        return ""
    words = ", ".join(i18n.number(s) for s in scores)
    alt = esc(
        ngettext(
            "The last score: {scores}",
            "The last {n} scores, oldest first: {scores}",
            len(scores),
            n=len(scores),
            scores=words,
        )
    )
    points = records.chart_points(scores, 120, 32)
    return (
        f'<svg class="chart" viewBox="0 0 120 32" width="120" height="32" role="img" '
        f'aria-label="{alt}"><title>{alt}</title>'
        f'<polyline points="{points}" fill="none" stroke="currentColor" stroke-width="2"/>'
        "</svg>"
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
        said = "".join(f'<p class="notice">{esc(n)}</p>' for n in notices)
        said += "".join(
            f'<p class="notice" data-role="records-said">{esc(n)}</p>' for n in self.said
        )
        games = "".join(self.game_html(info.id, info.title, kept) for info in listed())
        replays = self.replays_html(kept)
        clear = esc(_("Clear all records? This cannot be undone (export them first to keep them)."))
        self.root.innerHTML = f"""
<div class="records-page" data-role="records">
  <div role="status" aria-live="polite">{said}</div>
  {games}
  <section class="records-replays" aria-labelledby="records-replays-title">
    <h2 id="records-replays-title">{esc(_("Games to watch again"))}</h2>{replays}</section>
  <section class="records-tools" aria-labelledby="records-tools-title">
    <h2 id="records-tools-title">{esc(_("Your record file"))}</h2>
    <p class="dialog-actions">
      <button type="button" class="btn" data-action="records-export">{esc(_("Export"))}</button>
      <label class="btn records-import">{esc(_("Import…"))}
        <input type="file" accept=".json,application/json" data-role="records-import"></label>
      <button type="button" class="btn" data-action="records-clear">{esc(_("Clear"))}</button>
    </p>{self.exported_html()}
  </section>
  <dialog class="small-dialog" data-role="records-confirm" aria-labelledby="records-confirm-text">
    <p id="records-confirm-text">{clear}</p>
    <p class="dialog-actions">
      <button type="button" class="btn" data-action="records-keep">{esc(_("Cancel"))}</button>
      <button type="button" class="btn primary" data-action="records-cleared">
        {esc(_("Clear"))}</button></p>
  </dialog>
</div>"""

    def exported_html(self) -> str:
        """The exported text to copy by hand: open where a download may be refused (a
        sandboxed iframe refuses it without a word), folded elsewhere."""
        if not self.exported:
            return ""
        label = esc(_("Your records as text"))
        summary = esc(
            _("No file saved? Copy this text into a file named {name}.", name=EXPORT_NAME)
        )
        return (
            f'<details class="records-text" data-role="records-text"{" open" if framed() else ""}>'
            f"<summary>{summary}</summary>"
            f'<textarea readonly rows="6" aria-label="{label}" data-role="records-text-area">'
            f"{esc(self.exported)}</textarea></details>"
        )

    def game_html(self, game: str, title: str, kept: records.Records) -> str:
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
        challenge = f"""
  <p><span data-role="streak" data-streak="{streak}">{esc(streak_said)}</span> {esc(daily)}
    <a href="#/{esc(game)}/daily">{esc(_("Play the daily challenge"))}</a></p>"""
        head = f"""
<section class="records-game" data-game="{esc(game)}" aria-labelledby="records-{esc(game)}">
  <h2 id="records-{esc(game)}">{esc(title)}</h2>{challenge if GAMES[game].daily else ""}"""
        if not lines:
            return head + f'<p class="small">{esc(_("No finished game yet."))}</p></section>'
        rows = []
        for s in lines:
            bands = ", ".join(
                _("{band} ×{n}", band=_(band), n=n) for band, n in sorted(s.bands.items())
            )
            rows.append(
                f'<tr data-level="{esc(s.level)}" data-played="{s.played}" data-wins="{s.wins}" '
                f'data-best="{s.best}">'
                f'<th scope="row">{esc(level_label(s.level))}</th>'
                f"<td>{esc(i18n.number(s.played))}</td><td>{esc(i18n.number(s.wins))}</td>"
                f"<td>{esc(i18n.number(s.best))}</td><td>{esc(i18n.number(s.mean, 1))}</td>"
                f"<td>{esc(bands)}</td><td>{chart_html(s.scores)}</td></tr>"
            )
        heads = "".join(
            f'<th scope="col">{esc(h)}</th>'
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
        label = esc(_("{game}: your records", game=title))
        return (
            head
            + f'<div class="records-table" tabindex="0" role="region" aria-label="{label}">'
            + f"<table><thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
            + "</div></section>"
        )

    def replays_html(self, kept: records.Records) -> str:
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
                f'<li data-replay="{n}">{esc(what)} '
                f'<a href="#/{esc(info.id)}/replay/{n}">{esc(_("Watch"))}</a></li>'
            )
        if not items:
            return f'<p class="small">{esc(_("No finished game yet."))}</p>'
        return f'<ul class="replays">{"".join(items)}</ul>'

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
