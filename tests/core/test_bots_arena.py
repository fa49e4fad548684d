"""Bots, the arena and the command line."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from optimus.core import Budget, GameError, Match, Rng
from optimus.core.arena import resolve_bot, run_arena, wilson
from optimus.core.bots import Bot, ChoiceBot, RandomBot, SearchBot
from optimus.core.registry import get_game
from optimus.games import GAMES
from optimus.tiny.game import TinyGame

ROOT = Path(__file__).resolve().parents[2]


class KeepBot(Bot):
    level = "keep"

    def think(self, observation, legal_moves):
        yield None
        return "keep" if "keep" in legal_moves else legal_moves[0]


class CountingSearch(SearchBot):
    pass


def test_random_bot_only_plays_legal_moves_and_is_seeded():
    game = TinyGame()
    picks = [RandomBot(game, 0, Rng(4)).choose({}, list("abcdef")) for _ in range(2)]
    assert picks[0] == picks[1] and picks[0] in "abcdef"


def test_budget_rejects_nonsense():
    with pytest.raises(ValueError):
        Budget(time_ms=0)
    with pytest.raises(ValueError):
        Budget(iterations=-1)


def test_search_bot_obeys_its_iteration_budget_and_yields_each_iteration():
    game = TinyGame()
    m = Match(game, {"players": 2, "rounds": 1}, 5)
    p = m.state.actors()[0]
    bot = CountingSearch(game, p, Rng(1), Budget(iterations=37))
    gen = bot.think(m.state.observation(p), m.state.legal_moves(p))
    pauses = 0
    with pytest.raises(StopIteration) as stop:
        while True:
            next(gen)
            pauses += 1
    assert pauses == 37
    assert stop.value.value in m.state.legal_moves(p)


def test_search_bot_keeps_a_six_rather_than_gambling_on_a_card():
    game = TinyGame()
    for seed in range(200):
        m = Match(game, {"players": 1, "rounds": 1}, seed)
        if m.state.roll == 6:
            break
    obs = m.state.observation(0)
    bot = SearchBot(game, 0, Rng(2), Budget(iterations=400))
    assert bot.choose(obs, m.state.legal_moves(0)) == "keep"


def test_arena_rotates_seats_and_reports_every_player_in_order():
    result = run_arena(TinyGame(), ["random", f"{__name__}:KeepBot"], games=40, seed=3)
    assert [p["spec"] for p in result["players"]] == ["random", f"{__name__}:KeepBot"]
    rates = [p["win_rate"] for p in result["players"]]
    assert 0.99 <= sum(rates) <= 1.01  # shared wins count 1/k, so rates add up to 1
    assert result["players"][1]["mean_score"] > result["players"][0]["mean_score"]
    for p in result["players"]:
        lo, hi = p["win_rate_ci95"]
        assert lo <= p["win_rate"] <= hi
        assert p["decision_ms_p95"] >= 0


def test_unknown_bot_specs_are_refused_clearly():
    with pytest.raises(GameError, match="unknown bot 'genius'"):
        resolve_bot(TinyGame(), "genius")
    with pytest.raises(GameError, match="cannot load bot"):
        resolve_bot(TinyGame(), "nosuchmodule:Bot")
    with pytest.raises(GameError, match="not a subclass"):
        resolve_bot(TinyGame(), "json:JSONDecoder")


def test_wilson_interval_contains_the_rate_and_narrows_with_games():
    lo1, hi1 = wilson(5, 10)
    lo2, hi2 = wilson(500, 1000)
    assert lo1 < 0.5 < hi1 and hi2 - lo2 < hi1 - lo1


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "py"), str(ROOT)])}
    return subprocess.run(
        [sys.executable, "-m", "optimus", *args], capture_output=True, text=True, env=env, cwd=ROOT
    )


def test_cli_arena_prints_the_documented_json():
    run = cli(
        "arena",
        "tiny",
        "--players",
        "random,random,random",
        "--games",
        "9",
        "--seed",
        "2",
        "--json",
        "--option",
        "rounds=2",
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert {"game", "games", "seed", "players"} <= data.keys()
    assert data["games"] == 9 and data["options"]["rounds"] == 2
    keys = {
        "spec",
        "mean_score",
        "win_rate",
        "win_rate_ci95",
        "decision_ms_mean",
        "decision_ms_p95",
    }
    assert len(data["players"]) == 3 and all(keys <= p.keys() for p in data["players"])


def test_cli_reports_bad_input_without_a_traceback():
    for args, fragment in [
        (("arena", "chess", "--players", "random"), "unknown game"),
        (("arena", "tiny", "--players", "random", "--option", "speed"), "key=value"),
        (("arena", "tiny", "--players", "random,random,random,random,random"), "1-4 players"),
        (("arena", "tiny", "--players", "grandmaster"), "unknown bot"),
    ]:
        run = cli(*args)
        assert run.returncode == 2 and fragment in run.stderr and "Traceback" not in run.stderr


class LastBot(ChoiceBot):
    rebuilt: list[object]

    def rebuild(self, observation):
        self.rebuilt.append(observation)
        return dict(observation)

    def choice(self, state, legal_moves):
        assert state == {"seen": 1}
        return legal_moves[-1]


def test_choice_bot_plays_a_forced_move_without_rebuilding_else_chooses_on_the_rebuilt_state():
    bot = LastBot(TinyGame(), 0, Rng(1))
    bot.rebuilt = []
    assert bot.choose({"seen": 1}, ["only"]) == "only"
    assert bot.rebuilt == []
    assert bot.choose({"seen": 1}, ["a", "b", "c"]) == "c"
    assert bot.rebuilt == [{"seen": 1}]


@pytest.mark.parametrize("game_id", [g for g in GAMES if get_game(g).bots])
def test_a_game_offers_random_and_the_levels_of_its_bots_module(game_id: str) -> None:
    game = get_game(game_id)
    bots = importlib.import_module(f"optimus.{game_id}.bots")
    levels = {"easy": bots.EasyBot, "normal": bots.NormalBot, "hard": bots.HardBot}
    assert game.bot_levels() == {"random": RandomBot, **levels}


def test_limits_turn_a_budget_into_iterations_and_a_deadline() -> None:
    def limits(budget: Budget, fallback: int | None = None) -> tuple[int | None, float | None]:
        return RandomBot(TinyGame(), 0, Rng(1), budget).limits(fallback)

    assert limits(Budget(iterations=5)) == (5, None)
    assert limits(Budget(), 7) == (7, None)  # neither set: the fallback
    before = time.perf_counter()
    limit, deadline = limits(Budget(time_ms=50, iterations=3))
    assert limit == 3 and deadline is not None and deadline >= before + 0.05
