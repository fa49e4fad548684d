"""The Optimus 2 table: set-up, the dice zone, the score sheet drawn like a pad, the end screen.

The frame (game bar tools, status line, player panels, log, bot loop, dialogs,
saves, focus) is :class:`optimus_web.table.GameTable`.  Everything that can be
clicked comes from the legal moves via :mod:`optimus.optimus2.view`: a die with
a legal entry can be chosen (``data-action="die"``), then each cell it may go
to carries ``data-move``; bonus questions, rerolls, returns and extra dice
appear exactly when the engine offers them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from optimus.i18n import N_, _, ngettext, pgettext
from optimus.optimus2 import view as vm
from optimus.optimus2.sheet import load_sheet
from optimus.ui import table as ui

from .markup import Markup, html, join
from .table import GameTable

PLACE_HEAD = {"hand": N_("Rolled"), "field": N_("Die fields"), "tray": N_("Silver tray")}
"""The heading of each group of dice (shown through ``_``)."""


def action_name(name: str) -> str:
    """An action bar's name."""
    words = {
        "reroll": pgettext("action", "Reroll"),
        "return": pgettext("action", "Return"),
        "extra": pgettext("action", "Extra die"),
    }
    return words[name]


def action_said(a: vm.ActionBar) -> str:
    """An action bar in words: how many actions are there to use, how many are used."""
    if a.name == "reroll":
        return _("Rerolls: {left} to use, {used} used", left=a.left, used=a.used)
    if a.name == "return":
        return _("Returns: {left} to use, {used} used", left=a.left, used=a.used)
    return _("Extra dice: {left} to use, {used} used", left=a.left, used=a.used)


def yellow_label(c: vm.YellowCell) -> str:
    """A yellow cell in words: where it is, its value, its state or what a click does."""
    where = {"row": c.row, "column": c.column, "value": c.value}
    if c.move and c.state == "circled":
        return _("Yellow cell in row {row}, column {column} ({value}): cross it", **where)
    if c.move:
        return _("Yellow cell in row {row}, column {column} ({value}): circle it", **where)
    if c.state == "crossed":
        return _("Yellow cell in row {row}, column {column}: {value}, crossed", **where)
    if c.state == "circled":
        return _("Yellow cell in row {row}, column {column}: {value}, circled", **where)
    return _("Yellow cell in row {row}, column {column}: {value}, open", **where)


def silver_label(row: str, c: vm.SilverCell) -> str:
    """A silver cell in words: its row, its value, marked or what a click does."""
    colour = vm.row_colour(row)
    if c.marked:
        return _("Silver, {row} row, {value}: marked", row=colour, value=c.value)
    if c.move:
        return _("Silver, {row} row, {value}: mark it", row=colour, value=c.value)
    return _("Silver, {row} row, {value}", row=colour, value=c.value)


def slot_label(area: str, c: vm.Slot) -> str:
    """A slot of blue, green or pink in words: its number, its value (or empty), its bonus,
    and what a click writes."""
    n, value = c.n, c.value
    if area == "blue":
        said = (
            _("Blue slot {n}: empty", n=n)
            if value is None
            else _("Blue slot {n}: {value}", n=n, value=value)
        )
    elif area == "green":
        said = (
            _("Green slot {n}: empty", n=n)
            if value is None
            else _("Green slot {n}: {value}", n=n, value=value)
        )
    else:
        said = (
            _("Pink slot {n}: empty", n=n)
            if value is None
            else _("Pink slot {n}: {value}", n=n, value=value)
        )
    if c.bonus.label:
        said = _("{slot}, bonus {bonus}", slot=said, bonus=c.bonus.label)
    if c.move:
        said = _("{slot} — {write}", slot=said, write=c.will or _("write here"))
    return said


def die_html(d: vm.Die, attrs: Markup | None = None, cls: str = "") -> Markup:
    """One die: hue, symbol and value (never colour alone); a button when it can be used."""
    inner = html(
        '<span class="pip" aria-hidden="true">{}</span>'
        '<span class="dsym" aria-hidden="true">{}</span>',
        d.value or "",
        d.symbol,
    )
    classes = f"die d-{d.die} {cls}".strip()
    piece = html('data-piece="{die}" data-key="die-{die}"', die=d.die)
    if attrs:
        return html(
            '<button type="button" class="{}" {} {}>{}</button>', classes, piece, attrs, inner
        )
    return html(
        '<span class="{}" {} role="img" aria-label="{}">{}</span>', classes, piece, d.label, inner
    )


