"""Optimus 2's guided game (Learn to play, :mod:`optimus.ui.lesson`): alone, seed 1,
whose first roll has the lowest die in yellow and a blue 5 beside a white 5 next.  The
targets ``dice``, ``tray``, ``total`` and ``die:<colour>`` are the table's
(web/optimus2_view.py)."""

from __future__ import annotations

from optimus.i18n import N_
from optimus.ui.lesson import Lesson, Step


def lesson() -> Lesson:
    """The steps, checked against the rules by tests/ui/test_lesson.py."""
    return Lesson(
        seed=1,
        steps=(
            Step(
                "dice",
                N_(
                    "You play alone: six rounds. In your turn you choose up to three dice, "
                    "one roll at a time, and write each in the area of its colour; white is wild."
                ),
            ),
            Step(
                "die:yellow",
                N_(
                    "Tap the yellow 1. Every rolled die lower than the one you choose goes "
                    "to the silver tray: the lowest sends none there."
                ),
                tap=True,
            ),
            Step(
                "move",
                N_(
                    "Tap the lit 1 in yellow: a die circles a cell of its value, and a second "
                    "one crosses it. Only crosses score."
                ),
                moves=("yellow r2c1",),
            ),
            Step(
                "die:blue",
                N_(
                    "The other dice were rolled again. Tap the blue 5: blue counts blue + "
                    "white, 5 + 5 = 10. The green 2 and the silver 4 go to the tray."
                ),
                tap=True,
            ),
            Step(
                "move",
                N_(
                    "Tap the lit blue slot: each blue value must be no higher than the one "
                    "before, so a high start leaves room."
                ),
                moves=("blue",),
            ),
            Step(
                "die:pink",
                N_(
                    "Your third and last choice: tap the pink 5, then the lit pink slot. "
                    "Pink scores the sum of its values."
                ),
                moves=("pink",),
            ),
            Step(
                "tray",
                N_(
                    "Your turn is over. Alone, all six dice are rolled again and the three "
                    "lowest go to the silver tray: you take one of them."
                ),
            ),
            Step(
                "die:yellow",
                N_(
                    "Tap the yellow 2 in the tray, then the lit 2 in row 2: a fully circled "
                    "row of yellow gives the bonus beside it."
                ),
                moves=("yellow r2c3",),
            ),
            Step(
                "total",
                N_(
                    "Your total: the five areas plus your foxes. Each fox is worth your "
                    "lowest area, so keep every area scoring."
                ),
            ),
            Step(
                "status",
                N_(
                    "The rest is yours: the status line always says what to do. Stuck? "
                    "Hint in the game bar shows the best move."
                ),
            ),
        ),
    )
