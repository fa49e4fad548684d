"""Each game played to its end on a phone (390x844, a touch screen), by tapping only, in
Portuguese or Catalan (its set-up and first decision measured in the other one first).

At every decision of the person (and at each step of it: a die picked, a card drawn)
every enabled target of the page (what it marks as playable or clickable, and the game
bar's tools) is measured by ``touch_targets`` (conftest.py): at least 40 px on its short
side, the game bar's at least 32 px, and nothing scrolls sideways.  A picked die brings
the places it may go to into view by itself.  Mid-game, the same page at 1280x800 fits
one screen.  The smallest sizes seen are printed (run with ``-s``).  One page per game;
pages are ``guarded`` (a console error, a page error or a foreign request fails).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e import test_optimus as optimus_e2e
from tests.e2e import test_optimus2 as optimus2_e2e
from tests.e2e.conftest import DESKTOP, PHONE, TouchTargets, english_on_screen

YOUR_TURN = ".status.you"
END = "dialog[data-role=end][open]"
ACTIONS = f"{YOUR_TURN}, {END}"
LEAST, BAR_LEAST = 40, 32

ONE_SCREEN = """() => {
  const w = innerWidth, h = innerHeight, bad = [];
  for (const el of document.querySelectorAll('#main *')) {
    const o = getComputedStyle(el).overflowY;
    if ((o === 'auto' || o === 'scroll') && el.scrollHeight > el.clientHeight + 1 &&
        !el.matches('.log ol')) bad.push(`${el.className} scrolls`);
  }
  const s = document.scrollingElement;
  if (s.scrollHeight > h || s.scrollWidth > w) bad.push(`page ${s.scrollWidth}x${s.scrollHeight}`);
  for (const el of document.querySelectorAll('.game-bar, .status, .board, .panel, .log')) {
    const r = el.getBoundingClientRect();
    if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5)
      bad.push(`${el.className} at ${Math.round(r.left)},${Math.round(r.top)} to ` +
               `${Math.round(r.right)},${Math.round(r.bottom)}`);
  }
  return bad; }"""
"""What does not fit one screen (the log's list scrolls in its own box)."""

IN_VIEW = """([targets, bars]) => {
  const nodes = [...document.querySelectorAll(targets)];
  if (!nodes.length) return true;
  const screen = document.querySelector('[data-role=screen]').getBoundingClientRect();
  let bottom = Math.min(screen.bottom, innerHeight);
  for (const bar of document.querySelectorAll(bars))
    bottom = Math.min(bottom, bar.getBoundingClientRect().top);
  const rects = nodes.map(n => n.getBoundingClientRect());
  const top = Math.min(...rects.map(r => r.top)), end = Math.max(...rects.map(r => r.bottom));
  // taller than the view with a margin of 4 px above and below: the first ones show
  if (end - top + 8 > bottom - screen.top) return top >= screen.top - 1 && top < bottom;
  return top >= screen.top - 1 && end <= bottom + 1; }"""
"""Whether the places a picked die may go to show between the screen's top and the sticky
bar of controls (all of them, or the first ones when they are taller than the view)."""


class Sizes:
    """The measurements of one game, every one checked: the smallest sizes seen."""

    def __init__(
        self, page: Any, measure: Callable[..., TouchTargets], game: str, screen: str = "390x844"
    ) -> None:
        self.page, self.measure, self.game, self.screen = page, measure, game, screen
        self.board: float = float("inf")
        self.bar: float = float("inf")
        self.checks = 0
        self.langs: list[str] = []

    def check(self, where: str) -> None:
        found = self.measure(self.page, LEAST, BAR_LEAST)
        assert found.small == [], f"{self.game}, {where}: too small to tap: {found.small}"
        assert found.sideways == [], f"{self.game}, {where}: {found.sideways}"
        assert found.board is not None, f"{self.game}, {where}: nothing to tap"
        self.board = min(self.board, found.board)
        if found.bar is not None:
            self.bar = min(self.bar, found.bar)
        self.checks += 1

    def report(self) -> str:
        line = (
            f"{self.game} at {self.screen} ({', '.join(self.langs)}): {self.checks} decisions "
            f"measured; smallest target "
            f"{self.board:.1f} px, smallest game bar item {self.bar:.1f} px"
        )
        print(line)
        return line


def start(guarded: Any, site: str, game: str, players: int, instant: Any, sizes: Sizes) -> Any:
    """``game`` against easy bots playing at once, started by a tap, in the language of
    ``sizes`` (its set-up measured)."""
    page = guarded.open_setup(site, game, players, lang=sizes.langs[-1])
    for i in range(players - 1):
        page.select_option(f"select[name=bot{i}]", "easy")
    instant(page)
    sizes.check(f"set-up in {sizes.langs[-1]}")
    page.tap("[data-action=start]")
    return page


def speak(page: Any, sizes: Sizes, lang: str) -> None:
    """Switch the table to ``lang`` with the game bar's language switch (the game goes on
    where it was)."""
    page.select_option("#game .game-bar select[data-language]", lang)
    page.wait_for_function(f"document.documentElement.lang.startsWith('{lang}')")
    sizes.langs.append(lang)


def speaks(page: Any, sizes: Sizes, where: str) -> None:
    """No English on the page in the language it is played in (test_languages.py plays
    these games to their end in the other language)."""
    lang = sizes.langs[-1]
    left = english_on_screen(page, lang)
    assert not left, f"{sizes.game}: English on the {where} in {lang}: {left}"


def play(
    page: Any, sizes: Sizes, decide: Callable[[], Any], ended: Callable[[], Any], axe_audit: Any
) -> int:
    """The person's decisions made by ``decide`` until the end screen (checked by
    ``ended``), every one measured first, the end screen and the final table too; at the
    fourth decision, the desktop's check (``fits_the_desktop``): how many decisions."""
    for n in range(400):
        page.wait_for_selector(ACTIONS, timeout=60_000)
        if page.locator(END).count():
            ended()
            sizes.check("end screen")
            speaks(page, sizes, "end screen")
            page.tap(f"{END} [data-action=see-table]")
            page.wait_for_selector("dialog[data-role=end]:not([open])", state="attached")
            sizes.check("final table")
            sizes.report()
            return n
        sizes.check(f"decision {n}")
        if n % 10 == 0:
            speaks(page, sizes, f"decision {n}")
        decide()
        if n == 3:
            fits_the_desktop(page, sizes.game, axe_audit)
    raise AssertionError(f"{sizes.game}: the game did not end")


def fits_the_desktop(page: Any, game: str, axe_audit: Callable[[Any], list[str]]) -> None:
    """Mid-game: axe finds nothing on the phone; at 1280x800 the table fits one screen."""
    assert axe_audit(page) == [], f"{game} on a phone"
    page.set_viewport_size(DESKTOP)
    page.wait_for_function(f"innerWidth === {DESKTOP['width']}")
    bad = page.evaluate(ONE_SCREEN)
    page.set_viewport_size(PHONE)
    page.wait_for_function(f"innerWidth === {PHONE['width']}")
    assert bad == [], f"{game} at 1280x800: {bad}"


# -- Optimus: dice, then boxes (tapped, or marked by dragging a finger), then Confirm ----
def touch_drag(page: Any, points: list[tuple[float, float]]) -> None:
    """A finger pressed at the first point, moved through the others (a tenth of a second
    each), held still on the last, lifted: no fling (the tap that stops a fling is not a
    click)."""
    cdp = page.context.new_cdp_session(page)
    at = time.time()
    held = [*points, points[-1]]
    try:
        for n, (x, y) in enumerate(held):
            kind = "touchStart" if n == 0 else "touchMove"
            touch = {"type": kind, "touchPoints": [{"x": x, "y": y}], "timestamp": at + n / 10}
            cdp.send("Input.dispatchTouchEvent", touch)
        end = {"type": "touchEnd", "touchPoints": [], "timestamp": at + len(held) / 10}
        cdp.send("Input.dispatchTouchEvent", end)
    finally:
        cdp.detach()


def drag_boxes(page: Any, move: str, boxes: list[int]) -> None:
    """Mark the boxes of ``move`` by dragging a finger over them (all in view already)."""
    names = {i: move.split()[1 + boxes.index(i)] for i in boxes}
    points = []
    for i in optimus_e2e.walk(boxes):
        box = page.locator(f'button.cell[data-box="{names[i]}"]').bounding_box()
        points.append((box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
    touch_drag(page, points)


SCROLLED = "document.querySelector('[data-role=screen]').scrollTop"
SWIPE_FROM = """(way) => {
  const view = document.querySelector('[data-role=screen]').getBoundingClientRect();
  const bottom = document.querySelector('.markbar').getBoundingClientRect().top;
  for (const cell of document.querySelectorAll('.ogrid.big button.cell.free:not(.target)')) {
    const r = cell.getBoundingClientRect(), y = r.top + r.height / 2;
    if (y - view.top > 10 + Math.max(0, way) && bottom - y > 10 + Math.max(0, -way))
      return [r.left + r.width / 2, y];
  }
  return null; }"""


def swipe_a_box_not_lit(page: Any) -> float:
    """A finger that starts on a box the dice cannot mark, moved 180 px up (or down, at the
    bottom of the screen), scrolls the screen and marks nothing; how far it scrolled."""
    before = float(page.evaluate(SCROLLED))
    way = -180 if before > 200 else 180  # the finger's way down, or up
    start = page.evaluate(SWIPE_FROM, way)
    assert start, "no box that is not lit to swipe on"
    x, y = start
    touch_drag(page, [(x, y), (x, y - way / 3), (x, y - 2 * way / 3), (x, y - way)])
    page.wait_for_function(f"Math.abs({SCROLLED} - {before}) > 60")
    assert page.locator(".ogrid.big .cell.pencil").count() == 0
    return float(page.evaluate(SCROLLED)) - before


def optimus_turn(page: Any, sizes: Sizes, done: list[str]) -> None:
    """The person's decision, tapped (one marking of two boxes or more dragged instead)."""
    state = optimus_e2e.current_state(page)
    assert 0 in state.actors()
    before = len(optimus_e2e.saved(page)["events"])
    move = optimus_e2e.greedy(state, 0)
    if move == "pass":
        page.tap("button[data-move=pass]")
    else:
        boxes = optimus_e2e.pick_dice(page, state, move, tap=True)
        # The boxes the dice may mark come into view by themselves (above the marking bar).
        if move[0] != "x" and move[1] != "?":
            page.wait_for_function(IN_VIEW, arg=[".ogrid.big .cell.target", ".markbar"])
        sizes.check(f"{move}, dice picked")
        if "swipe" not in done:
            swipe_a_box_not_lit(page)
            done.append("swipe")
        if len(boxes) > 1 and "drag" not in done:
            drag_boxes(page, move, boxes)
            done.append("drag")
        else:
            for i in boxes:
                page.tap(f'button.cell[data-box="{move.split()[1 + boxes.index(i)]}"]')
        assert page.locator(".ogrid.big .cell.pencil").count() == len(boxes)
        assert page.locator("button.confirm").get_attribute("data-move") == move
        page.tap("button.confirm")
    page.wait_for_function(optimus_e2e.GROWN, arg=[optimus_e2e.SAVE, before])


# -- Optimus 2: a die, then a lit cell; bonus questions; roll, end, pass ------------------
def optimus2_step(page: Any, sizes: Sizes, done: list[str]) -> None:
    did = optimus2_e2e.one_click(page, len(done), tap=True)
    done.append(did.split()[0])
    if did.startswith("die"):  # the areas it may go to come into view by themselves
        page.wait_for_function(IN_VIEW, arg=[".o2sheet .area:has(.target)", ".o2controls"])
        sizes.check(did)


# -- Fileiras: the deck, then a row's free slot; or a row taken ---------------------------
def fileiras_turn(page: Any, sizes: Sizes, done: list[str]) -> None:
    takes = page.locator(".frow.can-take")
    if page.locator(".deck[data-move=draw]").count() and not (len(done) % 3 == 2 and takes.count()):
        page.tap(".deck[data-move=draw]")
        page.wait_for_selector(".frow.can-place .slot")
        sizes.check("a card drawn")
        page.locator(".frow.can-place .slot").first.tap()
        done.append("draw")
    else:
        takes.first.tap()
        done.append("take")


# -- the three games ----------------------------------------------------------------------
TURNS: dict[str, tuple[int, Callable[[Any, Sizes, list[str]], None], set[str], str, str]] = {
    "optimus": (2, optimus_turn, {"swipe", "drag"}, "ca", "pt"),
    "optimus2": (2, optimus2_step, {"die"}, "pt", "ca"),
    "fileiras": (3, fileiras_turn, {"draw", "take"}, "ca", "pt"),
}
"""Each game: its players (the person first, easy bots), the person's decision made by
tapping, what the person must have done in the game (besides tapping), the language of
its set-up and first decision, and the language it is played in to the end."""


@pytest.mark.parametrize("game", list(TURNS))
def test_a_whole_game_played_by_tapping_on_a_phone(
    guarded_phone, site, touch_targets, axe_audit, fileiras, game
):
    players, turn, expected, first, then = TURNS[game]
    sizes = Sizes(guarded_phone.page, touch_targets, game)
    sizes.langs.append(first)
    page = start(guarded_phone, site, game, players, fileiras.instant, sizes)
    page.wait_for_selector(YOUR_TURN, timeout=60_000)
    sizes.check(f"first decision in {first}")
    speak(page, sizes, then)
    page.wait_for_selector(YOUR_TURN, timeout=60_000)
    if game == "optimus":  # the sheet is turned: 7 columns (the sheet's rows), 15 rows
        tops = page.evaluate(
            """() => [...document.querySelectorAll('.ogrid.big .cell')].map(c =>
                Math.round(c.getBoundingClientRect().top))"""
        )
        assert len(set(tops)) == 15 and len(tops) == 105
    done: list[str] = []
    play(page, sizes, lambda: turn(page, sizes, done), guarded_phone.final_state, axe_audit)
    assert expected <= set(done), done
