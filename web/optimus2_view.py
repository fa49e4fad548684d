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

from .table import GameTable, esc

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


def die_html(d: vm.Die, attrs: str = "", cls: str = "") -> str:
    """One die: hue, symbol and value (never colour alone); a button when it can be used."""
    value = d.value or ""
    inner = (
        f'<span class="pip" aria-hidden="true">{esc(value)}</span>'
        f'<span class="dsym" aria-hidden="true">{esc(d.symbol)}</span>'
    )

    classes = f"die d-{esc(d.die)} {cls}".strip()
    piece = f'data-piece="{esc(d.die)}" data-key="die-{esc(d.die)}"'
    if attrs:
        return f'<button type="button" class="{classes}" {piece} {attrs}>{inner}</button>'
    return f'<span class="{classes}" {piece} role="img" aria-label="{esc(d.label)}">{inner}</span>'


def bonus_html(b: vm.Bonus, cls: str = "bn") -> str:
    if not b.mark:
        return f'<span class="{cls}" aria-hidden="true"></span>'
    colour = f" q-{b.colour}" if b.colour else ""
    said = esc(_("Bonus: {bonus}", bonus=b.label))  # the mark in words: hover, screen readers
    return (
        f'<span class="{cls}{colour}" role="img" title="{said}" aria-label="{said}">'
        f"{esc(b.mark)}</span>"
    )


def _cell(tag_cls: str, label: str, inner: str, c: vm.Cell) -> str:
    """A sheet cell: a button when a legal move fills it; the latest entry outlined."""
    if c.last:
        tag_cls += " last-action"
        label = _("{cell} (latest entry)", cell=label)
    if c.move:
        return (
            f'<button type="button" class="{tag_cls} target" data-key="{c.key}" '
            f'data-move="{esc(c.move)}" aria-label="{esc(label)}">{inner}</button>'
        )
    return (
        f'<span class="{tag_cls}" data-key="{c.key}" role="img" aria-label="{esc(label)}">'
        f"{inner}</span>"
    )


