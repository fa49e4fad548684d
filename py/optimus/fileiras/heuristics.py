"""Position evaluation shared by the Fileiras bots (pure functions of a state).

Every function here reads only public information: the rows, the
collections, who has taken a row and the deck *composition* (a state has no
deck order). The bots rebuild the state from their observation first.

The core idea (used by ``normal`` and as ``hard``'s leaf evaluation) is a
*greedy projection* of the rest of the round: the players still in the round,
in turn order, take their best row if it is good enough, then everyone left
takes the best row that remains. Each player's projected gain gives a
relative value: my projected score minus a blend of the best and the mean of
the others' projected scores.
"""

from __future__ import annotations

from dataclasses import dataclass

from optimus.fileiras.cards import COLLECTION_KINDS
from optimus.fileiras.game import FileirasState

Row = tuple[int, ...]
"""A row's cards as a sorted tuple of kinds (order within a row never matters)."""


@dataclass(frozen=True)
class Params:
    """Tunable weights of the heuristic."""

    take_threshold: float = 2.0
    """In the projection, a player takes a row at once if it gains at least this much."""
    leader_weight: float = 0.5
    """Others' value: this share of the best other, the rest of the mean of the others."""
    empty_row_factor: float = 1.5
    """An empty row is worth this many times the expected gain of one random card."""
    draw_bias: float = 2.5
    """Added to the value of drawing (positive: more patient), standard table."""
    advanced_draw_bias: float = 1.0
    """The same with the advanced table (its points are smaller)."""
    solo_depth: int = 3
    """Draws looked ahead when the player is the only one left in the round: exact with
    one open row (3 places at most); one draw less with two open rows (2 players)."""


DEFAULT = Params()


