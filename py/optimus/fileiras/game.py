"""Fileiras: the rules engine (state, moves, chance, observations).

The deck is a multiset (counts per card kind), never an order: every draw is
a chance event whose outcomes are the card kinds weighted by their counts.
The last-round card lies with exactly 15 cards beneath it, so it is the only
possible outcome when 15 other cards remain, and impossible before.

Set-up is chance too, one event at a time: ``remove COLOUR`` (3 players: one
colour; 2 players: two), ``deal COLOUR`` (each player's start card(s), in
seat order; in the 2-player game two rounds of dealing), ``first SEAT``.

Moves (rows are numbered from 1 in text):

* ``draw`` -- draw the top card; after the chance event the same player
  must ``place R`` it on a row with room that has not been taken;
* ``take R`` -- take row ``R`` (at least one card) and sit out the round.

>>> from optimus.core.record import Match
>>> m = Match(FileirasGame(), {"players": 4}, seed=5)
>>> m.state.phase, m.state.legal_moves(m.state.current)
('turn', ['draw'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from optimus.core.jsontext import whole_number
from optimus.core.protocol import JSON, Game, State
from optimus.fileiras.cards import (
    CARDS_BENEATH_LAST,
    COLLECTION_KINDS,
    COLOURS,
    KIND_NAMES,
    LAST,
    NUM_COLOURS,
    NUM_KINDS,
    counts_to_names,
    full_deck,
    kind_of,
    label,
    names_to_counts,
    removed_colour_count,
    row_capacities,
    start_cards_per_player,
)
from optimus.fileiras.scoring import Scorer, cached_breakdown
from optimus.i18n import _, ngettext

if TYPE_CHECKING:
    pass

LOG_LIMIT = 24
"""How many recent public events the observation's log keeps."""

SETUP_PHASES = ("remove", "deal", "first")
CHANCE_PHASES = ("remove", "deal", "first", "draw")


