"""Fileiras, the row-taking card game for 2-5 players: rules, scoring and bots.

Modules: :mod:`~optimus.rows.cards` (card kinds, deck), :mod:`~optimus.rows.scoring`
(best score and its breakdown), :mod:`~optimus.rows.game` (the rules engine),
:mod:`~optimus.rows.heuristics` and :mod:`~optimus.rows.bots` (bots),
:mod:`~optimus.rows.scenario` (positions built from named events).

Public API for the table UI:

* :class:`~optimus.rows.game.FileirasGame` / :class:`~optimus.rows.game.FileirasState`
  (the protocol of :mod:`optimus.core.protocol`);
* :func:`~optimus.rows.scoring.score_breakdown` and
  :func:`~optimus.rows.scoring.best_score` (a collection's best score and why);
* :func:`~optimus.rows.game.check_conservation` (card conservation, for tests).

Rules with their sources: ``docs/rules/fileiras.md``.
"""
