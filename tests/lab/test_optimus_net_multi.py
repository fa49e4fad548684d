"""Optimus's network for games with others, its training (optimus_lab.optimus.net_multi):
seeds, resumes, the solo start, export."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from optimus.core.arena import executor
from optimus.optimus.net import FEATURES as SOLO_FEATURES
from optimus.optimus.net_multi import FEATURES, parse_net
from optimus_lab import tdnet
from optimus_lab.optimus import net as solo_net
from optimus_lab.optimus import net_multi as net

from .optimus_trainers import (
    check_command_line,
    check_export,
    check_seeded_and_resumed,
    heldout_row,
    shaken_run,
)

SMALL = {"hidden": [8, 6], "block": 2, "eval_every": 0, "report": 2, "eval_games": 2}


def small_run(folder: Path, **cfg: object) -> net.MultiRun:
    return net.MultiRun(str(folder), {**net.DEFAULTS, **SMALL, "players": 2, **cfg})


def test_a_training_is_seeded_and_a_resumed_run_goes_on_exactly(tmp_path: Path) -> None:
    check_seeded_and_resumed(small_run, tmp_path)


def test_a_game_has_every_seat_on_the_network_and_margins_over_the_best_other() -> None:
    p = tdnet.init_params(len(FEATURES), [8, 6], 1, 0.0)
    assert [net.players_of(4, g) for g in range(8)] == [4, 4, 2, 3, 4, 4, 2, 3]
    assert [net.players_of(2, g) for g in range(3)] == [2, 2, 2]
    ep = net.play(p, 5, 7, 0.1, 4)
    assert ep == net.play(p, 5, 7, 0.1, 4)
    assert ep != net.play(p, 5, 4, 0.1, 4)
    traces, finals, rolls, scores, n = ep
    assert n == 3 and len(traces) == len(finals) == len(scores) == 3
    for p_, final in enumerate(finals):
        assert final == scores[p_] - max(s for q, s in enumerate(scores) if q != p_)
    assert max(finals) >= 0 and rolls >= 4
    for feats, margins in traces:
        assert 3 <= len(feats) == len(margins) <= rolls


def test_the_solo_state_starts_the_network(tmp_path: Path) -> None:
    solo = solo_net.OptimusRun(str(tmp_path / "solo"), {**solo_net.DEFAULTS, **SMALL})
    solo.p["b3"][:] = 0.3
    solo.save()
    run = small_run(tmp_path / "multi", init_solo=str(tmp_path / "solo" / "state.npz"))
    n = len(SOLO_FEATURES)
    assert np.array_equal(run.p["w1"][:n], solo.p["w1"])
    assert not run.p["w1"][n:].any() and run.p["b3"][0] == 0.0
    for k in ("b1", "w2", "b2", "w3"):
        assert np.array_equal(run.p[k], solo.p[k]), k
    tdnet.train(run, 2, executor(1), echo=False)
    again = net.MultiRun.load(run.folder)  # the saved state, not the solo one again
    assert np.array_equal(again.p["w1"], run.p["w1"])
    wide = str(tmp_path / "solo" / "state.npz")
    with pytest.raises(SystemExit):
        small_run(tmp_path / "x", init_solo=wide, hidden=[16, 6])


def test_the_curve_has_the_heldout_win_rate(tmp_path: Path) -> None:
    row = heldout_row(small_run, tmp_path)
    assert row["heldout_games"] == 2 and 0.0 <= row["heldout_win"] <= 1.0
    assert row["heldout_mean"] > -30 and row["train_mean"] is not None


def test_the_exported_network_is_the_trained_one_in_pure_python(tmp_path: Path) -> None:
    run = shaken_run(small_run, tmp_path)
    feats = [f for trace, _ in net.play(run.p, 2, 0, 0.2, 3)[0] for f in trace]
    check_export(run, net.export, parse_net, feats)


def test_the_command_line_trains_resumes_and_exports(tmp_path: Path) -> None:
    # games with others only: 1 player refused
    out = check_command_line(net.main, net.MultiRun, tmp_path, players="2", refused="1")
    model = parse_net(out.read_text(encoding="utf-8"))
    assert len(model.w1) == len(FEATURES) and len(model.b1) == 8
