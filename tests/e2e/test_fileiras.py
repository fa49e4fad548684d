"""Fileiras in real Chromium, played as a person would: on the objects, by keyboard, on a phone.

Every page here is a ``guarded`` page: a console error, an uncaught page error
or a request to another host fails the test.  Waits are on states (selectors),
never on time.
"""

from __future__ import annotations

import json
from typing import Any

from optimus.core.record import Record
from optimus.fileiras.game import FileirasGame
from optimus.ui.session import TableSession
from tests.e2e.conftest import press_tool

YOUR_TURN = ".status.you"
END = "dialog[data-role=end][open]"
ACTIONS = f"{YOUR_TURN}, {END}"
SAVE = "optimus-table.fileiras.save"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
REFUSE_STORAGE = """
for (const name of ["localStorage", "sessionStorage"]) {
  Object.defineProperty(window, name, {configurable: true, get() {
    throw new DOMException("The operation is insecure.", "SecurityError"); }});
}
"""


def choose_speed(page: Any, speed: str) -> None:
    press_tool(page, "[data-action=settings]")
    page.select_option("dialog[open] select[name=speed]", speed)
    page.click("dialog[open] [data-action=close]")
    page.wait_for_selector("dialog[data-role=settings]:not([open])", state="attached")


def open_table(
    guarded: Any, site: str, players: int, bots: str, speed: str = "instant", place: str = "1"
) -> Any:
    page = guarded.open_setup(site, "fileiras", players, place)
    for i in range(players - 1):
        page.select_option(f"select[name=bot{i}]", bots)
    choose_speed(page, speed)
    page.click("[data-action=start]")
    page.wait_for_selector("[data-role=board] .fboard")
    return page


def human_turn(page: Any, prefer_take: bool) -> str:
    """One legal move made on the objects themselves (the deck, a slot, a row), not buttons."""
    takes = page.locator(".frow.can-take")
    deck = page.locator(".deck[data-move=draw]")
    if deck.count() and not (prefer_take and takes.count()):
        deck.click()
        page.locator(".frow.can-place .slot").first.click()
        return "draw+place"
    takes.first.locator(".row-n").click()
    return "take"


def record_length(page: Any) -> int:
    return len(json.loads(page.evaluate(f"localStorage.getItem('{SAVE}')"))["events"])


