"""The build of the Optimus Table static site: what ``python build.py`` runs.

Named ``sitebuild`` (not ``build``: that is the PyPA builder's name, and
``build/`` is setuptools' output folder) and kept at the top of the
repository beside ``build.py``, outside ``py/`` and ``web/``: nothing here is
shipped to the browser or installed with the rules package.  It needs nothing
beyond the standard library; only ``testing`` and ``bench`` import pytest and
Playwright, after installing them.

One module per job, in the order a build runs them:

- ``pins``: the pinned runtime (Pyodide, PyScript, micropip), fetched once with
  ``npm pack`` / ``pip download`` into ``.cache/downloads/`` and sha256-checked;
- ``pyodide``: the runtime files the page loads, with the modules the boot
  imports precompiled by that Pyodide under Node (``.cache/precompiled/``;
  ``bytecode`` holds the conversions, which run there and in CPython);
- ``pyscript``: the PyScript chunks the page loads (and the one change to its start-up);
- ``archives``: our code (``py/optimus``, ``web/*.py``) as the boot's wheel and
  web zip and an archive per game (from ``optimus.games.GAMES``) and one shared;
- ``manifest``: icons and the web app manifest; ``page``: index.html (landing
  cards from the game descriptions) and the service worker;
- ``dist``: all of the above into ``dist/``; ``files``: zips and hashed names;
- ``server``, ``testing``, ``bench``: serve ``dist/``, run the tests, time boots.

What ``dist/`` holds (every name that can change carries a version or hash, so a
browser never runs a stale file out of its HTTP cache)::

    index.html                      the landing page; CSS and the boot config inlined
    sw.js                           the service worker: the whole build offline (web/sw.js)
    manifest-<hash>.webmanifest     web app manifest; icon-192-<hash>.png, icon-512-<hash>.png
    favicon-<hash>.svg
    pyodide-314.0.7-<hash>/         the runtime files the page loads: python_stdlib.zip
                                    with the boot's modules precompiled, micropip
                                    precompiled, a lock file trimmed to micropip
    pyscript-0.7.31-<hash>/         PyScript's dist (JS only, no source maps, no unused chunks)
    wheels/optimus_table-0.1.0+<hash>-py3-none-any.whl   the rules package's boot part
                                    as bytecode, imported from the wheel itself (on sys.path)
    app/web-<hash>.zip              the DOM layer's boot part (package ``optimus_web``), the same
    app/<unit>-<hash>.zip.gz        the rest of our code as bytecode, fetched after the boot: an
                                    archive per game and one they share (docs/boot.md)
    bench/bare.html                 a bare Pyodide page for ``bench-boot``
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
PY_SRC = ROOT / "py" / "optimus"
WEB_SRC = ROOT / "web"
INDEX_TEMPLATE = ROOT / "index.html"
STAMP_NAME = ".build-stamp.json"

# The game descriptions (optimus.games) are read from py/: that module imports
# only the standard library.
if str(PY_SRC.parent) not in sys.path:
    sys.path.insert(0, str(PY_SRC.parent))


class BuildError(RuntimeError):
    """A build step failed; the message says what went wrong and what to do."""
