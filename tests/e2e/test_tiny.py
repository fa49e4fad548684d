"""The tiny game in the page: registered only by its description in optimus.games.

It is not on the landing page, no list of the page names it, yet its route draws
the shared table around its board, its archive comes with it, and a game is
played to its end against a bot (docs/adding-a-game.md).  This shows the seam
is real: a game is its rules, its board and one description.
"""

from __future__ import annotations

from typing import Any

from optimus.games import GAMES

END = "dialog[data-role=end][open]"
YOUR_TURN = ".status.you"
CHOICE = "[data-role=board] button[data-move]"
SAVE = "optimus-table.tiny.save"
EVENTS = "key => (JSON.parse(localStorage.getItem(key) || '{}').events || []).length"


def test_the_tiny_game_plays_to_its_end_from_its_description_alone(guarded: Any, site: str):
    info = GAMES["tiny"]
    page = guarded.page
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(site)
    guarded.wait_ready()
    assert page.locator("a.game-card[data-game=tiny]").count() == 0  # unlisted
    page.goto(site + "#/tiny")
    page.wait_for_selector("[data-role=setup]")
    assert page.title().startswith(info.title)
    counts = page.locator("select[name=players] option").evaluate_all(
        "options => options.map(o => Number(o.value))"
    )
    assert counts == list(info.player_counts)
    page.select_option("select[name=players]", "2")
    levels = page.locator("select[name=bot0] option").evaluate_all(
        "options => options.map(o => o.value)"
    )
    assert levels == [*info.levels, "person"]  # the bot levels, or one more person here
    page.click("[data-action=start]")
    page.wait_for_selector(f"{YOUR_TURN}, {END}")
    assert any("/tiny-" in url and url.endswith(".zip.gz") for url in requested)

    moves = 0
    while not page.locator(END).count():
        before = page.evaluate(EVENTS, SAVE)
        page.locator(CHOICE).first.click()  # the first legal choice, on its button
        moves += 1
        assert moves < 100, "the game does not end"
        # Saved (or over: a finished game's save is removed).
        page.wait_for_function(
            f"n => document.querySelector('{END}') || ({EVENTS})('{SAVE}') > n", arg=before
        )
        page.wait_for_selector(f"{YOUR_TURN}, {END}")
    assert guarded.final_state().num_players == 2 and moves >= 3
