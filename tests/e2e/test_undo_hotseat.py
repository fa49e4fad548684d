"""Undo and pass-and-play in Chromium, in the three games.

Two people share the device with one bot: the set-up form seats "a person" with a
typed name, each decision of the other person waits behind the hand-over screen
("Pass the device to Ana"), and the names show in the panels and the end screen.
Undo takes back the steps of a move in progress, by the bar's button and by Ctrl+Z,
is off on the hand-over screen, and says why when nothing can be taken back (in a small
line of the status box while it is off, and in the status line when pressed).
Pages are ``guarded`` (conftest.py); every wait is on a state, never on time.
"""

from __future__ import annotations

import json
from typing import Any

from optimus.core.record import CHANCE, Record

from . import test_optimus as o1
from . import test_optimus2 as o2
from .conftest import text_overlaps

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
    status = page.locator(".status").inner_text().strip()  # (after why Undo is off, if pressed)
    assert status.endswith(f"Pass the device to {name}."), status
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
    # Nothing decided yet: Undo is off, and says why in visible text (its tooltip's words),
    # covering nothing; a press says it in the status line as well.
    assert page.locator(UNDO).get_attribute("aria-disabled") == "true"
    why = page.locator("[data-role=undo-why]")
    assert why.is_visible() and why.inner_text().startswith("Nothing to undo yet")
    assert why.inner_text() == page.locator(UNDO).get_attribute("title")
    assert text_overlaps(page) == []
    page.click(UNDO, force=True)  # marked off (aria-disabled), but pressable: it says why
    page.wait_for_selector("[data-role=status-text]:has-text('Nothing to undo yet')")
    state = o1.current_state(page)
    before = events(page, "optimus")
    assert before[-1][0] == CHANCE
    # A marking in progress: the one Undo takes back its steps (Ctrl+Z as well).
    marking = o1.greedy(state, 0)
    assert marking != "pass"
    page.locator("button.die.d-colour.usable").first.click()
    assert page.locator(UNDO).get_attribute("aria-disabled") == "false"
    assert why.is_hidden()  # Undo can: nothing to explain
    page.keyboard.press("Control+z")
    assert page.locator("button.die.picked").count() == 0
    assert events(page, "optimus") == before
    # Rui marks: the device goes to Ana, and on the hand-over screen Undo is off: it
    # never takes back the previous person's hidden choice nor opens their board.
    o1.click_move(page, state, marking)
    page.wait_for_selector(HANDOVER)
    assert events(page, "optimus") == [*before, (0, marking)]
    assert page.locator(UNDO).get_attribute("aria-disabled") == "true"
    note = page.locator("[data-role=handover-note]").inner_text()
    assert "Undo is off while the device is handed over." in note  # said, not only a tooltip
    assert why.is_hidden()  # (said once: by the hand-over screen)
    page.keyboard.press("Control+z")
    assert page.evaluate("document.activeElement.dataset.action") == "handover"
    page.click(UNDO, force=True)
    page.wait_for_selector(".status:has-text('Undo is off while the device is handed over.')")
    page.focus(f"{HANDOVER} [data-action=handover]")  # (the click took focus to the bar)
    assert page.locator("[data-role=play]").is_hidden()
    assert events(page, "optimus") == [*before, (0, marking)]
    # The hand-over screen fits a phone and passes axe, in light and dark mode.
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(OVERFLOW) == []
    screenshot(page, "handover-phone")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_audit(page) == [], f"hand-over screen, {scheme}"
    page.emulate_media(color_scheme="light")
    page.set_viewport_size({"width": 1280, "height": 800})
    # Ana's table, from her side.
    handed_over(page, ("Rui", "Ana"), [])
    assert page.locator(".panel.you .pname").inner_text() == "Ana"
    assert page.locator(UNDO).get_attribute("aria-disabled") == "true"  # not Ana's to take back
    assert why.is_visible() and why.inner_text() == page.locator(UNDO).get_attribute("title")
    page.set_viewport_size({"width": 390, "height": 844})  # on a phone: under the status
    assert why.is_visible() and text_overlaps(page) == []
    page.set_viewport_size({"width": 1280, "height": 800})
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


