"""The Optimus table: set-up (seats, sheet, colour bonuses), the dice, the sheets, the end screen.

The frame (game bar tools, status line, player panels, log, bot loop, dialogs,
saves, focus) is :class:`optimus_web.table.GameTable`.  A marking is built on
the page first (a colour die, a number die, a joker's value, boxes), every step
undoable; only "Confirm" and "Pass" are moves (``data-move``).  What lights up
and whether a marking is complete come from the legal moves via
:mod:`optimus.optimus.view`; a refused marking shows the engine's reason.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import js
from pyodide.ffi import create_proxy

from optimus.core import jsontext
from optimus.core.record import CHANCE
from optimus.i18n import N_, _, ngettext, pgettext
from optimus.optimus import view as vm
from optimus.optimus.sheet import COLOURS, bits, box_index, box_name
from optimus.optimus.words import colour_name, die_name
from optimus.ui import table as ui
from optimus.ui.session import TableSession

from .router import found
from .table import GameTable, esc

RECENT = 5  # random sheets kept to be played again
SHEETS_KEY = "optimus-table.optimus.sheets"


def _keyframes(value: Any) -> Any:
    """A JS object from plain data (keyframes, timing)."""
    return js.JSON.parse(json.dumps(value))


def cell_words(c: vm.Cell) -> list[str]:
    """What a box is, in words, for its accessible name: its name, colour and state."""
    words = [c.box, c.colour]
    if c.star:
        words.append(pgettext("box", "star"))
    if c.marked:
        words.append(pgettext("box", "marked"))
    if c.pencil:
        words.append(pgettext("box", "pencilled"))
    if c.target:
        words.append(pgettext("box", "can be marked"))
    return words


def cell_html(c: vm.Cell, mode: str) -> str:
    """One box. ``big``: a button on the person's turn; ``view``: drawn; ``mini``: a dot."""
    cls = ["cell", f"c-{c.face}"]
    for flag in ("marked", "last", "pencil", "target", "star", "start"):
        if getattr(c, flag):
            cls.append(flag)
    box = c.box
    if mode == "mini":
        return f'<span class="{" ".join(cls)}" data-box="{box}"></span>'
    star = '<i class="star" aria-hidden="true">★</i>' if c.star else ""
    sym = f'<i class="sym" aria-hidden="true">{c.symbol}</i>'
    label = esc(", ".join(cell_words(c)))
    inner = f"{sym}{star}"
    if mode == "big" and c.free:
        return (
            f'<button type="button" class="{" ".join(cls)} free" data-action="box" '
            f'data-box="{box}" data-key="{box}" aria-label="{label}" '
            f'aria-pressed="{str(c.pencil).lower()}">'
            f"{inner}</button>"
        )
    classes = " ".join(cls)
    return (
        f'<span class="{classes}" role="img" aria-label="{label}" data-box="{box}" '
        f'data-key="{box}">{inner}</span>'
    )


def sheet_html(s: vm.Sheet, mode: str) -> str:
    """A whole sheet: column heads (letter, first and later points), rows, and for
    ``big``/``view`` the "!" boxes, colour bonuses and the score so far."""
    cells = s.cells
    if mode == "mini":
        body = "".join(cell_html(c, "mini") for c in cells)
        return f'<div class="ogrid mini" aria-hidden="true">{body}</div>'
    heads = ['<span class="corner" aria-hidden="true"></span>']
    for col in s.columns:
        first = f"<s>{col.first}</s>" if col.first_taken else str(col.first)
        done = " done" if col.done else ""
        title = column_title(col)
        heads.append(
            f'<span class="colhead{done}" role="img" title="{esc(title)}" '
            f'aria-label="{esc(title)}">'
            f'<b>{col.letter}</b><span class="pf">{first}</span>'
            f'<span class="pl">{col.later}</span></span>'
        )
    rows = []
    for r in range(s.rows):
        rows.append(f'<span class="rowhead" aria-hidden="true">{r + 1}</span>')
        rows.extend(cell_html(c, mode) for c in cells[r * 15 : r * 15 + 15])
    grid = f'<div class="ogrid {mode}">{"".join(heads)}{"".join(rows)}</div>'
    return grid + foot_html(s)


def column_title(col: vm.Column) -> str:
    """A column's points in words: first and later values, whether first is taken, done."""
    values = {"letter": col.letter, "first": col.first, "later": col.later, "points": col.points}
    if col.first_taken and col.done:
        return _(
            "Column {letter}: {first} first, {later} later (first taken); completed for {points}",
            **values,
        )
    if col.first_taken:
        return _("Column {letter}: {first} first, {later} later (first taken)", **values)
    if col.done:
        return _("Column {letter}: {first} first, {later} later; completed for {points}", **values)
    return _("Column {letter}: {first} first, {later} later", **values)


