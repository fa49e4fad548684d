"""Optimus 2 bots: ``easy``, ``normal`` and ``hard``, each deciding from its observation.

Every level rebuilds the public state from its observation
(:func:`optimus.optimus2.game.state_from_observation`: everything is public but
other players' unfinished simultaneous steps), tries moves on copies on the
fast path, and values the result with :mod:`optimus.optimus2.heuristics`.

* ``easy`` -- greedy on its own sheet's score, no balance, no lookahead;
* ``normal`` -- greedy on the evaluation (balance for the foxes, work in
  progress, actions in hand), plus the dice a choice leaves for the rest of
  the turn; answers bonus questions greedily inside the look; samples rerolls;
* ``hard`` -- solo, afterstate argmax on a value network learned in self-play
  (:mod:`optimus.optimus2.net`, ``net_weights.json``); with others (or without
  that network), Monte Carlo over its best candidates by one step: each is played
  on to the end of the player's turn (or the next round) many times under the
  same sampled dice for every candidate (common random numbers: the k-th roll
  of every candidate's playout draws the same numbers), choosing greedily as
  ``normal`` does but on the evaluation with its learned correction
  (:mod:`optimus.optimus2.value`, :data:`LEARNED`), which also judges the
  candidates (and, with others, the playouts' ends; solo playouts stop at the
  end of a round and are valued by a correction fitted there, :data:`ROUND_END`).
  The candidates race: one clearly behind the leader stops being played, and
  its playouts go to the close ones.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from typing import Any, ClassVar

from optimus.core import data
from optimus.core.bots import (
    Appraisal,
    Appraising,
    Bot,
    Budget,
    ChoiceBot,
    StateBot,
    Thinking,
    run_to_end,
)
from optimus.core.protocol import JSON
from optimus.core.rng import Rng
from optimus.optimus2.game import HAND, Optimus2State
from optimus.optimus2.heuristics import DEFAULT, MULTI_TD, Weights, sheet_value
from optimus.optimus2.net import NETS, has_net, move_values
from optimus.optimus2.sheet import area_scores

LEARNED = Weights(model="value_weights")
"""The hand-written evaluation corrected by the learned weights (:mod:`optimus.optimus2.value`)."""

ROUND_END = Weights(model="value_end")
"""The hand-written evaluation with a correction fitted at the ends of rounds, where ``hard``'s
solo playouts stop (``python -m optimus_lab.optimus2.train --ends ... --log``, then
``--fit-from``)."""

TD = Weights(model="td_weights")
"""The value learned by temporal differences (:mod:`optimus.optimus2.td`, ``td_weights.json``)."""

TD4 = Weights(model="td4_weights")
"""The multi-player value learned by temporal differences (``td4_weights.json``): the tables'
value of the player's own sheet, less the weighted tray gift at the end of its own turn
(:func:`opponent_terms`)."""

QUALITY = (0.0, 0.55, 0.75, 0.86, 0.93, 0.97, 1.0)
"""Share of a good pick's worth expected from the best of k rolled dice."""


def progress_left(s: Optimus2State) -> float:
    """Share of the game still to play: 1 at the start, 0 after the last turn."""
    n = s.num_players
    turns = s.rounds * n
    done: float = (s.round - 1) * n + (s.active - s.first) % n
    if s.round == 0:
        return 1.0
    if s.phase == "simul" and s.simul == "passive" or s.phase == "over":
        done += 1
    elif s.phase != "simul":
        done += min(1.0, s.picks / s.sd.choices) * 0.5
    return max(0.0, 1.0 - done / turns)


def turn_future(s: Optimus2State, player: int, w: float = DEFAULT.pick) -> float:
    """Worth of the choices still to come in ``player``'s active turn."""
    if s.active != player or s.stage != 0 or s.phase in ("simul", "over"):
        return 0.0
    left = s.sd.choices - s.picks
    k = sum(1 for x in s.loc if x == HAND)
    return w * sum(QUALITY[k - j] for j in range(min(left, k)))


