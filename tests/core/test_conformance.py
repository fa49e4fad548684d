"""The conformance suite passes on the tiny game and catches broken games."""

from __future__ import annotations

import random

import pytest

from optimus.core.bots import Bot, RandomBot
from optimus.core.conformance import (
    ConformanceError,
    check_bots_decide_from_the_observation,
    check_random_game,
    check_rebuilds,
    check_replays,
    random_match,
)
from optimus.tiny.game import TinyGame, TinyState


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_tiny_game_conforms(players):
    for seed in range(60):
        check_random_game(TinyGame(), {"players": players}, seed)


class LeakyState(TinyState):
    def observation(self, player):
        obs = super().observation(player)
        obs["all_bets"] = dict(sorted((str(k), v) for k, v in self.bets.items()))
        return obs


class GeneratorState(TinyState):
    def __init__(self, players, rounds):
        super().__init__(players, rounds)
        self.future = random.Random(1)


class ShallowCloneState(TinyState):
    def clone(self):
        c = super().clone()
        c.score = self.score
        return c


class DeadEndState(TinyState):
    def legal_moves(self, player):
        return [] if self.turn == 1 and self.phase == "choose" else super().legal_moves(player)


def game_with(state_cls):
    class Broken(TinyGame):
        def new_state(self, options):
            o = self.normalize_options(options)
            return state_cls(o["players"], o["rounds"])

    return Broken()


@pytest.mark.parametrize(
    ("state_cls", "fragment"),
    [
        (LeakyState, "pending simultaneous choice"),
        (GeneratorState, "random generator"),
        (ShallowCloneState, "clone changed the original"),
        (DeadEndState, "no legal move"),
    ],
)
def test_conformance_catches_a_broken_game(state_cls, fragment):
    with pytest.raises(ConformanceError, match=fragment):
        for seed in range(30):
            check_random_game(game_with(state_cls), {"players": 3}, seed)


def test_random_match_replays_and_a_move_played_off_the_record_is_caught():
    match = random_match(TinyGame(), {"players": 3}, 5, stop_at=4)
    assert not match.state.is_terminal() and len(match.record.events) >= 4
    assert check_replays(match) == [list(e) for e in match.record.events]
    p = match.state.actors()[0]
    match.state.apply_move(p, match.state.legal_moves(p)[0])  # not in the record
    with pytest.raises(ConformanceError, match="same state"):
        check_replays(match)


class ForgetfulGame(TinyGame):
    """Rebuilds a state that forgot the scores."""

    def state_from_observation(self, observation, player, rng):
        s = super().state_from_observation(observation, player, rng)
        s.score = [0] * len(s.score)
        return s


def test_check_rebuilds_passes_a_faithful_rebuild_and_catches_a_forgetful_one():
    solo = {"players": 1}  # solo: no hidden bets, every view is exact
    check_rebuilds(TinyGame(), solo, 3)
    with pytest.raises(ConformanceError, match="rebuilt"):
        check_rebuilds(ForgetfulGame(), solo, 3)


class CountingBot(Bot):
    """Chooses by how many times the class was asked: not a function of what it sees."""

    asked = 0

    def think(self, observation, legal_moves):
        CountingBot.asked += 1
        return legal_moves[CountingBot.asked % len(legal_moves)]
        yield


class OffListBot(Bot):
    def think(self, observation, legal_moves):
        return "no such move"
        yield


def test_bot_check_passes_seeded_bots_and_catches_unseeded_or_illegal_ones():
    state = random_match(TinyGame(), {"players": 2}, 4, stop_at=1).state
    assert len(state.legal_moves(state.actors()[0])) > 1
    check_bots_decide_from_the_observation(TinyGame(), state, [RandomBot])
    for cls in (CountingBot, OffListBot):
        with pytest.raises(ConformanceError, match=cls.__name__):
            check_bots_decide_from_the_observation(TinyGame(), state, [cls])
