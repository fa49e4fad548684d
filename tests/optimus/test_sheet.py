"""Sheets: the text format, every invariant of the validator, the generator."""

from __future__ import annotations

import pytest

from optimus.optimus.generate import generate_sheet
from optimus.optimus.sheet import (
    COLOUR_NAMES,
    COLOURS,
    COLS,
    COLUMN_LETTERS,
    ROWS,
    STANDARD_SHEETS,
    Layout,
    Sheet,
    SheetError,
    blocks_of,
    box_index,
    box_name,
    find_problem,
    parse_sheet,
    standard_sheet,
    standard_sheet_text,
)

HARBOUR = standard_sheet("harbour")


def _with(
    sheet: Sheet, colours: dict[int, int] | None = None, stars: dict[int, bool] | None = None
) -> Sheet:
    c = list(sheet.colours)
    s = list(sheet.stars)
    for i, k in (colours or {}).items():
        c[i] = k
    for i, v in (stars or {}).items():
        s[i] = v
    return Sheet(tuple(c), tuple(s))


def _swap(sheet: Sheet, a: int, b: int) -> Sheet:
    return _with(sheet, {a: sheet.colours[b], b: sheet.colours[a]})


def test_standard_sheets_are_valid_distinct_package_data() -> None:
    sheets = [standard_sheet(n) for n in STANDARD_SHEETS]
    assert len(sheets) >= 2 and len(set(sheets)) == len(sheets)
    for name, sheet in zip(STANDARD_SHEETS, sheets, strict=True):
        assert find_problem(sheet) is None
        assert sheet.text() == standard_sheet_text(name)


def test_unknown_standard_sheet_is_named() -> None:
    with pytest.raises(SheetError, match="no standard sheet 'nope'"):
        standard_sheet("nope")


def test_format_ignores_blank_lines_spaces_and_trailing_newline() -> None:
    text = HARBOUR.text()
    lines = text.splitlines()
    messy = "\n\n" + "\n\n".join("  " + line + " " for line in lines) + "\n\n\n"
    assert parse_sheet(messy) == HARBOUR
    assert parse_sheet(text.rstrip("\n")) == HARBOUR
    assert parse_sheet(HARBOUR.compact()) == HARBOUR
    assert HARBOUR.compact().count("/") == ROWS - 1


def test_upper_case_is_a_star_lower_case_is_not() -> None:
    first = HARBOUR.text()[0]
    assert HARBOUR.stars[0] == first.isupper()
    assert HARBOUR.colours[0] == COLOURS.index(first.lower())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("g" * 15 + "\n" * 3, "not 1 lines"),
        ("\n".join(["g" * 15] * 6 + ["g" * 14]), "line 7 has 14 letters"),
        ("\n".join(["g" * 15] * 6 + ["g" * 14 + "z"]), "box O7 has 'z'"),
    ],
)
def test_malformed_text_is_refused_with_the_place(text: str, message: str) -> None:
    with pytest.raises(SheetError, match=message):
        Sheet.parse(text)


def test_box_names() -> None:
    assert box_name(0) == "A1" and box_name(104) == "O7" and box_name(7) == "H1"
    assert box_index("h4") == 3 * COLS + 7
    for bad in ("P1", "A8", "H", "H10"):
        with pytest.raises(ValueError):
            box_index(bad)


def test_validator_counts_boxes_per_colour() -> None:
    i = next(i for i in range(len(HARBOUR.colours)) if HARBOUR.colours[i] == 0)
    broken = _with(HARBOUR, {i: 1})
    assert find_problem(broken) == "green has 20 boxes; every colour must have 21"
    with pytest.raises(SheetError, match="invalid sheet: green has 20 boxes"):
        parse_sheet(broken.text())


def _runs(sheet: Sheet, c: int) -> list[tuple[int, list[int]]]:
    """Column c's runs from the top: (colour, rows)."""
    out: list[tuple[int, list[int]]] = []
    for r in range(ROWS):
        k = sheet.colours[r * COLS + c]
        if out and out[-1][0] == k:
            out[-1][1].append(r)
        else:
            out.append((k, [r]))
    return out


def test_validator_needs_every_colour_in_every_column() -> None:
    # a one-box run in column c takes the colour of its neighbour run; that
    # colour's box elsewhere (a later column) gets the lost colour: counts hold.
    for c in range(COLS):
        runs = _runs(HARBOUR, c)
        for n, (k, rows) in enumerate(runs):
            if len(rows) != 1 or n + 1 >= len(runs):
                continue
            j = runs[n + 1][0]
            t = next(
                i for i in range(len(HARBOUR.colours)) if HARBOUR.colours[i] == j and i % COLS > c
            )
            broken = _swap(HARBOUR, rows[0] * COLS + c, t)
            assert find_problem(broken) == (
                f"column {COLUMN_LETTERS[c]} has no {COLOUR_NAMES[k]} box; "
                "every column needs all five"
            )
            return
    pytest.fail("no one-box run found")


