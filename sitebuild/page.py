"""index.html (its slots filled, the landing cards drawn from the game
descriptions) and the service worker's file list."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from optimus.games import LEARN, PLAY, TODAY, GameInfo, listed
from optimus.i18n import LANGUAGES, TAGS
from sitebuild import STAMP_NAME, WEB_SRC, BuildError
from sitebuild.archives import ARCHIVES
from sitebuild.files import hashed, rel
from sitebuild.i18n import landing
from sitebuild.manifest import THEME_COLOUR
from sitebuild.pyscript import PYSCRIPT_DISABLED_PLUGINS

GAME_CARD = """<li>
  <a class="game-card" href="#/{id}" data-game="{id}">
    <span class="game-art {art}" aria-hidden="true"></span>
    <h2>{title}</h2>
    <p data-i18n>{lead}</p>
    <span class="meta"><span class="players" data-i18n>{players}</span>\
<span class="go" data-i18n>{play}</span></span>
  </a>{daily}{learn}
</li>"""
DAILY_LINK = """
  <a class="game-daily" href="#/{id}/daily" data-i18n>{today}</a>"""
"""Under a card whose game has a daily challenge: the day's challenge, one tap away."""
LEARN_LINK = """
  <a class="game-learn" href="#/{id}/learn" data-i18n>{learn}</a>"""
"""Under a card whose game has a guided game: Learn to play (web/lesson.py)."""


LANGUAGE_PICKER = (
    '<span class="language-switch"><select class="language" data-language '
    'data-i18n-attr="aria-label title" aria-label="Language" title="Language">'
    + "".join(
        f'<option value="{code}" lang="{TAGS[code]}">{html.escape(name)}</option>'
        for code, name in LANGUAGES.items()
    )
    + '</select><span class="language-code" aria-hidden="true"></span></span>'
)
"""The language switch of the site header and of a game's bar (index.html's script
makes it work, before Python is ready).  On a phone it shows the language's code (PT,
CA, EN: ``language-code``, written by the script) over the select, which opens with
the whole names; where there is room the select shows the name itself."""


PAGE_SCRIPTS = ("head", "page")
"""The page's own scripts, ``web/<name>.js``: ``head`` runs first in ``<head>`` (the
language, before anything is drawn; storage refused), ``page`` at the end of ``<body>``
(translation, boot status, offline use).  No script of the page is inline: the
Content-Security-Policy below allows scripts from the site's own origin only."""


def write_page_scripts(dist: Path, src: Path = WEB_SRC) -> dict[str, Path]:
    """``web/<name>.js`` of :data:`PAGE_SCRIPTS` in ``dist`` under content-hashed names;
    their paths by role (``head-js``, ``page-js``)."""
    return {
        f"{name}-js": hashed(dist, name, ".js", (src / f"{name}.js").read_bytes())
        for name in PAGE_SCRIPTS
    }


