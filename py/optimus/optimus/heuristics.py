"""The Optimus evaluation the bots share: what a sheet is worth to its player.

``value(marks, jokers)`` is the score the sheet has now plus credit for work in
progress: columns and colours part-filled (more as they near completion, less
as the end nears or once someone else has taken the first value), room to grow
(free boxes next to a mark) and a cost per piece a block has been cut into
(each piece needs its own exact roll). Bit masks keep it at a few
microseconds per sheet.
"""

from __future__ import annotations

from dataclasses import dataclass

from optimus.optimus.game import COLOUR_BONUS, JOKERS, SOLO_ROLLS, OptimusState
from optimus.optimus.sheet import (
    COLUMN_MASKS,
    COLUMN_POINTS,
    NUM_COLOURS,
    ROWS,
    Layout,
    bits,
    columns_of,
    components,
    eligible_of,
)


def _table(
    prospect: list[float], weight: float, fade: float, power: float, done: int
) -> list[float]:
    """Value by marked boxes of a column or colour of ``len(prospect) - 1`` boxes: the
    prospect times ``weight`` and ``fade`` times the share marked to the ``power``;
    ``done`` when full."""
    total = len(prospect) - 1
    table = [prospect[n] * weight * fade * (n / total) ** power for n in range(total)]
    table.append(float(done))
    return table


@dataclass(frozen=True)
class Params:
    """Weights of the evaluation (tuned by random search on solo games, harbour sheet)."""

    column_weight: float = 1.04
    column_power: float = 4.84
    colour_weight: float = 1.86
    colour_power: float = 3.44
    frontier: float = 0.64
    piece: float = 3.48
    joker: float = 1.8
    horizon: float = 50.5
    """Rolls over which work in progress keeps its full credit."""
    box: float = 0.43
    """Credit per marked box (progress in general)."""
    column_need: float = 2.2
    """Credit for a column by the rolls it still needs (colours left in it)."""
    column_base: float = 0.62
    colour_need: float = 2.02
    """Credit for a colour by the rolls it still needs (pieces left to fill)."""
    colour_base: float = 0.8
    race: float = 0.0
    """Players only: share of a first value lost per box the most advanced other is ahead."""
    race_lead: float = 1.0
    """Boxes of margin the race term assumes the others have (their roll comes too)."""


DEFAULT = Params()
PARTIAL_CAP = 0.9
"""Credit for an unfinished column or colour never reaches this share of its points."""


def _pieces(layout: Layout, b: int, free: int) -> int:
    """Pieces (connected groups) the free boxes of block ``b`` form."""
    key = (b, free)
    cache = layout.__dict__.setdefault("_pieces", {})
    found: int | None = cache.get(key)
    if found is None:
        found = cache[key] = len(components(free))
    return found


