"""The game bar's Hint in real Chromium (issue 37, "A hint during play"): one page per
game, mixing phone and desktop, touch and mouse, pt and ca.

Each resumes a save made here in CPython at a position of the person's turn, presses
Hint and waits for the marks; the move they carry (``data-mark-hint``) is the move
``hard`` makes there in CPython (the hint's own bot and seed: tests/ui/test_hint.py
shows it is ``hard``'s), every place that move touches is marked, the status line
says why, and axe-core finds nothing with the marks shown.  Then the move is played
by tapping it: the marks go, the game goes on, and the saved game is marked
assisted.  Positions are chosen where ``hard``'s choice does not depend on the page's
clock (its best move by one roll or step, or a clear search).  Waits are on states.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any
from urllib.parse import urlsplit

import pytest

from optimus.core.record import Match
from optimus.core.registry import get_game
from optimus.core.review import Review
from optimus.ui import records
from optimus.ui.hint import Hint
from optimus.ui.session import TableSession
from tests.e2e.conftest import english_on_screen

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
HINT = "#game-tools [data-action=hint]"
MARKED = "#game .board [data-mark-hint]"
WORD = {"pt": "Dica", "ca": "Pista"}


def save_at(game_id: str, seats: list[str], seed: int, decisions: int) -> str:
    """A save of a game between ``seats`` played with random legal moves, stopped at
    seat 0's decision (of three moves or more) after ``decisions`` such decisions."""
    game = get_game(game_id)
    rnd = random.Random(seed)
    match = Match(game, {"players": len(seats)}, seed)
    made = 0
    while not match.state.is_terminal():
        actors = match.state.actors()
        if 0 in actors and len(match.state.legal_moves(0)) >= 3:
            if made == decisions:
                break
            made += 1
        seat = 0 if 0 in actors else actors[0]
        match.play(seat, rnd.choice(list(match.state.legal_moves(seat))))
    data = match.record.to_dict()
    data["seats"] = seats
    return json.dumps(data)


CASES = [
    # game, language, screen, seats, seed, decisions before, the places the move touches
    ("optimus", "pt", "phone", ["human", "normal"], 1, 2),
    ("optimus2", "ca", "desktop", ["human"], 3, 1),
    ("fileiras", "ca", "phone", ["human", "normal", "normal"], 1, 1),
]


def hard_move(game_id: str, save: str) -> tuple[str, int]:
    """The hint's move at the save's position in CPython (``hard``'s own budget, no
    clock), and how many places of the board it touches."""
    game = get_game(game_id)
    session = TableSession.load(game, save, Review.coach_budget(game))
    hint = Hint(session, 0)
    move = hint.finish().move
    if game_id == "optimus":
        places = 2 + len(move.split()) - 1  # the two dice and the boxes
    elif game_id == "optimus2":
        places = 2  # the die and its cell
    else:
        places = 2 if move.startswith("place") else 1  # the card drawn and its row
    return move, places


def play_by_tapping(page: Any, game_id: str, move: str, tap: Any) -> None:
    """Play ``move`` as a person does: on the things themselves."""
    if game_id == "optimus":
        colour, number = move[0], move[1]
        tap(page.locator(f".dicebar button.die[data-kind=colour][data-face='{colour}']").first)
        tap(page.locator(f".dicebar button.die[data-kind=number][data-face='{number}']").first)
        for box in move.split()[1:]:
            tap(page.locator(f".ogrid.big button.cell[data-box='{box}']"))
        tap(page.locator("button.confirm"))
    elif game_id == "optimus2":
        marked = page.locator(".dicezone [data-mark-hint]")
        if marked.count() and marked.first.get_attribute("data-action") == "die":
            tap(marked.first)
        tap(page.locator(f".board .o2sheet button.target[data-move='{move}']"))
    else:
        if move == "draw":
            tap(page.locator(".deck[data-move=draw]"))
        else:
            verb, row = move.split()
            target = ".slot" if verb == "place" else ".row-n"
            tap(page.locator(f".frow[data-row='{row}'] {target}").first)


