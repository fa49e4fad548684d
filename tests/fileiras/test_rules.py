"""The rules of Fileiras, one test per point of the reference (set-up, turn, end)."""

from __future__ import annotations

import pytest

from optimus.core.bots import sample_chance
from optimus.core.protocol import OptionError, apply_chance_checked
from optimus.core.record import Match
from optimus.core.rng import Rng
from optimus.fileiras.cards import COLOURS, KIND_NAMES, LAST, full_deck
from optimus.fileiras.game import FileirasGame, FileirasState, check_conservation
from optimus.fileiras.scoring import best_score

from .scenario import draw_place, run, start

GAME = FileirasGame()


# -- components and set-up ------------------------------------------------------


def test_box_contents() -> None:
    deck = full_deck()
    assert sum(deck[:7]) == 63 and all(n == 9 for n in deck[:7])
    assert deck[7:] == [3, 10, 1]  # jokers, "+2", last-round card


@pytest.mark.parametrize("players", [4, 5])
def test_four_and_five_players_use_all_colours(players: int) -> None:
    s = FileirasState(players)
    assert s.phase == "deal"
    assert [o for o, _ in s.chance_outcomes()] == [f"deal {c}" for c in COLOURS]
    s = start(players)
    assert s.observation(None)["removed"] == []
    assert len(s.observation(None)["colours"]) == 7
    assert s.caps == (3,) * players


def test_three_players_remove_one_colour_shown_in_observation() -> None:
    s = FileirasState(3)
    assert s.phase == "remove"
    assert sorted(o for o, _ in s.chance_outcomes()) == sorted(f"remove {c}" for c in COLOURS)
    apply_chance_checked(s, "remove red")
    assert s.phase == "deal"
    obs = s.observation(0)
    assert obs["removed"] == ["red"] and "red" not in obs["colours"]
    assert obs["deck"]["red"] == 0
    assert "deal red" not in [o for o, _ in s.chance_outcomes()]
    check_conservation(s)


def test_removed_colour_is_random_from_the_seed() -> None:
    removed = {Match(GAME, {"players": 3}, seed).state.removed[0] for seed in range(40)}
    assert len(removed) >= 4
    a, b = Match(GAME, {"players": 3}, 11), Match(GAME, {"players": 3}, 11)
    assert a.state.observation(None) == b.state.observation(None)


def test_start_cards_are_different_colours_and_count() -> None:
    for seed in range(30):
        for players in (3, 4, 5):
            s = Match(GAME, {"players": players}, seed).state
            starts = [next(k for k in range(7) if c[k]) for c in s.coll]
            assert all(sum(c) == 1 for c in s.coll)
            assert len(set(starts)) == players
            assert not set(starts) & set(s.removed)
            assert s.scores() == [1.0] * players  # start cards count at scoring


def test_two_player_setup() -> None:
    s = FileirasState(2)
    apply_chance_checked(s, "remove red")
    assert s.phase == "remove"
    apply_chance_checked(s, "remove brown")
    assert s.observation(None)["removed"] == ["red", "brown"]
    for colour in ("yellow", "green", "blue", "grey"):
        apply_chance_checked(s, f"deal {colour}")
    assert s.phase == "first"
    assert s.coll[0][:7] == [1, 0, 1, 0, 0, 0, 0]  # seats are dealt in turn
    assert s.coll[1][:7] == [0, 1, 0, 1, 0, 0, 0]
    assert [r["capacity"] for r in s.observation(None)["rows"]] == [1, 2, 3]
    for seed in range(30):
        m = Match(GAME, {"players": 2}, seed).state
        held = [k for c in m.coll for k in range(7) if c[k]]
        assert len(held) == 4 and len(set(held)) == 4  # all start cards differ
        assert len(m.removed) == 2 and not set(held) & set(m.removed)


