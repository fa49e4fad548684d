"""Checks shared by the tests of Optimus's two trainers: alone
(:mod:`optimus_lab.optimus.net`, test_optimus_net.py) and with others
(:mod:`optimus_lab.optimus.net_multi`, test_optimus_net_multi.py). ``small_run(folder,
**cfg)`` is a test's small run of its trainer (``cfg`` over its settings)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from optimus.core.arena import executor
from optimus.core.mlp import Mlp, forward
from optimus_lab import tdnet

SmallRun = Callable[..., tdnet.Run]

SMALL_ARGS = ["--hidden", "8,6", "--block", "2", "--eval-every", "0", "--report", "2"]
"""The command line's settings of a small run."""


def check_seeded_and_resumed(small_run: SmallRun, tmp_path: Path) -> None:
    """Two runs of a seed train alike, one stopped after 2 episodes and loaded from its
    ``state.npz`` goes on exactly as they do (weights, Adam's moments, the recent
    scores), and another seed trains otherwise."""
    pool = executor(1)
    runs = {name: small_run(tmp_path / name) for name in ("one", "same", "two")}
    for name, until in (("one", 4), ("same", 4), ("two", 2)):
        tdnet.train(runs[name], until, pool, echo=False)
    one, same = runs["one"], runs["same"]
    assert (tmp_path / "two" / "state.npz").exists()
    again = type(one).load(str(tmp_path / "two"))
    assert again.episodes == 2 and again.opt.t == 2
    tdnet.train(again, 4, pool, echo=False)
    for k in tdnet.NAMES:
        assert np.array_equal(one.p[k], same.p[k]), k
        assert np.array_equal(one.p[k], again.p[k]), k
        assert np.array_equal(one.opt.m[k], again.opt.m[k]), k
        assert np.array_equal(one.opt.v[k], again.opt.v[k]), k
    assert one.recent == again.recent
    other = small_run(tmp_path / "other", seed=2)
    tdnet.train(other, 4, pool, echo=False)
    assert not np.array_equal(one.p["w1"], other.p["w1"])


def heldout_row(small_run: SmallRun, tmp_path: Path) -> dict[str, Any]:
    """The curve's line after 2 episodes of a run that evaluates every 2 (a line at 0
    episodes comes before it)."""
    run = small_run(tmp_path / "run", eval_every=2)
    tdnet.train(run, 2, executor(1), echo=False)
    rows = run.curve()
    assert [r["episodes"] for r in rows] == [0, 2]
    return rows[-1]


def shaken_run(small_run: SmallRun, tmp_path: Path) -> tdnet.Run:
    """A small run, its weights moved at random: biases and live units of both signs."""
    run = small_run(tmp_path / "run")
    rng = np.random.default_rng(4)
    for k in tdnet.NAMES:
        run.p[k] = (run.p[k] + rng.standard_normal(run.p[k].shape) * 0.3).astype(tdnet.F32)
    return run


def check_export(
    run: tdnet.Run,
    export: Callable[..., str],
    parse_net: Callable[[str], Mlp],
    feats: Sequence[Sequence[int]],
) -> None:
    """``export``'s JSON of ``run`` at 9 digits is the trained network in pure Python (on
    the states ``feats``), and at its 3 digits by default each weight keeps 3."""
    model = parse_net(export(run, digits=9))
    p64 = {k: v.astype(np.float64) for k, v in run.p.items()}  # the same numbers
    np.testing.assert_allclose(
        tdnet.predict(p64, feats), [forward(model, i) for i in feats], rtol=0, atol=1e-4
    )
    short = json.loads(export(run))
    assert all(x == float(f"{x:.3g}") for x in short["b1"] + short["w1"][0])


def check_command_line(
    main: Callable[[list[str]], None],
    run_cls: type[tdnet.Run],
    tmp_path: Path,
    players: str,
    refused: str,
) -> Path:
    """The trainer's command line ``main`` trains a small run of ``players`` players,
    refuses to start over a run or with ``refused`` players, resumes with a change of
    rate that the run records, and exports; the exported file."""
    folder = str(tmp_path / "run")
    main(["train", "--run", folder, "--episodes", "2", "--players", players, *SMALL_ARGS])
    with pytest.raises(SystemExit):  # a run is there: --resume
        main(["train", "--run", folder, "--episodes", "4"])
    with pytest.raises(SystemExit):
        main(["train", "--run", str(tmp_path / "x"), "--players", refused, *SMALL_ARGS])
    main(["train", "--run", folder, "--episodes", "4", "--resume", "--lr", "0.01"])
    run = run_cls.load(folder)
    assert run.episodes == 4 and run.cfg["changes"] == [{"episodes": 2, "lr": 0.01}]
    out = tmp_path / "net.json"
    main(["export", "--run", folder, "--out", str(out)])
    return out