def foot_html(s: vm.Sheet) -> str:
    """The "!" boxes, the colour bonuses and the running score."""
    jokers = "".join(f'<span class="bang{" used" if used else ""}">!</span>' for used in s.jokers)
    first, later = s.bonus_values
    colours = []
    for c in s.colours:
        f = f"<s>{first}</s>" if c.first_taken else str(first)
        state = " done" if c.done else ""
        value = f"{f}/{later}" if s.bonuses else esc(pgettext("colour bonus", "off"))
        title = _("{colour}: {marked} of 21 marked", colour=c.name, marked=c.marked)
        colours.append(
            f'<span class="bonus c-{c.face}{state}" title="{esc(title)}">'
            f'<i aria-hidden="true">{c.symbol}</i>{c.marked}<span class="of21">/21</span>'
            f" · {value}</span>"
        )
    sc = s.score
    breakdown = _(
        "Columns {columns} · Colours {colours} · “!” {jokers} · Stars {stars} = {total}",
        columns=sc["columns"],
        colours=sc["colours"],
        jokers=sc["jokers"],
        stars=sc["stars"],
        total=f"<b>{esc(ui.points(sc['total']))}</b>",
    )
    left = ngettext("{n} of 8 “!” left", "{n} of 8 “!” left", s.jokers_left)
    return (
        f'<div class="ofoot"><span class="bangs" role="img" aria-label="{esc(left)}">'
        f"{jokers}</span>"
        f'<span class="bonuses" role="group" aria-label="{esc(_("Colour bonuses"))}">'
        f"{''.join(colours)}</span>"
        f'<span class="breakdown" data-role="breakdown">{breakdown}</span></div>'
    )


def die_html(d: vm.Die, clickable: bool) -> str:
    cls = ["die", f"d-{d.kind}"]
    if d.kind == "colour":
        cls.append(f"c-{d.face}")
    if d.joker:
        cls.append("joker")
    if d.taken_by:
        cls.append("taken")
    if d.picked:
        cls.append("picked")
    face = f'<i aria-hidden="true">{esc(d.symbol)}</i>'
    name = die_name(d.kind, d.face)
    if d.taken_by:
        name = _("{die}, taken by {who}", die=name, who=d.taken_by)
    if clickable and (d.usable or d.picked):
        cls.append("usable")
        return (
            f'<button type="button" class="{" ".join(cls)}" data-action="die" '
            f'data-kind="{d.kind}" data-face="{esc(d.face)}" '
            f'aria-pressed="{str(d.picked).lower()}" aria-label="{esc(name)}">{face}</button>'
        )
    return f'<span class="{" ".join(cls)}" role="img" aria-label="{esc(name)}">{face}</span>'