def sheet_html(s: vm.Sheet, compact: bool = False) -> str:
    """A whole score sheet: five areas, action bars, foxes (targets carry ``data-move``)."""
    areas = s.areas

    def head(area: str, extra: str = "") -> str:
        sym = vm.SYMBOLS[area]
        return (
            f'<h2 class="ahead"><span aria-hidden="true">{sym}</span> {vm.colour_name(area)}'
            f'{extra}<span class="apts" data-area-score="{area}">{areas[area]}</span></h2>'
        )

    # Yellow: staggered grid, row bonuses at the right, column bonuses below.
    grid = []
    by_pos = {(c.row, c.column): c for c in s.yellow}
    for r in range(1, s.yellow_rows + 1):
        for col in range(1, s.yellow_columns + 1):
            c = by_pos.get((r, col))
            if c is None:
                grid.append('<span class="ycell gap" aria-hidden="true"></span>')
                continue
            grid.append(_cell(f"ycell {c.state}", yellow_label(c), f"<b>{c.value}</b>", c))
        grid.append(bonus_html(s.yellow_row_bonus[r - 1], "bn rowb"))  # not shown
    for b in s.yellow_column_bonus:
        grid.append(bonus_html(b, "bn colb"))  # not shown
    yellow = (
        f'<section class="area a-yellow">{head("yellow")}'
        f'<div class="ygrid">{"".join(grid)}</div></section>'
    )
    # Silver: a row per colour, values 1-6, column bonuses below.
    rows = []
    for row in s.silver:
        sym = vm.SYMBOLS[row.row]
        cells = "".join(
            _cell(
                "scell" + (" marked" if c.marked else ""),
                silver_label(row.row, c),
                f"<b>{c.value}</b>",
                c,
            )
            for c in row.cells
        )
        title = esc(_("{row} row", row=vm.row_colour(row.row)))
        rows.append(
            f'<span class="srow-h s-{row.row}" role="img" title="{title}" aria-label="{title}">'
            f"{sym}</span>{cells}"
        )
    cols = "".join(
        bonus_html(b, "bn colb" + (" done" if done else ""))  # not shown
        for b, done in zip(s.silver_column_bonus, s.silver_columns_done, strict=True)
    )
    silver = (
        f'<section class="area a-silver">{head("silver")}'
        f'<div class="sgrid">{"".join(rows)}<span></span>{cols}</div></section>'
    )

    def track(area: str, note: Callable[[vm.Slot], str]) -> str:
        slots = []
        for c in s.track(area):
            value = "" if c.value is None else str(c.value)
            label = slot_label(area, c)
            cls = "slot" + (" next" if c.next else "") + (" filled" if value else "")
            if area == "green" and c.n % 2 == 0:
                cls += " pair-end"
            inner = (
                f'<span class="note" aria-hidden="true">{esc(note(c))}</span>'
                f'<b aria-hidden="true">{esc(value)}</b>{bonus_html(c.bonus)}'
            )
            slots.append(_cell(cls, label, inner, c))
        return (
            f'<section class="area a-{area}">{head(area)}'
            f'<div class="slots">{"".join(slots)}</div></section>'
        )

    blue = track("blue", lambda c: "")
    green = track("green", lambda c: f"×{c.mult}")
    pink = track("pink", lambda c: f"≥{c.threshold}" if c.threshold else "")
    bars = []
    for a in s.actions:
        boxes = "".join(
            '<span class="abox{}" aria-hidden="true">{}</span>'.format(
                " used" if i < a.used else (" circled" if i < a.circled else ""),
                esc(a.last_bonus.mark) if i == a.slots - 1 else "",
            )
            for i in range(a.slots)
        )
        said = esc(action_said(a))
        name = esc(action_name(a.name))
        bars.append(
            f'<div class="abar" role="img" aria-label="{said}">'
            f'<span class="aname"><span aria-hidden="true">{esc(a.mark)}</span> {name} '
            f"<b>{a.left}</b></span>{boxes}</div>"
        )
    foxes_said = esc(_("Foxes: {foxes}, each worth {worth}", foxes=s.foxes, worth=s.fox_worth))
    foxes = (
        f'<div class="foxes" role="img" aria-label="{foxes_said}"><span aria-hidden="true">'
        f"✪ {esc(_('Foxes'))} <b>{s.foxes}</b> × {s.fox_worth}</span></div>"
    )
    strip = f'<section class="strip">{"".join(bars)}{foxes}</section>'
    cls = "o2sheet compact" if compact else "o2sheet"  # not shown
    return (
        f'<div class="{cls}">{yellow}{silver}{blue}{green}{pink}{strip}'
        f'<p class="stotal">{esc(_("Total"))} <b data-role="sheet-total">{s.total}</b></p></div>'
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

    def board_html(self, t: vm.Table) -> str:
        groups: dict[str, list[str]] = {"hand": [], "field": [], "tray": []}
        for d in t.dice:
            attrs = ""
            cls = ""
            if d.selectable:
                pressed = "true" if d.selected else "false"
                attrs = (
                    f'data-action="die" data-die="{d.die}" aria-pressed="{pressed}" '
                    f'aria-label="{esc(d.choose_label)}"'
                )
                cls = "can" + (" chosen" if d.selected else "")
            elif d.return_move:
                attrs = f'data-move="{d.return_move}" aria-label="{esc(d.return_label)}"'
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
        zone = "".join(
            f'<div class="dgroup g-{place}"><h2>{heads[place]}</h2><div class="dslots">'
            + "".join(dice)
            + '<span class="die empty" aria-hidden="true"></span>'
            * max(0, reserve[place] - len(dice))
            + "</div></div>"
            for place, dice in groups.items()
        )
        controls = [
            f'<button type="button" class="btn" data-move="{c.move}">{esc(c.label)}</button>'
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
                    f'<span class="clabel">{esc(head)}</span>'
                    + "".join(
                        f'<button type="button" class="btn num" data-move="{move}">'
                        f"{esc(text)}</button>"
                        for move, text in answers
                    ),
                )
        track = "".join(
            '<span class="rbox{}" title="{}">{}{}</span>'.format(
                " now" if r == t.round else (" past" if r < t.round else ""),
                esc(
                    _("Round {round}: {bonus}", round=r, bonus=b.label)
                    if b.label
                    else _("Round {round}", round=r)
                ),
                r,
                f"<small>{esc(b.mark)}</small>" if b.mark else "",
            )
            for r, b in (
                (r, t.round_track[r - 1] if r <= len(t.round_track) else vm.bonus(0))
                for r in range(1, t.rounds + 1)
            )
        )
        me = next((p for p in t.players if p.you), t.players[0])
        round_said = _("Round {round} of {rounds}", round=t.round, rounds=t.rounds)
        return f"""
<div class="o2board">
  <div class="dicezone" role="group" aria-label="{esc(_("Dice"))}">{zone}
    <div class="rtrack" role="img"
      aria-label="{esc(round_said)}">{track}</div></div>
  <div class="o2controls" role="group" aria-label="{esc(_("Actions"))}">{"".join(controls)}</div>
  {sheet_html(me.sheet)}
</div>"""

    def panel_summary(self, view: vm.Table, panel: ui.Panel) -> str:
        p = view.players[panel.seat]
        summary = "".join(
            f'<span class="chip a-{a}" title="{esc(vm.colour_name(a))}: {pts}">'
            f'<span aria-hidden="true">{vm.SYMBOLS[a]}</span>{pts}</span>'
            for a, pts in p.areas.items()
        )
        foxes = esc(ngettext("{n} fox", "{n} foxes", p.foxes))
        return summary + f'<span class="chip" title="{foxes}">✪{p.foxes}</span>'

    def panel_detail(self, view: vm.Table, panel: ui.Panel) -> str:
        sheet = view.players[panel.seat].sheet
        return sheet_html(sheet.inert(), compact=True)

    # Animations: the dice carry data-piece, so the table's own flies each die that
    # changed place (chosen, sent to the tray, brought back) from where it was.

    # -- the end ----------------------------------------------------------------------
    def score_icon(self, icon: str) -> str:
        return f'<span class="chip a-{icon}" aria-hidden="true">{vm.SYMBOLS[icon]}</span>'
