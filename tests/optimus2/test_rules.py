"""The turn rules of Optimus 2, one test (or more) per point of the reference."""

from __future__ import annotations

import pytest

from optimus.core.protocol import IllegalMove
from optimus.core.record import Match
from optimus.core.rng import Rng
from optimus.optimus2.game import FIELD, HAND, TRAY, Optimus2Game, Optimus2State

from .scenario import no_use_for_ones, pass_turn, roll, run, start

GAME = Optimus2Game()


def places(s: Optimus2State) -> list[int]:
    return list(s.loc)


def give(s: Optimus2State, p: int, action: int, n: int = 1) -> None:
    """Circle ``n`` more slots of an action bar (0 reroll, 1 return, 2 extra)."""
    s.sheets[p][s.sd.AC + action] += n


def avail(s: Optimus2State, p: int, action: int) -> int:
    return s.available(p, action)


# -- active turn ----------------------------------------------------------------


def test_lower_dice_go_to_the_tray_and_three_choices() -> None:
    s = start(1)
    roll(s, "416253")  # w4 y1 b6 g2 p5 s3
    run(s, 0, "pink")  # 5: w4 y1 g2 s3 lower -> tray; b6 stays
    assert places(s) == [TRAY, TRAY, HAND, TRAY, FIELD, TRAY]
    assert s.phase == "roll" and s.to_roll == [2]
    roll(s, "6")
    run(s, 0, "blue")  # blue 6 + white 4 = 10
    assert s.sheets[0][s.sd.BN + 1] == 10
    # no die left to roll: the turn ends after two choices
    assert s.picks == 2
    assert s.phase == "roll" and s.solo_passive  # solo: the passive turn starts


def test_choosing_the_lowest_die_sends_nothing_to_the_tray() -> None:
    s = start(2)
    roll(s, "456621")  # w4 y5 b6 g6 p2 s1
    run(s, 0, "silver yellow")
    assert places(s).count(TRAY) == 0
    roll(s, "45662")
    run(s, 0, "pink")  # pink 2: nothing lower
    roll(s, "4566")
    run(s, 0, "green")  # green 6: w4 y5 b6? b6 is not lower; w4 y5 go
    assert places(s) == [TRAY, TRAY, TRAY, FIELD, FIELD, FIELD]
    assert s.picks == 3


def test_remaining_dice_go_to_the_tray_after_the_third_choice() -> None:
    s = start(2)
    roll(s, "111111")
    run(s, 0, "pink")
    roll(s, "11111")
    run(s, 0, "green")
    roll(s, "1111")
    run(s, 0, "white blue")
    assert places(s) == [FIELD, TRAY, TRAY, FIELD, FIELD, TRAY]
    assert s.phase == "simul" and s.actors() == (1,)


def test_declining_a_roll_counts_as_a_choice() -> None:
    s = start(2)
    roll(s, "123456")
    run(s, 0, "pass")
    assert s.picks == 1 and places(s) == [HAND] * 6  # nothing moves
    roll(s, "123456")
    run(s, 0, "pass")
    roll(s, "123456")
    run(s, 0, "pass")
    assert s.picks == 3 and places(s) == [TRAY] * 6
    assert s.phase == "simul"


def test_rounds_by_player_count_and_every_player_active_once_per_round() -> None:
    for players, rounds in ((1, 6), (2, 6), (3, 5), (4, 4)):
        m = Match(GAME, {"players": players}, seed=players)
        rng = Rng(players)
        seen: list[tuple[int, int]] = []
        s = m.state
        assert isinstance(s, Optimus2State)
        while not s.is_terminal():
            if s.phase == "choose" and (not seen or seen[-1] != (s.round, s.active)):
                seen.append((s.round, s.active))
            p = s.actors()[0]
            m.play(p, rng.choice(s.legal_moves(p)))
        turns = [a for _, a in seen]
        assert s.round == rounds
        assert len(turns) == players * rounds
        for r in range(rounds):
            chunk = turns[r * players : (r + 1) * players]
            assert sorted(chunk) == list(range(players))
            assert chunk[0] == s.first


