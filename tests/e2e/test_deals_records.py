"""Links to a deal, the daily challenge, the records page and replays, in Chromium.

Pages are ``guarded`` (conftest.py): console errors, page errors and requests to
other hosts fail the test.  Each wait is on a state, never on time.  The daily
challenge of a fixed day is opened with ``#/<game>/daily?date=YYYY-MM-DD`` (a day
that has come only: docs/table.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from optimus.core.record import CHANCE, Record, replay
from optimus.ui import table as ui
from tests.e2e.conftest import press_tool

END = "dialog[data-role=end][open]"
RECORDS_KEY = "optimus-table.records"
NO_OVERFLOW = "() => document.scrollingElement.scrollWidth <= innerWidth"


def chances(record: Record, n: int = 6) -> list[Any]:
    return [what for who, what in record.events if who == CHANCE][:n]


def finished_record(page: Any) -> Record:
    return Record.from_json(page.locator(END).get_attribute("data-record"))


def records_row(page: Any, game: str, level: str) -> Any:
    return page.locator(f'.records-game[data-game="{game}"] .records-line[data-level="{level}"]')


def test_a_deal_link_played_twice_counts_in_the_records_and_replays_to_its_scores(
    guarded: Any, site: str, fileiras: Any, axe_audit: Any, tmp_path: Path
) -> None:
    page = guarded.open_setup(site, "fileiras")
    guarded.context.grant_permissions(["clipboard-read", "clipboard-write"])
    fileiras.instant(page)
    # A link starts its deal at once: seed, seats and the game's own option.
    page.evaluate("location.hash = '#/fileiras?seed=812&players=you,easy&advanced=0'")
    page.wait_for_selector(".status.you, " + END)
    assert page.evaluate("location.hash") == "#/fileiras"  # the link is not played again
    assert fileiras.finish(page) == 2
    first = finished_record(page)
    assert first.seed == 812 and first.options["players"] == 2
    assert "Play the same deal again" in page.locator(END).inner_text()
    assert not axe_audit(page)  # the end screen, with its links

    # "Copy link": the clipboard holds this deal's link.
    page.click(f"{END} [data-action=copy-link]")
    page.wait_for_selector(f"{END} [data-role=link-said]:has-text('Link copied')")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.endswith("#/fileiras?seed=812&players=you,easy&advanced=0")

    # The same deal again: the same cards come out.
    page.click(f"{END} [data-action=same-deal]")
    page.wait_for_selector(f"{END}", state="detached")
    assert fileiras.finish(page) == 2
    second = finished_record(page)
    assert second.seed == 812
    assert chances(second) == chances(first) and len(chances(first)) == 6

    # Two finished games in the records, also after a reload.
    page.click(f"{END} a[href='#/records']")
    row = records_row(page, "fileiras", "easy")
    row.wait_for()
    assert row.get_attribute("data-played") == "2"
    page.reload()
    guarded.wait_ready()
    row.wait_for()
    assert row.get_attribute("data-played") == "2"
    chart = row.locator("svg.chart.history")
    assert "oldest first" in str(chart.get_attribute("aria-label"))
    assert not axe_audit(page)

    # Export, clear (after a confirmation), import: the same records again.
    with page.expect_download() as download:
        page.click("[data-action=records-export]")
    exported = tmp_path / "records.json"
    download.value.save_as(exported)
    assert json.loads(exported.read_text())["format"] == "optimus-table-records"
    page.click("[data-action=records-clear]")
    page.click("dialog[open] [data-action=confirm-no]")  # cancelled: nothing cleared
    assert records_row(page, "fileiras", "easy").count() == 1
    page.click("[data-action=records-clear]")
    page.click("dialog[open] [data-action=confirm-yes]")
    page.wait_for_selector("[data-role=records-said]:has-text('cleared')")
    assert records_row(page, "fileiras", "easy").count() == 0
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    page.set_input_files("[data-role=records-import]", str(bad))
    page.wait_for_selector("[data-role=records-said]:has-text('nothing was changed')")
    page.set_input_files("[data-role=records-import]", str(exported))
    page.wait_for_selector("[data-role=records-said]:has-text('were added')")
    assert records_row(page, "fileiras", "easy").get_attribute("data-played") == "2"

    # The newest game, watched again: at its end, the record's final scores.
    page.locator(".replays li").first.locator("a").click()
    page.wait_for_selector("[data-role=replay-bar]")
    final = replay(second)
    steps = len(second.events)
    page.wait_for_selector(f"[data-replay-step='{steps}']")
    scores = [
        float(s.inner_text().split()[0].replace(",", ""))
        for s in page.locator("[data-role=panels] [data-role=score]").all()
    ]
    assert scores == list(final.scores())
    assert page.locator(END).count() == 0
    # The start is the first decision (the cards dealt); each step is one event more
    # (with the chance that follows it), back and forth.
    shell = page.locator(".table-shell")
    page.click("[data-action=replay-start]")
    page.wait_for_selector(f".table-shell:not([data-replay-step='{steps}'])")
    start = int(shell.get_attribute("data-replay-step"))
    assert 0 < start < 10 and second.events[start][0] != CHANCE
    page.click("[data-action=replay-forward]")
    page.wait_for_selector(f".table-shell:not([data-replay-step='{start}'])")
    step = int(shell.get_attribute("data-replay-step"))
    assert step > start
    assert page.locator("[data-role=board] [data-move]").count() == 0  # nothing to play
    page.click("[data-action=replay-back]")
    page.wait_for_selector(f".table-shell[data-replay-step='{start}']")
    page.select_option("[data-role=replay-round]", index=2)  # round 2
    page.wait_for_selector(f".table-shell:not([data-replay-step='{start}'])")
    assert not axe_audit(page)
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(NO_OVERFLOW)
    page.goto(f"{site}#/records")
    page.wait_for_selector(".records-game")
    assert page.evaluate(NO_OVERFLOW)
    assert not axe_audit(page)


def test_a_malformed_link_shows_notices_and_runs_nothing(guarded: Any, site: str) -> None:
    page = guarded.page
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    evil = "<img src=x onerror=window.hacked=1>"
    page.goto(f"{site}#/fileiras?seed=12x&players=you,{evil}&{evil}=1&advanced=maybe")
    guarded.wait_ready()
    notices = page.locator("[data-role=link-notices] .notice")
    notices.first.wait_for()
    said = notices.all_inner_texts()
    assert any("seed" in s and "12x" in s for s in said)
    assert any("advanced" in s for s in said)
    assert any("<img" in s for s in said)  # shown as text
    page.wait_for_selector("[data-role=setup]")  # no seed: nothing started
    assert page.evaluate("document.querySelectorAll('img[src=x]').length") == 0
    assert page.evaluate("window.hacked") is None
    # Optimus' sheet is a standard sheet or random:N, never a path; the rest still plays.
    page.evaluate("location.hash = '#/optimus?seed=5&players=you&sheet=../../etc/passwd'")
    page.wait_for_selector("[data-role=link-notices]:has-text('etc/passwd')")
    page.wait_for_selector("[data-role=board] .sheet, [data-role=board] [data-role=sheet-name]")
    save = page.evaluate("localStorage.getItem('optimus-table.optimus.save')")
    assert Record.from_json(save).options["sheet"] == "harbour"
    page.evaluate("location.hash = '#/optimus?seed=5&players=you&sheet=random:4411&bonuses=0'")
    page.click("dialog[open] [data-action=confirm-yes]")  # replaces the game in progress
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('optimus-table.optimus.save'))"
        ".options.sheet === 'random:4411'"
    )
    save = json.loads(page.evaluate("localStorage.getItem('optimus-table.optimus.save')"))
    assert save["options"]["bonuses"] is False and save["seed"] == 5
    page.evaluate("location.hash = '#/nogame?seed=1'")
    page.wait_for_selector(".notice:has-text('There is no game called')")
    assert not dialogs


def test_numbers_that_are_no_ascii_digits_and_a_bad_daily_mark_are_said_and_ignored(
    guarded: Any, site: str
) -> None:
    """Issue 39, items 11 and 12: ``str.isdigit`` accepts "²", which ``int`` refuses."""
    page = guarded.page
    page.goto(f"{site}#/fileiras?seed=²&players=you,hard")
    guarded.wait_ready()
    page.wait_for_selector("[data-role=link-notices]:has-text('seed “²” is not a number')")
    page.wait_for_function("() => location.hash === '#/fileiras'")  # the link is gone
    page.wait_for_selector("[data-role=setup]")
    page.evaluate("location.hash = '#/fileiras?seed=①&players=you,hard'")
    page.wait_for_selector("[data-role=link-notices]:has-text('seed “①”')")
    page.wait_for_function("() => location.hash === '#/fileiras'")
    # A random sheet of no number: said, and the deal plays on the standard sheet.
    page.evaluate("location.hash = '#/optimus?seed=5&players=you&sheet=random:²'")
    page.wait_for_selector("[data-role=link-notices]:has-text('random:²')")
    page.wait_for_function(
        "() => (JSON.parse(localStorage.getItem('optimus-table.optimus.save')) || {}).seed === 5"
    )
    page.evaluate(f"location.hash = '#/optimus2/replay/{'1' * 100_000}'")
    page.wait_for_selector("[data-role=link-notices]:has-text('no finished game 1111')")
    # A daily mark of no real day: the saved game resumes as practice, and it is said.
    page.evaluate("location.hash = '#/fileiras?seed=5&players=you,hard'")
    page.wait_for_function("() => localStorage.getItem('optimus-table.fileiras.save') !== null")
    page.evaluate("localStorage.setItem('optimus-table.fileiras.daily', '5 2026-13-45')")
    page.reload()
    guarded.wait_ready()
    page.click("[data-action=resume]")
    page.wait_for_selector("[data-role=link-notices]:has-text('daily challenge could not be read')")
    page.wait_for_selector("[data-role=board]")
    assert page.evaluate("localStorage.getItem('optimus-table.fileiras.daily')") is None
    assert page.locator("[data-role=title-note]").count() == 0


def test_the_daily_challenge_of_a_day_is_the_same_game_everywhere(
    browser: Any, site: str, guard_context: Any
) -> None:
    saves = []
    for _ in range(2):
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
        with guard_context(context, site.rstrip("/")) as guard:
            page = guard.page
            page.goto(f"{site}#/optimus2/daily?date=2026-12-01")
            guard.wait_ready()
            page.wait_for_selector("[data-role=board] .o2board")
            title = page.locator("#game-title").inner_text()
            assert "Daily challenge of 1 December 2026" in title
            save = page.evaluate("localStorage.getItem('optimus-table.optimus2.save')")
            saves.append(Record.from_json(save))
            assert page.evaluate(NO_OVERFLOW)
    assert saves[0].seed == saves[1].seed
    assert chances(saves[0], 2) == chances(saves[1], 2) and chances(saves[0], 1)


def test_the_first_finished_daily_try_counts_and_the_next_is_practice(
    guarded: Any, site: str, fileiras: Any
) -> None:
    page = guarded.open_setup(site, "fileiras")
    fileiras.instant(page)
    page.evaluate("location.hash = '#/fileiras/daily?date=2026-12-01'")
    page.wait_for_selector("[data-role=title-note]:has-text('1 December 2026')")
    assert fileiras.finish(page) == 3  # the day's bots: normal and hard
    note = page.locator(f"{END} [data-role=daily-note]")
    assert "counts for the daily challenge" in note.inner_text()
    first = finished_record(page)
    # Shared where the browser cannot share: the text is offered to copy.
    page.click(f"{END} [data-action=share-daily]")
    page.wait_for_selector(f"{END} [data-role=link-said]:not(:empty)")
    shared = page.locator(f"{END} [data-role=link-text]").input_value()
    assert shared.startswith("Fileiras, daily challenge of 1 December 2026: ")
    assert shared.endswith("#/fileiras/daily?date=2026-12-01")
    page.click(f"{END} [data-action=same-deal]")
    page.wait_for_selector(END, state="detached")
    # A second try says "practice" from its start (issue 36 §4.2), not only at its end.
    page.wait_for_selector("[data-role=title-note][data-practice]:has-text('practice')")
    assert fileiras.finish(page) == 3
    assert finished_record(page).seed == first.seed
    assert "Practice" in page.locator(f"{END} [data-role=daily-note]").inner_text()
    # Its "Share" sends the counted result, the first try's, not this one's.
    page.click(f"{END} [data-action=share-daily]")
    page.wait_for_selector(f"{END} [data-role=link-said]:not(:empty)")
    assert page.locator(f"{END} [data-role=link-text]").input_value() == shared
    counted = json.loads(page.evaluate(f"localStorage.getItem('{RECORDS_KEY}')"))
    points = ui.points(counted["daily"]["fileiras"]["2026-12-01"]["score"])
    assert f": {points}" in shared, (points, shared)
    # Another language: the same end screen, its daily line said again.
    page.select_option("#game .game-bar select[data-language]", "pt")
    page.wait_for_selector(f"{END} [data-role=daily-note]:has-text('Treino')")
    assert "1 de dezembro de 2026" in page.locator("[data-role=title-note]").inner_text()
    page.keyboard.press("Escape")  # the end screen closes; the game bar is there
    page.wait_for_selector(END, state="detached")
    press_tool(page, "a[href='#/records']")  # the game bar leads to the records
    page.wait_for_selector(".records-game[data-game=fileiras] [data-streak]")
    kept = json.loads(page.evaluate(f"localStorage.getItem('{RECORDS_KEY}')"))
    assert list(kept["daily"]["fileiras"]) == ["2026-12-01"]
    assert len(kept["games"]["fileiras"]["hard"]["results"]) == 2  # each game, with its id


def finished_game(game_id: str, players: int, seed: int) -> dict[str, Any]:
    """A finished game of ``game_id`` (first legal move each time), as the records keep it."""
    from optimus.core.record import Match
    from optimus.core.registry import get_game

    match = Match(get_game(game_id), {"players": players}, seed)
    while not match.state.is_terminal():
        actor = match.state.actors()[0]
        moves = match.state.legal_moves(actor)
        match.play(actor, moves[len(match.record.events) % len(moves)])
    data = match.record.to_dict()
    data["seats"] = ["human", *["easy"] * (players - 1)]
    return data


def test_a_corrupt_store_is_kept_aside_and_every_game_replays_to_its_final_scores(
    guarded: Any, site: str
) -> None:
    from optimus.ui import records

    page = guarded.page
    page.goto(f"{site}#/")
    guarded.wait_ready()
    page.evaluate(f"localStorage.setItem('{RECORDS_KEY}', '{{\"format\": [[[')")
    page.goto(f"{site}#/records")
    page.wait_for_selector(".notice:has-text('could not be read')")
    assert page.evaluate(f"localStorage.getItem('{RECORDS_KEY}.backup1')") == '{"format": [[['
    for n in range(3):  # the last three are kept, newest first
        page.evaluate(f"localStorage.setItem('{RECORDS_KEY}', 'bad {n}')")
        page.evaluate("location.hash = '#/'")
        page.wait_for_selector("#home:not([hidden])", state="attached")
        page.evaluate("location.hash = '#/records'")
        page.wait_for_selector(".notice:has-text('could not be read')")
    backups = [
        page.evaluate(f"localStorage.getItem('{RECORDS_KEY}.backup{n}')") for n in (1, 2, 3, 4)
    ]
    assert backups == ["bad 2", "bad 1", "bad 0", None]
    assert page.evaluate(f"localStorage.getItem('{RECORDS_KEY}')") is None
    # Kept: one game of each, replayed by its own page to its final scores.
    kept = records.Records()
    games = {"optimus": 1, "optimus2": 2, "fileiras": 3}
    for game, players in games.items():
        data = finished_game(game, players, 5)
        kept.add(records.Result(game, "easy", players, 0, False, "2026-12-01", data))
    page.evaluate(
        "([key, text]) => localStorage.setItem(key, text)", [RECORDS_KEY, records.dump(kept)]
    )
    for n, game in enumerate(games):
        record = Record.from_dict(kept.replays[n]["record"])
        final = replay(record)
        page.goto(f"{site}#/{game}/replay/{n}")
        page.wait_for_selector(f".table-shell[data-replay-step='{len(record.events)}']")
        scores = [
            float(s.inner_text().split()[0].replace(",", ""))
            for s in page.locator("[data-role=panels] [data-role=score]").all()
        ]
        assert scores == list(final.scores()), game
        page.click("[data-action=replay-start]")
        page.wait_for_selector(f".table-shell:not([data-replay-step='{len(record.events)}'])")
        page.click("[data-action=replay-forward]")
        assert page.locator("[data-role=board] [data-move]").count() == 0
        page.locator("[data-role=panels] .panel-head").first.click()
        page.wait_for_selector("dialog[data-role=player][open]")
        page.keyboard.press("Escape")
    # A replay that is not there says so.
    page.goto(f"{site}#/optimus2/replay/7")
    page.wait_for_selector("[data-role=link-notices]:has-text('no finished game 7')")


def test_with_storage_refused_records_last_the_page_and_it_says_so(
    guarded: Any, site: str, fileiras: Any
) -> None:
    from tests.e2e.test_fileiras import REFUSE_STORAGE

    page = guarded.page
    page.add_init_script(REFUSE_STORAGE)
    page.goto(f"{site}#/fileiras")
    guarded.wait_ready()
    assert fileiras.play_to_the_end(page) == 2
    page.click(f"{END} a[href='#/records']")
    page.wait_for_selector(".notice:has-text('last only until you close the page')")
    line = ".records-game[data-game=fileiras] .records-line[data-played='1']"
    assert page.locator(line).count() == 1


def test_a_records_file_with_impossible_numbers_is_refused_in_words_and_merges_once(
    guarded: Any, site: str, tmp_path: Path
) -> None:
    """Issue 39, items 3-5 and 9: stored records holding a number of 400 digits are set
    aside (the page lives, with Export, Import and Clear), a game page that read them
    first leaves the notice to the records page, a file with such numbers or Infinity is
    refused in words, and the same file imported twice counts its games once."""
    from optimus.ui import records

    v1 = {
        "format": "optimus-table-records",
        "version": 1,
        "games": {
            "fileiras": {
                "easy": {"played": 1, "wins": 0, "best": 5, "total": 5, "scores": [5], "bands": {}}
            }
        },
        "daily": {},
        "replays": [],
    }
    huge = json.dumps(v1).replace('"total": 5', '"total": ' + "9" * 400)
    page = guarded.page
    page.goto(f"{site}#/")
    guarded.wait_ready()
    page.evaluate("([key, text]) => localStorage.setItem(key, text)", [RECORDS_KEY, huge])
    page.goto(f"{site}#/fileiras")  # a game page reads them first
    page.wait_for_selector("[data-role=setup]")
    assert page.evaluate(f"localStorage.getItem('{RECORDS_KEY}.backup1')") == huge
    page.goto(f"{site}#/records")
    page.wait_for_selector(".notice:has-text('could not be read')")
    for action in ("records-export", "records-clear"):
        assert page.locator(f"[data-action={action}]").count() == 1
    for name, text in {
        "digits.json": huge,
        "infinity.json": json.dumps(v1).replace('"total": 5', '"total": Infinity'),
        "big.json": json.dumps(v1).replace('"total": 5', '"total": 1e400'),
    }.items():
        path = tmp_path / name
        path.write_text(text)
        page.evaluate("document.querySelector('[data-role=records-said]').textContent = ''")
        page.set_input_files("[data-role=records-import]", str(path))
        said = page.locator("[data-role=records-said]:not(:empty)")
        said.wait_for()
        assert "no game of this site can reach" in said.inner_text(), name
        assert records_row(page, "fileiras", "easy").count() == 0
    good = records.Records()
    good.add(records.Result("fileiras", "easy", 2, 30, True, "2026-12-01", {"events": []}))
    path = tmp_path / "good.json"
    path.write_text(records.dump(good))
    for _ in range(2):
        page.evaluate("document.querySelector('[data-role=records-said]').textContent = ''")
        page.set_input_files("[data-role=records-import]", str(path))
        page.wait_for_selector("[data-role=records-said]:has-text('were added')")
        assert records_row(page, "fileiras", "easy").get_attribute("data-played") == "1"
    page.reload()
    guarded.wait_ready()
    records_row(page, "fileiras", "easy").wait_for()
    assert records_row(page, "fileiras", "easy").get_attribute("data-played") == "1"