def csp_hash(text: str) -> str:
    """A CSP source matching an inline ``<style>`` (or script) whose content is ``text``."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def content_security_policy(css: str) -> str:
    """The page's Content-Security-Policy (docs/embed.md says why each source is there).

    Everything from the site's own origin only, and no inline script.  Beyond that,
    each measured in Chromium: ``'wasm-unsafe-eval'`` lets Pyodide compile its
    WebAssembly; ``'unsafe-eval'``, PyScript 0.7.31 builds hooks with ``Function()``
    (tests/test_build.py fails when it no longer does); the one inline ``<style>``
    (the CSS, inlined) by its hash; ``data:`` images, the how-to-play's pictures
    (``optimus.ui.howto``).  Workers come from the site's own files (the bot worker,
    ``web/botworker.js``): no ``blob:``.
    ``frame-ancestors`` is not here: a ``<meta>`` policy ignores it, and the site
    must stay embeddable in any page's iframe anyway.
    """
    directives = {
        "default-src": "'self'",
        "script-src": "'self' 'wasm-unsafe-eval' 'unsafe-eval'",
        "style-src": f"'self' {csp_hash(css)}",
        "img-src": "'self' data:",
        "worker-src": "'self'",
        "object-src": "'none'",
        "base-uri": "'none'",
        "form-action": "'none'",
    }
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def game_cards(games: Sequence[GameInfo], indent: str = "      ") -> str:
    """The landing page's cards (``{{GAME_CARDS}}`` in index.html): one per listed game,
    in the order of ``optimus.games.GAMES``, for a slot indented by ``indent``."""
    cards = []
    for info in games:
        card = GAME_CARD.format(
            id=html.escape(info.id),
            art=html.escape(info.art),
            title=html.escape(info.title),
            lead=html.escape(info.lead),
            players=html.escape(info.players_text()),
            play=html.escape(PLAY),
            daily=DAILY_LINK.format(id=html.escape(info.id), today=html.escape(TODAY))
            if info.daily is not None
            else "",
            learn=LEARN_LINK.format(id=html.escape(info.id), learn=html.escape(LEARN))
            if info.lesson
            else "",
        )
        cards.append(card.replace("\n", "\n" + indent))
    return ("\n" + indent).join(cards)


def render_index(
    template: str,
    *,
    dist: Path,
    pyodide_dir: Path,
    pyscript_dir: Path,
    wheel: Path,
    web_zip: Path,
    units: dict[str, Any],
    app_files: dict[str, Path],
    css: str,
    build_id: str = "",
) -> str:
    """Fill the ``{{...}}`` slots of index.html: preloads, CSS, icons, manifest, PyScript.

    ``units`` is what ``unit_config`` returns (the archives fetched after the boot);
    ``app_files`` is what ``write_app_files`` returns; ``build_id`` names the build
    (the service worker checks that the page it caches carries it).
    """
    # Our wheel and web zip are written into the file system as they are and
    # imported from there, on sys.path (zipimport, with the bytecode beside each
    # module): nothing to unpack, no package installer (docs/boot.md).  micropip
    # stays shipped and in the lock file, for code that loads it on demand.
    archives = {rel(path, dist): f"{ARCHIVES}/{path.name}" for path in (web_zip, wheel)}
    config = {
        "interpreter": rel(pyodide_dir / "pyodide.mjs", dist),
        "files": archives,
        "plugins": [f"!{name}" for name in PYSCRIPT_DISABLED_PLUGINS],
    }
    core = rel(pyscript_dir / "core.js", dist)
    core_chunk = next(pyscript_dir.glob("core-*.js"))
    # The error plugin's chunk is imported by PyScript's core only after the core
    # has run, and PyScript waits for its plugins before it starts the interpreter:
    # preloaded, it is here by then (docs/boot.md).
    error_chunk = next(pyscript_dir.glob("error-*.js"))
    runtime = [pyodide_dir / name for name in ("pyodide.mjs", "pyodide.asm.mjs")]
    fetched = [pyodide_dir / name for name in ("pyodide.asm.wasm", "python_stdlib.zip")]
    fetched += [pyodide_dir / "pyodide-lock.json", wheel, web_zip]
    # Start every download at once, in parallel with PyScript's own JS, instead
    # of one after another as each loader discovers the next.  `crossorigin`
    # matches the mode of the fetch() calls that later consume these responses.
    preloads = [f'<link rel="modulepreload" href="{core}">']
    preloads += [
        f'<link rel="modulepreload" href="{rel(path, dist)}">'
        for path in [core_chunk, error_chunk, *runtime]
    ]
    preloads += [
        f'<link rel="preload" as="fetch" crossorigin href="{rel(path, dist)}">' for path in fetched
    ]
    policy = html.escape(content_security_policy(css), quote=False)
    slots = {
        "CSP": f'<meta http-equiv="Content-Security-Policy" content="{policy}">',
        "HEAD_JS": rel(app_files["head-js"], dist),
        "PAGE_JS": rel(app_files["page-js"], dist),
        "CSS": css,
        "FAVICON": rel(app_files["favicon"], dist),
        "ICON_192": rel(app_files["icon-192"], dist),
        "MANIFEST": rel(app_files["manifest"], dist),
        "MANIFESTS": html.escape(
            json.dumps(
                {
                    role.removeprefix("manifest-"): rel(path, dist)
                    for role, path in app_files.items()
                    if role.startswith("manifest-")
                },
                sort_keys=True,
            )
        ),
        "THEME_COLOUR": THEME_COLOUR,
        "BUILD": build_id,
        "PRELOADS": "\n    ".join(preloads),
        "GAME_CARDS": game_cards(listed()),
        "LANGUAGE_PICKER": LANGUAGE_PICKER,
        # The landing page's own sentences in every language, for its script (JSON in
        # a data block: "</" escaped so no text can close the <script> element).
        "I18N": json.dumps(landing(template), ensure_ascii=False, sort_keys=True).replace(
            "</", "<\\/"
        ),
        "PYSCRIPT_CORE": core,
        "PYTHON_PATH": json.dumps(list(archives.values())),
        "UNITS": json.dumps(units, sort_keys=True),
        "PYSCRIPT_CONFIG": html.escape(json.dumps(config, separators=(",", ":")), quote=True),
        "MPY_CONFIG": html.escape(
            json.dumps({"plugins": config["plugins"]}, separators=(",", ":"))
        ),
    }

    def fill(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in slots:
            raise BuildError(f"index.html has an unknown slot {{{{{key}}}}}")
        return slots[key]

    page = re.sub(r"\{\{([A-Z_0-9]+)\}\}", fill, template)
    missing = [key for key in slots if "{{" + key + "}}" in page]
    if missing:  # pragma: no cover - defensive
        raise BuildError(f"unfilled slots in index.html: {missing}")
    return page


def bundle_css(src: Path = WEB_SRC) -> str:
    """``web/style.css`` then every other ``web/*.css`` (one per game view), in name order.

    Inlined into index.html: no extra request, and no flash of unstyled page.
    """
    sheets = [src / "style.css", *sorted(p for p in src.glob("*.css") if p.name != "style.css")]
    return "\n".join(
        f"/* {sheet.name} */\n{sheet.read_text(encoding='utf-8').strip()}" for sheet in sheets
    )


