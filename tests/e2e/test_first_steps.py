"""What a new player trips on (issue 26), in real Chromium: every screen of every game
passes axe-core (experimental rules too) in light and dark mode.

One guarded page per game walks through its screens: the landing page, the set-up,
a table late in a game (resumed from a save made here in CPython, so the bots' marks,
badges and taken cards are on it), the rules drawer, the end screen and the records
page.  Waits are on states, never on time.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from optimus.core.record import Match
from optimus.core.registry import get_game
from optimus.games import listed
from tests.e2e.conftest import press_tool

YOUR_TURN = ".status.you"
END = "dialog[data-role=end][open]"
ACTIONS = f"{YOUR_TURN}, {END}"
GAMES = tuple(info.id for info in listed())
"""The games of the landing page (their descriptions)."""

STRICT_AXE = """async () => {
  const experimental = axe.getRules(['experimental']).map(r => r.ruleId);
  const rules = Object.fromEntries(experimental.map(id => [id, {enabled: true}]));
  return (await axe.run(document, {resultTypes: ["violations"], rules}))
    .violations.map(v => `${v.id} (${v.impact}): ${v.help} -- ` +
      v.nodes.slice(0, 4).map(n => n.target.join(" ") + ": " +
        (n.failureSummary || "").replace(/\\s+/g, " ")).join(" | "))}"""


def late_save(game_id: str, seats: list[str], seed: int = 7) -> str:
    """A save of a game between ``seats`` played with random legal moves up to seat 0's
    last decision: the table late in the game, one decision (or a few) before its end."""
    game = get_game(game_id)
    rnd = random.Random(seed)
    match = Match(game, {"players": len(seats)}, seed)
    last = 0
    while not match.state.is_terminal():
        actors = match.state.actors()
        if 0 in actors:
            last = len(match.record.events)
        seat = actors[0]
        match.play(seat, rnd.choice(list(match.state.legal_moves(seat))))
    data = match.record.to_dict()
    data["events"] = data["events"][:last]
    data["seats"] = seats
    return json.dumps(data)


END_LINES = """() => {
  // Each line of the end screen (a player's heading, each score line): no two of its
  // parts overlap, and each part sits on the line of the others (an icon by its words).
  const bad = [];
  for (const line of document.querySelectorAll(
      'dialog[data-role=end][open] .final h3, dialog[data-role=end][open] .final li')) {
    const parts = [...line.children].filter((el) => el.getClientRects().length)
      .map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
    for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
      const a = parts[i], b = parts[j];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      const [low, high] = a.height < b.height ? [a, b] : [b, a];
      const middle = (low.top + low.bottom) / 2;
      if (w > 1 && h > 1) bad.push('overlap: ' + line.textContent.trim().slice(0, 50));
      else if (middle < high.top - 1 || middle > high.bottom + 1)
        bad.push('not on one line: ' + line.textContent.trim().slice(0, 50));
    }
  }
  return bad; }"""


def audit_both(page: Any, axe_audit: Any, where: str) -> list[str]:
    """axe-core's violations (its experimental rules included) in light and dark mode."""
    axe_audit(page)  # injects axe-core
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found += [f"{where}, {scheme}: {line}" for line in page.evaluate(STRICT_AXE)]
    page.emulate_media(color_scheme="light")
    return found


def one_click(page: Any, game: str) -> None:
    """One click that moves the game on, on the person's turn."""
    if game == "optimus":
        page.click("button[data-move=pass]")
        return
    if game == "fileiras":
        if page.locator(".deck[data-move=draw]").count():
            page.click(".deck[data-move=draw]")
            page.locator(".frow.can-place .slot").first.click()
        else:
            page.locator(".frow.can-take .row-n").first.click()
        return
    for selector in (
        ".o2controls button[data-move^='choose']",
        ".o2controls button[data-move^='write']",
        ".board .o2sheet button.target",
    ):
        if page.locator(selector).count():
            page.locator(selector).first.click()
            return
    dice = page.locator(".dicezone button.die[data-action=die]")
    if dice.count():
        dice.first.click()
        page.wait_for_selector(".board .o2sheet button.target")
        page.locator(".board .o2sheet button.target").first.click()
        return
    for move in ("roll", "end", "done", "pass"):
        button = page.locator(f".o2controls button[data-move={move}]")
        if button.count():
            button.click()
            return
    raise AssertionError("nothing to click: " + page.locator(".status").inner_text())


