"""Optimus's solo network on the standard sheets (optimus_lab.optimus.standard) and its
play on their mirror images (optimus_lab.optimus.mirror)."""

from __future__ import annotations

from optimus.optimus.net import FEATURES
from optimus.optimus.sheet import COLS, ROWS, STANDARD_SHEETS, layout_of, standard_sheet
from optimus_lab import tdnet
from optimus_lab.optimus import mirror, net, standard


def test_a_standard_run_trains_on_the_standard_sheets_only() -> None:
    sheets = {layout_of(standard_sheet(n)).sheet.compact() for n in STANDARD_SHEETS}
    assert {standard.standard_layout(1, g).sheet.compact() for g in range(9)} == sheets
    p = tdnet.init_params(len(FEATURES), [8, 6], 1, 0.25)
    games = [1, 2]  # random sheets in the mixed training
    got = standard.play_block((p, 5, games, [0.0, 0.0], [None, None], "train", 1))
    assert got == [net.play(p, 5, g, 0.0, sheets=standard.standard_layout) for g in games]
    assert got != [net.play(p, 5, g, 0.0) for g in games]
    # held-out games are the same as the mixed trainer's
    held = standard.play_block((p, 5, games, [0.0, 0.0], [None, None], "eval", 1))
    assert held == [net.play(p, 5, g, 0.0, "eval") for g in games]


def test_a_mirror_image_is_the_sheet_reflected_and_played_on_the_same_dice() -> None:
    name = STANDARD_SHEETS[0]
    rows = standard_sheet(name).compact().split("/")
    lr = mirror.mirrored(name, True, False).sheet.compact().split("/")
    tb = mirror.mirrored(name, False, True).sheet.compact().split("/")
    for r in range(ROWS):
        for c in range(COLS):
            assert lr[r][c] == rows[r][COLS - 1 - c]
            assert tb[r][c] == rows[ROWS - 1 - r][c]
    p = tdnet.init_params(len(FEATURES), [8, 6], 1, 0.25)
    itself = layout_of(standard_sheet(name))
    a = mirror.greedy_scores(p, itself, 3, 7)
    assert a == mirror.greedy_scores(p, itself, 3, 7)
    assert a != mirror.greedy_scores(p, itself, 3, 8)
