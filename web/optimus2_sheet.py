"""The Optimus 2 score sheet drawn like a pad, and its dice and bonuses, in words for
screen readers: the drawing :mod:`.optimus2_view` puts on the board, the panels and
the player's details (targets carry ``data-move`` from the legal moves)."""

from __future__ import annotations

from collections.abc import Callable

from optimus.i18n import _, pgettext
from optimus.optimus2 import view as vm

from .markup import Markup, html, join


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
