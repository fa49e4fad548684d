"""Optimus bots: ``easy``, ``normal`` and ``hard`` (plus the core's ``random``).

Every bot decides from its observation alone: it rebuilds the (public) state
with :func:`~optimus.optimus.game.state_from_observation`; the only hidden
things, future rolls and the others' pending choices, are not in it.

* ``easy`` -- a beginner: marks as many boxes as it can, likes stars, avoids
  spending "!", and looks no further.
* ``normal`` -- the shared, hand-made evaluation
  (:mod:`optimus.optimus.heuristics`: points now, columns and colours on their
  way, room to grow, pieces left to fill): its best three moves, the best of
  them one roll ahead.
* ``hard`` -- alone, a value network (:attr:`HardBot.solo_net`,
  :mod:`optimus.optimus.net`): its best five afterstates (:attr:`HardBot.solo_look`)
  valued one roll ahead, exact over the dice, with the network at the leaves. With
  others, the value network of :mod:`optimus.optimus.net_multi`
  (:attr:`HardBot.multi_net`): the move whose sheet it values most. With no network,
  expectimax over the next two rolls, exact over the dice
  (:mod:`optimus.optimus.lookahead`), valuing sheets with the learned evaluation
  (:mod:`optimus.optimus.value`) alone, the shared one with others, weighing what
  the four dice it leaves when active are worth to the others (see :class:`HardBot`).
"""

from __future__ import annotations

import time
from collections.abc import Generator, Mapping
from typing import ClassVar

from optimus.core.bots import (
    Appraisal,
    Appraising,
    Budget,
    ChoiceBot,
    StateBot,
    Thinking,
    run_to_end,
)
from optimus.core.mlp import Mlp
from optimus.core.protocol import JSON
from optimus.core.rng import Rng
from optimus.optimus import net_multi
from optimus.optimus.game import (
    JOKERS,
    OptimusState,
    joker_cost,
    parse_move,
)
from optimus.optimus.heuristics import DEFAULT, Evaluator, Params
from optimus.optimus.lookahead import Leaf, Lookahead
from optimus.optimus.net import NETS, NetLeaf, choices, has_net, move_values
from optimus.optimus.value import SheetEvaluator, make_evaluator

Option = tuple[float, str]


def _parsed(move: str) -> tuple[str, str, int, int]:
    """``(colour face, number face, mask, joker cost)``; pass is ``("", "", 0, 0)``."""
    if move == "pass":
        return "", "", 0, 0
    cf, nf, mask = parse_move(move)
    return cf, nf, mask, joker_cost(cf, nf)


RANK_SLICE = 120
"""Moves valued between two yields when ``hard`` ranks them."""


def ranking(
    ev: SheetEvaluator, state: OptimusState, me: int, legal: list[str]
) -> Generator[None, None, list[Option]]:
    """Legal moves with their one-ply value, best first (ties: order of ``legal``).

    Yields every :data:`RANK_SLICE` moves (a position may have hundreds).
    """
    marks = state.marks[me]
    base = ev.value(marks, JOKERS - state.jokers_used[me])
    front = ev.frontier_of(marks)
    out = []
    for i, move in enumerate(legal):
        _, _, mask, cost = _parsed(move)
        out.append((base + ev.gain(marks, mask, cost, front), i, move))
        if i % RANK_SLICE == RANK_SLICE - 1:
            yield None
    out.sort(key=lambda t: (-t[0], t[1]))
    return [(v, m) for v, _, m in out]


def ranked(ev: SheetEvaluator, state: OptimusState, me: int, legal: list[str]) -> list[Option]:
    """:func:`ranking` run to the end."""
    return run_to_end(ranking(ev, state, me, legal))


def best_gain(
    ev: SheetEvaluator,
    marks: int,
    left: int,
    dice_c: list[str],
    dice_n: list[str],
    jokers: bool = True,
) -> tuple[float, int, int]:
    """The greedy choice on one sheet for given dice: ``(value, new marks, "!" left)``.

    ``jokers=False`` ignores the joker faces (a faster, plainer policy).
    """
    if not jokers:
        dice_c = [f for f in dice_c if f != "x"]
        dice_n = [f for f in dice_n if f != "?"]
    base = ev.value(marks, left)
    best_d, best_mask, best_cost = 0.0, 0, 0
    front = ev.frontier_of(marks)
    for mask, cost in choices(ev.layout, marks, left, dice_c, dice_n)[1:]:
        d = ev.gain(marks, mask, cost, front)
        if d > best_d:
            best_d, best_mask, best_cost = d, mask, cost
    return base + best_d, marks | best_mask, left - best_cost