@pytest.mark.parametrize(("game_id", "lang", "screen", "seats", "seed", "decisions"), CASES)
def test_a_hint_draws_hards_move_and_marks_the_game_assisted(
    browser, guard_context, site, axe_audit, game_id, lang, screen, seats, seed, decisions
):
    save = save_at(game_id, seats, seed, decisions)
    move, places = hard_move(game_id, save)
    phone = screen == "phone"
    context = browser.new_context(
        viewport=PHONE if phone else DESKTOP,
        locale={"pt": "pt-BR", "ca": "ca-ES"}[lang],
        service_workers="block",
        has_touch=phone,
        is_mobile=phone,
    )
    parts = urlsplit(site)
    with guard_context(context, f"{parts.scheme}://{parts.netloc}") as guarded:
        page = guarded.page

        def tap(locator: Any) -> None:
            locator.scroll_into_view_if_needed()
            locator.tap() if phone else locator.click()

        key = f"optimus-table.{game_id}.save"
        page.goto(site)
        guarded.wait_ready()
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, save])
        page.goto(f"{site}#/{game_id}")
        tap(page.locator("[data-action=resume]"))
        page.wait_for_selector(".status.you", timeout=60_000)
        hint = page.locator(HINT)
        assert hint.is_visible() and hint.get_attribute("aria-disabled") == "false"
        assert hint.inner_text().strip().endswith(WORD[lang])
        assert hint.get_attribute("title")

        started = time.perf_counter()
        tap(hint)
        page.wait_for_selector(MARKED, timeout=60_000)
        # a figure, not a check (speed is no test's business): shown with -s
        print(f"{game_id}: the hint drawn {time.perf_counter() - started:.2f} s after the press")
        marked = page.locator(MARKED)
        assert {marked.nth(i).get_attribute("data-mark-hint") for i in range(marked.count())} == {
            move
        }
        assert marked.count() == places, page.evaluate(
            "() => [...document.querySelectorAll('[data-mark-hint]')].map(e => e.outerHTML)"
        )
        labelled = page.locator("#game .board [data-mark-label]")
        assert labelled.count() == 1 and WORD[lang] in (labelled.get_attribute("data-mark-label"))
        status = page.locator("[data-role=status-text]").inner_text()
        assert f"◎ {WORD[lang]}:" in status, status
        if game_id == "optimus":  # the dice are above the sheet shown: the line names it all
            assert " ".join(move.split()[1:]) in status, status
        saved = json.loads(page.evaluate("(k) => localStorage.getItem(k)", key))
        assert saved.get("assisted") is True  # asking is enough: saved at once
        assert not english_on_screen(page, lang)
        assert axe_audit(page) == []
        outline = marked.first.evaluate("(el) => getComputedStyle(el).outlineStyle")
        assert outline == "dashed"

        play_by_tapping(page, game_id, move, tap)
        page.wait_for_selector(MARKED, state="detached")
        page.wait_for_function(
            "([k, n]) => (JSON.parse(localStorage.getItem(k) || '{}').events || []).length > n",
            arg=[key, len(json.loads(save)["events"])],
        )
        page.wait_for_selector(".status.you, dialog[data-role=end][open]", timeout=60_000)
        saved = json.loads(page.evaluate("(k) => localStorage.getItem(k)", key))
        person = [what for who, what in saved["events"] if who == 0]
        assert person[-1] == move  # the hint's move was played
        assert saved.get("assisted") is True
        assert "◎" not in page.locator("[data-role=status-text]").inner_text()
        if game_id != "optimus2":
            return
        # The records page says which games were assisted (records kept as the game's end does).
        kept = records.Records()
        for ident, helped in (("a1", True), ("b2", False)):
            kept.add(
                records.Result(
                    game_id,
                    "solo",
                    1,
                    200,
                    False,
                    "2026-12-03",
                    saved,
                    "",
                    "",
                    ident,
                    assisted=helped,
                )
            )
        page.evaluate("(t) => localStorage.setItem('optimus-table.records', t)", records.dump(kept))
        page.goto(f"{site}#/records")
        page.wait_for_selector("[data-role=records] li[data-replay]")
        helped = page.locator("li[data-replay][data-assisted]")
        assert helped.count() == 1 and "assistida" in helped.inner_text()
        assert page.locator("li[data-replay]:not([data-assisted])").count() == 1
        assert axe_audit(page) == []


def test_a_daily_challenge_with_a_hint_says_so_at_its_end_and_in_its_shared_result(
    guarded, site, fileiras
):
    page = guarded.open_setup(site, "fileiras")
    fileiras.instant(page)
    page.evaluate("location.hash = '#/fileiras/daily?date=2026-12-01'")
    page.wait_for_selector("[data-role=title-note]:has-text('1 December 2026')")
    page.wait_for_selector(".status.you", timeout=60_000)
    page.click(HINT)
    page.wait_for_selector(MARKED, timeout=60_000)
    fileiras.finish(page)
    end = "dialog[data-role=end][open]"
    assert (
        "counts for the daily challenge"
        in page.locator(f"{end} [data-role=daily-note]").inner_text()
    )
    assert "hint" in page.locator(f"{end} [data-role=assisted-note]").inner_text()
    page.click(f"{end} [data-action=share-daily]")
    page.wait_for_selector(f"{end} [data-role=link-said]:not(:empty)")
    shared = page.locator(f"{end} [data-role=link-text]").input_value()
    assert ", assisted (hints used)." in shared, shared
    page.click(f"{end} a[href='#/records']")
    page.wait_for_selector("[data-role=records] li[data-replay][data-assisted]")
