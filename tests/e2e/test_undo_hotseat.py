"""Undo and pass-and-play in Chromium, in the three games.

Two people share the device with one bot: the set-up form seats "a person" with a
typed name, each decision of the other person waits behind the hand-over screen
("Pass the device to Ana"), and the names show in the panels and the end screen.
Undo takes back the person's own decisions, by the bar's button and by Ctrl+Z.
Pages are ``guarded`` (conftest.py); every wait is on a state, never on time.
"""

from __future__ import annotations

import json
from typing import Any

from optimus.core.record import CHANCE, Record

from . import test_optimus as o1
from . import test_optimus2 as o2

HANDOVER = "[data-role=handover]:not([hidden])"
END = "dialog[data-role=end][open]"
YOUR_TURN = ".status.you"
UNDO = "#game-tools [data-action=take-back]"
NEXT = f"{YOUR_TURN}, {END}, {HANDOVER}"
OVERFLOW = """() => {
  const w = innerWidth, bad = [];
  if (document.scrollingElement.scrollWidth > w) bad.push('page too wide');
  for (const el of document.querySelectorAll('.handover, .handover *, .game-bar, .status')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.left < -0.5 || r.right > w + 0.5)) bad.push(el.outerHTML.slice(0, 80));
    if (el.matches('.btn') && el.scrollWidth > el.clientWidth + 1) bad.push(el.textContent);
  }
  return bad; }"""


def events(page: Any, game: str) -> list[tuple[int | str, str]]:
    raw = page.evaluate(f"localStorage.getItem('optimus-table.{game}.save')")
    return Record.from_dict(json.loads(raw)).events if raw else []


def seat_people(guarded: Any, site: str, game: str, you: str = "Rui", other: str = "Ana") -> Any:
    """The set-up screen of ``game`` for three: the person first, one more person (named)
    second, an easy bot third; bots play at once."""
    page = guarded.open_setup(site, game, 3, "1")
    page.select_option("select[name=bot0]", "person")
    page.wait_for_selector("input[name=name-bot0]", state="visible")
    page.wait_for_selector("input[name=name-you]", state="visible")
    page.fill("input[name=name-bot0]", other)
    page.fill("input[name=name-you]", you)
    page.press("input[name=name-you]", "Tab")  # the change is taken (and remembered)
    page.select_option("select[name=bot1]", "easy")
    guarded.bot_speed("instant")
    return page


def start(page: Any, board: str) -> None:
    page.click("[data-action=start]")
    page.wait_for_selector(f"{NEXT}")
    if not page.locator(HANDOVER).count():
        page.wait_for_selector(board)


def handed_over(page: Any, names: tuple[str, str], seen: list[str]) -> str:
    """On the hand-over screen: the table is hidden, the next person is named; take it."""
    title = page.locator("[data-role=handover-title]").inner_text()
    name = title.removeprefix("Pass the device to ")
    assert name in names, title
    assert page.locator("[data-role=play]").is_hidden()
    assert page.locator(".status").inner_text().strip() == f"Pass the device to {name}."
    button = page.locator(f"{HANDOVER} [data-action=handover]")
    assert button.inner_text() == f"I am {name}, show my table"
    assert page.evaluate("document.activeElement.dataset.action") == "handover"
    seen.append(name)
    button.click()
    page.wait_for_selector("[data-role=play]:not([hidden])")
    return name


def play_through(page: Any, move: Any, names: tuple[str, str], holder: str = "") -> list[str]:
    """Play every person's decision with ``move(page, step)`` until the end screen,
    taking the device at each hand-over; the names handed to, in order."""
    seen: list[str] = []
    holder = holder or names[0]
    for step in range(600):
        page.wait_for_selector(NEXT, timeout=60_000)
        if page.locator(END).count():
            return seen
        if page.locator(HANDOVER).count():
            holder = handed_over(page, names, seen)
            continue
        you = page.locator(".panel.you .pname").inner_text()
        assert you == holder  # the table is shown from the side of the person to act
        move(page, step)
    raise AssertionError("the game did not end")


def check_names_at_the_end(page: Any, names: tuple[str, str]) -> None:
    end = page.locator(END)
    record = Record.from_json(end.get_attribute("data-record"))
    assert record.events
    headline = end.locator("h2").inner_text()
    assert headline.endswith("wins!") or headline.startswith("Shared victory"), headline
    assert "You win" not in headline
    text = end.inner_text()
    for name in names:
        assert name in text


