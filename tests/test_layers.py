"""The import graph points one way: the page (``optimus_web``) over the view data
(``optimus.ui``, ``optimus.<game>.view``) over the rules (each game's other modules)
over what all games share (``optimus.core``), over the descriptions
(``optimus.games``), over the words (``optimus.i18n``).  Rules never import the
view data or the page, no game imports another, and nothing shipped imports the
offline lab (``optimus_lab``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from optimus.games import GAMES

ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path) -> str:
    if path.is_relative_to(ROOT / "web"):
        return "optimus_web." + path.stem
    parts = path.relative_to(ROOT / "py").with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, name: str = "") -> set[str]:
    """Every module ``path`` (module ``name``) imports, relative imports resolved, at any
    depth of its code."""
    name = name or module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def ours(path: Path, name: str = "") -> set[str]:
    return {m for m in imports_of(path, name) if m.split(".")[0] in ("optimus", "optimus_web")}


def layer(module: str) -> str:
    """``games``, ``core``, ``rules:<game>``, ``view:<game>``, ``ui``, ``web`` or ``lab``."""
    parts = module.split(".")
    if parts[0] == "optimus_web":
        return "web"
    if parts[0] == "optimus_lab":
        return "lab"
    if len(parts) == 1:
        return "package"  # ``from optimus import i18n`` names the package, then the module
    if parts[1] in ("__main__",):
        return "top"
    if parts[1] in ("games", "core", "ui", "i18n"):
        return parts[1]
    if parts[1] in GAMES:  # a game's view data: ``view`` and its parts ``view_<part>``
        view = len(parts) > 2 and (parts[2] == "view" or parts[2].startswith("view_"))
        return f"{'view' if view else 'rules'}:{parts[1]}"
    return "other"


ALLOWED = {
    "i18n": {"i18n", "package"},
    "games": {"games", "i18n", "package"},
    "core": {"games", "core", "i18n", "package"},
    "rules": {"games", "core", "rules", "i18n", "package"},
    "view": {"games", "core", "rules", "view", "ui", "i18n", "package"},
    "ui": {"games", "core", "rules", "view", "ui", "i18n", "package"},
}
"""What each layer may import (``rules``/``view`` of its own game only); the words
(``optimus.i18n``, standard library only) are below everything."""

SHIPPED = sorted((ROOT / "py" / "optimus").rglob("*.py"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_down(path: Path) -> None:
    me = layer(module_name(path))
    kind, _, game = me.partition(":")
    if kind not in ALLOWED:
        return  # the package's top (__init__, the CLI) may use every layer
    bad = []
    for target in ours(path):
        there = layer(target)
        other_kind, _, other_game = there.partition(":")
        if other_kind not in ALLOWED[kind] or (other_game and other_game != game):
            bad.append(f"{target} ({there})")
    assert not bad, f"{module_name(path)} ({me}) imports upward or sideways: {bad}"


def test_the_layer_check_would_catch_an_upward_import(tmp_path: Path) -> None:
    assert layer("optimus.fileiras.game") == "rules:fileiras"
    assert layer("optimus.fileiras.view") == "view:fileiras"
    assert layer("optimus_web.table") == "web"
    fake = tmp_path / "bots.py"
    fake.write_text("from ..core import bots\n\ndef f():\n    from optimus_web.table import esc\n")
    found = ours(fake, "optimus.fileiras.bots")
    assert found >= {"optimus.core", "optimus.core.bots", "optimus_web.table.esc"}
    assert {layer(m) for m in found} == {"core", "web"}
    assert "web" not in ALLOWED["rules"] and "ui" not in ALLOWED["rules"]
