"""The shared table parts as plain data: settings, pacing, log order, highlights, ranks, saves."""

from __future__ import annotations

import json

import pytest

from optimus.core import GameError, Match, RecordError, Rng
from optimus.core.registry import get_game
from optimus.fileiras import view as vm
from optimus.fileiras.game import FileirasGame
from optimus.games import GAMES
from optimus.ui import table as ui
from optimus.ui.session import TableSession

CHOICES = {"speed": list(ui.SPEEDS), "players": [2, 3, 4, 5], "advanced": [True, False]}
DEFAULTS = {"speed": "normal", "players": 3, "advanced": False}


def test_settings_keep_valid_values_and_ignore_the_rest():
    raw = json.dumps({"speed": "instant", "players": 5, "advanced": True, "evil": "x"})
    assert ui.read_settings(raw, DEFAULTS, CHOICES) == {
        "speed": "instant",
        "players": 5,
        "advanced": True,
    }
    for bad in ('{"speed": "warp", "players": "5", "advanced": 1}', "[1, 2]", "{", None, ""):
        assert ui.read_settings(bad, DEFAULTS, CHOICES) == DEFAULTS, bad


def test_the_person_sits_where_chosen_and_a_random_place_follows_the_seed():
    bots = ["easy", "normal", "hard"]
    for place in range(1, 5):
        seats = ui.seat_order(bots, str(place), seed=1)
        assert seats.index("human") == place - 1
        assert [s for s in seats if s != "human"] == bots  # the bots keep their order
    assert ui.seat_order(bots, "6", seed=1)[-1] == "human"  # past the end: the last place
    drawn = {ui.seat_order(bots, "random", seed).index("human") for seed in range(40)}
    assert drawn == {0, 1, 2, 3}
    assert all(
        ui.seat_order(bots, "random", seed) == ui.seat_order(bots, "random", seed)
        for seed in range(10)
    )
    values = [v for v, _ in ui.seat_choices(4)]
    assert values == ["1", "2", "3", "4", "random"]


def test_instant_and_reduced_motion_never_animate_and_instant_never_waits():
    assert ui.bot_delay("instant", reduced_motion=False) == 0
    assert ui.animation_ms("instant", reduced_motion=False) == 0
    for speed in ui.SPEEDS:
        assert ui.animation_ms(speed, reduced_motion=True) == 0
    slow_to_fast = [ui.bot_delay(s, False) for s in ("slow", "normal", "fast", "instant")]
    assert slow_to_fast == sorted(slow_to_fast, reverse=True)
    for speed in ("slow", "normal", "fast"):  # a move is drawn before the next one starts
        assert 0 < ui.animation_ms(speed, False) <= ui.bot_delay(speed, False) * 1000


def test_the_log_is_newest_first_and_skips_silent_events():
    entries = [{"n": 1}, {"n": 2, "quiet": True}, {"n": 3}]
    lines = ui.log_lines(entries, lambda e: None if e.get("quiet") else f"line {e['n']}")
    assert lines == ["line 3", "line 1"]


def test_ranks_share_places_on_ties():
    assert ui.ranks([5, 9, 9, 1]) == [3, 1, 1, 4]
    assert ui.headline([1, 2], ["You", "Ana", "Bo"], 0) == "Shared victory: Ana and Bo."


def _positions(seed: int, players: int):
    m = Match(FileirasGame(), {"players": players}, seed)
    rng = Rng(seed)
    while not m.state.is_terminal():
        p = m.state.actors()[0]
        yield m.state
        m.play(p, rng.choice(m.state.legal_moves(p)))


def test_each_players_last_placed_card_is_marked_where_it_lies():
    names = ["A", "B", "C", "D"]
    checked = 0
    for state in _positions(4, 4):
        obs = state.observation(None)
        last = ui.last_actions(obs["log"], vm.ACTIONS)
        t = vm.table(obs, names, None)
        marked = {(r.n, i): c.last_by for r in t.rows for i, c in enumerate(r.cards) if c.last_by}
        assert len(set(marked.values())) == len(marked)  # one mark per player at most
        for (row, i), name in marked.items():
            seat = names.index(name)
            _, entry = last[seat]
            assert entry["event"] == "place" and entry["row"] == row
            assert obs["rows"][row - 1]["cards"][i] == entry["card"]
            checked += 1
        for p in t.players:
            assert (p.last != "") == (p.seat in last)
    assert checked > 20


def test_the_deck_hint_never_promises_the_last_round_card():
    assert vm.deck_hint(False, 12) == "Last-round card: not before 12 more draws."
    assert "may come" in vm.deck_hint(False, 0)


def test_the_plus2_card_shows_its_value_once():
    c = vm.card("+2")
    assert c.symbol == "+2" and "+2" not in c.caption


