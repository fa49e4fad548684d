"""Learn to play: each game's guided game followed from the landing's "Learn to play" by
tapping (or clicking) what the bubble points at (``data-lesson-target``), with one
wrong tap explained and nothing played by it, axe-core clean with the bubble shown;
then the game finished alone, and it is not counted in the records.  One page per game,
mixing sizes and languages: Optimus on a phone in Catalan, Optimus 2 on a phone in
Portuguese, Fileiras on a desktop in Portuguese.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e import test_optimus as optimus_e2e
from tests.e2e import test_optimus2 as optimus2_e2e
from tests.e2e.conftest import DESKTOP, PHONE, FileirasTable, _origin, english_on_screen

BUBBLE = "[data-role=lesson]:not([hidden])"
TARGET = "[data-lesson-target]"
SAID = "[data-role=lesson-said]"
END = "dialog[data-role=end][open]"
YOUR_TURN = ".status.you"

WRONG: dict[str, tuple[int, str]] = {
    "optimus": (4, ".ogrid.big button.cell.target:not([data-lesson-target])"),  # G1 asked
    "optimus2": (2, ".dicezone button[data-die]:not([data-lesson-target])"),  # yellow asked
    "fileiras": (3, "[data-role=board] [data-move^=place]:not([data-lesson-target])"),  # row 1
}
"""Each game: the step at which a wrong tap is made, and what may be tapped then (lit, not
asked): the first of them that the bubble leaves uncovered."""
UNCOVERED = """(css) => {
  const asked = document.querySelector('[data-role=lesson]').dataset.lessonMove;
  for (const el of document.querySelectorAll(css)) {
    if (el.closest('[data-lesson-target]') || (asked && el.dataset.move === asked)) continue;
    el.scrollIntoView({block: 'nearest'});
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (hit && el.contains(hit)) { el.setAttribute('data-wrong', ''); return true; }
  }
  return false; }"""

SETUPS: dict[str, tuple[str, dict[str, Any]]] = {
    "optimus": ("ca", {"viewport": PHONE, "has_touch": True, "is_mobile": True}),
    "optimus2": ("pt", {"viewport": PHONE, "has_touch": True, "is_mobile": True}),
    "fileiras": ("pt", {"viewport": DESKTOP}),
}


def step_of(page: Any) -> tuple[int, int, str]:
    bubble = page.locator(BUBBLE)
    return (
        int(bubble.get_attribute("data-step") or 0),
        int(bubble.get_attribute("data-steps") or 0),
        str(bubble.get_attribute("data-kind")),
    )


def moved_on(page: Any, step: int) -> None:
    """Wait until the bubble shows a step after ``step`` (or is gone)."""
    page.wait_for_function(
        """(n) => { const b = document.querySelector('[data-role=lesson]');
            return !b || b.hidden || (b.dataset.kind !== 'wait' && +b.dataset.step > n); }""",
        arg=step,
        timeout=30_000,
    )


def follow(page: Any, game: str, press: Callable[[str], None], axe_audit: Any) -> int:
    """Every step of the lesson, by pressing what the bubble points at; one wrong tap
    explained; axe-core at the first step.  The number of steps."""
    wrong_at, wrong = WRONG[game]
    page.wait_for_selector(BUBBLE, timeout=60_000)
    assert page.locator(BUBBLE).get_attribute("role") == "dialog"
    assert axe_audit(page) == [], f"{game}, bubble shown"
    assert not english_on_screen(page, SETUPS[game][0]), f"{game}, bubble shown"
    assert "Practice" not in page.locator("#game-title").inner_text()  # not in English
    assert page.locator("[data-role=title-note][data-practice]").count() == 1
    while True:
        page.wait_for_function(
            "() => document.querySelector('[data-role=lesson]').dataset.kind !== 'wait'",
            timeout=30_000,
        )
        step, steps, kind = step_of(page)
        if kind == "read":
            press(f"{BUBBLE} [data-lesson=next]")
            moved_on(page, step)
            if step == steps:
                return steps
            continue
        if step == wrong_at:
            before = page.evaluate("localStorage.length && JSON.stringify(localStorage)")
            assert page.evaluate(UNCOVERED, wrong), f"{game}: nothing wrong to tap"
            press("[data-wrong]")
            page.wait_for_function(f"document.querySelector('{SAID}').textContent.length > 0")
            assert step_of(page)[0] == step, "a wrong tap moved the lesson on"
            after = page.evaluate("localStorage.length && JSON.stringify(localStorage)")
            assert after == before, "a wrong tap was played"
        page.wait_for_selector(TARGET)
        move = page.locator(BUBBLE).get_attribute("data-lesson-move") or ""
        target_move = page.locator(TARGET).get_attribute("data-move")
        press(TARGET)
        if kind == "move" and target_move != move:
            # the target is a step of the move (a die): then its lit place
            page.wait_for_selector(f"[data-role=board] [data-move='{move}']")
            press(f"[data-role=board] [data-move='{move}']")
        moved_on(page, step)
        assert page.locator(SAID).inner_text() == ""


def not_counted(page: Any) -> None:
    """The end screen says the game was practice; the records keep nothing."""
    page.wait_for_selector(f"{END} [data-role=practice-note]")
    records = page.evaluate("localStorage.getItem('optimus-table.records')")
    kept = json.loads(records).get("games", {}) if records else {}
    assert kept == {}, kept


def finish_optimus(page: Any, tap: bool) -> None:
    """Greedy markings for a few rolls, then passes (quicker) to the end."""
    for turn in range(40):
        page.wait_for_selector(f"{YOUR_TURN}, {END}", timeout=60_000)
        if page.locator(END).count():
            return
        state = optimus_e2e.current_state(page)
        before = len(optimus_e2e.saved(page)["events"])
        move = optimus_e2e.greedy(state, 0) if turn < 4 else "pass"
        if move == "pass":
            page.tap("button[data-move=pass]")
        else:
            boxes = optimus_e2e.pick_dice(page, state, move, tap=tap)
            for i in boxes:
                page.tap(f'button.cell[data-box="{move.split()[1 + boxes.index(i)]}"]')
            page.tap("button.confirm")
        page.wait_for_function(optimus_e2e.GROWN, arg=[optimus_e2e.SAVE, before])
    raise AssertionError("the game did not end")


def finish_optimus2(page: Any) -> None:
    for n in range(400):
        page.wait_for_selector(f"{YOUR_TURN}, {END}", timeout=60_000)
        if page.locator(END).count():
            return
        optimus2_e2e.one_click(page, n, tap=True)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", list(SETUPS))
def test_learn_to_play_from_the_landing_to_the_end(browser, site, guard_context, axe_audit, game):
    lang, options = SETUPS[game]
    context = browser.new_context(locale="en-US", service_workers="block", **options)
    with guard_context(context, _origin(site)) as guard:
        page = guard.page
        page.goto(f"{site}?lang={lang}#/")
        guard.wait_ready()
        touch = bool(options.get("has_touch"))

        def press(selector: str) -> None:
            if touch:
                page.locator(selector).first.tap()
            else:
                page.locator(selector).first.click()

        press(f'a.game-learn[href="#/{game}/learn"]')
        page.wait_for_selector("[data-role=lesson]", state="attached", timeout=60_000)
        FileirasTable().instant(page)  # the bots at once (Settings: not held by the lesson)
        steps = follow(page, game, press, axe_audit)
        assert 6 <= steps <= 10
        assert page.locator(BUBBLE).count() == 0  # the rest is the person's
        # ... with hints on: the bar's Hint draws the strongest bot's move
        page.wait_for_selector("#game-tools [data-action=hint][aria-disabled=false]")
        press("#game-tools [data-action=hint]")
        page.wait_for_selector("#game [data-mark-hint]", timeout=60_000)
        if game == "optimus":
            finish_optimus(page, touch)
        elif game == "optimus2":
            finish_optimus2(page)
        else:
            FileirasTable().finish(page)
        not_counted(page)
