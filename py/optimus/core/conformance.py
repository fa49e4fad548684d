"""The conformance checks every game must pass (used by ``tests/``).

:func:`check_random_game` plays one seeded game with random legal moves and
checks, at every step, the invariants of the protocol:

* a non-terminal state always has someone to act or a chance event (no dead
  end), and every actor has at least one legal move, all distinct text;
* the checked path accepts every legal move and refuses an illegal one with
  :class:`~optimus.core.protocol.IllegalMove`;
* observations are JSON that round-trips, and never show another player's
  pending simultaneous choice (two different choices give the same view);
* a clone is independent of its original;
* no state holds a random generator (so no state holds a future draw);
* the record round-trips through JSON and replays to the identical state;
* the finished game has scores and an outcome for every seat.

A game may pass ``check_state`` to add its own invariant (for instance card
conservation), called after every event.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from optimus.core.bots import Bot, Budget
from optimus.core.protocol import JSON, Game, IllegalMove, State, play
from optimus.core.record import CHANCE, Match, Record, replay
from optimus.core.rng import Rng, derive_seed


class ConformanceError(AssertionError):
    pass


def _fail(seed: int, step: int, message: str) -> ConformanceError:
    return ConformanceError(f"seed {seed}, step {step}: {message}")


def _holds_generator(obj: Any, depth: int = 0) -> bool:
    if isinstance(obj, (random.Random, Rng)):
        return True
    if depth > 3:
        return False
    if isinstance(obj, dict):
        return any(_holds_generator(v, depth + 1) for v in list(obj.values())[:50])
    if isinstance(obj, (list, tuple, set)):
        return any(_holds_generator(v, depth + 1) for v in list(obj)[:50])
    if hasattr(obj, "__dict__") and not isinstance(obj, type):
        return any(_holds_generator(v, depth + 1) for v in vars(obj).values())
    return False


def all_views(state: State) -> list[dict[str, JSON]]:
    return [state.observation(None)] + [state.observation(p) for p in range(state.num_players)]


def check_random_game(
    game: Game,
    options: Mapping[str, JSON],
    seed: int,
    *,
    check_state: Callable[[State], None] | None = None,
    deep: bool = True,
    max_steps: int = 100_000,
) -> Record:
    """Play one random game checking every invariant; return its record."""
    match = Match(game, options, seed)
    state = match.state
    rng = Rng(derive_seed(seed, "conformance"))
    if _holds_generator(state):
        raise _fail(seed, 0, "the state holds a random generator")
    if check_state:
        check_state(state)
    step = 0
    while not state.is_terminal():
        step += 1
        if step > max_steps:
            raise _fail(seed, step, "the game does not end")
        actors = state.actors()
        if not actors:
            raise _fail(seed, step, "nobody to act, no chance event, game not over")
        player = actors[rng.randrange(len(actors))]
        legal = state.legal_moves(player)
        if not legal:
            raise _fail(seed, step, f"player {player} must act but has no legal move")
        if len(set(legal)) != len(legal) or not all(isinstance(m, str) for m in legal):
            raise _fail(seed, step, f"legal moves are not distinct text: {legal!r}")
        for p in range(state.num_players):
            if p not in actors and state.legal_moves(p):
                raise _fail(seed, step, f"player {p} is not to act but has legal moves")
        if deep:
            _check_views(state, seed, step)
            _check_refusal(state, player, legal, seed, step)
            _check_simultaneous_privacy(state, player, actors, legal, seed, step)
        move = legal[rng.randrange(len(legal))]
        if deep:
            before = all_views(state)
            twin = state.clone()
            twin.apply_move(player, move)
            if all_views(state) != before:
                raise _fail(seed, step, "changing a clone changed the original")
        match.play(player, move)
        if check_state:
            check_state(state)
    scores = state.scores()
    outcome = state.outcome()
    if len(scores) != state.num_players or not outcome.winners:
        raise _fail(seed, step, "a finished game must score every seat and have a winner")
    again = replay(Record.from_json(match.record.to_json()), game=game)
    if all_views(again) != all_views(state) or again.scores() != scores:
        raise _fail(seed, step, "the record does not replay to the identical state")
    return match.record


def _check_views(state: State, seed: int, step: int) -> None:
    for view in all_views(state):
        text = json.dumps(view, sort_keys=True)
        if json.loads(text) != view:
            raise _fail(seed, step, "an observation does not round-trip through JSON")


def _check_refusal(state: State, player: int, legal: list[str], seed: int, step: int) -> None:
    bogus = "\u2205 not a move"
    for who, move in ((player, bogus), ((player + 1) % (state.num_players + 1), legal[0])):
        if who == player and move in legal:
            continue
        if who != player and who in state.actors() and move in state.legal_moves(who):
            continue
        try:
            play(state.clone(), who, move)
        except IllegalMove as exc:
            if not exc.reason:
                raise _fail(seed, step, "an illegal move was refused without a reason") from None
        else:
            raise _fail(seed, step, f"illegal move {move!r} by {who} was accepted")


def _check_simultaneous_privacy(
    state: State, player: int, actors: tuple[int, ...], legal: list[str], seed: int, step: int
) -> None:
    others = [p for p in actors if p != player]
    if not others or len(legal) < 2:
        return
    a, b = state.clone(), state.clone()
    a.apply_move(player, legal[0])
    b.apply_move(player, legal[-1])
    for p in others:
        if a.observation(p) != b.observation(p):
            raise _fail(
                seed, step, f"player {p} can see player {player}'s pending simultaneous choice"
            )


def random_match(
    game: Game, options: Mapping[str, JSON], seed: int, stop_at: int | None = None
) -> Match:
    """A match of random legal moves (moves drawn from ``Rng(seed)``), to the end or
    ``stop_at`` moves; chance events are sampled and recorded by the match."""
    match = Match(game, options, seed)
    rng = Rng(seed)
    steps = 0
    while not match.state.is_terminal() and (stop_at is None or steps < stop_at):
        p = match.state.actors()[0]
        match.play(p, rng.choice(match.state.legal_moves(p)))
        steps += 1
    return match


def random_position(
    game: Game, options: Mapping[str, JSON], seed: int, moves_seed: int, most: int
) -> State | None:
    """The match seeded ``seed`` after ``Rng(moves_seed).randrange(most)`` random moves
    drawn from ``Rng(moves_seed)`` (chance events sampled by the match); ``None`` if it
    ends before."""
    match = Match(game, options, seed)
    rng = Rng(moves_seed)
    for _ in range(rng.randrange(most)):
        if match.state.is_terminal():
            break
        p = match.state.actors()[0]
        match.play(p, rng.choice(match.state.legal_moves(p)))
    return None if match.state.is_terminal() else match.state


def random_positions(
    game: Game, options: Mapping[str, JSON], count: int, most: int, base: int = 0
) -> list[State]:
    """Unfinished positions of random games: for each of ``count`` seeds ``s``, the match
    seeded ``base + s`` after ``Rng(s).randrange(most)`` random moves drawn from ``Rng(s)``
    (a match that ends before is left out)."""
    states = (random_position(game, options, base + seed, seed, most) for seed in range(count))
    return [s for s in states if s is not None]


def check_levels_decide(game: Game, state: State, seed: int, budget: Budget | None) -> int:
    """Every bot level of ``game``, seated at the first actor of ``state`` (its generator
    ``Rng(seed)``), chooses a legal move from the observation; the number of decisions.
    A bot's exception propagates; an illegal move raises :class:`ConformanceError`."""
    p = state.actors()[0]
    obs = state.observation(p)
    legal = state.legal_moves(p)
    levels = game.bot_levels()
    for level, factory in levels.items():
        move = factory(game, p, Rng(seed), budget).choose(obs, legal)
        if move not in legal:
            raise ConformanceError(f"seed {seed}: {level} bot played {move!r}, not legal")
    return len(levels)


