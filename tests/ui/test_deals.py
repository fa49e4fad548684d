"""Links that name a deal, and the daily challenge (py/optimus/ui/deals.py)."""

from __future__ import annotations

import datetime

import pytest

from optimus.ui.deals import (
    HUMAN,
    Deal,
    daily,
    daily_day,
    daily_seed,
    link,
    parse,
    share_text,
)

LEVELS = ("easy", "normal", "hard")
FILEIRAS = {"advanced": [False, True]}


def test_a_link_and_its_deal_go_both_ways() -> None:
    deal = Deal("fileiras", 77, (HUMAN, "hard", "human:Ana", "easy"), {"advanced": True})
    route = link(deal)
    assert route == "#/fileiras?seed=77&players=you,hard,Ana,easy&advanced=1"
    parsed = parse(route.split("?", 1)[1], "fileiras", LEVELS, FILEIRAS)
    assert parsed.deal == deal and parsed.notices == ()


def test_names_keep_accents_and_spaces_and_come_back_from_the_address() -> None:
    deal = Deal("optimus2", 5, (HUMAN, "human:Joan Martí"), {})
    parsed = parse(link(deal).split("?", 1)[1], "optimus2", LEVELS, {})
    assert parsed.deal is not None and parsed.deal.seats == (HUMAN, "human:Joan Martí")


@pytest.mark.parametrize(
    "query",
    [
        "seed=1&players=you,<img src=x onerror=alert(1)>",
        "seed=1&players=you,%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
        'seed=1&players=you,"><script>x</script>',
    ],
)
def test_markup_in_a_name_is_left_out_with_a_notice(query: str) -> None:
    parsed = parse(query, "fileiras", LEVELS, FILEIRAS)
    assert parsed.deal is not None
    assert all("<" not in seat and ">" not in seat for seat in parsed.deal.seats)
    assert parsed.notices and "left out" in parsed.notices[0]


def test_what_is_unknown_or_malformed_is_ignored_and_named() -> None:
    parsed = parse(
        "seed=12&players=you,hard&colour=red&advanced=maybe", "fileiras", LEVELS, FILEIRAS
    )
    assert parsed.deal == Deal("fileiras", 12, (HUMAN, "hard"), {})
    assert any("colour" in n for n in parsed.notices)
    assert any("maybe" in n for n in parsed.notices)


def test_a_bad_seed_means_no_deal_and_says_so() -> None:
    for seed in ("-4", "abc", "99999999999", ""):
        parsed = parse(f"seed={seed}&players=you,hard", "fileiras", LEVELS, FILEIRAS)
        assert parsed.deal is None


def test_a_player_count_the_game_does_not_allow_falls_back_to_the_default_seats() -> None:
    parsed = parse("seed=3&players=you", "fileiras", LEVELS, FILEIRAS)  # Fileiras: 2-5
    assert parsed.deal is not None and parsed.deal.seats == (HUMAN, "normal", "normal")
    assert any("2-5" in n for n in parsed.notices)


def test_an_unknown_game_is_no_deal() -> None:
    parsed = parse("seed=3", "chess", LEVELS, {})
    assert parsed.deal is None and "chess" in parsed.notices[0]


def test_an_option_may_be_checked_by_a_function() -> None:
    def sheet(value: str) -> str | None:
        return value if value == "harbour" or value.startswith("random:") else None

    parsed = parse("seed=3&players=you&sheet=random:41", "optimus", LEVELS, {"sheet": sheet})
    assert parsed.deal is not None and parsed.deal.options == {"sheet": "random:41"}
    parsed = parse("seed=3&players=you&sheet=/dev/tty", "optimus", LEVELS, {"sheet": sheet})
    assert parsed.deal is not None and parsed.deal.options == {}


def test_the_daily_challenge_is_the_same_deal_all_day_and_changes_each_day() -> None:
    day = datetime.date(2026, 12, 2)
    for game in ("optimus", "optimus2", "fileiras"):
        assert daily(game, day) == daily(game, day)
        assert daily(game, day).seed != daily(game, day + datetime.timedelta(days=1)).seed
        assert daily(game, day).daily == "2026-12-02"
    assert daily("optimus2", day).seats == (HUMAN,)
    assert daily_seed("optimus", day) != daily_seed("optimus2", day)


def test_a_daily_link_may_name_a_day_that_has_come_but_not_one_to_come() -> None:
    today = datetime.date(2026, 12, 2)
    assert daily_day("date=2026-12-01", today) == (datetime.date(2026, 12, 1), ())
    assert daily_day("date=2026-12-02&lang=pt", today) == (today, ())
    for bad in ("date=2026-12-03", "date=tomorrow", "date=2026-1-5", "date=<b>"):
        day, notices = daily_day(bad, today)
        assert day == today and len(notices) == 1 and "today's challenge" in notices[0]
    day, notices = daily_day("seed=4", today)
    assert day == today and "seed" in notices[0]


def test_a_link_to_a_deal_read_back_is_the_same_deal() -> None:
    deal = parse(
        "seed=90&players=normal,you,hard&advanced=1",
        "fileiras",
        LEVELS,
        {"advanced": [True, False]},
    ).deal
    assert deal is not None
    again = parse(link(deal).partition("?")[2], "fileiras", LEVELS, {"advanced": [True, False]})
    assert again.deal == deal and not again.notices


def test_the_shared_text_names_game_day_score_rating_and_link() -> None:
    text = share_text("Optimus", "2 December 2026", "31 pts", "Good", "https://x/#/optimus/daily")
    assert text == (
        "Optimus, daily challenge of 2 December 2026: 31 pts, solo rating Good. "
        "https://x/#/optimus/daily"
    )
