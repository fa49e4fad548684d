"""Optimus 2 in Chromium: a solo game and a game against a bot, played only by clicking.

Pages are ``guarded`` (conftest.py): console errors, page errors and requests
to other hosts fail the test. Each wait is on a state, not on time.
"""

from __future__ import annotations

import json
from typing import Any

from optimus.core.record import Record, replay
from optimus.optimus2.game import Optimus2Game

YOUR_TURN = ".status.you"
END = "dialog[data-role=end][open]"
ACTIONS = f"{YOUR_TURN}, {END}"
SAVE = "optimus-table.optimus2.save"
FITS = """() => {
  const w = innerWidth, h = innerHeight, bad = [];
  const s = document.scrollingElement;
  if (s.scrollWidth > w) bad.push(`page ${s.scrollWidth} wide`);
  for (const el of document.querySelectorAll(
      '.game-bar, .status, .board, .dicezone, .o2controls, .area, .panel, .log')) {
    const r = el.getBoundingClientRect();
    if (r.left < -0.5 || r.right > w + 0.5) bad.push(`${el.className} ${JSON.stringify(r)}`);
  }
  for (const lbl of document.querySelectorAll('.btn, .pname, .pscore, .ahead, .die .pip')) {
    if (!lbl.getClientRects().length) continue;
    if (lbl.scrollWidth > lbl.clientWidth + 1) bad.push(`label ${lbl.textContent}`);
  }
  return bad; }"""


def open_table(guarded: Any, site: str, players: int, bot: str = "easy", place: str = "1") -> Any:
    page = guarded.open_setup(site, "optimus2", players, place)
    for i in range(players - 1):
        page.select_option(f"select[name=bot{i}]", bot)
    guarded.bot_speed("instant")
    page.click("[data-action=start]")
    page.wait_for_selector("[data-role=board] .o2board")
    return page


def record_length(page: Any) -> int:
    return len(json.loads(page.evaluate(f"localStorage.getItem('{SAVE}')"))["events"])


def one_click(page: Any, step: int, tap: bool = False) -> str:
    """One click on the table, as a person would: a bonus answer, a lit cell, a die, a button
    (with ``tap``, a tap on a touch screen)."""

    def press(target: Any) -> None:
        if tap:
            target.tap()
        else:
            target.click()

    for selector in (
        ".o2controls button[data-move^='choose']",
        ".o2controls button[data-move^='write']",
        ".board .o2sheet button.target",
    ):
        found = page.locator(selector)
        if found.count():
            target = found.nth(step % found.count())
            move = str(target.get_attribute("data-move"))
            press(target)
            return move
    dice = page.locator(".dicezone button.die[data-action=die]")
    if dice.count():
        die = dice.nth(step % dice.count())
        name = die.get_attribute("data-die")
        press(die)
        page.wait_for_selector(f".dicezone .die.chosen[data-die={name}]")
        page.wait_for_selector(".board .o2sheet button.target")
        return f"die {name}"
    returns = page.locator(".dicezone button.die[data-move]")
    if returns.count() and step % 2:
        move = str(returns.first.get_attribute("data-move"))
        press(returns.first)
        return move
    for move in ("roll", "end", "done", "pass"):
        button = page.locator(f".o2controls button[data-move={move}]")
        if button.count():
            press(button)
            return move
    raise AssertionError("nothing to click: " + page.locator(".status").inner_text())


def play_to_the_end(page: Any, limit: int = 400) -> list[str]:
    clicks: list[str] = []
    while True:
        page.wait_for_selector(ACTIONS, timeout=60_000)
        if page.locator(END).count():
            return clicks
        assert page.locator(YOUR_TURN).inner_text().strip()
        clicks.append(one_click(page, len(clicks)))
        assert len(clicks) < limit, "the game does not end"


