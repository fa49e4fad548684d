"""The replay bar: a finished game of the records watched again, step by step.

``#/<game>/replay/<n>`` shows the records' n-th kept game from its end.  The
replay itself (its steps, rounds and the session at a step) is made by the pure
:mod:`optimus.ui.replay`; this module draws the bar and asks the table to draw
each step, read-only (nobody acts in a replay).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import js

from optimus import i18n
from optimus.core.jsontext import whole_number
from optimus.core.protocol import Game, GameError, RecordError
from optimus.core.review import Decision
from optimus.i18n import N_, _
from optimus.ui import deals
from optimus.ui import replay as replays
from optimus.ui.review_view import reviewable
from optimus.ui.session import TableSession

from . import move_marks
from .deal_links import show_link_notices
from .hosts import TableFacts
from .markup import Markup, html, join
from .router import found
from .storage import RecordsStore


class ReplayHost(TableFacts, Protocol):
    """What the replay bar needs of its table."""

    game: Game

    def show_setup(self, elsewhere: bool = False) -> None: ...

    def stop_play(self) -> None:
        """Stop the game in play (its bots, its dialogs, this tab's claim) and show the
        play screen."""

    def show_position(self, session: TableSession, seats: Sequence[str]) -> None:
        """Draw ``session`` (nobody acts in it) as seated by ``seats``."""

    def board(self) -> Any: ...

    def move_targets(self, move: str, seat: int) -> list[str]: ...

    def move_words(self, move: str, seat: int) -> str: ...


class ReplayBar:
    """One table's replays: which is shown (``shown``) and the bar that steps it."""

    def __init__(self, host: ReplayHost, store: RecordsStore, retitle: Callable[[], None]):
        self.host = host
        self.store = store
        self.retitle = retitle
        """Says the game bar's title again (a replay says so under it)."""
        self.shown: replays.Replay | None = None
        self.ident = ""
        """The id in the records of the game shown ("" when it is not kept)."""

    def open(self, number: str) -> None:
        """``#/<game>/replay/<n>``: the records' n-th kept game, from its end."""
        h = self.host
        kept = self.store.read().replays
        n = whole_number(number)
        entry = kept[n] if n is not None and n < len(kept) else None
        shown: replays.Replay | None = None
        if n is not None and entry is not None and entry.get("game") == h.game_id:
            try:
                shown = replays.make(h.game, h.info, n, entry["record"])
            except (RecordError, GameError, ValueError, TypeError, KeyError) as exc:
                js.console.warn(f"replay {number}: {exc!r}")  # not shown
        if shown is None:
            self.shown = None
            self.ident = ""
            h.show_setup()
            said = _(
                "There is no finished game {n} of {game} in your records to watch.",
                n=deals._shown(number),
                game=h.title,
            )
            show_link_notices(h.root, [said])
            return
        self.ident = str(entry.get("id", "")) if entry is not None else ""
        self.show(shown)

    def show_decision(
        self, shown: replays.Replay, ident: str, decision: Decision, lines: tuple[str, str]
    ) -> None:
        """The board just before ``decision`` (a review's), the move played and the
        coach's better move drawn on it (web/move_marks.py), with their lines (the better
        move's in the game's words where its page has them: ``move_words``)."""
        self.ident = ident
        self.show(shown.at(decision.event))
        h = self.host
        seat = decision.seat
        better = h.move_words(decision.best, seat) or lines[1]  # the game's words, if any
        marks = [
            move_marks.Mark("played", decision.move, h.move_targets(decision.move, seat), lines[0]),
            move_marks.Mark("best", decision.best, h.move_targets(decision.best, seat), better),
        ]
        move_marks.draw(h.board(), marks)
        said = h.root.querySelector("[data-role=replay-marks]")
        if found(said):
            said.innerHTML = move_marks.line_html(marks)
        h.root.setAttribute("data-review-event", str(decision.event))

    def show(self, shown: replays.Replay) -> None:
        """Show ``shown`` at its step, with the bar above the table."""
        h = self.host
        h.stop_play()
        show_link_notices(h.root, [])
        self.shown = shown
        bar = h.root.querySelector("[data-role=replay-bar]")
        if found(bar):
            bar.remove()
        review = reviewable(h.info, shown.seats)
        h.root.querySelector("[data-role=screen]").insertAdjacentHTML(
            "beforebegin", bar_html(shown, review)
        )
        self.retitle()
        self.step_to(shown.step)

    def read_only(self) -> bool:
        """Whether the board is drawn without its moves: in a replay nothing can be played."""
        return self.shown is not None

    def actions(self) -> dict[str, Callable[[Any], None]]:
        """The replay bar's actions (``data-action``)."""
        return {
            "replay-start": lambda _t: self.step_to(0),
            "replay-back": lambda _t: self.step_by(-1),
            "replay-forward": lambda _t: self.step_by(1),
            "replay-end": lambda _t: self.step_to(None),
        }

    def changed(self, target: Any) -> bool:
        """A change on the replay bar (the round to jump to); True if it was one."""
        if self.shown is None or str(target.getAttribute("data-role")) != "replay-round":
            return False
        step = whole_number(str(target.value))
        if step is not None:
            self.step_to(step)
        return True

    def step_by(self, delta: int) -> None:
        if self.shown is not None:
            self.draw(self.shown.by(delta))

    def step_to(self, step: int | None) -> None:
        """Show the state after ``step`` events (None: the end)."""
        if self.shown is not None:
            self.draw(self.shown.at(step))

    def draw(self, shown: replays.Replay) -> None:
        h = self.host
        if h.root is None:
            return
        self.shown = shown
        self.unmark()
        h.show_position(replays.session_at(h.game, shown), shown.seats)
        said = h.root.querySelector("[data-role=replay-step]")
        if found(said):
            k, n = shown.position
            said.textContent = _("Step {k} of {n}", k=i18n.number(k), n=i18n.number(n))
        h.root.setAttribute("data-replay-step", str(shown.step))

    def unmark(self) -> None:
        """A review's decision no longer shown: its marks and lines taken off."""
        h = self.host
        if h.root is None or not h.root.hasAttribute("data-review-event"):
            return
        h.root.removeAttribute("data-review-event")
        move_marks.clear(h.board())
        said = h.root.querySelector("[data-role=replay-marks]")
        if found(said):
            said.innerHTML = ""

    def left(self) -> None:
        """The table shows something else (set-up, a game): no replay bar."""
        self.unmark()
        self.shown = None
        self.ident = ""
        root = self.host.root
        if root is not None:
            bar = root.querySelector("[data-role=replay-bar]")
            if found(bar):
                bar.remove()
            root.removeAttribute("data-replay-step")


BUTTONS = (
    ("replay-start", N_("Start")),
    ("replay-back", N_("Step back")),
    ("replay-forward", N_("Step forward")),
    ("replay-end", N_("End")),
)
"""The bar's step buttons in order: their ``data-action`` (:meth:`ReplayBar.actions`)
and words."""


def bar_html(shown: replays.Replay, review: bool = False) -> Markup:
    """The replay bar: to the start, a step back or on, to the end, jump to a round, and
    (``review``: the game can be reviewed) "Review the game"; under it, the lines of a
    reviewed decision's marks."""
    rounds = join(
        html('<option value="{}">{}</option>', k, _("Round {n}", n=n)) for n, k in shown.rounds
    )
    return html(
        """
<nav class="replay-bar" data-role="replay-bar" aria-label="{replay}">
  {buttons}
  <label class="field replay-round">{jump}
    <select data-role="replay-round"><option value="">…</option>{rounds}</select></label>
  <span class="small" data-role="replay-step"></span>{review}
  <a class="btn" href="#/records">{records}</a>
  <div class="replay-marks" data-role="replay-marks"></div>
</nav>""",
        review=html(
            ' <button type="button" class="btn" data-action="review">{}</button>',
            _("Review the game"),
        )
        if review
        else Markup(),
        replay=_("Replay"),
        buttons=join(
            (
                html('<button type="button" class="btn" data-action="{}">{}</button>', a, _(w))
                for a, w in BUTTONS
            ),
            "\n  ",
        ),
        jump=_("Jump to"),
        rounds=rounds,
        records=_("Your records"),
    )
