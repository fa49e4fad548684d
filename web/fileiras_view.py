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
from optimus.ui.session import TableSession

from .markup import Markup, css_string, html, join, tr_plural
from .router import found
from .table import GameTable, Rect, rect


def card_html(c: vm.Card, size: str = "", key: str = "") -> Markup:
    """One card: hue, symbol and caption (never colour alone), named for screen readers;
    ``key``: its place on the board (``data-key``)."""
    kind = c.kind
    last = c.last_by
    extra = f" {size}" if size else ""
    badge = Markup()
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
        badge = html('<span class="by" aria-hidden="true">{}</span>', mark)
    # a long caption (Portuguese "Vermelho") is set smaller so it stays on the card
    size_class = " longer" if len(c.caption) > 7 else " long" if len(c.caption) > 6 else ""
    return html(
        '<span class="fcard c-{hue}{extra}" role="img" '
        'aria-label="{name}" data-kind="{kind}"{keyed}>'
        '<span class="sym" aria-hidden="true">{symbol}</span>'
        '<span class="lbl{size_class}" aria-hidden="true">{caption}</span>{badge}</span>',
        hue=kind.replace("+", "plus"),
        extra=extra,
        name=name,
        kind=kind,
        keyed=html(' data-key="{}"', key) if key else "",
        symbol=c.symbol,
        size_class=size_class,
        caption=c.caption,
        badge=badge,
    )


def group_html(g: vm.Group) -> Markup:
    """A colour a player collected, on their panel: a mini card, how many, and whether
    it counts plus or minus now (in its title, for the ear)."""
    if g.plus:
        kind, sign = "plus", "+"
        title = _("{colour}: {n}, counts plus", colour=g.card.label, n=g.count)
    else:
        kind, sign = "minus", "−"
        title = _("{colour}: {n}, counts minus", colour=g.card.label, n=g.count)
    return html(
        '<span class="group {kind}" title="{title}">{card}<b>{count}</b>'
        '<i aria-hidden="true">{sign}</i></span>',
        kind=kind,
        title=title,
        card=card_html(g.card, "mini"),
        count=g.count,
        sign=sign,
    )