class Evaluator:
    """Gains and projections for one position, with a per-decision cache."""

    def __init__(self, state: FileirasState, params: Params = DEFAULT) -> None:
        self.state = state
        self.params = params
        self.value = state.scorer.value
        self.base = [self.value(c) for c in state.coll]
        self._cache: dict[tuple[int, Row], int] = {}
        deck = state.deck
        self.kinds = [(k, deck[k]) for k in range(COLLECTION_KINDS) if deck[k]]
        self.deck_total = sum(n for _, n in self.kinds)
        self._empty: dict[int, float] = {}
        self._solo_cache: dict[tuple[int, tuple[Row, ...], int], float] = {}

    # -- gains ---------------------------------------------------------
    def gain(self, player: int, row: Row) -> int:
        """Score change for ``player`` taking ``row`` (sorted tuple of kinds)."""
        key = (player, row)
        g = self._cache.get(key)
        if g is None:
            after = list(self.state.coll[player])
            for k in row:
                after[k] += 1
            g = self._cache[key] = self.value(after) - self.base[player]
        return g

    def empty_value(self, player: int) -> float:
        """What an empty row is worth to ``player`` (it will get cards before it is taken)."""
        v = self._empty.get(player)
        if v is None:
            if self.deck_total:
                mean = sum(n * self.gain(player, (k,)) for k, n in self.kinds) / self.deck_total
            else:
                mean = 0.0
            v = self._empty[player] = mean * self.params.empty_row_factor
        return v

    def row_value(self, player: int, row: Row) -> float:
        return self.gain(player, row) if row else self.empty_value(player)

    # -- projection ------------------------------------------------------
    def project(self, rows: list[Row], order: list[int]) -> dict[int, float]:
        """Projected gains of ``order``'s players sharing ``rows`` greedily (see module doc)."""
        avail = list(rows)
        got: dict[int, float] = {}
        later: list[int] = []
        threshold = self.params.take_threshold
        for p in order:
            if not avail:
                got[p] = 0.0
                continue
            best_i, best = self._best_row(p, avail)
            if best >= threshold and avail[best_i]:
                got[p] = best
                avail.pop(best_i)
            else:
                later.append(p)
        for p in later:
            if not avail:
                got[p] = 0.0
                continue
            best_i, best = self._best_row(p, avail)
            got[p] = best
            avail.pop(best_i)
        return got

    def _best_row(self, p: int, avail: list[Row]) -> tuple[int, float]:
        """Index and value of the row in ``avail`` worth most to ``p`` (first on ties)."""
        best_i, best = 0, self.row_value(p, avail[0])
        for i in range(1, len(avail)):
            v = self.row_value(p, avail[i])
            if v > best:
                best_i, best = i, v
        return best_i, best

    def relative(self, me: int, gains: dict[int, float]) -> float:
        """My projected score minus the others' (blend of best and mean)."""
        base = self.base
        mine = base[me] + gains.get(me, 0.0)
        others = [base[p] + gains.get(p, 0.0) for p in range(len(base)) if p != me]
        if not others:
            return mine
        w = self.params.leader_weight
        return mine - (w * max(others) + (1 - w) * sum(others) / len(others))

    # -- helpers on the position ------------------------------------------
    def open_rows(self) -> list[int]:
        s = self.state
        return [r for r in range(len(s.caps)) if s.row_taker[r] < 0]

    def others_in_order(self, me: int) -> list[int]:
        """Players still in the round after ``me``, in turn order."""
        s = self.state
        n = s.num_players
        return [(me + i) % n for i in range(1, n) if not s.took[(me + i) % n]]

    # -- the two decisions ---------------------------------------------------
    def _open(self, me: int) -> tuple[list[int], list[int], dict[int, tuple[int, ...]]]:
        """The open rows, the others after ``me`` in turn order, each open row's cards sorted."""
        open_rows = self.open_rows()
        rows = {r: tuple(sorted(self.state.rows[r])) for r in open_rows}
        return open_rows, self.others_in_order(me), rows

    def take_values(self, me: int) -> dict[int, float]:
        """Relative value of taking each non-empty open row (by row index)."""
        open_rows, others, rows = self._open(me)
        out: dict[int, float] = {}
        for r in open_rows:
            if not rows[r]:
                continue
            rest = [rows[x] for x in open_rows if x != r]
            gains = self.project(rest, others) if others else {}
            gains[me] = self.gain(me, rows[r])
            out[r] = self.relative(me, gains)
        return out

    def place_values(self, me: int, card: int) -> dict[int, float]:
        """Relative value of placing ``card`` on each open row with room (by row index)."""
        s = self.state
        open_rows, others, rows = self._open(me)
        out: dict[int, float] = {}
        for r in open_rows:
            if len(rows[r]) >= s.caps[r]:
                continue
            placed = dict(rows)
            placed[r] = tuple(sorted((*rows[r], card)))
            if others:
                gains = self.project([placed[x] for x in open_rows], [*others, me])
                out[r] = self.relative(me, gains)
            else:
                caps = tuple(s.caps[x] for x in open_rows)
                solo = self._solo_gain(me, tuple(placed[x] for x in open_rows), caps, 0)
                out[r] = solo + self.relative(me, {})
        return out

    def draw_value(self, me: int) -> float:
        """Expected relative value of drawing (the best placement of each possible card)."""
        if not self.deck_total:
            return float("-inf")
        others = self.others_in_order(me)
        if not others:
            s = self.state
            open_rows = self.open_rows()
            rows = tuple(tuple(sorted(s.rows[r])) for r in open_rows)
            caps = tuple(s.caps[r] for r in open_rows)
            return self._solo_draw_gain(me, rows, caps, 0) + self.relative(me, {})
        total = 0.0
        for k, n in self.kinds:
            total += n * max(self.place_values(me, k).values())
        params = self.params
        bias = params.advanced_draw_bias if self.state.advanced else params.draw_bias
        return total / self.deck_total + bias

    # -- alone in the round: exact expectimax over my own draws ---------------
    def _solo_gain(
        self, me: int, rows: tuple[Row, ...], caps: tuple[int, ...], depth: int
    ) -> float:
        """Best expected gain when ``me`` alone chooses between taking and drawing.

        Exact up to ``solo_depth`` further draws: the deck composition shrinks
        with every card drawn (the cards in ``rows`` beyond the position's
        rows have left the deck).
        """
        key = (me, rows, depth)
        cached = self._solo_cache.get(key)
        if cached is not None:
            return cached
        best = max((self.gain(me, row) for row in rows if row), default=float("-inf"))
        max_depth = self.params.solo_depth if len(rows) == 1 else self.params.solo_depth - 1
        if depth < max_depth and any(len(row) < cap for row, cap in zip(rows, caps, strict=True)):
            best = max(best, self._solo_draw_gain(me, rows, caps, depth))
        if best == float("-inf"):
            best = self.empty_value(me)
        self._solo_cache[key] = best
        return best

    def _solo_draw_gain(
        self, me: int, rows: tuple[Row, ...], caps: tuple[int, ...], depth: int
    ) -> float:
        deck = list(self.state.deck[:COLLECTION_KINDS])
        for r in self.open_rows():
            for k in self.state.rows[r]:
                deck[k] += 1  # the position's own row cards are counted out below
        if self.state.drawn >= 0:
            deck[self.state.drawn] += 1  # the drawn card, not in the deck, is in ``rows``
        for row in rows:
            for k in row:
                deck[k] -= 1
        total_cards = sum(deck)
        if total_cards <= 0:
            return float("-inf")
        total = 0.0
        for k, n in enumerate(deck):
            if n <= 0:
                continue
            best = float("-inf")
            for i, (row, cap) in enumerate(zip(rows, caps, strict=True)):
                if len(row) < cap:
                    placed = (*rows[:i], tuple(sorted((*row, k))), *rows[i + 1 :])
                    best = max(best, self._solo_gain(me, placed, caps, depth + 1))
            total += n * best
        return total / total_cards