BARE_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Bare Pyodide (benchmark)</title>
<link rel="icon" href="data:,">
</head>
<body>
<p id="out">Loading Pyodide…</p>
<script type="module">
import {{ loadPyodide }} from "../{pyodide}/pyodide.mjs";
const pyodide = await loadPyodide({{ indexURL: "../{pyodide}/"{options} }});
document.getElementById("out").textContent = pyodide.runPython("import sys; sys.version");
window.__pythonReadyMs = performance.now();
window.pyodide = pyodide;  // for step-by-step measurements from the console
document.documentElement.dataset.python = "ready";
</script>
</body>
</html>
"""


OFFLINE_SKIPPED = ("bench/", STAMP_NAME, ".nojekyll", "sw.js", "index.html")


def offline_files(dist: Path) -> list[str]:
    """Paths (relative to ``dist``) of the files the service worker caches, sorted;
    the page itself is cached as ``./`` besides these."""
    names = (path.relative_to(dist).as_posix() for path in dist.rglob("*") if path.is_file())
    return sorted(name for name in names if not name.startswith(OFFLINE_SKIPPED))


def service_worker(build_id: str, files: Sequence[str]) -> str:
    """dist/sw.js: web/sw.js after the build's id and its file list."""
    head = f"const BUILD = {json.dumps(build_id)};\nconst FILES = {json.dumps(list(files))};\n"
    return head + (WEB_SRC / "sw.js").read_text(encoding="utf-8")
