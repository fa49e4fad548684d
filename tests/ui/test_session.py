"""The table session: humans and bots take turns, bots think in slices, saves resume."""

from __future__ import annotations

import pytest

from optimus.core import Budget, IllegalMove, RecordError
from optimus.core.bots import SearchBot
from optimus.tiny.game import TinyGame
from optimus.ui.session import TableSession


def test_human_and_bot_alternate_until_the_end():
    s = TableSession(TinyGame(), {"rounds": 2}, seed=4, seats=["human", "random"])
    moves = 0
    while not s.state.is_terminal():
        seat = s.human_to_act()
        if seat is not None:
            assert s.bot_to_act() is None
            s.play(seat, s.state.legal_moves(seat)[-1])
        else:
            assert s.bot_to_act() == 1
            s.think(slice_ms=10)
        moves += 1
    assert moves > 4 and s.next_actor() is None


def test_a_human_cannot_move_for_a_bot_or_make_an_illegal_move():
    s = TableSession(TinyGame(), {}, seed=2, seats=["random", "human"])
    while s.bot_to_act() is not None:
        s.think()
    seat = s.human_to_act()
    with pytest.raises(Exception, match="bot"):
        s.play(1 - seat, "keep")
    with pytest.raises(IllegalMove):
        s.play(seat, "fly")


class SlowBot(SearchBot):
    default_budget = Budget(iterations=5000)


def test_a_long_search_is_split_into_slices():
    game = TinyGame()
    s = TableSession(game, {"rounds": 1}, seed=1, seats=[f"{__name__}:SlowBot", "human"])
    # Seat 0 uses a bot class given as module:Class.
    assert s.bots[0].__class__.__name__ == "SlowBot"
    slices = 0
    while s.bot_to_act() == 0:
        made = s.think(slice_ms=1)
        slices += 1
        if made is None:
            assert s.is_thinking
    assert slices > 1


def test_save_and_load_resume_the_same_position():
    s = TableSession(TinyGame(), {"rounds": 2}, seed=9, seats=["human", "random"])
    for _ in range(3):
        if s.human_to_act() is not None:
            s.play(0, s.state.legal_moves(0)[0])
        else:
            s.think()
    again = TableSession.load(TinyGame(), s.save())
    assert again.state.observation(None) == s.state.observation(None)
    assert again.seats == s.seats


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("garbage", "not valid JSON"),
        (
            '{"format": 1, "game": "tiny", "options": {"players": 2}, "seed": 1, "events": []}',
            "sits",
        ),
    ],
)
def test_a_corrupt_save_is_refused_with_the_reason(text, fragment):
    with pytest.raises(RecordError, match=fragment):
        TableSession.load(TinyGame(), text)


def _races(monkeypatch: pytest.MonkeyPatch, budget: Budget | None) -> list[int]:
    """Iterations of each race an Optimus 2 ``hard`` bot ran in its first decisions at
    the table (with another bot, its networks set aside: the race is the search the
    clock must stop), on a device so slow that every reading of the clock finds 1 s
    gone."""
    import time

    from optimus.core.registry import get_game
    from optimus.optimus2.bots import HardBot

    monkeypatch.setattr(HardBot, "multi_net", None)

    clock = iter(range(10**9))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(clock)))
    s = TableSession(get_game("optimus2"), {}, seed=5, seats=["hard", "hard"], budget=budget)
    races = []
    for _ in range(12):
        for bot in s.bots.values():
            bot.raced = []
        while s.bot_to_act() is not None and not s.think():
            pass
        races.append(max((len(r) for b in s.bots.values() for r in b.raced), default=0))
    return races


def test_a_bot_at_the_table_stops_at_its_clock_on_a_slow_device(monkeypatch):
    from optimus.optimus2.bots import ITERATIONS

    capped = _races(monkeypatch, None)  # the table's budget: the bot's own, capped in time
    assert max(capped) == 0  # the clock ends every race before its first playout
    unbounded = _races(monkeypatch, Budget(iterations=ITERATIONS))
    assert max(unbounded) > 2  # without a clock, the same races run on


