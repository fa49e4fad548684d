"""Optimus sheets: the plain-text format, the validator and the geometry.

A sheet is 7 lines of 15 letters, one per box: ``g`` green, ``y`` yellow,
``b`` blue, ``r`` red, ``o`` orange; an upper-case letter carries a star.
Blank lines and surrounding white space are ignored. Columns are ``A``-``O``
(``H``, the middle one, is the start column), rows ``1``-``7`` from the top;
a box is named like ``H4``.

Boxes are numbered ``row * 15 + column``; a set of boxes is an ``int`` bit
mask (bit ``i`` for box ``i``), which keeps the rules fast.

>>> s = standard_sheet("harbour")
>>> find_problem(s) is None
True
>>> box_name(7), box_index("H1")
('H1', 7)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from optimus.core import data
from optimus.core.protocol import GameError

ROWS = 7
COLS = 15
BOXES = ROWS * COLS
START_COL = 7
"""Column H."""
COLOURS = "gybro"
COLOUR_NAMES = ("green", "yellow", "blue", "red", "orange")
NUM_COLOURS = 5
BOXES_PER_COLOUR = 21
STARS_PER_COLOUR = 3
COLUMN_LETTERS = "ABCDEFGHIJKLMNO"
COLUMN_POINTS: tuple[tuple[int, int], ...] = (
    (5, 3),
    (3, 2),
    (3, 2),
    (3, 2),
    (2, 1),
    (2, 1),
    (2, 1),
    (1, 0),
    (2, 1),
    (2, 1),
    (2, 1),
    (3, 2),
    (3, 2),
    (3, 2),
    (5, 3),
)
"""Points for completing each column: (first, later) (published)."""

STANDARD_SHEETS = ("harbour", "orchard")
"""The project's own standard sheets (package data ``sheets/NAME.txt``)."""

FULL = (1 << BOXES) - 1
COLUMN_MASKS = tuple(sum(1 << (r * COLS + c) for r in range(ROWS)) for c in range(COLS))
START_MASK = COLUMN_MASKS[START_COL]
_NOT_FIRST_COL = FULL & ~COLUMN_MASKS[0]
_NOT_LAST_COL = FULL & ~COLUMN_MASKS[COLS - 1]


class SheetError(GameError):
    """A sheet that breaks the format or an invariant; the message says which."""


def box_name(i: int) -> str:
    """``H4`` for the box in column H, row 4."""
    return f"{COLUMN_LETTERS[i % COLS]}{i // COLS + 1}"


def box_index(name: str) -> int:
    """The index of a box named like ``H4``; :class:`ValueError` if there is none."""
    text = name.strip().upper()
    if len(text) != 2 or text[0] not in COLUMN_LETTERS or text[1] not in "1234567":
        raise ValueError(f"{name!r} is not a box (columns A-O, rows 1-7, e.g. H4)")
    return (int(text[1]) - 1) * COLS + COLUMN_LETTERS.index(text[0])


def neighbours_mask(mask: int) -> int:
    """Boxes orthogonally next to any box of ``mask`` (may include ``mask`` itself)."""
    return (
        ((mask << 1) & _NOT_FIRST_COL)
        | ((mask >> 1) & _NOT_LAST_COL)
        | ((mask << COLS) & FULL)
        | (mask >> COLS)
    )


