"""Fileiras's guided game (Learn to play, :mod:`optimus.ui.lesson`): you against one
``easy`` bot, seed 1, where you start and draw a joker.  The targets are the table's
shared ones and ``move`` (the deck, a row: web/fileiras_view.py)."""

from __future__ import annotations

from optimus.i18n import N_
from optimus.ui.lesson import Lesson, Step


def lesson() -> Lesson:
    """The steps, checked against the rules by tests/ui/test_lesson.py."""
    return Lesson(
        seed=1,
        bots=("easy",),
        steps=(
            Step(
                "panels",
                N_(
                    "You against one bot. At the end your three biggest colours score plus "
                    "and every other colour minus: collect few colours, many cards of each."
                ),
            ),
            Step(
                "move",
                N_(
                    "Your turn: draw a card and place it in a row, or take a row. Tap the "
                    "deck to draw."
                ),
                moves=("draw",),
            ),
            Step(
                "move",
                N_(
                    "A joker ✱: at scoring it becomes whatever colour helps you most. Place "
                    "it in row 1: that row holds one card, so nobody can spoil it."
                ),
                moves=("place 1",),
                wrong=N_("Place the joker in row 1, the row the bubble points at."),
            ),
            Step(
                "move",
                N_(
                    "Take row 1 now, before the bot does: the joker joins your cards, and "
                    "you sit out the rest of the round."
                ),
                moves=("take 1",),
                wrong=N_("Take row 1, the row the bubble points at."),
            ),
            Step(
                "move",
                N_(
                    "A new round. The bot put a brown ♣ in row 1, and you already have one: "
                    "take it. Two of a colour score 3, three score 6."
                ),
                moves=("take 1",),
                wrong=N_("Take row 1, the row the bubble points at."),
            ),
            Step(
                "score",
                N_(
                    "Your score, counted as if the game ended now: the joker already counts "
                    "where it helps most."
                ),
            ),
            Step(
                "undo",
                N_("Changed your mind? Undo, or Ctrl+Z, takes back your last move."),
            ),
            Step(
                "status",
                N_(
                    "The rest is yours: when the last-round card ⚑ comes out, that round is "
                    "the last. Stuck? Hint in the game bar shows the best move."
                ),
            ),
        ),
    )