def value(s: Optimus2State, player: int, w: Weights = DEFAULT) -> float:
    """The evaluation of ``player``'s position (own sheet; the turn still to come)."""
    t = progress_left(s)
    sh = s.sheets[player]
    if w.model:
        from optimus.optimus2.value import named_value  # only when used: page boot

        v = named_value(s.sd, sh, t, turn_future(s, player, 1.0), w.model, w.scale)
        if s.num_players > 1 and w.model.startswith(MULTI_TD):
            v -= opponent_terms(s, player, w.model)
        return v
    return sheet_value(s.sd, sh, t, w) + turn_future(s, player, w.pick)


def settle_greedy(s: Optimus2State, player: int, w: Weights = DEFAULT) -> None:
    """Answer ``player``'s pending bonus questions greedily (inside a look-ahead)."""
    for _ in range(40):
        if not s.pend[player] or player not in s.actors():
            return
        legal = s.legal_moves(player)
        s.apply_move(player, greedy_pick(s, player, legal, w, settle=False))


def greedy_pick(
    s: Optimus2State, player: int, legal: list[str], w: Weights = DEFAULT, **kw: Any
) -> str:
    """The legal move of best evaluation one step ahead (bonus chains answered too).

    Options as :func:`greedy_steps` (``settle``, ``rng``, ``rerolls``).
    """
    return run_to_end(greedy_steps(s, player, legal, w, **kw))


def greedy_steps(
    s: Optimus2State,
    player: int,
    legal: list[str],
    w: Weights = DEFAULT,
    *,
    settle: bool = True,
    rng: Rng | None = None,
    rerolls: int = 6,
) -> Generator[None, None, str]:
    """:func:`greedy_pick`, yielding after every move it tries (for ``hard``'s slices).

    ``settle``: answer the bonus questions a move raises before valuing it;
    ``rng``: also value a reroll, by ``rerolls`` sampled rolls (without it,
    rerolling is never chosen).
    """
    if len(legal) == 1:
        return legal[0]
    best, best_v = legal[0], -1e18
    for move in legal:
        if move == "reroll":
            if rng is None:
                continue
            v = yield from reroll_steps(s, player, w, rng, rerolls)
        else:
            c = s.clone()
            c.apply_move(player, move)
            if settle:
                settle_greedy(c, player, w)
            v = value(c, player, w)
            yield None
        if v > best_v:
            best, best_v = move, v
    return best


def roll_randomly(s: Optimus2State, rng: Rng) -> None:
    while s.is_chance():
        if s.phase == "roll":
            s.apply_chance(str(1 + rng.randrange(6)))
        else:
            outcomes = s.chance_outcomes()
            s.apply_chance(outcomes[rng.randrange(len(outcomes))][0])


def afterstate_steps(
    s: Optimus2State, player: int, legal: list[str], w: Weights = DEFAULT
) -> Generator[None, None, list[tuple[float, str, Optimus2State]]]:
    """Every legal move but a reroll with its afterstate (bonus questions answered
    greedily) and that afterstate's value, in ``legal``'s order; yields after each."""
    out = []
    for move in legal:
        if move == "reroll":
            continue
        c = s.clone()
        c.apply_move(player, move)
        settle_greedy(c, player, w)
        out.append((value(c, player, w), move, c))
        yield None
    return out


def next_best(c: Optimus2State, player: int, w: Weights, rng: Rng) -> Generator[None, None, float]:
    """The value by ``w`` of ``player``'s best afterstate at its next decision after ``c``,
    the dice to come rolled by ``rng`` (``c`` itself if ``player`` has no decision before
    the others' or the end); plays on ``c``. Yields after each afterstate."""
    if c.is_chance():
        roll_randomly(c, rng)
    if c.is_terminal() or player not in c.actors():
        return value(c, player, w)
    legal = [m for m in c.legal_moves(player) if m != "reroll"]
    scored = yield from afterstate_steps(c, player, legal, w)
    if not scored:
        return value(c, player, w)
    return max(v for v, _, _ in scored)


