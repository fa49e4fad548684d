"""``python build.py bench-bots``: how long a person waits for the bots, in Chromium.

A game is opened by its deal link (``#/<game>?seed=S&players=you,hard,hard,hard``)
at "Instant" speed (no animation pacing), and the person's seat is played by
clicks as a person would make them (for Optimus 2 any lit cell, die or button; for
Optimus a pass; for Fileiras a draw and a place, or a take).  Each *wait* is the
time from the moment the table stops being the person's turn (their decision was
taken) until it is their turn again or the game ends: the bots' thinking, and the
drawing of what they did.  Also printed: the longest main-thread task of the game
(the page's longest freeze), under each CPU throttling rate asked for (4: a
mid-range phone, by Chromium's ``Emulation.setCPUThrottlingRate``).  docs/bots.md
gives the current figures.
"""

from __future__ import annotations

import dataclasses
import json
import statistics
from collections.abc import Sequence
from typing import Any

from optimus_lab import per_game
from sitebuild.dist import build, dist_is_fresh
from sitebuild.server import start_server
from sitebuild.testing import CHROMIUM, browser_args, ensure_chromium, pip_install

END = "dialog[data-role=end][open]"
YOUR_TURN = ".status.you"

# The person's turn begins (the status says so) or ends; each stretch that is not
# theirs is a wait, timed from the page's side.  Long tasks are collected too.
WATCH = """
window.__waits = []; window.__longTasks = [];
(() => {
  let since = null;
  const mine = () => !!document.querySelector('.status.you, dialog[data-role=end][open]');
  new MutationObserver(() => {
    const now = performance.now(), yours = mine();
    if (!yours && since === null) since = now;
    else if (yours && since !== null) { window.__waits.push([since, now]); since = null; }
  }).observe(document, { subtree: true, childList: true, attributes: true,
                         attributeFilter: ['class', 'open'] });
  // The game starts now (its deal link is opened next): the first wait runs from here.
  window.__benchStart = () => { window.__waits = []; window.__longTasks.length = 0;
                                since = performance.now(); };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
})();
"""

CLICKS: dict[str, tuple[str, ...]] = per_game("BENCH_CLICKS")
"""Per game: what the person clicks, first match first (a die, once chosen, lights cells);
each game's lab package declares its own (``optimus_lab.<id>.BENCH_CLICKS``)."""
BENCH_GAMES = tuple(CLICKS)
OPENING_MS = 300.0
"""A long task this soon after the deal link is opened is the game's opening."""
SPENT_WORDS = (
    ("think", "thinking"),
    ("draw", "drawing"),
    ("save", "saving"),
    ("ponder", "thinking while the person decided"),
)


@dataclasses.dataclass
class Played:
    """One game: the person's waits (ms), the longest task (ms) of the whole game and
    of its waits (the bots' turns), the clicks made, and where the bots' turns spent
    the page's time (the page's ``window.optimusBotTime``: ms thinking, drawing, saving)."""

    waits: list[float]
    longest_task_ms: float
    longest_in_waits_ms: float
    longest_in_play_ms: float
    """...and of the waits after the game's opening (its first task: the whole table
    drawn and laid out for the first time)."""
    clicks: int
    spent: dict[str, float]
    long_tasks: list[str] = dataclasses.field(default_factory=list)
    """The game's longest tasks, each with what of the bots' turns ran in it."""


def play(page: Any, game: str, think_s: float = 0.0, limit: int = 2000) -> int:
    """Click the person's decisions, each after ``think_s`` (a person's time to decide),
    until the end screen; the number of clicks."""
    clicks = 0
    while clicks < limit:
        page.wait_for_selector(f"{END}, {YOUR_TURN}", timeout=600_000)
        if page.locator(END).count():
            return clicks
        if think_s:
            page.wait_for_timeout(think_s * 1000)
        for selector in CLICKS[game]:
            target = page.locator(selector)
            if target.count():
                target.first.click()
                clicks += 1
                break
        else:
            status = page.locator(".status").inner_text()
            raise RuntimeError(f"bench-bots: nothing to click in {game}: {status}")
    raise RuntimeError(f"bench-bots: {game} did not end in {limit} clicks")


