"""Optimus in real Chromium, played only by clicking: dice, joker names, boxes, Confirm, Pass.

Every page here is a ``guarded`` page: a console error, an uncaught page error
or a request to another host fails the test.  Waits are on states (selectors,
the saved record growing), never on time.  The person's choices come from a
simple greedy rule computed here from the saved record; the page is only ever
clicked.
"""

from __future__ import annotations

import json
import re
from typing import Any

from optimus.core.record import Record, replay
from optimus.optimus.game import OptimusGame, OptimusState, parse_move, solo_band
from optimus.optimus.sheet import COLOURS, bits, box_name

YOUR_TURN = ".status.you"
END = "dialog[data-role=end][open]"
ACTIONS = f"{YOUR_TURN}, {END}"
SAVE = "optimus-table.optimus.save"
NOTATION = re.compile(r"\b[a-z][1-5?] [A-O][1-7]\b")
"""A marking in move notation (e.g. "o2 H6"): no message shows one."""
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
GROWN = """([key, n]) => {
  if (document.querySelector("dialog[data-role=end][open]")) return true;
  const s = localStorage.getItem(key);
  return !s || JSON.parse(s).events.length > n;
}"""


def open_table(
    guarded: Any, site: str, players: int, speed: str, sheet: str = "harbour", place: str = "1"
) -> Any:
    page = guarded.open_setup(site, "optimus", players, place)
    page.select_option("select[name=sheet]", sheet)
    guarded.bot_speed(speed)
    page.click("[data-action=start]")
    page.wait_for_selector("[data-role=board] .oboard")
    return page


def saved(page: Any) -> dict[str, Any]:
    return json.loads(page.evaluate(f"localStorage.getItem('{SAVE}')"))


def current_state(page: Any) -> OptimusState:
    state = replay(Record.from_dict(saved(page)), game=OptimusGame())
    assert isinstance(state, OptimusState)
    return state


def greedy(state: OptimusState, seat: int) -> str:
    """Many boxes of the colour closest to complete; jokers only when they pay."""
    marks = state.marks[seat]
    counts = [(km & marks).bit_count() for km in state.layout.colour_masks]
    best, value = "pass", -1
    for move in state.legal_moves(seat):
        if move == "pass":
            continue
        cf, nf, mask = parse_move(move)
        k = state.sheet.colours[bits(mask)[0]]
        v = (counts[k] + mask.bit_count()) * 10 + mask.bit_count() - 4 * ((cf == "x") + (nf == "?"))
        if v > value:
            best, value = move, v
    return best


def walk(boxes: list[int]) -> list[int]:
    """A walk through a connected set of boxes, one orthogonal step at a time (back over
    boxes already passed where it branches), from its first box."""
    inside, seen, path = set(boxes), {boxes[0]}, [boxes[0]]

    def visit(box: int) -> None:
        row, col = divmod(box, 15)
        for nxt in (box - 15, box + 15, box - 1 if col else -1, box + 1 if col < 14 else -1):
            if nxt in inside and nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                visit(nxt)
                path.append(box)

    visit(boxes[0])
    assert seen == inside, "not a connected marking"
    return path


def drag_over(page: Any, move: str, boxes: list[int]) -> None:
    """Press on the first box of ``move`` and drag the mouse over the others."""
    names = {i: move.split()[1 + boxes.index(i)] for i in boxes}
    for n, i in enumerate(walk(boxes)):
        box = page.locator(f'button.cell[data-box="{names[i]}"]').bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=2)
        if n == 0:
            page.mouse.down()
    page.mouse.up()


def pick_dice(page: Any, state: OptimusState, move: str, tap: bool = False) -> list[int]:
    """The two dice of ``move`` clicked (with ``tap``, tapped), and a joker's colour or
    number named: the boxes ``move`` marks, by index."""
    press = page.tap if tap else page.click
    cf, nf, mask = parse_move(move)
    press(f'button.die[data-kind=colour][data-face="{cf}"]')
    press(f'button.die[data-kind=number][data-face="{nf}"]')
    boxes = bits(mask)
    if cf == "x":
        colour = COLOURS[state.sheet.colours[boxes[0]]]
        press(f'.joker-names button[data-kind=colour][data-value="{colour}"]')
    if nf == "?":
        press(f'.joker-names button[data-kind=number][data-value="{len(boxes)}"]')
    return boxes