def decisions(s: Optimus2State, dice: Rng) -> Iterator[tuple[int, list[str]]]:
    """Each decision of game ``s`` to its end, as (player, legal moves), the dice rolled
    by ``dice`` in between: the caller applies one move for each."""
    while not s.is_terminal():
        if s.is_chance():
            roll_randomly(s, dice)
            continue
        p = s.actors()[0]
        yield p, s.legal_moves(p)


def greedy_to_end(
    s: Optimus2State,
    w: Weights,
    rng: Rng | None,
    dice: Rng,
    *,
    rerolls: int = 6,
    before: Callable[[Optimus2State, int, list[str]], None] | None = None,
) -> None:
    """Play solo game ``s`` to its end, every decision :func:`greedy_pick` on ``w``.

    ``rng`` samples the rerolls (None: never reroll), ``dice`` rolls the dice;
    ``before(s, player, legal)`` looks at each decision's position first (the
    self-play of the tuning and training tools).
    """
    for p, legal in decisions(s, dice):
        if before is not None:
            before(s, p, legal)
        if len(legal) == 1:
            move = legal[0]
        else:
            move = greedy_pick(s, p, legal, w, rng=rng, rerolls=rerolls)
        s.apply_move(p, move)


def reroll_steps(
    s: Optimus2State, player: int, w: Weights, rng: Rng, samples: int
) -> Generator[None, None, float]:
    """Mean value of the best greedy choice after a reroll (sampled); yields as it goes."""
    total = 0.0
    for _ in range(samples):
        c = s.clone()
        c.apply_move(player, "reroll")
        roll_randomly(c, rng)
        legal = [m for m in c.legal_moves(player) if m != "reroll"]
        move = yield from greedy_steps(c, player, legal, w)
        c.apply_move(player, move)
        settle_greedy(c, player, w)
        total += value(c, player, w)
    return total / samples


def play_on(
    c: Optimus2State, me: int, w: Weights, base: int, until: tuple[int, int] | None
) -> Generator[None, None, None]:
    """Play ``me``'s decisions in ``c`` greedily on ``w`` (rerolls by 2 samples), rolling the
    dice, until round ``until[0]`` has passed the turn of player ``until[1]``, or until
    ``me`` has no decision, or (``until`` None) to the end of the game. Yields after every
    decision.

    Common random numbers: the k-th roll draws from its own stream (``base + k``), and so
    does the k-th decision's sampling of rerolls (``base + 512 + k``), so that plays from
    sibling positions roll the same dice even where the numbers of dice drawn before
    differ (the samples of a reroll used to share the dice's stream).
    """
    rolls = decisions = 0
    for _ in range(200 if until is not None else 1000):
        if c.is_terminal():
            return
        if c.is_chance():
            rolls += 1
            roll_randomly(c, Rng(base + rolls))
            continue
        if me not in c.actors():
            return
        if until is not None and (
            c.round > until[0] or c.round == until[0] and c.active != until[1]
        ):
            return
        legal = c.legal_moves(me)
        decisions += 1
        sampler = Rng(base + 512 + decisions)
        move = yield from greedy_steps(c, me, legal, w, rng=sampler, rerolls=2)
        c.apply_move(me, move)
        yield None


def gift_left(s: Optimus2State, player: int) -> bool:
    """Whether ``s`` is the end of ``player``'s own turn, the passive players to pick from
    the tray it leaves."""
    return s.phase == "simul" and s.simul == "passive" and s.active == player


def opponent_terms(s: Optimus2State, player: int, name: str) -> float:
    """What the multi-player TD value ``name`` takes off the player's own sheet's value for
    the others, beyond their sheets (the same for every afterstate of one decision, so left
    out here): at the end of its own turn, the bucket's gift weight times the tray gift
    (:func:`tray_gift` on the corrected evaluation)."""
    if not gift_left(s, player):
        return 0.0
    from optimus.optimus2.td import get_td  # only when used: page boot
    from optimus.optimus2.value import bucket

    model = get_td(name)
    if not model.gift:
        return 0.0
    return model.gift[bucket(progress_left(s))] * tray_gift(s, LEARNED)


