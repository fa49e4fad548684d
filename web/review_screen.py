"""The review of a finished game ("Review the game"): the coach rates the person's decisions.

Opened from the end screen (:mod:`.end_extras`) and from a replay of the records
(:mod:`.replay_bar`).  It reviews the seats the record marks as people with the
game's coach (:class:`optimus.ui.review_view.ReviewRun`) in slices of the page's
time, as the bots think (:data:`.driver.SLICE_MS`, the page's turn between two),
with a progress bar; Cancel, Escape or leaving stops it at once and changes
nothing.  Done, it shows the accuracy, a chart of the coach's value after each
decision (the rounds marked along it) and the costliest decisions, each opening the
board at that moment with the move played and the better move drawn
(:mod:`.move_marks`); the accuracy is kept with the game's record (a game kept in
the records), so a replay reopened shows it without reviewing again.  What is shown
is made by the pure :mod:`optimus.ui.review_view`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import js
from pyodide.ffi import create_proxy

from optimus import i18n
from optimus.core.record import Record
from optimus.core.review import Decision
from optimus.i18n import _, ngettext
from optimus.ui import review_view as rv
from optimus.ui import stats
from optimus.ui.replay import Replay, make

from .driver import SLICE_MS
from .hosts import TableFacts
from .markup import Markup, html, join
from .records_view import grid_svg, svg_html
from .router import found
from .storage import RecordsStore


class ReviewHost(TableFacts, Protocol):
    """What the review needs of its table."""

    game: Any


class Opener(Protocol):
    """Shows a replay at a step with a decision's moves drawn (the replay bar)."""

    def show_decision(
        self, shown: Replay, ident: str, decision: Decision, lines: tuple[str, str]
    ) -> None: ...


class Reviewed:
    """A game to review: its record, who sat where, its id in the records ("" when not
    kept), and its review once run."""

    def __init__(self, record: Record, seats: Sequence[str], ident: str) -> None:
        self.record = record
        self.seats = tuple(seats)
        self.ident = ident
        self.run: rv.ReviewRun | None = None

    def same(self, record: Record) -> bool:
        return self.record.to_dict() == record.to_dict()


