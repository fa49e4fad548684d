"""Offline tools for Optimus 2 (not shipped to the page)."""

FINGERPRINT: tuple[tuple[tuple[str, ...], int, int], ...] = (
    (("easy", "normal", "hard"), 1, 3),
    (("hard",), 1, 3),
)
"""The line-ups :mod:`optimus_lab.fingerprint` plays: a level per seat, games, ``hard``'s
iterations per decision."""

BENCH_CLICKS: tuple[str, ...] = (
    ".o2controls button[data-move^='choose']",
    ".o2controls button[data-move^='write']",
    ".board .o2sheet button.target",
    ".dicezone button.die[data-action=die]",
    ".o2controls button[data-move=roll]",
    ".o2controls button[data-move=end]",
    ".o2controls button[data-move=done]",
    ".o2controls button[data-move=pass]",
)
"""What the bots' bench (``python build.py bench-bots``) clicks for the person, first match
first (sitebuild/benchbots.py)."""