def easy_choice(state: OptimusState, me: int, legal: list[str]) -> str:
    """Most boxes, stars count double, "!" avoided; nothing else."""
    stars = state.layout.star_mask
    best, best_value = legal[0], 0.0
    for move in legal:
        _, _, mask, cost = _parsed(move)
        value = mask.bit_count() + 2 * (mask & stars).bit_count() - 1.5 * cost
        if value > best_value:
            best, best_value = move, value
    return best


def distinct(options: list[Option], active: bool, count: int) -> list[Option]:
    """The first ``count`` options that differ in resulting sheet and "!" spent.

    When ``active`` (the others choose from what is left), also in the pair of
    dice taken.
    """
    picked: list[Option] = []
    keys: set[tuple[int, int, str]] = set()
    for value, move in options:
        cf, nf, mask, cost = _parsed(move)
        key = (mask, cost, cf + nf if active else "")
        if key in keys:
            continue
        keys.add(key)
        picked.append((value, move))
        if len(picked) >= count:
            break
    return picked


NORMAL_LOOK = 3
"""Moves ``normal`` values one roll ahead (the evaluation's best few)."""


def normal_choice(
    state: OptimusState,
    me: int,
    legal: list[str],
    params: Params = DEFAULT,
    look: int = NORMAL_LOOK,
    learned: bool = False,
) -> str:
    """The evaluation's best ``look`` moves, the best of them one roll ahead."""
    options = ranked(make_evaluator(state, me, params, learned), state, me, legal)
    picked = distinct(options, False, look)
    if len(picked) == 1:
        return picked[0][1]
    ahead = Lookahead(state, me, params, learned)
    marks, left = state.marks[me], JOKERS - state.jokers_used[me]
    best, best_value = picked[0][1], float("-inf")
    for _, move in picked:
        _, _, mask, cost = _parsed(move)
        value = ahead.one(marks | mask, left - cost)
        if value > best_value:
            best, best_value = move, value
    return best


class EasyBot(ChoiceBot):
    level = "easy"

    def choice(self, state: OptimusState, legal_moves: list[str]) -> str:
        return easy_choice(state, self.player, legal_moves)


class NormalBot(ChoiceBot):
    level = "normal"
    params: ClassVar[Params] = DEFAULT
    learned: ClassVar[bool] = False

    def choice(self, state: OptimusState, legal_moves: list[str]) -> str:
        return normal_choice(state, self.player, legal_moves, self.params, learned=self.learned)


