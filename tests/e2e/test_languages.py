"""The site in Brazilian Portuguese and Catalan, in real Chromium: no English on screen.

Each game is played to its end by clicking, at phone size (390x844), once with a
Portuguese browser and once with a ``?lang=ca`` link; at every step of the way
(landing, set-up, the table as the game goes, the how-to-play drawer, the end
screen) the page's text, its accessible names and its title hold no phrase of the
English catalogs (``sitebuild.i18n.english_phrases``), ``<html lang>`` says the
language, nothing overflows the width, and axe-core finds nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from sitebuild.i18n import english_left, english_phrases
from tests.e2e import test_optimus as optimus_e2e
from tests.e2e import test_optimus2 as optimus2_e2e
from tests.e2e.conftest import SCREEN_TEXT, press_tool

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
TAGS = {"pt": "pt-BR", "ca": "ca", "en": "en"}
OVERFLOW = """() => {
  const s = document.scrollingElement, bad = [];
  if (s.scrollWidth > innerWidth) bad.push(`the page is ${s.scrollWidth}px wide`);
  for (const el of document.querySelectorAll('button, .btn, select, h1, h2')) {
    if (!el.getClientRects().length || el.closest('[hidden], dialog:not([open])')) continue;
    const r = el.getBoundingClientRect();
    const what = `${el.tagName} “${el.textContent.trim()}”`;
    if (r.right > innerWidth + 0.5) bad.push(`${what} ends at ${r.right}`);
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'auto')
      bad.push(`clipped ${what}`);
  }
  return bad;
}"""


class Screen:
    """Checks one page in one language, step after step."""

    def __init__(self, page: Any, lang: str, axe: Callable[[Any], list[str]]) -> None:
        self.page = page
        self.lang = lang
        self.axe = axe
        self.phrases = english_phrases(lang)
        assert len(self.phrases) > 100, "the catalogs are not translated"

    def check(self, where: str, audit: bool = False) -> None:
        page = self.page
        assert page.evaluate("document.documentElement.lang") == TAGS[self.lang], where
        left = english_left(page.evaluate(SCREEN_TEXT), self.phrases)
        assert not left, f"English on the {where} in {self.lang}: {left}"
        bad = page.evaluate(OVERFLOW)
        assert not bad, f"overflow on the {where} in {self.lang}: {bad}"
        if audit:
            assert self.axe(page) == [], f"axe on the {where} in {self.lang}"
            # The same screen on a desktop (the longer words must fit there too).
            page.set_viewport_size(DESKTOP)
            page.wait_for_function(f"innerWidth === {DESKTOP['width']}")
            bad = page.evaluate(OVERFLOW)
            page.set_viewport_size(PHONE)
            page.wait_for_function(f"innerWidth === {PHONE['width']}")
            assert not bad, f"overflow on the {where} in {self.lang} at 1280x800: {bad}"

    def rules_drawer(self) -> None:
        page = self.page
        page.click("#game-tools [data-action=rules]")
        drawer = page.locator("dialog[data-role=rules][open]")
        drawer.wait_for()
        assert drawer.locator("h3").count() >= 3, "the how-to-play is there, with its sections"
        self.check("how-to-play drawer", audit=True)
        page.keyboard.press("Escape")
        page.wait_for_selector("dialog[data-role=rules]:not([open])", state="attached")


def open_in(browser: Any, guard_context: Any, site: str, lang: str, how: str) -> Any:
    """A guarded phone-sized page speaking ``lang``, chosen by the browser's language
    (``how="browser"``) or by a ``?lang=`` link (in an English browser)."""
    locale = {"pt": "pt-BR", "ca": "ca-ES"}[lang] if how == "browser" else "en-US"
    context = browser.new_context(viewport=PHONE, locale=locale, service_workers="block")
    return guard_context(context, _origin(site))


def _origin(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


GAMES = [
    ("optimus", "pt", "browser", False),
    ("optimus", "ca", "link", True),
    ("optimus2", "pt", "browser", True),
    ("optimus2", "ca", "link", False),
    ("fileiras", "pt", "link", False),
    ("fileiras", "ca", "browser", True),
]
"""Each game in each language, by both ways of choosing it; played to its end in one
language here (``True``), in the other by tests/e2e/test_phone.py, which checks its
words too (the first turns only here)."""
FIRST_TURNS = 15
"""How far a game goes here when test_phone.py plays it to its end in that language."""


class Enough(Exception):
    """The first turns are checked: the game goes no further."""


@pytest.mark.parametrize(("game", "lang", "how", "to_end"), GAMES)
def test_a_game_speaks_the_language(
    browser, guard_context, site, axe_audit, fileiras, game, lang, how, to_end
):
    with open_in(browser, guard_context, site, lang, how) as guarded:
        page = guarded.page
        query = f"?lang={lang}" if how == "link" else ""
        page.goto(f"{site}{query}#/")
        screen = Screen(page, lang, axe_audit)
        screen.check("landing, before Python")
        guarded.wait_ready()
        screen.check("landing", audit=True)
        page.goto(f"{site}{query}#/{game}")
        page.wait_for_selector("[data-role=setup]")
        screen.check("set-up screen", audit=True)
        steps = {"n": 0}

        def each_step() -> None:
            steps["n"] += 1
            if not to_end and steps["n"] > FIRST_TURNS:
                raise Enough
            if steps["n"] % 7 == 1:
                screen.check(f"table (turn {steps['n']})")

        try:
            if game == "fileiras":
                page.select_option(fileiras.players, "3")
                fileiras.instant(page)
                page.click(fileiras.start)
                page.wait_for_selector(fileiras.your_turn)
                screen.rules_drawer()
                fileiras.finish(page, each_step)
            elif game == "optimus2":
                page.select_option("select[name=players]", "2")
                press_tool(page, "[data-action=settings]")
                page.select_option("dialog[open] select[name=speed]", "instant")
                # "Bots think: carefully" is offered in the language, and the table's bots
                # then share its clock (the page publishes the clock in use)
                thinking = "dialog[open] select[name=thinking]"
                labels = page.locator(f"{thinking} option").all_inner_texts()
                assert len(labels) == 2 and not {"Quickly (about a second)"} & set(labels)
                page.select_option(thinking, "careful")
                page.click("dialog[open] [data-action=close]")
                page.wait_for_selector("dialog[data-role=settings]:not([open])", state="attached")
                page.click("[data-action=start]")
                page.wait_for_selector(optimus2_e2e.ACTIONS)
                page.wait_for_function(
                    "JSON.parse(window.optimusBotTime || '{}')['clock'] === 4000"
                )
                stored = page.evaluate("localStorage.getItem('optimus-table.optimus2.settings')")
                assert json.loads(stored)["thinking"] == "careful"
                screen.rules_drawer()
                clicks = 0
                while not page.locator(optimus2_e2e.END).count():
                    page.wait_for_selector(optimus2_e2e.ACTIONS, timeout=60_000)
                    if page.locator(optimus2_e2e.END).count():
                        break
                    optimus2_e2e.one_click(page, clicks)
                    clicks += 1
                    each_step()
                    assert clicks < 400, "the game does not end"
            else:
                page.select_option("select[name=players]", "1")
                guarded.bot_speed("instant")
                page.click("[data-action=start]")
                page.wait_for_selector(optimus_e2e.YOUR_TURN)
                screen.rules_drawer()
                turns = 0
                while True:
                    page.wait_for_selector(optimus_e2e.ACTIONS, timeout=60_000)
                    if page.locator(optimus_e2e.END).count():
                        break
                    state = optimus_e2e.current_state(page)
                    before = len(optimus_e2e.saved(page)["events"])
                    optimus_e2e.click_move(page, state, optimus_e2e.greedy(state, 0))
                    page.wait_for_function(optimus_e2e.GROWN, arg=[optimus_e2e.SAVE, before])
                    turns += 1
                    each_step()
                    assert turns < 60, "the game does not end"
        except Enough:  # played to its end in this language by test_phone.py
            screen.check(f"table (turn {steps['n']})", audit=True)
            return
        page.wait_for_selector("dialog[data-role=end][open]")
        guarded.final_state()
        screen.check("end screen", audit=True)


def test_switching_the_language_keeps_the_game_and_is_remembered(guarded, site, fileiras):
    page = guarded.page
    page.goto(f"{site}#/fileiras")
    guarded.wait_ready()
    page.wait_for_selector(fileiras.setup)
    assert page.evaluate("document.documentElement.lang") == "en"
    page.select_option(fileiras.players, "2")
    fileiras.instant(page)
    page.click(fileiras.start)
    page.wait_for_selector(fileiras.your_turn)
    page.click(fileiras.draw)
    page.locator(fileiras.place).first.click()
    page.wait_for_selector(fileiras.your_turn)
    before = page.evaluate("localStorage.getItem('optimus-table.fileiras.save')")
    page.select_option("#game .game-bar select[data-language]", "ca")
    page.wait_for_function("document.documentElement.lang === 'ca'")
    page.wait_for_selector(fileiras.your_turn)
    assert not english_left(page.evaluate(SCREEN_TEXT), english_phrases("ca"))
    assert page.evaluate("localStorage.getItem('optimus-table.fileiras.save')") == before
    assert page.locator(".log li").count() >= 2, "the game's log is still there"
    page.reload()
    guarded.wait_ready()
    assert page.evaluate("document.documentElement.lang") == "ca"
    assert page.evaluate("localStorage.getItem('optimus-table.lang')") == "ca"


def test_an_unknown_language_in_a_link_is_ignored(guarded, site):
    page = guarded.page
    page.goto(f"{site}?lang=%3Cimg%20src=x%3E#/")
    guarded.wait_ready()
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("img[src=x]").count() == 0


SWITCHES = """() => [...document.querySelectorAll('.language-switch')]
  .filter((s) => s.getClientRects().length && !s.closest('[hidden]'))
  .map((s) => {
    const face = s.querySelector('.language-code'), select = s.querySelector('select');
    const r = face.getBoundingClientRect(), o = select.getBoundingClientRect();
    return {text: face.innerText, whole: face.scrollWidth <= face.clientWidth + 0.5,
            width: r.width, height: r.height, inside: r.left >= 0 && r.right <= innerWidth,
            covered: o.left <= r.left + 0.5 && o.right >= r.right - 0.5
              && o.top <= r.top + 0.5 && o.bottom >= r.bottom - 0.5};
  })"""
"""Each language switch in view: its face (the code), whole, in the screen, under its select."""


def test_on_a_phone_the_switch_shows_its_code_whole_and_its_choice_beats_the_link(guarded, site):
    page = guarded.page
    page.set_viewport_size(PHONE)
    page.goto(f"{site}?lang=pt#/")
    guarded.wait_ready()
    page.goto(f"{site}?lang=pt#/fileiras")
    page.wait_for_selector("[data-role=setup]")
    for where in ("#/", "#/fileiras"):  # the landing's header, then the game bar
        page.evaluate(f"location.hash = '{where}'")
        page.wait_for_function(
            "document.getElementById('game').hidden === (location.hash === '#/')"
        )
        [switch] = page.evaluate(SWITCHES)
        assert switch["text"] == "PT" and switch["whole"] and switch["inside"], (where, switch)
        assert switch["covered"], "a tap on the face opens the select with the whole names"
        assert switch["height"] >= 32 and switch["width"] >= 40, (where, switch)
    names = page.locator("#game .game-bar select[data-language] option").all_inner_texts()
    assert names == ["English", "Português (Brasil)", "Català"]
    # The switch rewrites the address's ?lang=, so the link's language no longer wins
    # after a reload: the choice stays.
    page.select_option("#game .game-bar select[data-language]", "ca")
    page.wait_for_function("document.documentElement.lang === 'ca'")
    assert "lang=ca" in page.url and page.url.endswith("#/fileiras")
    assert page.evaluate(SWITCHES)[0]["text"] == "CA"
    page.reload()
    guarded.wait_ready()
    page.wait_for_selector("[data-role=setup]")
    assert page.evaluate("document.documentElement.lang") == "ca"
    assert page.evaluate(SWITCHES)[0]["text"] == "CA"
