"""The records kept of finished games (py/optimus/ui/records.py)."""

from __future__ import annotations

import datetime
import json

import pytest

from optimus.ui.records import (
    BUDGET,
    MAX_TEXT,
    REPLAYS_KEPT,
    SCORES_KEPT,
    Records,
    Refused,
    Result,
    dump,
    fit,
    level_of,
    load,
    merge,
    rounds,
)
from tests.webstub import page_module, readable


def result(
    score: int, won: bool = False, level: str = "solo", daily: str = "", rating: str = ""
) -> Result:
    return Result(
        "optimus2", level, 1, score, won, "2026-12-02", {"events": [score]}, rating, daily
    )


def test_each_level_counts_games_wins_best_mean_and_the_last_scores() -> None:
    records = Records()
    for score in range(40):
        records.add(result(score, won=score % 2 == 0, level="hard"))
    records.add(result(200, rating="Good"))
    hard = next(s for s in records.stats("optimus2") if s.level == "hard")
    assert (hard.played, hard.wins, hard.best, hard.mean) == (40, 20, 39, 19.5)
    assert hard.scores == tuple(range(40 - SCORES_KEPT, 40))
    solo = records.stats("optimus2")[0]
    assert solo.level == "solo" and solo.bands == {"Good": 1}


def test_the_first_finished_try_of_a_day_counts_and_later_ones_are_practice() -> None:
    records = Records()
    assert records.add(result(150, daily="2026-12-02")) is True
    assert records.add(result(250, daily="2026-12-02")) is False
    assert records.daily_score("optimus2", "2026-12-02") == 150
    assert records.streak("optimus2", datetime.date(2026, 12, 2)) == 1


def test_replays_keep_the_last_twenty_games_and_every_daily_challenge() -> None:
    records = Records()
    records.add(result(1, daily="2026-12-01"))
    for score in range(30):
        records.add(result(100 + score))
    dailies = [r for r in records.replays if r["daily"]]
    ordinary = [r for r in records.replays if not r["daily"]]
    assert len(dailies) == 1 and len(ordinary) == REPLAYS_KEPT
    assert ordinary[-1]["record"] == {"events": [129]}


def test_records_survive_their_text_and_an_export_merged_into_another_browser() -> None:
    one, two = Records(), Records()
    one.add(result(10, level="easy", won=True))
    two.add(result(30, level="easy"))
    two.add(result(5, daily="2026-12-01"))
    again = load(dump(one))
    assert again.problem == "" and again.records.stats("optimus2") == one.stats("optimus2")
    both = merge(one, load(dump(two)).records)
    easy = both.stats("optimus2")[1]
    assert (easy.played, easy.wins, easy.best) == (2, 1, 30)
    assert both.daily_score("optimus2", "2026-12-01") == 5
    assert one.stats("optimus2")[0].played == 1, "merging leaves the first store alone"


def v1_line(**changes: object) -> dict[str, object]:
    """A line of a first-version store (counts only)."""
    line = {"played": 3, "wins": 1, "best": 40, "total": 90, "scores": [20, 30, 40], "bands": {}}
    return {**line, **changes}


def v1_text(**changes: object) -> str:
    return json.dumps(
        {
            "format": "optimus-table-records",
            "version": 1,
            "games": {"optimus2": {"solo": v1_line(**changes)}},
            "daily": {},
            "replays": [],
        }
    )


def test_a_text_that_is_no_records_store_is_never_trusted() -> None:
    good = json.loads(dump(Records()))
    damaged = dict(good, games={"optimus2": {"solo": {"played": "x"}}})
    cases = {
        "{not json": "not JSON",
        "[" * 20_000: "too deep",
        json.dumps([1, 2]): "not a records file",
        json.dumps(dict(good, version=3)): "version 3",
        json.dumps(damaged): "damaged (KeyError)",
        v1_text(wins=5): "counts (more wins than games)",
        "x" * 5_000_000: "too big",
    }
    for text, problem in cases.items():
        loaded = load(text)
        assert loaded.problem == problem, text[:40]
        assert loaded.records.games == {} and loaded.records.replays == []


def test_a_first_version_store_keeps_its_counts_and_counts_once_when_merged() -> None:
    loaded = load(v1_text())
    assert loaded.problem == ""
    solo = loaded.records.stats("optimus2")[0]
    assert (solo.played, solo.wins, solo.best, solo.mean) == (3, 1, 40, 30.0)
    twice = merge(merge(Records(), loaded.records), load(v1_text()).records)
    assert twice.stats("optimus2") == loaded.records.stats("optimus2")


