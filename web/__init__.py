"""The DOM layer of Optimus Table (runs in the browser only).

In the browser this directory is the package ``optimus_web``: ``build.py`` packs
``web/*.py`` into ``app/web-<hash>.zip`` and PyScript unpacks it next to the
interpreter's working directory.  Only this package imports ``js``/``pyodide``;
the rules live in the pure-Python package ``optimus``.
"""