def test_white_is_wild_and_blue_is_blue_plus_white() -> None:
    s = start(1)
    roll(s, "532111")  # w5 y3 b2
    moves = s.legal_moves(0)
    assert {"white blue", "white green", "white pink", "white silver yellow"} <= set(moves)
    assert "white yellow r4c3" in moves  # white 5 as yellow
    run(s, 0, "white blue")
    assert s.sheets[0][s.sd.BN + 1] == 7  # 2 + 5, the white value counts once


def test_blue_sum_higher_than_the_last_is_refused() -> None:
    s = start(1)
    sd = s.sd
    s.sheets[0][sd.BN] = 1
    s.sheets[0][sd.BN + 1] = 5
    roll(s, "114111")  # blue 4 + white 1 = 5: allowed
    assert "blue" in s.legal_moves(0)
    s2 = start(1)
    s2.sheets[0][sd.BN] = 1
    s2.sheets[0][sd.BN + 1] = 5
    roll(s2, "215111")  # 5 + 2 = 7 > 5
    assert "blue" not in s2.legal_moves(0)
    with pytest.raises(IllegalMove, match="higher than the last blue entry 5"):
        run(s2, 0, "blue")


def test_reroll_rerolls_the_just_rolled_dice_and_is_for_the_active_player() -> None:
    s = start(2)  # round 1 gives everyone a reroll
    assert avail(s, 0, 0) == 1 and avail(s, 1, 0) == 1
    roll(s, "612345")
    run(s, 0, "yellow r2c1")  # y1: nothing lower
    roll(s, "62345")
    assert "reroll" in s.legal_moves(0)
    run(s, 0, "reroll")
    assert s.phase == "roll" and s.to_roll == [0, 2, 3, 4, 5]  # not the field die
    roll(s, "11111")
    assert avail(s, 0, 0) == 0 and "reroll" not in s.legal_moves(0)
    run(s, 0, "pass")
    roll(s, "11111")
    run(s, 0, "pass")  # hand dice go to the tray after the third choice
    assert s.phase == "simul"
    assert "reroll" not in s.legal_moves(1)  # the passive player cannot reroll
    with pytest.raises(IllegalMove, match="only for the active player"):
        run(s, 1, "reroll")


def test_return_brings_tray_dice_back_before_a_roll() -> None:
    s = start(1)
    give(s, 0, 1, 2)
    roll(s, "123456")
    run(s, 0, "pink")  # w1 y2 b3 g4 to the tray
    assert s.phase == "preroll"
    assert s.legal_moves(0) == [
        "roll",
        "return white",
        "return yellow",
        "return blue",
        "return green",
    ]
    run(s, 0, "return white", "return green")  # several before one roll
    assert s.phase == "roll" and s.to_roll == [0, 3, 5]  # no return left: rolls at once
    assert avail(s, 0, 1) == 0
    roll(s, "666")


def test_return_is_offered_even_with_nothing_left_to_roll() -> None:
    s = start(1)
    give(s, 0, 1)
    roll(s, "111116")
    run(s, 0, "silver yellow")  # silver 6: every other die goes to the tray
    assert s.phase == "task" or s.phase == "preroll"
    while s.phase == "task":
        run(s, 0, s.legal_moves(0)[0])
    assert s.legal_moves(0)[0] == "end"
    run(s, 0, "return pink")
    roll(s, "3")
    assert s.legal_moves(0)[0] == "pink"


def test_extra_die_after_the_turn_any_die_once_per_round() -> None:
    s = start(1)
    give(s, 0, 2, 2)
    roll(s, "222222")
    run(s, 0, "pink")
    roll(s, "22222")
    run(s, 0, "pass")
    roll(s, "22222")
    run(s, 0, "pass")  # three choices: turn over
    assert s.phase == "extra"
    moves = s.legal_moves(0)
    assert "extra pink" in moves  # a die already used may be taken again
    assert "done" in moves
    run(s, 0, "extra pink")
    assert s.sheets[0][s.sd.PN] == 2
    assert "extra pink" not in s.legal_moves(0)  # once per die per round
    with pytest.raises(IllegalMove, match="already taken as an extra die this round"):
        run(s, 0, "extra pink")
    run(s, 0, "extra green")
    assert avail(s, 0, 2) == 0 and s.solo_passive  # no action left: phase over
    roll(s, "111111")
    give(s, 0, 2)
    run(s, 0, "blue")  # passive pick from the tray (white, yellow, blue)
    assert "extra pink" not in s.legal_moves(0)  # still the same round
    run(s, 0, "done")
    assert s.round == 2
    assert s.sheets[0][s.sd.XM] == 0  # a new round: every die may be taken again