def leader(results: list[list[float]], alive: list[int]) -> int:
    """The candidate of ``alive`` with the best playouts in all (the first of equals)."""
    return max(alive, key=lambda k: (math.fsum(results[k]), -k))


def tray_gift(s: Optimus2State, w: Weights = DEFAULT) -> float:
    """Mean gain of the passive players' best greedy picks from the tray (one step)."""
    gains = []
    for p in s.actors():
        base = value(s, p, w)
        best = 0.0
        for move in s.legal_moves(p):
            c = s.clone()
            c.apply_move(p, move)
            best = max(best, value(c, p, w) - base)
        gains.append(best)
    return sum(gains) / len(gains) if gains else 0.0


class EasyBot(Bot):
    """Greedy on its own current score: no balance, no look-ahead, never rerolls.

    A :class:`~optimus.core.bots.Bot` rather than a ``ChoiceBot``: it leaves out
    rerolls and returns first, and plays the only move left without rebuilding
    the state."""

    level = "easy"

    def think(self, observation: Mapping[str, JSON], legal_moves: list[str]) -> Thinking:
        moves = [m for m in legal_moves if m not in ("reroll",) and not m.startswith("return")]
        if len(moves) == 1:
            return moves[0]
        s = self.rebuild(observation)
        best, best_v = moves[0], -1e9
        for move in moves:
            c = s.clone()
            c.apply_move(self.player, move)
            sh = c.sheets[self.player]
            v = sum(area_scores(c.sd, sh)) + 0.01 * self.rng.random()
            if move == "pass" or move == "done":
                v -= 0.5
            if v > best_v:
                best, best_v = move, v
        return best
        yield  # pragma: no cover


class NormalBot(ChoiceBot):
    """Greedy on the evaluation, with the turn's remaining dice and sampled rerolls."""

    level = "normal"
    weights: ClassVar[Weights] = DEFAULT

    def choice(self, state: Optimus2State, legal_moves: list[str]) -> str:
        return greedy_pick(state, self.player, legal_moves, self.weights, rng=self.rng)


def has_td(name: str) -> bool:
    """Whether the TD value ``name`` is registered or shipped (``<name>.json``)."""
    from optimus.optimus2.td import TDS  # only when used: page boot

    if TDS.registered(name) is not None:
        return True
    return data.exists(TDS.package, f"{name}.json")


def with_others(s: Optimus2State, multi: Weights | None) -> Weights | None:
    """``multi``, the bots' multi-player value, if ``s`` has others and that value exists
    (registered or shipped), else None."""
    if s.num_players > 1 and multi is not None and has_td(multi.model):
        return multi
    return None


class TdBot(ChoiceBot):
    """Greedy one decision ahead on the value learned by temporal differences (:data:`TD`
    solo; with others :data:`TD4`, the multi-player value, if there is one): every
    afterstate (the bonus questions a move raises answered greedily inside the look)
    valued by it, a reroll by :attr:`rerolls` sampled rolls. Experimental: not in
    :data:`LEVELS` (the lab plays it as ``optimus.optimus2.bots:TdBot``)."""

    level = "td"
    weights: ClassVar[Weights] = TD
    multi: ClassVar[Weights] = TD4
    rerolls: ClassVar[int] = 8

    def weights_for(self, state: Optimus2State) -> Weights:
        """:attr:`multi` when the game has others and that value exists, else :attr:`weights`."""
        return with_others(state, self.multi) or self.weights

    def choice(self, state: Optimus2State, legal_moves: list[str]) -> str:
        w = self.weights_for(state)
        return greedy_pick(state, self.player, legal_moves, w, rng=self.rng, rerolls=self.rerolls)


