"""Learn Optimus's solo value network on the standard sheets only.

``nice -n 19 env PYTHONPATH=py python -m optimus_lab.optimus.standard train --run DIR
[--resume] [--jobs N]`` (the options of :mod:`optimus_lab.optimus.net`)

:mod:`optimus_lab.optimus.net`'s training (TD(lambda), the same schedules and held-out
evaluation), every training game on a standard sheet (harbour and orchard in turn:
:func:`optimus_lab.optimus.net.standard_layout`) where that trainer plays two games of
three on random sheets. The network learns the sheets the table offers by name (harbour
is the default, and the arena's) better, and other sheets less: the game is the same
with a sheet mirrored, yet the networks trained on the mixed sheets score 2-3.5
points less greedily on a mirrored standard sheet than on the sheet itself, the same
dice (:mod:`optimus_lab.optimus.mirror`, docs/bots.md). A run can start from a run of
:mod:`optimus_lab.optimus.net` (copy its ``state.npz`` and ``curve.jsonl`` into a new
folder, then ``train --resume``). The exported JSON is :mod:`optimus_lab.optimus.net`'s
(``export``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from optimus_lab.optimus.net import DEFAULTS as NET_DEFAULTS
from optimus_lab.optimus.net import OptimusRun, export, play, speed, standard_layout
from optimus_lab.tdnet import Block, Episode
from optimus_lab.tdnet import main as tdnet_main

DEFAULTS: dict[str, Any] = {**NET_DEFAULTS, "sheets": "standard"}
""":mod:`optimus_lab.optimus.net`'s settings; ``sheets`` records the training sheets."""


def play_block(args: Block) -> list[Episode]:
    """:func:`optimus_lab.optimus.net.play`'s games, the training ones on the standard
    sheets."""
    p, seed, games, epsilons, _caps, label, _players = args
    return [
        play(p, seed, g, e, label, sheets=standard_layout)
        for g, e in zip(games, epsilons, strict=True)
    ]


class StandardRun(OptimusRun):
    """A run of Optimus's solo network on the standard sheets."""

    defaults = DEFAULTS
    play_block = staticmethod(play_block)


def main(argv: Sequence[str] | None = None) -> None:
    tdnet_main(StandardRun, argv, "optimus_lab.optimus.standard", __doc__, export, speed)


if __name__ == "__main__":
    main()
