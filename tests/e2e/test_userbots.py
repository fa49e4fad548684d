"""Your own bot at the table, in real Chromium: from a ``.py`` file and from a wheel,
loaded and played in the bot worker (web/botworker.js), never in the page.

Every page is ``guarded`` (no request to another host, no console or page
error); waits are on states, never on time.  The example bot is the one in
docs/examples/ that docs/bots.md describes.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "greedy_bot.py"
PICKER = "[data-role=bot-file]"
MESSAGE = "[data-role=bot-message]"
SETTLED = f"{MESSAGE}[data-state=done], {MESSAGE}[data-state=error]"
NOTES = ".log li.note"

BAD_BOTS = ROOT / "tests" / "fixtures" / "bad_bots.py"


def py_file(name: str, text: bytes) -> dict[str, Any]:
    return {"name": name, "mimeType": "text/x-python", "buffer": text}


def wheel(module: str, source: str) -> bytes:
    """A pure-Python wheel of one package holding ``source``, made with the stdlib."""
    dist = f"{module}-0.1.dist-info"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(f"{module}/__init__.py", source)
        archive.writestr(
            f"{dist}/METADATA", f"Metadata-Version: 2.1\nName: {module}\nVersion: 0.1\n"
        )
        archive.writestr(
            f"{dist}/WHEEL",
            "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
        archive.writestr(f"{dist}/RECORD", "")
    return buffer.getvalue()


def pick(page: Any, *files: dict[str, Any]) -> str:
    """Choose files with the picker; the message once they are loaded (or refused)."""
    page.evaluate(f"document.querySelector('{MESSAGE}').removeAttribute('data-state')")
    page.set_input_files(PICKER, list(files))
    page.wait_for_selector(SETTLED, state="attached")
    return str(page.text_content(MESSAGE))


def drop(page: Any, name: str, data: bytes) -> str:
    """Drop a file on the set-up screen as a person would drag it from the desktop."""
    page.evaluate(f"document.querySelector('{MESSAGE}').removeAttribute('data-state')")
    page.evaluate(
        """([name, bytes]) => {
          const transfer = new DataTransfer();
          transfer.items.add(new File([new Uint8Array(bytes)], name));
          const zone = document.querySelector("[data-role=userbots]");
          for (const type of ["dragenter", "dragover", "drop"])
            zone.dispatchEvent(new DragEvent(type, {dataTransfer: transfer, bubbles: true,
                                                    cancelable: true}));
        }""",
        [name, list(data)],
    )
    page.wait_for_selector(SETTLED, state="attached")
    return str(page.text_content(MESSAGE))


def play_with(page: Any, fileiras: Any, specs: list[str]) -> tuple[int, set[str]]:
    """Seat the bots ``specs`` (in the order of the seat settings), play the game to its
    end at instant speed: the number of final scores and every note the log showed."""
    for seat, spec in enumerate(specs):
        page.select_option(f"select[name=bot{seat}]", spec)
    fileiras.instant(page)
    page.click(fileiras.start)
    seen: set[str] = set()
    scores = fileiras.finish(page, lambda: seen.update(page.locator(NOTES).all_text_contents()))
    seen.update(page.locator(NOTES).all_text_contents())
    return scores, seen


def micropip_requested(page: Any) -> bool:
    return bool(
        page.evaluate(
            "performance.getEntriesByType('resource').some(e => e.name.includes('micropip'))"
        )
    )


def test_a_py_bot_plays_to_the_end_and_bad_bots_are_told_in_words(guarded, site, fileiras):
    page = guarded.page
    page.goto(site + "#/fileiras")
    guarded.wait_ready()
    # Cold boot: micropip neither imported nor even downloaded.
    assert "micropip" not in page.evaluate("document.documentElement.dataset.bootPackages")
    assert not micropip_requested(page)
    page.wait_for_selector(fileiras.setup)

    # Bad files: each refused in plain words, the set-up screen stays usable.
    said = pick(page, py_file("typo.py", b"from optimus.core.bots import Bot\n\nclass X(Bot:\n"))
    assert "typo.py, line 3: SyntaxError" in said
    said = pick(page, py_file("needs.py", b"import math\nimport numpy\n"))
    assert "needs.py, line 2: ModuleNotFoundError: No module named 'numpy'" in said
    said = pick(page, py_file("empty.py", b"X = 1\n"))
    assert "empty.py defines no subclass of optimus.core.bots.Bot" in said
    said = pick(page, py_file("bye.py", b"import sys\n\nsys.exit()\n"))  # not "Loading…"
    assert "bye.py, line 3: SystemExit" in said
    assert page.locator("select[name=bot0] option").count() == 4  # nothing was added
    # (the three levels and "A person at this device")

    said = pick(page, py_file("greedy_bot.py", EXAMPLE.read_bytes()))
    assert "Added GreedyBot (greedy_bot)" in said
    said = pick(page, py_file("bad_bots.py", BAD_BOTS.read_bytes()))
    assert "Added Raises (bad_bots), Illegal (bad_bots), Slow (bad_bots), NotAGenerator" in said
    assert not micropip_requested(page)  # a .py file needs no micropip
    assert "bye" not in page.evaluate("optimusCompiledInPage()")  # nor was it imported here

    page.select_option(fileiras.players, "5")
    scores, seen = play_with(
        page,
        fileiras,
        ["greedy_bot:GreedyBot", "bad_bots:Exits", "bad_bots:Illegal", "bad_bots:Slow"],
    )
    assert scores == 5
    assert any(n.startswith("Exits 2 failed while thinking (SystemExit)") for n in seen)
    assert any(n.startswith("Illegal 3 chose an illegal move (fly away)") for n in seen)
    assert any(n.startswith("Slow 4 thought for more than 0.03 s") for n in seen)
    assert all(n.endswith("the Normal bot played this move for it.") for n in seen), seen
    assert not any(n.startswith("GreedyBot") for n in seen)  # the example bot never failed


def test_a_wheel_is_unpacked_in_the_bot_worker_and_a_save_never_loads_a_bot(
    guarded, site, fileiras
):
    page = guarded.page
    page.goto(site + "#/fileiras")
    guarded.wait_ready()
    page.wait_for_selector(fileiras.setup)
    data = wheel("wheelgreedy", EXAMPLE.read_text())
    said = drop(page, "wheelgreedy-0.1-py3-none-any.whl", data)
    assert "Added GreedyBot (wheelgreedy)" in said, said
    assert not micropip_requested(page)  # unpacked in the bot worker: no installer
    page.select_option(fileiras.players, "2")
    page.select_option("select[name=bot0]", "wheelgreedy:GreedyBot")
    fileiras.instant(page)
    page.click(fileiras.start)
    assert fileiras.finish(page) == 2
    assert page.locator(NOTES).count() == 0

    # A game in progress with the wheel's bot, then the page is closed and opened again:
    # the bot is not loaded any more, so the save resumes with the normal bot and says so.
    page.click(f"{fileiras.end} [data-action=new]")
    page.click(fileiras.start)
    page.wait_for_selector(fileiras.your_turn)
    page.reload()
    guarded.wait_ready()
    notice = page.locator(".setup .notice", has_text="not loaded")
    notice.wait_for()
    assert "Seat 2 was your bot GreedyBot (wheelgreedy), which is not loaded" in str(
        notice.text_content()
    )
    page.click("[data-action=resume]")
    page.wait_for_selector(fileiras.your_turn)
    assert "the Normal bot plays it" in page.locator(NOTES).first.text_content()
    assert fileiras.finish(page) == 2


def test_a_bot_that_loops_for_ever_never_freezes_the_page_and_is_stopped(guarded, site, fileiras):
    page = guarded.page
    page.goto(site + "#/fileiras")
    guarded.wait_ready()
    page.wait_for_selector(fileiras.setup)
    said = pick(page, py_file("bad_bots.py", BAD_BOTS.read_bytes()))
    assert "Forever (bad_bots)" in said
    page.select_option(fileiras.players, "2")
    page.select_option("select[name=bot0]", "bad_bots:Forever")
    fileiras.instant(page)
    page.click(fileiras.start)
    # Play until the looping bot is to move: it thinks in the worker, for ever.
    while True:
        page.wait_for_selector(f"{fileiras.your_turn}, .status.thinking")
        if page.locator(".status.thinking").count():
            break
        fileiras.move(page)
    # Meanwhile the page answers: the rules drawer opens and closes, the bot still thinking.
    page.click("#game-tools [data-action=rules]")
    page.wait_for_selector("dialog[data-role=rules][open]")
    assert page.locator(".status.thinking").count() == 1
    assert page.locator(NOTES).count() == 0
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[data-role=rules]:not([open])", state="attached")
    # Past the time limit the worker is stopped and the normal bot plays, for good.
    note = page.locator(NOTES, has_text="took too long")
    note.wait_for()
    assert str(note.text_content()).startswith(
        "Forever 1 took too long (no answer within 5 s) and was stopped: the Normal bot "
        "played this move for it, and plays its moves from now on."
    )
    counts: list[int] = []
    assert fileiras.finish(page, lambda: counts.append(page.locator(NOTES).count())) == 2
    assert max(counts) == 1  # said once: the seat stays with the normal bot (a new round's
    # log starts empty)
    assert int(page.evaluate("document.documentElement.dataset.botWorkerMs")) > 0


BREAKERS = b'''"""Bots that break the worker itself (issue 39, items 1 and 2)."""
import os

import js

from optimus.core.bots import Bot


class Floods(Bot):
    """Posts the page what no answer is: deeper than any parser's stack, not JSON."""

    def think(self, observation, legal_moves):
        yield None
        js.postMessage("[" * 8000 + "]" * 8000)
        js.postMessage("not JSON")
        return legal_moves[0]