def test_undo_after_a_bots_answer_asks_first_and_makes_the_game_practice(guarded, site, fileiras):
    """Against a bot, Undo takes the person's last decision back after the bot answered;
    since the bot's answer revealed a card, the first such Undo asks first (the game
    becomes practice), the bar says "practice", and the finished game is not counted."""
    page = guarded.open_setup(site, "fileiras", 2)
    fileiras.instant(page)
    page.click("[data-action=start]")
    page.wait_for_selector(YOUR_TURN)
    start_events = events(page, "fileiras")
    page.click(fileiras.draw)
    page.locator(fileiras.place).first.click()
    page.wait_for_selector(YOUR_TURN)  # the bot drew a card and answered
    answered = events(page, "fileiras")
    placed = max(i for i, (who, _) in enumerate(answered) if who == 0)
    assert answered[placed][1].startswith("place") and len(answered) > placed + 2
    assert any(who == CHANCE for who, _ in answered[placed:])
    undo = page.locator(UNDO)
    assert undo.get_attribute("aria-disabled") == "false"
    assert "revealed" in (undo.get_attribute("title") or "")
    # Asked first; "Cancel" changes nothing.
    undo.click()
    page.wait_for_selector("dialog[data-role=confirm][open]")
    asked = page.locator("dialog[data-role=confirm] [data-role=confirm-text]").inner_text()
    assert "practice" in asked and "records" in asked
    page.click("dialog[open] [data-action=confirm-no]")
    assert events(page, "fileiras") == answered
    # Ctrl+Z asks too; "Undo" takes the decision and the bot's answer back.
    page.keyboard.press("Control+z")
    page.wait_for_selector("dialog[data-role=confirm][open]")
    page.click("dialog[open] [data-action=confirm-yes]")
    page.wait_for_selector("[data-role=title-note]:has-text('Practice')")
    assert events(page, "fileiras") == answered[:placed]
    saved = json.loads(page.evaluate("localStorage.getItem('optimus-table.fileiras.save')"))
    assert saved["practice"] is True
    page.wait_for_selector(f"{YOUR_TURN} >> nth=0")
    assert page.locator(fileiras.place).count()  # the card drawn is to place again
    # The next Undo does not ask again: it takes back the draw.
    undo.click()
    assert page.locator("dialog[data-role=confirm][open]").count() == 0
    page.wait_for_selector(fileiras.draw)
    assert events(page, "fileiras") == start_events
    # Played to the end: practice, said on the end screen and not counted.
    fileiras.finish(page)
    assert page.locator(f"{END} [data-role=practice-note]").is_visible()
    kept = page.evaluate("localStorage.getItem('optimus-table.records')")
    assert kept is None or "fileiras" not in json.loads(kept)["games"]


def test_optimus2_undo_takes_back_the_chosen_die_first(guarded, site):
    """Optimus 2: a die chosen is a step of the move; the one Undo takes it back before
    any decision."""
    page = guarded.open_setup(site, "optimus2", 1)
    page.click("[data-action=start]")
    page.wait_for_selector(YOUR_TURN, timeout=60_000)
    for step in range(40):  # to the first choice among several dice
        if page.locator(".dicezone button.die[data-action=die]").count() > 1:
            break
        o2.one_click(page, step)
        page.wait_for_selector(YOUR_TURN, timeout=60_000)
    dice = page.locator(".dicezone button.die[data-action=die]")
    assert dice.count() > 1
    before = events(page, "optimus2")
    name = dice.first.get_attribute("data-die")
    dice.first.click()
    page.wait_for_selector(f".dicezone .die.chosen[data-die={name}]")
    undo = page.locator(UNDO)
    assert undo.get_attribute("aria-disabled") == "false"
    assert "last step of your move" in (undo.get_attribute("title") or "")
    page.keyboard.press("Control+z")
    page.wait_for_selector(".dicezone .die.chosen", state="detached")
    assert events(page, "optimus2") == before
