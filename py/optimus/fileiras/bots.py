"""Fileiras bots: ``easy``, ``normal`` and ``hard`` (plus the core's ``random``).

All bots decide from their observation alone: they rebuild the (exact,
public) state with :func:`~optimus.fileiras.game.state_from_observation` -- the
deck there is a multiset of counts, so no bot can know the order of the cards.

* ``easy`` -- a beginner: takes a row when it is immediately good for its own
  score, otherwise places the card where it helps itself most; it never looks
  at the other players.
* ``normal`` -- a fast heuristic (:mod:`optimus.fileiras.heuristics`): compares
  taking each row with the expected value of drawing, projecting how the
  others will share the remaining rows (so it weighs what a row gives the
  others, the risk that a short row is spoiled or taken before its next turn,
  and placing cards to hurt the leaders); exact look-ahead when alone in the
  round.
* ``hard`` -- determinized Monte Carlo search over the possible deck orders,
  with the ``normal`` evaluation at the leaves (see :class:`HardBot`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator, Mapping
from dataclasses import replace
from typing import ClassVar

from optimus.core.bots import Appraisal, Appraising, Budget, ChoiceBot, StateBot, Thinking
from optimus.fileiras.cards import CARDS_BENEATH_LAST, COLLECTION_KINDS, KIND_NAMES, LAST
from optimus.fileiras.game import FileirasState
from optimus.fileiras.heuristics import DEFAULT, Evaluator, Params

EASY_TAKE_GAIN = 3
"""``easy`` takes a row as soon as it would add at least this much to its score."""


def _best(values: Mapping[int, float]) -> int:
    """The key with the highest value (lowest key on ties)."""
    return max(sorted(values), key=lambda r: values[r])


def easy_choice(state: FileirasState, me: int) -> str:
    """The ``easy`` decision for ``me`` (who must be to act)."""
    value = state.scorer.value
    coll = state.coll[me]
    base = value(coll)

    def gain(cards: list[int]) -> int:
        after = list(coll)
        for k in cards:
            after[k] += 1
        return value(after) - base

    open_rows = [r for r in range(len(state.caps)) if state.row_taker[r] < 0]
    if state.phase == "place":
        card = state.drawn
        places = {
            r: gain([*state.rows[r], card]) - gain(state.rows[r])
            for r in open_rows
            if len(state.rows[r]) < state.caps[r]
        }
        return f"place {_best(places) + 1}"
    takes = {r: float(gain(state.rows[r])) for r in open_rows if state.rows[r]}
    if takes:
        r = _best(takes)
        if takes[r] >= EASY_TAKE_GAIN or not state.can_draw():
            return f"take {r + 1}"
    return "draw"


def normal_choice(state: FileirasState, me: int, params: Params = DEFAULT) -> str:
    """The ``normal`` decision for ``me`` (who must be to act)."""
    ev = Evaluator(state, params)
    if state.phase == "place":
        return f"place {_best(ev.place_values(me, state.drawn)) + 1}"
    takes = ev.take_values(me)
    if state.can_draw():
        draw = ev.draw_value(me)
        if not takes or draw >= max(takes.values()):
            return "draw"
    return f"take {_best(takes) + 1}"


class EasyBot(ChoiceBot):
    """A beginner: short-sighted, only looks at its own score."""

    level = "easy"

    def choice(self, state: FileirasState, legal_moves: list[str]) -> str:
        move = easy_choice(state, self.player)
        return move if move in legal_moves else legal_moves[0]


class NormalBot(ChoiceBot):
    """A fast heuristic player (a few milliseconds per decision)."""

    level = "normal"
    params: ClassVar[Params] = DEFAULT

    def choice(self, state: FileirasState, legal_moves: list[str]) -> str:
        move = normal_choice(state, self.player, self.params)
        return move if move in legal_moves else legal_moves[0]


class HardBot(StateBot):
    """Determinized Monte Carlo search with common random numbers.

    Each iteration samples one order of the remaining deck (the last-round
    card at its fixed depth) and plays every candidate move out under that
    same order to the end of the current round, every player following the
    ``normal`` policy; the position is then valued with the ``normal``
    evaluation (own score minus a blend of the best and the mean of the
    others, the leader weighed more). The move with the best mean wins; ties go
    to ``normal``'s choice. Every few orders, candidates that the leader beats
    clearly on the same orders (paired differences, ``prune_z`` standard
    errors) are dropped, and the search stops when one candidate is left.

    Budget: ``iterations`` sampled deck orders, capped by ``time_ms`` (both by
    default). Thinking yields after every few simulated decisions, so no
    step between yields lasts more than a few milliseconds.

    Not a :class:`~optimus.core.bots.SearchBot`: that one gives each playout to
    one candidate (UCB1) under its own sample; here every candidate is played
    under the same sampled order and compared in pairs, which tells moves apart
    in far fewer orders.
    """

    level = "hard"
    default_budget = Budget(time_ms=300, iterations=64)
    params: ClassVar[Params] = DEFAULT
    """Parameters of the ``normal`` policy used in the playouts."""
    eval_params: ClassVar[Params] = replace(DEFAULT, leader_weight=0.8)
    """Parameters of the leaf evaluation (weighs the leader more than ``normal`` does)."""
    slice_ms: ClassVar[float] = 2.0
    """A playout yields as soon as this much time has passed since its last yield."""
    prune_after: ClassVar[int] = 8
    """Sampled orders before candidates may be dropped."""
    prune_every: ClassVar[int] = 4
    """Sampled orders between two pruning checks."""
    prune_z: ClassVar[float] = 2.5
    """Drop a candidate when the leader beats it by this many standard errors."""

    def decide(self, state: FileirasState, legal_moves: list[str]) -> Thinking:
        limit, deadline = self.limits()
        best, _ = yield from self.search(state, legal_moves, limit, deadline)
        return best

    def appraise_state(self, state: FileirasState, legal_moves: list[str], move: str) -> Appraising:
        """The search with no clock: each move's mean value at the end of the round over
        the orders it was played under (its margin over the others, as the leaf values it)."""
        limit, _ = self.limits()
        best, means = yield from self.search(state, legal_moves, limit, None)
        return Appraisal(means, best)

    def search(
        self,
        state: FileirasState,
        legal_moves: list[str],
        limit: int | None,
        deadline: float | None,
    ) -> Generator[None, None, tuple[str, dict[str, float]]]:
        """The best move (the best mean of those still in the search; the first of ties,
        ``normal``'s choice first) and every move's mean playout value: a move dropped by
        :meth:`prune` keeps its mean over the orders it was played under (none played:
        ``normal``'s choice alone, at 0)."""
        me = self.player
        yield None
        fallback = normal_choice(state, me, self.params)
        moves = [fallback] + [m for m in legal_moves if m != fallback]
        values: list[list[float]] = [[] for _ in moves]
        alive = list(range(len(moves)))
        done = 0
        yield None
        while (
            len(alive) > 1
            and (limit is None or done < limit)
            and (deadline is None or time.perf_counter() < deadline)
        ):
            order = self.sample_order(state)
            for i in alive:
                sim = state.clone()
                sim.apply_move(me, moves[i])
                values[i].append((yield from self.playout(sim, order)))
                yield None
            done += 1
            if done >= self.prune_after and done % self.prune_every == 0:
                alive = self.prune(values, alive)
        if done == 0:
            return fallback, {fallback: 0.0}
        means = {moves[i]: sum(values[i][:done]) / done for i in alive}
        best = max(means, key=means.__getitem__)
        for i, move in enumerate(moves):
            if move not in means and values[i]:
                means[move] = sum(values[i]) / len(values[i])
        return best, means

    def prune(self, values: list[list[float]], alive: list[int]) -> list[int]:
        """Drop the candidates clearly worse than the leader (paired over the same orders)."""
        n = min(len(values[i]) for i in alive)
        best = max(alive, key=lambda i: sum(values[i][:n]))
        keep = []
        for i in alive:
            if i == best:
                keep.append(i)
                continue
            diffs = [a - b for a, b in zip(values[best][:n], values[i][:n], strict=True)]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean <= self.prune_z * math.sqrt(var / n):
                keep.append(i)
        return keep

    def sample_order(self, state: FileirasState) -> list[int]:
        """One order of the remaining deck consistent with the public information."""
        cards = [k for k in range(COLLECTION_KINDS) for _ in range(state.deck[k])]
        self.rng.shuffle(cards)
        if state.deck[LAST]:
            cards.insert(state.remaining - CARDS_BENEATH_LAST, LAST)
        return cards

    def playout(self, sim: FileirasState, order: list[int]) -> Generator[None, None, float]:
        """Play to the end of the round with ``normal`` for everyone; value it for me."""
        start_round = sim.round
        drawn = 0
        params = self.params
        clock = time.perf_counter
        slice_s = self.slice_ms / 1000
        last_yield = clock()
        while not sim.is_terminal() and sim.round == start_round:
            if sim.is_chance():
                sim.apply_chance(KIND_NAMES[order[drawn]])
                drawn += 1
                continue
            p = sim.current
            legal = sim.legal_moves(p)
            sim.apply_move(p, legal[0] if len(legal) == 1 else normal_choice(sim, p, params))
            if clock() - last_yield > slice_s:
                yield None
                last_yield = clock()
        return Evaluator(sim, self.eval_params).relative(self.player, {})


LEVELS = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}
