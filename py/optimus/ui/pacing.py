"""The table's pace: the speed setting (bots' actions, animations) and how long bots think.

>>> bot_delay("instant", reduced_motion=False), bot_delay("normal", reduced_motion=True)
(0.0, 0.8)
>>> animation_ms("normal", reduced_motion=True)
0
"""

from __future__ import annotations

from collections.abc import Mapping

from optimus.i18n import N_

from .words import Words

SPEEDS: dict[str, float] = {"instant": 0.0, "fast": 0.35, "normal": 0.8, "slow": 1.4}
"""Seconds from one bot action to the next, per speed setting."""

SPEED_LABELS: Mapping[str, str] = Words(
    {
        "instant": N_("Instant (no animation)"),
        "fast": N_("Fast"),
        "normal": N_("Normal"),
        "slow": N_("Slow"),
    }
)
"""The speed setting's choices, in the language spoken when read."""

THINKING: dict[str, float] = {"quick": 800.0, "careful": 4000.0}
"""Per "Bots think" setting, what the bots between two of a person's decisions share
(ms of wall time, :attr:`optimus.ui.session.TableSession.wait_ms`): "quick" answers in
about a second; "careful" lets a searching bot use its whole budget on most devices."""

THINKING_LABELS: Mapping[str, str] = Words(
    {
        "quick": N_("Quickly (about a second)"),
        "careful": N_("Carefully (a few seconds, stronger)"),
    }
)
"""The "Bots think" setting's choices, in the language spoken when read."""


def bot_delay(speed: str, reduced_motion: bool) -> float:
    """Seconds between two bot actions.

    Reduced motion removes movement, not pacing: the table still waits so that a
    player can follow each action.
    """
    del reduced_motion
    return SPEEDS.get(speed, SPEEDS["normal"])


def animation_ms(speed: str, reduced_motion: bool) -> int:
    """How long a card or die travels (0: it just appears in its new place)."""
    if reduced_motion:
        return 0
    return int(min(600.0, SPEEDS.get(speed, SPEEDS["normal"]) * 700))