def test_optimus_two_people_and_a_bot_with_undo_by_button_and_keys(
    guarded, site, axe_audit, screenshot
):
    page = seat_people(guarded, site, "optimus", you="<b>Rui</b>")
    page.select_option("select[name=sheet]", "harbour")
    # A name with markup is refused in words, and the game does not start.
    page.click("[data-action=start]")
    status = page.locator(".status").inner_text()
    assert "“<b>Rui</b>” cannot be a name" in status, status
    assert page.locator("[data-role=setup]").count() == 1
    page.fill("input[name=name-you]", "Rui")
    page.press("input[name=name-you]", "Tab")
    start(page, "[data-role=board] .oboard")
    page.wait_for_selector(YOUR_TURN)
    assert page.locator(".panel.you .pname").inner_text() == "Rui"
    assert page.locator(UNDO).is_disabled()  # the roll was just revealed
    state = o1.current_state(page)
    before = events(page, "optimus")
    assert before[-1][0] == CHANCE
    # Rui passes: the device goes to Ana; Rui can still take it back, from there.
    page.click("button[data-move=pass]")
    page.wait_for_selector(HANDOVER)
    assert events(page, "optimus") == [*before, (0, "pass")]
    assert page.locator(UNDO).is_enabled()
    # The hand-over screen fits a phone and passes axe, in light and dark mode.
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(OVERFLOW) == []
    screenshot(page, "handover-phone")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_audit(page) == [], f"hand-over screen, {scheme}"
    page.emulate_media(color_scheme="light")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click(UNDO)
    page.wait_for_selector(YOUR_TURN)
    assert events(page, "optimus") == before
    assert page.locator(UNDO).is_disabled()
    # Another choice: a marking, made on the dice and boxes; then Ctrl+Z takes it back.
    marking = o1.greedy(state, 0)
    assert marking != "pass"
    o1.click_move(page, state, marking)
    page.wait_for_selector(HANDOVER)
    assert events(page, "optimus") == [*before, (0, marking)]
    page.keyboard.press("Control+z")
    page.wait_for_selector(YOUR_TURN)
    assert events(page, "optimus") == before
    assert page.locator(".ogrid.big .cell.pencil").count() == 0  # no pencilled box left
    o1.click_move(page, state, marking)
    page.wait_for_selector(HANDOVER)
    # Ana's table, from her side.
    handed_over(page, ("Rui", "Ana"), [])
    assert page.locator(".panel.you .pname").inner_text() == "Ana"
    assert page.locator(UNDO).is_disabled()  # Rui's decision is not Ana's to take back
    page.keyboard.press("Control+z")
    assert events(page, "optimus") == [*before, (0, marking)]
    # To the end: people pass, the bot plays; each decision behind the hand-over screen.
    seen = play_through(
        page, lambda p, _s: p.click("button[data-move=pass]"), ("Rui", "Ana"), holder="Ana"
    )
    assert "Rui" in seen and "Ana" in seen
    check_names_at_the_end(page, ("Rui", "Ana"))
    assert page.evaluate("localStorage.getItem('optimus-table.optimus.save')") is None
    names = json.loads(page.evaluate("localStorage.getItem('optimus-table.people')"))
    assert names["bot0"] == "Ana" and names["you"] == "Rui"  # remembered for next time


def test_optimus2_two_people_and_a_bot_resumed_and_played_to_the_end(guarded, site):
    page = seat_people(guarded, site, "optimus2")
    start(page, "[data-role=board] .o2board")
    clicks = 0

    def move(p: Any, step: int) -> None:
        nonlocal clicks
        o2.one_click(p, step)
        clicks += 1

    # A few decisions, then the page is reloaded: the game resumes with its people.
    for step in range(30):
        page.wait_for_selector(NEXT, timeout=60_000)
        if page.locator(HANDOVER).count():
            handed_over(page, ("Rui", "Ana"), [])
        else:
            move(page, step)
    seats = json.loads(page.evaluate("localStorage.getItem('optimus-table.optimus2.save')"))
    assert seats["seats"] == ["human", "human:Ana", "easy"]
    page.reload()
    guarded.wait_ready()
    page.click("[data-action=resume]")
    page.wait_for_selector(NEXT)
    holder = "Rui"  # the device's owner resumes; the hand-over names whoever is next
    if page.locator(HANDOVER).count():
        holder = handed_over(page, ("Rui", "Ana"), [])
    page.wait_for_selector(f"{YOUR_TURN}, {HANDOVER}")
    panels = page.evaluate(
        "[...document.querySelectorAll('.panel .pname')].map(e => e.textContent)"
    )
    assert panels == ["Rui", "Ana", "Easy bot 2"]
    seen = play_through(page, move, ("Rui", "Ana"), holder=holder)
    assert seen and clicks > 20
    o2.check_end_screen(guarded, players=3)
    check_names_at_the_end(page, ("Rui", "Ana"))


def test_fileiras_two_people_and_a_bot_played_to_the_end(guarded, site, fileiras, axe_audit):
    page = seat_people(guarded, site, "fileiras", you="Rui", other="Ana Luísa")
    # The set-up form with its name fields: labelled, and fits a phone.
    assert axe_audit(page) == [], "set-up with people"
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    page.set_viewport_size({"width": 1280, "height": 800})
    start(page, "[data-role=board]")

    def move(p: Any, _step: int) -> None:
        if p.locator(fileiras.draw).count():
            p.click(fileiras.draw)
            p.locator(fileiras.place).first.click()
        else:
            p.locator(fileiras.take).first.click()

    seen = play_through(page, move, ("Rui", "Ana Luísa"))
    assert seen.count("Ana Luísa") > 3
    assert guarded.final_state().num_players == 3
    check_names_at_the_end(page, ("Rui", "Ana Luísa"))