def test_extra_die_is_not_offered_during_the_active_choices() -> None:
    s = start(1)
    give(s, 0, 2)
    roll(s, "222222")
    assert not any(m.startswith("extra") for m in s.legal_moves(0))
    with pytest.raises(IllegalMove, match="after your turn or your passive pick"):
        run(s, 0, "extra pink")


# -- passive players -------------------------------------------------------------


def _two_player_after_active(tray: str = "334456") -> Optimus2State:
    s = start(2)
    roll(s, tray)  # w3 y3 b4 g4 p5 s6
    run(s, 0, "silver yellow")  # all lower to the tray
    while s.actors() == (0,):
        run(s, 0, s.legal_moves(0)[0])
    return s


def test_passive_players_pick_from_the_tray_at_the_same_time() -> None:
    s = start(3)
    roll(s, "123456")
    run(s, 0, "pink")  # w1 y2 b3 g4 to the tray
    roll(s, "6")
    run(s, 0, "silver yellow")
    assert s.phase == "simul" and s.actors() == (1, 2)
    for p in (1, 2):
        picks = [m for m in s.legal_moves(p) if m not in ("pass",)]
        dice = {m.split()[0] for m in picks}
        assert dice == {"white", "yellow", "blue", "green"}
    before_1 = s.observation(1)
    run(s, 2, "green")
    assert s.observation(1)["sheets"] == before_1["sheets"]  # 2's pick is not shown
    assert s.observation(None)["sheets"][2] == before_1["sheets"][2]
    assert s.observation(2)["sheets"][2]["green"] == [8]  # but 2 sees its own
    run(s, 1, "green")  # the same die for several players
    assert s.phase == "roll" and s.active == 1
    assert s.observation(None)["sheets"][1]["green"] == [8]
    assert s.observation(None)["sheets"][2]["green"] == [8]


def test_fallback_to_the_active_dice_only_when_no_tray_die_is_usable() -> None:
    s = start(2)
    no_use_for_ones(s, 1)
    roll(s, "611111")  # white 6, all else 1
    run(s, 0, "white pink")  # 5 dice of 1 to the tray
    while s.actors() == (0,):
        run(s, 0, s.legal_moves(0)[0])
    assert s.actors() == (1,)
    moves = s.legal_moves(1)
    assert "white yellow r1c4" in moves  # the active player's white 6
    assert all(m.startswith("white") or m == "pass" for m in moves)
    # with a usable tray die there is no fallback
    s2 = start(2)
    roll(s2, "611111")
    run(s2, 0, "white pink")
    while s2.actors() == (0,):
        run(s2, 0, s2.legal_moves(0)[0])
    assert not any(m.startswith("white") for m in s2.legal_moves(1))
    with pytest.raises(IllegalMove, match="only if no tray die is usable"):
        run(s2, 1, "white yellow r1c4")


def test_a_passive_player_may_decline() -> None:
    s = _two_player_after_active()
    assert "pass" in s.legal_moves(1)
    before = list(s.sheets[1])
    run(s, 1, "pass")
    assert s.sheets[1] == before


def test_passive_silver_marks_one_value_without_chain() -> None:
    s = start(2)
    roll(s, "111126")  # silver 2 below pink 6
    run(s, 0, "pink")  # w1 y1 b1 g1 to the tray
    roll(s, "6")
    run(s, 0, "pass")
    roll(s, "6")
    run(s, 0, "pass")  # the silver 6 is swept to the tray
    assert s.actors() == (1,)
    run(s, 1, "silver blue")
    sd = s.sd
    assert [s.sheets[1][sd.S + r] for r in range(4)] == [0, 0b100000, 0, 0]
    assert not s.pend[1]


