"""The Fileiras table: its set-up fields, its board (deck, drawn card, rows) and its end screen.

The frame (game bar tools, status line, player panels, log, bot loop, dialogs,
saves, focus) is :class:`optimus_web.table.GameTable`.  What can be clicked
comes from the legal moves via :mod:`optimus.fileiras.view`: a legal row, slot
or the deck carries ``data-move``; nothing else reacts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from optimus.fileiras import view as vm
from optimus.i18n import N_, _, ngettext, number
from optimus.ui import table as ui

from .markup import css_string, html, tr_plural
from .router import found
from .table import GameTable, Rect, esc, rect


def card_html(c: vm.Card, size: str = "", key: str = "") -> str:
    """One card: hue, symbol and caption (never colour alone), named for screen readers;
    ``key``: its place on the board (``data-key``)."""
    kind = c.kind
    last = c.last_by
    extra = f" {size}" if size else ""
    badge = ""
    name = _("{card} card", card=c.label)
    if last:
        extra += " last-action"
        if c.last_you:
            name = _("{card} card, placed by you", card=c.label)
        else:
            name = _("{card} card, placed by {who}", card=c.label, who=last)
        # the badge: the person's name, else the seat's number
        seat = c.last_seat
        mark = last if c.last_you or seat is None else str(seat + 1)
        badge = f'<span class="by" aria-hidden="true">{esc(mark)}</span>'
    keyed = f' data-key="{key}"' if key else ""
    # a long caption (Portuguese "Vermelho") is set smaller so it stays on the card
    size_class = " longer" if len(c.caption) > 7 else " long" if len(c.caption) > 6 else ""
    return (
        f'<span class="fcard c-{esc(kind).replace("+", "plus")}{extra}" role="img" '
        f'aria-label="{esc(name)}" data-kind="{esc(kind)}"{keyed}>'
        f'<span class="sym" aria-hidden="true">{esc(c.symbol)}</span>'
        f'<span class="lbl{size_class}" aria-hidden="true">{esc(c.caption)}</span>{badge}</span>'
    )


class FileirasView(GameTable):
    """Router view for ``#/fileiras``."""

    game_id = "fileiras"
    lead = N_("Take rows of cards, collect three colours, avoid the rest.")
    rules = vm.RULES
    end_screen = staticmethod(vm.end_screen)

    # -- set-up -------------------------------------------------------------------
    def player_label(self, n: int) -> str:
        if n == 2:
            return _("2 players (rows of 1, 2 and 3 cards)")
        if n == 3:
            return _("3 players (one colour out)")
        return ngettext("{n} player", "{n} players", n)

    def options_text(self) -> str:
        session = self.session
        if session is None:
            return ""
        opts = session.record.options
        players = len(session.seats)
        parts = [ngettext("{n} player", "{n} players", players)]
        if players == 2:
            parts.append(_("the 2-player variant"))
        elif players == 3:
            parts.append(_("one colour out"))
        return "; ".join([*parts, *self.option_words(opts)]) + "."

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
        draw_words = esc(_("Draw a card"))
        deck_attrs = f' data-move="draw" title="{draw_words}"' if can_draw else ""
        drawn = (
            card_html(t.drawn, "big")
            if t.drawn
            else '<span class="fcard big empty" aria-hidden="true"></span>'
        )
        draw_btn = (
            f'<button type="button" class="btn primary" data-move="draw">{draw_words}</button>'
            if can_draw
            else ""
        )
        removed = ""
        if t.removed:
            out = ", ".join(c.label for c in t.removed)
            words = _("Out of this game: {colours}", colours=out)
            removed = f'<span class="removed">{esc(words)}</span>'
        last = " last" if deck.last_round else ""
        rows = "".join(self._row_html(r) for r in t.rows)
        left = tr_plural(
            "{n} card left", "{n} cards left", deck.count, n=html("<b>{}</b>", number(deck.count))
        )
        round_words = esc(_("round {round}", round=t.round))
        return f"""
<div class="fboard{" scoring-advanced" if t.advanced else ""}">
  <div class="deckbar">
    <div class="deck{" can-draw" if can_draw else ""}" data-role="deck"{deck_attrs}>
      <span class="deck-back" aria-hidden="true">{deck.count}</span></div>
    <div class="deck-info"><span>{left} · {round_words}</span>
      <span class="hint{last}">{esc(deck.hint)}</span>{removed}</div>
    <div class="drawn-slot" data-role="drawn">{drawn}</div>
    <div class="deck-act">{draw_btn}</div>
  </div>
  <ol class="frows" aria-label="{esc(_("Rows"))}">{rows}</ol>
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
            named = esc(_("Place the card on row {row}", row=n))
            action = (
                f'<button type="button" class="btn" data-move="place {n}" '
                f'aria-label="{named}">{esc(_("Place here"))}</button>'
            )
        if r.take:
            classes.append("can-take")
            attrs = f' data-move="take {n}"'
            named = esc(_("Take row {row}", row=n))
            action = (
                f'<button type="button" class="btn" data-move="take {n}" '
                f'aria-label="{named}">{esc(_("Take"))}</button>'
            )
        slots = f'<span class="fcard slot"{slot_attr} aria-hidden="true"></span>' * r.free
        if r.taken_by:
            classes.append("taken")
            by = (
                _("Taken by you")
                if r.taken_seat is not None and r.taken_seat == self.you
                else _("Taken by {who}", who=r.taken_by)
            )
            action = f'<span class="taken-by">{esc(by)}</span>'
        if r.cards:
            described = _("Row {row}: {cards}", row=n, cards=", ".join(c.label for c in r.cards))
        else:
            described = _("Row {row}: empty", row=n)
        return (
            f'<li class="{" ".join(classes)}" data-row="{n}" data-key="row{n}"{attrs} '
            f'aria-label="{esc(described)}">'
            f'<span class="row-n" aria-hidden="true">{n}</span>'
            f'<div class="row-cards">{cards}{slots}</div><div class="row-act">{action}</div></li>'
        )

    def _groups(self, p: vm.Player) -> list[tuple[vm.Group, str, str]]:
        return [(g, "plus" if g.plus else "minus", "+" if g.plus else "−") for g in p.groups]

    def _group_title(self, g: vm.Group) -> str:
        if g.plus:
            return _("{colour}: {n}, counts plus", colour=g.card.label, n=g.count)
        return _("{colour}: {n}, counts minus", colour=g.card.label, n=g.count)

    def panel_summary(self, view: vm.Table, panel: ui.Panel) -> str:
        p = view.players[panel.seat]
        summary = "".join(
            f'<span class="group {kind}" title="{esc(self._group_title(g))}">'
            f"{card_html(g.card, 'mini')}<b>{g.count}</b>"
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
            f"<li>{card_html(g.card, 'mini')}"
            f"<span>{esc(vm.colour_text(g.card.kind, g.count, g.plus))}</span></li>"
            for g in p.groups
        )
        extras = (
            ("joker", _("Jokers: {n}", n=p.jokers), p.jokers),
            ("+2", _("+2 cards: {n}", n=p.plus2), p.plus2),
        )
        for kind, words, count in extras:
            if count:
                detail += f"<li>{card_html(vm.card(kind), 'mini')}<span>{esc(words)}</span></li>"
        empty = f"<li>{esc(_('No cards yet.'))}</li>"
        last = _("Last action: {action}.", action=p.last) if p.last else _("Last action: none yet.")
        return f'<ul class="detail">{detail or empty}</ul><p class="small">{esc(last)}</p>'

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
            row = board.querySelector(f"[data-row={css_string(move.split()[1])}]")
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
            cards = board.querySelectorAll(
                f"[data-row={css_string(move.split()[1])}] .fcard:not(.slot)"
            )
            if cards.length:
                self.fly(cards.item(cards.length - 1), captured, ms)
        elif move.startswith("take") and captured:
            panel = self.root.querySelector(f".panel[data-seat={css_string(seat)}]")
            self.send(captured, panel, ms)