class FileirasState(State):
    """One position of Fileiras: plain lists of counts, cheap to clone.

    Seats are ``0..n-1``; rows are indices ``0..`` internally and ``1..`` in
    move text. ``phase`` is one of ``remove``, ``deal``, ``first`` (set-up
    chance), ``turn`` (draw or take), ``draw`` (chance: a card is drawn),
    ``place`` (place the drawn card) and ``over``.
    """

    def __init__(self, players: int, advanced: bool = False) -> None:
        self.num_players = players
        self.advanced = advanced
        self.caps: tuple[int, ...] = row_capacities(players)
        self.rows: list[list[int]] = [[] for _cap in self.caps]
        self.row_taker: list[int] = [-1] * len(self.caps)
        self.coll: list[list[int]] = [[0] * COLLECTION_KINDS for _seat in range(players)]
        self.took: list[bool] = [False] * players
        self.deck: list[int] = full_deck()
        self.remaining = sum(self.deck) - self.deck[LAST]
        """Cards in the deck other than the last-round card."""
        self.last_drawn = False
        self.removed: list[int] = []
        self.out: list[int] = [0] * COLLECTION_KINDS
        self.dealt = 0
        self.first_player = -1
        self.round_starter = -1
        self.round = 0
        self.current = -1
        self.drawn = -1
        self.phase = "remove" if removed_colour_count(players) else "deal"
        self.log: list[dict[str, JSON]] = []
        self.scorer = Scorer.get(tuple(range(NUM_COLOURS)), advanced)

    # -- helpers -------------------------------------------------------
    def colours_in_play(self) -> tuple[int, ...]:
        return tuple(k for k in range(NUM_COLOURS) if k not in self.removed)

    def _log(self, entry: dict[str, JSON]) -> None:
        log = self.log
        log.append(entry)
        if len(log) > LOG_LIMIT:
            del log[0]

    def can_draw(self) -> bool:
        """True if the current player may draw: a card is left and an open row has room."""
        if self.remaining <= 0:
            return False
        caps, rows, taker = self.caps, self.rows, self.row_taker
        return any(taker[r] < 0 and len(rows[r]) < caps[r] for r in range(len(caps)))

    def draws_before_last(self) -> int:
        """Draws still certain to show other cards before the last-round card (0 once drawn)."""
        return self.remaining - CARDS_BENEATH_LAST if not self.last_drawn else 0

    def active_players(self) -> list[int]:
        """Players who have not taken a row this round."""
        return [p for p in range(self.num_players) if not self.took[p]]

    # -- protocol: whose decision ---------------------------------------
    def actors(self) -> tuple[int, ...]:
        if self.phase == "turn" or self.phase == "place":
            return (self.current,)
        return ()

    def is_chance(self) -> bool:
        return self.phase in CHANCE_PHASES

    def is_terminal(self) -> bool:
        return self.phase == "over"

    # -- chance -----------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[str, int]]:
        phase = self.phase
        if phase == "draw":
            deck = self.deck
            if deck[LAST] and self.remaining == CARDS_BENEATH_LAST:
                return [("last", 1)]
            return [(KIND_NAMES[k], deck[k]) for k in range(COLLECTION_KINDS) if deck[k]]
        if phase == "remove":
            return [(f"remove {COLOURS[k]}", 1) for k in self.colours_in_play()]
        if phase == "deal":
            dealt = {k for c in self.coll for k in range(NUM_COLOURS) if c[k]}
            return [(f"deal {COLOURS[k]}", 1) for k in self.colours_in_play() if k not in dealt]
        if phase == "first":
            return [(f"first {p}", 1) for p in range(self.num_players)]
        raise ValueError(f"no chance event in phase {phase!r}")

    def apply_chance(self, outcome: str) -> None:
        phase = self.phase
        if phase == "draw":
            if outcome == "last":
                self.deck[LAST] -= 1
                self.last_drawn = True
                self._log({"event": "last_round", "player": self.current})
                return  # the same player draws again at once
            k = kind_of(outcome)
            self.deck[k] -= 1
            self.remaining -= 1
            self.drawn = k
            self.phase = "place"
            self._log({"event": "draw", "player": self.current, "card": outcome})
        elif phase == "remove":
            k = kind_of(outcome.removeprefix("remove "))
            self.removed.append(k)
            self.remaining -= self.deck[k]
            self.deck[k] = 0
            self._log({"event": "remove", "colour": COLOURS[k]})
            if len(self.removed) == removed_colour_count(self.num_players):
                self.scorer = Scorer.get(self.colours_in_play(), self.advanced)
                self.phase = "deal"
        elif phase == "deal":
            k = kind_of(outcome.removeprefix("deal "))
            p = self.dealt % self.num_players
            self.coll[p][k] += 1
            self.deck[k] -= 1
            self.remaining -= 1
            self.dealt += 1
            self._log({"event": "deal", "player": p, "card": COLOURS[k]})
            if self.dealt == self.num_players * start_cards_per_player(self.num_players):
                self.phase = "first"
        elif phase == "first":
            p = int(outcome.removeprefix("first "))
            self.first_player = self.round_starter = self.current = p
            self.round = 1
            self.phase = "turn"
            self._log({"event": "round", "round": 1, "starter": p})
        else:
            raise ValueError(f"no chance event in phase {phase!r}")

    # -- moves ------------------------------------------------------------
    def legal_moves(self, player: int) -> list[str]:
        if player != self.current:
            return []
        phase = self.phase
        rows, caps, taker = self.rows, self.caps, self.row_taker
        if phase == "turn":
            moves = ["draw"] if self.can_draw() else []
            moves.extend(f"take {r + 1}" for r in range(len(caps)) if taker[r] < 0 and rows[r])
            return moves
        if phase == "place":
            return [
                f"place {r + 1}"
                for r in range(len(caps))
                if taker[r] < 0 and len(rows[r]) < caps[r]
            ]
        return []

    def apply_move(self, player: int, move: str) -> None:
        if move == "draw":
            self.phase = "draw"
        elif move[0] == "p":
            r = int(move[6:]) - 1
            card = self.drawn
            self.rows[r].append(card)
            self.drawn = -1
            self._log({"event": "place", "player": player, "card": KIND_NAMES[card], "row": r + 1})
            self.phase = "turn"
            self._advance(player)
        else:
            self._take(player, int(move[5:]) - 1)

    def _advance(self, player: int) -> None:
        """Pass the turn to the next player (clockwise) who has not taken a row."""
        n, took = self.num_players, self.took
        p = player
        for _step in range(n):
            p = (p + 1) % n
            if not took[p]:
                self.current = p
                return
        raise AssertionError("no active player left in the round")

    def _take(self, player: int, r: int) -> None:
        cards = self.rows[r]
        coll = self.coll[player]
        for k in cards:
            coll[k] += 1
        self._log(
            {
                "event": "take",
                "player": player,
                "row": r + 1,
                "cards": [KIND_NAMES[k] for k in cards],
            }
        )
        self.rows[r] = []
        self.row_taker[r] = player
        self.took[player] = True
        if not all(self.took):
            self._advance(player)
            return
        # Every player has taken a row: the round ends.
        for r2, row in enumerate(self.rows):
            if self.row_taker[r2] < 0 and row:
                for k in row:
                    self.out[k] += 1
                self._log({"event": "out", "row": r2 + 1, "cards": [KIND_NAMES[k] for k in row]})
                self.rows[r2] = []
        if self.last_drawn:
            self.phase = "over"
            self.current = -1
            self._log({"event": "end", "scores": [int(s) for s in self.scores()]})
            return
        self.round += 1
        self.round_starter = self.current = player
        self.row_taker = [-1] * len(self.caps)
        self.took = [False] * self.num_players
        self._log({"event": "round", "round": self.round, "starter": player})

    def explain_illegal(self, player: int, move: str) -> str:
        """A specific reason why ``move`` is not legal for ``player`` now, in the language
        spoken now (the reasons a refused move gives are shown to the player)."""
        reason = self.common_refusal(
            player, _("a chance event (set-up or a draw) must happen first")
        )
        if reason:
            return reason
        kind, _sep, arg = move.strip().partition(" ")
        if kind not in ("draw", "take", "place") or (kind == "draw") == bool(arg):
            return _("unknown move: moves are 'draw', 'take R' and 'place R' (R a row number)")
        if player != self.current:
            if self.took[player]:
                row = self.row_taker.index(player) + 1
                return _("you already took a row this round (row {row})", row=row)
            return _("it is not your turn (player {player} is to play)", player=self.current)
        if self.phase == "place" and kind != "place":
            card = label(KIND_NAMES[self.drawn]).lower()
            return _("you must place the drawn card ({card}) first", card=card)
        if kind == "draw":
            if self.remaining <= 0:
                return _("the deck is empty: you must take a row")
            return _("every row still on the table is full: you must take a row")
        number = whole_number(arg, 2)
        if number is None or not 1 <= number <= len(self.caps):
            return _(
                "there is no row {row} (rows are 1-{last})", row=repr(arg[:20]), last=len(self.caps)
            )
        r = number - 1
        if kind == "place" and self.phase != "place":
            return _("there is no drawn card to place: draw first")
        if self.row_taker[r] >= 0:
            return _(
                "row {row} was already taken this round (by player {player})",
                row=r + 1,
                player=self.row_taker[r],
            )
        if kind == "take":
            return _("row {row} is empty: there is nothing to take", row=r + 1)
        if len(self.rows[r]) >= self.caps[r]:
            return ngettext(  # a 2-player row holds 1 card: "1 of 1 card"
                "row {row} is full ({cards} of {n} card)",
                "row {row} is full ({cards} of {n} cards)",
                self.caps[r],
                row=r + 1,
                cards=len(self.rows[r]),
            )
        return super().explain_illegal(player, move)

    # -- views --------------------------------------------------------------
    def scores(self) -> list[float]:
        value = self.scorer.value
        return [float(value(c)) for c in self.coll]

    def observation(self, player: int | None) -> dict[str, JSON]:
        """Everything public (all but the deck order, which does not exist here)."""
        in_play = self.colours_in_play()
        colours = [COLOURS[k] for k in in_play]
        breakdowns = [cached_breakdown(tuple(c), in_play, self.advanced) for c in self.coll]
        return {
            "game": "fileiras",
            "you": player,
            "players": self.num_players,
            "advanced": self.advanced,
            "phase": self.phase,
            "round": self.round,
            "current": self.current if self.current >= 0 else None,
            "first_player": self.first_player if self.first_player >= 0 else None,
            "round_starter": self.round_starter if self.round_starter >= 0 else None,
            "removed": [COLOURS[k] for k in self.removed],
            "colours": colours,
            "rows": [
                {
                    "cards": [KIND_NAMES[k] for k in row],
                    "capacity": cap,
                    "taken": self.row_taker[r] >= 0,
                    "taken_by": self.row_taker[r] if self.row_taker[r] >= 0 else None,
                }
                for r, (row, cap) in enumerate(zip(self.rows, self.caps, strict=True))
            ],
            "taken_this_round": list(self.took),
            "drawn": KIND_NAMES[self.drawn] if self.drawn >= 0 else None,
            "deck_count": self.remaining + self.deck[LAST],
            "deck": counts_to_names(self.deck),
            "last_round": self.last_drawn,
            "draws_before_last": None if self.last_drawn else self.draws_before_last(),
            "collections": [counts_to_names(c) for c in self.coll],
            "out": counts_to_names(self.out),
            "dealt": self.dealt,
            "scores": [
                {"total": b.total, "plus_colours": list(b.plus_colours), "jokers": dict(b.jokers)}
                for b in breakdowns
            ],
            "legal_moves": self.legal_moves(player) if player is not None else [],
            "log": list(self.log),
        }

    def clone(self) -> FileirasState:
        c = FileirasState.__new__(FileirasState)
        c.__dict__.update(self.__dict__)
        c.rows = [list(r) for r in self.rows]
        c.row_taker = list(self.row_taker)
        c.coll = [list(x) for x in self.coll]
        c.took = list(self.took)
        c.deck = list(self.deck)
        c.removed = list(self.removed)
        c.out = list(self.out)
        c.log = list(self.log)
        return c

    # -- checks ------------------------------------------------------------
    def census(self) -> dict[str, list[int]]:
        """Where every card is, as counts per kind (for the conservation check)."""
        places: dict[str, list[int]] = {
            "deck": list(self.deck),
            "rows": [0] * NUM_KINDS,
            "collections": [0] * NUM_KINDS,
            "out": [*self.out, 0],
            "removed": [0] * NUM_KINDS,
            "drawn": [0] * NUM_KINDS,
            "last_round_slot": [0] * NUM_KINDS,
        }
        for row in self.rows:
            for k in row:
                places["rows"][k] += 1
        for c in self.coll:
            for k, n in enumerate(c):
                places["collections"][k] += n
        for k in self.removed:
            places["removed"][k] = full_deck()[k]
        if self.drawn >= 0:
            places["drawn"][self.drawn] = 1
        if self.last_drawn:
            places["last_round_slot"][LAST] = 1
        return places


