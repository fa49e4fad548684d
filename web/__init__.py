"""The DOM layer of Optimus Table (runs in the browser only).

In the browser this directory is the package ``optimus_web``: ``build.py`` packs
what the boot imports (``main``, ``router``, ``lazy``) into ``app/web-<hash>.zip``
and each game's view into that game's archive, fetched after the boot (web/lazy.py,
docs/boot.md).  Only this package imports ``js``/``pyodide``; the rules live in
the pure-Python package ``optimus``.
"""