def check_end_screen(guarded: Any, players: int) -> Record:
    page = guarded.page
    end = page.locator(END)
    record = Record.from_json(end.get_attribute("data-record"))
    state = guarded.final_state()
    assert state.num_players == players
    # Each area, the foxes and the total, as the engine scores them.
    obs = state.observation(None)
    for seat, sheet in enumerate(obs["sheets"]):
        final = end.locator(f'.final[data-seat="{seat}"]')
        for area, points in sheet["areas"].items():
            assert final.locator(f'[data-area="{area}"]').inner_text() == str(points)
        fox = sheet["foxes"] * min(sheet["areas"].values())
        assert final.locator('[data-area="foxes"]').inner_text() == str(fox)
    totals = [sheet["total"] for sheet in obs["sheets"]]  # the tie-break: said for a tie only
    tied = len(set(totals)) < len(totals)
    assert ("highest single area" in end.locator(".end-rules").inner_text()) == tied
    assert page.evaluate(f"localStorage.getItem('{SAVE}')") is None
    return record


def test_a_solo_game_played_by_clicking_reaches_the_engines_scores_and_rating(
    guarded, site, axe_audit
):
    page = guarded.page
    page.goto(site)
    guarded.wait_ready()
    assert page.locator('a.game-card[data-game="optimus2"] .go').inner_text() == "Play"
    page = open_table(guarded, site, players=1)
    # A choice the engine refuses comes back with its reason, and nothing changes.
    page.wait_for_selector(YOUR_TURN)
    yellow = int(page.locator(".g-hand .d-yellow .pip").inner_text())
    cell = "r1c4" if yellow != 6 else "r1c2"
    before = record_length(page)
    page.evaluate(
        """(move) => { const b = document.createElement('button');
        b.dataset.move = move; b.id = 'forged';
        document.querySelector('.o2board').append(b); }""",
        f"yellow {cell}",
    )
    page.click("#forged")
    status = page.locator(".status").inner_text()
    assert f"the die shows {yellow}" in status, status
    assert record_length(page) == before
    clicks = play_to_the_end(page)
    assert any(c.startswith("die") for c in clicks) and len(clicks) > 20
    record = check_end_screen(guarded, players=1)
    state = replay(record, game=Optimus2Game())
    rating = state.observation(None)["rating"]
    assert f"Solo rating: {rating}" in page.locator(f"{END} .end-rules").inner_text()
    assert axe_audit(page) == [], "end screen"
    # The final table stays reachable.
    page.click(f"{END} [data-action=see-table]")
    page.wait_for_selector("dialog[data-role=end]:not([open])", state="attached")
    total = page.locator("[data-role=sheet-total]").inner_text()
    assert total == str(int(state.scores()[0]))


def test_a_game_against_a_bot_played_by_clicking_fits_phone_and_desktop(
    guarded, site, screenshot, axe_audit, thinking_watch
):
    # The person plays second: the bot (seat 0) has the first active turn.
    page = open_table(guarded, site, players=2, bot="easy", place="2")
    clicks: list[str] = []
    # A few moves, then the table at both sizes, mid-game.
    while len(clicks) < 12:
        page.wait_for_selector(YOUR_TURN, timeout=60_000)
        clicks.append(one_click(page, len(clicks)))
    page.wait_for_selector(YOUR_TURN, timeout=60_000)
    for name, (width, height) in {"phone": (390, 844), "desktop": (1280, 800)}.items():
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, f"optimus2-2-players-{name}")
        assert page.evaluate(FITS) == [], name
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_audit(page) == [], f"mid-game table, {scheme}"
    page.emulate_media(color_scheme="light")
    # Focus waits on a control for the next move (a die, a lit cell or a button).
    focused = page.evaluate(
        "(document.activeElement.getAttribute('data-move') || "
        "document.activeElement.getAttribute('data-die') || '')"
    )
    assert focused, page.evaluate("document.activeElement.outerHTML")
    # The bot's sheet opens from its panel, drawn in full.
    assert page.locator('.panel[data-seat="1"] .panel-head').inner_text().startswith("You")
    page.click('.panel[data-seat="0"] .panel-head')
    page.wait_for_selector("dialog[data-role=player][open] .o2sheet .a-silver")
    assert page.locator("dialog[data-role=player][open] button[data-move]").count() == 0
    page.click("dialog[data-role=player][open] [data-action=close]")
    clicks += play_to_the_end(page)
    check_end_screen(guarded, players=2)
    assert len(thinking_watch.spans()) > 5  # the bot's turns were seen as they happened
    thinking_watch.assert_no_freeze()