# -- issue 39, items 3 and 4: a number no game can reach -------------------------------
def test_a_number_no_game_can_reach_is_refused_and_said_why() -> None:
    huge = "9" * 400
    good = Records()
    good.add(result(10))
    texts = {
        "total": v1_text(total=10**400),
        "scores": v1_text(scores=[20, 30, 10**400]),
        "best": v1_text(best=1e300),
        "a result": dump(good).replace('",10,0,', f'",{huge},0,'),
        "Infinity": v1_text().replace('"total": 90', '"total": Infinity'),
        "-Infinity": v1_text().replace('"total": 90', '"total": -Infinity'),
        "NaN": v1_text().replace('"total": 90', '"total": NaN'),
        "1e400": v1_text().replace('"total": 90', '"total": 1e400'),
        "a fraction": v1_text().replace('"total": 90', '"total": 90.5'),
        "more games than a life": v1_text(played=10**12, total=10),
        "a total above the best": v1_text(total=500),
        "more scores than games": v1_text(played=1, scores=[1, 2], total=2, best=2, wins=0),
    }
    for what, text in texts.items():
        loaded = load(text)
        assert loaded.problem.startswith(("number", "counts")), (what, loaded.problem)
        assert loaded.records.games == {}, what
    # and what is valid stays valid (negative scores included: Fileiras counts down)
    fine = Records()
    fine.add(result(-17))
    fine.add(result(0))
    assert load(dump(fine)).problem == ""
    assert load(dump(fine)).records.stats("optimus2")[0].mean == -8.5


# -- issue 39, item 5: the same file imported twice --------------------------------------
def test_importing_the_same_records_twice_counts_each_game_once() -> None:
    mine, theirs = Records(), Records()
    mine.add(result(10))
    theirs.add(result(20, won=True))
    theirs.add(result(5, daily="2026-12-01"))
    exported = dump(theirs)
    once = merge(mine, load(exported).records)
    twice = merge(once, load(exported).records)
    assert [s.played for s in once.stats("optimus2")] == [3]
    assert twice.stats("optimus2") == once.stats("optimus2")
    assert len(twice.replays) == len(once.replays) == 3
    # Exported back and forth: B has A's games and its own; A imports B: A's count once.
    back = merge(theirs, load(dump(once)).records)
    assert merge(once, load(dump(back)).records).stats("optimus2")[0].played == 3
    # the same result added twice (a tab writing again what it wrote) counts once
    r = result(7).identified()
    mine.add(r)
    mine.add(r)
    assert mine.stats("optimus2")[0].played == 2


# -- issue 39, item 6: a record book that outgrows its read limit --------------------------
def test_a_record_book_is_kept_within_its_budget_and_never_outgrows_the_read_limit() -> None:
    records = Records()
    big = {"events": ["x" * 50_000]}
    for n in range(40):
        records.add(result(n, daily=f"2026-11-{n % 28 + 1:02d}" if n < 28 else ""))
    for n in range(40):
        records.replays.append({**records.replays[0], "id": f"big{n}", "record": big})
    kept, text = fit(records, 500_000)
    assert len(text) <= 500_000 and load(text).problem == ""
    assert kept.stats("optimus2") == records.stats("optimus2"), "statistics stay whole"
    assert len(kept.replays) < len(records.replays)
    assert kept.replays[-1] == records.replays[-1], "the newest replays stay"
    assert len(fit(records)[1]) <= BUDGET < MAX_TEXT
    tiny = Records()
    for n in range(100):
        tiny.add(result(n))
    with pytest.raises(Refused):
        fit(tiny, 500)  # even the results alone do not fit: refused, not cut


def test_a_game_counts_under_solo_or_its_strongest_bot() -> None:
    assert level_of(["human"]) == "solo"
    assert level_of(["easy", "human", "normal"]) == "normal"
    assert level_of(["human", "random", "hard", "easy"]) == "hard"
    assert level_of(["human", "human:Ana"]) == "people"  # pass-and-play: not solo, no bot
    assert level_of(["human", "easy", "bots.mine:Mine"]) == "bots.mine:Mine"


def test_a_replay_jumps_to_where_each_round_starts() -> None:
    assert rounds([None, None, 1, 1, 2, None, 2, 3]) == [(1, 2), (2, 4), (3, 7)]
    assert rounds([None, None]) == []


def test_the_records_page_names_each_kind_of_table(monkeypatch: pytest.MonkeyPatch) -> None:
    view = page_module(monkeypatch, "records_view")
    assert view.level_label("solo") == "Solo"
    assert view.level_label("people") == "People only, no bots"
    assert view.level_label("hard") == "Strongest bot: Hard"
    assert view.level_label("bots.mine:Mine") == "Strongest bot: Mine"


def test_the_game_bar_leads_to_the_records(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = page_module(monkeypatch, "frame")
    assert 'href="#/records"' in frame.tools_html()
    assert "Records" in readable(frame.tools_html())
