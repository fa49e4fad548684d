"""A move drawn on the table without being played: the hint's, the one played, the better one.

Shared by every game's table (docs/coach.md, "Move marks").  A mark is one move of one
*kind*:

- ``hint``: the move the coach's bot (``hard``) would make now (web/coach_hint.py);
- ``played``: the move a person played (the review's past board);
- ``best``: the coach's better move there.

Each kind has its own look, never colour alone: an outline style (``hint`` dashed,
``played`` dotted, ``best`` double) with a halo of the board's surface colour under
it, and a small label with an icon on the last place the move touches, where it goes
(a box, a cell, a row): "◎ Hint", "● Played", "✔ Better".  The colours reach 3:1 or
more against the surface in light and dark mode (web/marks.css).  A move may touch
several places (a die and its boxes, a die and its slot, a row and the card placed on
it): each is marked.  A move that touches nothing visible (a pass, taking no die) has
its text line only (:func:`line_html`).

How to call it (the board is drawn first, a mark goes on what is drawn):

    played = Mark("played", move, page.move_targets(move, seat), text)
    draw(page.board(), [played, Mark("best", best, page.move_targets(best, seat))])

``page.move_targets(move, seat)`` is the game page's hook (:class:`~.game_page.GamePage`):
CSS selectors, inside the board, of what ``move`` touches in the position the table
shows now, read as ``seat`` (each selector marks its first match).  A redraw of the
board (web/keyed.py) takes the marks off what it changes: draw them again after each
redraw (the table's hint does, in ``GameTable.render``), or :func:`clear` them.  Each
marked element carries ``data-mark-<kind>="<move>"`` (its move's notation: tests and
tools read it there), the class ``move-mark`` and ``mark-<kind>``; one of them also
carries ``data-mark-label`` (the last place of the move: where it goes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from optimus.i18n import NP_, pgettext

from .markup import Markup, html, join
from .router import found

KINDS = ("hint", "played", "best")
"""The kinds of marks, each with its own look."""

ICONS = {"hint": "◎", "played": "●", "best": "✔"}
"""Each kind's icon (beside its word: never colour alone)."""

LABELS = {
    "hint": NP_("move mark", "Hint"),
    "played": NP_("move mark", "Played"),
    "best": NP_("move mark", "Better"),
}
"""Each kind's word on the board and in its line (shown through ``pgettext``)."""

MARKED = ".move-mark"
"""What every marked element matches (:func:`clear`)."""


@dataclass(frozen=True)
class Mark:
    """One move to draw: its ``kind`` (one of :data:`KINDS`), its notation, the CSS
    selectors of what it touches inside the board (the game page's ``move_targets``;
    empty: its line only), and its line's ``text`` (what it is, and why)."""

    kind: str
    move: str
    targets: Sequence[str] = ()
    text: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown mark kind {self.kind!r}")  # not shown


def label(kind: str) -> str:
    """A kind's label, icon first ("◎ Hint"), in the language spoken."""
    return f"{ICONS[kind]} {pgettext('move mark', LABELS[kind])}"


def clear(board: Any, kinds: Sequence[str] = KINDS) -> None:
    """Take the marks of ``kinds`` (by default every kind) off ``board`` (nothing
    marked: nothing happens)."""
    if not found(board):
        return
    for element in board.querySelectorAll(MARKED):
        label = element.getAttribute("data-mark-label") or ""
        for kind in kinds:
            element.classList.remove(f"mark-{kind}")
            element.removeAttribute(f"data-mark-{kind}")
            if label.endswith(pgettext("move mark", LABELS[kind])):
                element.removeAttribute("data-mark-label")
        if not any(element.hasAttribute(f"data-mark-{kind}") for kind in KINDS):
            element.classList.remove("move-mark")
            element.removeAttribute("data-mark-label")


def draw(board: Any, marks: Sequence[Mark], kinds: Sequence[str] = KINDS) -> int:
    """Draw ``marks`` on ``board``; the marks of ``kinds`` there before (by default every
    kind) are taken off first.  How many elements were marked (0: only their lines can
    say them)."""
    clear(board, kinds)
    if not found(board):
        return 0
    count = 0
    for mark in marks:
        last = None
        for selector in mark.targets:
            element = board.querySelector(selector)
            if not found(element):
                continue
            element.classList.add("move-mark", f"mark-{mark.kind}")
            element.setAttribute(f"data-mark-{mark.kind}", mark.move)
            last = element
            count += 1
        if last is not None and not last.hasAttribute("data-mark-label"):
            last.setAttribute("data-mark-label", label(mark.kind))
    return count


def line_html(marks: Sequence[Mark]) -> Markup:
    """The marks' lines: each one's label and text, for a place the caller reserved
    (the table's hint says its line in the status line instead)."""
    return join(
        html(
            '<p class="mark-line mark-{kind}" data-mark-line="{kind}">'
            '<b class="mark-tag">{label}</b> {text}</p>',
            kind=m.kind,
            label=label(m.kind),
            text=m.text,
        )
        for m in marks
    )