class TdLookBot(TdBot):
    """:class:`TdBot` looking one decision further: each of the :attr:`top` best afterstates
    by one step is valued by the mean, over :attr:`samples` rolls of the dice to come (the
    same rolls for every candidate), of the best afterstate of the player's next decision
    (its value itself if the player has no next decision before others or the end).
    Experimental: not in :data:`LEVELS` (``optimus.optimus2.bots:TdLookBot``)."""

    level = "td-look"
    top: ClassVar[int] = 4
    samples: ClassVar[int] = 6

    def choice(self, state: Optimus2State, legal_moves: list[str]) -> str:
        me, w = self.player, self.weights_for(state)
        scored = run_to_end(afterstate_steps(state, me, legal_moves, w))
        scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
        cands = [(m, c) for _, m, c in scored[: self.top]]
        if "reroll" in legal_moves:
            cands.append(("reroll", state))
        if len(cands) == 1:
            return cands[0][0]
        seeds = [self.rng.randrange(1 << 30) for _ in range(self.samples)]
        best, best_v = cands[0][0], -1e18
        for move, c in cands:
            if move == "reroll":
                v = run_to_end(reroll_steps(state, me, w, self.rng, self.samples))
            else:
                v = self.look(c, seeds, w)
            if v > best_v:
                best, best_v = move, v
        return best

    def look(self, c: Optimus2State, seeds: list[int], w: Weights | None = None) -> float:
        """Mean over the rolls of ``seeds`` of the best afterstate of ``c``'s next decision
        (:func:`next_best`, valued by ``w``; None: :meth:`weights_for` ``c``)."""
        if w is None:
            w = self.weights_for(c)
        runs = seeds if c.is_chance() else seeds[:1]
        total = sum(run_to_end(next_best(c.clone(), self.player, w, Rng(seed))) for seed in runs)
        return total / len(runs)


Play = Callable[[Optimus2State, Rng], Generator[None, None, float]]
"""How ``hard``'s race values a candidate's afterstate under one iteration's dice."""

ITERATIONS = 20
"""``hard``'s iterations when its budget sets neither iterations nor time."""


