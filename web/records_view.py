"""The records page (``#/records``): statistics per game and table, the daily challenges,
the replays.

Reads the records store (:class:`~.storage.RecordsStore`, ``optimus-table.records``)
and draws, per game and table (solo, people only, or the strongest bot), what
:mod:`optimus.ui.stats` computes: games played, won, best and mean score, the solo
rating bands reached, the score history with its moving average and the score
distribution, as inline SVG drawn here (no library), each with its words; each
daily challenge's streak, and the kept games to watch again
(``#/<game>/replay/<n>``).  The records can be cleared (after a confirmation),
exported as a file and imported from one (merged; a bad file changes nothing): what
that did is said next to the buttons, in a polite live region.  Its styles are
web/records.css.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import js
from pyodide.ffi import create_proxy, to_js

from optimus import i18n
from optimus.games import GAMES, listed
from optimus.i18n import _, ngettext
from optimus.ui import deals, records, stats
from optimus.ui import table as ui

from .deal_links import day_text
from .dialogs import confirm_html
from .markup import Markup, html, join
from .router import found
from .storage import RecordsStore, Storage

EXPORT_NAME = "optimus-table-records.json"
DOT = '<circle class="dot" cx="{x:.1f}" cy="{y:.1f}" r="2.5"/>'


def level_label(level: str) -> str:
    """A records line's level in words."""
    if level == "solo":
        return _("Solo")
    if level == "people":
        return _("People only, no bots")
    if level in ("random", "easy", "normal", "hard"):
        return _("Strongest bot: {level}", level=ui.level_name(level))
    return _("Strongest bot: {level}", level=level.partition(":")[2] or level)


def history_alt(line: stats.Line) -> str:
    """The history chart in words: the last scores, and the moving average now."""
    shown = line.history[-records.SCORES_KEPT :]
    words = ", ".join(i18n.number(s) for s in shown)
    said = ngettext(
        "The last score: {scores}",
        "The last {n} scores, oldest first: {scores}",
        len(shown),
        n=len(shown),
        scores=words,
    )
    games = min(stats.WINDOW, len(line.history))
    average = ngettext(  # one game played so far: "the last game", never "1 games"
        "Mean of the last game: {average}.",
        "Mean of the last {n} games: {average}.",
        games,
        average=i18n.number(line.average[-1], 1),
    )
    return f"{said}. {average}"


def history_svg(line: stats.Line) -> Markup:
    """The score history (every known score, oldest left) and its moving average, drawn
    as an inline SVG that fills its box's width."""
    return line_chart_svg(line.history, line.average, history_alt(line), "history")


def svg_html(kind: str, box: stats.Box, alt: str, body: Markup) -> Markup:
    """A chart of class ``chart {kind}``: an inline SVG of ``box``'s size that fills its
    box's width, named by ``alt`` (its words), drawing ``body``."""
    return html(
        '<svg class="chart {kind}" viewBox="0 0 {vw} {vh}" role="img" aria-label="{alt}" '
        'preserveAspectRatio="xMidYMid meet"><title>{alt}</title>{body}</svg>',
        kind=kind,
        vw=box.width,
        vh=box.height,
        alt=alt,
        body=body,
    )


def grid_svg(box: stats.Box, ticks: Sequence[tuple[float, float]]) -> Markup:
    """A chart's level lines across the plot of ``box``, each with its value at the left
    (``ticks``: ``(value, y)``)."""
    x0, _y0, w, _h = box.inner
    return join(
        html(
            '<line class="grid" x1="{x0}" x2="{x1}" y1="{y}" y2="{y}"/>'
            '<text class="tick" x="{tx}" y="{ty}" text-anchor="end">{v}</text>',
            x0=x0,
            x1=x0 + w,
            y=at,
            tx=x0 - 4,
            ty=at + 3.5,
            v=i18n.number(value),
        )
        for value, at in ticks
    )