class Ends(Bot):
    """Ends the worker's Python while thinking."""

    def think(self, observation, legal_moves):
        yield None
        os._exit(0)
'''


def test_a_bot_that_floods_the_page_or_ends_its_python_is_stopped_at_once(guarded, site, fileiras):
    page = guarded.page
    page.goto(site + "#/fileiras")
    guarded.wait_ready()
    page.wait_for_selector(fileiras.setup)
    # os._exit at import: said at once, not as a bot that did not finish loading.
    said = pick(page, py_file("bye.py", b"import os\n\nos._exit(3)\n"))
    assert "bye.py was stopped: its Python exited (os._exit, status 3)" in said, said
    said = pick(page, py_file("breakers.py", BREAKERS))
    assert "Added Floods (breakers), Ends (breakers)" in said, said
    page.select_option(fileiras.players, "3")
    scores, seen = play_with(page, fileiras, ["breakers:Floods", "breakers:Ends"])
    assert scores == 3
    floods = [n for n in seen if n.startswith("Floods")]
    ends = [n for n in seen if n.startswith("Ends")]
    assert floods and all(
        "was stopped (it sent the page a message that is not the game's): the Normal bot "
        "played this move for it, and plays its moves from now on." in n
        for n in floods
    ), seen
    assert ends and all("was stopped (its Python exited (os._exit, status 0))" in n for n in ends)
    assert "took too long" not in " ".join(seen)  # said at once, not after 5 s
