"""``python build.py bench-boot``: cold boots of bare Pyodide and of the site
in Chromium, alternated, with the first visit of a game (docs/boot.md)."""

from __future__ import annotations

import dataclasses
import json
import statistics
import tarfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from optimus_lab import per_game
from sitebuild import DIST, STAMP_NAME
from sitebuild.dist import build, dist_is_fresh
from sitebuild.page import BARE_PAGE
from sitebuild.pins import PINS, fetch, tar_member
from sitebuild.server import start_server
from sitebuild.testing import CHROMIUM, browser_args, ensure_chromium, pip_install


@dataclasses.dataclass
class Load:
    """One cold load: ms from navigation start to ready, bytes received for the
    requests made before ready, the longest main-thread task before ready, and
    (``route``) ms to show a game route after it: until its view is mounted, and
    until the frame showing it is drawn; ``total_bytes``, all bytes received by the
    end of the load (a visit's and the preloading's included)."""

    ms: float
    bytes: int
    requests: int
    longest_task_ms: float = 0.0
    route_ms: float | None = None
    route_drawn_ms: float | None = None
    cpu_ms: float = 0.0  # CPU time of the page's main thread until ready
    route_cpu_ms: float | None = None  # and during the route visit, until drawn
    total_bytes: int = 0


def _thread_ms(cdp: Any) -> float:
    """CPU time of the page's main thread so far, in ms (Chromium's ThreadTime)."""
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return float(metrics.get("ThreadTime", 0.0)) * 1000


