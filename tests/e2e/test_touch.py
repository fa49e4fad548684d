"""Teach by touch (issue 36 §2), in Chromium, for the three games.

- No two texts of the table overlap, on a phone (390x844) and a desktop (1280x800),
  at the start of a game and, in Fileiras, with a card drawn and in the last round
  (whose sentence once floated over the deck, the drawn card and "Draw a card").
- A long press on a thing with a meaning shows it in a bubble that is readable (4.5:1
  or more against its own background, light and dark mode), inside the screen and
  not over the thing it explains; the press plays nothing.
- The game bar's "Symbols" lists every symbol of the game with its meaning.

Pages are ``guarded`` (conftest.py); every wait is on a state, never on time.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from optimus import i18n
from sitebuild.i18n import install

from .conftest import press_tool, text_overlaps

YOUR_TURN = ".status.you"
END = "dialog[data-role=end][open]"
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
BUBBLE = "[data-role=hint]"

CONTRAST = """(selector) => {
  const el = document.querySelector(selector), s = getComputedStyle(el);
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(s.color), lum(s.backgroundColor)].sort((x, y) => y - x);
  const opaque = (s.backgroundColor.match(/[\\d.]+/g)[3] ?? '1') === '1';
  return opaque ? (a + 0.05) / (b + 0.05) : 0;
}"""


def start(guarded: Any, site: str, game: str, fileiras: Any, lang: str = "en") -> Any:
    """A game of two (the person first, a bot) at instant speed, at the person's turn,
    in ``lang``."""
    page = guarded.open_setup(site, game, 2)
    if lang != "en":
        page.select_option("#game .game-bar select[data-language]", lang)
        page.wait_for_function(f"document.documentElement.lang.startsWith('{lang}')")
        page.wait_for_selector("[data-role=setup] select[name=players]")
        page.select_option("select[name=players]", "2")
    fileiras.instant(page)  # the Settings dialog of the game bar: the same in every game
    page.click("[data-action=start]")
    page.wait_for_selector(YOUR_TURN, timeout=60_000)
    return page


def overlaps_at_every_size(page: Any) -> dict[str, list[str]]:
    found = {}
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        found[name] = text_overlaps(page)
    page.set_viewport_size({"width": 1280, "height": 800})
    return {k: v for k, v in found.items() if v}


@pytest.mark.parametrize(
    ("game", "lang"), [("optimus", "en"), ("optimus", "pt"), ("optimus2", "en"), ("optimus2", "ca")]
)
def test_no_two_texts_of_the_table_overlap(guarded, site, fileiras, game, lang, screenshot):
    page = start(guarded, site, game, fileiras, lang)
    assert overlaps_at_every_size(page) == {}
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, f"touch-{game}-{lang}-phone")


def test_fileiras_last_round_sentence_overlaps_nothing(guarded, site, fileiras, screenshot):
    """The last round's sentence sits in the deck's column (its own class, not the
    long-press bubble's): no text overlaps, with a card drawn and in the last round."""
    page = start(guarded, site, "fileiras", fileiras, "ca")
    assert overlaps_at_every_size(page) == {}
    page.click(fileiras.draw)
    page.wait_for_selector("[data-role=drawn] .fcard:not(.empty)")
    assert overlaps_at_every_size(page) == {}
    seen: list[dict[str, list[str]]] = []

    def last_round() -> None:
        if not seen and page.locator(".deck-hint.last").count():
            seen.append(overlaps_at_every_size(page))
            hint = page.locator("[data-role=deck-hint]")
            assert hint.evaluate("e => getComputedStyle(e).position") == "static"
            page.set_viewport_size({"width": 390, "height": 844})
            screenshot(page, "touch-fileiras-last-round-phone")
            page.set_viewport_size({"width": 1280, "height": 800})

    page.locator(fileiras.place).first.click()
    fileiras.finish(page, last_round)
    assert seen == [{}]


def long_press(page: Any, selector: str) -> None:
    """A finger resting on ``selector`` (a touch pointer's press, not lifted), brought into
    view first (a finger presses what the screen shows)."""
    page.locator(selector).first.scroll_into_view_if_needed()
    box = page.locator(selector).first.bounding_box()
    assert box is not None
    at = {"clientX": box["x"] + box["width"] / 2, "clientY": box["y"] + box["height"] / 2}
    page.locator(selector).first.dispatch_event(
        "pointerdown", {"pointerType": "touch", "isPrimary": True, "button": 0, **at}
    )


def check_bubble(page: Any, selector: str) -> str:
    """The bubble shown for ``selector``: readable, inside the screen, not over it."""
    page.wait_for_selector(f"{BUBBLE}:not([hidden])")
    bubble = page.locator(BUBBLE).bounding_box()
    thing = page.locator(selector).first.bounding_box()
    assert bubble is not None and thing is not None
    size = page.viewport_size
    assert size is not None
    assert bubble["x"] >= 0 and bubble["y"] >= 0
    assert bubble["x"] + bubble["width"] <= size["width"]
    assert bubble["y"] + bubble["height"] <= size["height"]
    apart = (
        bubble["x"] >= thing["x"] + thing["width"]
        or thing["x"] >= bubble["x"] + bubble["width"]
        or bubble["y"] >= thing["y"] + thing["height"]
        or thing["y"] >= bubble["y"] + bubble["height"]
    )
    assert apart, (bubble, thing)
    ratio = page.evaluate(CONTRAST, BUBBLE)
    assert ratio >= 4.5, ratio
    return str(page.locator(BUBBLE).inner_text())


@pytest.mark.parametrize(
    ("game", "things"),
    [
        ("optimus", [".colhead", "button.die.usable", ".bonus"]),
        ("optimus2", [".dicezone [aria-label]", ".o2sheet [title]"]),
        ("fileiras", [".panel .panel-head", ".deck"]),
    ],
)
def test_a_long_press_explains_in_a_readable_bubble_beside_the_thing(
    guarded, site, fileiras, game, things, axe_audit
):
    page = start(guarded, site, game, fileiras)
    before = page.evaluate("localStorage.getItem(`optimus-table.${location.hash.slice(2)}.save`)")
    for size in SIZES.values():
        page.set_viewport_size({"width": size[0], "height": size[1]})
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            for thing in things:
                long_press(page, thing)
                said = check_bubble(page, thing)
                element = page.locator(thing).first
                meant = element.get_attribute("title") or element.get_attribute("aria-label")
                assert said == (meant or "").strip()
                page.locator(thing).first.dispatch_event("pointerup", {"pointerType": "touch"})
                page.wait_for_selector(BUBBLE, state="hidden")
    long_press(page, things[0])
    page.wait_for_selector(f"{BUBBLE}:not([hidden])")
    assert axe_audit(page) == []
    page.locator(things[0]).first.dispatch_event("pointerup", {"pointerType": "touch"})
    after = page.evaluate("localStorage.getItem(`optimus-table.${location.hash.slice(2)}.save`)")
    assert after == before  # the presses played nothing


def meanings(game: str, lang: str) -> list[str]:
    """The meanings of ``game``'s symbols as its view data says them in ``lang``."""
    install(lang)
    i18n.use(lang)
    try:
        return [s.meaning for s in importlib.import_module(f"optimus.{game}.view").symbols()]
    finally:
        i18n.use("en")


SYMBOLS = "dialog[data-role=symbols][open]"


@pytest.mark.parametrize(
    ("game", "lang"), [("optimus", "pt"), ("optimus2", "ca"), ("fileiras", "pt")]
)
def test_the_symbols_screen_lists_every_symbol_in_the_players_language(
    guarded, site, fileiras, game, lang, axe_audit, screenshot
):
    page = start(guarded, site, game, fileiras)
    press_tool(page, "[data-action=symbols]")
    page.wait_for_selector(SYMBOLS)
    said = page.locator(f"{SYMBOLS} .sym-meaning").all_inner_texts()
    assert said == meanings(game, "en")
    assert page.locator(f"{SYMBOLS} .sym-piece").count() == len(said)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_audit(page) == [], f"symbols, {scheme}"
    page.emulate_media(color_scheme="light")
    page.keyboard.press("Escape")
    page.wait_for_selector(SYMBOLS, state="detached")
    # In the player's language, on a phone: the same screen, every line inside it.
    page.set_viewport_size({"width": 390, "height": 844})
    page.select_option("#game .game-bar select[data-language]", lang)
    page.wait_for_function(f"document.documentElement.lang.startsWith('{lang}')")
    page.wait_for_selector(YOUR_TURN)
    press_tool(page, "[data-action=symbols]")
    page.wait_for_selector(SYMBOLS)
    assert page.locator(f"{SYMBOLS} .sym-meaning").all_inner_texts() == meanings(game, lang)
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    wide = page.evaluate(
        f"""[...document.querySelectorAll('{SYMBOLS} li')]
            .filter(li => li.scrollWidth > li.clientWidth + 1).length"""
    )
    assert wide == 0
    screenshot(page, f"touch-symbols-{game}-{lang}-phone")