class Evaluator:
    """The value of sheets for one player in one position (context fixed at creation)."""

    def __init__(self, state: OptimusState, player: int, params: Params = DEFAULT) -> None:
        self.state = state
        self.player = player
        self.params = params
        layout = state.layout
        self.layout = layout
        self.roll = state.roll
        rolls_left = self.rolls_left()
        self.rolls_left_estimate = rolls_left
        fade = min(1.0, rolls_left / params.horizon)
        # column tables: value by number of marked boxes (0..7)
        others = [state.marks[p] for p in range(state.num_players) if p != player]
        self.column_tables: list[list[float]] = []
        self.column_prospects: list[list[float]] = []
        for c, cm in enumerate(COLUMN_MASKS):
            when = state.column_roll[player][c] or state.roll
            first = state.solo or not state.column_first[c] or state.column_first[c] == when
            done = COLUMN_POINTS[c][0 if first else 1]
            prospect = [float(done)] * (ROWS + 1)
            if first and not state.column_first[c] and others and params.race:
                lead = max((m & cm).bit_count() for m in others)
                points = COLUMN_POINTS[c]
                prospect = [self._race(points, n, lead) for n in range(ROWS + 1)]
            table = _table(prospect, params.column_weight, fade, params.column_power, done)
            self.column_tables.append(table)
            self.column_prospects.append(prospect)
        self.colour_tables: list[list[float]] = []
        self.colour_prospects: list[list[float]] = []
        for k, km in enumerate(layout.colour_masks):
            when = state.colour_roll[player][k] or state.roll
            first = state.solo or not state.colour_first[k] or state.colour_first[k] == when
            done = COLOUR_BONUS[0 if first else 1] if state.bonuses else 0
            total = km.bit_count()
            prospect = [float(done)] * (total + 1)
            if first and not state.colour_first[k] and others and params.race and done:
                lead = max((m & km).bit_count() for m in others)
                scale = ROWS / total
                prospect = [
                    self._race(COLOUR_BONUS, n * scale, lead * scale) for n in range(total + 1)
                ]
            table = _table(prospect, params.colour_weight, fade, params.colour_power, done)
            self.colour_tables.append(table)
            self.colour_prospects.append(prospect)
        self.frontier = params.frontier * fade
        self.joker = params.joker if rolls_left > 0 else 1.0
        """What an unused "!" is worth: a point once the game is over, more while it can help."""
        self.piece = params.piece * fade
        self.box = params.box * fade
        self.runs = [tuple(cm & km for km in layout.colour_masks) for cm in COLUMN_MASKS]
        self.column_need = [0.0] + [
            params.column_need * fade * params.column_base**j for j in range(1, 6)
        ]
        self.colour_need = [0.0] + [
            params.colour_need * fade * params.colour_base**j for j in range(1, 40)
        ]

    def _race(self, points: tuple[int, int], mine: float, lead: float) -> float:
        """Expected points of completing a column or colour no one has taken yet.

        The first value, less what is lost to the others by how far the most
        advanced of them is ahead (``race`` per box, ``race_lead`` boxes of
        margin): with the race term off, always the first value.
        """
        params = self.params
        p = 1.0 - params.race * (lead - mine + params.race_lead)
        p = min(1.0, max(0.0, p))
        return points[1] + (points[0] - points[1]) * p

    def column_term(self, c: int, marks: int) -> float:
        """Column ``c``: its points if complete, else capped credit for the work done."""
        table = self.column_tables[c]
        n = (marks & COLUMN_MASKS[c]).bit_count()
        if n == ROWS:
            return table[n]
        free = ~marks
        j = 0
        for rm in self.runs[c]:
            if rm & free:
                j += 1
        prospect = self.column_prospects[c][n]
        return min(PARTIAL_CAP * prospect, table[n] + prospect * self.column_need[j])

    def colour_term(self, k: int, marks: int) -> float:
        """Colour ``k``: its bonus if complete, else capped credit for the work done."""
        layout = self.layout
        table = self.colour_tables[k]
        n = (marks & layout.colour_masks[k]).bit_count()
        if n == len(table) - 1:
            return table[n]
        free = ~marks
        j = 0
        for b in layout.blocks_by_colour[k]:
            f = layout.blocks[b][1] & free
            if f:
                j += _pieces(layout, b, f)
        prospect = self.colour_prospects[k][n]
        return min(PARTIAL_CAP * prospect, table[n] + prospect * self.colour_need[j])

    def rolls_left(self) -> float:
        """Rolls still to come (an estimate in a game with others)."""
        s = self.state
        if s.solo:
            return float(max(0, SOLO_ROLLS - s.roll))
        # the game ends when someone completes a second colour: estimate from the leader
        best = 0.0
        for p in range(s.num_players):
            marks = s.marks[p]
            fills = sorted(
                ((marks & m).bit_count() / m.bit_count() for m in s.layout.colour_masks),
                reverse=True,
            )
            best = max(best, fills[0] + fills[1])
        return max(1.0, 40.0 * (2.0 - best) / 2.0 - 4.0)

    def value(self, marks: int, jokers_left: int) -> float:
        layout = self.layout
        v = self.joker * jokers_left - 2.0 * (layout.star_mask & ~marks).bit_count()
        v += self.box * marks.bit_count()
        for c in range(len(COLUMN_MASKS)):
            v += self.column_term(c, marks)
        for k in range(NUM_COLOURS):
            v += self.colour_term(k, marks)
        free = ~marks
        v += self.frontier * eligible_of(marks).bit_count()
        pieces = 0
        for b, (_, bm) in enumerate(layout.blocks):
            f = bm & free
            if f and f != bm:
                pieces += _pieces(layout, b, f) - 1
        return v - self.piece * pieces

    def gain(self, marks: int, mask: int, cost: int, frontier_before: int = -1) -> float:
        """``value(marks | mask, j - cost) - value(marks, j)``, computed from what changes."""
        if not mask:
            return -self.joker * cost
        layout = self.layout
        new = marks | mask
        d = (
            2.0 * (layout.star_mask & mask).bit_count()
            + self.box * mask.bit_count()
            - self.joker * cost
        )
        low = (mask & -mask).bit_length() - 1
        for c in bits(columns_of(mask)):
            d += self.column_term(c, new) - self.column_term(c, marks)
        b = layout.block_of[low]
        k, bm = layout.blocks[b]
        d += self.colour_term(k, new) - self.colour_term(k, marks)
        if frontier_before < 0:
            frontier_before = eligible_of(marks).bit_count()
        after = eligible_of(new).bit_count()
        d += self.frontier * (after - frontier_before)
        d -= self.piece * (self._cut(b, bm, bm & ~new) - self._cut(b, bm, bm & ~marks))
        return d

    def _cut(self, b: int, bm: int, free: int) -> int:
        if not free or free == bm:
            return 0
        return _pieces(self.layout, b, free) - 1

    def frontier_of(self, marks: int) -> int:
        return eligible_of(marks).bit_count()

    def base(self) -> float:
        p = self.player
        return self.value(self.state.marks[p], JOKERS - self.state.jokers_used[p])
