"""What a bad file, a full disk or a second tab can still do to a game, in Chromium.

Pages are ``guarded`` (conftest.py): console errors, page errors and requests to
other hosts fail the test.  Each wait is on a state, never on time.
"""

from __future__ import annotations

import json
import time
from typing import Any

from optimus.fileiras.game import FileirasGame
from optimus.games import listed
from optimus.ui import records
from optimus.ui.session import TableSession
from tests.e2e.conftest import PUT

SAVE = "optimus-table.fileiras.save"
SETUP = "[data-role=setup]"
NOTICE = ".setup .notice"
GET = "key => localStorage.getItem(key)"


def test_a_deeply_nested_save_is_set_aside_and_the_page_lives(guarded: Any, site: str) -> None:
    deep = "[" * 8000 + "]" * 8000  # 16 KB that once crashed the Python runtime
    page = guarded.stored(site, {SAVE: deep})
    page.click('a.game-card[data-game="fileiras"]')
    page.wait_for_selector(SETUP)
    notice = page.locator(NOTICE).inner_text()
    assert "could not be read" in notice and "set aside" in notice
    assert page.evaluate(GET, f"{SAVE}.backup") == deep
    assert page.evaluate(GET, SAVE) is None
    page.click("[data-action=start]")  # the page goes on
    page.wait_for_selector(".fboard")


def test_a_save_the_page_died_reading_is_set_aside_at_the_next_visit(
    guarded: Any, site: str
) -> None:
    good = TableSession(FileirasGame(), {}, 7, ["human", "easy"]).save()
    # its reading began and never ended:
    page = guarded.stored(site, {SAVE: good, f"{SAVE}.loading": "1"})
    page.click('a.game-card[data-game="fileiras"]')
    page.wait_for_selector(SETUP)
    assert "stopped the page" in page.locator(NOTICE).inner_text()
    assert page.evaluate(GET, f"{SAVE}.backup") == good
    assert page.evaluate(GET, SAVE) is None and page.evaluate(GET, f"{SAVE}.loading") is None
    assert page.locator("[data-action=resume]").count() == 0


FULL_AFTER_FLAG = """
// localStorage fills up once the test says so: every write but the flag's is refused
// as a full disk refuses it (DOMException QuotaExceededError); reads go on.
const setItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  if (key !== "test.full" && this.getItem("test.full") === "1") {
    throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
  }
  return setItem.call(this, key, value);
};
"""
EVENTS = "key => JSON.parse(localStorage.getItem(key)).events.length"


def one_move(page: Any, fileiras: Any) -> None:
    """The person's next move on the Fileiras table, then wait for their turn again."""
    page.wait_for_selector(fileiras.your_turn, timeout=30_000)
    fileiras.move(page)
    page.wait_for_selector(f"{fileiras.your_turn}, {fileiras.end}", timeout=30_000)


def filling_up(guarded: Any, site: str, fileiras: Any) -> Any:
    """A Fileiras game started and one move played, in a page whose storage fills up
    once the test sets ``test.full``."""
    guarded.page.add_init_script(FULL_AFTER_FLAG)
    page = guarded.open_setup(site, "fileiras", players=2)
    fileiras.instant(page)
    page.click(fileiras.start)
    one_move(page, fileiras)
    return page


def test_storage_full_mid_game_is_said_at_once_and_the_last_save_resumes(
    guarded: Any, site: str, fileiras: Any
) -> None:
    page = filling_up(guarded, site, fileiras)
    saved = page.evaluate(GET, SAVE)
    page.evaluate(PUT, ["test.full", "1"])
    one_move(page, fileiras)
    said = page.locator("[data-role=table-notices] .notice")
    assert said.count() == 1 and "can no longer be saved" in said.inner_text()
    one_move(page, fileiras)
    assert said.count() == 1  # said once
    assert page.evaluate(GET, SAVE) == saved  # the last good save is kept
    page.reload()
    guarded.wait_ready()
    page.wait_for_selector(SETUP)
    notice = page.locator(NOTICE).inner_text()
    assert "is full" in notice and "does not let" not in notice  # full, not refused
    page.click("[data-action=resume]")
    page.wait_for_selector(f"{fileiras.your_turn}, {fileiras.end}", timeout=30_000)
    assert page.evaluate(EVENTS, SAVE) == len(json.loads(saved)["events"])


OTHER_TAB_MS = 90_000
"""A wait on the other tab's answer: a background tab's Python on a loaded 2-core
machine (measured: over 30 s once, with the whole suite and more running)."""


def two_tabs(guarded: Any, site: str, fileiras: Any) -> tuple[Any, Any]:
    """A Fileiras game started in a first tab, and a second tab on its set-up screen."""
    first = guarded.open_setup(site, "fileiras", players=2)
    fileiras.instant(first)
    first.click(fileiras.start)
    first.wait_for_selector(fileiras.your_turn, timeout=30_000)
    second = guarded.new_page()
    second.goto(f"{site}#/fileiras")
    guarded.wait_ready(second)
    second.wait_for_selector(SETUP, timeout=60_000)  # its first visit: the archives come
    return first, second