def finish(page: Any, game: str) -> None:
    for _ in range(100):
        page.wait_for_selector(ACTIONS, timeout=60_000)
        if page.locator(END).count():
            return
        one_click(page, game)
    pytest.fail("the game did not end")


def instant(page: Any) -> None:
    press_tool(page, "[data-action=settings]")
    page.select_option("dialog[open] select[name=speed]", "instant")
    page.click("dialog[open] [data-action=close]")
    page.wait_for_selector("dialog[data-role=settings]:not([open])", state="attached")


@pytest.mark.parametrize("game", GAMES)
def test_every_screen_passes_axe_in_light_and_dark(guarded, site, axe_audit, game):
    page = guarded.page
    page.goto(site)
    guarded.wait_ready()
    found = audit_both(page, axe_audit, "landing")
    page.click(f'a.game-card[data-game="{game}"]')
    page.wait_for_selector("[data-role=setup]")
    found += audit_both(page, axe_audit, "set-up")
    save = late_save(game, ["human", "easy", "easy"])
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"optimus-table.{game}.save", save])
    page.click("a.back")
    page.click(f'a.game-card[data-game="{game}"]')
    page.click("[data-action=resume]")
    instant(page)
    page.wait_for_selector(ACTIONS, timeout=60_000)
    found += audit_both(page, axe_audit, "table")
    page.click("#game-tools [data-action=rules]")
    page.wait_for_selector("dialog[data-role=rules][open]")
    found += audit_both(page, axe_audit, "rules drawer")
    page.click("dialog[data-role=rules][open] [data-action=close]")
    finish(page, game)
    found += audit_both(page, axe_audit, "end screen")
    for size in ({"width": 390, "height": 844}, {"width": 1280, "height": 800}):
        page.set_viewport_size(size)
        assert page.evaluate(END_LINES) == [], size
    page.click(f"{END} [data-action=see-table]")
    page.wait_for_selector("dialog[data-role=end]:not([open])", state="attached")
    found += audit_both(page, axe_audit, "final table")
    page.goto(f"{site}#/records")
    page.wait_for_selector("[data-role=records]")
    found += audit_both(page, axe_audit, "records")
    assert found == []


TARGETS = """(big) => {
  const small = [];
  const seen = new Set();
  const pick = 'button, a[href], select, input, label, [data-move], [data-action], .die';
  for (let el of document.querySelectorAll(pick)) {
    if (el.closest('dialog:not([open])') || !el.getClientRects().length) continue;
    if (el.matches('input') && el.closest('label')) el = el.closest('label');  // its target
    const around = el.parentElement ? el.parentElement.textContent.trim() : '';
    if (el.matches('a') && around !== el.textContent.trim())
      continue;  // a link in a sentence: 2.5.8's inline exception
    if (el.matches('label') && !el.querySelector('input[type=checkbox], input[type=radio]'))
      continue;  // a field's caption, not a target
    if (seen.has(el)) continue;
    seen.add(el);
    const r = el.getBoundingClientRect();
    if (r.width <= 1 && r.height <= 1) continue;  // visually hidden (its label is the target)
    const least = el.matches(big) ? 44 : 24;
    if (r.width < least - 0.5 || r.height < least - 0.5) {
      const what = el.getAttribute('aria-label') || el.textContent.trim().slice(0, 24);
      small.push(`${el.tagName.toLowerCase()}.${el.className} "${what}": ` +
                 `${Math.round(r.width)}x${Math.round(r.height)} < ${least}`);
    }
  }
  return small; }"""
BIG = ".board .die:not(.empty), .board .btn"
"""Dice and the board's controls: 44 px at 1280x800 (WCAG 2.5.5's size where room allows)."""


def small_targets(page: Any, where: str) -> list[str]:
    """Targets under 24 px at both sizes, and dice or board controls under 44 px on the
    desktop (WCAG 2.5.8, 2.5.5)."""
    found = []
    for width, height, big in ((390, 844, ":not(*)"), (1280, 800, BIG)):
        page.set_viewport_size({"width": width, "height": height})
        found += [f"{where} {width}: {line}" for line in page.evaluate(TARGETS, big)]
    return found


