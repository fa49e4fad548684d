"""The Fileiras table: its set-up fields, its board (deck, drawn card, rows) and its end screen.

The frame (game bar tools, status line, player panels, log, bot loop, dialogs,
saves, focus) is :class:`optimus_web.table.GameTable`.  What can be clicked
comes from the legal moves via :mod:`optimus.fileiras.view`: a legal row, slot
or the deck carries ``data-move``; nothing else reacts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from optimus.core.protocol import JSON
from optimus.fileiras import view as vm
from optimus.ui import table as ui
from optimus.ui.session import TableSession

from .router import found
from .table import GameTable, Rect, esc, rect


def card_html(c: vm.Card, size: str = "", key: str = "") -> str:
    """One card: hue, symbol and caption (never colour alone), named for screen readers;
    ``key``: its place on the board (``data-key``)."""
    kind = c.kind
    last = c.last_by
    extra = f" {size}" if size else ""
    badge = ""
    name = f"{c.label} card"
    if last:
        extra += " last-action"
        name += f", placed by {last}"
        mark = "You" if last == "You" else str(last).rsplit(" ", 1)[-1]  # the seat number
        badge = f'<span class="by" aria-hidden="true">{esc(mark)}</span>'
    keyed = f' data-key="{key}"' if key else ""
    return (
        f'<span class="fcard c-{esc(kind).replace("+", "plus")}{extra}" role="img" '
        f'aria-label="{esc(name)}" data-kind="{esc(kind)}"{keyed}>'
        f'<span class="sym" aria-hidden="true">{esc(c.symbol)}</span>'
        f'<span class="lbl" aria-hidden="true">{esc(c.caption)}</span>{badge}</span>'
    )


class FileirasView(GameTable):
    """Router view for ``#/fileiras``."""

    game_id = "fileiras"
    lead = "Take rows of cards, collect three colours, avoid the rest."
    rules = vm.RULES
    end_screen = staticmethod(vm.end_screen)
    defaults: dict[str, JSON] = {"advanced": False}
    choices: dict[str, Sequence[JSON]] = {"advanced": [True, False]}

    # -- set-up -------------------------------------------------------------------
    def player_label(self, n: int) -> str:
        variants = {2: " (rows of 1, 2 and 3 cards)", 3: " (one colour out)"}
        return f"{n} players{variants.get(n, '')}"

    def setup_fields(self) -> str:
        checked = " checked" if self.settings["advanced"] else ""
        return (
            self.seat_fields()
            + f"""
  <label class="check"><input type="checkbox" name="advanced" data-setting="advanced"{checked}>
    Advanced scoring table (1, 4, 8, 7, 6, 5)</label>"""
        )

    def new_session(self, seed: int) -> TableSession:
        advanced = self.settings["advanced"] is True
        return TableSession(self.game, {"advanced": advanced}, seed, self.seats(seed))

    def options_text(self) -> str:
        session = self.session
        if session is None:
            return ""
        opts = session.record.options
        scoring = (
            "advanced scoring table (1, 4, 8, 7, 6, 5)"
            if opts.get("advanced")
            else ("standard scoring table (1, 3, 6, 10, 15, 21)")
        )
        players = len(session.seats)
        variant = {2: "; the 2-player variant", 3: "; one colour out"}.get(players, "")
        return f"{players} players{variant}; {scoring}."

    # -- the table ------------------------------------------------------------------
    def view(self) -> vm.Table:
        assert self.session is not None
        obs = self.session.state.observation(self.you)
        return vm.table(obs, self.names, self.you)

    def focus_order(self, view: vm.Table) -> Sequence[str]:
        return ("button[data-move^='place']", "button[data-move=draw]", "button[data-move]")

    def board_html(self, t: vm.Table) -> str:
        deck = t.deck
        can_draw = deck.can_draw
        deck_attrs = ' data-move="draw" title="Draw a card"' if can_draw else ""
        drawn = (
            card_html(t.drawn, "big")
            if t.drawn
            else '<span class="fcard big empty" aria-hidden="true"></span>'
        )
        draw_btn = (
            '<button type="button" class="btn primary" data-move="draw">Draw a card</button>'
            if can_draw
            else ""
        )
        removed = ""
        if t.removed:
            out = ", ".join(c.label for c in t.removed)
            removed = f'<span class="removed">Out of this game: {esc(out)}</span>'
        last = " last" if deck.last_round else ""
        rows = "".join(self._row_html(r) for r in t.rows)
        return f"""
<div class="fboard{" scoring-advanced" if t.advanced else ""}">
  <div class="deckbar">
    <div class="deck{" can-draw" if can_draw else ""}" data-role="deck"{deck_attrs}>
      <span class="deck-back" aria-hidden="true">{deck.count}</span></div>
    <div class="deck-info"><span><b>{deck.count}</b> cards left · round {t.round}</span>
      <span class="hint{last}">{esc(deck.hint)}</span>{removed}</div>
    <div class="drawn-slot" data-role="drawn">{drawn}</div>
    <div class="deck-act">{draw_btn}</div>
  </div>
  <ol class="frows" aria-label="Rows">{rows}</ol>
</div>"""

    def _row_html(self, r: vm.Row) -> str:
        n = r.n
        cards = "".join(card_html(c, key=f"r{n}c{j}") for j, c in enumerate(r.cards))
        classes = ["frow"]
        attrs = ""
        action = ""
        slot_attr = ""
        if r.place:
            classes.append("can-place")
            attrs = slot_attr = f' data-move="place {n}"'
            action = (
                f'<button type="button" class="btn" data-move="place {n}" '
                f'aria-label="Place the card on row {n}">Place here</button>'
            )
        if r.take:
            classes.append("can-take")
            attrs = f' data-move="take {n}"'
            action = (
                f'<button type="button" class="btn" data-move="take {n}" '
                f'aria-label="Take row {n}">Take</button>'
            )
        slots = f'<span class="fcard slot"{slot_attr} aria-hidden="true"></span>' * r.free
        if r.taken_by:
            classes.append("taken")
            action = f'<span class="taken-by">Taken by {esc(r.taken_by)}</span>'
        described = ", ".join(c.label for c in r.cards) or "empty"
        return (
            f'<li class="{" ".join(classes)}" data-row="{n}" data-key="row{n}"{attrs} '
            f'aria-label="Row {n}: {esc(described)}">'
            f'<span class="row-n" aria-hidden="true">{n}</span>'
            f'<div class="row-cards">{cards}{slots}</div><div class="row-act">{action}</div></li>'
        )

    def _groups(self, p: vm.Player) -> list[tuple[vm.Group, str, str]]:
        return [(g, "plus" if g.plus else "minus", "+" if g.plus else "−") for g in p.groups]

    def panel_summary(self, view: vm.Table, panel: ui.Panel) -> str:
        p = view.players[panel.seat]
        summary = "".join(
            f'<span class="group {kind}" title="{esc(g.card.label)}: {g.count}, '
            f'counts {kind}">{card_html(g.card, "mini")}<b>{g.count}</b>'
            f'<i aria-hidden="true">{sign}</i></span>'
            for g, kind, sign in self._groups(p)
        )
        for kind, count in (("joker", p.jokers), ("+2", p.plus2)):
            if count:
                summary += (
                    f'<span class="group">{card_html(vm.card(kind), "mini")}<b>{count}</b></span>'
                )
        return summary

    def panel_detail(self, view: vm.Table, panel: ui.Panel) -> str:
        p = view.players[panel.seat]
        detail = "".join(
            f"<li>{card_html(g.card, 'mini')}<span>{g.card.label}: {g.count} "
            f"{'card' if g.count == 1 else 'cards'}, counts {kind}</span></li>"
            for g, kind, _ in self._groups(p)
        )
        for kind, label, count in (("joker", "Jokers", p.jokers), ("+2", "+2 cards", p.plus2)):
            if count:
                detail += (
                    f"<li>{card_html(vm.card(kind), 'mini')}<span>{label}: {count}</span></li>"
                )
        return (
            f'<ul class="detail">{detail or "<li>No cards yet.</li>"}</ul>'
            f'<p class="small">Last action: {esc(p.last or "none yet")}.</p>'
        )

    # -- the end ----------------------------------------------------------------------
    def score_icon(self, icon: str) -> str:
        return card_html(vm.card(icon), "mini")

    # -- animations -------------------------------------------------------------------
    def capture(self, seat: int, move: str) -> Any:
        board = self.board()
        if move == "draw":
            return rect(board.querySelector("[data-role=deck]"))
        if move.startswith("place"):
            return rect(board.querySelector("[data-role=drawn] .fcard"))
        if move.startswith("take"):
            row = board.querySelector(f'[data-row="{move.split()[1]}"]')
            pieces: list[tuple[Rect, str]] = []
            if not found(row):
                return pieces
            for node in row.querySelectorAll(".fcard:not(.slot)"):
                box = rect(node)
                if box is not None:
                    pieces.append((box, str(node.outerHTML)))
            return pieces
        return None

    def animate(self, captured: Any, seat: int, move: str, ms: int) -> None:
        board = self.board()
        if move == "draw":
            self.fly(board.querySelector("[data-role=drawn] .fcard"), captured, ms)
        elif move.startswith("place"):
            cards = board.querySelectorAll(f'[data-row="{move.split()[1]}"] .fcard:not(.slot)')
            if cards.length:
                self.fly(cards.item(cards.length - 1), captured, ms)
        elif move.startswith("take") and captured:
            panel = self.root.querySelector(f'.panel[data-seat="{seat}"]')
            self.send(captured, panel, ms)