def test_one_game_is_played_in_one_tab_and_the_other_can_take_it_over(
    guarded: Any, site: str, fileiras: Any
) -> None:
    first, second = two_tabs(guarded, site, fileiras)
    elsewhere = ".resume:has-text('open in another tab') [data-action=resume]"
    second.wait_for_selector(elsewhere, timeout=OTHER_TAB_MS)  # it asked; the first answered
    assert "another tab" in second.locator(".status").inner_text()
    second.click(elsewhere)  # "Play it here"
    second.wait_for_selector(fileiras.your_turn, timeout=30_000)
    first.wait_for_selector(elsewhere, timeout=OTHER_TAB_MS)  # the first stepped back
    assert first.locator(".fboard").count() == 0
    one_move(second, fileiras)
    moved = second.evaluate(EVENTS, SAVE)
    first.click(elsewhere)  # and takes it back, where the second tab left it
    first.wait_for_selector(fileiras.your_turn, timeout=30_000)
    second.wait_for_selector(elsewhere, timeout=OTHER_TAB_MS)
    assert first.evaluate(EVENTS, SAVE) == moved
    one_move(first, fileiras)
    assert first.evaluate(EVENTS, SAVE) > moved


def test_with_storage_refused_each_tab_plays_its_own_game(
    guarded: Any, site: str, fileiras: Any
) -> None:
    from tests.e2e.test_fileiras import REFUSE_STORAGE

    guarded.context.add_init_script(REFUSE_STORAGE)
    first, second = two_tabs(guarded, site, fileiras)
    assert second.locator("[data-action=resume]").count() == 0  # its own memory: no game
    fileiras.instant(second)
    second.click(fileiras.start)
    second.wait_for_selector(fileiras.your_turn, timeout=30_000)
    one_move(first, fileiras)  # the first tab plays on
    assert first.locator(".fboard").count() == 1
    assert first.locator(".resume").count() == 0


PLAY_GAMES = """async ([games, take, draw, place]) => {
  // A person who plays the first legal move as soon as it is their turn, and starts a
  // rematch at each end: every wait is on the page's state (a DOM change), never a timer.
  // A state that never comes fails the test with what the table says (no hang).
  const when = (ready) => new Promise((resolve, reject) => {
    const found = ready();
    if (found) return resolve(found);
    const stuck = setTimeout(() => { watch.disconnect(); reject(new Error(
      "stuck: " + (document.querySelector(".status") || document.body).innerText)); }, 120000);
    const watch = new MutationObserver(() => {
      const now = ready();
      if (now) { watch.disconnect(); clearTimeout(stuck); resolve(now); }
    });
    watch.observe(document.body, {subtree: true, childList: true, attributes: true});
  });
  const end = () => document.querySelector("dialog[data-role=end][open]");
  let moves = 0;
  if (end()) {  // a game just ended: its rematch
    end().querySelector("[data-action=rematch]").click();
    await when(() => !end() && document.querySelector("[data-role=board] .fboard"));
  }
  for (let played = 0; played < games;) {
    await when(() => end() || document.querySelector(".status.you"));
    if (end()) {
      played += 1;
      if (played < games) {
        end().querySelector("[data-action=rematch]").click();
        await when(() => !end() && document.querySelector("[data-role=board] .fboard"));
      }
      continue;
    }
    // Whatever the person's decision is now: place the card drawn, draw, or take a row
    // (a drawn card may call for another draw: the last-round card is set aside).
    const button = document.querySelector(place) || document.querySelector(draw) ||
      document.querySelector(take);
    button.click();
    moves += 1;
  }
  return moves;
}"""


def measure(page: Any, cdp: Any) -> dict[str, int]:
    """What the page holds once settled: Python objects after a full collection, and the
    JS heap and DOM nodes after collections that let finalizers run between them
    (Pyodide frees the JS side of a Python object in a finalizer, a task of its own):
    each the least of three readings taken after the page's pending tasks ran (the end
    screen's own work goes on for a task or two after it opens), so what is measured
    is what stays, neither garbage in flight nor work not yet done."""
    python, heaps, nodes = [], [], []
    for _ in range(3):
        cdp.send("HeapProfiler.collectGarbage")
        page.evaluate("() => new Promise((done) => setTimeout(done))")  # finalizers' turn
        cdp.send("HeapProfiler.collectGarbage")
        python.append(int(page.evaluate("optimusPythonObjects()")))
        heaps.append(int(cdp.send("Runtime.getHeapUsage")["usedSize"]))
        nodes.append(int(cdp.send("Memory.getDOMCounters")["nodes"]))
    return {"python objects": min(python), "JS heap bytes": min(heaps), "DOM nodes": min(nodes)}