@dataclass
class Robustness:
    """What :func:`check_levels_at_random_positions` found."""

    games: int = 0
    """Seeded games played to a random point."""
    decisions: int = 0
    """Bot decisions checked (every level at every unfinished position)."""
    failures: list[tuple[int, int, str]] = field(default_factory=list)
    """(seed, players, the error) of each position where a level raised or played illegally."""


def _moves(match: Match) -> int:
    """The players' moves of a match (its chance events left out)."""
    return sum(1 for who, _ in match.record.events if who != CHANCE)


def check_levels_at_random_positions(
    game: Game, player_counts: Sequence[int], seeds: range, budget: Budget | None
) -> Robustness:
    """For each seed ``s`` (players ``player_counts[s % len]``): the match seeded ``s``
    after a random number of random legal moves (at most the length of a random game
    with that many players), then every level decides there
    (:func:`check_levels_decide`)."""
    options = {n: game.normalize_options({"players": n}) for n in player_counts}
    most = {n: _moves(random_match(game, opts, 0)) for n, opts in options.items()}
    out = Robustness()
    for seed in seeds:
        n = player_counts[seed % len(player_counts)]
        out.games += 1
        state = random_position(game, options[n], seed, derive_seed(seed, "moves"), most[n])
        if state is None:
            continue
        try:
            out.decisions += check_levels_decide(game, state, seed, budget)
        except Exception as exc:  # every failure is reported with its seed
            out.failures.append((seed, n, f"{type(exc).__name__}: {exc}"))
    return out


