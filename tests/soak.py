"""How many seeded random games the games' conformance tests play per player count.

The suite plays a number that keeps it within its time on a 2-core machine; a longer
soak of the rules is the same tests with ``OPTIMUS_SOAK_GAMES`` set, e.g.
``OPTIMUS_SOAK_GAMES=5000 python -m pytest tests/optimus/test_protocol.py -k fast``.
"""

from __future__ import annotations

import os


def soak_games(default: int) -> int:
    """``OPTIMUS_SOAK_GAMES`` when set to a whole number of at least 4, else ``default``."""
    raw = os.environ.get("OPTIMUS_SOAK_GAMES", "")
    return int(raw) if raw.isdigit() and int(raw) >= 4 else default