def played_before(games: int) -> str:
    """A records store (optimus.ui.records) already keeping as many finished Fileiras
    games as it keeps replays: the soak's games replace kept ones instead of adding."""
    kept = records.Records()
    for seed in range(games):
        s = TableSession(FileirasGame(), {}, seed, ["random", "random"])
        while not s.state.is_terminal():
            s.think()
        saved = json.loads(s.save())
        kept.add(records.Result("fileiras", "random", 2, 0, False, "2026-12-01", saved))
    return records.dump(kept)


def test_twenty_games_in_one_page_hold_no_more_than_the_first(
    guarded: Any, site: str, fileiras: Any
) -> None:
    guarded.stored(site, {"optimus-table.records": played_before(records.REPLAYS_KEPT)})
    page = guarded.open_setup(site, "fileiras", players=2)
    fileiras.instant(page)
    cdp = guarded.context.new_cdp_session(page)
    started = time.perf_counter()
    page.click(fileiras.start)
    targets = [fileiras.take, fileiras.draw, fileiras.place]
    moves = page.evaluate(PLAY_GAMES, [1, *targets])
    # What the page imports of the other games after ready, in its idle time (web/main.py's
    # preload), is done by now: it is not growth.
    page.wait_for_selector(f"html[data-preloaded*={listed()[-1].id}_view]", state="attached")
    first = measure(page, cdp)
    one = time.perf_counter() - started
    moves += page.evaluate(PLAY_GAMES, [19, *targets])
    last = measure(page, cdp)
    took = time.perf_counter() - started
    print(f"20 games, {moves} moves of the person, in {took:.1f} s (the first {one:.1f} s)")
    print("after game 1:", first)
    print("after game 20:", last)
    assert page.locator(fileiras.end).count() == 1
    assert page.locator(fileiras.final_score).count() == 2
    grown = {k: last[k] / first[k] for k in first if last[k] > first[k] * 1.10}
    assert not grown, f"grew by more than 10% from game 1 to game 20: {grown}"


CLICK = "selector => document.querySelector(selector).click()"


def test_a_tab_taking_the_game_over_keeps_the_move_just_made_in_the_other(
    guarded: Any, site: str, fileiras: Any
) -> None:
    """Issue 39, item 14: "Play it here" a moment after a move in the other tab reads the
    save once that tab gave the game up (a Web Lock), so the move is kept; "Resume" in
    two tabs at the same instant leaves one of them playing."""
    first, second = two_tabs(guarded, site, fileiras)
    elsewhere = ".resume:has-text('open in another tab') [data-action=resume]"
    second.wait_for_selector(elsewhere, timeout=OTHER_TAB_MS)
    first.wait_for_selector(fileiras.draw)
    drawn = first.evaluate(
        f"() => {{ document.querySelector('{fileiras.draw}').click();"
        f" return JSON.parse(localStorage.getItem('{SAVE}')).events.length; }}"
    )
    second.evaluate(CLICK, ".resume [data-action=resume]")  # at once: "Play it here"
    second.wait_for_selector(fileiras.your_turn, timeout=OTHER_TAB_MS)
    first.wait_for_selector(elsewhere, timeout=OTHER_TAB_MS)
    assert second.evaluate(EVENTS, SAVE) >= drawn  # the card drawn in the first tab is there
    # Both at their set-up screen, "Resume" clicked in both at the same instant.
    second.reload()
    guarded.wait_ready(second)
    resume = "[data-action=resume]"
    second.wait_for_selector(resume, timeout=60_000)
    first.wait_for_selector(resume)
    first.evaluate(CLICK, resume)
    second.evaluate(CLICK, resume)
    playing = f"{fileiras.your_turn}, {elsewhere}"
    first.wait_for_selector(playing, timeout=OTHER_TAB_MS)
    second.wait_for_selector(playing, timeout=OTHER_TAB_MS)
    boards = [tab.locator(".fboard").count() for tab in (first, second)]
    assert sorted(boards) == [0, 1], boards  # one plays, the other says where


def test_with_storage_full_a_finished_game_and_an_import_say_what_was_not_kept(
    guarded: Any, site: str, fileiras: Any, tmp_path: Any
) -> None:
    """Issue 39, item 7: the end screen says that the game could not be added to the
    records, and an import says that nothing was kept, instead of "added"."""
    page = filling_up(guarded, site, fileiras)
    page.evaluate(PUT, ["test.full", "1"])
    assert fileiras.finish(page) == 2
    said = page.locator(f"{fileiras.end} [data-role=records-said]")
    said.wait_for()
    assert "could not be added to your records" in said.inner_text()
    assert page.evaluate(GET, "optimus-table.records") is None
    other = records.Records()
    other.add(records.Result("fileiras", "easy", 2, 30, True, "2026-12-01", {"events": []}))
    path = tmp_path / "records.json"
    path.write_text(records.dump(other))
    page.click(f"{fileiras.end} a[href='#/records']")
    page.set_input_files("[data-role=records-import]", str(path))
    page.wait_for_selector("[data-role=records-said]:has-text('could not be kept')")
    assert page.evaluate(GET, "optimus-table.records") is None
