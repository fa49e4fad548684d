"""The favicon, the PNG icons and the web app manifest (installing the site as an app).

The PNG icons are committed (``web/icon-<size>.png``, drawn once from
``web/favicon.svg``); the build copies them under content-hashed names.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from optimus.i18n import TAGS
from sitebuild import WEB_SRC, BuildError
from sitebuild.files import hashed, rel

ICON_SIZES = (192, 512)
THEME_COLOUR = "#1f5f5b"  # the icon's square, also the browser bar of the installed app
BACKGROUND_COLOUR = "#f6f1e7"  # the page's background (web/style.css --bg): the splash screen


def write_app_files(
    dist: Path,
    description: str,
    src: Path = WEB_SRC,
    translated: dict[str, str] | None = None,
) -> dict[str, Path]:
    """The favicon, PNG icons and web app manifest in ``dist``; returns their paths by role.

    The icons are ``src/favicon.svg`` and ``src/icon-<size>.png`` (for Chromium to offer
    installing the site, the manifest needs PNGs of 192 and 512 px).

    ``translated`` gives the description in other languages (``{"pt": "..."}``): each
    gets a manifest of its own, role ``manifest-<lang>``, which the page links when it
    speaks that language (index.html's script).

    Roles: ``favicon``, ``icon-192``, ``icon-512``, ``manifest``.  Every name carries a
    content hash; the manifest's URLs are relative to it (the site's folder), so an
    installed app opens at the site's own path, wherever it is hosted.
    """
    files = {"favicon": hashed(dist, "favicon", ".svg", (src / "favicon.svg").read_bytes())}
    for size in ICON_SIZES:
        png = (src / f"icon-{size}.png").read_bytes()
        files[f"icon-{size}"] = hashed(dist, f"icon-{size}", ".png", png)
    icons = [{"src": rel(files["favicon"], dist), "sizes": "any", "type": "image/svg+xml"}]
    icons += [
        {"src": rel(files[f"icon-{size}"], dist), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in ICON_SIZES
    ]
    manifest = {
        "name": "Optimus Table",
        "short_name": "Optimus Table",
        "description": description,
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": icons,
    }
    for lang, words in {"en": description, **(translated or {})}.items():
        variant = {**manifest, "lang": TAGS.get(lang, lang), "description": words}
        data = (json.dumps(variant, indent=1, ensure_ascii=False) + "\n").encode()
        role = "manifest" if lang == "en" else f"manifest-{lang}"
        files[role] = hashed(dist, role, ".webmanifest", data)
    return files


def page_description(template: str) -> str:
    """The page's ``<meta name="description">``, reused by the web app manifest."""
    match = re.search(r'<meta name="description"[^>]*? content="([^"]*)">', template)
    if match is None:
        raise BuildError('index.html lacks <meta name="description" content="...">')
    return html.unescape(match.group(1))
