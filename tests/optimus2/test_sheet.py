"""The sheet definition file and each area's marking and scoring rules."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

from optimus.optimus2 import sheet
from optimus.optimus2.sheet import (
    EXTRA,
    FOX,
    NONE,
    Q_BLUE,
    Q_GREEN,
    Q_PINK,
    Q_SILVER,
    Q_YELLOW,
    REROLL,
    RETURN,
    SheetDef,
    SheetError,
)

SD = sheet.load_sheet()


def raw() -> Any:
    sheets = resources.files("optimus.optimus2").joinpath("sheets")
    text = sheets.joinpath("standard.json").read_text("utf-8")
    return json.loads(text)


def cell(sd: SheetDef, name: str) -> int:
    return sd.cell_names.index(name)


# -- the data file holds every number of the reference -----------------------------


def test_rounds_and_round_track() -> None:
    assert [SD.rounds_for(n) for n in (1, 2, 3, 4)] == [6, 6, 5, 4]
    assert SD.choices == 3
    assert SD.round_track == (REROLL, EXTRA, RETURN, 10)


def test_silver_numbers() -> None:
    assert SD.silver_score == (0, 2, 4, 7, 11, 16, 22)
    assert SD.silver_column_bonus == (EXTRA, Q_YELLOW, FOX, Q_BLUE, Q_GREEN, Q_PINK)


def test_yellow_numbers() -> None:
    assert SD.yellow_cells == (
        (1, 2, 3), (1, 4, 6), (2, 1, 1), (2, 3, 2), (3, 2, 4),
        (3, 4, 3), (4, 1, 2), (4, 3, 5), (5, 2, 5), (5, 4, 4),
    )  # fmt: skip
    assert SD.yellow_row_bonus == (Q_BLUE, RETURN, Q_YELLOW, Q_GREEN, Q_PINK)
    assert SD.yellow_column_bonus == (REROLL, EXTRA, Q_SILVER, FOX)
    assert SD.yellow_score == (0, 3, 10, 21, 36, 55, 75, 96, 118, 141, 165)


def test_blue_green_pink_numbers() -> None:
    assert SD.blue_score == (0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78)
    b = {i + 1: x for i, x in enumerate(SD.blue_bonus) if x != NONE}
    assert b == {
        2: RETURN, 3: Q_YELLOW, 5: EXTRA, 6: REROLL, 7: Q_PINK, 9: FOX, 10: RETURN, 12: Q_GREEN,
    }  # fmt: skip
    assert SD.green_mult == (2, 2, 2, 1, 3, 3, 3, 2, 3, 1, 4, 1)
    g = {i + 1: x for i, x in enumerate(SD.green_bonus) if x != NONE}
    assert g == {
        2: REROLL, 4: Q_BLUE, 5: RETURN, 7: FOX, 8: Q_SILVER, 9: EXTRA, 11: Q_PINK, 12: Q_YELLOW,
    }  # fmt: skip
    assert SD.pink_threshold == (0, 0, 2, 3, 4, 5, 6, 2, 3, 4, 5, 6)
    p = {i + 1: x for i, x in enumerate(SD.pink_bonus) if x != NONE}
    assert p == {
        3: REROLL, 4: RETURN, 5: EXTRA, 6: Q_GREEN, 7: Q_YELLOW, 8: FOX, 9: Q_SILVER,
        10: REROLL, 11: Q_BLUE, 12: Q_YELLOW,
    }  # fmt: skip


def test_action_bars_and_solo() -> None:
    assert SD.action_slots == (6, 6, 6)
    assert SD.action_last_bonus == (FOX, Q_PINK, Q_SILVER)
    assert SD.solo_rounds == 6 and SD.solo_passive_dice == 3
    assert SD.rating_for(320) == "320 and above"
    assert SD.rating_for(319) == "300-319"
    assert SD.rating_for(140) == "140-159"
    assert SD.rating_for(139) == "below 140"
    assert SD.rating_for(-5) == "below 140"


# -- the loader ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("yellow"), "has no 'yellow'"),
        (lambda d: d["blue"]["bonus"].__setitem__(1, "teleport"), "unknown bonus 'teleport'"),
        (lambda d: d["silver"]["score"].pop(), "silver score must have 7 entries"),
        (lambda d: d["green"]["multipliers"].pop(), "green multipliers must come in pairs"),
        (lambda d: d["pink"]["thresholds"].__setitem__(0, 3), "pink slot 1"),
        (lambda d: d["yellow"]["cells"][1].__setitem__("column", 2), "two cells at row 1"),
        (lambda d: d["yellow"]["score"].__setitem__(3, 1), "yellow score must not decrease"),
        (lambda d: d["rounds"].pop("3"), "rounds for 1, 2, 3 and 4 players"),
        (lambda d: d["solo"]["rating"].pop(), "ending with min null"),
        (lambda d: d["yellow"]["cells"][0].__setitem__("value", 9), "outside 1-6"),
    ],
)
def test_loader_refuses_bad_sheets_with_a_reason(change: Any, message: str) -> None:
    data = raw()
    change(data)
    with pytest.raises(SheetError, match=message):
        sheet.parse_sheet(data)


def test_unknown_sheet_name() -> None:
    with pytest.raises(SheetError, match="no sheet named 'nope'"):
        sheet.load_sheet("nope")


def test_variant_sheet_is_data_not_code() -> None:
    data = copy.deepcopy(raw())
    data["pink"]["thresholds"][2] = 6
    data["blue"]["score"] = [0] + [2 * x for x in data["blue"]["score"][1:]]
    sd = sheet.parse_sheet(data)
    sh = sd.new_sheet()
    sheet.enter_pink(sd, sh, 6)
    sheet.enter_pink(sd, sh, 6)
    sheet.enter_pink(sd, sh, 5)  # slot 3 needs 6 on the variant: no reroll
    assert sh[sd.AC] == 0
    sheet.enter_blue(sd, sh, 9)
    assert sheet.area_scores(sd, sh)[1] == 2


# -- areas -----------------------------------------------------------------------


def test_yellow_circle_then_cross_scores_crosses_only() -> None:
    sh = SD.new_sheet()
    c = cell(SD, "r1c4")
    assert sheet.yellow_targets(SD, sh, 6) == [c]
    sheet.enter_yellow(SD, sh, c)
    assert sh[SD.Y + c] == 1 and sheet.area_scores(SD, sh)[0] == 0  # a circle scores nothing
    assert sheet.yellow_targets(SD, sh, 6) == [c]
    sheet.enter_yellow(SD, sh, c)
    assert sh[SD.Y + c] == 2 and sheet.area_scores(SD, sh)[0] == 3
    assert sheet.yellow_targets(SD, sh, 6) == []
    with pytest.raises(ValueError, match="already crossed"):
        sheet.enter_yellow(SD, sh, c)


def test_yellow_value_must_match_the_cell() -> None:
    sh = SD.new_sheet()
    assert sorted(SD.cell_names[c] for c in sheet.yellow_targets(SD, sh, 3)) == ["r1c2", "r3c4"]
    assert [SD.cell_names[c] for c in sheet.yellow_targets(SD, sh, 1)] == ["r2c1"]


def test_yellow_score_by_crosses() -> None:
    sh = SD.new_sheet()
    for k in range(10):
        sh[SD.Y + k] = 2
        assert sheet.area_scores(SD, sh)[0] == SD.yellow_score[k + 1]
    assert sheet.area_scores(SD, sh)[0] == 165


@pytest.mark.parametrize("row", range(5))
def test_yellow_row_bonus_when_fully_circled(row: int) -> None:
    sh = SD.new_sheet()
    cells = SD.row_cells[row]
    first = sheet.enter_yellow(SD, sh, cells[0])
    assert first == [] and sh[SD.AC + 1] == 0
    out = sheet.enter_yellow(SD, sh, cells[1])
    code = SD.yellow_row_bonus[row]
    expect_tasks = {Q_BLUE: [("B", 0, 0)], Q_YELLOW: [("Y", 0, 0)], Q_GREEN: [("G", 0, 0)]}
    expect_tasks[Q_PINK] = [("P", 0, 0)]
    if code == RETURN:
        assert out == [] and sh[SD.AC + 1] == 1
    else:
        assert out == expect_tasks[code]
    # crossing a circled cell of a complete row gives nothing more
    assert sheet.enter_yellow(SD, sh, cells[1]) == []


def test_yellow_column_bonuses() -> None:
    sh = SD.new_sheet()
    for c in SD.column_cells[0]:  # column 1: reroll
        sheet.enter_yellow(SD, sh, c)
    assert sh[SD.AC] == 1
    for c in SD.column_cells[1]:  # column 2: extra die
        sheet.enter_yellow(SD, sh, c)
    assert sh[SD.AC + 2] == 1
    outs = [sheet.enter_yellow(SD, sh, c) for c in SD.column_cells[2]]  # column 3: silver ?
    assert outs[-1][-1] == ("S", 0, 0b1111)
    before = sh[SD.FOX]
    for c in SD.column_cells[3]:  # column 4: fox
        sheet.enter_yellow(SD, sh, c)
    assert sh[SD.FOX] == before + 1


def test_blue_non_increasing_and_score() -> None:
    sh = SD.new_sheet()
    assert sheet.blue_ok(SD, sh, 12)
    sheet.enter_blue(SD, sh, 9)
    assert sheet.blue_ok(SD, sh, 9) and not sheet.blue_ok(SD, sh, 10)
    sheet.enter_blue(SD, sh, 9)
    assert sh[SD.AC + 1] == 1  # slot 2: return
    sheet.enter_blue(SD, sh, 4)
    assert not sheet.blue_ok(SD, sh, 5)
    assert sheet.area_scores(SD, sh)[1] == 6
    for _ in range(9):
        sheet.enter_blue(SD, sh, 2)
    assert not sheet.blue_ok(SD, sh, 2)  # full
    assert sheet.area_scores(SD, sh)[1] == 78


def test_green_multipliers_and_negative_pairs() -> None:
    sh = SD.new_sheet()
    sheet.enter_green(SD, sh, 1)  # x2 -> 2
    assert sheet.area_scores(SD, sh)[2] == 0  # half pair scores 0
    sheet.enter_green(SD, sh, 6)  # x2 -> 12
    assert sheet.area_scores(SD, sh)[2] == 2 - 12
    sheet.enter_green(SD, sh, 6)  # x2 -> 12
    sheet.enter_green(SD, sh, 1)  # x1 -> 1
    assert sheet.area_scores(SD, sh)[2] == -10 + 11
    written = sh[SD.GN + 1 : SD.GN + 5]
    assert written == [2, 12, 12, 1]
    for v in (6, 6, 6, 6, 6, 6, 6, 6):
        sheet.enter_green(SD, sh, v)
    # pairs: 18-18, 18-12, 18-6, 24-6
    assert sheet.area_scores(SD, sh)[2] == -10 + 11 + 0 + 6 + 12 + 18


def test_green_slot_bonuses() -> None:
    sh = SD.new_sheet()
    sheet.enter_green(SD, sh, 3)
    sheet.enter_green(SD, sh, 3)
    assert sh[SD.AC] == 1  # slot 2 reroll
    sheet.enter_green(SD, sh, 3)
    assert sheet.enter_green(SD, sh, 3) == [("B", 0, 0)]  # slot 4 blue ?


def test_pink_thresholds() -> None:
    for slot in range(2, 12):
        t = SD.pink_threshold[slot]
        for value, gets in ((t - 1, False), (t, True)):
            sh = SD.new_sheet()
            for _ in range(slot):
                sheet.enter_pink(SD, sh, 1)
            before = (list(sh[SD.AC : SD.AC + 3]), sh[SD.FOX])
            out = sheet.enter_pink(SD, sh, value) if value >= 1 else []
            after = (list(sh[SD.AC : SD.AC + 3]), sh[SD.FOX])
            assert (bool(out) or before != after) == gets, (slot + 1, value)
    sh = SD.new_sheet()
    sheet.enter_pink(SD, sh, 1)
    sheet.enter_pink(SD, sh, 1)
    assert sh[SD.AC : SD.AC + 3] == [0, 0, 0] and sh[SD.FOX] == 0  # slots 1-2: none
    assert sheet.area_scores(SD, sh)[3] == 2


def test_silver_rows_score_and_column_bonus() -> None:
    sh = SD.new_sheet()
    for v in range(1, 7):
        sheet.enter_silver(SD, sh, 0, v)
        assert sheet.area_scores(SD, sh)[4] == SD.silver_score[v]
    assert sheet.area_scores(SD, sh)[4] == 22
    assert sheet.enter_silver(SD, sh, 1, 2) == []
    assert sheet.enter_silver(SD, sh, 2, 2) == []
    assert sheet.enter_silver(SD, sh, 3, 2) == [("Y", 0, 0)]  # column 2: yellow ?
    assert sheet.silver_rows_open(SD, sh, 2) == []
    assert sheet.silver_rows_open(SD, sh, 3) == [1, 2, 3]
    for r in (1, 2, 3):
        sheet.enter_silver(SD, sh, r, 1)
    assert sh[SD.AC + 2] == 1  # column 1: extra die


def test_action_bar_sixth_slot_bonus_and_limit() -> None:
    for action, last in ((0, "fox"), (1, ("P", 0, 0)), (2, ("S", 0, 0b1111))):
        sh = SD.new_sheet()
        out: list[Any] = []
        for _ in range(5):
            sheet.gain(SD, sh, action + 1, out)
        assert out == [] and sh[SD.FOX] == 0
        sheet.gain(SD, sh, action + 1, out)
        assert sh[SD.AC + action] == 6
        if last == "fox":
            assert sh[SD.FOX] == 1
        else:
            assert out == [last]
        sheet.gain(SD, sh, action + 1, out)  # a seventh is lost
        assert sh[SD.AC + action] == 6 and len(out) <= 1 and sh[SD.FOX] <= 1


def test_foxes_take_the_lowest_area() -> None:
    sh = SD.new_sheet()
    sh[SD.FOX] = 3
    assert sheet.total_score(SD, sh) == 0
    sheet.enter_pink(SD, sh, 5)
    assert sheet.total_score(SD, sh) == 5  # yellow 0: foxes worth 0
    for r in range(4):
        sheet.enter_silver(SD, sh, r, 1)  # silver 8, + extra die
    sheet.enter_blue(SD, sh, 5)
    sheet.enter_blue(SD, sh, 5)
    sh[SD.Y] = 2
    sheet.enter_green(SD, sh, 6)
    sheet.enter_green(SD, sh, 1)  # green 12 - 2 = 10
    areas = sheet.area_scores(SD, sh)
    assert areas == [3, 3, 10, 5, 8]
    assert sheet.total_score(SD, sh) == sum(areas) + 3 * 3
    sh2 = SD.new_sheet()
    sh2[SD.FOX] = 2
    for v in (1, 6):
        sheet.enter_green(SD, sh2, v)
    for k in range(3):
        sh2[SD.Y + k] = 2
    sheet.enter_blue(SD, sh2, 3)
    sheet.enter_pink(SD, sh2, 4)
    sheet.enter_silver(SD, sh2, 0, 4)
    assert min(sheet.area_scores(SD, sh2)) == -10
    assert sheet.total_score(SD, sh2) == sum(sheet.area_scores(SD, sh2)) - 20  # negative foxes
