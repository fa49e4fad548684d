"""A game's "how to play" in the language spoken now, as the rules drawer shows it.

The build makes each ``docs/howto/<game>.<lang>.md`` an HTML fragment in the
game's package (``howto.<lang>.html``, sitebuild/howto.py); a language without
one falls back to English.  The text is the project's own, never a player's.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from optimus import i18n


def read(game: str, lang: str | None = None) -> str:
    """The HTML of ``game``'s how-to-play in ``lang`` (the language spoken now), or in
    English; "" when the package carries none (the source tree, a test game)."""
    try:
        module = importlib.import_module(f"optimus.{game}")
    except ImportError:
        return ""
    folder = os.path.dirname(module.__file__ or "")
    loader: Any = getattr(module.__spec__, "loader", None)
    for code in dict.fromkeys((lang or i18n.language(), "en")):
        try:
            data = loader.get_data(os.path.join(folder, f"howto.{code}.html"))
        except (OSError, AttributeError):
            continue
        return bytes(data).decode("utf-8")
    return ""