def bonus_html(b: vm.Bonus, cls: str = "bn") -> Markup:
    if not b.mark:
        return html('<span class="{}" aria-hidden="true"></span>', cls)
    colour = f" q-{b.colour}" if b.colour else ""
    said = _("Bonus: {bonus}", bonus=b.label)  # the mark in words: hover, screen readers
    return html(
        '<span class="{cls}{colour}" role="img" title="{said}" aria-label="{said}">{mark}</span>',
        cls=cls,
        colour=colour,
        said=said,
        mark=b.mark,
    )


def _cell(tag_cls: str, label: str, inner: Markup, c: vm.Cell) -> Markup:
    """A sheet cell: a button when a legal move fills it; the latest entry outlined."""
    if c.last:
        tag_cls += " last-action"
        label = _("{cell} (latest entry)", cell=label)
    if c.move:
        return html(
            '<button type="button" class="{cls} target" data-key="{key}" '
            'data-move="{move}" aria-label="{label}">{inner}</button>',
            cls=tag_cls,
            key=c.key,
            move=c.move,
            label=label,
            inner=inner,
        )
    return html(
        '<span class="{cls}" data-key="{key}" role="img" aria-label="{label}">{inner}</span>',
        cls=tag_cls,
        key=c.key,
        label=label,
        inner=inner,
    )


def sheet_html(s: vm.Sheet, compact: bool = False) -> Markup:
    """A whole score sheet: five areas, action bars, foxes (targets carry ``data-move``)."""
    areas = s.areas

    def head(area: str) -> Markup:
        return html(
            '<h2 class="ahead"><span aria-hidden="true">{sym}</span> {name}'
            '<span class="apts" data-area-score="{area}">{points}</span></h2>',
            sym=vm.SYMBOLS[area],
            name=vm.colour_name(area),
            area=area,
            points=areas[area],
        )

    # Yellow: staggered grid, row bonuses at the right, column bonuses below.
    grid = []
    by_pos = {(c.row, c.column): c for c in s.yellow}
    for r in range(1, s.yellow_rows + 1):
        for col in range(1, s.yellow_columns + 1):
            c = by_pos.get((r, col))
            if c is None:
                grid.append(Markup('<span class="ycell gap" aria-hidden="true"></span>'))
                continue
            value = html("<b>{}</b>", c.value)
            grid.append(_cell(f"ycell {c.state}", yellow_label(c), value, c))
        grid.append(bonus_html(s.yellow_row_bonus[r - 1], "bn rowb"))  # not shown
    for b in s.yellow_column_bonus:
        grid.append(bonus_html(b, "bn colb"))  # not shown
    yellow = html(
        '<section class="area a-yellow">{}<div class="ygrid">{}</div></section>',
        head("yellow"),
        join(grid),
    )
    # Silver: a row per colour, values 1-6, column bonuses below.
    rows = []
    for row in s.silver:
        cells = join(
            _cell(
                "scell" + (" marked" if c.marked else ""),
                silver_label(row.row, c),
                html("<b>{}</b>", c.value),
                c,
            )
            for c in row.cells
        )
        rows.append(
            html(
                '<span class="srow-h s-{row}" role="img" title="{title}" aria-label="{title}">'
                "{sym}</span>{cells}",
                row=row.row,
                title=_("{row} row", row=vm.row_colour(row.row)),
                sym=vm.SYMBOLS[row.row],
                cells=cells,
            )
        )
    cols = join(
        bonus_html(b, "bn colb" + (" done" if done else ""))  # not shown
        for b, done in zip(s.silver_column_bonus, s.silver_columns_done, strict=True)
    )
    silver = html(
        '<section class="area a-silver">{}<div class="sgrid">{}<span></span>{}</div></section>',
        head("silver"),
        join(rows),
        cols,
    )

    def track(area: str, note: Callable[[vm.Slot], str]) -> Markup:
        slots = []
        for c in s.track(area):
            value = "" if c.value is None else str(c.value)
            label = slot_label(area, c)
            cls = "slot" + (" next" if c.next else "") + (" filled" if value else "")
            if area == "green" and c.n % 2 == 0:
                cls += " pair-end"
            inner = html(
                '<span class="note" aria-hidden="true">{}</span><b aria-hidden="true">{}</b>{}',
                note(c),
                value,
                bonus_html(c.bonus),
            )
            slots.append(_cell(cls, label, inner, c))
        return html(
            '<section class="area a-{}">{}<div class="slots">{}</div></section>',
            area,
            head(area),
            join(slots),
        )

    blue = track("blue", lambda c: "")
    green = track("green", lambda c: f"×{c.mult}")
    pink = track("pink", lambda c: f"≥{c.threshold}" if c.threshold else "")
    bars = []
    for a in s.actions:
        boxes = join(
            html(
                '<span class="abox{}" aria-hidden="true">{}</span>',
                " used" if i < a.used else (" circled" if i < a.circled else ""),
                a.last_bonus.mark if i == a.slots - 1 else "",
            )
            for i in range(a.slots)
        )
        bars.append(
            html(
                '<div class="abar" role="img" aria-label="{said}">'
                '<span class="aname"><span aria-hidden="true">{mark}</span> {name} '
                "<b>{left}</b></span>{boxes}</div>",
                said=action_said(a),
                mark=a.mark,
                name=action_name(a.name),
                left=a.left,
                boxes=boxes,
            )
        )
    foxes = html(
        '<div class="foxes" role="img" aria-label="{said}"><span aria-hidden="true">'
        "✪ {word} <b>{foxes}</b> × {worth}</span></div>",
        said=_("Foxes: {foxes}, each worth {worth}", foxes=s.foxes, worth=s.fox_worth),
        word=_("Foxes"),
        foxes=s.foxes,
        worth=s.fox_worth,
    )
    strip = html('<section class="strip">{}{}</section>', join(bars), foxes)
    cls = "o2sheet compact" if compact else "o2sheet"  # not shown
    return html(
        '<div class="{cls}">{yellow}{silver}{blue}{green}{pink}{strip}'
        '<p class="stotal">{total_word} <b data-role="sheet-total">{total}</b></p></div>',
        cls=cls,
        yellow=yellow,
        silver=silver,
        blue=blue,
        green=green,
        pink=pink,
        strip=strip,
        total_word=_("Total"),
        total=s.total,
    )