def test_a_game_played_on_the_objects_reaches_the_engines_scores_and_a_rematch(
    guarded, site, axe_audit, screenshot
):
    page = open_table(guarded, site, players=3, bots="easy", place="3")  # the person plays last
    assert json.loads(page.evaluate(f"localStorage.getItem('{SAVE}')"))["seats"] == [
        "easy",
        "easy",
        "human",
    ]
    moves = 0
    while True:
        page.wait_for_selector(ACTIONS, timeout=30_000)
        if page.locator(END).count():
            break
        assert page.locator(".status.you").inner_text().strip()
        human_turn(page, prefer_take=moves % 3 == 2)
        moves += 1
        assert moves < 200, "the game does not end"
    end = page.locator(END)
    record = Record.from_json(end.get_attribute("data-record"))
    state = guarded.final_state()
    assert state.num_players == 3 and moves >= 5
    texts = [el.inner_text() for el in end.locator(".final .total").all()]
    expected = sorted((int(s) for s in state.scores()), reverse=True)
    assert texts == [f"{t} pt" if abs(t) == 1 else f"{t} pts" for t in expected]
    # Which colours counted plus, and how ties are decided (when there is one), in words.
    assert end.locator(".final .why").first.inner_text().startswith("Counted plus:")
    tied = len(set(expected)) < len(expected)
    assert ("share the victory" in end.locator(".end-rules").inner_text()) == tied
    assert page.evaluate(f"localStorage.getItem('{SAVE}')") is None  # a finished game is not kept
    screenshot(page, "fileiras-end-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "fileiras-end-phone")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_audit(page) == [], f"end screen, {scheme}"
    page.set_viewport_size({"width": 1280, "height": 800})
    # The final table stays reachable, and the results come back from the bar.
    page.click(f"{END} [data-action=see-table]")
    page.wait_for_selector("dialog[data-role=end]:not([open])", state="attached")
    assert page.locator(".frow").count() == 3
    page.click("#game-tools [data-action=results]")
    page.wait_for_selector(END)
    # Rematch: same seats, a new deal.
    page.click(f"{END} [data-action=rematch]")
    page.wait_for_selector("dialog[data-role=end]:not([open])", state="attached")
    page.wait_for_selector(YOUR_TURN, timeout=30_000)
    again = json.loads(page.evaluate(f"localStorage.getItem('{SAVE}')"))
    assert again["seats"] == ["easy", "easy", "human"] and again["seed"] != record.seed


def test_the_table_fits_one_screen_with_five_players_and_every_click_is_safe(
    guarded, site, axe_audit, screenshot
):
    page = open_table(guarded, site, players=5, bots="normal")
    for _ in range(2):  # put some cards on the rows
        page.wait_for_selector(YOUR_TURN, timeout=30_000)
        human_turn(page, prefer_take=False)
    page.wait_for_selector(YOUR_TURN, timeout=30_000)
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, f"fileiras-5-players-{name}")
        # On a phone the screen may scroll up and down (its targets are 40 px,
        # tests/e2e/test_phone.py): there, the width only.
        fit = page.evaluate(
            """(tall) => {
            const w = innerWidth, h = tall ? Infinity : innerHeight, bad = [];
            const s = document.scrollingElement;
            if (s.scrollHeight > h || s.scrollWidth > w)
              bad.push(`page ${s.scrollWidth}x${s.scrollHeight}`);
            for (const el of document.querySelectorAll(
                '.game-bar, .status, .board, .deckbar, .frow, .panel, .log')) {
              const r = el.getBoundingClientRect();
              if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5)
                bad.push(`${el.className} ${JSON.stringify(r)}`);
            }
            for (const lbl of document.querySelectorAll('.fcard .lbl, .btn, .pname, .pscore')) {
              if (!lbl.getClientRects().length) continue;  // not displayed
              const box = (lbl.closest('.fcard') || lbl).getBoundingClientRect();
              const r = lbl.getBoundingClientRect();
              if (lbl.scrollWidth > lbl.clientWidth + 1 || r.left < box.left - 0.5 ||
                  r.right > box.right + 0.5) bad.push(`label ${lbl.textContent}`);
            }
            return bad; }""",
            name == "phone",
        )
        assert fit == [], f"{name}: {fit}"
        assert page.locator(".panel").count() == 5
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_audit(page) == [], f"mid-game table, {scheme}"
    page.emulate_media(color_scheme="light")
    # Nothing but legal targets reacts: a taken or empty row, the log, a panel's score.
    before = record_length(page)
    for selector in (".frow:not([data-move]) .row-n", ".log h2", ".deck-info"):
        if page.locator(selector).count():
            page.locator(selector).first.click()
    assert record_length(page) == before
    # A forged move is refused with the engine's reason, in the status line.
    page.evaluate(
        """() => { const b = document.createElement('button');
        b.dataset.move = 'take 9'; b.id = 'forged';
        document.querySelector('.fboard').append(b); }"""
    )
    page.click("#forged")
    assert "row" in page.locator(".status").inner_text().lower()
    # Click every element of the table once: no uncaught error, whatever happens.
    count = page.evaluate(
        """() => { const all = [...document.querySelectorAll('#game *')]
            .filter(el => !el.closest('dialog') && !el.closest('.game-bar a[href]'));
          // (the bar's links leave the table: the back link, the records)
          for (const el of all) el.dispatchEvent(
            new MouseEvent('click', {bubbles: true, cancelable: true, view: window}));
          return all.length; }"""
    )
    assert count > 100
    page.keyboard.press("Escape")
    page.wait_for_selector(f"{ACTIONS}, .status.bot, [data-role=setup]", timeout=30_000)
    assert guarded.errors == []


def test_one_round_played_with_the_keyboard_only(guarded, site):
    page = open_table(guarded, site, players=3, bots="easy")
    focused = "document.activeElement.getAttribute('data-move') || ''"
    took = False
    for _ in range(30):
        page.wait_for_selector(YOUR_TURN, timeout=30_000)
        # On every turn focus is already on a control for the next move.
        move = page.evaluate(focused)
        assert move, page.evaluate("document.activeElement.outerHTML")
        if took:
            break  # a new round has begun and the focus waits on its first move
        if move == "draw" and page.locator(".frow.can-take").count() == 0:
            page.keyboard.press("Enter")
            page.wait_for_selector(".frow.can-place")
            assert page.evaluate(focused).startswith("place")
            page.keyboard.press("Enter")
        else:
            for _ in range(40):
                if page.evaluate(focused).startswith("take"):
                    break
                page.keyboard.press("Tab")
            assert page.evaluate(focused).startswith("take")
            page.keyboard.press("Enter")
            took = True
    assert took
    assert "round 2" in page.locator(".deck-info").inner_text()


def test_bots_never_freeze_the_page(guarded, site, thinking_watch):
    page = open_table(guarded, site, players=4, bots="hard", speed="instant")
    for _ in range(6):
        page.wait_for_selector(ACTIONS, timeout=60_000)
        if page.locator(END).count():
            break
        human_turn(page, prefer_take=False)
    thinking_watch.assert_no_freeze()


