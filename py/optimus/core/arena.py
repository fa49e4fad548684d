"""Bot tournaments: seats rotate between games, figures per player spec.

A player spec is a bot level of the game (``random``, ``easy``, ``normal``,
``hard``), ``module:Class`` naming any :class:`~optimus.core.bots.Bot`
subclass, or ``path/to/file.py:Class`` (see ``docs/bots.md``).
"""

from __future__ import annotations

import importlib
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from optimus.core.bots import Bot, Budget
from optimus.core.protocol import JSON, BotFactory, Game, GameError, State
from optimus.core.record import Match, Record
from optimus.core.rng import Rng, derive_seed

A = TypeVar("A")
R = TypeVar("R")


def resolve_bot(game: Game, spec: str) -> BotFactory:
    """The bot factory for a level name or a ``module:Class`` spec."""
    levels = game.bot_levels()
    if spec in levels:
        return levels[spec]
    if ":" in spec:
        module, _, name = spec.rpartition(":")
        if module.endswith(".py"):  # a path to a file: ``mybot.py:MyBot``
            cls = _class_from_file(module, name)
        else:
            try:
                cls = getattr(importlib.import_module(module), name)
            except (ImportError, AttributeError) as exc:
                raise GameError(f"cannot load bot {spec!r}: {exc}") from None
        if not (isinstance(cls, type) and issubclass(cls, Bot)):
            raise GameError(f"{spec!r} is not a subclass of optimus.core.bots.Bot")
        factory: BotFactory = cls
        return factory
    raise GameError(
        f"unknown bot {spec!r} for {game.name} "
        f"(levels: {', '.join(levels)}; or module:Class, or file.py:Class)"
    )


def _class_from_file(path: str, name: str) -> object:
    """Class ``name`` of the ``.py`` file at ``path`` (see :mod:`optimus.core.userbots`)."""
    from optimus.core import userbots

    module = userbots.load_file(path)
    cls = getattr(module, name, None)
    if cls is None:
        bots = ", ".join(c.__qualname__ for c in userbots.find_bots(module))
        raise GameError(f"{path} has no class {name!r} (its bots: {bots})")
    return cls


@dataclass
class PlayerStats:
    spec: str
    scores: list[float] = field(default_factory=list)
    wins: float = 0.0
    decision_ms: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, JSON]:
        # Means as math.fsum / n, which is what statistics.fmean computes: the page
        # imports this module, and `statistics` would cost it about 50 ms (fractions,
        # decimal and their regular expressions) on the first visit of a game.
        n = len(self.scores)
        ms = sorted(self.decision_ms)
        return {
            "spec": self.spec,
            "mean_score": round(math.fsum(self.scores) / n, 3) if n else None,
            "win_rate": round(self.wins / n, 4) if n else None,
            "win_rate_ci95": [round(x, 4) for x in wilson(self.wins, n)],
            "decision_ms_mean": round(math.fsum(ms) / len(ms), 3) if ms else None,
            "decision_ms_p95": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 3) if ms else None,
        }


def mean_ci(xs: Sequence[float]) -> tuple[float, float, float]:
    """Mean and the 95% normal interval of the mean.

    >>> mean_ci([1.0, 3.0])[0], round(mean_ci([1.0, 3.0])[2], 3)
    (2.0, 3.96)
    """
    n = len(xs)
    m = math.fsum(xs) / n
    sd = math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return m, m - half, m + half


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (shared wins count fractionally).

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


GameResult = tuple[list[float], list[float], list[list[float]]]
"""One game's result per player spec: scores, win shares, decision times (ms)."""


def play_game(
    game: Game,
    specs: list[str],
    g: int,
    seed: int,
    opts: Mapping[str, JSON],
    budget: Budget | None,
    clock: Callable[[], float] = time.perf_counter,
    records: list[Record] | None = None,
) -> GameResult:
    """Play game number ``g`` of an arena; player ``i`` sits at seat ``(i + g) % n``.

    Decision times are read from ``clock`` (wall time by default; ``time.process_time``
    for CPU time). The game's record is appended to ``records`` if given.
    """
    n = len(specs)
    factories = [resolve_bot(game, s) for s in specs]
    game_seed = derive_seed(seed, "game", g)
    who = players_by_seat(n, g)
    bots = [
        factories[who[seat]](game, seat, Rng(derive_seed(game_seed, "bot", seat)), budget)
        for seat in range(n)
    ]
    times: list[list[float]] = [[] for _ in range(n)]
    match = Match(game, opts, game_seed)
    state = match.state
    while not state.is_terminal():
        seat = state.actors()[0]  # simultaneous choices: one after another, unseen
        obs = state.observation(seat)
        legal = state.legal_moves(seat)
        t0 = clock()
        move = bots[seat].choose(obs, legal)
        times[who[seat]].append((clock() - t0) * 1000)
        match.play(seat, move)
    if records is not None:
        records.append(match.record)
    scores, wins = results_by_player(state, who)
    return scores, wins, times


def play_record(
    game: Game, specs: list[str], seed: int, opts: Mapping[str, JSON], budget: Budget | None = None
) -> Record:
    """The record of game 0 of an arena of ``specs`` (seat ``i``: ``specs[i]``)."""
    records: list[Record] = []
    play_game(game, specs, 0, seed, opts, budget, records=records)
    return records[0]