def click_move(page: Any, state: OptimusState, move: str, drag: bool = False) -> None:
    """Make ``move`` on the objects: the two dice, a joker's value, each box (clicked, or
    with ``drag`` marked by dragging over them), then Confirm."""
    if move == "pass":
        page.click("button[data-move=pass]")
        return
    boxes = pick_dice(page, state, move)
    for i in sorted(boxes, reverse=True):  # any order works; not reading order on purpose
        name = move.split()[1 + boxes.index(i)]
        cell = page.locator(f'button.cell[data-box="{name}"]')
        assert "target" in (cell.get_attribute("class") or ""), f"{name} is not lit for {move}"
        if not drag:
            cell.click()
    if drag:
        drag_over(page, move, boxes)
        assert page.locator(".ogrid.big .cell.pencil").count() == len(boxes)
    assert page.locator(".feedback").get_attribute("data-state") == "complete"
    assert page.locator("button.confirm").get_attribute("data-move") == move
    page.click("button.confirm")


def play_to_the_end(page: Any, seat: int, limit: int, dragged: list[str] | None = None) -> int:
    """Greedy moves by clicking (or, with a ``dragged`` list, markings of two boxes or more
    by dragging, listed there) until the end screen."""
    turns = 0
    while True:
        page.wait_for_selector(ACTIONS, timeout=60_000)
        if page.locator(END).count():
            return turns
        state = current_state(page)
        assert seat in state.actors()
        before = len(saved(page)["events"])
        move = greedy(state, seat)
        drag = dragged is not None and len(move.split()) > 2
        click_move(page, state, move, drag=drag)
        if drag and dragged is not None:
            dragged.append(move)
        page.wait_for_function(GROWN, arg=[SAVE, before])
        turns += 1
        assert turns < limit, "the game does not end"


def check_end_screen(page: Any, players: int) -> OptimusState:
    end = page.locator(END)
    record = Record.from_json(end.get_attribute("data-record"))
    state = replay(record, game=OptimusGame())
    assert isinstance(state, OptimusState) and state.is_terminal()
    shown = {
        int(el.get_attribute("data-seat")): int(el.get_attribute("data-total"))
        for el in end.locator(".final").all()
    }
    assert shown == {seat: int(s) for seat, s in enumerate(state.scores())}
    assert len(shown) == players
    text = end.inner_text()
    for words in ("Columns:", "Colour bonuses:", "Unused “!”:", "Stars:"):
        assert words in text
    return state


def fits_the_screen(page: Any) -> list[str]:
    return page.evaluate(
        """() => {
        const w = innerWidth, h = innerHeight, bad = [];
        const s = document.scrollingElement;
        if (s.scrollWidth > w) bad.push(`page is ${s.scrollWidth} wide`);
        for (const el of document.querySelectorAll(
            '.game-bar, .status, .dicebar, .ogrid.big, .markbar, .panel, .log')) {
          const r = el.getBoundingClientRect();
          if (r.left < -0.5 || r.right > w + 0.5) bad.push(`${el.className} ${JSON.stringify(r)}`);
        }
        for (const el of document.querySelectorAll('.btn, .die, .markbar .feedback')) {
          if (el.scrollWidth > el.clientWidth + 1) bad.push(`clipped: ${el.textContent}`);
        }
        return bad;
    }"""
    )


