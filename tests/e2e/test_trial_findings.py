"""Issue 36 §4, items 1-5 (a new user's trial), in Chromium: Optimus with no usable die,
the daily challenge one tap away, the records page as a statistics page (with the
import's message beside its buttons), and replays that look like replays.

Pages are ``guarded`` (conftest.py); every wait is on a state, never on time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from optimus.core import Match, Rng
from optimus.core.record import Record
from optimus.optimus.game import OptimusGame
from optimus.ui import records
from tests.e2e.conftest import DESKTOP, PHONE, PUT
from tests.e2e.test_deals_records import finished_game

RECORDS_KEY = "optimus-table.records"
OPTIMUS_SAVE = "optimus-table.optimus.save"
NO_SIDEWAYS = "() => document.scrollingElement.scrollWidth <= innerWidth"


def stuck_optimus_save(seed: int = 3) -> str:
    """A solo Optimus game saved where no marking uses the dice: passing is the only move."""
    match = Match(OptimusGame(), {"players": 1}, seed)
    rng = Rng(seed)
    while match.state.legal_moves(0) != ["pass"]:
        assert not match.state.is_terminal(), "this seed never leaves the person stuck"
        match.play(0, rng.choice(match.state.legal_moves(0)))
    data = match.record.to_dict()
    data["seats"] = ["human"]
    return json.dumps(data)


def test_optimus_with_no_usable_die_says_so_shows_the_dice_unusable_and_offers_pass(
    guarded: Any, site: str, axe_audit: Any
) -> None:
    guarded.page.set_viewport_size(PHONE)
    saved = stuck_optimus_save()
    page = guarded.stored(site, {OPTIMUS_SAVE: saved})
    page.goto(f"{site}#/optimus")
    page.click("[data-action=resume]")
    page.wait_for_selector(".status.you")
    feedback = page.locator("[data-role=feedback]")
    assert feedback.get_attribute("data-state") == "none"
    assert feedback.inner_text().startswith("No die fits your sheet")
    status = page.locator("[data-role=status-text]").inner_text()
    assert "no die fits your sheet" in status and "choose" not in status.lower()
    dice = page.locator("[data-role=board] .die")
    assert dice.count() == 4  # solo: two colour and two number dice
    assert page.locator("[data-role=board] .die.unusable").count() == 4
    assert page.locator("[data-role=board] button.die").count() == 0, "no die reacts"
    for label in page.locator("[data-role=board] .die").all():
        assert "cannot be used now" in str(label.get_attribute("aria-label"))
    pass_button = page.locator("button[data-move=pass]")
    assert "primary" in str(pass_button.get_attribute("class"))
    assert pass_button.evaluate("b => b === document.activeElement"), "Pass has the focus"
    assert not axe_audit(page)
    # In Portuguese and Catalan, the same sentence in the player's words.
    for lang, words in (("pt", "Nenhum dado serve"), ("ca", "Cap dau no serveix")):
        page.select_option("#game .game-bar select[data-language]", lang)
        page.wait_for_selector(f"[data-role=feedback]:has-text('{words}')")
    before = len(json.loads(saved)["events"])
    pass_button.click()
    page.wait_for_function(
        "([key, n]) => JSON.parse(localStorage.getItem(key)).events.length > n",
        arg=[OPTIMUS_SAVE, before],
    )


def test_the_daily_challenge_is_one_tap_from_the_landing_card_and_the_set_up(
    guarded: Any, site: str
) -> None:
    page = guarded.page
    page.set_viewport_size(PHONE)
    page.goto(f"{site}#/")
    guarded.wait_ready()
    for game in ("optimus", "optimus2", "fileiras"):
        link = page.locator(f"a.game-daily[href='#/{game}/daily']")
        assert link.count() == 1, game
        box = link.bounding_box()
        assert box is not None and box["height"] >= 40, game
    assert page.evaluate(NO_SIDEWAYS)
    page.click("a.game-daily[href='#/fileiras/daily']")
    page.wait_for_selector("[data-role=title-note]:has-text('Daily challenge of')")
    assert page.locator("[data-role=title-note][data-practice]").count() == 0
    # The set-up offers it too (a game in progress stays: "Resume it" is there).
    page.evaluate("location.hash = '#/'")
    page.wait_for_selector("#home:not([hidden])")
    page.evaluate("location.hash = '#/fileiras'")
    offer = page.locator("[data-role=daily-offer] a[href='#/fileiras/daily']")
    offer.wait_for()
    assert "Play today's challenge" in offer.inner_text()
    assert offer.bounding_box()["height"] >= 40
    # Today's counted: the offer says so, and a try is practice from its start.
    kept = records.Records()
    today = page.evaluate("new Date().toISOString().slice(0, 10)")
    kept.add(records.Result("fileiras", "hard", 3, 36, True, today, {}, daily=today))
    page.evaluate(PUT, [RECORDS_KEY, records.dump(kept)])
    page.evaluate("location.hash = '#/'")
    page.wait_for_selector("#home:not([hidden])")
    page.evaluate("location.hash = '#/fileiras'")
    page.wait_for_selector("[data-role=daily-offer]:has-text('36 pts, counted')")
    page.click("[data-role=daily-offer] a")
    page.wait_for_selector("dialog[open] [data-action=confirm-yes]")  # replaces the game
    page.click("dialog[open] [data-action=confirm-yes]")
    page.wait_for_selector("[data-role=title-note][data-practice]:has-text('practice')")


def line(page: Any, game: str, level: str) -> Any:
    return page.locator(f'.records-game[data-game="{game}"] .records-line[data-level="{level}"]')


def test_the_records_page_is_a_statistics_page_on_a_phone_and_a_desktop(
    guarded: Any, site: str, axe_audit: Any, screenshot: Any, tmp_path: Path
) -> None:
    from optimus.ui import stats

    kept = records.Records()
    scores = [(n * 37) % 90 + 20 for n in range(45)]
    for n, score in enumerate(scores):
        kept.add(records.Result("fileiras", "easy", 2, score, n % 3 == 0, "2026-12-01", {}))
    for score in (12, 40, 31):
        kept.add(records.Result("fileiras", "hard", 3, score, False, "2026-12-01", {}))
    kept.add(records.Result("optimus2", "solo", 1, 210, False, "2026-12-01", {}, "Good"))
    page = guarded.stored(site, {RECORDS_KEY: records.dump(kept)})
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.goto(f"{site}#/records")
        easy = line(page, "fileiras", "easy")
        easy.wait_for()
        assert page.evaluate(NO_SIDEWAYS), name
        screenshot(page, f"records-{name}")
        assert easy.get_attribute("data-played") == "45"
        assert easy.get_attribute("data-wins") == "15"
        assert easy.get_attribute("data-best") == str(max(scores))
        figures = easy.locator(".records-figures dd").all_inner_texts()
        mean = round(sum(scores) / len(scores), 1)
        assert figures == ["45", "15 (33%)", str(max(scores)), f"{mean:.1f}"], figures
        # The history: every score, and its moving average, inside the chart's box.
        history = easy.locator("svg.chart.history")
        points = history.locator("polyline.scores").get_attribute("points").split()
        assert len(points) == 45, "more than the last 30"
        assert len(history.locator("polyline.average").get_attribute("points").split()) == 45
        assert "oldest first" in str(history.get_attribute("aria-label"))
        # The distribution: one bar per bin, the counts adding up to the games.
        bins = stats.distribution(scores)
        spread = easy.locator("svg.chart.spread")
        assert spread.locator("rect.bar").count() == len(bins)
        assert sum(int(t) for t in spread.locator("text.count").all_text_contents()) == 45
        for chart in (history, spread):
            box = chart.bounding_box()
            assert box is not None and box["width"] >= 250, (name, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], name
        for level in ("easy", "hard"):
            assert line(page, "fileiras", level).count() == 1
        assert line(page, "optimus2", "solo").locator(".records-bands").count() == 1
        assert not axe_audit(page), name
    # The import's message: beside the buttons (in view with them), and announced.
    page.set_viewport_size(PHONE)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    page.set_input_files("[data-role=records-import]", str(bad))
    said = page.locator("[data-role=records-said]:has-text('nothing was changed')")
    said.wait_for()
    assert said.get_attribute("aria-live") == "polite" and said.get_attribute("role") == "status"
    said.scroll_into_view_if_needed()
    buttons = page.locator(".records-tools .dialog-actions").bounding_box()
    message = said.bounding_box()
    assert buttons is not None and message is not None
    assert 0 <= message["y"] - (buttons["y"] + buttons["height"]) <= 24, (buttons, message)
    assert buttons["y"] >= 0 and message["y"] + message["height"] <= PHONE["height"]


def test_replays_look_like_replays_in_every_game(guarded: Any, site: str, axe_audit: Any) -> None:
    kept = records.Records()
    games = {"optimus": 2, "optimus2": 2, "fileiras": 3}
    for game, players in games.items():
        data = finished_game(game, players, 7)
        kept.add(records.Result(game, "easy", players, 0, False, "2026-12-01", data))
    guarded.page.set_viewport_size(PHONE)
    page = guarded.stored(site, {RECORDS_KEY: records.dump(kept)})
    live = (
        "[data-role=board] button:not([disabled]), [data-role=board] [data-move], "
        "[data-role=board] .usable, [data-role=board] .target, [data-role=board] .can, "
        "[data-role=board] .unusable"  # not even "unusable": nobody's decision
    )
    for n, game in enumerate(games):
        events = len(Record.from_dict(kept.replays[n]["record"]).events)
        page.goto(f"{site}#/{game}/replay/{n}")
        page.wait_for_selector(f".table-shell[data-replay-step='{events}']")
        page.click("[data-action=replay-start]")
        page.wait_for_selector(f".table-shell:not([data-replay-step='{events}'])")
        for _ in range(3):  # a few steps in: a person's decision is shown, nobody's to take
            step = page.locator(".table-shell").get_attribute("data-replay-step")
            page.click("[data-action=replay-forward]")
            page.wait_for_selector(f".table-shell:not([data-replay-step='{step}'])")
            status = page.locator(".status")
            assert "replay" in str(status.get_attribute("class")).split(), game
            assert page.locator(".status.thinking").count() == 0, game
            text = page.locator("[data-role=status-text]").inner_text()
            assert text.startswith("Replay") and " step " in text, (game, text)
            assert "round" in text, (game, text)  # Optimus's rounds are its rolls
            assert page.locator(live).count() == 0, game
        for button in page.locator("[data-role=replay-bar] .btn, [data-role=replay-round]").all():
            box = button.bounding_box()
            assert box is not None and box["height"] >= 40, (game, box)
        assert page.evaluate(NO_SIDEWAYS), game
        assert not axe_audit(page), game
