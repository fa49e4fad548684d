"""Offline tools for the bots: training, tuning, strength runs and benchmarks.

Nothing here ships to the page (the build packs ``py/optimus`` only); every
module is a command line run from a clone with ``PYTHONPATH=py``:

* :mod:`optimus_lab.slices` -- how long ``hard`` thinks between two yields,
  any game (``python -m optimus_lab.slices <game> --games 1``);
* :mod:`optimus_lab.fingerprint` -- a hash of the bots' moves in fixed games and
  their CPU time per decision, to check that a change keeps every move;
* ``optimus_lab.<game>``, a game's own tools: ``train`` fits its learned
  evaluation (``optimus/<game>/value_weights.json`` and the like), ``tune`` its
  hand-made weights, ``strength`` game-by-game strength runs with CPU decision
  times, ``bench`` its engine's speed (each game has those it needs).

docs/bots.md says how they are used and what they measure.  What a tool needs
to know of one game (its fingerprint's line-ups, what a scripted person clicks
in the bots' bench) is declared in that game's lab package,
``optimus_lab.<id>``, and gathered by :func:`per_game`.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from typing import Any

# One BLAS thread a process, set before any lab module imports numpy: the trainers'
# products are small (threads only wait on a busy machine: a training episode takes
# half the time), and a run's numbers do not depend on the machine's cores.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")


def per_game(name: str) -> dict[str, Any]:
    """What each game's lab package (``optimus_lab.<id>``) declares as ``name``, by game
    in the descriptions' order; a game with no lab package, or no ``name``, is left out.

    >>> from optimus.games import GAMES
    >>> set(per_game("FINGERPRINT")) <= set(GAMES), per_game("NOTHING_OF_THAT_NAME")
    (True, {})
    """
    from optimus.games import GAMES

    found = {}
    for game in GAMES:
        if importlib.util.find_spec(f"optimus_lab.{game}") is None:
            continue
        lab = importlib.import_module(f"optimus_lab.{game}")
        if hasattr(lab, name):
            found[game] = getattr(lab, name)
    return found
