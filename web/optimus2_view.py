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

from optimus.optimus2 import view as vm
from optimus.ui import table as ui

from .table import GameTable, esc

PLACE_HEAD = {"hand": "Rolled", "field": "Die fields", "tray": "Silver tray"}
ACTION_NAMES = {"reroll": "Reroll", "return": "Return", "extra": "Extra die"}


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
    return f'<span class="{cls}{colour}" title="{esc(b.label)}">{esc(b.mark)}</span>'


def _cell(tag_cls: str, label: str, inner: str, c: vm.Cell) -> str:
    """A sheet cell: a button when a legal move fills it; the latest entry outlined."""
    if c.last:
        tag_cls += " last-action"
        label += " (latest entry)"
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
            f'<h2 class="ahead"><span aria-hidden="true">{sym}</span> {area.capitalize()}'
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
            label = f"Yellow cell {c.name}: {c.value}, {c.state}"
            if c.move:
                verb = "cross" if c.state == "circled" else "circle"
                label = f"Yellow cell {c.name} ({c.value}): {verb} it"
            grid.append(_cell(f"ycell {c.state}", label, f"<b>{c.value}</b>", c))
        grid.append(bonus_html(s.yellow_row_bonus[r - 1], "bn rowb"))
    for b in s.yellow_column_bonus:
        grid.append(bonus_html(b, "bn colb"))
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
                f"Silver {row.row} row, {c.value}"
                + (": marked" if c.marked else (": mark it" if c.move else "")),
                f"<b>{c.value}</b>",
                c,
            )
            for c in row.cells
        )
        rows.append(f'<span class="srow-h s-{row.row}" title="{row.row} row">{sym}</span>{cells}')
    cols = "".join(
        bonus_html(b, "bn colb" + (" done" if done else ""))
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
            label = f"{area.capitalize()} slot {c.n}" + (f": {value}" if value else ": empty")
            if c.bonus.label:
                label += f", bonus {c.bonus.label}"
            if c.move:
                label += f" — {c.will or 'write here'}"
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
        name = ACTION_NAMES[a.name]
        bars.append(
            f'<div class="abar" role="img" aria-label="{name}: {a.left} to use, '
            f'{a.used} used">'
            f'<span class="aname"><span aria-hidden="true">{esc(a.mark)}</span> {name} '
            f"<b>{a.left}</b></span>{boxes}</div>"
        )
    foxes = (
        f'<div class="foxes" role="img" aria-label="Foxes: {s.foxes}, each worth '
        f'{s.fox_worth}"><span aria-hidden="true">✪ Foxes <b>{s.foxes}</b> × '
        f"{s.fox_worth}</span></div>"
    )
    strip = f'<section class="strip">{"".join(bars)}{foxes}</section>'
    cls = "o2sheet compact" if compact else "o2sheet"
    return (
        f'<div class="{cls}">{yellow}{silver}{blue}{green}{pink}{strip}'
        f'<p class="stotal">Total <b data-role="sheet-total">{s.total}</b></p></div>'
    )


class Optimus2View(GameTable):
    """Router view for ``#/optimus2``."""

    game_id = "optimus2"
    lead = (
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
        rounds = {1: "solo, 6 rounds", 2: "6 rounds", 3: "5 rounds", 4: "4 rounds"}
        return f"{super().player_label(n)} ({rounds.get(n, '')})"

    def options_text(self) -> str:
        session = self.session
        if session is None:
            return ""
        n = len(session.seats)
        rounds = session.state.observation(None)["rounds"]
        solo = "; solo: a passive turn after each of yours" if n == 1 else ""
        return f"{n} player{'s' if n > 1 else ''}, {rounds} rounds{solo}; standard sheet."

    # -- the table ------------------------------------------------------------------
    def view(self) -> vm.Table:
        assert self.session is not None
        obs = self.session.state.observation(self.you)
        t = vm.table(obs, self.names, self.you, self.selected)
        self.selected = t.selected
        return t

    def focus_order(self, view: vm.Table) -> Sequence[str]:
        return (
            ".o2controls button[data-move^='write']",
            ".o2controls button[data-move^='choose']",
            ".board .o2sheet button[data-move]",
            ".dicezone button",
            ".o2controls button[data-move]",
        )

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
                    f'aria-label="Choose the {esc(d.label)}"'
                )
                cls = "can" + (" chosen" if d.selected else "")
            elif d.return_move:
                attrs = (
                    f'data-move="{d.return_move}" aria-label="Bring the {esc(d.label)} back '
                    'from the tray"'
                )
                cls = "can"
            if d.place == "hand" and t.phase == "preroll":
                cls += " stale"
            if d.extra_taken and t.extra_phase:
                cls += " taken"
            groups[d.place].append(die_html(d, attrs, cls))
        reserve = {"hand": 6, "field": 3, "tray": 6}
        heads = dict(PLACE_HEAD)
        if t.solo_passive:
            heads["field"] = "Not in the tray"
        if t.phase == "preroll":
            heads["hand"] = "To roll"
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
            ("Area:", [(c.move, f"{vm.SYMBOLS[c.label]} {c.label}") for c in t.chooses]),
            ("Write:", [(w.move, w.label) for w in t.writes]),
        )
        for head, answers in questions:
            if answers:
                controls.insert(
                    0,
                    f'<span class="clabel">{head}</span>'
                    + "".join(
                        f'<button type="button" class="btn num" data-move="{move}">'
                        f"{esc(text)}</button>"
                        for move, text in answers
                    ),
                )
        track = "".join(
            '<span class="rbox{}" title="Round {}{}">{}{}</span>'.format(
                " now" if r == t.round else (" past" if r < t.round else ""),
                r,
                f": {b.label}" if b.label else "",
                r,
                f"<small>{esc(b.mark)}</small>" if b.mark else "",
            )
            for r, b in (
                (r, t.round_track[r - 1] if r <= len(t.round_track) else vm.bonus(0))
                for r in range(1, t.rounds + 1)
            )
        )
        me = next((p for p in t.players if p.you), t.players[0])
        return f"""
<div class="o2board">
  <div class="dicezone" role="group" aria-label="Dice">{zone}
    <div class="rtrack" role="img"
      aria-label="Round {t.round} of {t.rounds}">{track}</div></div>
  <div class="o2controls" role="group" aria-label="Actions">{"".join(controls)}</div>
  {sheet_html(me.sheet)}
</div>"""

    def panel_summary(self, view: vm.Table, panel: ui.Panel) -> str:
        p = view.players[panel.seat]
        summary = "".join(
            f'<span class="chip a-{a}" title="{a}: {pts}">'
            f'<span aria-hidden="true">{vm.SYMBOLS[a]}</span>{pts}</span>'
            for a, pts in p.areas.items()
        )
        return summary + f'<span class="chip" title="foxes">✪{p.foxes}</span>'

    def panel_detail(self, view: vm.Table, panel: ui.Panel) -> str:
        sheet = view.players[panel.seat].sheet
        return sheet_html(sheet.inert(), compact=True)

    # Animations: the dice carry data-piece, so the table's own flies each die that
    # changed place (chosen, sent to the tray, brought back) from where it was.

    # -- the end ----------------------------------------------------------------------
    def score_icon(self, icon: str) -> str:
        return f'<span class="chip a-{icon}" aria-hidden="true">{vm.SYMBOLS[icon]}</span>'
