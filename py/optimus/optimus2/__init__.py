"""Optimus 2, the dice roll-and-write for 1-4 players: sheet data, rules and bots.

Modules: :mod:`~optimus.optimus2.sheet` (the sheet definition file
``sheets/standard.json``, its loader and the rules and scoring of each area),
:mod:`~optimus.optimus2.moves` (move text), :mod:`~optimus.optimus2.game` (the rules
engine),
:mod:`~optimus.optimus2.heuristics`, :mod:`~optimus.optimus2.value` and
:mod:`~optimus.optimus2.bots` (bots). The tools that train, tune, measure and
time them are in :mod:`optimus_lab` (not shipped to the page).

Public API for the table UI:

* :class:`~optimus.optimus2.game.Optimus2Game` / :class:`~optimus.optimus2.game.Optimus2State`
  (the protocol of :mod:`optimus.core.protocol`); each observation holds every
  player's sheet (``sheets[p]``: marks, area scores, total, pending questions)
  and the six dice with their place (``hand``, ``field``, ``tray``);
* :func:`~optimus.optimus2.sheet.load_sheet` (the sheet's numbers for drawing it).

Rules with their sources: ``docs/rules/optimus2.md``.
"""