def test_leaving_or_starting_anew_asks_first_and_the_game_resumes_after_a_reload(guarded, site):
    # At "fast" speed the bots' cards travel (web/table.py fly/send); a failed animation
    # would log a console error and fail this test.
    page = open_table(guarded, site, players=2, bots="easy", speed="fast")
    page.wait_for_selector(YOUR_TURN, timeout=30_000)
    human_turn(page, prefer_take=False)
    page.wait_for_selector(ACTIONS, timeout=30_000)
    deck_before = page.locator(".deck-back").inner_text()
    page.click("a.back")
    page.wait_for_selector("dialog[data-role=confirm][open]")
    page.click("[data-action=confirm-no]")
    assert page.url.endswith("#/fileiras") and page.locator(".fboard").is_visible()
    page.click("a.back")
    page.click("[data-action=confirm-yes]")
    page.wait_for_selector("#home:not([hidden])")
    page.click('a.game-card[data-game="fileiras"]')
    page.wait_for_selector("[data-action=resume]")
    page.click("[data-action=start]")  # a new game would replace the saved one: asks first
    page.wait_for_selector("dialog[data-role=confirm][open]")
    page.click("[data-action=confirm-no]")
    page.reload()
    guarded.wait_ready()
    page.click("[data-action=resume]")
    page.wait_for_selector(ACTIONS, timeout=30_000)
    assert page.locator(".deck-back").inner_text() == deck_before


def test_an_unusable_save_is_reported_in_plain_words_and_kept_as_a_backup(guarded, site):
    corrupt = '{"format": 1, "x"'
    # A person's name is data, never markup: a save naming one with markup is refused.
    tampered = TableSession(FileirasGame(), {}, 7, ["human", "human:Ana", "easy"]).save()
    tampered = tampered.replace("human:Ana", "human:<img src=x onerror=alert(1)>")
    page = guarded.page
    page.goto(site + "#/")
    guarded.wait_ready()
    for bad in (corrupt, tampered):
        page.evaluate("([key, value]) => localStorage.setItem(key, value)", [SAVE, bad])
        page.click('a.game-card[data-game="fileiras"]')
        page.wait_for_selector("[data-role=setup]")
        notice = page.locator(".setup .notice").inner_text()
        assert "could not be read" in notice and "set aside" in notice
        assert not any(ch in notice for ch in "{}[]") and "Error" not in notice
        assert page.evaluate(f"localStorage.getItem('{SAVE}.backup')") == bad
        assert page.evaluate(f"localStorage.getItem('{SAVE}')") is None
        assert page.locator("[data-action=resume]").count() == 0
        page.click("a.back")  # nothing in progress: leaves without asking
        page.wait_for_selector("#home:not([hidden])")
    page.click('a.game-card[data-game="fileiras"]')
    page.click("[data-action=start]")
    page.wait_for_selector(".fboard")


def test_refused_storage_falls_back_to_memory_and_says_so_once(guarded, site):
    page = guarded.page
    page.add_init_script(REFUSE_STORAGE)
    page = guarded.open_setup(site, "fileiras")
    assert "cannot be resumed" in page.locator(".setup .notice").inner_text()
    choose_speed(page, "instant")
    page.click("[data-action=start]")
    page.wait_for_selector(YOUR_TURN, timeout=30_000)
    human_turn(page, prefer_take=False)
    page.wait_for_selector(ACTIONS, timeout=30_000)
    page.click("a.back")
    page.click("[data-action=confirm-yes]")
    page.click('a.game-card[data-game="fileiras"]')
    page.wait_for_selector("[data-action=resume]")  # kept in memory while the page lives
    assert page.locator(".setup .notice").count() == 0  # said once


def test_landing_and_set_up_pass_the_accessibility_audit(guarded, site, axe_audit):
    page = guarded.page
    page.goto(site)
    guarded.wait_ready()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_audit(page) == [], f"landing page, {scheme}"
    page.click('a.game-card[data-game="fileiras"]')
    page.wait_for_selector("[data-role=setup]")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_audit(page) == [], f"set-up, {scheme}"
    page.click("#game-tools [data-action=rules]")
    page.wait_for_selector("dialog[data-role=rules][open]")
    rules = page.locator("dialog[data-role=rules]").inner_text()
    assert "three of your colours score plus" in rules  # the how-to-play (docs/howto)
    assert "set-up screen" in rules  # options: not chosen yet
    assert axe_audit(page) == [], "rules drawer"
