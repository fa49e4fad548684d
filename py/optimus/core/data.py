"""Files a package ships beside its modules: sheets, learned weights, help pages.

Read by the package's own loader, as ``pkgutil.get_data`` does: from the file
system in a clone, from the zip archive the page imports a game from (web/lazy.py).
``importlib.resources`` would do the same, but its first use imports its zip
machinery, in the middle of a game's opening in the page.

>>> text("optimus.core", "data.py").count("\\n") > 5
True
>>> exists("optimus.core", "nowhere.txt")
False
"""

from __future__ import annotations

import importlib
import os
from typing import Any


def read(package: str, name: str) -> bytes:
    """The bytes of the file ``name`` (``/``-separated, relative to ``package``'s
    folder); ``OSError`` when there is none."""
    module = importlib.import_module(package)
    loader: Any = getattr(module.__spec__, "loader", None)
    if not hasattr(loader, "get_data") or not module.__file__:
        raise OSError(f"package {package!r} has no data files")
    folder = os.path.dirname(module.__file__)
    return bytes(loader.get_data(os.path.join(folder, *name.split("/"))))


def text(package: str, name: str) -> str:
    """The file ``name`` of ``package`` as UTF-8 text (see :func:`read`)."""
    return read(package, name).decode("utf-8")


def exists(package: str, name: str) -> bool:
    """Whether ``package`` ships the file ``name``."""
    try:
        read(package, name)
    except OSError:
        return False
    return True
