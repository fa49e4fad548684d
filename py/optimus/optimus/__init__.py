"""Optimus: the grid roll-and-write (seed 002).

``sheet`` -- the text format, the validator and the geometry; ``generate`` --
random valid sheets; ``game`` -- the rules engine; ``bots`` -- the bots.
"""
