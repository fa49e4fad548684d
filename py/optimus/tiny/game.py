"""A tiny game that exercises every part of the protocol, for the core's tests.

Each turn the active player rolls a die (chance) and either keeps it (adds
the value) or draws from a small hidden deck (chance: a multiset of cards
1-5, two of each) and then adds or discards the card -- a decision split by a
draw. Then every other player bets ``hi`` or ``lo`` at the same time on a
second roll (simultaneous, hidden until all have bet); a right bet scores 1.
After ``rounds`` rounds the highest score wins; ties are shared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from optimus.core.protocol import JSON, Game, State
from optimus.core.rng import Rng

CARDS = (1, 2, 3, 4, 5)


class TinyState(State):
    def __init__(self, players: int, rounds: int) -> None:
        self.num_players = players
        self.rounds = rounds
        self.turn = 0
        self.score = [0] * players
        self.deck = {c: 2 for c in CARDS}
        self.phase = "roll"  # roll | choose | draw | card | bet | bet_roll | over
        self.roll = 0
        self.card = 0
        self.bets: dict[int, str] = {}
        self.log: list[str] = []

    @property
    def active(self) -> int:
        return self.turn % self.num_players

    def actors(self) -> tuple[int, ...]:
        if self.phase in ("choose", "card"):
            return (self.active,)
        if self.phase == "bet":
            return tuple(
                p for p in range(self.num_players) if p != self.active and p not in self.bets
            )
        return ()

    def is_chance(self) -> bool:
        return self.phase in ("roll", "draw", "bet_roll")

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def chance_outcomes(self) -> list[tuple[str, int]]:
        if self.phase == "draw":
            return [(str(c), n) for c, n in self.deck.items() if n]
        return [(str(v), 1) for v in range(1, 7)]

    def apply_chance(self, outcome: str) -> None:
        value = int(outcome)
        if self.phase == "roll":
            self.roll, self.phase = value, "choose"
        elif self.phase == "draw":
            self.deck[value] -= 1
            self.card, self.phase = value, "card"
        else:
            for p, bet in self.bets.items():
                if (bet == "hi") == (value >= 4):
                    self.score[p] += 1
            self.log.append(f"bet roll {value}")
            self._next_turn()

    def legal_moves(self, player: int) -> list[str]:
        if player not in self.actors():
            return []
        if self.phase == "choose":
            return ["keep", "draw"] if any(self.deck.values()) else ["keep"]
        if self.phase == "card":
            return ["add", "discard"]
        return ["hi", "lo"]

    def apply_move(self, player: int, move: str) -> None:
        if self.phase == "choose":
            if move == "keep":
                self.score[player] += self.roll
                self._to_bets()
            else:
                self.phase = "draw"
        elif self.phase == "card":
            if move == "add":
                self.score[player] += self.card
            self._to_bets()
        else:
            self.bets[player] = move
            if not self.actors():
                self.phase = "bet_roll"
        self.log.append(f"{player} {move}")

    def _to_bets(self) -> None:
        self.bets = {}
        self.phase = "bet" if self.num_players > 1 else "bet_roll"

    def _next_turn(self) -> None:
        self.turn += 1
        self.bets = {}
        self.phase = "over" if self.turn >= self.rounds * self.num_players else "roll"

    def observation(self, player: int | None) -> dict[str, JSON]:
        return {
            "players": self.num_players,
            "rounds": self.rounds,
            "turn": self.turn,
            "phase": self.phase,
            "score": list(self.score),
            "deck": {str(c): n for c, n in self.deck.items()},
            "roll": self.roll,
            "card": self.card,
            "my_bet": self.bets.get(player) if player is not None else None,
            "bets_made": sorted(self.bets),
        }

    def scores(self) -> list[float]:
        return [float(s) for s in self.score]

    def clone(self) -> TinyState:
        c = type(self).__new__(type(self))
        c.__dict__.update(self.__dict__)
        c.score, c.deck, c.bets, c.log = list(self.score), dict(self.deck), dict(self.bets), []
        return c


class TinyGame(Game, described="tiny"):
    default_options: ClassVar[Mapping[str, JSON]] = {"rounds": 3}

    def new_state(self, options: Mapping[str, JSON]) -> TinyState:
        opts = self.normalize_options(options)
        return TinyState(opts["players"], opts["rounds"])

    def state_from_observation(
        self, observation: Mapping[str, JSON], player: int, rng: Rng
    ) -> TinyState:
        s = TinyState(observation["players"], observation["rounds"])
        s.turn, s.phase = observation["turn"], observation["phase"]
        s.score = list(observation["score"])
        s.deck = {int(c): n for c, n in observation["deck"].items()}
        s.roll, s.card = observation["roll"], observation["card"]
        # Others' pending bets are hidden: sample them.
        s.bets = {p: rng.choice(["hi", "lo"]) for p in observation["bets_made"]}
        if observation["my_bet"] is not None:
            s.bets[player] = observation["my_bet"]
        return s
