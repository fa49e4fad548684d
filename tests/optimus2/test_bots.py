"""Optimus 2 bots: legal, from the observation only, yielding while they think."""

from __future__ import annotations

import json
import sys

import pytest

from optimus.core.arena import run_arena
from optimus.core.bots import Budget
from optimus.core.rng import Rng
from optimus.optimus2.bots import (
    EasyBot,
    HardBot,
    NormalBot,
    greedy_pick,
    progress_left,
    tray_gift,
    turn_future,
)
from optimus.optimus2.game import Optimus2Game
from optimus.optimus2.heuristics import fox_progress, fox_sources

from .scenario import pass_turn, roll, run, start

GAME = Optimus2Game()


class RaceBot(HardBot):
    """``hard``'s race, alone and with others (``hard`` itself plays its value networks)."""

    solo_net = None
    multi_net = None


def test_levels_are_registered() -> None:
    assert set(GAME.bot_levels()) == {"random", "easy", "normal", "hard"}


@pytest.mark.parametrize("players", [1, 3])
def test_every_level_finishes_games_with_legal_moves(players: int) -> None:
    specs = ["easy", "normal", "hard"][:players] if players > 1 else ["normal"]
    result = run_arena(GAME, specs, 1, 3, budget=Budget(iterations=2))
    assert all(p["mean_score"] is not None for p in result["players"])  # type: ignore[index]


def test_hard_solo_game_with_a_tiny_budget() -> None:
    result = run_arena(GAME, ["hard"], 1, 4, budget=Budget(iterations=1))
    assert result["players"][0]["mean_score"] > 0  # type: ignore[index]


def test_bots_decide_from_the_json_observation() -> None:
    s = start(2)
    roll(s, "123456")
    obs = json.loads(json.dumps(s.observation(0)))
    legal = s.legal_moves(0)
    for cls in (EasyBot, NormalBot, HardBot, RaceBot):
        bot = cls(GAME, 0, Rng(1), Budget(iterations=3))
        assert bot.choose(obs, legal) in legal


def test_normal_prefers_the_balancing_entry() -> None:
    s = start(1)
    sd = s.sd
    sh = s.sheets[0]
    sh[sd.FOX] = 3
    # every area has points except pink: of two entries worth 4 points each,
    # the pink one is worth more (it raises the lowest area, for the foxes)
    sh[sd.Y] = 2
    sh[sd.BN] = 2
    sh[sd.BN + 1 : sd.BN + 3] = [12, 11]
    sh[sd.GN] = 2
    sh[sd.GN + 1 : sd.GN + 3] = [12, 2]
    sh[sd.S] = 0b111
    roll(s, "444444")  # all dice alike: the silver 4 has no chain, nothing goes to the tray
    both = ["pink", "silver yellow"]  # pink 0 -> 4; the silver yellow row 7 -> 11 points
    assert set(both) <= set(s.legal_moves(0))
    assert greedy_pick(s, 0, both) == "pink"
    assert greedy_pick(s, 0, both[::-1]) == "pink"


def test_value_counts_the_dice_left_for_the_turn() -> None:
    s = start(1)
    roll(s, "123456")
    low, high = s.clone(), s.clone()
    run(low, 0, "white pink")  # the 1: keeps five dice to roll
    run(high, 0, "pink")  # the 5: four dice to the tray, one left
    assert progress_left(low) == progress_left(high)
    assert turn_future(low, 0) > turn_future(high, 0) > 0
    for _ in range(2):
        roll(high, "6")
        run(high, 0, "pass")
    assert turn_future(high, 0) == 0  # the turn is over


def test_hard_thinking_yields() -> None:
    s = start(1)
    roll(s, "123456")
    bot = RaceBot(GAME, 0, Rng(2), Budget(iterations=4))
    gen = bot.think(s.observation(0), s.legal_moves(0))
    steps = 0
    with pytest.raises(StopIteration):
        while True:
            next(gen)
            steps += 1
    assert steps >= 1


def test_tray_gift_measures_what_the_tray_gives_the_passive_players() -> None:
    s = start(2)
    pass_turn(s, "111111")  # six 1s to the tray
    small = tray_gift(s)
    s2 = start(2)
    pass_turn(s2, "666666")  # six 6s to the tray
    assert tray_gift(s2) > small >= 0


