"""The Tiny table: the worked example of a game page (docs/adding-a-game.md).

A game needs its rules (``optimus/tiny/game.py``), its view data
(``optimus/tiny/view.py``) and this board; its description in
:data:`optimus.games.GAMES` gives the title, players and bot levels, and the
shared :class:`~optimus_web.table.GameTable` draws the rest (set-up form,
status line, panels, log, dialogs, end screen) and runs the bots.
"""

from __future__ import annotations

from typing import Any

from optimus.i18n import N_, _
from optimus.tiny import view as vm

from .markup import Markup, html, join
from .motion import rect
from .table import GameTable


class TinyView(GameTable):
    """Router view for ``#/tiny``."""

    game_id = "tiny"
    lead = N_("Keep the die or draw a card; the others bet on the next roll.")
    rules = vm.RULES
    end_screen = staticmethod(vm.end_screen)

    def view(self) -> vm.Table:
        session = self.session
        assert session is not None
        you = self.you
        watching = self.watching()  # a replay: nobody's decision
        legal = session.state.legal_moves(you) if you is not None and not watching else []
        obs = session.state.observation(you)
        return vm.table(obs, self.names, you, legal, session.record.events)

    def board_html(self, t: vm.Table) -> Markup:
        die = f"{t.roll}" if t.roll else "·"
        card = f"{t.card}" if t.card else ""
        deck = join(
            html(
                '<li data-key="deck-{c}" aria-label="{n} × {c}">{c}<small>×{n}</small></li>',
                c=c,
                n=n,
            )
            for c, n in t.deck
        )
        buttons = join(
            html(
                '<button type="button" class="btn" data-move="{move}" '
                'data-key="move-{move}">{label}</button>',
                move=c.move,
                label=c.label,
            )
            for c in t.choices
        )
        return html(
            """
<div class="tboard">
  <p class="small">{rounds}</p>
  <div class="tpieces">
    <span class="tdie" data-key="die" role="img" aria-label="{die_said}"
      >{die}</span>
    <span class="tcard{empty}" data-key="card" role="img"
      aria-label="{card_said}">{card}</span>
    <ol class="tdeck" aria-label="{deck_said}">{deck}</ol>
  </div>
  <p class="tchoices" role="group" aria-label="{choice_said}">{buttons}</p>
</div>""",
            rounds=_("Round {n} of {rounds}", n=t.round, rounds=t.rounds),
            die_said=_("Die: {die}", die=die),
            die=die,
            empty="" if card else " empty",
            card_said=_("Card: {card}", card=card) if card else _("No card"),
            card=card,
            deck_said=_("Deck"),
            deck=deck,
            choice_said=_("Your choice"),
            buttons=buttons,
        )

    # The card flies from the deck when drawn.
    def capture(self, seat: int, move: str) -> Any:
        return rect(self.board().querySelector(".tdeck")) if move == "draw" else None

    def animate(self, captured: Any, seat: int, move: str, ms: int) -> None:
        if move == "draw":
            self.fly(self.board().querySelector("[data-key=card]"), captured, ms)
