"""Random valid sheets from a seed.

Every column holds the five colours as five vertical runs (lengths adding
up to 7), so each colour has exactly one run per column, and a colour's block
is a stretch of consecutive columns whose runs overlap. The generator builds
the sheet column by column, run by run from the top, with a randomised depth-
first search that keeps, per colour, the size of the block still open and the
block sizes already closed, and prunes as soon as a colour can no longer end
with one block of each size 1-6 in the columns left. Stars are then placed
by a second small search (one per column, three per colour, one per block at
most). Both searches restart with fresh randomness after too many steps.

The result always passes :func:`~optimus.optimus.sheet.find_problem` (checked
before returning). Only ``Rng.randrange`` is used, so a seed gives the same
sheet on CPython and on Pyodide.

>>> a, b = generate_sheet(7), generate_sheet(7)
>>> a == b and find_problem(a) is None
True
"""

from __future__ import annotations

import functools

from optimus.core.rng import Rng, derive_seed
from optimus.optimus.sheet import (
    COLS,
    NUM_COLOURS,
    ROWS,
    STARS_PER_COLOUR,
    Sheet,
    blocks_of,
    find_problem,
)

ALL_SIZES = 0b1111110
"""Bit s set for every block size s in 1..6."""
MAX_RUN = ROWS - NUM_COLOURS + 1
STEP_LIMIT = 4000