def check_conservation(state: State) -> None:
    """Raise ``AssertionError`` unless every card is in exactly one place.

    The places: the deck, a row, a collection, out of the game (removed
    colours or a 2-player row left over), the drawn card, the last-round slot.
    Also checks the derived counters (cards remaining, row capacities).
    """
    assert isinstance(state, FileirasState)
    places = state.census()
    total = [sum(p[k] for p in places.values()) for k in range(NUM_KINDS)]
    assert total == full_deck(), f"cards not conserved: {total} != {full_deck()} ({places})"
    assert state.remaining == sum(state.deck[:COLLECTION_KINDS]), "remaining count is off"
    assert all(n >= 0 for n in state.deck), "negative deck count"
    for row, cap in zip(state.rows, state.caps, strict=True):
        assert len(row) <= cap, "a row holds more cards than its capacity"
        assert LAST not in row, "the last-round card is in a row"
    if state.phase in ("turn", "place", "draw"):
        assert state.remaining >= 0
        assert state.last_drawn or state.remaining >= CARDS_BENEATH_LAST


class FileirasGame(Game, described="fileiras"):
    """Fileiras's rules (optimus.games describes it); ``advanced``: the 1-4-8-7-6-5 table."""

    bots: ClassVar[str] = "optimus.fileiras.bots"

    def new_state(self, options: Mapping[str, JSON]) -> FileirasState:
        opts = self.normalize_options(options)
        return FileirasState(opts["players"], bool(opts["advanced"]))

    def rebuild(self, observation: Mapping[str, JSON]) -> FileirasState:
        """The exact state behind an observation (the deck is a multiset: nothing to sample)."""
        return state_from_observation(observation)