# -- silver ---------------------------------------------------------------------------


def test_silver_chain_marks_the_dice_this_choice_sent_to_the_tray() -> None:
    s = start(1)
    roll(s, "123454")  # w1 y2 b3 g4 p5 s4
    run(s, 0, "pink")  # p5: w1 y2 b3 g4 s4 to the tray (before any silver choice)
    sd = s.sd
    assert all(s.sheets[0][sd.S + r] == 0 for r in range(4))  # no chain without silver
    s = start(1)
    roll(s, "523416")  # w5 y2 b3 g4 p1 s6
    run(s, 0, "silver pink")  # s6 marked in pink; sends w5 y2 b3 g4 p1
    # y2 -> yellow row, b3 -> blue row, g4 -> green row, p1 -> pink row at once;
    # white 5 may go in any row: a question
    assert s.phase == "task"
    assert s.legal_moves(0) == ["mark yellow 5", "mark blue 5", "mark green 5", "mark pink 5"]
    run(s, 0, "mark green 5")
    sh = s.sheets[0]
    assert [sh[sd.S + r] for r in range(4)] == [0b10, 0b100, 0b11000, 0b100001]


def test_silver_chain_ignores_dice_already_in_the_tray_and_the_final_sweep() -> None:
    s = start(1)
    sd = s.sd
    roll(s, "213456")  # w2 y1 b3 g4 p5 s6
    run(s, 0, "green")  # g4: w2 y1 b3 to the tray
    roll(s, "56")
    run(s, 0, "silver yellow")  # s6: sends p5 (chain); w2 y1 b3 were already there
    rows = [s.sheets[0][sd.S + r] for r in range(4)]
    assert rows == [0b100000, 0, 0, 0b10000]
    s = start(1)
    roll(s, "111111")
    run(s, 0, "pink")
    roll(s, "11111")
    run(s, 0, "green")
    roll(s, "3332")  # w3 y3 b3 s2
    run(s, 0, "silver yellow")  # third choice: nothing lower; w y b swept, not marked
    rows = [s.sheets[0][sd.S + r] for r in range(4)]
    assert rows == [0b10, 0, 0, 0]


def test_silver_is_blocked_when_its_value_is_marked_in_all_rows() -> None:
    s = start(1)
    sd = s.sd
    for r in range(4):
        s.sheets[0][sd.S + r] = 0b100  # 3 in every row
    roll(s, "111113")
    moves = s.legal_moves(0)
    assert not any(m.startswith("silver ") for m in moves)
    assert "white silver yellow" in moves  # the white 1 may still go to silver
    with pytest.raises(IllegalMove, match="marked in all four rows"):
        run(s, 0, "silver yellow")


# -- bonuses -------------------------------------------------------------------------


def test_bonus_chain_resolves_at_once_one_question_at_a_time() -> None:
    s = start(1)
    sd = s.sd
    sh = s.sheets[0]
    # yellow row 1 has r1c2 circled: circling r1c4 (a 6) completes it -> blue ?
    sh[sd.Y + sd.cell_names.index("r1c2")] = 1
    # silver: 2 marked in three rows, so the blue ? ... via yellow column 4? keep simple:
    roll(s, "161111")
    run(s, 0, "yellow r1c4")
    assert s.phase == "task" and s.legal_moves(0)[0] == "write 2"
    assert s.legal_moves(0)[-1] == "write 12"
    run(s, 0, "write 12")
    assert sh[sd.BN : sd.BN + 2] == [1, 12]
    assert s.phase == "roll"


def test_a_question_with_one_answer_is_answered_automatically() -> None:
    s = start(1)
    sd = s.sd
    sh = s.sheets[0]
    sh[sd.Y + sd.cell_names.index("r1c2")] = 1
    sh[sd.BN] = 1
    sh[sd.BN + 1] = 2  # blue ? can only write 2
    roll(s, "161111")
    run(s, 0, "yellow r1c4")
    assert sh[sd.BN : sd.BN + 3] == [2, 2, 2]
    assert sh[sd.AC + 1] == 1  # blue slot 2: return
    assert s.phase == "preroll"  # ... usable at once, before the next roll