def test_solo_game_played_by_clicking_with_a_refused_marking_reaches_the_engines_score(
    guarded, site, screenshot, axe_audit
):
    # "fast": the person's own marks are animated too (a failed animation is a console error).
    page = open_table(guarded, site, players=1, speed="fast", sheet="random")
    page.wait_for_selector(YOUR_TURN)
    sheet_name = page.locator("[data-role=sheet-name]").inner_text()
    assert sheet_name.startswith("Random sheet #")
    sheet_seed = sheet_name.removeprefix("Random sheet #")
    assert saved(page)["options"]["sheet"] == f"random:{sheet_seed}"
    assert "of 30" in page.locator(".status").inner_text()
    assert page.locator(".dice .die").count() == 4  # solo: 2 colour and 2 number dice
    # An unfinished or illegal marking cannot be confirmed: Confirm stays disabled and
    # the feedback gives the engine's reason in words (never the move's notation).
    passes = 0
    while True:  # the first roll with a plain marking of two boxes or more (pass till then)
        state = current_state(page)
        plain = [m for m in state.legal_moves(0) if m[0] not in "px" and m[1] in "2345"]
        if plain:
            break
        before = len(saved(page)["events"])
        page.click("button[data-move=pass]")
        page.wait_for_function(GROWN, arg=[SAVE, before])
        passes += 1
        assert passes < 10
    cf, nf, _ = parse_move(plain[0])
    page.click(f'button.die[data-kind=colour][data-face="{cf}"]')
    page.click(f'button.die[data-kind=number][data-face="{nf}"]')
    assert page.locator("button.cell.target").count() > 0
    first = plain[0].split()[1]
    page.click(f'button.cell[data-box="{first}"]')
    page.wait_for_selector(".cell.pencil")
    assert page.locator(".feedback").get_attribute("data-state") == "boxes"
    assert page.locator(".feedback").inner_text().startswith(f"1 of {nf} marked")
    assert page.locator("button.confirm").is_disabled()  # 1 of 2 boxes is no move yet
    assert not NOTATION.search(page.locator("body").inner_text())
    wrong = [i for i in range(105) if COLOURS[state.sheet.colours[i]] != cf and i % 15 in (0, 14)][
        : int(nf) - 1
    ]
    for i in wrong:
        name = box_name(i)
        cell = page.locator(f'button.cell[data-box="{name}"]')
        assert "target" not in (cell.get_attribute("class") or "")
        cell.click()
    assert page.locator(".feedback").get_attribute("data-state") == "illegal"
    feedback = page.locator(".feedback").inner_text()
    assert " is " in feedback and ", not " in feedback, feedback  # "…: A1 is blue, not red."
    assert page.locator("button.confirm").is_disabled()
    assert page.locator("button.confirm").get_attribute("data-move") is None
    text = page.locator("body").inner_text()
    assert not NOTATION.search(text) and "Illegal move" not in text, text
    # Take the marks back step by step: boxes, then dice.
    for _ in range(len(wrong) + 1):
        page.click("button[data-action=undo]")
    assert page.locator(".cell.pencil").count() == 0
    assert page.locator("button.die.picked").count() == 2
    page.click("button[data-action=undo]")
    assert page.locator("button.die.picked").count() == 1
    page.click("button[data-action=undo]")
    assert page.locator("button.die.picked").count() == 0
    screenshot(page, "optimus-solo-desktop")
    dragged: list[str] = []
    turns = play_to_the_end(page, 0, limit=40, dragged=dragged)
    assert dragged, "no marking was made by dragging"
    assert turns + passes == 30  # one decision per roll, 30 rolls
    state = check_end_screen(page, 1)
    band = page.locator(f"{END} [data-role=band]").inner_text()
    assert band == solo_band(int(state.scores()[0]))
    screenshot(page, "optimus-solo-end")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_audit(page) == [], f"end screen, {scheme}"
    assert page.evaluate(f"localStorage.getItem('{SAVE}')") is None
    # The random sheet can be played again: "New game" offers it by its seed.
    page.click(f"{END} [data-action=new]")
    page.wait_for_selector("[data-role=setup]")
    page.select_option("select[name=sheet]", f"random:{sheet_seed}")
    page.click("[data-action=start]")
    page.wait_for_selector(YOUR_TURN)
    assert page.locator("[data-role=sheet-name]").inner_text() == sheet_name
    assert saved(page)["options"]["sheet"] == f"random:{sheet_seed}"


