"""The Optimus table: set-up (seats, sheet, colour bonuses), the dice, the sheets, the end screen.

The frame (game bar tools, status line, player panels, log, bot loop, dialogs,
saves, focus) is :class:`optimus_web.table.GameTable`; the marking in progress (dice,
jokers' names, boxes pencilled, every step undoable before "Confirm") is
:mod:`optimus_web.optimus_pencil`; a refused marking shows the engine's reason.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import js

from optimus.core import jsontext
from optimus.core.record import CHANCE
from optimus.i18n import N_, _, ngettext, pgettext
from optimus.optimus import view as vm
from optimus.optimus.sheet import bits, box_name
from optimus.ui import table as ui
from optimus.ui.session import TableSession

from . import store_keys
from .markup import Markup, css_string, html, join, tr
from .motion import reveal
from .optimus_pencil import PencilInput, die_html, joker_names_html, markbar_html
from .router import found
from .table import GameTable

RECENT = 5  # random sheets kept to be played again
MINIS_KEPT = 24  # the others' small sheets kept drawn (a few drawings' worth)
SHEETS_KEY = store_keys.game_key("optimus", "sheets")


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


def cell_html(c: vm.Cell, mode: str) -> Markup:
    """One box. ``big``: a button on the person's turn; ``view``: drawn; ``mini``: a dot."""
    cls = ["cell", f"c-{c.face}"]
    for flag in ("marked", "last", "pencil", "target", "star", "start"):
        if getattr(c, flag):
            cls.append(flag)
    box = c.box
    if mode == "mini":
        return html('<span class="{}" data-box="{}"></span>', " ".join(cls), box)
    star = Markup('<i class="star" aria-hidden="true">★</i>') if c.star else ""
    drawn = {  # the same whether the box is a button or an image
        "classes": " ".join(cls),
        "box": box,
        "label": ", ".join(cell_words(c)),
        "inner": html('<i class="sym" aria-hidden="true">{}</i>{}', c.symbol, star),
    }
    if mode == "big" and c.free:
        return html(
            '<button type="button" class="{classes} free" data-action="box" '
            'data-box="{box}" data-key="{box}" aria-label="{label}" '
            'aria-pressed="{pressed}">{inner}</button>',
            pressed=str(c.pencil).lower(),
            **drawn,
        )
    return html(
        '<span class="{classes}" role="img" aria-label="{label}" data-box="{box}" '
        'data-key="{box}">{inner}</span>',
        **drawn,
    )


def sheet_html(s: vm.Sheet, mode: str) -> Markup:
    """A whole sheet: column heads (letter, first and later points), rows, and for
    ``big``/``view`` the "!" boxes, colour bonuses and the score so far."""
    cells = s.cells
    if mode == "mini":
        body = join(cell_html(c, "mini") for c in cells)
        return html('<div class="ogrid mini" aria-hidden="true">{}</div>', body)
    heads = [Markup('<span class="corner" aria-hidden="true"></span>')]
    for col in s.columns:
        title = column_title(col)
        heads.append(
            html(
                '<span class="colhead{done}" role="img" title="{title}" '
                'aria-label="{title}">'
                '<b>{letter}</b><span class="pf">{first}</span>'
                '<span class="pl">{later}</span></span>',
                done=" done" if col.done else "",
                title=title,
                letter=col.letter,
                first=html("<s>{}</s>", col.first) if col.first_taken else str(col.first),
                later=col.later,
            )
        )
    rows = []
    for r in range(s.rows):
        rows.append(html('<span class="rowhead" aria-hidden="true">{}</span>', r + 1))
        rows.extend(cell_html(c, mode) for c in cells[r * 15 : r * 15 + 15])
    grid = html('<div class="ogrid {}">{}{}</div>', mode, join(heads), join(rows))
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