def test_validator_needs_one_run_per_colour_in_each_column() -> None:
    for c in range(COLS):
        runs = _runs(HARBOUR, c)
        if len(runs[0][1]) >= 2:
            broken = _swap(HARBOUR, c, (ROWS - 1) * COLS + c)
            problem = find_problem(broken)
            assert problem is not None
            assert problem.startswith(f"column {COLUMN_LETTERS[c]}: ") and "is split" in problem
            return
    pytest.fail("no column starting with a long run")


def test_validator_needs_one_block_of_each_size() -> None:
    # swapping two whole columns keeps counts and runs but changes the blocks
    c = list(HARBOUR.colours)
    for r in range(ROWS):
        c[r * COLS], c[r * COLS + 14] = c[r * COLS + 14], c[r * COLS]
    broken = Sheet(tuple(c), HARBOUR.stars)
    problem = find_problem(broken)
    assert problem is not None and "it must form exactly one block of each size 1 to 6" in problem
    sizes = problem.split("sizes ")[1].split(";")[0]
    assert sizes != "1, 2, 3, 4, 5, 6"


def test_validator_counts_stars() -> None:
    star = HARBOUR.stars.index(True)
    assert find_problem(_with(HARBOUR, stars={star: False})) == "the sheet has 14 stars, not 15"


def test_validator_needs_one_star_per_column() -> None:
    star = HARBOUR.stars.index(True)
    c = star % COLS
    other = next(i for i in range(len(HARBOUR.stars)) if i % COLS != c and not HARBOUR.stars[i])
    broken = _with(HARBOUR, stars={star: False, other: True})
    first = COLUMN_LETTERS[min(c, other % COLS)]
    assert find_problem(broken) is not None
    assert find_problem(broken) == (
        f"column {first} has {2 if first == COLUMN_LETTERS[other % COLS] else 0} stars; "
        "every column needs exactly one"
    )


def test_validator_needs_three_stars_per_colour() -> None:
    for star in (i for i, s in enumerate(HARBOUR.stars) if s):
        c, k = star % COLS, HARBOUR.colours[star]
        for r in range(ROWS):
            i = r * COLS + c
            if HARBOUR.colours[i] != k:
                broken = _with(HARBOUR, stars={star: False, i: True})
                first = min(k, HARBOUR.colours[i])
                n = 2 if first == k else 4
                assert find_problem(broken) == (
                    f"{COLOUR_NAMES[first]} has {n} stars; every colour needs 3"
                )
                return


def test_validator_allows_one_star_per_block() -> None:
    """Move two stars within their columns so counts hold but one block gets two."""
    sheet = HARBOUR
    blocks = blocks_of(sheet)
    block_at = {i: b for b, (_, m) in enumerate(blocks) for i in range(105) if m >> i & 1}
    stars = [i for i, s in enumerate(sheet.stars) if s]
    for s1 in stars:
        for s2 in stars:
            k1, k2 = sheet.colours[s1], sheet.colours[s2]
            if s1 == s2 or k1 == k2:
                continue
            # s1 (colour k1) moves to a k2 box of its column; s2 to a k1 box of its column
            t1 = next(
                r * COLS + s1 % COLS
                for r in range(ROWS)
                if sheet.colours[r * COLS + s1 % COLS] == k2
            )
            t2 = next(
                r * COLS + s2 % COLS
                for r in range(ROWS)
                if sheet.colours[r * COLS + s2 % COLS] == k1
            )
            moved = {s1: False, s2: False, t1: True, t2: True}
            broken = _with(sheet, stars=moved)
            starred = [i for i, s in enumerate(broken.stars) if s]
            per_block = [block_at[i] for i in starred]
            if len(set(per_block)) == len(per_block):
                continue
            problem = find_problem(broken)
            assert problem is not None and "a block may have at most one" in problem
            assert "has 2 stars" in problem
            return
    pytest.fail("no double-star construction found")


def test_layout_lists_each_connected_set_once() -> None:
    layout = Layout(HARBOUR)
    assert len(layout.blocks) == 30
    for b, (_, mask) in enumerate(layout.blocks):
        size = mask.bit_count()
        assert layout.connected[b][size] == [mask]
        assert len(layout.connected[b][1]) == size
        for n, sets in enumerate(layout.connected[b]):
            assert len(set(sets)) == len(sets)
            assert all(s & ~mask == 0 and s.bit_count() == n for s in sets)


def test_generator_is_valid_and_seeded() -> None:
    seen = set()
    for seed in range(120):
        sheet = generate_sheet(seed)
        assert find_problem(sheet) is None, seed
        seen.add(sheet)
    assert len(seen) == 120
    assert generate_sheet(5) == generate_sheet(5)
    assert parse_sheet(generate_sheet(9).text()) == generate_sheet(9)