@functools.cache
def _feasible_table() -> dict[tuple[int, int, int], bool]:
    """(unused sizes mask, open block size, columns left) -> can the colour still finish?

    Built at the first sheet generated, not at import: the table's page imports this
    module with the game, and most games use the printed sheets."""
    table = {}
    for unused in range(1 << 7):
        if unused & 1 or unused & ~ALL_SIZES:
            continue
        sizes = [s for s in range(1, 7) if unused >> s & 1]
        for open_size in range(1, 7):
            for left in range(COLS):
                ok = False
                for m in sizes:
                    if m < open_size:
                        continue
                    rest = [x for x in sizes if x != m]
                    lo = -(-(m - open_size) // MAX_RUN) + sum(-(-x // MAX_RUN) for x in rest)
                    hi = (m - open_size) + sum(rest)
                    if left == 0:
                        ok = ok or (not rest and m == open_size)
                    elif lo <= left <= hi and (m > open_size or rest):
                        ok = True
                table[(unused, open_size, left)] = ok
    return table


class _Restart(Exception):
    pass


class _Builder:
    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.feasible = _feasible_table()
        self.steps = 0
        self.grid = [[-1] * COLS for _ in range(ROWS)]
        # per colour: previous column's run (top, bottom), open block size, unused sizes
        self.top = [0] * NUM_COLOURS
        self.bottom = [0] * NUM_COLOURS
        self.open = [0] * NUM_COLOURS
        self.unused = [ALL_SIZES] * NUM_COLOURS

    def order(self, n: int) -> list[int]:
        items = list(range(n))
        self.rng.shuffle(items)
        return items

    def column(self, c: int) -> bool:
        if c == COLS:
            return True
        return self.run(c, 0, 0)

    def run(self, c: int, row: int, used: int) -> bool:
        """Place the next run of column ``c`` starting at ``row``; ``used``: colours placed."""
        self.steps += 1
        if self.steps > STEP_LIMIT:
            raise _Restart
        slots = NUM_COLOURS - used.bit_count()
        if slots == 0:
            return self.column(c + 1)
        space = ROWS - row
        lengths = [space] if slots == 1 else [x for x in (1, 2, 3) if space - x >= slots - 1]
        lengths = [x for x in lengths if x <= MAX_RUN]
        left = COLS - 1 - c
        for k in self.order(NUM_COLOURS):
            if used >> k & 1:
                continue
            for li in self.order(len(lengths)):
                length = lengths[li]
                top, bottom = row, row + length - 1
                old = (self.top[k], self.bottom[k], self.open[k], self.unused[k])
                if c == 0:
                    unused, size = ALL_SIZES, length
                elif top <= self.bottom[k] and bottom >= self.top[k]:
                    unused, size = self.unused[k], self.open[k] + length
                else:
                    if not self.unused[k] >> self.open[k] & 1:
                        continue
                    unused, size = self.unused[k] & ~(1 << self.open[k]), length
                if size > 6 or not self.feasible[(unused, size, left)]:
                    continue
                self.top[k], self.bottom[k], self.open[k], self.unused[k] = (
                    top,
                    bottom,
                    size,
                    unused,
                )
                for r in range(top, bottom + 1):
                    self.grid[r][c] = k
                if self.run(c, bottom + 1, used | 1 << k):
                    return True
                self.top[k], self.bottom[k], self.open[k], self.unused[k] = old
        return False


def _colours(rng: Rng) -> list[int]:
    while True:
        builder = _Builder(rng)
        try:
            if builder.column(0):
                return [builder.grid[r][c] for r in range(ROWS) for c in range(COLS)]
        except _Restart:
            continue


def _stars(colours: list[int], rng: Rng) -> list[bool] | None:
    """One star per column, three per colour, at most one per block (None: none found)."""
    sheet = Sheet(tuple(colours), (False,) * len(colours))
    block_at = [0] * len(colours)
    for b, (_, mask) in enumerate(blocks_of(sheet)):
        for i in range(len(colours)):
            if mask >> i & 1:
                block_at[i] = b
    per_colour = [0] * NUM_COLOURS
    starred_blocks: set[int] = set()
    choice: list[int] = []
    steps = 0

    # per column: its runs as (colour, block, rows)
    runs: list[list[tuple[int, int, list[int]]]] = []
    for c in range(COLS):
        col: list[tuple[int, int, list[int]]] = []
        for r in range(ROWS):
            i = r * COLS + c
            if col and col[-1][0] == colours[i]:
                col[-1][2].append(i)
            else:
                col.append((colours[i], block_at[i], [i]))
        runs.append(col)
    # blocks of each colour still reachable from column c on
    later: list[list[set[int]]] = [[set() for _ in range(NUM_COLOURS)] for _ in range(COLS + 1)]
    for c in range(COLS - 1, -1, -1):
        for k in range(NUM_COLOURS):
            later[c][k] = set(later[c + 1][k])
        for k, b, _ in runs[c]:
            later[c][k].add(b)

    def place(c: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > STEP_LIMIT:
            return False
        if c == COLS:
            return True
        for k in range(NUM_COLOURS):
            if len(later[c][k] - starred_blocks) < STARS_PER_COLOUR - per_colour[k]:
                return False
        col = runs[c]
        start = rng.randrange(len(col))
        for j in range(len(col)):
            k, b, boxes = col[(start + j) % len(col)]
            if per_colour[k] >= STARS_PER_COLOUR or b in starred_blocks:
                continue
            per_colour[k] += 1
            starred_blocks.add(b)
            choice.append(boxes[rng.randrange(len(boxes))])
            if place(c + 1):
                return True
            choice.pop()
            starred_blocks.discard(b)
            per_colour[k] -= 1
        return False

    if not place(0):
        return None
    stars = [False] * len(colours)
    for i in choice:
        stars[i] = True
    return stars


def generate_sheet(seed: int) -> Sheet:
    """A random valid sheet; the same seed always gives the same sheet."""
    rng = Rng(derive_seed(seed, "optimus-sheet"))
    while True:
        colours = _colours(rng)
        stars = _stars(colours, rng)
        if stars is None:
            continue
        sheet = Sheet(tuple(colours), tuple(stars))
        problem = find_problem(sheet)
        if problem is None:
            return sheet
        raise AssertionError(f"generator produced an invalid sheet ({problem})")  # pragma: no cover


def bench(seconds: float) -> dict[str, float]:
    """Mean milliseconds per random sheet (seeds 0, 1, 2, ..., for ``seconds`` and at
    least 20 sheets), for ``python -m optimus bench``."""
    import time

    done = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds or done < 20:
        generate_sheet(done)
        done += 1
    return {"optimus_sheet_generator_ms": (time.perf_counter() - t0) * 1000 / done}
