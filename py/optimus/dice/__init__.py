"""Optimus 2, the dice roll-and-write for 1-4 players: sheet data, rules and bots.

Modules: :mod:`~optimus.dice.sheet` (the sheet definition file
``sheets/standard.json``, its loader and the rules and scoring of each area),
:mod:`~optimus.dice.moves` (move text), :mod:`~optimus.dice.game` (the rules
engine), :mod:`~optimus.dice.scenario` (positions by naming the dice),
:mod:`~optimus.dice.heuristics` and :mod:`~optimus.dice.bots` (bots),
:mod:`~optimus.dice.bench` (engine speed; :mod:`optimus.core.slices` times
the bots' thinking slices).

Public API for the table UI:

* :class:`~optimus.dice.game.Optimus2Game` / :class:`~optimus.dice.game.Optimus2State`
  (the protocol of :mod:`optimus.core.protocol`); each observation holds every
  player's sheet (``sheets[p]``: marks, area scores, total, pending questions)
  and the six dice with their place (``hand``, ``field``, ``tray``);
* :func:`~optimus.dice.sheet.load_sheet` (the sheet's numbers for drawing it).

Rules with their sources: ``docs/rules/optimus2.md``.
"""