class HardBot(StateBot):
    """Alone, on its network (:attr:`solo_net`) one roll ahead (:meth:`net_look`); with
    others, on theirs (:attr:`multi_net`); with no network, expectimax over the next two
    rolls, exact over the dice.

    Candidates: the ``candidates`` best moves by the evaluation (one per
    resulting sheet and "!" count, or per pair of dice taken when active).
    Each is valued one roll ahead -- the mean, over every way the next roll
    can fall, of the best sheet it allows (:class:`~optimus.optimus.lookahead.Lookahead`)
    -- and the best of them two rolls ahead, as many as the budget allows
    (``iterations``: candidates searched two rolls deep, capped by
    ``time_ms``). When active, each candidate is also charged ``deny`` times
    the mean gain the four dice it leaves give the others (their greedy best
    with those dice). The search yields after every sheet it values (a few
    milliseconds). In solo (``learned``) sheets are valued by the learned
    evaluation (:mod:`optimus.optimus.value`), else by the hand-made one;
    ``multi`` (off: it wins less, see docs/notes/bots-history.md) values them
    in games with others by the learned multi-player evaluation
    (:mod:`optimus.optimus.value_multi`).

    Not a :class:`~optimus.core.bots.SearchBot`: a roll has few enough outcomes
    to enumerate, so it computes exact expectations where ``SearchBot`` samples
    playouts.
    """

    level = "hard"
    default_budget = Budget(time_ms=300, iterations=4)
    params: ClassVar[Params] = DEFAULT
    candidates: ClassVar[int] = 10
    deny: ClassVar[float] = 1.0
    """The charge per point the others gain from the dice it leaves (1.0 wins 5 points
    more often against three ``normal`` than 0.5: docs/notes/bots-history.md)."""
    learned: ClassVar[bool] = True
    multi: ClassVar[bool] = False
    solo_net: ClassVar[str | None] = "net_weights"
    """Solo: the value network to play by (:mod:`optimus.optimus.net`, a name in
    :data:`~optimus.optimus.net.NETS`: the package's ``net_weights.json``); None, or no
    such network: the search."""
    solo_look: ClassVar[int] = 5
    """Alone on the network: how many of its best afterstates are valued one roll ahead
    (the exact mean over the next roll, the network at the leaves); 0: its argmax. With
    5, 1.4 points above the argmax on the network it was chosen on (docs/bots.md)."""
    solo_inner: ClassVar[int] = 1
    """Alone on the network, in its look one roll ahead: how many markings of each colour
    and size (the linear evaluation's best) the network values at the leaves."""
    multi_net: ClassVar[str | None] = "net_multi_weights"
    """With others: the value network to play by (afterstate argmax, in
    :data:`optimus.optimus.net_multi.NETS`; it wins more often against three ``normal``
    than the search, docs/bots.md); None, or no such network: the search."""

    def decide(self, state: OptimusState, legal_moves: list[str]) -> Thinking:
        limit, deadline = self.limits()
        values = yield from self.search(state, legal_moves, limit, deadline)
        return max(values, key=values.__getitem__)  # the first of ties: the best by one roll

    def appraise_state(self, state: OptimusState, legal_moves: list[str], move: str) -> Appraising:
        """The search with no clock, ``move`` among the candidates valued two rolls ahead
        (alone on the network: one roll ahead): each one's expected value of the sheet
        (points)."""
        limit, _ = self.limits()
        values = yield from self.search(state, legal_moves, limit, None, move)
        return Appraisal(values, max(values, key=values.__getitem__))

    def search(
        self,
        state: OptimusState,
        legal_moves: list[str],
        limit: int | None,
        deadline: float | None,
        move: str | None = None,
    ) -> Generator[None, None, dict[str, float]]:
        """The candidates valued two rolls ahead (the ``limit`` best by one roll, as long as
        ``deadline`` allows, and ``move`` if given), in the order of their one-roll value;
        alone the best by one roll if the clock allowed no more. Alone on the network
        (:meth:`plays_net`): every legal move's afterstate value, or with
        :attr:`solo_look` the best few one roll ahead (:meth:`net_look`); with others on
        theirs (:meth:`plays_multi_net`): every legal move's afterstate value."""
        me = self.player
        yield None
        if self.plays_net(state):
            assert self.solo_net is not None
            model = NETS.get(self.solo_net)
            afterstates = yield from self.net_values(model, state, legal_moves)
            if not self.solo_look:
                return afterstates
            return (yield from self.net_look(state, model, afterstates, deadline, move))
        if self.plays_multi_net(state):
            assert self.multi_net is not None
            multi = net_multi.NETS.get(self.multi_net)
            return (yield from net_multi.move_values(multi, state, me, legal_moves))
        ev = make_evaluator(state, me, self.params, self.learned, self.multi)
        options = yield from ranking(ev, state, me, legal_moves)
        yield None
        active = state.phase == "active" and not state.solo
        picked = distinct(options, active, self.candidates)
        if move is not None and move not in [m for _, m in picked]:
            picked.append(next(o for o in options if o[1] == move))
        if len(picked) == 1:
            return {picked[0][1]: picked[0][0]}
        penalty = [0.0] * len(picked)
        if active:
            penalty = yield from self.denial(state, [m for _, m in picked])
        look = Lookahead(state, me, self.params, self.learned, self.multi)
        marks, left = state.marks[me], JOKERS - state.jokers_used[me]
        sheets = []
        for _, candidate in picked:
            _, _, mask, cost = _parsed(candidate)
            sheets.append((marks | mask, left - cost))
        one: list[float] = []
        for i, (m, j) in enumerate(sheets):
            if one and deadline is not None and time.perf_counter() > deadline:
                break  # the clock is spent: the best of those valued so far
            value = yield from look.one_steps(m, j)
            one.append(value - penalty[i])
        order = sorted(range(len(one)), key=lambda i: (-one[i], i))
        values: dict[str, float] = {}
        for done, i in enumerate(order):
            mine = picked[i][1] == move
            if not mine and limit is not None and done >= limit:
                continue
            if not mine and deadline is not None and time.perf_counter() > deadline:
                continue
            values[picked[i][1]] = (yield from look.two(*sheets[i])) - penalty[i]
        if not values:
            values[picked[order[0]][1]] = one[order[0]]
        return values

    def net_values(
        self, model: Mlp, state: OptimusState, legal_moves: list[str]
    ) -> Generator[None, None, dict[str, float]]:
        """Alone on the network: each legal move's afterstate value."""
        return (yield from move_values(model, state, self.player, legal_moves))

    def net_leaf(self, model: Mlp, state: OptimusState) -> Leaf:
        """Alone on the network: the leaf of :meth:`net_look`'s look-ahead."""
        return NetLeaf(model, state.layout)

    def net_look(
        self,
        state: OptimusState,
        model: Mlp,
        values: dict[str, float],
        deadline: float | None,
        move: str | None = None,
    ) -> Generator[None, None, dict[str, float]]:
        """Alone on the network: its :attr:`solo_look` best afterstates (and ``move``)
        valued one roll ahead, the network at the leaves (the best of the clock's)."""
        order = sorted(values, key=lambda m: -values[m])  # stable: ties in the legal order
        picked = distinct([(values[m], m) for m in order], False, self.solo_look)
        if move is not None and move not in [m for _, m in picked]:
            picked.append((values[move], move))
        if len(picked) == 1:
            return {picked[0][1]: picked[0][0]}
        look = Lookahead(
            state,
            self.player,
            self.params,
            self.learned,
            leaf=self.net_leaf(model, state),
            inner=self.solo_inner,
        )
        marks, left = state.marks[self.player], JOKERS - state.jokers_used[self.player]
        out: dict[str, float] = {}
        for _, candidate in picked:
            if (
                out
                and candidate != move
                and deadline is not None
                and time.perf_counter() > deadline
            ):
                continue  # the clock is spent: the best of those valued so far
            _, _, mask, cost = _parsed(candidate)
            out[candidate] = yield from look.one_steps(marks | mask, left - cost)
        return out

    def warm(self, observation: Mapping[str, JSON]) -> None:
        """Read the network this seat plays on (:meth:`plays_net`, :meth:`plays_multi_net`),
        if any."""
        state = self.rebuild(observation, Rng(0))
        if self.plays_net(state):
            assert self.solo_net is not None
            NETS.get(self.solo_net)
        if self.plays_multi_net(state):
            assert self.multi_net is not None
            net_multi.NETS.get(self.multi_net)

    def plays_net(self, state: OptimusState) -> bool:
        """Whether this decision is the value network's (alone, the network there)."""
        return state.solo and self.solo_net is not None and has_net(self.solo_net)

    def plays_multi_net(self, state: OptimusState) -> bool:
        """Whether this decision is the network's for games with others (with others, the
        network there)."""
        return not state.solo and self.multi_net is not None and net_multi.has_net(self.multi_net)

    def denial(self, state: OptimusState, moves: list[str]) -> Generator[None, None, list[float]]:
        """Per candidate: ``deny`` x the mean gain of the others from the dice it leaves."""
        others = [p for p in range(state.num_players) if p != self.player]
        evs = {p: Evaluator(state, p, self.params) for p in others}
        cache: dict[str, float] = {}
        out = []
        for move in moves:
            taken = "" if move == "pass" else move[:2]
            if taken not in cache:
                dice_c, dice_n = list(state.dice_c), list(state.dice_n)
                if taken:
                    dice_c.remove(taken[0])
                    dice_n.remove(taken[1])
                gains = []
                for p in others:
                    ev = evs[p]
                    marks, left = state.marks[p], JOKERS - state.jokers_used[p]
                    gains.append(
                        best_gain(ev, marks, left, dice_c, dice_n)[0] - ev.value(marks, left)
                    )
                    yield None
                cache[taken] = self.deny * sum(gains) / len(gains)
            out.append(cache[taken])
        return out


LEVELS = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}
