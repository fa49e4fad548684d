"""The Optimus 2 table: set-up, the dice zone, the score sheet drawn like a pad, the end screen.

The frame (game bar tools, status line, player panels, log, bot loop, dialogs,
saves, focus) is :class:`optimus_web.table.GameTable`.  Everything that can be
clicked comes from the legal moves via :mod:`optimus.optimus2.view`: a die with
a legal entry can be chosen (``data-action="die"``), then each cell it may go
to carries ``data-move``; bonus questions, rerolls, returns and extra dice
appear exactly when the engine offers them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from optimus.i18n import N_, _, ngettext
from optimus.optimus2 import view as vm
from optimus.optimus2.sheet import load_sheet
from optimus.ui import table as ui
from optimus.ui.session import TableSession

from .markup import Markup, html, join
from .motion import reveal
from .optimus2_sheet import die_html, sheet_html
from .table import GameTable

PLACE_HEAD = {"hand": N_("Rolled"), "field": N_("Die fields"), "tray": N_("Silver tray")}
"""The heading of each group of dice (shown through ``_``)."""


class Optimus2View(GameTable):
    """Router view for ``#/optimus2``."""

    game_id = "optimus2"
    lesson_targets = {  # optimus/optimus2/view_lesson.py
        "dice": "#game .dicezone",
        "tray": "#game .dgroup.g-tray",
        "die": "#game .dicezone [data-die={}]",
        "total": "#game [data-role=sheet-total]",
    }
    lead = N_(
        "Choose three dice a turn, enter them on your sheet, chain bonuses, "
        "and keep every area growing for the foxes."
    )
    rules = vm.RULES
    end_screen = staticmethod(vm.end_screen)

    def __init__(self) -> None:
        super().__init__()
        self.selected: str | None = None
        self.picked = False
        """Whether the person chose ``selected`` (not the only die there was): a step
        Undo takes back first."""

    # -- set-up -------------------------------------------------------------------
    def player_label(self, n: int) -> str:
        rounds = load_sheet().rounds_for(n)
        if n == 1:
            return _("1 player (solo, {rounds} rounds)", rounds=rounds)
        return _("{n} players ({rounds} rounds)", n=n, rounds=rounds)

    def options_text(self, session: TableSession) -> str:
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
        if self.watching():  # a replay: nobody's decision, nothing lights up
            obs = {**obs, "legal_moves": []}
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

    def symbols(self) -> Sequence[ui.Symbol]:
        return vm.symbols()

    def symbol_html(self, symbol: ui.Symbol) -> Markup:
        """A die as the dice zone draws it; the rest as the sheet writes it."""
        if symbol.piece.startswith("die-"):
            die = symbol.piece.removeprefix("die-")
            return html(
                '<span class="die d-{}"><span class="pip">{}</span></span>',
                die,
                symbol.glyph,
            )
        return super().symbol_html(symbol)

    def reset_input(self) -> None:
        self.selected = None  # the die chosen for a decision taken back
        self.picked = False

    def move_in_progress(self) -> bool:
        session = self.session
        mine = session is not None and self.you is not None and session.human_to_act() == self.you
        return mine and self.picked and self.selected is not None

    def step_back(self) -> bool:
        if not self.move_in_progress():
            return False
        self.reset_input()
        self.error = ""
        self.render(moved=True)
        return True

    def board_action(self, action: str, target: Any) -> bool:
        if action != "die":
            return False
        self._select(target)
        return True

    def _select(self, target: Any) -> None:
        name = str(target.getAttribute("data-die"))
        self.selected = None if self.selected == name else name
        self.picked = self.selected is not None
        self.render(moved=True)
        if self.selected is not None:  # the areas the die may go to come into view
            areas = self.board().querySelectorAll(".o2sheet .area:has(.target)")
            reveal(areas, ".o2controls")

    def human_move(self, move: str) -> None:
        self.reset_input()
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