@pytest.mark.parametrize("budget", [Budget(iterations=5), None])
def test_an_iteration_budget_bounds_the_playouts_whatever_the_clock(
    budget: Budget | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # None: the default budget, which is the iteration budget hard's strength is
    # measured at (docs/bots.md), with no clock in it
    import optimus.optimus2.bots as bots

    class Counting(RaceBot):
        calls = 0

        def playout(self, c, rng):  # type: ignore[no-untyped-def]
            Counting.calls += 1
            return (yield from super().playout(c, rng))

    assert RaceBot.default_budget.time_ms is None
    s = start(1)
    roll(s, "123456")
    candidates = min(RaceBot.max_candidates, len(s.legal_moves(0)) - 1) + 1  # + reroll
    limit = budget.iterations if budget else RaceBot.default_budget.iterations
    assert limit is not None
    seen = []
    for clock in (lambda: 0.0, lambda: 1e9):  # a frozen clock, then one far past any deadline
        monkeypatch.setattr(bots.time, "perf_counter", clock)
        Counting.calls = 0
        move = Counting(GAME, 0, Rng(5), budget).choose(s.observation(0), s.legal_moves(0))
        seen.append((move, Counting.calls))
        assert candidates <= Counting.calls <= limit * min(candidates, RaceBot.race_width)
    assert seen[0] == seen[1]


def test_the_race_drops_the_candidates_clearly_behind_the_leader() -> None:
    bot = RaceBot(GAME, 0, Rng(1))
    lead = [10.0, 12.0, 11.0, 13.0, 9.0, 12.0]
    close = [11.0, 10.0, 12.0, 12.0, 9.5, 11.0]  # behind by 0.5 on average, noisily
    behind = [x - 5 + 0.1 * (i % 2) for i, x in enumerate(lead)]  # 5 points behind, steadily
    same = list(lead)  # always equal to the leader: nothing to learn by racing it on
    results = [behind, close, lead, same]
    assert bot.survivors(results, [0, 1, 2, 3], len(lead)) == [1, 2]
    assert bot.survivors(results, [0, 2], len(lead)) == [2]


def test_a_race_that_may_drop_candidates_at_once_still_waits_for_two_iterations() -> None:
    class Eager(RaceBot):
        race_from = 1  # a standard error needs two playouts of each

    s = start(1)
    roll(s, "123456")
    move = Eager(GAME, 0, Rng(3), Budget(iterations=3)).choose(s.observation(0), s.legal_moves(0))
    assert move in s.legal_moves(0)


def test_the_race_gives_the_playouts_of_the_clear_losers_to_the_close_candidates() -> None:
    # Each candidate's playouts return its own fixed mean plus noise; the second
    # is clearly behind the two others at once, which stay close to each other.
    means = [10.0, 0.0, 9.5]

    class Staged(RaceBot):
        calls: dict[int, int] = {}

        def playout(self, c, rng):  # type: ignore[no-untyped-def]
            k = self.turn % len(self.live)
            self.turn += 1
            move = self.live[k]
            Staged.calls[move] = Staged.calls.get(move, 0) + 1
            return means[move] + 3 * self.noise.random()
            yield  # pragma: no cover

    Staged.race_from = 4
    bot = Staged(GAME, 0, Rng(1), Budget(iterations=8))
    bot.noise = Rng(7)  # type: ignore[attr-defined]
    bot.turn = 0  # type: ignore[attr-defined]
    bot.live = [0, 1, 2]  # type: ignore[attr-defined]
    s = start(1)
    roll(s, "123456")
    real = Staged.survivors

    def survivors(self, results, alive, done):  # type: ignore[no-untyped-def]
        out = real(self, results, alive, done)
        self.live = [self.live[alive.index(k)] for k in out]
        self.turn = 0
        return out

    Staged.survivors = survivors  # type: ignore[method-assign]
    from optimus.core.bots import run_to_end

    cands = [m for m in s.legal_moves(0) if m != "reroll"][:3]
    best = run_to_end(bot.race(s, cands, 8, None))
    assert best in (0, 2)
    assert Staged.calls[1] == 4  # out after the first check
    assert Staged.calls[0] == Staged.calls[2] > 8  # its playouts went to the close two
    assert sum(Staged.calls.values()) <= 8 * 3


def test_hard_yields_between_playouts_that_end_at_once() -> None:
    # A playout can end before any decision (e.g. the move ends the player's
    # part of the turn): the bot must still yield between playouts (browser slices).
    class Silent(RaceBot):
        calls = 0

        def playout(self, c, rng):  # type: ignore[no-untyped-def]
            Silent.calls += 1
            return 0.0
            yield  # pragma: no cover

    s = start(1)
    roll(s, "123456")
    legal = s.legal_moves(0)
    gen = Silent(GAME, 0, Rng(3), Budget(iterations=6)).think(s.observation(0), legal)
    steps = 0
    with pytest.raises(StopIteration) as stop:
        while True:
            next(gen)
            steps += 1
    assert stop.value.value in legal
    candidates = min(RaceBot.max_candidates, len(legal) - 1) + 1  # + reroll
    assert Silent.calls >= candidates
    assert steps >= len(legal) - 1 + Silent.calls


def test_fox_sources_come_from_the_sheet_data() -> None:
    sd = start(1).sd
    fs = fox_sources(sd)
    assert (fs.blue, fs.green, fs.pink) == (9, 7, 8)  # slots whose bonus is a fox
    assert sorted(sd.yellow_cells[c][1] for c in fs.yellow_cells) == [4, 4, 4]  # column 4
    assert fs.silver_bit == 1 << 2  # column of the 3s
    assert fs.bars == (0,)  # the reroll bar's last slot


def test_fox_progress_grows_towards_a_fox_and_stops_once_won() -> None:
    sd = start(1).sd
    sh = sd.new_sheet()
    assert fox_progress(sd, sh) == 0.0
    seen = []
    for k in range(1, 9):
        sh[sd.PN] = k
        sh[sd.PN + k] = 4
        seen.append(fox_progress(sd, sh))
    assert seen[:7] == sorted(seen[:7]) and seen[6] > seen[0] > 0
    assert seen[7] == 0.0  # the pink fox slot is filled: nothing more to expect there


@pytest.mark.parametrize("horizon", [0, 1, 2])
def test_solo_playouts_go_on_the_horizon_rounds_past_the_current_one(horizon: int) -> None:
    from optimus.core.bots import run_to_end

    class Far(RaceBot):
        pass

    Far.horizon = horizon
    for players in (1, 2):
        s = start(players)
        roll(s, "123456")
        assert s.round == 1
        bot = Far(GAME, 0, Rng(2), Budget(iterations=1))
        c = s.clone()
        c.apply_move(0, s.legal_moves(0)[0])
        run_to_end(bot.playout(c, Rng(4)))
        if players == 1:
            # every decision of the rounds in between was played: the next one has begun
            assert c.round == 2 + horizon
            assert c.sheets[0] != s.sheets[0]
        else:  # with others, a playout ends with the player's own part of the turn
            assert c.round == 1 and 0 not in c.actors()


def test_every_candidate_s_playout_rolls_the_same_dice_in_the_same_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Common random numbers: the k-th roll of each candidate's playout starts from the
    # same generator state, even when the candidates' choices drew reroll samples before.
    import optimus.optimus2.bots as bots
    from optimus.core.bots import run_to_end

    seen: list[list[object]] = []
    real = bots.roll_randomly

    def recording(s, rng):  # type: ignore[no-untyped-def]
        if sys._getframe(1).f_code.co_name == "play_on":  # the dice, not a reroll's samples
            seen[-1].append(rng._r.getstate())
        real(s, rng)

    monkeypatch.setattr(bots, "roll_randomly", recording)
    s = start(1)
    roll(s, "123456")
    legal = s.legal_moves(0)
    bot = RaceBot(GAME, 0, Rng(2), Budget(iterations=1))
    bot.horizon = 1
    for move in legal[:4]:
        seen.append([])
        c = s.clone()
        c.apply_move(0, move)
        run_to_end(bot.playout(c, Rng(99)))
    assert min(map(len, seen)) >= 4  # a playout of two rounds rolls often
    for k in range(min(map(len, seen))):
        assert len({str(rolls[k]) for rolls in seen}) == 1, f"roll {k} differs"


def test_solo_playouts_are_valued_at_their_end_by_the_end_evaluation() -> None:
    from optimus.core.bots import run_to_end
    from optimus.optimus2.bots import LEARNED, play_on, value
    from optimus.optimus2.heuristics import Weights

    flat = Weights(model=LEARNED.model, scale=0.0)  # the correction off: another value

    class Ends(RaceBot):
        end = flat

    for players in (1, 2):
        s = start(players)
        roll(s, "123456")
        c = s.clone()
        c.apply_move(0, s.legal_moves(0)[0])
        got = run_to_end(Ends(GAME, 0, Rng(2), Budget(iterations=1)).playout(c.clone(), Rng(4)))
        # the same playout by hand: the same dice (the playout's base from Rng(4))
        base = Rng(4).randrange(1 << 30) * 1024
        run_to_end(play_on(c, 0, RaceBot.weights, base, (c.round, c.active)))
        if players == 1:
            assert got == value(c, 0, flat) != value(c, 0, RaceBot.judge)
        else:  # with others, the judge values the end of the player's own part of the turn
            want = value(c, 0, RaceBot.judge)
            if c.phase == "simul" and c.simul == "passive" and c.active == 0:
                want -= RaceBot.deny * tray_gift(c, RaceBot.weights)
            assert got == want


def test_a_play_on_without_a_round_to_stop_at_plays_the_solo_game_to_its_end() -> None:
    from optimus.core.bots import run_to_end
    from optimus.optimus2.bots import play_on
    from optimus.optimus2.heuristics import DEFAULT

    s = start(1)
    roll(s, "123456")
    c = s.clone()
    run_to_end(play_on(c, 0, DEFAULT, 1024, None))
    assert c.is_terminal()
    d = s.clone()
    run_to_end(play_on(d, 0, DEFAULT, 1024, (d.round, d.active)))
    assert d.round == 2 and not d.is_terminal()  # stopped at the next round's first choice


@pytest.mark.parametrize("seed", [0, 7, 17])
def test_normal_uses_a_last_extra_die_that_scores_instead_of_keeping_it(seed: int) -> None:
    # The hand-written value credited an extra die in hand even at the game's end, so
    # ``normal`` ended games with "done" and extra dice that would have scored unused.
    from optimus.optimus2.bots import DEFAULT, greedy_to_end
    from optimus.optimus2.game import Optimus2State
    from optimus.optimus2.sheet import load_sheet, total_score

    seen: list[tuple[int, str]] = []

    class Seen(Exception):
        pass

    def look(s, p, legal):  # type: ignore[no-untyped-def]
        if progress_left(s) == 0 and "done" in legal and any(m.startswith("extra") for m in legal):
            gains = []
            for m in legal:
                c = s.clone()
                c.apply_move(p, m)
                gains.append(total_score(c.sd, c.sheets[p]) - total_score(s.sd, s.sheets[p]))
            pick = greedy_pick(s, p, legal, DEFAULT)
            seen.append((max(gains), pick))
            raise Seen

    s = Optimus2State(1, load_sheet())
    with pytest.raises(Seen):
        greedy_to_end(s, DEFAULT, Rng(seed), Rng(seed + 1), before=look)
    ((gain, pick),) = seen
    assert gain > 0 and pick != "done"


class _Clock:
    """A wall clock that moves only when a playout runs (``step`` seconds each)."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        return self.now


def _timed(clock: _Clock, means: list[float]) -> type[RaceBot]:
    """``hard`` whose playouts of candidate k are worth ``means[k]`` and take ``clock.step``."""

    class Timed(RaceBot):
        calls = 0

        def playout(self, c, rng):  # type: ignore[no-untyped-def]
            Timed.calls += 1
            clock.now += clock.step
            move = self.cands.index(self.current)  # type: ignore[attr-defined]
            return means[move] if move < len(means) else 0.0
            yield  # pragma: no cover

        look = playout  # with others

    return Timed


@pytest.mark.parametrize("iterations_in_time", [0.5, 2.5])
def test_a_clock_spent_before_two_iterations_plays_the_best_by_one_step(
    iterations_in_time: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Bounded on any device: the race stops at its clock, even inside an iteration.
    # Before two iterations are done nothing is compared: the best move by one step;
    # after, the leader of the iterations done (the one the clock cut short is dropped).
    import optimus.core.bots as core_bots
    import optimus.optimus2.bots as bots
    from optimus.core.bots import run_to_end

    s = start(1)
    roll(s, "123456")
    cands = [m for m in s.legal_moves(0) if m != "reroll"][:4]
    clock = _Clock(0.25)  # exact in binary: the deadline falls between two playouts
    monkeypatch.setattr(bots.time, "perf_counter", clock)
    monkeypatch.setattr(core_bots.time, "perf_counter", clock)
    Timed = _timed(clock, [1.0, 2.0, 5.0, 3.0])
    bot = Timed(GAME, 0, Rng(1), Budget(time_ms=len(cands) * 250 * iterations_in_time))
    bot.cands = cands  # type: ignore[attr-defined]
    real_apply = type(s).apply_move

    def apply(state, seat, move):  # type: ignore[no-untyped-def]
        bot.current = move  # type: ignore[attr-defined]
        real_apply(state, seat, move)

    monkeypatch.setattr(type(s), "apply_move", apply)
    limit, deadline = bot.limits()
    best = run_to_end(bot.race(s, cands, 20, deadline))
    full = int(iterations_in_time)
    assert Timed.calls == int(iterations_in_time * len(cands))  # stopped at the clock
    assert [len(r) for r in bot.raced] == [full] * len(cands)  # the cut iteration dropped
    assert best == (0 if full < 2 else 2)


@pytest.mark.parametrize("players", [1, 2])
def test_hard_with_its_clock_spent_plays_the_best_move_by_one_step_at_once(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # with others the best by one step on the multi-player value
    import itertools

    import optimus.optimus2.bots as bots
    from optimus.core.bots import run_to_end
    from optimus.optimus2.bots import TD4, afterstate_steps

    s = start(players)
    roll(s, "123456")
    legal = s.legal_moves(0)
    ticks = itertools.count()
    monkeypatch.setattr(bots.time, "perf_counter", lambda: float(next(ticks)))  # 1 s a look
    Timed = _timed(_Clock(0.0), [])
    move = Timed(GAME, 0, Rng(1), Budget(time_ms=40)).choose(s.observation(0), legal)
    judge = TD4 if players > 1 else RaceBot.judge
    scored = run_to_end(afterstate_steps(s, 0, legal, judge))
    scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
    assert Timed.calls == 0
    assert move == scored[0][1]


def test_with_others_hard_races_its_best_candidates_one_decision_ahead_on_the_multi_value() -> None:
    # The candidates: the best by one step on the multi-player value (and a reroll); each
    # valued, under an iteration's dice shared by all, by the best afterstate of the
    # player's next decision on that value; no playout to the end of the turn.
    from optimus.core.bots import run_to_end
    from optimus.optimus2.bots import TD4, afterstate_steps, next_best, roll_randomly

    s = start(2)
    roll(s, "123456")
    legal = s.legal_moves(0)
    seen: dict[str, list[str]] = {}

    class Recording(RaceBot):
        def race(self, s, cands, limit, deadline, play=None):  # type: ignore[no-untyped-def]
            seen["cands"] = list(cands)
            return (yield from super().race(s, cands, limit, deadline, play))

        def playout(self, c, rng):  # type: ignore[no-untyped-def]
            raise AssertionError("with others hard plays no playout to the end of its turn")

    bot = Recording(GAME, 0, Rng(2), Budget(iterations=3))
    move = bot.choose(s.observation(0), legal)
    scored = run_to_end(afterstate_steps(s, 0, legal, TD4))
    scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
    best = [m for _, m, _ in scored[: RaceBot.look_candidates]]
    assert seen["cands"] == best + ["reroll"] * ("reroll" in legal)
    assert move in seen["cands"]
    first_dice = Rng(2).randrange(1 << 30)  # the first iteration's dice
    for k, cand in enumerate(seen["cands"]):
        c = s.clone()
        c.apply_move(0, cand)
        assert bot.raced[k][0] == run_to_end(next_best(c, 0, TD4, Rng(first_dice)))
    # a pick that leaves the player a next decision is worth that decision's best
    # afterstate, once the dice to come are rolled
    c = s.clone()
    c.apply_move(0, best[0])
    rolled = c.clone()
    roll_randomly(rolled, Rng(1))
    assert 0 in rolled.actors()
    legal = [m for m in rolled.legal_moves(0) if m != "reroll"]
    after = run_to_end(afterstate_steps(rolled, 0, legal, TD4))
    assert run_to_end(next_best(c, 0, TD4, Rng(1))) == max(v for v, _, _ in after)


@pytest.mark.parametrize("why", ["no value set", "its file missing"])
def test_with_others_and_no_multi_player_value_hard_plays_its_playouts(
    why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import optimus.optimus2.bots as bots

    class Counting(RaceBot):
        calls = 0
        multi = None if why == "no value set" else RaceBot.multi

        def playout(self, c, rng):  # type: ignore[no-untyped-def]
            Counting.calls += 1
            return (yield from super().playout(c, rng))

    if why == "its file missing":
        monkeypatch.setattr(bots, "has_td", lambda name: False)
    s = start(2)
    roll(s, "123456")
    move = Counting(GAME, 0, Rng(2), Budget(iterations=2)).choose(
        s.observation(0), s.legal_moves(0)
    )
    assert move in s.legal_moves(0)
    assert Counting.calls >= 2


@pytest.mark.parametrize("dice", ["123456", "654321", "316245"])
def test_hard_alone_plays_the_value_networks_best_afterstate_thinking_in_slices(dice: str) -> None:
    from optimus.optimus2.net import NETS, best_move

    s = start(1)
    roll(s, dice)
    legal = s.legal_moves(0)
    thinking = HardBot(GAME, 0, Rng(3)).decide(s.clone(), legal)
    steps = 0
    try:
        while True:
            next(thinking)
            steps += 1
    except StopIteration as done:
        move = done.value
    assert steps == len(legal)  # a slice a candidate: the page never waits on them all
    assert HardBot.solo_net is not None
    assert move == best_move(NETS.get(HardBot.solo_net), s, 0, legal)
