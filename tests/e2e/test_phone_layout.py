"""The phone's layout around the games: the game bar, a phone on its side, today's challenge.

- At 390x844 (touch) in English, Portuguese and Catalan the game bar is one line (every
  item's top the same) with one more tool than today (a stand-in of the size of the
  coming "Hint", in the language's word, unless the real one is there): every item
  32 px or more, its text 13 px or more, nothing scrolls sideways; the "⋯" menu opens
  under it with the tools used less, each 40 px or more, in the screen.  The same in a
  daily challenge, whose title has a line more.  On the set-up, today's challenge is in
  view without scrolling.
- A phone on its side (844x390, touch): each game's first decisions measured as on the
  upright phone (``touch_targets``: 40 px, the bar 32 px, nothing sideways), with the
  status line and the decision's controls in view.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_phone import (
    TURNS,
    YOUR_TURN,
    Sizes,
    optimus_turn,
    speak,
    start,
)

STAND_IN = """(word) => {
  if (document.querySelector('#game-tools [data-action=hint]')) return false;
  const tool = document.createElement('button');
  tool.type = 'button'; tool.className = 'btn tool'; tool.dataset.role = 'stand-in';
  tool.textContent = word;
  document.querySelector('#game-tools [data-action=take-back]').after(tool);
  return true; }"""
"""One more tool in the bar after Undo, as the coming "Hint" (its word: the widest it can
be), unless the real one is there: whether a stand-in was added."""
HINT = {"en": "Hint", "pt": "Dica", "ca": "Pista"}

BAR = """() => {
  const bar = document.querySelector('#game .game-bar');
  const shown = (el) => el.getClientRects().length && !el.closest('[hidden]');
  const items = [...bar.querySelectorAll('a, button, select')]
    .filter(el => shown(el) && !el.closest('[popover]'))
    .map(el => { const r = el.getBoundingClientRect();
      return {name: el.dataset.action || el.dataset.role || el.className, top: r.top,
              bottom: r.bottom, left: r.left, right: r.right,
              short: Math.min(r.width, r.height)}; });
  const small = [];
  const walker = document.createTreeWalker(bar, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !shown(el)) continue;
    if (el.closest('[popover]:not(:popover-open)')) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;  // for screen readers only
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 13) small.push(`"${node.textContent.trim().slice(0, 20)}" ${size} px`);
  }
  const title = document.querySelector('#game-title').getBoundingClientRect();
  return {items, small, title: [title.left, title.right],
          page: document.scrollingElement.scrollWidth, bar: bar.scrollWidth - bar.clientWidth}; }"""
"""The game bar's items (not those of its menu), its texts under 13 px, the title's
sides, the page's width and how far the bar overflows."""

MENU = """() => [...document.querySelectorAll('#game-tools [popover]:popover-open > *')]
  .filter(el => !el.hidden).map(el => { const r = el.getBoundingClientRect();
    return [el.dataset.action || el.dataset.role, r.left, r.top, r.right, r.bottom,
            el.innerText.trim()]; })"""
"""The tools of the bar's open "⋯" menu: name, rect, visible words."""


def one_line(page: Any, lang: str) -> int:
    """The game bar on one line at the phone's width, with one tool more: how many items."""
    page.evaluate(STAND_IN, HINT[lang])
    found = page.evaluate(BAR)
    items = found["items"]
    where = f"{lang}: " + ", ".join(f"{i['name']} at {i['top']:.0f}" for i in items)
    assert len(items) >= 6, where  # back, rules, undo, hint, menu, language
    assert max(i["top"] for i in items) - min(i["top"] for i in items) <= 0.5, where
    assert all(i["short"] >= 31.5 for i in items), where
    assert found["small"] == [], f"{lang}: {found['small']}"
    assert found["page"] <= 390 and found["bar"] <= 0, (lang, found["page"], found["bar"])
    rights = sorted(i["right"] for i in items if i["right"] <= found["title"][0] + 0.5)
    lefts = sorted(i["left"] for i in items if i["left"] >= found["title"][1] - 0.5)
    assert rights and lefts, f"{lang}: the title is not between the back link and the tools"
    return len(items)


