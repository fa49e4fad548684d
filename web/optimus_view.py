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
from .markup import css_string
from .optimus_pencil import PencilInput, die_html, joker_names_html, markbar_html
from .router import found
from .table import GameTable, esc

RECENT = 5  # random sheets kept to be played again
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
        self.input = PencilInput(self)
        """The marking in progress (web/optimus_pencil.py)."""
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
        pencil = self.input.for_view(mine, obs)

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
        now = self.input.focus_now  # the control just used, once
        order = [now] if now else []
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
        names = joker_names_html(v) if mine else ""
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
  {markbar_html(v, pencil)}
</div>"""

    def reset_input(self) -> None:
        self.input.reset()

    def board_action(self, action: str, target: Any) -> bool:
        return self.input.action(action, target)

    def mount(self, container: Any) -> None:
        super().mount(container)
        self.input.mount(self.section)

    def unmount(self) -> None:
        self.input.unmount(self.section)
        super().unmount()

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
            scope = "[data-role=sheet]" if p == self.you else f".panel[data-seat={css_string(p)}]"
            delay = order * ms * 0.6
            order += 1
            timing = _keyframes({"duration": ms, "delay": delay, "fill": "backwards"})
            for i in bits(added):
                cell = screen.querySelector(f"{scope} [data-box={css_string(box_name(i))}]")
                if found(cell):
                    cell.animate(frames, timing)