def idle(s: Optimus2State) -> None:
    """One step where nobody uses anything: dice show 1, players pass."""
    if s.is_chance():
        roll(s, "1" * (len(s.to_roll) - s.rpos))
        return
    p = s.actors()[0]
    legal = s.legal_moves(p)
    for m in ("pass", "done", "roll", "end"):
        if m in legal:
            run(s, p, m)
            return
    run(s, p, legal[0])


def test_round_track_bonuses() -> None:
    s = start(2)
    sd = s.sd
    expected = {1: [1, 0, 0], 2: [1, 0, 1], 3: [1, 1, 1]}
    while s.round < 4:
        r = s.round
        for p in (0, 1):
            assert [s.available(p, a) for a in range(3)] == expected[r]
        while s.round == r:
            idle(s)
    # round 4 starts with a "?" of any colour for every player, at the same time
    assert s.phase == "simul" and s.simul == "track" and s.actors() == (0, 1)
    assert s.legal_moves(0) == [
        f"choose {a}" for a in ("yellow", "blue", "green", "pink", "silver")
    ]
    run(s, 0, "choose pink")
    assert s.legal_moves(0) == [f"write {v}" for v in range(1, 7)]
    assert s.observation(1)["sheets"][0]["pending"] == [
        "a '?' of any colour: choose the area (choose AREA)"
    ]
    run(s, 0, "write 6")
    assert s.actors() == (1,) and s.sheets[0][sd.PN + 1] == 6
    run(s, 1, "choose blue", "write 12")
    assert s.phase == "roll" and s.round == 4


def test_rerolls_expire_and_the_game_ends_after_the_last_passive_step() -> None:
    s = start(1)
    give(s, 0, 0, 3)
    while not s.is_terminal():
        if s.is_chance():
            roll(s, "2" * (len(s.to_roll) - s.rpos))
            continue
        legal = s.legal_moves(0)
        run(s, 0, legal[0] if legal[0] != "reroll" else "pass")
    assert s.round == 6
    assert s.legal_moves(0) == [] and s.available(0, 0) > 0


def test_tie_break_by_the_highest_single_area() -> None:
    s = start(2)
    sd = s.sd
    a, b = s.sheets
    a[sd.PN] = 2
    a[sd.PN + 1 : sd.PN + 3] = [6, 4]  # pink 10
    b[sd.PN] = 1
    b[sd.PN + 1] = 5  # pink 5
    b[sd.BN] = 3  # blue 6? no: score table: 3 slots -> 6
    assert s.scores() == [10.0, 11.0]
    b[sd.BN] = 2  # blue 3 -> total 8
    b[sd.GN] = 2
    b[sd.GN + 1 : sd.GN + 3] = [4, 2]  # green 2 -> total 10
    assert s.scores() == [10.0, 10.0]
    out = s.outcome()
    assert out.winners == (0,) and out.ranks == (1, 2)
    b[sd.PN + 1] = 10  # both highest areas 10 (pink): shared
    b[sd.BN] = 0
    b[sd.GN] = 0
    assert s.scores() == [10.0, 10.0]
    assert s.outcome().winners == (0, 1)


# -- solo --------------------------------------------------------------------------------


def test_solo_passive_turn_three_lowest_with_shown_tie_order() -> None:
    s = start(1)
    pass_turn(s, "111111")
    assert s.solo_passive and s.to_roll == [0, 1, 2, 3, 4, 5]
    roll(s, "332133")  # w3 y3 b2 g1 p3 s3: g1, b2, then w3 (white first in tie order)
    assert places(s) == [TRAY, FIELD, TRAY, TRAY, FIELD, FIELD]
    moves = s.legal_moves(0)
    dice = {m.split()[0] for m in moves if m != "pass"}
    assert dice == {"white", "blue", "green"}
    assert "reroll" not in moves