def foot_html(s: vm.Sheet) -> Markup:
    """The "!" boxes, the colour bonuses and the running score."""
    jokers = join(
        html('<span class="bang{}">!</span>', " used" if used else "") for used in s.jokers
    )
    first, later = s.bonus_values
    colours = []
    for c in s.colours:
        f = html("<s>{}</s>", first) if c.first_taken else str(first)
        value = html("{}/{}", f, later) if s.bonuses else pgettext("colour bonus", "off")
        title = _("{colour}: {marked} of 21 marked", colour=c.name, marked=c.marked)
        colours.append(
            html(
                '<span class="bonus c-{face}{state}" title="{title}">'
                '<i aria-hidden="true">{symbol}</i>{marked}<span class="of21">/21</span>'
                " · {value}</span>",
                face=c.face,
                state=" done" if c.done else "",
                title=title,
                symbol=c.symbol,
                marked=c.marked,
                value=value,
            )
        )
    sc = s.score
    breakdown = tr(
        "Columns {columns} · Colours {colours} · “!” {jokers} · Stars {stars} = {total}",
        columns=sc["columns"],
        colours=sc["colours"],
        jokers=sc["jokers"],
        stars=sc["stars"],
        total=html("<b>{}</b>", ui.points(sc["total"])),
    )
    left = ngettext("{n} of 8 “!” left", "{n} of 8 “!” left", s.jokers_left)
    return html(
        '<div class="ofoot"><span class="bangs" role="img" aria-label="{left}">{jokers}</span>'
        '<span class="bonuses" role="group" aria-label="{bonuses}">{colours}</span>'
        '<span class="breakdown" data-role="breakdown">{breakdown}</span></div>',
        left=left,
        jokers=jokers,
        bonuses=_("Colour bonuses"),
        colours=join(colours),
        breakdown=breakdown,
    )


