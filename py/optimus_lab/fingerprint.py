"""The bots' moves in fixed games, as one hash per line-up, with CPU time per decision.

``PYTHONPATH=py python -m optimus_lab.fingerprint`` plays a few games of every
game's levels with fixed seeds and iteration-only budgets (no clock, so the
moves do not depend on the machine) and prints, per line-up, a hash of every
move and the final scores, and each level's mean CPU time per decision. Two
trees print the same hashes exactly when their bots play the same moves: run
it before and after a change that must not change the bots (a refactoring, a
speed-up) and compare; the times say whether it got slower (CPU time, so a
busy machine disturbs them less than wall time, but compare runs made close
together).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections.abc import Sequence

from optimus.core.arena import resolve_bot
from optimus.core.bots import Budget
from optimus.core.record import Match
from optimus.core.registry import get_game
from optimus.core.rng import Rng, derive_seed
from optimus_lab import per_game

RUNS: tuple[tuple[str, tuple[str, ...], int, int], ...] = tuple(
    (game, *run) for game, runs in per_game("FINGERPRINT").items() for run in runs
)
"""Line-ups played: game, a level per seat, games, ``hard``'s iterations per decision (each
game's lab package lists its own in ``FINGERPRINT``)."""


def fingerprint(
    name: str, levels: Sequence[str], games: int, iterations: int, seed: int = 7
) -> tuple[str, dict[str, tuple[float, int]]]:
    """The hash of the moves and scores of ``games`` games, and per level its CPU
    seconds and decisions."""
    game = get_game(name)
    digest = hashlib.sha256()
    cpu = {level: (0.0, 0) for level in levels}
    budget = Budget(iterations=iterations)
    for g in range(games):
        game_seed = derive_seed(seed, "game", g)
        bots = [
            resolve_bot(game, level)(game, p, Rng(derive_seed(game_seed, "bot", p)), budget)
            for p, level in enumerate(levels)
        ]
        match = Match(game, game.normalize_options({"players": len(levels)}), game_seed)
        state = match.state
        while not state.is_terminal():
            p = state.actors()[0]
            observation, legal = state.observation(p), state.legal_moves(p)
            t0 = time.process_time()
            move = bots[p].choose(observation, legal)
            spent, count = cpu[levels[p]]
            cpu[levels[p]] = (spent + time.process_time() - t0, count + 1)
            digest.update(f"{p}:{move};".encode())
            match.play(p, move)
        digest.update(json.dumps(state.scores()).encode())
    return digest.hexdigest()[:16], cpu


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimus_lab.fingerprint", description=__doc__)
    parser.add_argument("--game", action="append", help="only these games (default: all)")
    args = parser.parse_args(argv)
    for name, levels, games, iterations in RUNS:
        if args.game and name not in args.game:
            continue
        digest, cpu = fingerprint(name, levels, games, iterations)
        times = " ".join(
            f"{level}={1000 * spent / max(1, count):.2f}ms/{count}"
            for level, (spent, count) in cpu.items()
        )
        print(f"{name} {','.join(levels)} x{games} it={iterations} {digest} {times}", flush=True)


if __name__ == "__main__":
    main()