class Optimus2View(GameTable):
    """Router view for ``#/optimus2``."""

    game_id = "optimus2"
    lead = N_(
        "Choose three dice a turn, enter them on your sheet, chain bonuses, "
        "and keep every area growing for the foxes."
    )
    rules = vm.RULES
    end_screen = staticmethod(vm.end_screen)

    def __init__(self) -> None:
        super().__init__()
        self.selected: str | None = None

    # -- set-up -------------------------------------------------------------------
    def player_label(self, n: int) -> str:
        rounds = load_sheet().rounds_for(n)
        if n == 1:
            return _("1 player (solo, {rounds} rounds)", rounds=rounds)
        return _("{n} players ({rounds} rounds)", n=n, rounds=rounds)

    def options_text(self) -> str:
        session = self.session
        if session is None:
            return ""
        n = len(session.seats)
        rounds = session.state.observation(None)["rounds"]
        if n == 1:
            return _(
                "1 player, {rounds} rounds; solo: a passive turn after each of yours; "
                "standard sheet.",
                rounds=rounds,
            )
        return _("{n} players, {rounds} rounds; standard sheet.", n=n, rounds=rounds)

    # -- the table ------------------------------------------------------------------
    def view(self) -> vm.Table:
        assert self.session is not None
        obs = self.session.state.observation(self.you)
        t = vm.table(obs, self.names, self.you, self.selected)
        self.selected = t.selected
        return t

    def focus_order(self, view: vm.Table) -> Sequence[str]:
        return (
            ".o2controls button[data-move^='write']",  # not shown
            ".o2controls button[data-move^='choose']",  # not shown
            ".board .o2sheet button[data-move]",  # not shown
            ".dicezone button",  # not shown
            ".o2controls button[data-move]",  # not shown
        )

    def reset_input(self) -> None:
        self.selected = None  # the die chosen for a decision taken back

    def board_action(self, action: str, target: Any) -> bool:
        if action != "die":
            return False
        self._select(target)
        return True

    def _select(self, target: Any) -> None:
        name = str(target.getAttribute("data-die"))
        self.selected = None if self.selected == name else name
        self.render(moved=True)

    def human_move(self, move: str) -> None:
        self.selected = None
        super().human_move(move)

    def board_html(self, t: vm.Table) -> Markup:
        groups: dict[str, list[Markup]] = {"hand": [], "field": [], "tray": []}
        for d in t.dice:
            attrs = Markup()
            cls = ""
            if d.selectable:
                attrs = html(
                    'data-action="die" data-die="{}" aria-pressed="{}" aria-label="{}"',
                    d.die,
                    "true" if d.selected else "false",
                    d.choose_label,
                )
                cls = "can" + (" chosen" if d.selected else "")
            elif d.return_move:
                attrs = html('data-move="{}" aria-label="{}"', d.return_move, d.return_label)
                cls = "can"
            if d.place == "hand" and t.phase == "preroll":
                cls += " stale"
            if d.extra_taken and t.extra_phase:
                cls += " taken"
            groups[d.place].append(die_html(d, attrs, cls))
        reserve = {"hand": 6, "field": 3, "tray": 6}
        heads = {place: _(head) for place, head in PLACE_HEAD.items()}
        if t.solo_passive:
            heads["field"] = _("Not in the tray")
        if t.phase == "preroll":
            heads["hand"] = _("To roll")
        empty = Markup('<span class="die empty" aria-hidden="true"></span>')
        zone = join(
            html(
                '<div class="dgroup g-{}"><h2>{}</h2><div class="dslots">{}{}</div></div>',
                place,
                heads[place],
                join(dice),
                Markup(empty * max(0, reserve[place] - len(dice))),
            )
            for place, dice in groups.items()
        )
        controls = [
            html('<button type="button" class="btn" data-move="{}">{}</button>', c.move, c.label)
            for c in t.controls
        ]
        questions = (
            (
                _("Area:"),
                [(c.move, f"{vm.SYMBOLS[c.move.split()[1]]} {c.label}") for c in t.chooses],
            ),
            (_("Write:"), [(w.move, w.label) for w in t.writes]),
        )
        for head, answers in questions:
            if answers:
                controls.insert(
                    0,
                    html('<span class="clabel">{}</span>', head)
                    + join(
                        html(
                            '<button type="button" class="btn num" data-move="{}">{}</button>',
                            move,
                            text,
                        )
                        for move, text in answers
                    ),
                )
        track = join(
            html(
                '<span class="rbox{}" title="{}">{}{}</span>',
                " now" if r == t.round else (" past" if r < t.round else ""),
                _("Round {round}: {bonus}", round=r, bonus=b.label)
                if b.label
                else _("Round {round}", round=r),
                r,
                html("<small>{}</small>", b.mark) if b.mark else "",
            )
            for r, b in (
                (r, t.round_track[r - 1] if r <= len(t.round_track) else vm.bonus(0))
                for r in range(1, t.rounds + 1)
            )
        )
        me = next((p for p in t.players if p.you), t.players[0])
        round_said = _("Round {round} of {rounds}", round=t.round, rounds=t.rounds)
        return html(
            """
<div class="o2board">
  <div class="dicezone" role="group" aria-label="{dice_said}">{zone}
    <div class="rtrack" role="img"
      aria-label="{round_said}">{track}</div></div>
  <div class="o2controls" role="group" aria-label="{actions_said}">{controls}</div>
  {sheet}
</div>""",
            dice_said=_("Dice"),
            zone=zone,
            round_said=round_said,
            track=track,
            actions_said=_("Actions"),
            controls=join(controls),
            sheet=sheet_html(me.sheet),
        )

    def panel_summary(self, view: vm.Table, panel: ui.Panel) -> Markup:
        p = view.players[panel.seat]
        summary = join(
            html(
                '<span class="chip a-{a}" title="{name}: {pts}">'
                '<span aria-hidden="true">{sym}</span>{pts}</span>',
                a=a,
                name=vm.colour_name(a),
                pts=pts,
                sym=vm.SYMBOLS[a],
            )
            for a, pts in p.areas.items()
        )
        foxes = ngettext("{n} fox", "{n} foxes", p.foxes)
        return summary + html('<span class="chip" title="{}">✪{}</span>', foxes, p.foxes)

    def panel_detail(self, view: vm.Table, panel: ui.Panel) -> Markup:
        sheet = view.players[panel.seat].sheet
        return sheet_html(sheet.inert(), compact=True)

    # Animations: the dice carry data-piece, so the table's own flies each die that
    # changed place (chosen, sent to the tray, brought back) from where it was.

    # -- the end ----------------------------------------------------------------------
    def score_icon(self, icon: str) -> Markup:
        return html('<span class="chip a-{}" aria-hidden="true">{}</span>', icon, vm.SYMBOLS[icon])