class OptimusView(GameTable):
    """Router view for ``#/optimus``."""

    game_id = "optimus"
    lesson_targets = {  # optimus/optimus/view_lesson.py
        "dice": "#game .dicebar",
        "die": "#game .dicebar [data-action=die][data-face={}]",
        "box": "#game .ogrid.big [data-box={}]",
        "score": "#game [data-role=breakdown]",
    }
    lead = N_(
        "Roll colour and number dice, mark boxes on your sheet, complete columns and colours first."
    )
    rules = vm.RULES
    end_screen = staticmethod(vm.end_screen)

    def __init__(self) -> None:
        super().__init__()
        self.input = PencilInput(self)
        """The marking in progress (web/optimus_pencil.py)."""
        self._minis: dict[str, Markup] = {}
        """The others' small sheets drawn lately, by :func:`~optimus.optimus.view.sheet_key`."""
        self.recent = self._read_recent()
        self._refresh_sheet_choices()

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

    def options_text(self, session: TableSession) -> str:
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
        watching = self.watching()  # a replay: nobody's decision to take
        mine = you is not None and actor == you and not watching
        legal = list(state.legal_moves(you)) if mine and you is not None else []
        pencil = self.input.for_view(mine, obs)

        def explain(move: str) -> str:
            return state.explain_illegal(you if you is not None else 0, move)

        return vm.table(obs, self.names, you, actor, legal, pencil, explain, watching)

    def _observation(self, seat: int | None) -> dict[str, Any]:
        """The state's observation; in solo, with the player's choices in the log."""
        session = self.session
        assert session is not None
        obs = session.state.observation(seat)
        if obs["players"] == 1:
            moves = [str(what) for who, what in session.record.events if who != CHANCE]
            obs = vm.with_solo_choices(obs, moves)
        return obs

    def move_targets(self, move: str, seat: int) -> list[str]:
        """A marking's dice (the first die of each face) and boxes on the big sheet;
        "pass": its button."""
        if move == "pass":
            return super().move_targets(move, seat)
        colour, number, boxes = vm.parse(move)
        dice = [
            f".dicebar .die[data-kind=colour][data-face={css_string(colour)}]",
            f".dicebar .die[data-kind=number][data-face={css_string(number)}]",
        ]
        return dice + [f".ogrid.big [data-box={css_string(box_name(i))}]" for i in sorted(boxes)]

    def move_words(self, move: str, seat: int) -> str:
        if move == "pass":
            return ""  # its button says it
        session = self.session
        assert session is not None
        return vm.marking_advice(move, vm.sheet_faces(session.state.observation(seat)))

    def focus_order(self, view: vm.Table) -> Sequence[str]:
        now = self.input.focus_now  # the control just used, once
        order = [now] if now else []
        fb = view.feedback
        if fb and fb.state == "complete":
            order.append("button.confirm")
        if fb and fb.state == "none":  # no die fits: passing is the move
            order.append("button[data-move=pass]")
        order += [
            "button.cell.target",
            ".joker-names button",  # not shown
            "button.die.usable:not(.picked)",
            "button[data-move=pass]",
        ]
        return order

    def board_html(self, v: vm.Table) -> Markup:
        obs = v.obs
        dice = v.dice
        mine = v.mine
        pencil = v.pencil
        label = vm.sheet_label(str(obs["sheet_option"]))
        names = joker_names_html(v) if mine else Markup()
        if not names:
            hint = _("Jokers: X stands for any colour, ? for any number; each costs one “!”.")
            names = html(
                '<span class="small"><b data-role="sheet-name">{}</b>'
                '<span class="joker-hint"> · {}</span></span>',
                label,
                hint,
            )
        return html(
            """
<div class="oboard{mine}">
  <div class="dicebar">
    <div class="dice" role="group" aria-label="{colour_said}">{colour_dice}</div>
    <div class="dice" role="group" aria-label="{number_said}">{number_dice}</div>
    <p class="open-text">{open_text}</p>
  </div>
  <div class="joker-names" data-role="joker-names">{names}</div>
  <div class="osheet" data-role="sheet" aria-label="{sheet_name}">{sheet}</div>
  {markbar}
</div>""",
            mine=" mine" if mine else "",
            colour_said=_("Colour dice"),
            colour_dice=join(die_html(d, mine) for d in dice.colour),
            number_said=_("Number dice"),
            number_dice=join(die_html(d, mine) for d in dice.number),
            open_text=dice.open_text,
            names=names,
            sheet_name=_("Your sheet ({sheet})", sheet=label),
            sheet=sheet_html(v.sheet, "big"),
            markbar=Markup() if v.watching else markbar_html(v, pencil),  # a replay: none
        )

    def symbols(self) -> Sequence[ui.Symbol]:
        return vm.symbols()

    def symbol_html(self, symbol: ui.Symbol) -> Markup:
        """A colour as a die of it, a joker as its die; the rest as the sheet has them."""
        piece = symbol.piece
        if piece.startswith("c-") or piece.startswith("die-"):
            kind = "number" if piece == "die-?" else "colour"
            cls = f"die d-{kind}" + (" joker" if piece.startswith("die-") else f" {piece}")
            return html('<span class="{}"><i>{}</i></span>', cls, symbol.glyph)
        return super().symbol_html(symbol)

    def reset_input(self) -> None:
        self.input.reset()

    def move_in_progress(self) -> bool:
        return self.input.in_progress()

    def step_back(self) -> bool:
        return self.input.step_back()

    def board_action(self, action: str, target: Any) -> bool:
        done = self.input.action(action, target)
        if action == "die" and self.root is not None:  # the boxes it may mark come into view
            reveal(self.board().querySelectorAll(".ogrid.big .cell.target"), ".markbar")
        return done

    def mount(self, container: Any) -> None:
        super().mount(container)
        self.input.mount(self.section)

    def unmount(self) -> None:
        self.input.unmount(self.section)
        super().unmount()

    def panel_summary(self, view: vm.Table, panel: ui.Panel) -> Markup:
        obs = view.obs
        summary = Markup() if panel.you else self.mini_sheet(obs, panel.seat)
        if vm.is_active(obs, panel.seat):
            summary = html('<span class="tag">{}</span>{}', _("Active player"), summary)
        return summary

    def mini_sheet(self, obs: Any, seat: int) -> Markup:
        """``seat``'s small sheet in its panel, kept from the last drawings while what it
        shows is the same (:func:`~optimus.optimus.view.sheet_key`): a drawing after one
        player's move rebuilds only theirs."""
        key = vm.sheet_key(obs, seat)
        mini = self._minis.get(key)
        if mini is None:
            mini = sheet_html(vm.sheet_view(obs, seat), "mini")
            if len(self._minis) >= MINIS_KEPT:
                self._minis.clear()
            self._minis[key] = mini
        return mini

    def panel_detail(self, view: vm.Table, panel: ui.Panel) -> Markup:
        sheet = sheet_html(vm.sheet_view(view.obs, panel.seat), "view")
        return html('<div class="osheet detail">{}</div>', sheet)

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
            scope = "[data-role=sheet]" if p == self.you else f".panel[data-seat={css_string(p)}]"
            delay = order * ms * 0.6
            order += 1
            timing = _keyframes({"duration": ms, "delay": delay, "fill": "backwards"})
            for i in bits(added):
                cell = screen.querySelector(f"{scope} [data-box={css_string(box_name(i))}]")
                if found(cell):
                    cell.animate(frames, timing)