def players_by_seat(n: int, g: int) -> dict[int, int]:
    """Game ``g`` of an arena of ``n`` players: the player at each seat (player ``i``
    sits at seat ``(i + g) % n``).

    >>> players_by_seat(3, 1)
    {1: 0, 2: 1, 0: 2}
    """
    return {(i + g) % n: i for i in range(n)}


def results_by_player(state: State, who: Mapping[int, int]) -> tuple[list[float], list[float]]:
    """A finished game's scores and wins (a shared win counts a fraction) by player
    (``who``: the player at each seat)."""
    outcome = state.outcome()
    scores = [0.0] * len(who)
    wins = [0.0] * len(who)
    for seat, player in who.items():
        scores[player] = outcome.scores[seat]
        if seat in outcome.winners:
            wins[player] = 1 / len(outcome.winners)
    return scores, wins


def _play_range(
    args: tuple[Game, list[str], int, int, int, Mapping[str, JSON], Budget | None],
) -> list[GameResult]:
    game, specs, start, stop, seed, opts, budget = args
    return [play_game(game, specs, g, seed, opts, budget) for g in range(start, stop)]


def default_jobs() -> int:
    """Every core of the machine."""
    return os.cpu_count() or 1


class InProcess:
    """The executor of one job: ``map`` runs here, in order (no process to start)."""

    jobs = 1

    def map(self, fn: Callable[[A], R], tasks: Iterable[A]) -> Iterator[R]:
        return map(fn, tasks)

    def shutdown(self, wait: bool = True) -> None:
        return None

    def __enter__(self) -> InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def executor(jobs: int) -> Any:
    """Where the arena and the lab's self-play run their blocks of games: an object with
    ``map(fn, tasks)`` (results in the tasks' order), ``shutdown()``, ``jobs`` (how many
    run at once), and a context manager.  One job: :class:`InProcess`; more: that many processes
    (``concurrent.futures.ProcessPoolExecutor``).  ``fn`` and its tasks are picklable
    and every game depends only on its seed and number, so any executor with this
    ``map`` gives the same results: docs/bots.md says how a cluster's would be used.
    """
    if jobs <= 1:
        return InProcess()
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(jobs)
    pool.jobs = jobs  # type: ignore[attr-defined]
    return pool


def ranges(games: int, jobs: int) -> list[tuple[int, int]]:
    """``range(games)`` cut into ``jobs`` contiguous ``(start, stop)`` parts (none empty).

    >>> ranges(10, 3), ranges(2, 4)
    ([(0, 3), (3, 6), (6, 10)], [(0, 1), (1, 2)])
    """
    jobs = max(1, min(jobs, games))
    bounds = [games * j // jobs for j in range(jobs + 1)]
    return [(bounds[j], bounds[j + 1]) for j in range(jobs)]


def run_arena(
    game: Game,
    specs: list[str],
    games: int,
    seed: int,
    options: Mapping[str, JSON] | None = None,
    budget: Budget | None = None,
    jobs: int = 1,
) -> dict[str, JSON]:
    """Play ``games`` games; player ``i`` of ``specs`` sits at seat ``(i + g) % n`` in game g.

    With ``jobs`` > 1 the games are shared out in contiguous ranges between
    that many processes; every game depends only on the seed and its number,
    so the scores and wins are exactly those of ``jobs=1`` (only the measured
    decision times differ).
    """
    n = len(specs)
    opts = game.normalize_options({**(options or {}), "players": n})
    for s in specs:
        resolve_bot(game, s)  # refuse an unknown bot before starting any process
    parts = ranges(games, jobs)
    tasks = [(game, specs, start, stop, seed, opts, budget) for start, stop in parts]
    with executor(len(parts)) as pool:
        results = [r for chunk in pool.map(_play_range, tasks) for r in chunk]
    stats = [PlayerStats(s) for s in specs]
    for scores, wins, times in results:
        for i, st in enumerate(stats):
            st.scores.append(scores[i])
            st.wins += wins[i]
            st.decision_ms.extend(times[i])
    return {
        "game": game.name,
        "games": games,
        "seed": seed,
        "options": opts,
        "players": [s.summary() for s in stats],
    }


def play_random_game(game: Game, options: Mapping[str, JSON], rng: Rng) -> None:
    """One full game of uniformly random legal moves (fast path, chance sampled with ``rng``).

    ``options`` must be normalised already.
    """
    state = game.new_state(options)
    is_terminal, is_chance, actors = state.is_terminal, state.is_chance, state.actors
    apply_chance, outcomes, pick = state.apply_chance, state.chance_outcomes, rng.pick
    legal_moves, apply_move, choice = state.legal_moves, state.apply_move, rng.choice
    while not is_terminal():
        if is_chance():
            apply_chance(pick(outcomes()))  # what sample_chance does
            continue
        p = actors()[0]
        apply_move(p, choice(legal_moves(p)))


def bench_random(game: Game, options: Mapping[str, JSON], seconds: float, seed: int = 0) -> float:
    """Random full games per second (fast path, chance sampled by the runner)."""
    opts = game.normalize_options(options)
    rng = Rng(seed)
    done = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds or done == 0:
        play_random_game(game, opts, rng)
        done += 1
    return done / (time.perf_counter() - t0)