def state_from_observation(obs: Mapping[str, Any]) -> FileirasState:
    """Rebuild the full state from any seat's (or a spectator's) observation."""
    s = FileirasState(int(obs["players"]), bool(obs["advanced"]))
    s.phase = obs["phase"]
    s.round = int(obs["round"])
    s.current = -1 if obs["current"] is None else int(obs["current"])
    s.first_player = -1 if obs["first_player"] is None else int(obs["first_player"])
    s.round_starter = -1 if obs["round_starter"] is None else int(obs["round_starter"])
    s.removed = [kind_of(c) for c in obs["removed"]]
    s.scorer = Scorer.get(s.colours_in_play(), s.advanced)
    s.rows = [[kind_of(c) for c in row["cards"]] for row in obs["rows"]]
    s.row_taker = [-1 if row["taken_by"] is None else int(row["taken_by"]) for row in obs["rows"]]
    s.took = [bool(t) for t in obs["taken_this_round"]]
    s.drawn = -1 if obs["drawn"] is None else kind_of(obs["drawn"])
    s.deck = names_to_counts(obs["deck"], NUM_KINDS)
    s.remaining = sum(s.deck[:COLLECTION_KINDS])
    s.last_drawn = bool(obs["last_round"])
    s.coll = [names_to_counts(c, COLLECTION_KINDS) for c in obs["collections"]]
    s.out = names_to_counts(obs["out"], COLLECTION_KINDS)
    s.dealt = int(obs["dealt"])
    s.log = [dict(e) for e in obs["log"]]
    return s


__all__ = [
    "FileirasGame",
    "FileirasState",
    "check_conservation",
    "state_from_observation",
]