def bot_match(
    game: Game, options: Mapping[str, JSON], levels: list[str], seed: int, budget: Budget | None
) -> Match:
    """A match played to the end by bots of ``levels`` (seat p: ``levels[p]``, its generator
    ``Rng(seed * 10 + p)``), each move checked to be legal."""
    factories = game.bot_levels()
    match = Match(game, options, seed)
    bots = [factories[level](game, p, Rng(seed * 10 + p), budget) for p, level in enumerate(levels)]
    while not match.state.is_terminal():
        p = match.state.actors()[0]
        legal = match.state.legal_moves(p)
        move = bots[p].choose(match.state.observation(p), legal)
        if move not in legal:
            raise ConformanceError(f"seed {seed}: {levels[p]} bot played {move!r}, not legal")
        match.play(p, move)
    return match


def check_replays(match: Match) -> list[Any]:
    """Check that the match's record, through JSON, replays to the same public view and
    scores; return the record's events as JSON (lists ``[who, what]``)."""
    text = match.record.to_json()
    again = replay(Record.from_json(text))
    if again.observation(None) != match.state.observation(None):
        raise ConformanceError("the replayed record does not give the same state")
    if match.state.is_terminal() and again.scores() != match.state.scores():
        raise ConformanceError("the replayed record does not give the same scores")
    events: list[Any] = json.loads(text)["events"]
    return events


def check_rebuilds(
    game: Game,
    options: Mapping[str, JSON],
    seed: int,
    *,
    exact: Callable[[State], bool] = lambda _state: True,
) -> None:
    """Play a random game; at every decision, rebuild the state from the actor's
    observation (``game.state_from_observation``) and check that the rebuilt state
    gives the same legal moves and scores and, where ``exact(state)`` (a game may hide
    pending choices), every seat's view and the same chance event after the same move."""
    match = Match(game, options, seed)
    rng = Rng(seed)
    s = match.state
    step = 0
    while not s.is_terminal():
        p = s.actors()[0]
        rebuilt = game.state_from_observation(s.observation(p), p, rng)
        whole = exact(s)
        for q in [None, *range(s.num_players)] if whole else []:
            if rebuilt.observation(q) != s.observation(q):
                raise _fail(seed, step, f"the state rebuilt for seat {p} shows seat {q} otherwise")
        if rebuilt.legal_moves(p) != s.legal_moves(p) or rebuilt.scores() != s.scores():
            raise _fail(seed, step, f"the state rebuilt for seat {p} plays or scores otherwise")
        move = rng.choice(s.legal_moves(p))
        twin = s.clone()
        twin.apply_move(p, move)
        rebuilt.apply_move(p, move)
        if whole and (
            rebuilt.is_chance() != twin.is_chance()
            or (twin.is_chance() and rebuilt.chance_outcomes() != twin.chance_outcomes())
        ):
            raise _fail(seed, step, f"the state rebuilt for seat {p} draws otherwise after {move}")
        match.play(p, move)
        step += 1


def check_bots_decide_from_the_observation(
    game: Game, state: State, bots: Sequence[type[Bot]], budget: Budget | None = None
) -> None:
    """Each bot class, seated at the first actor with the same seed, chooses a legal
    move, and the same one from the observation and from the observation of a state
    rebuilt from it (so it reads nothing the observation does not show)."""
    p = state.actors()[0]
    obs = state.observation(p)
    legal = state.legal_moves(p)
    again = game.state_from_observation(obs, p, Rng(0)).observation(p)
    for cls in bots:
        a = cls(game, p, Rng(3), budget).choose(obs, legal)
        b = cls(game, p, Rng(3), budget).choose(again, legal)
        if a not in legal or a != b:
            raise ConformanceError(f"{cls.__name__} chose {a!r}, then {b!r}, among {legal}")