def test_the_end_screen_names_the_colours_that_counted_plus():
    m = Match(FileirasGame(), {"players": 3}, 11)
    rng = Rng(11)
    while not m.state.is_terminal():
        p = m.state.actors()[0]
        m.play(p, rng.choice(m.state.legal_moves(p)))
    for p in vm.final(m.state.observation(None), ["A", "B", "C"]):
        plus = [vm.word(line.icon) for line in p.lines if line.kind == "plus"]
        minus = [vm.word(line.icon) for line in p.lines if line.kind == "minus"]
        assert p.why.split(".")[0] == f"Counted plus: {', '.join(plus)}", p.why
        assert not any(m in p.why.split(".")[0] for m in minus)
    for advanced in (True, False):  # how ties are decided: said when there is one
        assert "share the victory" in vm.end_rules(advanced, tied=True)
        assert "share the victory" not in vm.end_rules(advanced)


def test_a_save_for_two_people_or_an_unknown_bot_is_refused():
    two = TableSession(FileirasGame(), {}, 3, ["human", "human", "easy"]).save()
    with pytest.raises(RecordError, match="2 human seats"):
        TableSession.load(FileirasGame(), two, max_humans=1)
    assert TableSession.load(FileirasGame(), two).seats == ["human", "human", "easy"]
    odd = json.loads(TableSession(FileirasGame(), {}, 3, ["human", "easy"]).save())
    odd["seats"] = ["human", "genius"]
    with pytest.raises(RecordError, match="unknown bot"):
        TableSession.load(FileirasGame(), json.dumps(odd))
    # A module:Class seat is a player's bot: never imported from a save (see
    # tests/ui/test_userbots.py), the fallback level plays it.
    odd["seats"] = ["human", "os:system"]
    assert TableSession.load(FileirasGame(), json.dumps(odd)).seats == ["human", "normal"]
    with pytest.raises(RecordError, match="not a JSON object"):
        TableSession.load(FileirasGame(), "[]")


def test_log_sentences_agree_with_you():
    names = ["You", "Easy bot 2"]
    # The person is told by seat (the third argument), never by their name.
    assert vm.describe({"event": "deal", "player": 0, "card": "red"}, names, 0) == (
        "You start with red."
    )
    assert vm.describe({"event": "round", "round": 2, "starter": 1}, names, 0) == (
        "Round 2 — Easy bot 2 starts."
    )


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_refused_move_is_told_in_words_without_its_notation(name: str) -> None:
    # Moves that were legal a decision ago and are not now: each refusal is a sentence
    # with the engine's reason, never "illegal move '<move>'".
    m = Match(get_game(name), {}, 7)
    rng = Rng(7)
    previous: list[str] = []
    refused = 0
    while not m.state.is_terminal() and refused < 5:
        p = m.state.actors()[0]
        legal = m.state.legal_moves(p)
        for move in [mv for mv in previous if mv not in legal][:2]:
            with pytest.raises(GameError) as caught:
                m.play(p, move)
            text = ui.refusal(caught.value)
            assert repr(move) not in text and "illegal move" not in text.lower(), text
            assert text[:1].isupper() and text.endswith(".") and not text.endswith(".."), text
            refused += 1
        previous = list(legal)
        m.play(p, rng.choice(legal))
    assert refused


def _finished(game_id: str, players: int) -> tuple[dict, list[int]]:
    """The final public observation of a game of random moves whose totals all differ."""
    game = get_game(game_id)
    for seed in range(1, 40):
        m, rng = Match(game, {"players": players}, seed), Rng(seed)
        while not m.state.is_terminal():
            p = m.state.actors()[0]
            m.play(p, rng.choice(m.state.legal_moves(p)))
        scores = m.state.scores()
        if len(set(scores)) == len(scores):
            return json.loads(json.dumps(m.state.observation(None))), list(range(players))
    raise AssertionError(f"no {game_id} game with distinct totals")


@pytest.mark.parametrize("game_id", ["optimus", "optimus2", "fileiras", "tiny"])
def test_the_end_screen_says_how_ties_are_decided_only_when_there_is_a_tie(game_id: str) -> None:
    from optimus.optimus import view as optimus_vm
    from optimus.optimus2 import view as optimus2_vm
    from optimus.tiny import view as tiny_vm

    views = {"optimus": optimus_vm, "optimus2": optimus2_vm, "fileiras": vm, "tiny": tiny_vm}
    view = views[game_id]
    rule = getattr(view, "TIE_RULE", ui.TIE_RULE)
    obs, seats = _finished(game_id, 3 if game_id != "optimus2" else 2)
    names = [f"P{s}" for s in seats]
    end = view.end_screen(obs, names, 0, [0])
    assert len({p.total for p in end.players}) == len(seats)
    assert rule not in end.rules, end.rules
    # The second player's result made equal to the first's: a tie, and the rule is said.
    for key in ("scores", "sheets", "collections", "score", "jokers_used"):
        if key in obs:
            obs[key][1] = obs[key][0]
    end = view.end_screen(obs, names, 0, [0])
    totals = {p.seat: p.total for p in end.players}
    assert totals[0] == totals[1]
    assert rule in end.rules, end.rules
