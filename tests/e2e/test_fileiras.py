"""Fileiras in real Chromium: a whole game played by clicking, and a page that never freezes."""

from __future__ import annotations

import json
from typing import Any

from optimus.core.record import Record, replay
from optimus.rows.game import FileirasGame

ACTIONS = "[data-role=end], .status.you"
LONGTASKS = """
window.__longtasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
}).observe({type: "longtask", buffered: true});
"""


def open_table(guarded: Any, site: str, players: int, bots: str, speed: str = "fastest") -> Any:
    page = guarded.page
    page.goto(site + "#/fileiras")
    guarded.wait_ready()
    page.wait_for_selector("[data-role=setup]")
    page.select_option("select[name=players]", str(players))
    for i in range(players - 1):
        page.select_option(f"select[name=bot{i}]", bots)
    page.select_option("select[name=speed]", speed)
    page.click("[data-action=start]")
    return page


def human_turn(page: Any, prefer_take: bool) -> str:
    """Make one legal move by clicking what the page offers; return what was clicked."""
    takes = page.locator("[data-move^='take']")
    draw = page.locator("[data-move=draw]")
    if draw.count() and not (prefer_take and takes.count()):
        draw.click()
        page.wait_for_selector("[data-move^='place']")
        page.locator("[data-move^='place']").first.click()
        return "draw+place"
    takes.first.click()
    return "take"


def test_a_three_player_game_played_by_clicking_reaches_the_engines_scores(guarded, site):
    page = open_table(guarded, site, players=3, bots="easy")
    moves = 0
    while True:
        page.wait_for_selector(ACTIONS, timeout=30_000)
        if page.locator("[data-role=end]").count():
            break
        assert page.locator(".status.you").inner_text().strip()
        human_turn(page, prefer_take=moves % 3 == 2)
        moves += 1
        assert moves < 200, "the game does not end"
    end = page.locator("[data-role=end]")
    record = Record.from_json(end.get_attribute("data-record"))
    state = replay(record, game=FileirasGame())
    assert state.is_terminal()
    shown = {
        int(el.get_attribute("data-seat")): int(el.get_attribute("data-total"))
        for el in page.locator(".final").all()
    }
    assert shown == {seat: int(s) for seat, s in enumerate(state.scores())}
    assert len(shown) == 3 and moves >= 5
    texts = [el.inner_text() for el in page.locator(".final .total").all()]
    expected = sorted(shown.values(), reverse=True)
    assert texts == [f"{t} pt" if abs(t) == 1 else f"{t} pts" for t in expected]
    page.click("[data-action=again]")
    page.wait_for_selector("[data-role=setup]")


def test_illegal_clicks_are_refused_with_a_reason(guarded, site):
    page = open_table(guarded, site, players=2, bots="easy")
    page.wait_for_selector(".status.you", timeout=30_000)
    # Only legal actions are offered: no "take" on an empty row, no placing before drawing.
    assert page.locator("[data-move^='place']").count() == 0
    page.evaluate(
        """() => { const b = document.createElement('button');
        b.dataset.move = 'take 9'; b.id = 'forged';
        document.querySelector('.ftable').append(b); }"""
    )
    page.click("#forged")
    assert "row" in page.locator(".error").inner_text()


def test_bots_never_freeze_the_page(guarded, site):
    page = guarded.page
    page.add_init_script(LONGTASKS)
    page = open_table(guarded, site, players=4, bots="hard", speed="fastest")
    started = page.evaluate("performance.now()")
    saw_thinking = False
    for _ in range(8):
        for _ in range(200):
            if page.locator(".status.thinking").count():
                saw_thinking = True
            if page.locator(ACTIONS).count():
                break
            page.wait_for_timeout(25)
        page.wait_for_selector(ACTIONS, timeout=60_000)
        if page.locator("[data-role=end]").count():
            break
        human_turn(page, prefer_take=False)
    tasks = page.evaluate("window.__longtasks")
    during = [d for t, d in tasks if t > started]
    assert saw_thinking
    assert max(during, default=0) <= 200, json.dumps(sorted(during)[-5:])


def test_a_game_in_progress_resumes_after_a_reload(guarded, site):
    page = open_table(guarded, site, players=2, bots="easy")
    page.wait_for_selector(".status.you", timeout=30_000)
    human_turn(page, prefer_take=False)
    page.wait_for_selector(".status.you, [data-role=end]", timeout=30_000)
    deck_before = page.locator(".deck-count").inner_text()
    page.reload()
    guarded.wait_ready()
    page.click("[data-action=resume]")
    page.wait_for_selector(".status.you, [data-role=end]", timeout=30_000)
    assert page.locator(".deck-count").inner_text() == deck_before


def test_a_corrupt_save_is_reported_and_set_aside(guarded, site):
    page = guarded.page
    page.goto(site + "#/")
    guarded.wait_ready()
    page.evaluate("localStorage.setItem('optimus-table.fileiras.save', '{\"format\": 1, \"x\"')")
    page.goto(site + "#/fileiras")
    page.wait_for_selector("[data-role=setup]")
    assert "could not be read" in page.locator(".notice").inner_text()
    assert page.locator("[data-action=resume]").count() == 0
    page.click("[data-action=start]")
    page.wait_for_selector(".ftable")
