"""Pruning Optimus 2's network of games with others (optimus_lab.optimus2.prune): the units
that never fire go, the values and the decisions stay."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from optimus.core.mlp import forward as py_forward
from optimus.optimus2.net import feature_names, parse_net
from optimus.optimus2.sheet import load_sheet
from optimus_lab.optimus2 import prune
from optimus_lab.optimus2.net import export_json
from optimus_lab.tdnet import init_params

H1, H2, DEAD1, DEAD2 = 16, 12, 4, 5


def whole_file(tmp_path: Path) -> str:
    """A random network of games with others whose first ``DEAD1`` first-layer units and
    first ``DEAD2`` second-layer units can never fire, as the package's JSON."""
    p = init_params(len(feature_names(load_sheet(), True)), (H1, H2), seed=3, bias=0.4)
    p["b1"][:DEAD1] = -1e4
    p["b2"][:DEAD2] = -1e4
    path = tmp_path / "whole.json"
    path.write_text(export_json(p, {"episodes": 7}, 6, multi=True), encoding="utf-8")
    return str(path)


def test_collect_is_seeded_and_keeps_every_afterstate_of_a_decision(tmp_path: Path) -> None:
    whole, meta = prune.load_whole(whole_file(tmp_path))
    assert meta == {"episodes": 7}
    one = prune.collect(whole, 3, 5, 0.1, 1)
    again = prune.collect(whole, 3, 5, 0.1, 2)  # processes change nothing
    for key in one:
        assert np.array_equal(one[key], again[key]), key
    assert sorted(set(one["game"].tolist())) == [0, 1, 2]
    counts = np.bincount(one["decision"])
    assert (counts >= 2).all()  # a decision of one live afterstate teaches no order
    starts = np.flatnonzero(np.r_[True, np.diff(one["decision"]) != 0])
    assert ((one["best"] >= starts) & (one["best"] < starts + counts)).all()
    other = prune.collect(whole, 3, 6, 0.1, 1)
    assert not np.array_equal(one["target"], other["target"])


def test_pruning_drops_the_dead_units_and_keeps_values_and_picks(tmp_path: Path) -> None:
    whole, _ = prune.load_whole(whole_file(tmp_path))
    data = prune.collect(whole, 3, 5, 0.1, 1)
    every = np.arange(len(data["target"]))
    p = prune.pruned(whole, data, every, H2 - DEAD2)
    assert len(p["b1"]) <= H1 - DEAD1 and len(p["b2"]) == H2 - DEAD2
    assert p["w1"].shape == (len(whole["w1"]), len(p["b1"]))
    assert p["w2"].shape == (len(p["b1"]), len(p["b2"]))
    figures = prune.agreement(p, data, every)
    assert figures["rmse"] < 1e-3 and figures["same_pick"] == 1.0
    # too few second-layer units: the values move
    cut = prune.pruned(whole, data, every, 1)
    assert prune.agreement(cut, data, every)["rmse"] > 0.01
    # the package reads the pruned network and values as the whole one
    path = tmp_path / "pruned.json"
    path.write_text(export_json(p, {}, 6, multi=True), encoding="utf-8")
    small = parse_net(path.read_text(encoding="utf-8"), str(path))
    big = parse_net(Path(whole_file(tmp_path)).read_text(encoding="utf-8"), "whole")
    rows = prune.rows(data, every[:: max(1, len(every) // 50)])
    for idx in rows:
        assert py_forward(small, list(idx)) == pytest.approx(py_forward(big, list(idx)), abs=1e-6)


def test_only_a_network_of_games_with_others_is_pruned(tmp_path: Path) -> None:
    p = init_params(len(feature_names(load_sheet())), (4, 4), seed=1)
    path = tmp_path / "solo.json"
    path.write_text(export_json(p, {}, 3), encoding="utf-8")
    with pytest.raises(ValueError, match="not a network of games with others"):
        prune.load_whole(str(path))