class OptimusView(GameTable):
    """Router view for ``#/optimus``."""

    game_id = "optimus"
    lead = N_(
        "Roll colour and number dice, mark boxes on your sheet, complete columns and colours first."
    )
    rules = vm.RULES
    end_screen = staticmethod(vm.end_screen)

    def __init__(self) -> None:
        super().__init__()
        self.pencil = vm.Pencil()
        self._focus: str | None = None
        self._focus_now: str | None = None
        self.recent = self._read_recent()
        self._refresh_sheet_choices()
        self._drag: list[str] = []
        """Boxes a pointer pressed on a box has passed over, in order (empty: no drag)."""
        self._swallow_click = False
        self._pointer = {
            "pointerdown": create_proxy(self._drag_start),
            "pointerover": create_proxy(self._drag_over),
            "click": create_proxy(self._drag_click),
        }
        self._pointer_end = create_proxy(self._drag_end)

    # -- marking by dragging over the boxes ------------------------------------------
    # A press on a box and a move over others pencils each box passed (never rubs one
    # out); a press and release on one box is a click, which toggles it as before.
    def mount(self, container: Any) -> None:
        super().mount(container)
        for kind, proxy in self._pointer.items():
            self.section.addEventListener(kind, proxy, kind == "click")  # click: capture
        for kind in ("pointerup", "pointercancel"):
            js.window.addEventListener(kind, self._pointer_end)

    def unmount(self) -> None:
        if self.section is not None:
            for kind, proxy in self._pointer.items():
                self.section.removeEventListener(kind, proxy, kind == "click")
        for kind in ("pointerup", "pointercancel"):
            js.window.removeEventListener(kind, self._pointer_end)
        self._drag = []
        super().unmount()

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
        self._drag = [box]
        target = event.target
        if str(event.pointerType) != "mouse" and target.hasPointerCapture(event.pointerId):
            target.releasePointerCapture(event.pointerId)  # touch: let other boxes see it

    def _drag_over(self, event: Any) -> None:
        box = self._box_under(event) if self._drag else None
        if box is None or box in self._drag:
            return
        self._drag.append(box)
        session = self.session
        if session is None or self.you is None or session.human_to_act() != self.you:
            return
        pencil = self.pencil
        for name in self._drag if len(self._drag) == 2 else [box]:
            if box_index(name) not in pencil.boxes:
                pencil = vm.toggle_box(pencil, box_index(name))
        self.pencil = pencil
        self._focus = f'button.cell[data-box="{box}"]'
        self.error = ""
        self.render()

    def _drag_end(self, _event: Any) -> None:
        self._swallow_click = len(self._drag) > 1
        self._drag = []

    def _drag_click(self, event: Any) -> None:
        """The click that ends a drag (pointer clicks only) must not toggle a box again."""
        if self._swallow_click and int(event.detail) > 0:
            event.stopPropagation()
            event.preventDefault()
        self._swallow_click = False

    # -- random sheets that can be played again ------------------------------------
    def _read_recent(self) -> list[int]:
        try:
            data = jsontext.loads(self.storage.get(SHEETS_KEY) or "[]", ui.MAX_SETTINGS)
        except ValueError:
            data = []
        if not isinstance(data, list):
            return []
        return [x for x in data if isinstance(x, int) and not isinstance(x, bool)][:RECENT]

    def _refresh_sheet_choices(self) -> None:
        recent = [f"random:{n}" for n in self.recent]  # played lately: offered again
        self.choices["sheet"] = [*vm.sheet_choices(), *recent]
        self.settings = self.form.read()

    def _remember(self, sheet_seed: int) -> None:
        self.recent = [sheet_seed, *(n for n in self.recent if n != sheet_seed)][:RECENT]
        self.storage.set(SHEETS_KEY, json.dumps(self.recent))
        self._refresh_sheet_choices()

    # -- set-up ---------------------------------------------------------------------
    def player_label(self, n: int) -> str:
        if n == 1:
            return _("1 player (solo: 30 rolls)")
        return ngettext("{n} player", "{n} players", n)

    def setup_fields(self) -> str:
        s = self.settings
        speeds = "".join(
            f'<option value="{k}"{" selected" if k == s["speed"] else ""}>{esc(_(label))}</option>'
            for k, label in ui.SPEED_LABELS.items()
        )
        speed_word = esc(_("Bot speed"))
        return (
            super().setup_fields()
            + f"""
  <label class="field">{speed_word}
    <select name="setup-speed" data-setting="speed">{speeds}</select></label>"""
        )

    def setting_changed(self, key: str) -> None:
        if self.root is None:
            return
        if key == "players":
            super().setting_changed(key)
        elif key == "speed":
            for select in self.root.querySelectorAll("select[data-setting=speed]"):
                select.value = str(self.settings["speed"])

    def new_session(self, seed: int) -> TableSession:
        options = self.chosen_options()
        if options["sheet"] == "random":  # a new random sheet: the game's seed numbers it
            options["sheet"] = f"random:{seed % vm.RANDOM_SHEETS}"
        return TableSession(self.game, options, seed, self.seats(seed))

    def start_with(self, session: TableSession) -> None:
        """A game begins: its random sheet heads the recent ones (not in ``new_session``,
        which the idle warm-up calls too, unseen)."""
        sheet = str(session.record.options.get("sheet"))
        if sheet.startswith("random:"):
            self._remember(int(sheet.removeprefix("random:")))
        super().start_with(session)

    def options_text(self) -> str:
        session = self.session
        if session is None:
            return ""
        opts = session.record.options
        players = len(session.seats)
        sheet = vm.sheet_label(str(opts.get("sheet")))
        if opts.get("bonuses"):
            if players == 1:
                return _(
                    "Solo, 30 rolls with 2 colour and 2 number dice; {sheet}; colour bonuses on "
                    "(5 first, 3 later).",
                    sheet=sheet,
                )
            return _(
                "{n} players; {sheet}; colour bonuses on (5 first, 3 later).",
                n=players,
                sheet=sheet,
            )
        if players == 1:
            return _(
                "Solo, 30 rolls with 2 colour and 2 number dice; {sheet}; no colour bonuses.",
                sheet=sheet,
            )
        return _("{n} players; {sheet}; no colour bonuses.", n=players, sheet=sheet)

    # -- the table ------------------------------------------------------------------
    def view(self) -> vm.Table:
        session = self.session
        assert session is not None
        state = session.state
        you = self.you
        obs = self._observation(you)
        actor = session.next_actor()
        mine = you is not None and actor == you
        legal = list(state.legal_moves(you)) if mine and you is not None else []
        self._focus_now, self._focus = self._focus, None  # the control just used, once
        if mine:
            self.pencil = vm.fresh(self.pencil, (int(obs["roll"]), str(obs["phase"])))
        else:
            self.pencil = vm.Pencil()
        pencil = self.pencil

        def explain(move: str) -> str:
            return state.explain_illegal(you if you is not None else 0, move)

        return vm.table(obs, self.names, you, actor, legal, pencil, explain)

    def _observation(self, seat: int | None) -> dict[str, Any]:
        """The state's observation; in solo, with the player's choices in the log."""
        session = self.session
        assert session is not None
        obs = session.state.observation(seat)
        if obs["players"] == 1:
            moves = [str(what) for who, what in session.record.events if who != CHANCE]
            obs = vm.with_solo_choices(obs, moves)
        return obs

    def focus_order(self, view: vm.Table) -> Sequence[str]:
        order = [self._focus_now] if self._focus_now else []
        fb = view.feedback
        if fb and fb.state == "complete":
            order.append("button.confirm")
        order += [
            "button.cell.target",
            ".joker-names button",  # not shown
            "button.die.usable:not(.picked)",
            "button[data-move=pass]",
        ]
        return order

    def board_html(self, v: vm.Table) -> str:
        obs = v.obs
        dice = v.dice
        mine = v.mine
        pencil = v.pencil
        colour_dice = "".join(die_html(d, mine) for d in dice.colour)
        number_dice = "".join(die_html(d, mine) for d in dice.number)
        label = vm.sheet_label(str(obs["sheet_option"]))
        names = self._joker_names_html(v) if mine else ""
        if not names:
            hint = _("Jokers: X stands for any colour, ? for any number; each costs one “!”.")
            names = (
                f'<span class="small"><b data-role="sheet-name">{esc(label)}</b>'
                f'<span class="joker-hint"> · {esc(hint)}</span></span>'
            )
        sheet = sheet_html(v.sheet, "big")
        sheet_name = _("Your sheet ({sheet})", sheet=label)
        return f"""
<div class="oboard{" mine" if mine else ""}">
  <div class="dicebar">
    <div class="dice" role="group" aria-label="{esc(_("Colour dice"))}">{colour_dice}</div>
    <div class="dice" role="group" aria-label="{esc(_("Number dice"))}">{number_dice}</div>
    <p class="open-text">{esc(dice.open_text)}</p>
  </div>
  <div class="joker-names" data-role="joker-names">{names}</div>
  <div class="osheet" data-role="sheet" aria-label="{esc(sheet_name)}">{sheet}</div>
  {self._markbar_html(v, pencil)}
</div>"""

    def _joker_names_html(self, v: vm.Table) -> str:
        pencil = v.pencil
        legal = v.legal
        faces = vm.sheet_faces(v.obs)
        parts = []
        if pencil.colour == "x":
            base = vm.Pencil(colour="x", number=pencil.number)
            options = {faces[min(b)] for _, b in vm.candidates(legal, base, faces)}
            buttons = "".join(
                f'<button type="button" class="name c-{f}" data-action="name" data-kind="colour" '
                f'data-value="{f}" aria-pressed="{str(pencil.named_colour == f).lower()}">'
                f'<i aria-hidden="true">{vm.SYMBOLS[f]}</i>{esc(colour_name(f))}'
                "</button>"
                for f in COLOURS
                if f in options
            )
            said = _("Colour joker is {colours}", colours=buttons)
            parts.append(f'<span class="name-group">{said}</span>')
        if pencil.number == "?":
            base = vm.Pencil(colour=pencil.colour, number="?", named_colour=pencil.named_colour)
            counts = {len(b) for _, b in vm.candidates(legal, base, faces)}
            buttons = "".join(
                f'<button type="button" class="name" data-action="name" data-kind="number" '
                f'data-value="{n}" aria-pressed="{str(pencil.named_number == n).lower()}">'
                f"{n}</button>"
                for n in range(1, 6)
                if n in counts
            )
            said = _("Number joker is {numbers}", numbers=buttons)
            parts.append(f'<span class="name-group">{said}</span>')
        return "".join(parts)

    def _markbar_html(self, v: vm.Table, pencil: vm.Pencil) -> str:
        fb = v.feedback
        if not v.mine or fb is None:
            text = v.status.text if v.obs["phase"] != "over" else _("The game is over.")
            return (
                f'<div class="markbar"><p class="feedback" data-state="wait">{esc(text)}</p></div>'
            )
        state = fb.state
        move = fb.confirm  # only a complete legal marking can be confirmed
        started = bool(pencil.colour or pencil.number)
        confirm_word, undo_word, pass_word = (
            esc(_("Confirm")),
            esc(_("Take back")),
            esc(pgettext("move", "Pass")),
        )
        confirm = (
            f'<button type="button" class="btn primary confirm" data-move="{esc(move)}">'
            f"{confirm_word}</button>"
            if move
            else '<button type="button" class="btn primary confirm" disabled>'
            f"{confirm_word}</button>"
        )
        undo = (
            f'<button type="button" class="btn" data-action="undo">{undo_word}</button>'
            if started
            else f'<button type="button" class="btn" disabled>{undo_word}</button>'
        )
        return (
            f'<div class="markbar"><p class="feedback" data-state="{state}" '
            f'data-role="feedback">{esc(fb.text)}</p>'
            f'<span class="markbtns">{undo}{confirm}'
            f'<button type="button" class="btn" data-move="pass">{pass_word}</button></span></div>'
        )

    def reset_input(self) -> None:
        self.pencil = vm.Pencil()  # the boxes pencilled for a decision taken back

    def board_action(self, action: str, target: Any) -> bool:
        if action not in ("die", "name", "box", "undo"):
            return False
        session = self.session
        if session is None or self.you is None or session.human_to_act() != self.you:
            return True  # not the person's decision: nothing reacts
        pencil = self.pencil
        if action == "die":
            kind, face = (
                str(target.getAttribute("data-kind")),
                str(target.getAttribute("data-face")),
            )
            pencil = vm.choose_die(pencil, kind, face)
            self._focus = f'button.die[data-kind="{kind}"][data-face="{face}"]'
        elif action == "name":
            kind, value = (
                str(target.getAttribute("data-kind")),
                str(target.getAttribute("data-value")),
            )
            pencil = vm.name_joker(pencil, kind, value)
        elif action == "box":
            box = str(target.getAttribute("data-box"))
            pencil = vm.toggle_box(pencil, box_index(box))
            self._focus = f'button.cell[data-box="{box}"]'
        else:
            pencil = vm.undo(pencil)
            self._focus = "button[data-action=undo]"
        self.pencil = pencil
        self.error = ""
        self.render()
        return True

    def panel_summary(self, view: vm.Table, panel: ui.Panel) -> str:
        obs = view.obs
        summary = "" if panel.you else sheet_html(vm.sheet_view(obs, panel.seat), "mini")
        if vm.is_active(obs, panel.seat):
            summary = f'<span class="tag">{esc(_("Active player"))}</span>{summary}'
        return summary

    def panel_detail(self, view: vm.Table, panel: ui.Panel) -> str:
        sheet = sheet_html(vm.sheet_view(view.obs, panel.seat), "view")
        return f'<div class="osheet detail">{sheet}</div>'

    # -- the end ----------------------------------------------------------------------
    def final_observation(self) -> Any:
        return self._observation(None)  # in solo, with the player's choices in the log

    # -- animations -------------------------------------------------------------------
    def capture(self, seat: int, move: str) -> Any:
        marks = getattr(self.session.state, "marks", None) if self.session else None
        return list(marks) if marks is not None else None

    def animate(self, captured: Any, seat: int, move: str, ms: int) -> None:
        session = self.session
        if session is None or captured is None or self.root is None:
            return
        screen = self.root
        after = getattr(session.state, "marks", captured)
        frames = _keyframes(
            [{"transform": "scale(1.8)", "opacity": 0}, {"transform": "none", "opacity": 1}]
        )
        order = 0
        for p, (old, new) in enumerate(zip(captured, after, strict=True)):
            added = new & ~old
            if not added:
                continue
            scope = "[data-role=sheet]" if p == self.you else f'.panel[data-seat="{p}"]'
            delay = order * ms * 0.6
            order += 1
            timing = _keyframes({"duration": ms, "delay": delay, "fill": "backwards"})
            for i in bits(added):
                cell = screen.querySelector(f'{scope} [data-box="{box_name(i)}"]')
                if found(cell):
                    cell.animate(frames, timing)
