"""Optimus Table: tabletop games with local bots, in pure Python (stdlib only).

The package never imports browser modules; the DOM layer lives in ``web/``.
"""

__version__ = "0.1.0"