# Collects the page's long tasks (over 50 ms) from the start, for the benchmark.
LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });
"""

# A game's card is clicked.  Timed from the press of the mouse button (the
# mousedown event's timeStamp is when the input arrived, so a task the page was
# running meanwhile counts) until the game's table is mounted (its set-up form is
# in the page: at once in the router's hashchange handler, which runs before this
# listener, or later when the game's archive had to be fetched first and the
# route showed a loading note meanwhile), and until the frame showing it is drawn
# (a task queued from the next animation frame runs after that frame's style,
# layout and paint).
ROUTE_VISIT = """() => { window.__visit = new Promise((resolve) => {
  let pressed = null;
  const press = (event) => { pressed = event.timeStamp; };
  addEventListener("mousedown", press, { capture: true, once: true });
  const view = document.getElementById("game-view");
  const table = () => view.querySelector("[data-role=setup]");
  const mounted = () => {
    const ms = performance.now() - pressed;
    requestAnimationFrame(() => setTimeout(() => resolve([ms, performance.now() - pressed])));
  };
  addEventListener("hashchange", () => {
    if (table()) return mounted();
    const watch = new MutationObserver(() => {
      if (table()) { watch.disconnect(); mounted(); }
    });
    watch.observe(view, { childList: true, subtree: true });
  }, { once: true });
}); }"""


def _visit(page: Any, cdp: Any, route: str) -> tuple[float, float, float]:
    """Click the landing page's link to ``route``: (ms until mounted, ms until drawn,
    main-thread CPU ms meanwhile), as ``ROUTE_VISIT`` times them."""
    box = page.locator(f'a[href="{route}"]').first.bounding_box()
    page.evaluate(ROUTE_VISIT)
    before = _thread_ms(cdp)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    mounted, drawn = page.evaluate("window.__visit")
    return float(mounted), float(drawn), _thread_ms(cdp) - before


@dataclasses.dataclass(frozen=True)
class Network:
    """Emulated network for the benchmark: extra round-trip latency and bandwidth (0 = none)."""

    latency_ms: float = 0.0
    mbps: float = 0.0


def _cold_load(
    browser: Any,
    url: str,
    network: Network = Network(),
    timeout_ms: float = 90_000,
    route: str | None = None,
    pause_ms: float = 0.0,
) -> Load:
    """One cold load of ``url``; then, with ``route``, a click on its link at once
    (or ``pause_ms`` after ready)."""
    # No service worker: its install would download the site again during the run.
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.add_init_script(LONG_TASKS)
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        if network.latency_ms or network.mbps:
            throughput = network.mbps * 1e6 / 8 if network.mbps else -1
            conditions = {"offline": False, "latency": network.latency_ms}
            conditions |= {"downloadThroughput": throughput, "uploadThroughput": throughput}
            cdp.send("Network.emulateNetworkConditions", conditions)
        received: dict[str, int] = {}
        cdp.on(
            "Network.loadingFinished",
            lambda e: received.__setitem__(e["requestId"], int(e["encodedDataLength"])),
        )
        # The boot's bytes are those of the requests made before ready: not those
        # of a visit clicked at once, nor of the preloading that starts later.
        sent: list[str] = []
        cdp.on("Network.requestWillBeSent", lambda e: sent.append(e["requestId"]))
        page.goto(url)
        page.wait_for_selector('html[data-python="ready"]', state="attached", timeout=timeout_ms)
        ms = float(page.evaluate("window.__pythonReadyMs"))
        boot_requests = set(sent)
        # Main-thread CPU time: unlike wall time, barely inflated by other work on
        # a busy machine (it still counts the benchmark's own few ms after ready).
        cpu_ms = _thread_ms(cdp)
        visit = None
        if route is not None and not pause_ms:
            visit = _visit(page, cdp, route)
        longest = max(
            (d for start, d in page.evaluate("window.__longTasks") if start < ms), default=0.0
        )
        page.wait_for_timeout(200)  # let the last loadingFinished events arrive
        boot = [size for request, size in received.items() if request in boot_requests]
        load = Load(ms, sum(boot), len(boot), float(longest), cpu_ms=cpu_ms)
        if route is not None and pause_ms:
            page.wait_for_timeout(max(0.0, pause_ms - 200))
            visit = _visit(page, cdp, route)
        if visit is not None:
            load.route_ms, load.route_drawn_ms, load.route_cpu_ms = visit
        load.total_bytes = sum(received.values())
        return load
    finally:
        context.close()


def _published_pages(pyodide_dir: str) -> dict[str, tuple[str, bytes]]:
    """In-memory pages for the benchmark: bare Pyodide with the npm package's own
    source-only ``python_stdlib.zip`` (the rest of the runtime from dist/)."""
    with tarfile.open(fetch(PINS["pyodide"])) as archive:
        stdlib = tar_member(archive, "python_stdlib.zip")
    options = ', stdLibURL: new URL("./npm/python_stdlib.zip", location.href).href'
    page = BARE_PAGE.format(pyodide=pyodide_dir, options=options).encode()
    return {
        "/bench/bare-npm.html": ("text/html; charset=utf-8", page),
        "/bench/npm/python_stdlib.zip": ("application/zip", stdlib),
    }


BENCH_PAGES = ("npm", "bare", "site", "unpatched")
"""What ``--pages`` can name: bare Pyodide as published on npm and as built, the site,
and the site built without ``PYSCRIPT_PATCHES`` (for a paired measurement of them)."""
BENCH_DEFAULT_PAGES = ("npm", "bare", "site")
PAIRED = ("unpatched", "against")  # pages paired with the site, load by load
BENCH_ROUTE = "#/" + next(iter(per_game("FIRST_VISIT_TIMED")))
"""The game whose first visit is timed (its lab package says so)."""
BENCH_PAUSE_MS = 3000.0  # "a while after ready": the second way the visit is timed


def _print_paired(name: str, site: Sequence[Load], other: Sequence[Load]) -> None:
    """The site against another build (``name``), load by load (each pair loaded one
    after the other): the median of the differences, and how often the site was the
    quicker."""
    for what, field in (("wall", "ms"), ("CPU", "cpu_ms")):
        deltas = [getattr(a, field) - getattr(b, field) for a, b in zip(site, other, strict=True)]
        quicker = sum(delta < 0 for delta in deltas)
        print(
            f"  site - {name}, {what}: median paired difference "
            f"{statistics.median(deltas):+.0f} ms (site quicker in {quicker} of {len(deltas)})"
        )


def _visit_text(load: Load) -> str:
    if load.route_ms is None:
        return ""
    return (
        f", {BENCH_ROUTE} mounted {load.route_ms:4.0f} ms, drawn "
        f"{load.route_drawn_ms:4.0f} ms (CPU {load.route_cpu_ms:3.0f} ms)"
    )


def run_bench(
    runs: int,
    network: Network = Network(),
    pages: Sequence[str] = BENCH_DEFAULT_PAGES,
    against: Path | None = None,
) -> int:
    """Alternate cold loads of bare Pyodide (as published, and as built) and the site
    (``pages``: which of ``BENCH_PAGES``; the ratios need ``bare`` or ``npm`` besides
    ``site``; ``unpatched``, the site built without ``PYSCRIPT_PATCHES``, is paired
    with ``site``; so is ``against``, the build in the folder ``against`` (the
    ``dist/`` of another checkout), when given).  With a paired page, the visit after
    a pause is left out: the pairs compare the boots."""
    pip_install(["playwright>=1.40"])
    ensure_chromium()
    if not dist_is_fresh():
        build()
    from playwright.sync_api import sync_playwright

    stamp = json.loads((DIST / STAMP_NAME).read_text())
    names = tuple(name for name in BENCH_PAGES if name in pages)
    names += ("against",) if against is not None else ()
    if "unpatched" in names:  # served from dist/bench/, which the service worker leaves out
        build(DIST / "bench" / "unpatched", quiet=True, pyscript_patches=())
    server = start_server(DIST, extra=_published_pages(stamp["pyodide"]))
    other = start_server(against) if against is not None else server
    results: dict[str, list[Load]] = {name: [] for name in names}
    urls = {
        "npm": server.url + "bench/bare-npm.html",
        "bare": server.url + "bench/bare.html",
        "site": server.url,
        "unpatched": server.url + "bench/unpatched/",
        "against": other.url,
    }
    # The site's first visit of a game is timed twice: clicked at once when ready,
    # and clicked after a pause (a load of its own, whose boot is not counted).
    paused: list[Load] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=browser_args())
            _cold_load(browser, urls["site"])  # warm the OS file cache; not counted
            for i in range(runs):
                for name in names if i % 2 == 0 else reversed(names):
                    route = None if name in ("npm", "bare") else BENCH_ROUTE
                    load = _cold_load(browser, urls[name], network, route=route)
                    results[name].append(load)
                    print(
                        f"run {i + 1}/{runs} {name:9}: {load.ms:7.0f} ms "
                        f"(CPU {load.cpu_ms:5.0f} ms) {load.bytes / 1e3:8.0f} kB "
                        f"{load.requests:3} requests, "
                        f"longest task {load.longest_task_ms:4.0f} ms{_visit_text(load)}"
                    )
                    if name == "site" and not set(PAIRED) & set(names):
                        load = _cold_load(
                            browser, urls[name], network, route=route, pause_ms=BENCH_PAUSE_MS
                        )
                        paused.append(load)
                        print(
                            f"run {i + 1}/{runs} site, {BENCH_PAUSE_MS / 1000:.0f} s after ready:"
                            f"{_visit_text(load)[1:]}; {load.total_bytes / 1e3:.0f} kB in all"
                        )
            browser.close()
    finally:
        server.close()
        if other is not server:
            other.close()
    med = {name: statistics.median(load.ms for load in loads) for name, loads in results.items()}
    size = {
        name: int(statistics.median(load.bytes for load in loads))
        for name, loads in results.items()
    }
    shaped = f", emulated {network}" if network != Network() else ""
    print(f"\nmedian of {runs} cold loads (ms from navigation start to data-python=ready{shaped}):")
    labels = {
        "npm": "bare Pyodide as published (npm package)",
        "bare": "bare Pyodide as built (our runtime)    ",
        "site": "the site                               ",
        "unpatched": "the site without PYSCRIPT_PATCHES      ",
        "against": f"the build in {against}".ljust(39),
    }
    for name in names:
        longest = statistics.median(load.longest_task_ms for load in results[name])
        print(
            f"  {labels[name]}: {med[name]:5.0f} ms, {size[name] / 1e6:.2f} MB, "
            f"longest main-thread task {longest:.0f} ms"
        )
    cpu = {
        name: statistics.median(load.cpu_ms for load in loads) for name, loads in results.items()
    }
    for ref in (name for name in ("npm", "bare") if name in med and "site" in med):
        print(
            f"  site/{ref}: ratio {med['site'] / med[ref]:.2f} "
            f"(main-thread CPU: {cpu['site']:.0f} / {cpu[ref]:.0f} ms, ratio "
            f"{cpu['site'] / cpu[ref]:.2f}), extra bytes {(size['site'] - size[ref]) / 1000:.0f} kB"
        )
    for name in (name for name in PAIRED if name in results and "site" in results):
        _print_paired(name, results["site"], results[name])
    if paused:
        total = statistics.median(load.total_bytes for load in paused)
        print(
            f"  the site, {BENCH_PAUSE_MS / 1000:.0f} s after ready (preloading done) and a "
            f"visit: {total / 1e6:.2f} MB received in all"
        )
    when = {"clicked when ready": results.get("site", [])}
    when[f"clicked {BENCH_PAUSE_MS / 1000:.0f} s after ready"] = paused
    for label, visits in when.items():
        if visits:
            mounted = statistics.median(load.route_ms or 0.0 for load in visits)
            drawn = statistics.median(load.route_drawn_ms or 0.0 for load in visits)
            visit_cpu = statistics.median(load.route_cpu_ms or 0.0 for load in visits)
            print(
                f"  the site's first visit of {BENCH_ROUTE}, {label}: mounted in {mounted:.0f} ms,"
                f" drawn in {drawn:.0f} ms from the click (main-thread CPU {visit_cpu:.0f} ms)"
            )
    print(
        "  targets: site/bare ratio <= 1.20, extra bytes <= 300 kB; "
        "first game route <= 100 ms after ready"
    )
    return 0