@pytest.mark.parametrize(("wait_ms", "reserve_ms"), [(800.0, 0.0), (4000.0, 0.0), (800.0, 300.0)])
def test_the_bots_between_two_of_a_persons_decisions_share_one_clock(
    monkeypatch, wait_ms, reserve_ms
):
    """Each bot decision of a wait gets half of what is left of the table's ``wait_ms``
    (``WAIT_MS``, or the "Bots think: carefully" setting's) less the drawing the page
    keeps for the wait's end (``reserve_ms``: its last drawing's cost): the first one
    half of it, the later ones less, never under ``FLOOR_MS``; the person's decision
    starts a new wait, which counts the page's work after it."""
    import time

    from optimus.core.registry import get_game
    from optimus.ui.session import FLOOR_MS, WAIT_MS, decision_ms
    from optimus.ui.table import THINKING

    assert THINKING["quick"] == WAIT_MS  # the default setting is the session's default
    clock = iter(range(10**9))
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock) * 0.05)  # 50 ms a reading
    s = TableSession(get_game("optimus2"), {}, seed=3, seats=["human", "hard", "hard", "hard"])
    s.wait_ms = wait_ms
    s.reserve_ms = reserve_ms
    thinking = wait_ms - reserve_ms
    waits: list[list[float]] = [[]]
    while len(waits) < 8 and not s.state.is_terminal():
        seat = s.human_to_act()
        if seat is not None:
            s.play(seat, s.state.legal_moves(seat)[0])
            if waits[-1]:
                waits.append([])
            continue
        bot = s.bots[s.bot_to_act()]
        while s.think() is None:
            pass
        waits[-1].append(bot.budget.time_ms)
    waits = [w for w in waits if w]
    assert len(waits) >= 4
    for clocks in waits:
        # a new wait: the whole decision clock again, less the page's work since the
        # person's decision, which the wait counts (one reading of the clock here)
        first = (thinking / 2, decision_ms(50.0, thinking))
        assert any(clocks[0] == pytest.approx(ms) for ms in first)
        assert clocks == sorted(clocks, reverse=True)  # what is left only shrinks
        assert min(clocks) >= FLOOR_MS
    assert any(min(clocks) == FLOOR_MS for clocks in waits)  # long waits reach the floor


@pytest.mark.parametrize("game_name", ["optimus", "optimus2"])
def test_bots_decide_while_a_person_decides_in_the_same_step_and_then_answer_at_once(
    game_name: str,
) -> None:
    """Optimus' passive players and Optimus 2's passive picks decide at the same time:
    the bots among them think while the person decides, play nothing meanwhile,
    and once the person has chosen, each plays the move it found without thinking."""
    from optimus.core.registry import get_game

    seats = ["human", "hard", "hard"]
    s = TableSession(get_game(game_name), {}, seed=4, seats=seats, budget=Budget(iterations=2))
    steps = 0
    while not s.state.is_terminal() and steps < 3:
        person = s.human_to_act()
        if person is None:
            while s.think() is None:
                pass
            continue
        others = [seat for seat in s.state.actors() if seat != person]
        events = len(s.record.events)
        while s.ponder():
            pass
        assert len(s.record.events) == events  # nothing played, nothing shown
        found = {seat: move for seat, (_, move) in s._pondered.items()}
        assert set(found) == set(others)
        s.play(person, s.state.legal_moves(person)[0])
        for _ in others:
            seat = s.bot_to_act()
            assert s.think(slice_ms=0.0) == found[seat]  # at once: no slice of thinking
        steps += bool(others)
    assert steps == 3


def test_warming_a_table_loads_its_bots_networks_and_changes_no_decision(monkeypatch):
    """The page's idle warm-up (``TableSession.warm``) reads the network Optimus 2's
    ``hard`` would play at the table (with others, or alone for the hint), whatever
    the levels seated, so the first wait does not; the bots' own generators are
    untouched: the warmed table plays the same moves as one not warmed."""
    from optimus.core.registry import get_game
    from optimus.optimus2.bots import HardBot
    from optimus.optimus2.net import NETS

    monkeypatch.setattr(NETS, "_shipped", {})  # nothing read yet
    game = get_game("optimus2")
    TableSession(game, {}, seed=6, seats=["human", "normal", "normal"]).warm()
    assert set(NETS._shipped) == {HardBot.multi_net}  # any level may be picked next
    monkeypatch.setattr(NETS, "_shipped", {})
    TableSession(game, {"players": 1}, seed=6, seats=["human"]).warm()
    assert set(NETS._shipped) == {HardBot.solo_net}  # alone: the hint's
    seats = ["hard", "hard", "hard"]
    warmed = TableSession(game, {}, seed=6, seats=seats, budget=Budget(iterations=2))
    warmed.warm()
    cold = TableSession(game, {}, seed=6, seats=seats, budget=Budget(iterations=2))

    def moves(s: TableSession) -> list[str]:
        out: list[str] = []
        while len(out) < 12 and s.bot_to_act() is not None:
            move = s.think()
            if move is not None:
                out.append(move)
        return out

    assert moves(warmed) == moves(cold)
