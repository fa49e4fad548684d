"""Fileiras, the row-taking card game for 2-5 players: rules, scoring and bots.

Modules: :mod:`~optimus.fileiras.cards` (card kinds, deck), :mod:`~optimus.fileiras.scoring`
(best score and its breakdown), :mod:`~optimus.fileiras.game` (the rules engine),
:mod:`~optimus.fileiras.heuristics` and :mod:`~optimus.fileiras.bots` (bots).

Public API for the table UI:

* :class:`~optimus.fileiras.game.FileirasGame` / :class:`~optimus.fileiras.game.FileirasState`
  (the protocol of :mod:`optimus.core.protocol`);
* :func:`~optimus.fileiras.scoring.score_breakdown` and
  :func:`~optimus.fileiras.scoring.best_score` (a collection's best score and why);
* :func:`~optimus.fileiras.game.check_conservation` (card conservation, for tests).

Rules with their sources: ``docs/rules/fileiras.md``.
"""
