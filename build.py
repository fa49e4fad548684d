#!/usr/bin/env python3
"""Build, serve, test and benchmark the Optimus Table static site.

Usage::

    python build.py                      # fetch pinned runtime files (cached) and build dist/
    python build.py serve [--port N]     # build, then serve dist/ on http://127.0.0.1:N (8000)
    python build.py test [pytest args]   # install test tools, build, run the whole test suite
    python build.py i18n                 # extract the players' sentences into locale/*.po
    python build.py bench-boot [--runs N] [--pages npm,bare,site,unpatched] [--against DIR]
                                         # cold boots: bare Pyodide (npm, as built) vs the site
    python build.py bench-bots [--games optimus2,optimus,fileiras] [--runs N] [--throttle 1,4]
                               [--think S] [--bots-think quick|careful]
                                         # the person's waits for the bots, in Chromium

This file is only the command line.  The build itself is the package
``sitebuild/`` beside it (one module per job; its docstring lists them and
what ``dist/`` holds), which is never shipped to the browser.  The build needs
nothing beyond the standard library: the runtime (Pyodide, PyScript,
micropip) is fetched once with ``npm pack`` / ``pip download`` into
``.cache/downloads/``, checked against the sha256 pins in
``sitebuild/pins.py``, and reused on every later build, so a rebuild needs no
network.  Only ``test``, ``bench-boot`` and ``bench-bots`` import third-party code (pytest,
Playwright), after installing it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from sitebuild import BuildError
from sitebuild.bench import BENCH_DEFAULT_PAGES, BENCH_PAGES, Network, run_bench
from sitebuild.benchbots import BENCH_GAMES, run_bench_bots
from sitebuild.dist import build
from sitebuild.server import serve
from sitebuild.testing import run_tests


def parser() -> argparse.ArgumentParser:
    """The command line (``test`` is handled before it: its arguments go to pytest)."""
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    served = sub.add_parser("serve", help="build and serve dist/ on 127.0.0.1")
    served.add_argument("--port", type=int, default=8000)
    bench = sub.add_parser("bench-boot", help="cold-boot benchmark: bare Pyodide vs the site")
    bench.add_argument(
        "--runs",
        type=int,
        default=15,
        help="cold loads of each page (default 15: a 7-load median moves by 0.2)",
    )
    bench.add_argument("--latency", type=float, default=0.0, help="emulated RTT in ms")
    bench.add_argument("--mbps", type=float, default=0.0, help="emulated bandwidth")
    bench.add_argument(
        "--pages",
        default=",".join(BENCH_DEFAULT_PAGES),
        help=f"which pages to load, of {','.join(BENCH_PAGES)} (default: "
        f"{','.join(BENCH_DEFAULT_PAGES)}; unpatched: the site without PyScript's patches)",
    )
    bench.add_argument(
        "--against",
        type=Path,
        help="pair the site with another build: the dist/ folder of another checkout",
    )
    bots = sub.add_parser("bench-bots", help="the person's waits for the bots, in Chromium")
    bots.add_argument("--games", default="optimus2", help=f"of {','.join(BENCH_GAMES)}")
    bots.add_argument("--level", default="hard", help="the bots' level (default hard)")
    bots.add_argument("--players", type=int, default=4, help="seats, the person's included")
    bots.add_argument("--runs", type=int, default=3, help="games (seeds 1..N) per setting")
    bots.add_argument(
        "--think", type=float, default=0.0, help="seconds the person takes per decision"
    )
    bots.add_argument(
        "--throttle", default="1,4", help="CPU throttling rates (4: a mid-range phone)"
    )
    bots.add_argument(
        "--bots-think",
        default="quick",
        choices=("quick", "careful"),
        help='the table\'s "Bots think" setting (default quick)',
    )
    sub.add_parser("i18n", help="extract the sentences of the code into locale/ (docs/i18n.md)")
    sub.add_parser("test", help="install test tools, build, run pytest (extra args go to pytest)")
    sub.add_parser("build", help="build dist/ (the default)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] == "test":
            return run_tests(args[1:])  # everything after `test` goes to pytest untouched
        cli = parser()
        ns = cli.parse_args(args)
        if ns.command == "serve":
            build()
            return serve(ns.port)
        if ns.command == "i18n":
            from sitebuild.i18n import report

            print(report())
            return 0
        if ns.command == "bench-boot":
            pages = ns.pages.split(",")
            if not set(pages) <= set(BENCH_PAGES):
                cli.error(f"--pages takes names among {','.join(BENCH_PAGES)}")
            if ns.against is not None and not (ns.against / "index.html").is_file():
                cli.error(f"--against {ns.against}: no built site there (no index.html)")
            return run_bench(ns.runs, Network(ns.latency, ns.mbps), pages, ns.against)
        if ns.command == "bench-bots":
            games = ns.games.split(",")
            if not set(games) <= set(BENCH_GAMES):
                cli.error(f"--games takes names among {','.join(BENCH_GAMES)}")
            rates = [float(r) for r in ns.throttle.split(",")]
            return run_bench_bots(
                games, ns.level, ns.players, ns.runs, rates, ns.think, ns.bots_think
            )
        build()
        return 0
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
