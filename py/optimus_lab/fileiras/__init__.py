"""Offline tools for Fileiras (not shipped to the page)."""

FINGERPRINT: tuple[tuple[tuple[str, ...], int, int], ...] = (
    (("easy", "normal", "hard"), 3, 16),
    (("hard", "hard"), 1, 16),
)
"""The line-ups :mod:`optimus_lab.fingerprint` plays: a level per seat, games, ``hard``'s
iterations per decision."""

BENCH_CLICKS: tuple[str, ...] = ("[data-move^='place']", "[data-move=draw]", "[data-move^='take']")
"""What the bots' bench (``python build.py bench-bots``) clicks for the person, first match
first (sitebuild/benchbots.py)."""

FIRST_VISIT_TIMED = True
"""Its page is the one whose first visit ``python build.py bench-boot`` times."""