class ReviewScreen:
    """One table's review dialog."""

    def __init__(self, host: ReviewHost, store: RecordsStore, opener: Opener) -> None:
        self.host = host
        self.store = store
        self.opener = opener
        self.shown: Reviewed | None = None
        self.generation = 0
        """Bumped to stop a running review (Cancel, closed, a new game, leaving)."""
        self._closed = create_proxy(lambda _event: self.stop())

    # -- the dialog ---------------------------------------------------------------------
    def dialog(self) -> Any:
        """The review's dialog, drawn into the table the first time it is needed."""
        root = self.host.root
        node = root.querySelector("[data-role=review]")
        if not found(node):
            root.insertAdjacentHTML(
                "beforeend",
                html(
                    '<dialog class="review-dialog" data-role="review" '
                    'aria-labelledby="{g}-review-title"></dialog>',
                    g=self.host.game_id,
                ),
            )
            node = root.querySelector("[data-role=review]")
            node.addEventListener("close", self._closed)
        return node

    def open(self, record: Record, seats: Sequence[str], ident: str) -> None:
        """Review ``record`` (seated by ``seats``; ``ident``: its id in the records, "" when
        it is not kept): its review again if it ran, else its kept accuracy (a button
        reviews it whole), else the review starts."""
        if self.host.root is None or not rv.reviewable(self.host.info, seats):
            return
        shown = self.shown
        if shown is None or not shown.same(record) or shown.seats != tuple(seats):
            shown = self.shown = Reviewed(record, seats, ident)
        run = shown.run
        if run is not None and run.finished:
            self.draw_result(shown)
        elif ident and (kept := self.store.read().accuracy_of(self.host.game_id, ident)):
            self.draw_kept(kept)
        else:
            self.start()
        dialog = self.dialog()
        for other in self.host.root.querySelectorAll("dialog[open]"):
            if not other.isSameNode(dialog):
                other.close()
        if not dialog.open:
            dialog.showModal()
        self.focus()

    def focus(self) -> None:
        dialog = self.dialog()
        first = dialog.querySelector("[data-autofocus]") or dialog.querySelector("button")
        if found(first):
            first.focus()

    def head(self) -> Markup:
        return html(
            '<header class="dialog-head"><h2 id="{g}-review-title">{title}</h2>'
            '<button type="button" class="btn" data-action="review-close">{close}</button>'
            "</header>",
            g=self.host.game_id,
            title=_("Review of the game"),
            close=_("Close"),
        )

    # -- running ----------------------------------------------------------------------------
    def start(self) -> None:
        """Start the review of the game shown (in slices; the progress bar drawn)."""
        shown = self.shown
        if shown is None:
            return
        self.generation += 1
        try:
            run = rv.ReviewRun(self.host.game, shown.record, rv.reviewed_seats(shown.seats))
        except Exception as exc:  # a record the coach cannot read: said, nothing lost
            js.console.warn(f"review: {exc!r}")  # not shown
            self.failed()
            return
        shown.run = run
        self.dialog().innerHTML = self.head() + html(
            """
<p>{said}</p>
<div class="review-progress" data-role="review-progress" role="progressbar"
  aria-label="{label}" aria-valuemin="0" aria-valuemax="{total}" aria-valuenow="0">
  <span class="review-bar" data-role="review-bar"></span></div>
<p class="small" data-role="review-count">{count}</p>
<p class="dialog-actions">
  <button type="button" class="btn" data-action="review-cancel" data-autofocus>{cancel}</button>
</p>""",
            said=_(
                "The coach plays each of your decisions again with the strongest bot's eyes. "
                "You can leave at any time."
            ),
            label=_("Reviewing your decisions"),
            total=run.total,
            count=self.count_words(run),
            cancel=_("Cancel"),
        )
        asyncio.ensure_future(self._run(run, self.generation, self.host.root))

    def count_words(self, run: rv.ReviewRun) -> str:
        return ngettext(
            "{done} of {total} decision",
            "{done} of {total} decisions",
            run.total,
            done=i18n.number(run.done),
            total=i18n.number(run.total),
        )

    async def _run(self, run: rv.ReviewRun, generation: int, root: Any) -> None:
        """Slices of the review, the page's turn between two, until done or stopped (or
        the table is drawn anew: another page, another language)."""
        while generation == self.generation:
            await asyncio.sleep(0)
            if generation != self.generation or self.host.root is not root:
                break
            try:
                more = run.step(SLICE_MS)
            except Exception as exc:  # a record the coach cannot read: said, nothing lost
                js.console.warn(f"review: {exc!r}")  # not shown
                self.failed()
                return
            self.progress(run)
            if not more:
                self.finished()
                return
        run.cancel()

    def progress(self, run: rv.ReviewRun) -> None:
        dialog = self.dialog()
        bar = dialog.querySelector("[data-role=review-progress]")
        if not found(bar):
            return
        bar.setAttribute("aria-valuenow", str(run.done))
        dialog.querySelector("[data-role=review-bar]").style.width = f"{run.percent}%"
        dialog.querySelector("[data-role=review-count]").textContent = self.count_words(run)

    def finished(self) -> None:
        """The review is done: keep its accuracy with the record (a kept game), show it."""
        shown = self.shown
        if shown is None or shown.run is None:
            return
        s = rv.summary(shown.run.review)
        if shown.ident:
            try:
                self.store.keep_accuracy(self.host.game_id, shown.ident, s.kept())
            except Exception as exc:  # never lose the review over the records
                js.console.warn(f"records: {exc!r}")  # not shown
        self.draw_result(shown)
        self.focus()

    def failed(self) -> None:
        """The review could not go on: said in words, the game as it was."""
        shown = self.shown
        if shown is not None:
            shown.run = None
        self.dialog().innerHTML = self.head() + html(
            '<p class="notice" role="alert" data-role="review-failed">{}</p>',
            _("The coach could not review this game. Nothing was changed."),
        )

    def stop(self) -> None:
        """Stop a running review (nothing kept of it: it starts again when reopened)."""
        shown = self.shown
        if shown is not None and shown.run is not None and not shown.run.finished:
            shown.run.cancel()
            shown.run = None
        self.generation += 1

    def close(self) -> None:
        self.stop()
        if self.host.root is not None:
            dialog = self.host.root.querySelector("[data-role=review]")
            if found(dialog) and dialog.open:
                dialog.close()

    # -- the result -----------------------------------------------------------------------
    def draw_kept(self, kept: dict[str, Any]) -> None:
        """The accuracy kept with the record, and a button to review it whole."""
        summary = rv.Summary(
            int(kept["decisions"]), float(kept["mean_loss"]), float(kept["best_share"]), (), ""
        )
        self.dialog().innerHTML = self.head() + html(
            """
{accuracy}
<p class="small">{said}</p>
<p class="dialog-actions">
  <button type="button" class="btn primary" data-action="review-run" data-autofocus>{again}</button>
</p>""",
            accuracy=accuracy_html(summary, kept=True),
            said=_("Kept with this game in your records."),
            again=_("See every decision"),
        )

    def draw_result(self, shown: Reviewed) -> None:
        run = shown.run
        assert run is not None
        review = run.review
        summary = rv.summary(review)
        decisions = review.decisions
        rounds = rv.decision_rounds(self.host.game, shown.record, [d.event for d in decisions])
        counts = join(
            html(
                '<li data-grade="{g}"><span class="grade grade-{g}">{name}</span> <b>{n}</b></li>',
                g=grade,
                name=rv.GRADE_NAMES[grade],
                n=i18n.number(n),
            )
            for grade, n in summary.counts
        )
        costly = rv.costliest(decisions)
        items = join(
            html(
                '<li><button type="button" class="btn review-decision" data-action="review-open"'
                ' data-event="{event}">{words}</button></li>',
                event=d.event,
                words=decision_words(d, rounds.get(d.event)),
            )
            for d in costly
        )
        costliest = (
            html(
                '<h3>{title}</h3><ol class="review-costliest" data-role="review-costliest">'
                "{items}</ol>",
                title=_("Your costliest decisions"),
                items=items,
            )
            if costly
            else html('<p data-role="review-costliest">{}</p>', _("No decision lost a point."))
        )
        kept_said = (
            _("Kept with this game in your records.")
            if shown.ident
            else _("This game is not in your records: its accuracy is not kept.")
        )
        self.dialog().innerHTML = self.head() + html(
            """
{accuracy}
<ul class="review-grades" data-role="review-grades">{counts}</ul>
<figure class="review-chart"><figcaption>{caption}
  <span class="key"><i class="key-played" aria-hidden="true"></i>{played_word}</span>
  <span class="key"><i class="key-best" aria-hidden="true"></i>{best_word}</span>
</figcaption>{chart}</figure>
{costliest}
<p class="small">{kept}</p>
<p class="dialog-actions">
  <button type="button" class="btn" data-action="review-close" data-autofocus>{close}</button>
</p>""",
            accuracy=accuracy_html(summary),
            counts=counts,
            caption=rv.value_words(),
            played_word=_("your moves"),
            best_word=_("the best moves"),
            chart=chart_svg(decisions, rounds),
            costliest=costliest,
            kept=kept_said,
            close=_("Close"),
        )

    def open_decision(self, target: Any) -> None:
        """A costliest decision: the board at that moment, both moves drawn."""
        shown = self.shown
        event = target.getAttribute("data-event")
        if shown is None or shown.run is None or not found(event):
            return
        decision = next((d for d in shown.run.review.decisions if d.event == int(event)), None)
        if decision is None:
            return
        data = {**shown.record.to_dict(), "seats": list(shown.seats)}
        replay = make(self.host.game, self.host.info, -1, data)
        self.close()
        rounds = rv.decision_rounds(self.host.game, shown.record, [decision.event])
        lines = (
            decision_words(decision, rounds.get(decision.event)),
            _("The coach's better move is drawn on the board."),
        )
        self.opener.show_decision(replay, shown.ident, decision, lines)

    def actions(self) -> dict[str, Callable[[Any], None]]:
        """The review's actions (``data-action``)."""
        return {
            "review-close": lambda _t: self.close(),
            "review-cancel": lambda _t: self.close(),
            "review-run": lambda _t: self.start(),
            "review-open": self.open_decision,
        }


