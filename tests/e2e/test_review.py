"""The review of a finished game ("Review the game", issue 37 §3), in real Chromium.

One guarded page per game, each mixing a size, a language and a pointer: a game
resumed late (a save made here in CPython, the person's earlier decisions random)
is finished, reviewed from its end screen (the progress ends, the accuracy shows,
axe-core finds nothing), its costliest decision opened (the replay at that event,
the move played and the better move drawn), and the review opened again from the
records page's replay shows the accuracy kept with the record.  Waits are on
states, never on time.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import DESKTOP, PHONE, _origin, english_on_screen
from tests.e2e.test_first_steps import END, finish, instant, late_save

LOCALES = {"pt": "pt-BR", "ca": "ca-ES"}
REVIEW = "dialog[data-role=review][open]"
ACCURACY = f"{REVIEW} [data-role=review-accuracy]"

CASES = [
    ("optimus2", "pt", PHONE),
    ("optimus", "ca", DESKTOP),
    ("fileiras", "ca", PHONE),
]


def press(page: Any, selector: str, touch: bool) -> None:
    """Tap on a touch screen, click elsewhere."""
    target = page.locator(selector).first
    if touch:
        target.scroll_into_view_if_needed()
        target.tap()
    else:
        target.click()


@pytest.mark.parametrize(("game", "lang", "size"), CASES, ids=[c[0] for c in CASES])
def test_a_finished_game_is_reviewed_its_costliest_decision_opened_and_its_accuracy_kept(
    browser: Any, guard_context: Any, site: str, axe_audit: Any, game: str, lang: str, size: Any
) -> None:
    touch = size is PHONE
    context = browser.new_context(
        viewport=size,
        locale=LOCALES[lang],
        has_touch=touch,
        is_mobile=touch,
        service_workers="block",
    )
    with guard_context(context, _origin(site)) as guard:
        page = guard.stored(
            site, {f"optimus-table.{game}.save": late_save(game, ["human", "easy"])}
        )
        page.goto(f"{site}#/{game}")
        page.wait_for_selector("[data-action=resume]")
        press(page, "[data-action=resume]", touch)
        instant(page)
        finish(page, game)

        # Review the game: the progress bar runs, then the accuracy shows.
        press(page, f"{END} [data-action=review]", touch)
        page.wait_for_selector(f"{REVIEW} [role=progressbar], {ACCURACY}")
        page.wait_for_selector(ACCURACY, timeout=90_000)
        accuracy = page.locator(ACCURACY)
        decisions = int(accuracy.get_attribute("data-decisions"))
        share = accuracy.get_attribute("data-best-share")
        assert decisions > 3
        assert page.locator(f"{REVIEW} [data-role=review-grades] li").count() == 5
        assert page.locator(f"{REVIEW} svg.review-values polyline.scores").count() == 1
        assert page.evaluate("document.documentElement.lang").startswith(lang)
        assert not english_on_screen(page, lang)
        assert not axe_audit(page)

        # The costliest decision: the board just before it, both moves drawn.
        first = page.locator(f"{REVIEW} [data-action=review-open]").first
        event = first.get_attribute("data-event")
        press(page, f"{REVIEW} [data-action=review-open]", touch)
        page.wait_for_selector(f"[data-review-event='{event}']")
        assert page.get_attribute("[data-replay-step]", "data-replay-step") == event
        page.wait_for_selector("[data-role=replay-marks] [data-mark-line=played]")
        page.wait_for_selector("[data-role=replay-marks] [data-mark-line=best]")
        drawn = page.locator(".board [data-mark-played], .board [data-mark-best]").count()
        assert drawn >= 1
        assert not axe_audit(page)

        # The records page charts the accuracy; its replay reopens the review, kept.
        page.goto(f"{site}#/records")
        page.wait_for_selector(f".records-game[data-game={game}] [data-role=records-accuracy]")
        press(page, f"li[data-replay] a[href^='#/{game}/replay/']", touch)
        page.wait_for_selector("[data-role=replay-bar] [data-action=review]")
        press(page, "[data-role=replay-bar] [data-action=review]", touch)
        kept = page.locator(f"{ACCURACY}[data-kept]")
        kept.wait_for()
        assert kept.get_attribute("data-best-share") == share
        assert int(kept.get_attribute("data-decisions")) == decisions