def eligible_of(marks: int) -> int:
    """Free boxes that may be marked now: in column H or next to a mark (the rules'
    start, and what the bots count as the sheet's frontier)."""
    return (START_MASK | neighbours_mask(marks)) & ~marks


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def columns_of(mask: int) -> int:
    """The columns ``mask`` has boxes in, as a bit mask of column indices."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << ((low.bit_length() - 1) % COLS)
        mask ^= low
    return out


@dataclass(frozen=True)
class Sheet:
    """A sheet's layout: a colour index (0-4) and a star flag per box."""

    colours: tuple[int, ...]
    stars: tuple[bool, ...]

    @staticmethod
    def parse(text: str) -> Sheet:
        """Read the text format; :class:`SheetError` if it is malformed (not validated)."""
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if len(lines) != ROWS:
            raise SheetError(f"a sheet has {ROWS} lines of {COLS} letters, not {len(lines)} lines")
        colours: list[int] = []
        stars: list[bool] = []
        for r, line in enumerate(lines):
            if len(line) != COLS:
                raise SheetError(f"line {r + 1} has {len(line)} letters, not {COLS}")
            for c, ch in enumerate(line):
                k = COLOURS.find(ch.lower())
                if k < 0:
                    raise SheetError(
                        f"box {COLUMN_LETTERS[c]}{r + 1} has {ch!r}: letters are g (green), "
                        "y (yellow), b (blue), r (red), o (orange), upper case for a star"
                    )
                colours.append(k)
                stars.append(ch.isupper())
        return Sheet(tuple(colours), tuple(stars))

    def text(self) -> str:
        """The canonical text: 7 lines of 15 letters and a final newline."""
        rows = []
        for r in range(ROWS):
            row = ""
            for c in range(COLS):
                i = r * COLS + c
                ch = COLOURS[self.colours[i]]
                row += ch.upper() if self.stars[i] else ch
            rows.append(row)
        return "\n".join(rows) + "\n"

    def compact(self) -> str:
        """The text on one line, rows separated by ``/`` (as stored in game options)."""
        return self.text().strip().replace("\n", "/")


def blocks_of(sheet: Sheet) -> list[tuple[int, int]]:
    """Every block as ``(colour, mask)``, in the order of its first box."""
    seen = 0
    out = []
    for i in range(BOXES):
        if seen >> i & 1:
            continue
        k = sheet.colours[i]
        same = sum(1 << j for j in range(BOXES) if sheet.colours[j] == k)
        block = 1 << i
        while True:
            grown = block | (neighbours_mask(block) & same)
            if grown == block:
                break
            block = grown
        seen |= block
        out.append((k, block))
    return out


def find_problem(sheet: Sheet) -> str | None:
    """The first broken invariant of the reference, in plain words; ``None`` if valid."""
    cols, stars = sheet.colours, sheet.stars
    for k in range(NUM_COLOURS):
        n = cols.count(k)
        if n != BOXES_PER_COLOUR:
            return f"{COLOUR_NAMES[k]} has {n} boxes; every colour must have {BOXES_PER_COLOUR}"
    for c in range(COLS):
        column = [cols[r * COLS + c] for r in range(ROWS)]
        for k in range(NUM_COLOURS):
            rows = [r for r in range(ROWS) if column[r] == k]
            letter = COLUMN_LETTERS[c]
            if not rows:
                return f"column {letter} has no {COLOUR_NAMES[k]} box; every column needs all five"
            if rows[-1] - rows[0] + 1 != len(rows):
                shown = ", ".join(f"{letter}{r + 1}" for r in rows)
                return (
                    f"column {letter}: {COLOUR_NAMES[k]} ({shown}) is split; each colour "
                    "must be one unbroken vertical run in every column"
                )
    blocks = blocks_of(sheet)
    for k in range(NUM_COLOURS):
        sizes = sorted(m.bit_count() for colour, m in blocks if colour == k)
        if sizes != [1, 2, 3, 4, 5, 6]:
            return (
                f"{COLOUR_NAMES[k]} forms blocks of sizes {', '.join(map(str, sizes))}; "
                "it must form exactly one block of each size 1 to 6"
            )
    total = sum(stars)
    if total != COLS:
        return f"the sheet has {total} stars, not {COLS}"
    for c in range(COLS):
        n = sum(stars[r * COLS + c] for r in range(ROWS))
        if n != 1:
            return f"column {COLUMN_LETTERS[c]} has {n} stars; every column needs exactly one"
    for k in range(NUM_COLOURS):
        n = sum(1 for i in range(BOXES) if stars[i] and cols[i] == k)
        if n != STARS_PER_COLOUR:
            return f"{COLOUR_NAMES[k]} has {n} stars; every colour needs {STARS_PER_COLOUR}"
    for k, mask in blocks:
        starred = [box_name(i) for i in bits(mask) if stars[i]]
        if len(starred) > 1:
            return (
                f"the {COLOUR_NAMES[k]} block of {mask.bit_count()} boxes at "
                f"{box_name(bits(mask)[0])} has {len(starred)} stars ({', '.join(starred)}); "
                "a block may have at most one"
            )
    return None