def accuracy_html(s: rv.Summary, kept: bool = False) -> Markup:
    """The accuracy: mean loss and share of best moves, in words and as data."""
    return html(
        '<p class="review-accuracy" data-role="review-accuracy" data-mean-loss="{loss}" '
        'data-best-share="{share}" data-decisions="{n}"{kept}>{words}</p>',
        loss=round(s.mean_loss, 4),
        share=round(s.best_share, 4),
        n=s.decisions,
        kept=Markup(" data-kept" if kept else ""),
        words=rv.summary_words(s),
    )


def decision_words(d: Decision, round_: int | None) -> str:
    """A costly decision in one line: when, the points the move played lost, its grade."""
    lost = ngettext(
        "lost {points} point",
        "lost {points} points",
        max(1, round(d.loss)),
        points=rv.points(d.loss),
    )
    # The moves themselves are drawn on the board when the decision is opened (their
    # notation is no one's language).
    said = _("Your move {lost} ({grade}).", lost=lost, grade=rv.GRADE_NAMES[d.grade].lower())
    if round_ is None:
        return said
    return _("Round {n}: {said}", n=round_, said=said)


def chart_svg(decisions: Sequence[Decision], rounds: dict[int, int | None]) -> Markup:
    """The coach's value after each decision (the move played's, and the best move's
    dashed), the rounds marked along the bottom, as an inline SVG with its words."""
    box = stats.Box(height=170, bottom=26)
    chart = rv.value_chart(decisions, rounds, box)
    x0, y0, w, h = box.inner
    grid = grid_svg(box, chart.y_ticks)
    marks = join(
        html(
            '<line class="round" x1="{x}" x2="{x}" y1="{y0}" y2="{y1}"/>'
            '<text class="tick" x="{x}" y="{ty}" text-anchor="middle">{n}</text>',
            x=x,
            y0=y0,
            y1=y0 + h,
            ty=box.height - 12,
            n=i18n.number(n),
        )
        for n, x in chart.rounds
    )
    dots = join(
        html('<circle class="dot grade-{}" cx="{}" cy="{}" r="2.5"/>', g, x, y)
        for x, y, g in chart.dots
    )
    values = ", ".join(rv.points(d.value) for d in decisions[-30:])
    alt = _(
        "{what}: {values}. Rounds are marked along the bottom.",
        what=rv.value_words(),
        values=values,
    )
    body = html(
        '<polyline class="best" points="{best}" fill="none" stroke-width="1.5"/>'
        '<polyline class="scores" points="{played}" fill="none" stroke-width="2"/>'
        '{dots}<text class="tick" x="{x0}" y="{by}">{rounds_word}</text>',
        best=chart.best,
        played=chart.played,
        dots=dots,
        x0=x0,
        by=box.height - 1,
        rounds_word=_("Rounds"),
    )
    return svg_html("review-values", box, alt, grid + marks + body)
