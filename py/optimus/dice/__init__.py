"""Optimus 2, the dice roll-and-write for 1-4 players: sheet data, rules and bots.

Modules: :mod:`~optimus.dice.sheet` (the sheet definition file, its loader and
the rules and scoring of each area), :mod:`~optimus.dice.moves` (move text),
:mod:`~optimus.dice.game` (the rules engine).

Rules with their sources: ``docs/rules/optimus2.md``.
"""