def validate(sheet: Sheet) -> Sheet:
    """Return ``sheet`` if valid, else raise :class:`SheetError` naming the first problem."""
    problem = find_problem(sheet)
    if problem is not None:
        raise SheetError(f"invalid sheet: {problem}")
    return sheet


def parse_sheet(text: str) -> Sheet:
    """Read and validate a sheet given as text (lines, or rows joined by ``/``)."""
    return validate(Sheet.parse(text.replace("/", "\n")))


def standard_sheet_text(name: str) -> str:
    if name not in STANDARD_SHEETS:
        raise SheetError(
            f"there is no standard sheet {name!r} (standard: {', '.join(STANDARD_SHEETS)})"
        )
    return data.text("optimus.optimus", f"sheets/{name}.txt")


@functools.cache
def standard_sheet(name: str) -> Sheet:
    """A standard sheet by name (package data)."""
    return parse_sheet(standard_sheet_text(name))


class Layout:
    """The geometry the rules need, computed once per sheet.

    ``blocks`` lists ``(colour, mask)``; ``connected[b][n]`` lists every
    orthogonally connected set of ``n`` boxes of block ``b`` (each set once).
    """

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        self.blocks = blocks_of(sheet)
        self.block_of = [0] * BOXES
        for b, (_, mask) in enumerate(self.blocks):
            for i in bits(mask):
                self.block_of[i] = b
        self.colour_masks = tuple(
            sum(1 << i for i in range(BOXES) if sheet.colours[i] == k) for k in range(NUM_COLOURS)
        )
        self.blocks_by_colour = tuple(
            tuple(b for b, (colour, _) in enumerate(self.blocks) if colour == k)
            for k in range(NUM_COLOURS)
        )
        self.star_mask = sum(1 << i for i in range(BOXES) if sheet.stars[i])
        self.connected: list[list[list[int]]] = [
            _connected_subsets(mask) for _, mask in self.blocks
        ]
        self._choices: dict[tuple[int, int, int], list[list[tuple[int, str]]]] = {}

    def choices(self, b: int, free: int, eligible: int) -> list[list[tuple[int, str]]]:
        """By size, the connected sets of free boxes of block ``b`` touching ``eligible``.

        ``free`` and ``eligible`` may be whole-sheet masks; each set comes with
        its text (box names in reading order). Cached: positions repeat a lot.
        """
        mask = self.blocks[b][1]
        key = (b, free & mask, eligible & mask)
        found = self._choices.get(key)
        if found is None:
            f, e = key[1], key[2]
            found = [
                [(s, " ".join(box_name(i) for i in bits(s))) for s in sets if s & f == s and s & e]
                for sets in self.connected[b]
            ]
            self._choices[key] = found
        return found


def _connected_subsets(block: int) -> list[list[int]]:
    """Connected subsets of a block by size (index 0 unused), each once."""
    boxes = bits(block)
    by_size: list[list[int]] = [[] for _ in range(len(boxes) + 1)]
    masks = [0] * (1 << len(boxes))  # masks[choice]: the boxes ``choice`` picks
    for choice in range(1, 1 << len(boxes)):
        low = choice & -choice
        mask = masks[choice] = masks[choice ^ low] | 1 << boxes[low.bit_length() - 1]
        if is_connected(mask):
            by_size[choice.bit_count()].append(mask)
    return by_size


def components(mask: int) -> list[int]:
    """The orthogonally connected groups the boxes of ``mask`` form."""
    out = []
    left = mask
    while left:
        grown = left & -left
        while True:
            nxt = grown | (neighbours_mask(grown) & left)
            if nxt == grown:
                break
            grown = nxt
        left &= ~grown
        out.append(grown)
    return out


def is_connected(mask: int) -> bool:
    """True if the boxes of ``mask`` form one orthogonally connected group."""
    if not mask:
        return False
    grown = mask & -mask
    while True:
        nxt = grown | (neighbours_mask(grown) & mask)
        if nxt == grown:
            return grown == mask
        grown = nxt


@functools.lru_cache(maxsize=64)
def layout_of(sheet: Sheet) -> Layout:
    return Layout(sheet)
