"""Dormant units recycled in training (optimus_lab.tdnet.recycle_dormant): fresh weights
for the units that never fire, the network's values unchanged."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from optimus.core.arena import executor
from optimus_lab import tdnet
from optimus_lab.optimus import net as optimus_net


def states(n_features: int, count: int, seed: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    return [sorted(rng.choice(n_features, 30, replace=False).tolist()) for _ in range(count)]


def test_dormant_units_get_fresh_weights_and_the_values_stay() -> None:
    n = 60
    p = tdnet.init_params(n, (10, 6), seed=2, bias=0.3)
    p["b1"][:] = 5.0  # the others always fire
    p["b2"][:] = 5.0
    p["b1"][[1, 4]] = -100.0  # these never fire
    p["b2"][[0, 5]] = -100.0
    opt = tdnet.Adam(p, 0.001)
    for k in p:
        opt.m[k] += 1.0
        opt.v[k] += 1.0
    feats = states(n, 200, 3)
    before = tdnet.predict(p, feats)
    old = {k: v.copy() for k, v in p.items()}
    assert tdnet.recycle_dormant(p, opt, feats, np.random.default_rng(0)) == [2, 2]
    assert np.allclose(tdnet.predict(p, feats), before, atol=1e-4)
    _, a1, a2 = tdnet.forward(p, tdnet.encode(feats, n))
    assert (a1[:, [1, 4]] > 0).any(axis=0).all()  # they fire again
    assert (a2[:, [0, 5]] > 0).any(axis=0).all()
    live1 = [u for u in range(10) if u not in (1, 4)]
    assert np.array_equal(p["w1"][:, live1], old["w1"][:, live1])
    live2 = [v for v in range(6) if v not in (0, 5)]
    assert (p["w2"][np.ix_([1, 4], live2)] == 0).all() and (p["w3"][[0, 5]] == 0).all()
    assert (opt.m["w1"][:, [1, 4]] == 0).all() and (opt.v["w3"][[0, 5]] == 0).all()
    assert (opt.m["w1"][:, live1] == 1).all()
    # nothing dormant: nothing changes
    again = {k: v.copy() for k, v in p.items()}
    assert tdnet.recycle_dormant(p, opt, feats, np.random.default_rng(0)) == [0, 0]
    assert all(np.array_equal(p[k], again[k]) for k in p)


def test_a_run_that_recycles_is_seeded_and_says_so(tmp_path: Path, capsys: object) -> None:
    cfg = {
        **optimus_net.DEFAULTS,
        "hidden": [8, 6],
        "block": 2,
        "eval_every": 0,
        "report": 2,
        "recycle": 2,
        "bias": -5.0,
    }
    finals = []
    for name in ("one", "two"):
        run = optimus_net.OptimusRun(str(tmp_path / name), dict(cfg))
        run.p["b1"][:4] = -100.0  # dormant from the start
        tdnet.train(run, 4, executor(1), echo=True)
        finals.append({k: v.copy() for k, v in run.p.items()})
        assert (run.p["b1"][:4] > -100.0).all()
    assert all(np.array_equal(finals[0][k], finals[1][k]) for k in finals[0])
    assert '"recycled"' in capsys.readouterr().out  # type: ignore[attr-defined]
