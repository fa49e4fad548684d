"""The Fileiras view model offers exactly the legal moves and the engine's scores."""

from __future__ import annotations

from optimus.core import Match, Rng
from optimus.fileiras import view as vm
from optimus.fileiras.cards import KIND_NAMES
from optimus.fileiras.game import FileirasGame
from optimus.ui import table as ui

NAMES = ["You", "Easy bot 1", "Hard bot 2"]


def positions(seed: int, players: int = 3):
    """Every decision point of a random game, as (state, actor)."""
    m = Match(FileirasGame(), {"players": players}, seed)
    rng = Rng(seed)
    while not m.state.is_terminal():
        p = m.state.actors()[0]
        yield m.state, p
        m.play(p, rng.choice(m.state.legal_moves(p)))
    yield m.state, None


def test_clickable_things_are_exactly_the_legal_moves():
    for state, actor in positions(3):
        if actor is None:
            continue
        obs = state.observation(actor)
        t = vm.table(obs, NAMES, actor)
        offered = {f"place {r.n}" for r in t.rows if r.place}
        offered |= {f"take {r.n}" for r in t.rows if r.take}
        if t.deck.can_draw:
            offered.add("draw")
        assert offered == set(state.legal_moves(actor))
        # Someone else's view offers nothing.
        other = (actor + 1) % 3
        t2 = vm.table(state.observation(other), NAMES, other)
        assert not any(r.place or r.take for r in t2.rows) and not t2.deck.can_draw


def test_status_says_whose_turn_and_what_to_do():
    for state, actor in positions(5):
        if actor is None:
            assert vm.status(state.observation(0), NAMES, 0).tone == "over"
            continue
        st = vm.status(state.observation(0), NAMES, 0)
        if actor == 0:
            assert st.tone == "you"
            if state.phase == "place":
                assert "Place" in st.text
        else:
            assert st.tone == "bot" and NAMES[actor] in st.text


def test_scores_on_the_table_and_end_screen_are_the_engines():
    *_, (final_state, _) = positions(11)
    obs = final_state.observation(None)
    scores = final_state.scores()
    t = vm.table(obs, NAMES, 0)
    assert [p.score for p in t.panels] == scores
    finals = vm.final(obs, NAMES)
    assert {p.seat: p.total for p in finals} == dict(enumerate(scores))
    winners = {p.seat for p in finals if p.rank == 1}
    assert winners == set(final_state.outcome().winners)
    assert [p.rank for p in finals] == sorted(p.rank for p in finals)  # best first
    for p in finals:
        assert sum(int(line.value) for line in p.lines) == p.total  # colours and +2 cards
    end = vm.end_screen(obs, NAMES, 0, final_state.outcome().winners)
    assert end.players == tuple(finals)
    tied = len(set(scores)) < len(scores)  # how ties are decided: said for a tie only
    assert ("share the victory" in end.rules) == tied


def test_every_public_event_has_a_log_line():
    seen = set()
    for seed in range(20):
        for state, _ in positions(seed, players=2 + seed % 4):
            for entry in state.log:
                seen.add(entry["event"])
                if entry["event"] != "end":
                    assert vm.describe(entry, ["A", "B", "C", "D", "E"]), entry
    assert {"remove", "deal", "round", "draw", "place", "take", "last_round", "end"} <= seen


def test_every_card_kind_has_its_own_symbol():
    symbols = [vm.card(k).symbol for k in KIND_NAMES]
    assert len(set(symbols)) == len(KIND_NAMES)


def test_seat_names_name_the_human_and_each_bot():
    assert ui.seat_names(["human", "easy", "hard"]) == ["You", "Easy bot 1", "Hard bot 2"]