def one_game(
    browser: Any,
    url: str,
    game: str,
    seats: str,
    seed: int,
    rate: float,
    think_s: float = 0.0,
    thinking: str = "quick",
) -> Played:
    """Play ``game`` at ``seed`` with ``seats`` (a deal link's players) in a fresh context."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.add_init_script(WATCH)
        page.goto(f"{url}#/{game}")
        page.wait_for_selector('html[data-python="ready"]', state="attached", timeout=180_000)
        page.wait_for_selector("[data-role=setup]")
        page.click("#game-tools [data-action=settings]")
        page.select_option("dialog[open] select[name=speed]", "instant")
        page.select_option("dialog[open] select[name=thinking]", thinking)
        page.click("dialog[open] [data-action=close]")
        page.wait_for_selector("dialog[data-role=settings]:not([open])", state="attached")
        if rate > 1:
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        page.evaluate("window.__benchStart()")
        page.evaluate(f"location.hash = '#/{game}?seed={seed}&players={seats}'")
        clicks = play(page, game, think_s)
        spans = [(float(a), float(b)) for a, b in page.evaluate("window.__waits")]
        tasks = [(float(a), float(d)) for a, d in page.evaluate("window.__longTasks")]
        inside = [(a, d) for a, d in tasks if any(s <= a < e for s, e in spans)]
        opening = min((a for a, _ in inside), default=None)
        if opening is not None and spans and opening - spans[0][0] > OPENING_MS:
            opening = None  # the first long task is not the opening's
        spent = json.loads(page.evaluate("window.optimusBotTime || '{}'"))
        stretches = json.loads(page.evaluate("window.optimusLongStretches || '[]'"))
        return Played(
            [e - s for s, e in spans],
            max([0.0, *(d for _, d in tasks)]),
            max([0.0, *(d for _, d in inside)]),
            max([0.0, *(d for a, d in inside if a != opening)]),
            clicks,
            spent,
            [_made_of(a, d, stretches) for a, d in sorted(tasks, key=lambda t: -t[1])[:3]],
        )
    finally:
        context.close()


def _made_of(start: float, ms: float, stretches: list[list[Any]]) -> str:
    """A long task and the bots' stretches (of the driver's ``LONG_MS`` or more) in it."""
    parts = [
        f"{kind} {length:.0f}"
        for kind, begun, length in stretches
        if start - 1 <= begun and begun + length <= start + ms + 1
    ]
    return f"{ms:.0f} ms ({', '.join(parts) or 'no stretch of the bots'})"


def _p95(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def run_bench_bots(
    games: Sequence[str],
    level: str,
    players: int,
    runs: int,
    rates: Sequence[float],
    think_s: float = 0.0,
    thinking: str = "quick",
) -> int:
    """Play ``runs`` games of each of ``games`` (the person and ``players - 1`` bots of
    ``level``, thinking by the "Bots think" setting ``thinking``) under each CPU
    throttling rate; print the waits and longest tasks."""
    pip_install(["playwright>=1.40"])
    ensure_chromium()
    if not dist_is_fresh():
        build()
    from playwright.sync_api import sync_playwright

    server = start_server()
    seats = ",".join(["you", *[level] * (players - 1)])
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=browser_args())
            for game in games:
                for rate in rates:
                    waits: list[float] = []
                    longest = in_play = 0.0
                    for seed in range(1, runs + 1):
                        played = one_game(
                            browser, server.url, game, seats, seed, rate, think_s, thinking
                        )
                        waits += played.waits
                        longest = max(longest, played.longest_task_ms)
                        in_play = max(in_play, played.longest_in_play_ms)
                        print(
                            f"{game} {seats} seed {seed}, CPU x{rate:g}, bots think {thinking}: "
                            f"{len(played.waits)} waits, median "
                            f"{statistics.median(played.waits or [0]) / 1000:.2f} s, max "
                            f"{max(played.waits or [0]) / 1000:.2f} s; longest task "
                            f"{played.longest_task_ms:.0f} ms ({played.longest_in_waits_ms:.0f} "
                            f"ms in the waits, {played.longest_in_play_ms:.0f} ms after the "
                            f"opening); {played.clicks} clicks; the bots' "
                            f"{played.spent.get('moves', 0):.0f} moves spent "
                            + ", ".join(
                                f"{played.spent.get(k, 0) / 1000:.1f} s {word} (longest "
                                f"{played.spent.get('longest ' + k, 0):.0f} ms)"
                                for k, word in SPENT_WORDS
                            )
                            + "; longest tasks: "
                            + ("; ".join(played.long_tasks) or "none over 50 ms")
                            + "; waits (s): "
                            + " ".join(f"{w / 1000:.1f}" for w in played.waits),
                            flush=True,
                        )
                    if waits:
                        print(
                            f"== {game} {seats}, CPU x{rate:g}, bots think {thinking}, {runs} "
                            f"games: the person's "
                            f"wait median {statistics.median(waits) / 1000:.2f} s, p95 "
                            f"{_p95(waits) / 1000:.2f} s, max {max(waits) / 1000:.2f} s "
                            f"({len(waits)} waits); longest task {longest:.0f} ms "
                            f"(0: none over 50 ms), "
                            f"{in_play:.0f} ms in the waits after the opening",
                            flush=True,
                        )
            browser.close()
    finally:
        server.close()
    return 0