class HardBot(StateBot):
    """A race of the best candidates by one step, under shared dice (:meth:`race`).

    Solo, each candidate is valued by Monte Carlo playouts of ``normal`` to the end
    of the turn (:meth:`playout`); with others, by the learned multi-player value of
    the best afterstate of the player's next decision (:meth:`look`), the dice to
    come rolled alike for every candidate.

    Not a :class:`~optimus.core.bots.SearchBot`: that one gives each playout to one
    candidate (UCB1) under its own dice; here the candidates race, every one played
    under the same dice each iteration and compared in pairs.
    """

    level = "hard"
    default_budget = Budget(iterations=ITERATIONS)
    """20 iterations (at most 20 x :attr:`race_width` playouts, raced): a mean decision of
    about 260 ms of CPU solo in CPython (see docs/bots.md), the budget ``hard``'s strength is
    measured at. No clock: the same decisions on any machine (the browser runs it in
    slices, so the page never freezes)."""
    weights: ClassVar[Weights] = LEARNED
    """The evaluation of the greedy choices inside the playouts."""
    judge: ClassVar[Weights] = LEARNED
    """The evaluation of the candidates at the root and of the playouts' ends."""
    end: ClassVar[Weights | None] = ROUND_END
    """Solo: the evaluation of the playouts' ends (at the end of a round) instead of
    :attr:`judge` (None: the judge)."""
    max_candidates: ClassVar[int] = 10
    """The moves best by one step that enter the race (a reroll enters too)."""
    multi: ClassVar[Weights | None] = TD4
    """With others: the value the candidates are chosen and looked at by (:meth:`look`);
    None, or its file missing: the playouts, as solo."""
    look_candidates: ClassVar[int] = 6
    """With others, on :attr:`multi`: the moves best by one step that enter the race."""
    deny: ClassVar[float] = 0.6
    """Weight of the mean gain the tray gives the passive players after its own turn."""
    horizon: ClassVar[int] = 0
    """Solo: the playouts go on this many rounds past the end of the current one."""
    race_from: ClassVar[int] = 4
    """Iterations before the first candidate can leave the race (:meth:`race`)."""
    race_z: ClassVar[float] = 2.0
    """Standard errors behind the leader that take a candidate out of the race."""
    race_width: ClassVar[int] = 7
    """The playouts of a decision are at most the budget's iterations times this many."""
    race_stretch: ClassVar[int] = 4
    """The close candidates' iterations are at most this many times the budget's."""
    raced: list[list[float]] = []
    """The last race's playout values, per candidate (for :mod:`optimus_lab.optimus2.train`)."""

    solo_net: ClassVar[str | None] = "net_weights"
    """Solo: the value network (:mod:`optimus.optimus2.net`, in :data:`~optimus.optimus2.net.NETS`)
    whose afterstate argmax ``hard`` plays instead of the race (see docs/bots.md for its
    strength and time); None, or no such network: the race."""

    multi_net: ClassVar[str | None] = "net4_weights"
    """With others: the value network of games with others (its value: the final margin
    over the others' mean), played the same way; None, or no such network: the race."""

    def decide(self, s: Optimus2State, legal_moves: list[str]) -> Thinking:
        if self.plays_net(s):
            values = yield from self.net_values(s, legal_moves)
            return max(legal_moves, key=values.__getitem__)  # the first of ties
        cands, multi = yield from self.candidates(s, legal_moves)
        if len(cands) == 1:
            return cands[0]
        budget = self.budget
        deadline = None
        if budget.time_ms is not None:
            deadline = time.perf_counter() + budget.time_ms / 1000
        limit = budget.iterations or (10_000 if deadline else ITERATIONS)
        best = yield from self.race(s, cands, limit, deadline, self.look if multi else None)
        return cands[best]

    def appraise_state(self, s: Optimus2State, legal_moves: list[str], move: str) -> Appraising:
        """On a network: every move's value (alone its expected final score, with others
        its expected final margin over the others' mean). Else the race of the candidates
        and ``move`` (with no clock): each one's mean playout value."""
        if self.plays_net(s):
            values = yield from self.net_values(s, legal_moves)
            return Appraisal(values, max(legal_moves, key=values.__getitem__))
        cands, multi = yield from self.candidates(s, legal_moves)
        if move not in cands:
            cands.append(move)
        if len(cands) == 1:
            return Appraisal({move: 0.0}, move)
        limit = self.budget.iterations or ITERATIONS
        best = yield from self.race(s, cands, limit, None, self.look if multi else None)
        values = {c: math.fsum(r) / len(r) for c, r in zip(cands, self.raced, strict=True) if r}
        return Appraisal(values, cands[best])

    def warm(self, observation: Mapping[str, JSON]) -> None:
        """Read the network this seat plays on (:meth:`net_name`), if any."""
        name = self.net_name(self.rebuild(observation, Rng(0)))
        if name is not None:
            NETS.get(name)

    def net_name(self, s: Optimus2State) -> str | None:
        """The value network this decision is played on: alone :attr:`solo_net`, with
        others :attr:`multi_net`, if shipped; None: the race."""
        name = self.solo_net if s.num_players == 1 else self.multi_net
        return name if name is not None and has_net(name) else None

    def plays_net(self, s: Optimus2State) -> bool:
        """Whether this decision is the value network's (:meth:`net_name`)."""
        return self.net_name(s) is not None

    def net_values(
        self, s: Optimus2State, legal_moves: list[str]
    ) -> Generator[None, None, dict[str, float]]:
        """The network's value of each legal move, a slice each."""
        name = self.net_name(s)
        assert name is not None
        values = {}
        for move, v in zip(
            legal_moves,
            move_values(NETS.get(name), s, self.player, legal_moves),
            strict=True,
        ):
            values[move] = v
            yield None
        return values

    def candidates(
        self, s: Optimus2State, legal_moves: list[str]
    ) -> Generator[None, None, tuple[list[str], Weights | None]]:
        """The moves that enter the race, best by one step first (a reroll last), and the
        multi-player value they were chosen by (None: alone, or none shipped)."""
        multi = with_others(s, self.multi)
        w = multi or self.judge
        scored = yield from afterstate_steps(s, self.player, legal_moves, w)
        scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
        cands = [m for _, m, _ in scored[: self.look_candidates if multi else self.max_candidates]]
        if "reroll" in legal_moves:
            cands.append("reroll")
        return cands, multi

    def race(
        self,
        s: Optimus2State,
        cands: list[str],
        limit: int,
        deadline: float | None,
        play: Play | None = None,
    ) -> Generator[None, None, int]:
        """The index of the best of ``cands`` by their playouts, raced.

        Every iteration plays each candidate still in the race once under the same
        dice; from iteration :attr:`race_from` on, a candidate whose mean falls
        below the leader's by more than :attr:`race_z` standard errors of their
        paired differences leaves the race. The playouts of the left-out
        candidates go to the close ones: at most ``limit`` times
        :attr:`race_width` playouts in all (``limit`` each for up to that many
        candidates if none leaves) and at most :attr:`race_stretch` times
        ``limit`` iterations; the race ends early when one candidate is left, or at
        ``deadline``: before two iterations are done that is the first candidate
        (the best by one step), the race's leader after. ``play`` values a
        candidate's afterstate under an iteration's dice (None: :meth:`playout`).
        """
        me = self.player
        play = play or self.playout
        n = len(cands)
        results: list[list[float]] = [[] for _ in range(n)]
        alive = list(range(n))
        left = limit * min(n, self.race_width)
        cap = limit * self.race_stretch
        done = 0
        spent = False
        while len(alive) > 1 and done < cap and left >= len(alive) and not spent:
            seed = self.rng.randrange(1 << 30)
            for k in alive:
                spent = deadline is not None and time.perf_counter() >= deadline
                if spent:
                    break
                c = s.clone()
                c.apply_move(me, cands[k])
                results[k].append((yield from play(c, Rng(seed))))
                yield None  # a playout that ends at once has not yielded yet
            else:
                left -= len(alive)
                done += 1
                if done >= max(2, self.race_from):  # a standard error needs two iterations
                    alive = self.survivors(results, alive, done)
        for k in alive:  # the iteration the clock cut short, if any, is dropped
            del results[k][done:]
        self.raced = results
        self.after_race(s, cands)
        return 0 if spent and done < 2 else leader(results, alive)  # 0: the best by one step

    def after_race(self, s: Optimus2State, cands: list[str]) -> None:
        """Called at the end of each race of ``cands`` from ``s`` (its playouts in
        :attr:`raced`): nothing here, :mod:`optimus_lab.optimus2.train` keeps them."""

    def survivors(self, results: list[list[float]], alive: list[int], done: int) -> list[int]:
        """The candidates of ``alive`` not clearly behind the leader after ``done`` iterations."""
        lead = leader(results, alive)
        out = []
        for k in alive:
            if k == lead:
                out.append(k)
                continue
            diffs = [a - b for a, b in zip(results[lead], results[k], strict=True)]
            m = math.fsum(diffs) / done
            var = math.fsum((d - m) ** 2 for d in diffs) / (done - 1)
            if var > 0 and m < self.race_z * math.sqrt(var / done):
                out.append(k)  # not clearly behind (one that always equals the leader leaves)
        return out

    def look(self, c: Optimus2State, rng: Rng) -> Generator[None, None, float]:
        """With others: :func:`next_best` on :attr:`multi` (its tray gift weighed in)."""
        assert self.multi is not None
        return (yield from next_best(c, self.player, self.multi, rng))

    def playout(self, c: Optimus2State, rng: Rng) -> Generator[None, None, float]:
        """Play ``normal`` on to the end of this player's turn step; value the result.

        Yields after every decision (so the browser can pause between them).
        """
        me, w, judge = self.player, self.weights, self.judge
        start_round = c.round
        if c.num_players == 1:
            start_round += self.horizon
            if self.end is not None:
                judge = self.end
        yield from play_on(c, me, w, rng.randrange(1 << 30) * 1024, (start_round, c.active))
        v = value(c, me, judge)
        if self.deny and c.phase == "simul" and c.simul == "passive" and c.active == me:
            v -= self.deny * tray_gift(c, w)
        return v


LEVELS = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}