def line_chart_svg(values: Sequence[int], average: Sequence[float], alt: str, kind: str) -> Markup:
    """Figures over games (oldest left) and their moving average, drawn as an inline SVG
    of class ``chart {kind}`` that fills its box's width (the score history, the
    accuracy)."""
    box = stats.Box()
    chart = stats.history_chart(values, average, box)
    x0, y0, w, h = box.inner
    grid = grid_svg(box, chart.y_ticks)
    games = join(
        html(
            '<text class="tick" x="{x}" y="{y}" text-anchor="{anchor}">{v}</text>',
            x=at,
            y=box.height - 6,
            anchor="start" if at <= x0 else "end",
            v=i18n.number(value),
        )
        for value, at in chart.x_ticks
    )
    dots = (
        join(
            html('<circle class="dot" cx="{:.1f}" cy="{:.1f}" r="2.5"/>', x, y)
            for x, y in chart.dots
        )
        if len(chart.dots) <= 40
        else Markup()
    )
    lines = html(
        '<polyline class="scores" points="{}" fill="none" stroke-width="1.5"/>'
        '<polyline class="average" points="{}" fill="none" stroke-width="2.5"/>',
        chart.scores,
        chart.average,
    )
    return svg_html(kind, box, alt, grid + games + lines + dots)


BAR = (
    '<rect class="bar" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}">'
    "<title>{}</title></rect>"
)
"""A bar of the distribution: its rectangle and what it says (its scores, its games)."""
BAR_TEXT = '<text class="{}" x="{:.1f}" y="{:.1f}" text-anchor="middle">{}</text>'
"""A word under (``tick``: the bar's lowest score) or over (``count``) a bar, centred."""


def distribution_svg(line: stats.Line) -> Markup:
    """How often each range of scores came, as bars (inline SVG), with its words."""
    box = stats.Box()
    bars = stats.distribution_chart(line.bins, box)
    parts = []
    words = []
    for bar in bars:
        b = bar.bin
        span = (
            i18n.number(b.low)
            if b.low == b.high
            else _("{low} to {high}", low=i18n.number(b.low), high=i18n.number(b.high))
        )
        games = ngettext("{n} game", "{n} games", b.count)
        said = f"{span}: {games}"
        if b.count:
            words.append(said)
        rect = (bar.x, bar.y, bar.width, bar.height)
        middle = bar.x + bar.width / 2
        parts.append(html(BAR, *rect, said))
        parts.append(html(BAR_TEXT, "tick", middle, box.height - 6, i18n.number(b.low)))
        if b.count:
            parts.append(html(BAR_TEXT, "count", middle, max(bar.y - 3, 9), i18n.number(b.count)))
    alt = _("Scores and how many games reached them: {ranges}.", ranges="; ".join(words))
    return svg_html("spread", box, alt, join(parts))


def accuracy_html(game: str, kept: records.Records) -> Markup:
    """A game's accuracy over its reviewed games (the coach's review, "Review the
    game"): the share of best decisions of each and its moving average; nothing when no
    game of it was reviewed."""
    shown = stats.accuracy(kept, game)
    if not shown.best:
        return Markup()
    n = len(shown.best)
    last = shown.best[-records.SCORES_KEPT :]
    alt = ngettext(
        "Best moves in the last reviewed game: {shares}.",
        "Best moves in the last {n} reviewed games, oldest first: {shares}.",
        len(last),
        n=len(last),
        shares=", ".join(f"{i18n.number(b)}%" for b in last),
    )
    said = ngettext(
        "{n} game reviewed; the last: best moves {share}%, mean loss {loss} points per decision.",
        "{n} games reviewed; the last: best moves {share}%, mean loss {loss} points per decision.",
        n,
        n=i18n.number(n),
        share=i18n.number(shown.best[-1]),
        loss=i18n.number(shown.losses[-1], 2),
    )
    return html(
        """
<article class="records-line records-accuracy" data-role="records-accuracy" data-reviewed="{n}"
  aria-labelledby="records-{game}-accuracy">
  <h3 id="records-{game}-accuracy">{title}</h3>
  <p class="small">{said}</p>
  <div class="records-charts">
    <figure><figcaption>{caption}
      <span class="key"><i class="key-scores" aria-hidden="true"></i>{games_word}</span>
      <span class="key"><i class="key-average" aria-hidden="true"></i>{average_word}</span>
    </figcaption>{svg}</figure>
  </div>
</article>""",
        n=n,
        game=game,
        title=_("Accuracy of your reviewed games"),
        said=said,
        caption=_("Best moves (%)"),
        games_word=_("games, oldest left"),
        average_word=ngettext("mean of the last game", "mean of the last {n} games", stats.WINDOW),
        svg=line_chart_svg(shown.best, shown.average, alt, "accuracy"),
    )