def the_menu(page: Any, lang: str) -> list[str]:
    """The bar's "⋯" menu opened with a tap: its tools, with their words, 40 px or more,
    inside the screen; Escape closes it.  Their words."""
    page.tap("#game-tools [data-role=more]")
    page.wait_for_selector("#game-tools [popover]:popover-open")
    tools = page.evaluate(MENU)
    assert len(tools) >= 2, tools
    for name, left, top, right, bottom, words in tools:
        assert words, f"{lang}: {name} says nothing"
        assert min(right - left, bottom - top) >= 40 - 0.5, (lang, name, right - left, bottom - top)
        assert left >= 0 and right <= 390 and top >= 0 and bottom <= 844, (lang, name)
    page.keyboard.press("Escape")
    page.wait_for_selector("#game-tools [popover]:popover-open", state="detached")
    return [str(t[-1]) for t in tools]


def test_the_game_bar_is_one_line_on_a_phone_in_every_language(
    guarded_phone, site, fileiras, touch_targets, axe_audit
):
    # The set-up: today's challenge in view without scrolling (in Portuguese, the longest).
    page = guarded_phone.page
    for game in ("optimus", "optimus2", "fileiras"):
        guarded_phone.open_setup(site, game, lang="pt")
        offer = page.locator("[data-role=daily-offer] a").bounding_box()
        assert offer is not None and offer["y"] + offer["height"] <= 844, (game, offer)
    # Today's challenge, tapped: its title says so in a line more; the bar is one line
    # still, with the stand-in of the Hint beside Undo; then in the other languages.
    fileiras.instant(page)
    page.tap("[data-role=daily-offer] a")
    page.wait_for_selector("[data-role=title-note]")
    page.wait_for_selector(YOUR_TURN, timeout=60_000)
    sizes = Sizes(page, touch_targets, "fileiras")
    sizes.langs.append("pt")
    words = {}
    for lang in ("pt", "ca", "en"):
        if lang != "pt":
            speak(page, sizes, lang)
            page.wait_for_selector(YOUR_TURN)
        assert page.locator("[data-role=title-note]").count() == 1
        one_line(page, lang)
        sizes.check(f"the bar in {lang}")
        words[lang] = the_menu(page, lang)
    assert len({tuple(w) for w in words.values()}) == 3, words  # said in each language
    page.tap("#game-tools [data-role=more]")
    assert axe_audit(page) == [], "the bar's menu open"
    page.tap("#game-tools [data-action=settings]")  # a tool of the menu: the menu closes
    page.wait_for_selector("dialog[data-role=settings][open]")
    assert page.locator("#game-tools [popover]:popover-open").count() == 0


CONTROLS = {"optimus": ".markbar", "optimus2": ".o2controls:not(:empty)", "fileiras": ".deckbar"}
"""The bar of the decision's controls of each game (in view while the sheet shows)."""

IN_SCREEN = """(selectors) => selectors.flatMap(sel => [...document.querySelectorAll(sel)])
  .filter(el => el.getClientRects().length).map(el => { const r = el.getBoundingClientRect();
    return r.top >= -0.5 && r.bottom <= innerHeight + 0.5 && r.left >= -0.5 &&
      r.right <= innerWidth + 0.5 ? '' : `${el.className} at ${Math.round(r.top)} to ` +
      `${Math.round(r.bottom)}`; }).filter(Boolean)"""
"""What of ``selectors`` is shown but not whole in the screen."""


@pytest.mark.parametrize("game", list(TURNS))
def test_a_phone_on_its_side_plays_every_game(
    guarded_landscape, site, touch_targets, fileiras, game
):
    players, turn, _expected, _first, _then = TURNS[game]
    sizes = Sizes(guarded_landscape.page, touch_targets, game, screen="844x390")
    sizes.langs.append("en")
    page = start(guarded_landscape, site, game, players, fileiras.instant, sizes)
    # Tapped, not dragged nor swiped (the upright phone's test does those).
    done: list[str] = ["swipe", "drag"] if turn is optimus_turn else []
    for n in range(5):  # (Optimus 2: a die, then its place, ...)
        page.wait_for_selector(YOUR_TURN, timeout=60_000)
        sizes.check(f"decision {n}")
        assert page.evaluate(IN_SCREEN, [".status", CONTROLS[game]]) == [], n
        turn(page, sizes, done)
    sizes.report()
