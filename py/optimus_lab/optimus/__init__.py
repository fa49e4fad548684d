"""Offline tools for Optimus (not shipped to the page)."""

FINGERPRINT: tuple[tuple[tuple[str, ...], int, int], ...] = (
    (("easy", "normal", "hard"), 2, 4),
    (("hard",), 1, 4),
)
"""The line-ups :mod:`optimus_lab.fingerprint` plays: a level per seat, games, ``hard``'s
iterations per decision."""

BENCH_CLICKS: tuple[str, ...] = ("button[data-move=pass]",)
"""What the bots' bench (``python build.py bench-bots``) clicks for the person, first match
first (sitebuild/benchbots.py)."""