LINE_DATA = ("level", "played", "wins", "best")
"""The figures of a table's line its ``<article>`` carries as ``data-`` attributes."""


def line_html(game: str, n: int, line: stats.Line) -> Markup:
    """One table of a game: its four figures, the solo bands reached, the two charts."""
    bands = ", ".join(
        _("{band} ×{n}", band=_(band), n=count) for band, count in sorted(line.bands.items())
    )
    bands_said = (
        html('<p class="records-bands">{}</p>', _("Solo rating bands: {bands}", bands=bands))
        if bands
        else Markup()
    )
    figures = (
        (_("Played"), i18n.number(line.played)),
        (
            _("Won"),
            _("{n} ({percent}%)", n=i18n.number(line.wins), percent=i18n.number(line.win_rate)),
        ),
        (_("Best"), i18n.number(line.best)),
        (_("Mean"), i18n.number(line.mean, 1)),
    )
    width = line.bins[0].high - line.bins[0].low + 1 if line.bins else 1
    return html(
        """
<article class="records-line"{data} aria-labelledby="records-{game}-{n}">
  <h3 id="records-{game}-{n}">{label}</h3>
  <dl class="records-figures">{figures}</dl>{bands}
  <div class="records-charts">
    <figure><figcaption>{history}
      <span class="key"><i class="key-scores" aria-hidden="true"></i>{scores_word}</span>
      <span class="key"><i class="key-average" aria-hidden="true"></i>{average_word}</span>
    </figcaption>{history_svg}</figure>
    <figure><figcaption>{spread}</figcaption>{spread_svg}</figure>
  </div>
</article>""",
        data=join(html(' data-{}="{}"', key, getattr(line, key)) for key in LINE_DATA),
        game=game,
        n=n,
        label=level_label(line.level),
        figures=join(
            html("<div><dt>{}</dt><dd>{}</dd></div>", word, value) for word, value in figures
        ),
        bands=bands_said,
        history=_("Score history"),
        scores_word=_("scores, oldest left"),
        average_word=ngettext("mean of the last game", "mean of the last {n} games", stats.WINDOW),
        history_svg=history_svg(line),
        spread=ngettext(
            "Score distribution (bars of {n} point)",
            "Score distribution (bars of {n} points)",
            width,
        ),
        spread_svg=distribution_svg(line),
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
        """The whole page; :meth:`refresh` then redraws its parts, never the live region
        that says what an action did (a region drawn anew is not announced)."""
        if self.root is None:
            return
        self.root.innerHTML = html(
            """
<div class="records-page" data-role="records">
  <div data-role="records-notices"></div>
  <div data-role="records-body"></div>
  <section class="records-tools" aria-labelledby="records-tools-title">
    <h2 id="records-tools-title">{file}</h2>
    <p class="dialog-actions">
      <button type="button" class="btn" data-action="records-export">{export}</button>
      <label class="btn records-import">{import_}
        <input type="file" accept=".json,application/json" data-role="records-import"></label>
      <button type="button" class="btn" data-action="records-clear">{clear_word}</button>
    </p>
    <p class="notice records-said" data-role="records-said" role="status" aria-live="polite"></p>
    <div data-role="records-exported"></div>
  </section>
{confirm}
</div>""",
            file=_("Your record file"),
            export=_("Export"),
            import_=_("Import…"),
            clear_word=_("Clear"),
            confirm=confirm_html(
                "records-confirm",
                "records-confirm-text",
                _("Clear"),
                _("Clear all records? This cannot be undone (export them first to keep them)."),
            ),
        )
        self.refresh()

    def refresh(self) -> None:
        """Draw the records, the notices, the exported text and what the last action said."""
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
        parts = {
            "records-notices": join(html('<p class="notice">{}</p>', n) for n in notices),
            "records-body": join(self.game_html(info.id, info.title, kept) for info in listed())
            + html(
                '<section class="records-replays" aria-labelledby="records-replays-title">'
                '<h2 id="records-replays-title">{}</h2>{}</section>',
                _("Games to watch again"),
                self.replays_html(kept),
            ),
            "records-exported": self.exported_html(),
        }
        for role, markup in parts.items():
            node = self.root.querySelector(f"[data-role={role}]")
            if found(node):
                node.innerHTML = markup
        said = self.root.querySelector("[data-role=records-said]")
        if found(said):
            said.textContent = " ".join(self.said)

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
        """A game's section: its daily challenge, then one block per table played."""
        head = html(
            """
<section class="records-game" data-game="{game}" aria-labelledby="records-{game}">
  <h2 id="records-{game}">{title}</h2>{challenge}""",
            game=game,
            title=title,
            challenge=self.daily_html(game, kept) if GAMES[game].daily else "",
        )
        lines = stats.lines(kept, game)
        if not lines:
            return head + html('<p class="small">{}</p></section>', _("No finished game yet."))
        return (
            head
            + join(line_html(game, n, line) for n, line in enumerate(lines))
            + accuracy_html(game, kept)
            + Markup("</section>")
        )

    def daily_html(self, game: str, kept: records.Records) -> Markup:
        """The daily challenge's streak, today's score (or that it is to play) and its link."""
        streak = kept.streak(game, deals.today())
        score = kept.daily_score(game, deals.today().isoformat())
        daily = (
            _("Today's challenge: {points}.", points=ui.points(score))
            if score is not None
            else _("Today's challenge is still to play.")
        )
        if score is not None and kept.daily_assisted(game, deals.today().isoformat()):
            daily += " " + _("Assisted: hints were used.")
        streak_said = ngettext(
            "Daily challenge streak: {n} day.",
            "Daily challenge streak: {n} days.",
            streak,
            n=streak,
        )
        return html(
            """
  <p class="records-daily"><span data-role="streak" data-streak="{streak}">{streak_said}</span>
    {daily} <a href="#/{game}/daily">{play}</a></p>""",
            streak=streak,
            streak_said=streak_said,
            daily=daily,
            game=game,
            play=_("Play the daily challenge"),
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
            if entry.get("assisted"):
                what = _("{game_and_points} · assisted (hints used)", game_and_points=what)
            items.append(
                html(
                    '<li data-replay="{n}"{assisted}>{what} '
                    '<a href="#/{game}/replay/{n}">{watch}</a></li>',
                    n=n,
                    assisted=Markup(' data-assisted=""' if entry.get("assisted") else ""),
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
            dialog.querySelector("[data-action=confirm-no]").focus()
        elif action == "confirm-no" and found(dialog):
            dialog.close()
        elif action == "confirm-yes":
            if found(dialog):
                dialog.close()
            self.exported = ""
            self.said = [_("Your records were cleared.")]
            self.store.replace(records.Records())
            self.refresh()
            self._focus("[data-action=records-clear]")

    def _on_change(self, event: Any) -> None:
        target = event.target
        if not found(target) or str(target.getAttribute("data-role")) != "records-import":
            return
        files = target.files
        if not found(files) or files.length == 0:
            return
        chosen = files.item(0)
        target.value = ""  # the same file chosen again is a change again
        asyncio.ensure_future(self.import_file(chosen))

    def _focus(self, selector: str) -> None:
        if self.root is not None:
            node = self.root.querySelector(selector)
            if found(node):
                node.focus()

    def _said(self, notice: str) -> None:
        """A write lost something (storage full): say it here."""
        self.said = [_(notice)]
        self.refresh()

    def export(self) -> None:
        """Download the records as a JSON file (made here: nothing leaves the browser),
        and show its text to copy (where the download is refused, nothing else says so)."""
        text = records.dump(self.store.read())
        self.exported = text
        self.refresh()
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
        self.refresh()
        self._focus("[data-role=records-import]")


def framed() -> bool:
    """Whether the page is in a frame or has an opaque origin (a sandboxed iframe)."""
    try:
        return str(js.window.origin) == "null" or js.window.top != js.window.self
    except Exception:  # a frame whose top cannot be looked at
        return True