def test_start_player_is_random_from_the_seed() -> None:
    firsts = {Match(GAME, {"players": 4}, seed).state.current for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    s = start(4, first=3)
    assert s.current == s.first_player == s.round_starter == 3


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_last_round_card_has_exactly_15_cards_beneath(players: int) -> None:
    s = Match(GAME, {"players": players}, 7).state
    deck_after_setup = 77 - 9 * {2: 2, 3: 1}.get(players, 0) - players * (2 if players == 2 else 1)
    obs = s.observation(s.current)
    assert obs["deck_count"] == deck_after_setup
    assert obs["draws_before_last"] == deck_after_setup - 1 - 15
    rng = Rng(3)
    draws = 0
    while not s.last_drawn:
        if s.is_chance():
            outcomes = dict(s.chance_outcomes())
            if s.phase == "draw":
                if s.remaining == 15:
                    assert outcomes == {"last": 1}
                else:
                    assert "last" not in outcomes
                    draws += 1
            sample_chance(s, rng)
            continue
        moves = s.legal_moves(s.current)
        assert s.observation(None)["draws_before_last"] == s.remaining - 15
        s.apply_move(s.current, "draw" if "draw" in moves else moves[0])
    assert draws == deck_after_setup - 1 - 15
    assert s.remaining == 15 and s.deck[LAST] == 0


def test_options() -> None:
    assert GAME.normalize_options({"players": "3", "advanced": "yes"}) == {
        "players": 3,
        "advanced": True,
    }
    assert GAME.normalize_options({}) == {"players": 2, "advanced": False}
    for bad in ({"players": 1}, {"players": 6}, {"colours": 5}, {"advanced": "maybe"}):
        with pytest.raises(OptionError):
            GAME.normalize_options(bad)
    assert GAME.new_state({"players": 4, "advanced": True}).advanced


# -- the turn -------------------------------------------------------------------


def test_round_opens_with_a_draw_and_the_card_must_be_placed() -> None:
    s = start(4, first=1)
    assert s.legal_moves(1) == ["draw"]
    assert s.legal_moves(0) == []
    run(s, "draw")
    assert s.is_chance() and s.actors() == ()
    run(s, "joker")
    assert s.phase == "place" and s.actors() == (1,)
    assert s.legal_moves(1) == ["place 1", "place 2", "place 3", "place 4"]
    assert s.observation(1)["drawn"] == "joker"
    run(s, "place 3")
    assert s.rows[2] == [7] and s.current == 2 and s.phase == "turn"
    assert s.legal_moves(2) == ["draw", "take 3"]


def test_take_a_row_adds_its_cards_and_sits_out() -> None:
    s = start(4, first=0)
    draw_place(s, "red", 1)
    draw_place(s, "+2", 1)
    assert s.current == 2
    run(s, "take 1")
    assert s.coll[2][COLOURS.index("red")] == 1 and s.coll[2][8] == 1
    obs = s.observation(None)
    assert obs["rows"][0] == {"cards": [], "capacity": 3, "taken": True, "taken_by": 2}
    assert obs["taken_this_round"] == [False, False, True, False]
    assert s.current == 3
    draw_place(s, "blue", 2)
    assert s.current == 0
    draw_place(s, "blue", 2)
    assert s.current == 1
    draw_place(s, "blue", 3)
    assert s.current == 3  # player 2 is skipped: they took a row
    assert "place 1" not in (run(s, "draw", "green") or s.legal_moves(3))


def test_cannot_take_an_empty_row() -> None:
    s = start(3, first=0)
    draw_place(s, "red", 2)
    assert s.legal_moves(1) == ["draw", "take 2"]


def test_must_take_when_every_row_is_full() -> None:
    s = start(3, first=0)
    for i in range(9):
        draw_place(s, "+2", i // 3 + 1)
    assert s.legal_moves(s.current) == ["take 1", "take 2", "take 3"]


def test_last_player_keeps_choosing_and_starts_next_round() -> None:
    s = start(3, first=0)
    draw_place(s, "yellow", 1)
    draw_place(s, "green", 2)
    draw_place(s, "blue", 3)
    run(s, "take 1")  # player 0
    run(s, "take 2")  # player 1
    assert s.current == 2 and s.legal_moves(2) == ["draw", "take 3"]
    draw_place(s, "blue", 3)
    assert s.current == 2 and s.legal_moves(2) == ["draw", "take 3"]
    draw_place(s, "blue", 3)
    assert s.current == 2 and s.legal_moves(2) == ["take 3"]
    run(s, "take 3")
    assert s.coll[2][COLOURS.index("blue")] == 1 + 3  # start card and the row
    assert s.round == 2 and s.current == s.round_starter == 2
    assert s.took == [False] * 3 and s.row_taker == [-1] * 3
    assert s.rows == [[], [], []] and s.legal_moves(2) == ["draw"]


def test_player_who_took_the_last_row_starts_next_round() -> None:
    s = start(4, first=0)
    for r in (1, 2, 3, 4):
        draw_place(s, "+2", r)
    run(s, "take 4")  # player 0
    run(s, "take 1")  # player 1
    run(s, "take 3")  # player 2
    assert s.current == 3
    run(s, "take 2")
    assert s.round == 2 and s.current == 3
    assert s.observation(None)["round_starter"] == 3


def test_two_player_rows_and_third_row_leaves_the_game() -> None:
    s = start(2, first=0)
    assert s.legal_moves(0) == ["draw"]
    draw_place(s, "yellow", 1)
    assert s.legal_moves(1) == ["draw", "take 1"]
    run(s, "draw", "green")
    assert s.legal_moves(1) == ["place 2", "place 3"]  # row 1 (capacity 1) is full
    run(s, "place 3")
    draw_place(s, "+2", 3)
    run(s, "take 1")  # player 1 takes the yellow
    assert s.current == 0
    draw_place(s, "joker", 2)
    run(s, "take 2")  # player 0; row 3 (green, +2) leaves the game
    obs = s.observation(None)
    assert obs["out"]["green"] == 1 and obs["out"]["+2"] == 1
    assert s.rows == [[], [], []] and s.round == 2 and s.current == 0
    check_conservation(s)


def test_last_round_card_draw_again_and_game_ends_with_the_round() -> None:
    s = start(3, first=0)
    rng = Rng(5)
    while s.draws_before_last() > 0:  # play on with draws, taking only when forced
        if s.is_chance():
            sample_chance(s, rng)
            continue
        moves = s.legal_moves(s.current)
        s.apply_move(s.current, "draw" if "draw" in moves else moves[0])
    while s.phase != "turn" or "draw" not in s.legal_moves(s.current):
        if s.is_chance():
            sample_chance(s, rng)
        else:
            s.apply_move(s.current, s.legal_moves(s.current)[0])
    drawer = s.current
    round_now = s.round
    run(s, "draw")
    assert s.chance_outcomes() == [("last", 1)]
    run(s, "last")
    obs = s.observation(None)
    assert obs["last_round"] and obs["draws_before_last"] is None
    assert s.phase == "draw" and s.current == drawer  # draws again at once
    run(s, "grey")
    assert s.phase == "place" and s.current == drawer
    while not s.is_terminal():
        assert s.round == round_now
        moves = s.legal_moves(s.current)
        take = [m for m in moves if m.startswith("take")]
        run(s, take[0] if take else moves[0])
        if s.is_chance():
            sample_chance(s, rng)
    assert s.round == round_now and all(s.took)
    assert s.actors() == () and s.legal_moves(0) == [] and not s.is_chance()
    check_conservation(s)


def test_deck_cannot_run_out_worst_case_ends_with_an_empty_deck() -> None:
    """5 players: the last-round card opens a round and all 15 slots get filled."""
    s = start(5, first=0)
    assert s.remaining == 71 and s.draws_before_last() == 56
    targets = {1: 15, 2: 15, 3: 15, 4: 11, 5: 15}  # 15 + 15 + 15 + 11 = 56
    placed = 0
    rng = Rng(1)
    while not s.is_terminal():
        if s.is_chance():
            sample_chance(s, rng)
            continue
        if s.phase == "place":
            moves = s.legal_moves(s.current)
            row = min(moves, key=lambda m: len(s.rows[int(m[6:]) - 1]))
            s.apply_move(s.current, row)
            placed += 1
            continue
        moves = s.legal_moves(s.current)
        if "draw" in moves and placed < targets[s.round]:
            s.apply_move(s.current, "draw")
        else:
            before = s.round
            s.apply_move(s.current, next(m for m in moves if m.startswith("take")))
            if s.round != before:
                placed = 0
    assert s.round == 5 and s.last_drawn and s.remaining == 0
    check_conservation(s)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_deck_never_runs_out_in_random_games(players: int) -> None:
    for seed in range(150):
        m = Match(GAME, {"players": players}, seed)
        rng = Rng(seed)
        s = m.state
        while not s.is_terminal():
            moves = s.legal_moves(s.current)
            if s.phase == "turn":
                assert s.remaining > 0 or "draw" not in moves
            m.play(s.current, rng.choice(moves))
        assert s.remaining >= 0 and s.last_drawn


# -- end of the game --------------------------------------------------------------


def _finished(players: int, seed: int) -> FileirasState:
    m = Match(GAME, {"players": players}, seed)
    rng = Rng(seed)
    while not m.state.is_terminal():
        p = m.state.current
        m.play(p, rng.choice(m.state.legal_moves(p)))
    return m.state  # type: ignore[return-value]


def test_final_scores_are_best_scores_of_collections() -> None:
    s = _finished(4, 3)
    for p in range(4):
        coll = {KIND_NAMES[k]: n for k, n in enumerate(s.coll[p])}
        assert s.scores()[p] == best_score(coll)
        assert s.observation(None)["scores"][p]["total"] == s.scores()[p]
    out = s.outcome()
    best = max(s.scores())
    assert out.winners == tuple(p for p in range(4) if s.scores()[p] == best)


def test_ties_share_the_victory() -> None:
    s = start(3)  # brown is out of the game
    s.coll = [[2, 0, 0, 0, 0, 0, 0, 0, 1], [0, 2, 0, 0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0, 0, 0, 0]]
    out = s.outcome()
    assert out.scores == (5.0, 5.0, 1.0)
    assert out.winners == (0, 1) and out.ranks == (1, 1, 3)


def test_scores_so_far_show_plus_colours() -> None:
    s = start(4, first=0)
    draw_place(s, "red", 1)
    draw_place(s, "red", 1)
    draw_place(s, "joker", 1)
    run(s, "take 1")  # player 3, who started with grey
    entry = s.observation(None)["scores"][3]
    assert entry["total"] == 6 + 1
    assert entry["plus_colours"][0] == "red" and entry["jokers"] == {"red": 1}


def test_advanced_option_scores_with_the_advanced_table() -> None:
    plain, advanced = start(4, first=1), start(4, first=1, advanced=True)
    for s in (plain, advanced):
        for _ in range(3):
            draw_place(s, "yellow", 1)  # seats 1, 2, 3
        run(s, "take 1")  # seat 0, who started with yellow: 4 yellow
    assert plain.scores()[0] == 10 and advanced.scores()[0] == 7
    assert advanced.observation(None)["advanced"] is True
    assert advanced.observation(None)["scores"][0]["total"] == 7