def taken_dice_save() -> str:
    """Optimus, two players, the bot active: it has taken its two dice and the person
    (second) chooses from the others."""
    game = get_game("optimus")
    rnd = random.Random(3)
    match = Match(game, {"players": 2}, 3)
    while True:
        state: Any = match.state
        actors = state.actors()
        if state.phase == "others" and tuple(actors) == (1,) and state.active_move != "pass":
            break
        seat = actors[0]
        match.play(seat, rnd.choice(list(state.legal_moves(seat))))
    data = match.record.to_dict()
    data["seats"] = ["easy", "human"]
    return json.dumps(data)


@pytest.mark.parametrize("game", GAMES)
def test_every_target_is_comfortable_to_touch_and_taken_dice_look_taken(guarded, site, game):
    page = guarded.page
    page.goto(f"{site}#/{game}")
    guarded.wait_ready()
    page.wait_for_selector("[data-role=setup]")
    found = small_targets(page, "set-up")
    save = taken_dice_save() if game == "optimus" else late_save(game, ["human", "easy", "easy"])
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"optimus-table.{game}.save", save])
    page.reload()
    guarded.wait_ready()
    page.click("[data-action=resume]")
    page.wait_for_selector(YOUR_TURN, timeout=60_000)
    found += small_targets(page, "table")
    assert found == []
    # Panels name each player by words, never a letter a line (Optimus beside its sheet).
    broken = page.evaluate(
        """() => [...document.querySelectorAll('.panel .pname')].filter(name => {
          const range = document.createRange();
          return name.textContent.split(' ').some((word, i, words) => {
            const start = words.slice(0, i).join(' ').length + (i ? 1 : 0);
            range.setStart(name.firstChild, start);
            range.setEnd(name.firstChild, start + word.length);
            return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
          });
        }).map(name => name.textContent)"""
    )
    assert broken == []
    if game != "optimus":
        return
    # Taken dice: said (aria-label), marked (class) and drawn unlike the others.
    taken = page.locator(".dicebar .die.taken")
    assert taken.count() == 2
    assert all("taken by" in str(d.get_attribute("aria-label")) for d in taken.all())
    look = """(el) => { const s = getComputedStyle(el), a = getComputedStyle(el, '::after');
      return [s.opacity, s.backgroundColor, a.backgroundImage].join(' | '); }"""
    free = page.locator(".dicebar .die:not(.taken)").first.evaluate(look)
    assert all(d.evaluate(look) != free for d in taken.all())


def test_the_landing_offers_to_resume_and_the_set_up_links_to_a_help_page(guarded, site, axe_audit):
    page = guarded.page
    page.goto(site)
    guarded.wait_ready()
    save = late_save("optimus2", ["human", "easy"])
    page.evaluate("(v) => localStorage.setItem('optimus-table.optimus2.save', v)", save)
    page.reload()
    guarded.wait_ready()
    go = {game: page.locator(f'a.game-card[data-game="{game}"] .go').inner_text() for game in GAMES}
    assert go == {"fileiras": "Play", "optimus": "Play", "optimus2": "Resume"}
    assert "Pyodide" not in page.locator("footer.site-footer").inner_text()
    # In another language, the word follows (index.html's script and Python agree).
    page.select_option("header.site-header select.language", "pt")
    page.wait_for_selector('a.game-card[data-game="optimus2"] .go:text-is("Continuar")')
    page.select_option("header.site-header select.language", "en")
    page.click('a.game-card[data-game="optimus2"]')
    page.wait_for_selector("[data-action=resume]")
    setup = page.locator("[data-role=setup]").inner_text()
    assert "docs/" not in setup and ".md" not in setup
    page.click('[data-role=userbots] a[href="#/help"]')
    page.wait_for_selector("[data-role=help]")
    text = page.locator("[data-role=help]").inner_text()
    assert "Add your bot…" in text and "class MyBot(Bot):" in text and "docs/" not in text
    assert audit_both(page, axe_audit, "help") == []
    page.go_back()
    page.wait_for_selector("[data-action=resume]")
    page.goto(site)
    page.wait_for_selector('a.game-card[data-game="optimus2"] .go:text-is("Resume")')


