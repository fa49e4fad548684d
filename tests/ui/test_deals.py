"""Links that name a deal, and the daily challenge (py/optimus/ui/deals.py)."""

from __future__ import annotations

import datetime

import pytest

from optimus.games import GAMES, Daily, GameInfo, Option
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
CARDS = GameInfo(
    "cards",
    "Cards",
    (2, 5),
    "",
    options=(Option("advanced", False, "Advanced"),),
    daily=Daily(bots=("hard",)),
)
"""A game made here: two or more players, one yes/no option, a daily challenge."""
DICE = GameInfo(
    "dice",
    "Dice",
    (1, 4),
    "",
    options=(
        Option(
            "sheet", "harbour", "Sheet", ("harbour", "random"), link="tests.ui.test_deals:sheet"
        ),
    ),
)
"""A game made here: solo allowed, an option read by a function, no daily challenge."""


def sheet(value: str) -> str | None:
    """How DICE reads a link's sheet."""
    return value if value == "harbour" or value.startswith("random:") else None


def test_a_link_and_its_deal_go_both_ways() -> None:
    deal = Deal("cards", 77, (HUMAN, "hard", "human:Ana", "easy"), {"advanced": True})
    route = link(deal)
    assert route == "#/cards?seed=77&players=you,hard,Ana,easy&advanced=1"
    parsed = parse(route.split("?", 1)[1], CARDS, LEVELS)
    assert parsed.deal == deal and parsed.notices == ()


def test_names_keep_accents_and_spaces_and_come_back_from_the_address() -> None:
    deal = Deal("dice", 5, (HUMAN, "human:Joan Martí"), {})
    parsed = parse(link(deal).split("?", 1)[1], DICE, LEVELS)
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
    parsed = parse(query, CARDS, LEVELS)
    assert parsed.deal is not None
    assert all("<" not in seat and ">" not in seat for seat in parsed.deal.seats)
    assert parsed.notices and "left out" in parsed.notices[0]


def test_what_is_unknown_or_malformed_is_ignored_and_named() -> None:
    parsed = parse("seed=12&players=you,hard&colour=red&advanced=maybe", CARDS, LEVELS)
    assert parsed.deal == Deal("cards", 12, (HUMAN, "hard"), {})
    assert any("colour" in n for n in parsed.notices)
    assert any("maybe" in n for n in parsed.notices)


def test_a_bad_seed_means_no_deal_and_says_so() -> None:
    for seed in ("-4", "abc", "99999999999", ""):
        parsed = parse(f"seed={seed}&players=you,hard", CARDS, LEVELS)
        assert parsed.deal is None


def test_a_player_count_the_game_does_not_allow_falls_back_to_the_default_seats() -> None:
    parsed = parse("seed=3&players=you", CARDS, LEVELS)  # CARDS: 2-5
    assert parsed.deal is not None and parsed.deal.seats == (HUMAN, "normal")
    assert any("2-5" in n for n in parsed.notices)


def test_an_unknown_game_is_no_deal() -> None:
    parsed = parse("seed=3", "chess", LEVELS)
    assert parsed.deal is None and "chess" in parsed.notices[0]


def test_an_option_may_be_checked_by_a_function() -> None:
    parsed = parse("seed=3&players=you&sheet=random:41", DICE, LEVELS)
    assert parsed.deal is not None and parsed.deal.options == {"sheet": "random:41"}
    parsed = parse("seed=3&players=you&sheet=/dev/tty", DICE, LEVELS)
    assert parsed.deal is not None and parsed.deal.options == {}
    assert any("/dev/tty" in n for n in parsed.notices)


def test_every_game_reads_back_a_link_with_each_value_of_its_options() -> None:
    for info in GAMES.values():
        for option in info.options:
            if option.link:  # read by the game's own function (tested with the game)
                continue
            for value in option.allowed():
                deal = Deal(
                    info.id,
                    9,
                    (HUMAN, *[info.default_level] * (info.first_players - 1)),
                    {option.key: value},
                )
                parsed = parse(link(deal).partition("?")[2], info, info.levels)
                assert parsed.deal == deal and not parsed.notices, (info.id, option.key, value)


def test_the_daily_challenge_is_the_same_deal_all_day_and_changes_each_day() -> None:
    day = datetime.date(2026, 12, 2)
    games = [info for info in GAMES.values() if info.daily is not None]
    assert games
    for info in games:
        deal = daily(info.id, day)
        assert deal is not None and deal == daily(info.id, day)
        later = daily(info.id, day + datetime.timedelta(days=1))
        assert later is not None and deal.seed != later.seed
        assert deal.daily == "2026-12-02"
        assert deal.seats == (HUMAN, *info.daily.bots)
        assert info.players[0] <= len(deal.seats) <= info.players[1]
        for key, value in deal.options.items():  # the day's options are the game's own
            assert info.option(key).read_link(str(value)) == value
    assert daily_seed("a", day) != daily_seed("b", day)


def test_a_game_that_declares_no_daily_challenge_has_none() -> None:
    assert daily(DICE, datetime.date(2026, 12, 2)) is None


def test_a_game_of_two_or_more_never_gets_a_solo_daily_challenge() -> None:
    alone = CARDS._replace(daily=Daily())  # declared with no bots
    deal = daily(alone, datetime.date(2026, 12, 2))
    assert deal is not None and deal.seats == (HUMAN, alone.default_level)
    deal = daily(CARDS, datetime.date(2026, 12, 2))
    assert deal is not None and deal.seats == (HUMAN, "hard")


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
    deal = parse("seed=90&players=normal,you,hard&advanced=1", CARDS, LEVELS).deal
    assert deal is not None
    again = parse(link(deal).partition("?")[2], CARDS, LEVELS)
    assert again.deal == deal and not again.notices


def test_the_shared_text_names_game_day_score_rating_and_link() -> None:
    text = share_text("Dice", "2 December 2026", "31 pts", "Good", "https://x/#/dice/daily")
    assert text == (
        "Dice, daily challenge of 2 December 2026: 31 pts, solo rating Good. https://x/#/dice/daily"
    )


# -- numbers written outside the program (issue 39, item 12) ------------------------------


@pytest.mark.parametrize("seed", ["²", "①", "١٢", "1_0", "%207"])
def test_a_seed_that_is_no_ascii_number_is_said_and_ignored_without_raising(seed: str) -> None:
    parsed = parse(f"seed={seed}&players=you,hard", CARDS, LEVELS)
    assert parsed.deal is None
    assert len(parsed.notices) == 1 and "is not a number" in parsed.notices[0]


@pytest.mark.parametrize("number", ["²", "①", "١٢", "123456", "1_2"])
def test_a_random_sheet_of_no_ascii_number_is_said_and_the_deal_still_starts(number: str) -> None:
    parsed = parse(f"seed=3&players=you&sheet=random:{number}", GAMES["optimus"], LEVELS)
    assert parsed.deal is not None and parsed.deal.seed == 3 and parsed.deal.options == {}
    assert len(parsed.notices) == 1 and "sheet" in parsed.notices[0]


def test_a_random_sheet_of_five_digits_is_read() -> None:
    parsed = parse("seed=3&players=you&sheet=random:04411", GAMES["optimus"], LEVELS)
    assert parsed.deal is not None and parsed.deal.options == {"sheet": "random:4411"}
