"""Optimus Table: three tabletop games with local bots, in pure Python (stdlib only).

The package never imports browser modules; the DOM layer lives in ``web/``.
"""

__version__ = "0.1.0"

GAMES = {
    "optimus": "Optimus — grid roll-and-write with colour and number dice, 1-6 players",
    "optimus2": "Optimus 2 — dice roll-and-write with a silver tray, 1-4 players",
    "fileiras": "Fileiras — row-taking card game with colour sets, 2-5 players",
}