def test_fileiras_on_a_phone_shows_each_opponents_colours_and_counts(guarded, site):
    page = guarded.page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site}#/fileiras")
    guarded.wait_ready()
    save = late_save("fileiras", ["human", "easy", "easy", "easy", "easy"])
    page.evaluate("(v) => localStorage.setItem('optimus-table.fileiras.save', v)", save)
    page.reload()
    guarded.wait_ready()
    page.click("[data-action=resume]")
    page.wait_for_selector(YOUR_TURN, timeout=60_000)
    shown = page.evaluate(
        """() => [...document.querySelectorAll('.panel:not(.you)')].map(panel => {
          const groups = [...panel.querySelectorAll('.psum .group')];
          const seen = groups.filter(g => g.getClientRects().length
            && g.getBoundingClientRect().bottom <= innerHeight);
          return [groups.length, seen.length,
                  seen.map(g => g.querySelector('b').textContent).join(',')]; })"""
    )
    assert len(shown) == 4
    for groups, seen, counts in shown:
        assert groups > 0 and seen == groups, shown  # every colour, on the screen
        assert all(n.isdigit() for n in counts.split(",")), shown
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")


def test_a_long_press_on_a_phone_explains_a_mark_and_plays_nothing(guarded, site):
    """Optimus 2's marks say their bonus on hover; on a touch screen, a finger held on
    one shows the same words (web/hints.py), and lifting it plays nothing."""
    page = guarded.page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site)
    guarded.wait_ready()
    key = "optimus-table.optimus2.save"
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, late_save("optimus2", ["human"])])
    page.evaluate("location.hash = '#/optimus2'")
    page.click("[data-action=resume]")
    page.wait_for_selector(YOUR_TURN)
    mark = page.locator("[data-role=board] [role=img][title^='Bonus']").first
    said = mark.get_attribute("title")
    before = page.evaluate(f"localStorage.getItem('{key}')")
    box = mark.bounding_box()
    at = {"clientX": box["x"] + 2, "clientY": box["y"] + 2, "bubbles": True}
    mark.dispatch_event("pointerdown", {**at, "pointerType": "touch"})
    hint = page.locator("[data-role=hint]:not([hidden])")
    hint.wait_for()
    assert hint.inner_text() == said
    shown = hint.bounding_box()
    assert shown["x"] >= 0 and shown["x"] + shown["width"] <= 390
    mark.dispatch_event("pointerup", {**at, "pointerType": "touch"})
    mark.dispatch_event("click", at)
    page.wait_for_selector("[data-role=hint]", state="hidden")
    assert page.evaluate(f"localStorage.getItem('{key}')") == before  # nothing was played


CHECKS = """() => [...document.querySelectorAll('[data-role=setup] label.check')].map((label) => {
  const box = label.querySelector('input').getBoundingClientRect();
  const first = label.querySelector('span').getClientRects()[0];
  return {beside: box.right <= first.left && box.bottom > first.top && box.top < first.bottom,
          height: label.getBoundingClientRect().height};
})"""
"""Each check box of the set-up form: beside the first line of its words, and how tall its
line (the target a finger can tap) is."""


def test_the_set_up_on_a_phone_has_check_boxes_beside_their_words_and_one_speed(guarded, site):
    page = guarded.page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site}?lang=pt#/")
    guarded.wait_ready()
    boxes = 0
    for game in GAMES:
        page.evaluate(f"location.hash = '#/{game}'")
        title = {"fileiras": "Fileiras", "optimus": "Optimus", "optimus2": "Optimus 2"}[game]
        page.wait_for_function(
            f"document.getElementById('game-title').textContent.trim() === '{title}'"
        )
        page.wait_for_selector("[data-role=setup]")
        checks = page.evaluate(CHECKS)
        assert all(c["beside"] and c["height"] >= 40 for c in checks), (game, checks)
        boxes += len(checks)
        # The bots' speed is in one place for every game: the Settings dialog.
        speeds = page.locator("select[data-setting=speed]")
        assert speeds.count() == 1, game
        assert page.locator("dialog[data-role=settings] select[data-setting=speed]").count() == 1
        press_tool(page, "[data-action=settings]")
        said = page.locator("dialog[data-role=settings][open]").inner_text().lower()
        page.keyboard.press("Escape")
        page.wait_for_selector("dialog[data-role=settings]:not([open])", state="attached")
        assert "velocidade dos bots" in said
        if game != "fileiras":  # a dice game's settings speak of no cards
            assert "carta" not in said, (game, said)
    assert boxes >= 2  # Optimus's colour bonuses, Fileiras' advanced scoring