def test_two_players_human_and_bot_to_the_end_on_one_screen_without_freezing(
    guarded, site, screenshot, axe_audit, thinking_watch
):
    # The person plays second: the bot (seat 0) rolls first.
    page = open_table(guarded, site, players=2, speed="instant", place="2")
    page.wait_for_selector(YOUR_TURN, timeout=60_000)
    assert page.locator('.panel[data-seat="1"] .panel-head').inner_text().startswith("You")
    # Every player's sheet is visible: the bot's small in its panel, large on one click.
    assert page.locator('.panel[data-seat="0"] .ogrid.mini .cell').count() == 105
    page.click('.panel[data-seat="0"] .panel-head')
    page.wait_for_selector("dialog[data-role=player][open] .ogrid.view")
    page.click("dialog[data-role=player][open] [data-action=close]")
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, f"optimus-2-players-{name}")
        assert fits_the_screen(page) == [], name
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("button.die.d-colour.usable").first.click()
    for scheme in ("light", "dark"):  # the table, a colour die picked
        page.emulate_media(color_scheme=scheme)
        assert axe_audit(page) == [], f"table, {scheme}"
    page.click("button[data-action=undo]")
    assert page.locator("button.die.picked").count() == 0
    turns = play_to_the_end(page, 1, limit=250)
    assert turns >= 10
    state = check_end_screen(page, 2)
    assert max(state.colours_done(p) for p in range(2)) >= 2  # ended by a second colour
    # How ties are decided: said when two totals are equal, and only then.
    totals = state.scores()
    tied = len(set(totals)) < len(totals)
    assert ("most unused “!”" in page.locator(f"{END} .end-rules").inner_text()) == tied
    thinking_watch.assert_no_freeze()
    # The final table stays reachable.
    page.click(f"{END} [data-action=see-table]")
    page.wait_for_selector("dialog[data-role=end]:not([open])", state="attached")
    assert page.locator(".ogrid.big .cell.marked").count() == state.marks[1].bit_count()


def test_six_players_fit_the_screen_on_a_desktop_and_a_phone(guarded, site, screenshot):
    """One screen on a desktop: the big sheet, the marking bar, every panel and the log.
    On a phone, the width: the sheet is turned, its boxes big, and the screen scrolls up
    and down to them (tests/e2e/test_phone.py)."""
    page = open_table(guarded, site, players=6, speed="instant")
    page.wait_for_selector(YOUR_TURN, timeout=60_000)
    assert page.locator(".panel .ogrid.mini").count() == 5  # the others' sheets, small
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, f"optimus-6-players-{name}")
        assert fits_the_screen(page) == [], name
        tall = page.evaluate(
            """() => [...document.querySelectorAll('.ogrid.big, .markbar, .panel, .log')]
                .filter(el => el.getBoundingClientRect().bottom > innerHeight + 0.5)
                .map(el => el.className)"""
        )
        if name == "desktop":
            assert tall == [], f"{name}: below the screen: {tall}"


def test_a_focused_box_is_the_same_element_after_the_board_updates(guarded, site):
    """The board is patched in place (keyed updates), not redrawn: the box the person
    pencils by keyboard stays the focused element itself, through every update."""
    page = open_table(guarded, site, players=1, speed="instant")
    page.wait_for_selector(YOUR_TURN)
    state = current_state(page)
    while (move := next((m for m in state.legal_moves(0) if m != "pass"), "")) == "":
        before = len(saved(page)["events"])  # no marking fits this roll: pass to the next
        page.click("button[data-move=pass]")
        page.wait_for_function(GROWN, arg=[SAVE, before])
        page.wait_for_selector(YOUR_TURN)
        state = current_state(page)
    cf, nf, mask = parse_move(move)
    page.click(f'button.die[data-kind=colour][data-face="{cf}"]')
    page.click(f'button.die[data-kind=number][data-face="{nf}"]')
    if cf == "x":  # a joker: say what it stands for, as the person would
        colour = COLOURS[state.sheet.colours[bits(mask)[0]]]
        page.click(f'.joker-names button[data-kind=colour][data-value="{colour}"]')
    if nf == "?":
        page.click(f'.joker-names button[data-kind=number][data-value="{len(bits(mask))}"]')
    name = move.split()[1]
    box = f'button.cell[data-box="{name}"]'
    page.focus(box)
    page.evaluate("(s) => { window.probe = document.querySelector(s); }", box)
    page.keyboard.press("Enter")  # pencil the box: the board, status and feedback update
    page.wait_for_selector(f'{box}[aria-pressed="true"]')
    same = "() => document.activeElement === window.probe && window.probe.isConnected"
    assert page.evaluate(same)
    page.keyboard.press("Enter")  # rub it out again
    page.wait_for_selector(f'{box}[aria-pressed="false"]')
    assert page.evaluate(same)
    assert page.locator(".ogrid.big .cell.pencil").count() == 0
