"""Offline tools for the bots: training, tuning, strength runs and benchmarks.

Nothing here ships to the page (the build packs ``py/optimus`` only); every
module is a command line run from a clone with ``PYTHONPATH=py``:

* :mod:`optimus_lab.slices` -- how long ``hard`` thinks between two yields,
  any game (``python -m optimus_lab.slices optimus2 --games 1``);
* :mod:`optimus_lab.fingerprint` -- a hash of the bots' moves in fixed games and
  their CPU time per decision, to check that a change keeps every move;
* :mod:`optimus_lab.optimus.train` -- fits Optimus's learned solo evaluation
  (``optimus/optimus/value_weights.json``);
* :mod:`optimus_lab.optimus2.train` -- fits Optimus 2's learned corrections
  (``optimus/optimus2/value_weights.json``, ``value_end.json``);
* :mod:`optimus_lab.optimus2.tune` -- tunes the hand-made weights of
  :mod:`optimus.optimus2.heuristics`;
* :mod:`optimus_lab.optimus2.strength` -- game-by-game strength runs with CPU
  decision times;
* :mod:`optimus_lab.optimus2.bench` -- the engine's speed.

docs/bots.md says how they are used and what they measure.
"""
