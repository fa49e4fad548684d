"""A game's "how to play" in the language spoken now, as the rules drawer shows it.

The build makes each ``docs/howto/<game>.<lang>.md`` an HTML fragment in the
game's package (``howto.<lang>.html``, sitebuild/howto.py); a language without
one falls back to English.  The text is the project's own, never a player's.
"""

from __future__ import annotations

from optimus import i18n
from optimus.core import data


def read(game: str, lang: str | None = None) -> str:
    """The HTML of ``game``'s how-to-play in ``lang`` (the language spoken now), or in
    English; "" when the package carries none (the source tree, a test game)."""
    package = f"optimus.{game}"
    for code in dict.fromkeys((lang or i18n.language(), "en")):
        try:
            text = data.text(package, f"howto.{code}.html")
        except (OSError, ImportError):
            continue
        return _images(text, package)
    return ""


IMAGE = "howto-image:"


def _images(text: str, package: str) -> str:
    """The fragment with each ``howto-image:<file>`` made a ``data:`` URL of that file."""
    if IMAGE not in text:
        return text
    import base64
    import re

    def inline(match: re.Match[str]) -> str:
        try:
            svg = data.read(package, f"howto-{match.group(1)}")
        except OSError:
            return ""
        return "data:image/svg+xml;base64," + base64.b64encode(svg).decode()

    return re.sub(re.escape(IMAGE) + r"([\w.-]+\.svg)", inline, text)
