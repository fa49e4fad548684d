"""Tiny's view data offers exactly the legal moves, the engine's scores, and keeps bets hidden."""

from __future__ import annotations

from collections.abc import Iterator

from optimus.core import Match, Rng
from optimus.core.record import CHANCE
from optimus.tiny import view as vm
from optimus.tiny.game import TinyGame, TinyState

NAMES = ["You", "Random bot 2", "Random bot 3"]


def positions(seed: int, players: int = 3) -> Iterator[tuple[Match, int | None]]:
    """Every decision point of a random game, as (match, actor)."""
    m = Match(TinyGame(), {"players": players}, seed)
    rng = Rng(seed)
    while not m.state.is_terminal():
        p = m.state.actors()[0]
        yield m, p
        m.play(p, rng.choice(m.state.legal_moves(p)))
    yield m, None


def test_the_choices_are_exactly_the_legal_moves_and_the_panels_the_engines_scores() -> None:
    for m, _ in positions(4):
        state = m.state
        assert isinstance(state, TinyState)
        for seat in range(3):
            legal = state.legal_moves(seat)
            t = vm.table(state.observation(seat), NAMES, seat, legal, m.record.events)
            assert [c.move for c in t.choices] == legal
            assert [p.score for p in t.panels] == state.score
            assert (t.status.tone == "you") == bool(legal), t.status
            assert {p.seat for p in t.panels if p.turn} == set(state.actors())


def test_a_bet_is_told_only_when_the_bet_roll_shows_it() -> None:
    for m, _ in positions(7):
        events = m.record.events
        lines = vm.log(events, NAMES)
        pending = [what for who, what in events if who != CHANCE and what in ("hi", "lo")]
        assert not any(" bet high" in line or " bet low" in line for line in lines)
        if pending and events[-1][1] in ("hi", "lo"):  # bets made, the roll not yet there
            assert lines[0].endswith("placed a bet.")


def test_the_end_screen_ranks_follow_the_engines_outcome() -> None:
    *_, (m, _) = positions(9)
    obs = m.state.observation(None)
    end = vm.end_screen(obs, NAMES, 0, m.state.outcome().winners)
    assert {p.seat for p in end.players if p.rank == 1} == set(m.state.outcome().winners)
    assert [int(p.lines[0].value) for p in end.players] == sorted(m.state.score, reverse=True)
    assert vm.log(m.record.events, NAMES)[0].startswith("The bet roll is")
