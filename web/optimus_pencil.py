"""Optimus's marking in progress: the steps a person takes before a marking is a move.

A marking is built on the page first (a colour die, a number die, a joker's value,
boxes pencilled by clicks or by dragging over them), every step undoable by the
table's one Undo (:meth:`PencilInput.step_back`); only
"Confirm" and "Pass" are moves (``data-move``).  :class:`PencilInput` keeps those
steps for one table (its :class:`Host`); what lights up and whether a marking is
complete come from the legal moves via :mod:`optimus.optimus.view`
(``vm.Pencil``).  :func:`joker_names_html` and :func:`markbar_html` draw the
joker's names and the bar under the sheet.
"""

from __future__ import annotations

from typing import Any, Protocol

import js
from pyodide.ffi import create_proxy

from optimus.i18n import _, pgettext
from optimus.optimus import view as vm
from optimus.optimus.sheet import COLOURS, box_index
from optimus.optimus.words import colour_name, die_name

from .hosts import SessionFacts
from .markup import Markup, html, join, tr
from .router import found


class Host(SessionFacts, Protocol):
    """What the marking in progress needs of the table."""

    you: int | None
    error: str

    def render(self, moved: bool = False) -> None: ...


class PencilInput:
    """The person's marking in progress at one table (``host``)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.pencil = vm.Pencil()
        self.focus: str | None = None
        """The control just used (focused again once the table is drawn)."""
        self.focus_now: str | None = None
        self._drag: list[str] = []
        """Boxes a pointer pressed on a box has passed over, in order (empty: no drag)."""
        self._swallow_click = False
        self._pointer = {
            "pointerdown": create_proxy(self._drag_start),
            "pointerover": create_proxy(self._drag_over),
            "click": create_proxy(self._drag_click),
        }
        self._pointer_end = create_proxy(self._drag_end)

    def for_view(self, mine: bool, obs: dict[str, Any]) -> vm.Pencil:
        """The pencil for the table drawn now: kept on the person's turn (unless the
        roll or phase changed), else none; the control just used is focused once."""
        self.focus_now, self.focus = self.focus, None
        if mine:
            self.pencil = vm.fresh(self.pencil, (int(obs["roll"]), str(obs["phase"])))
        else:
            self.pencil = vm.Pencil()
        return self.pencil

    def reset(self) -> None:
        self.pencil = vm.Pencil()  # the boxes pencilled for a decision taken back

    def in_progress(self) -> bool:
        """Whether a step of the marking is taken (a die, a joker's name, a box)."""
        p = self.pencil
        started = p.colour or p.number or p.boxes or p.named_colour or p.named_number
        return bool(started) and self._deciding()

    def step_back(self) -> bool:
        """Undo's first reach: the marking's last step taken back (the last box, else a
        joker's name, else a die); False when none is taken."""
        if not self.in_progress():
            return False
        self.pencil = vm.undo(self.pencil)
        self.host.error = ""
        self.host.render()
        return True

    def _deciding(self) -> bool:
        session = self.host.session
        you = self.host.you
        return session is not None and you is not None and session.human_to_act() == you

    # -- marking by dragging over the boxes ------------------------------------------
    # A press on a box and a move over others pencils each box passed (never rubs one
    # out); a press and release on one box is a click, which toggles it as before.  A
    # finger drags from a lit or pencilled box only: from another one it scrolls.
    def mount(self, section: Any) -> None:
        for kind, proxy in self._pointer.items():
            section.addEventListener(kind, proxy, kind == "click")  # click: capture
        for kind in ("pointerup", "pointercancel"):
            js.window.addEventListener(kind, self._pointer_end)

    def unmount(self, section: Any) -> None:
        if section is not None:
            for kind, proxy in self._pointer.items():
                section.removeEventListener(kind, proxy, kind == "click")
        for kind in ("pointerup", "pointercancel"):
            js.window.removeEventListener(kind, self._pointer_end)
        self._drag = []

    def _box_under(self, event: Any) -> str | None:
        origin = event.target
        if not found(origin) or not hasattr(origin, "closest"):
            return None
        cell = origin.closest(".ogrid.big button.cell[data-action=box]")  # not shown
        return str(cell.getAttribute("data-box")) if found(cell) else None

    def _drag_start(self, event: Any) -> None:
        self._swallow_click = False
        box = self._box_under(event)
        if box is None or int(event.button) != 0:
            return
        target = event.target
        if str(event.pointerType) != "mouse":
            if not found(target.closest(".cell.target, .cell.pencil")):
                return  # a finger on a box not lit scrolls the sheet (web/optimus.css)
            if target.hasPointerCapture(event.pointerId):
                target.releasePointerCapture(event.pointerId)  # let other boxes see it
        self._drag = [box]

    def _drag_over(self, event: Any) -> None:
        box = self._box_under(event) if self._drag else None
        if box is None or box in self._drag:
            return
        self._drag.append(box)
        if not self._deciding():
            return
        pencil = self.pencil
        for name in self._drag if len(self._drag) == 2 else [box]:
            if box_index(name) not in pencil.boxes:
                pencil = vm.toggle_box(pencil, box_index(name))
        self.pencil = pencil
        self.focus = f'button.cell[data-box="{box}"]'
        self.host.error = ""
        self.host.render()

    def _drag_end(self, _event: Any) -> None:
        self._swallow_click = len(self._drag) > 1
        self._drag = []

    def _drag_click(self, event: Any) -> None:
        """The click that ends a drag (pointer clicks only) must not toggle a box again."""
        if self._swallow_click and int(event.detail) > 0:
            event.stopPropagation()
            event.preventDefault()
        self._swallow_click = False

    # -- the board's own actions ----------------------------------------------------
    def action(self, action: str, target: Any) -> bool:
        """A die, a joker's name or a box clicked (the table's ``board_action``): the
        marking's next step, drawn at once (the bar's Undo takes one back:
        :meth:`step_back`)."""
        if action not in ("die", "name", "box"):
            return False
        if not self._deciding():
            return True  # not the person's decision: nothing reacts
        pencil = self.pencil
        if action == "die":
            kind, face = (
                str(target.getAttribute("data-kind")),
                str(target.getAttribute("data-face")),
            )
            pencil = vm.choose_die(pencil, kind, face)
            self.focus = f'button.die[data-kind="{kind}"][data-face="{face}"]'
        elif action == "name":
            kind, value = (
                str(target.getAttribute("data-kind")),
                str(target.getAttribute("data-value")),
            )
            pencil = vm.name_joker(pencil, kind, value)
        else:
            box = str(target.getAttribute("data-box"))
            pencil = vm.toggle_box(pencil, box_index(box))
            self.focus = f'button.cell[data-box="{box}"]'
        self.pencil = pencil
        self.host.error = ""
        self.host.render()
        return True


def joker_names_html(v: vm.Table) -> Markup:
    """The buttons naming a joker die's colour or number (those a legal marking allows)."""
    pencil = v.pencil
    legal = v.legal
    faces = vm.sheet_faces(v.obs)
    parts = []
    if pencil.colour == "x":
        base = vm.Pencil(colour="x", number=pencil.number)
        options = {faces[min(b)] for _, b in vm.candidates(legal, base, faces)}
        buttons = join(
            html(
                '<button type="button" class="name c-{f}" data-action="name" data-kind="colour" '
                'data-value="{f}" aria-pressed="{pressed}">'
                '<i aria-hidden="true">{symbol}</i>{name}</button>',
                f=f,
                pressed=str(pencil.named_colour == f).lower(),
                symbol=vm.SYMBOLS[f],
                name=colour_name(f),
            )
            for f in COLOURS
            if f in options
        )
        said = tr("Colour joker is {colours}", colours=buttons)
        parts.append(html('<span class="name-group">{}</span>', said))
    if pencil.number == "?":
        base = vm.Pencil(colour=pencil.colour, number="?", named_colour=pencil.named_colour)
        counts = {len(b) for _, b in vm.candidates(legal, base, faces)}
        buttons = join(
            html(
                '<button type="button" class="name" data-action="name" data-kind="number" '
                'data-value="{n}" aria-pressed="{pressed}">{n}</button>',
                n=n,
                pressed=str(pencil.named_number == n).lower(),
            )
            for n in range(1, 6)
            if n in counts
        )
        said = tr("Number joker is {numbers}", numbers=buttons)
        parts.append(html('<span class="name-group">{}</span>', said))
    return join(parts)


def markbar_html(v: vm.Table, pencil: vm.Pencil) -> Markup:
    """The bar under the sheet: what the marking lacks, "Confirm", "Pass" (its steps are
    taken back by the game bar's Undo, the table's one Undo)."""
    fb = v.feedback
    if not v.mine or fb is None:
        text = v.status.text if v.obs["phase"] != "over" else _("The game is over.")
        return html('<div class="markbar"><p class="feedback" data-state="wait">{}</p></div>', text)
    move = fb.confirm  # only a complete legal marking can be confirmed
    stuck = fb.state == "none"  # no die fits: Pass is the move, and looks it
    confirm_word = _("Confirm")
    confirm = (
        html(
            '<button type="button" class="btn primary confirm" data-move="{}">{}</button>',
            move,
            confirm_word,
        )
        if move
        else html(
            '<button type="button" class="btn{} confirm" disabled>{}</button>',
            "" if stuck else " primary",
            confirm_word,
        )
    )
    return html(
        '<div class="markbar"><p class="feedback" data-state="{state}" '
        'data-role="feedback">{text}</p>'
        '<span class="markbtns">{confirm}'
        '<button type="button" class="btn{primary}" data-move="pass">{pass_word}</button>'
        "</span></div>",
        primary=" primary" if stuck else "",
        state=fb.state,
        text=fb.text,
        confirm=confirm,
        pass_word=pgettext("move", "Pass"),
    )


def die_html(d: vm.Die, clickable: bool) -> Markup:
    cls = ["die", f"d-{d.kind}"]
    if d.kind == "colour":
        cls.append(f"c-{d.face}")
    if d.joker:
        cls.append("joker")
    if d.taken_by:
        cls.append("taken")
    if d.picked:
        cls.append("picked")
    face = html('<i aria-hidden="true">{}</i>', d.symbol)
    name = die_name(d.kind, d.face)
    if d.taken_by:
        name = _("{die}, taken by {who}", die=name, who=d.taken_by)
    if clickable and (d.usable or d.picked):
        cls.append("usable")
        return html(
            '<button type="button" class="{cls}" data-action="die" '
            'data-kind="{kind}" data-face="{face_id}" '
            'aria-pressed="{pressed}" aria-label="{name}">{face}</button>',
            cls=" ".join(cls),
            kind=d.kind,
            face_id=d.face,
            pressed=str(d.picked).lower(),
            name=name,
            face=face,
        )
    if clickable and not d.taken_by:  # the person's decision, and no marking uses it
        cls.append("unusable")
        name = _("{die}, cannot be used now", die=name)
    return html(  # data-kind and data-face: where a move's marks find it (web/move_marks.py)
        '<span class="{cls}" role="img" aria-label="{name}" data-kind="{kind}" '
        'data-face="{face_id}">{face}</span>',
        cls=" ".join(cls),
        name=name,
        kind=d.kind,
        face_id=d.face,
        face=face,
    )