def _row_button(move: str, named: str, word: str) -> Markup:
    """A row's button: the move it plays, its name for screen readers, its word."""
    return html(
        '<button type="button" class="btn" data-move="{}" aria-label="{}">{}</button>',
        move,
        named,
        word,
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

    def options_text(self, session: TableSession) -> str:
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
        if self.watching():  # a replay: nobody's decision, nothing lights up
            obs = {**obs, "legal_moves": []}
        return vm.table(obs, self.names, self.you)

    def move_targets(self, move: str, seat: int) -> list[str]:
        """A row taken; the card drawn and the row it is placed on; the deck drawn from."""
        if move == "draw":
            return ["[data-role=deck]"]
        verb, _space, row = move.partition(" ")
        rows = [f"li[data-row={css_string(row)}]"]
        return ["[data-role=drawn] .fcard", *rows] if verb == "place" else rows

    def focus_order(self, view: vm.Table) -> Sequence[str]:
        return ("button[data-move^='place']", "button[data-move=draw]", "button[data-move]")

    def board_html(self, t: vm.Table) -> Markup:
        deck = t.deck
        can_draw = deck.can_draw
        draw_words = _("Draw a card")
        cards_left = ngettext("{n} card left", "{n} cards left", deck.count)
        deck_attrs = (  # what a long press on the deck says (web/hints.py)
            html(' data-move="draw" title="{}"', draw_words)
            if can_draw
            else html(' title="{}"', cards_left)
        )
        drawn = (
            card_html(t.drawn, "big")
            if t.drawn
            else Markup('<span class="fcard big empty" aria-hidden="true"></span>')
        )
        draw_btn = (
            html(
                '<button type="button" class="btn primary" data-move="draw">{}</button>', draw_words
            )
            if can_draw
            else ""
        )
        removed = Markup()
        if t.removed:
            out = vm.card_words(c.kind for c in t.removed)
            words = _("Out of this game: {colours}", colours=out)
            removed = html('<span class="removed">{}</span>', words)
        left = tr_plural(
            "{n} card left", "{n} cards left", deck.count, n=html("<b>{}</b>", number(deck.count))
        )
        return html(
            """
<div class="fboard{advanced}">
  <div class="deckbar">
    <div class="deck{can_draw}" data-role="deck"{deck_attrs}>
      <span class="deck-back" aria-hidden="true">{count}</span></div>
    <div class="deck-info"><span>{left} · {round_words}</span>
      <span class="deck-hint{last}" data-role="deck-hint">{hint}</span>{removed}</div>
    <div class="drawn-slot" data-role="drawn">{drawn}</div>
    <div class="deck-act">{draw_btn}</div>
  </div>
  <ol class="frows" aria-label="{rows_said}">{rows}</ol>
</div>""",
            advanced=" scoring-advanced" if t.advanced else "",
            can_draw=" can-draw" if can_draw else "",
            deck_attrs=deck_attrs,
            count=deck.count,
            left=left,
            round_words=_("round {round}", round=t.round),
            last=" last" if deck.last_round else "",
            hint=deck.hint,
            removed=removed,
            drawn=drawn,
            draw_btn=draw_btn,
            rows_said=_("Rows"),
            rows=join(self._row_html(r) for r in t.rows),
        )

    def _row_html(self, r: vm.Row) -> Markup:
        n = r.n
        cards = join(card_html(c, key=f"r{n}c{j}") for j, c in enumerate(r.cards))
        classes = ["frow"]
        attrs = Markup()
        action = Markup()
        slot_attr = Markup()
        if r.place:
            classes.append("can-place")
            attrs = slot_attr = html(' data-move="place {}"', n)
            action = _row_button(
                f"place {n}", _("Place the card on row {row}", row=n), _("Place here")
            )
        if r.take:
            classes.append("can-take")
            attrs = html(' data-move="take {}"', n)
            action = _row_button(f"take {n}", _("Take row {row}", row=n), _("Take"))
        slots = html('<span class="fcard slot"{}', slot_attr) + Markup(
            ' aria-hidden="true"></span>'
        )
        if r.taken_by:
            classes.append("taken")
            by = (
                _("Taken by you")
                if r.taken_seat is not None and r.taken_seat == self.you
                else _("Taken by {who}", who=r.taken_by)
            )
            action = html('<span class="taken-by">{}</span>', by)
        if r.cards:
            described = _("Row {row}: {cards}", row=n, cards=vm.card_words(c.kind for c in r.cards))
        else:
            described = _("Row {row}: empty", row=n)
        return html(
            '<li class="{classes}" data-row="{n}" data-key="row{n}"{attrs} '
            'aria-label="{described}">'
            '<span class="row-n" aria-hidden="true">{n}</span>'
            '<div class="row-cards">{cards}{slots}</div><div class="row-act">{action}</div></li>',
            classes=" ".join(classes),
            n=n,
            attrs=attrs,
            described=described,
            cards=cards,
            slots=Markup(slots * r.free),
            action=action,
        )

    def panel_summary(self, view: vm.Table, panel: ui.Panel) -> Markup:
        p = view.players[panel.seat]
        summary = join(group_html(g) for g in p.groups)
        for kind, count in (("joker", p.jokers), ("+2", p.plus2)):
            if count:
                summary += html(
                    '<span class="group">{}<b>{}</b></span>',
                    card_html(vm.card(kind), "mini"),
                    count,
                )
        return summary

    def panel_detail(self, view: vm.Table, panel: ui.Panel) -> Markup:
        p = view.players[panel.seat]
        detail = join(
            html(
                "<li>{}<span>{}</span></li>",
                card_html(g.card, "mini"),
                vm.colour_text(g.card.kind, g.count, g.plus),
            )
            for g in p.groups
        )
        extras = (
            ("joker", _("Jokers: {n}", n=p.jokers), p.jokers),
            ("+2", _("+2 cards: {n}", n=p.plus2), p.plus2),
        )
        for kind, words, count in extras:
            if count:
                detail += html(
                    "<li>{}<span>{}</span></li>", card_html(vm.card(kind), "mini"), words
                )
        empty = html("<li>{}</li>", _("No cards yet."))
        last = _("Last action: {action}.", action=p.last) if p.last else _("Last action: none yet.")
        return html('<ul class="detail">{}</ul><p class="small">{}</p>', detail or empty, last)

    # -- the symbols' screen --------------------------------------------------------------
    def symbols(self) -> Sequence[ui.Symbol]:
        return vm.symbols()

    def symbol_html(self, symbol: ui.Symbol) -> Markup:
        if symbol.piece.startswith("card-"):
            return card_html(vm.card(symbol.piece.removeprefix("card-")), "mini")
        return super().symbol_html(symbol)

    # -- the end ----------------------------------------------------------------------
    def score_icon(self, icon: str) -> Markup:
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
