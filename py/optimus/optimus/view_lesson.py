"""Optimus's guided game (Learn to play, :mod:`optimus.ui.lesson`): alone, the Harbour
sheet, seed 4, whose first roll (yellow or red, 1 or 3) lets a yellow 3 reach the star
in G1.  The targets ``dice``, ``die:<face>`` and ``box:<box>`` are the table's
(web/optimus_view.py)."""

from __future__ import annotations

from optimus.i18n import N_
from optimus.ui.lesson import Lesson, Step


def lesson() -> Lesson:
    """The steps, checked against the rules by tests/ui/test_lesson.py."""
    return Lesson(
        seed=4,
        options={"sheet": "harbour", "bonuses": True},
        steps=(
            Step(
                "dice",
                N_(
                    "You play alone: 30 rolls. Each roll gives two colour dice and two "
                    "number dice; you use one of each to cross out boxes, or pass."
                ),
            ),
            Step(
                "die:y",
                N_("Tap the yellow die ●: this roll you mark yellow boxes."),
                tap=True,
            ),
            Step(
                "die:3",
                N_("Now tap the 3: you must mark exactly three yellow boxes, never fewer."),
                tap=True,
            ),
            Step(
                "box:G1",
                N_(
                    "The boxes you can use light up. Tap G1: it has a star ★, and every star "
                    "left unmarked costs 2 points at the end."
                ),
                tap=True,
                wrong=N_("That box is lit, but this lesson takes G1, G2 and H2: tap G1."),
            ),
            Step(
                "box:G2",
                N_("Tap G2: the new boxes must touch side by side, in one block of yellow."),
                tap=True,
                wrong=N_("That box is lit, but this lesson takes G1, G2 and H2: tap G2."),
            ),
            Step(
                "box:H2",
                N_(
                    "And H2: one new box must be in column H, the start, or next to a box "
                    "you marked before."
                ),
                tap=True,
                wrong=N_("That box is lit, but this lesson takes G1, G2 and H2: tap H2."),
            ),
            Step(
                "move",
                N_("Confirm crosses the three boxes out. Until then a tap on a box rubs it out."),
                moves=("y3 G1 G2 H2",),
                wrong=N_("Pencil G1, G2 and H2, then Confirm."),
            ),
            Step(
                "score",
                N_(
                    "Your score so far. The 15 stars start at −2 each; completed columns "
                    "and colours and unused “!” bring points."
                ),
            ),
            Step(
                "undo",
                N_("Changed your mind? Undo, or Ctrl+Z, takes back your last step."),
            ),
            Step(
                "status",
                N_(
                    "The rest is yours: 29 rolls to go. Aim for columns and stars, and keep "
                    "your “!” jokers. Stuck? Hint in the game bar shows the best move."
                ),
            ),
        ),
    )