def test_solo_has_six_rounds_and_a_rating() -> None:
    s = start(1)
    rng = Rng(11)
    while not s.is_terminal():
        if s.is_chance():
            roll(s, "".join(str(1 + rng.randrange(6)) for _ in range(len(s.to_roll) - s.rpos)))
            continue
        legal = s.legal_moves(0)
        run(s, 0, legal[rng.randrange(len(legal))])
    assert s.round == 6
    obs = s.observation(0)
    assert obs["rating"] == s.sd.rating_for(s.scores()[0])


# -- decisions ------------------------------------------------------------------------


def test_first_player_is_a_chance_event() -> None:
    s = Optimus2State(3, start(1).sd)
    assert s.is_chance() and s.chance_outcomes() == [(f"first {p}", 1) for p in range(3)]
    s.apply_chance("first 2")
    assert s.first == 2 and s.active == 2 and s.round == 1


def test_bonus_of_the_silver_mark_comes_before_the_rest_of_the_chain() -> None:
    s = start(1)
    sd = s.sd
    for r in range(3):
        s.sheets[0][sd.S + r] = 0b100000  # 6 in yellow, blue and green rows
    roll(s, "523416")  # w5 y2 b3 g4 p1 s6
    run(s, 0, "silver pink")  # completes column 6: pink ?
    assert s.legal_moves(0) == [f"write {v}" for v in range(1, 7)]
    run(s, 0, "write 4")
    assert s.legal_moves(0) == ["mark yellow 5", "mark blue 5", "mark green 5", "mark pink 5"]


def test_a_chain_die_already_marked_in_its_row_is_skipped() -> None:
    s = start(1)
    sd = s.sd
    s.sheets[0][sd.S] = 0b10  # yellow row has a 2
    roll(s, "623416")  # w6 y2 b3 g4 p1 s6: w6 is not lower
    run(s, 0, "silver pink")
    rows = [s.sheets[0][sd.S + r] for r in range(4)]
    assert rows == [0b10, 0b100, 0b1000, 0b100001]
    assert s.phase == "roll"  # no question was asked


def test_a_bonus_that_cannot_be_used_is_lost() -> None:
    s = start(1)
    sd = s.sd
    sh = s.sheets[0]
    sh[sd.Y + sd.cell_names.index("r1c2")] = 1
    sh[sd.BN] = 12  # blue full: the blue ? of yellow row 1 has no entry
    roll(s, "161111")
    run(s, 0, "yellow r1c4")
    assert not s.pend[0] and s.phase != "task"


def test_extra_die_after_a_passive_decline() -> None:
    s = _two_player_after_active()
    give(s, 1, 2)
    run(s, 1, "pass")
    moves = s.legal_moves(1)
    assert "done" in moves and any(m.startswith("extra ") for m in moves)


def test_solo_passive_fallback_to_the_other_three_dice() -> None:
    s = start(1)
    no_use_for_ones(s, 0)
    pass_turn(s, "222222")
    roll(s, "111116")  # w1 y1 b1 to the tray, none usable
    assert places(s) == [TRAY, TRAY, TRAY, FIELD, FIELD, FIELD]
    moves = s.legal_moves(0)
    assert {m.split()[0] for m in moves} == {"silver", "pass"}


def test_yellow_and_silver_question_bonuses_offer_every_legal_cell() -> None:
    s = start(1)
    sd = s.sd
    sh = s.sheets[0]
    sh[sd.Y] = 2  # r1c2 crossed: not offered
    sh[sd.Y + 1] = 1  # r1c4 circled: may be crossed
    s.pend[0].append(("Y", 0, 0))
    opts = [t for t, _ in s.task_options(0, s.pend[0][0])]
    assert opts == [f"mark {n}" for n in sd.cell_names if n != "r1c2"]
    sh[sd.S + 2] = 0b111111  # green row full
    sh[sd.S] = 0b000001  # yellow 1 marked
    silver = [t for t, _ in s.task_options(0, ("S", 0, 0b1111))]
    assert len(silver) == 24 - 6 - 1
    assert "mark green 3" not in silver and "mark yellow 1" not in silver
    assert "mark yellow 2" in silver and "mark pink 6" in silver
