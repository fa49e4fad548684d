"""The import graph points one way: the page (``optimus_web``, web/) over the view
data (``optimus.ui``, ``optimus.<game>.view``) over the rules (each game's other
modules) over what all games share (``optimus.core``), over the descriptions
(``optimus.games``), over the words (``optimus.i18n``).  Rules never import the
view data or the page, no game imports another (in web/, a game's own modules are
named ``<game>_*.py``; the rest of web/ names no game), and nothing shipped
(py/optimus/, web/) imports the offline lab (``optimus_lab``), not even by a
name given to ``importlib.import_module``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from optimus.games import GAMES

ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path) -> str:
    if path.is_relative_to(ROOT / "web"):
        return ".".join(["optimus_web", *path.relative_to(ROOT / "web").with_suffix("").parts])
    parts = path.relative_to(ROOT / "py").with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, name: str = "") -> set[str]:
    """Every module ``path`` (module ``name``) imports, relative imports resolved, at any
    depth of its code; and the names written out in ``import_module("...")`` calls."""
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
        elif isinstance(node, ast.Call) and _called(node.func) in ("import_module", "__import__"):
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add(first.value)
    return found


def _called(func: ast.expr) -> str:
    """The name a call is made by: ``f`` of ``f(...)`` and of ``module.f(...)``."""
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def ours(path: Path, name: str = "") -> set[str]:
    return {m for m in imports_of(path, name) if m.split(".")[0] in ("optimus", "optimus_web")}


def layer(module: str) -> str:
    """``games``, ``core``, ``rules:<game>``, ``view:<game>``, ``ui``, ``web``,
    ``web:<game>`` (web/<game>_*.py) or ``lab``."""
    parts = module.split(".")
    if parts[0] == "optimus_web":
        game = parts[1].partition("_")[0] if len(parts) > 1 else ""
        return f"web:{game}" if game in GAMES else "web"
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
    "web": {"games", "core", "rules", "view", "ui", "web", "i18n", "package"},
}
"""What each layer may import (``rules``/``view``/``web`` of its own game only); the
words (``optimus.i18n``, standard library only) are below everything."""

SHIPPED = sorted([*(ROOT / "py" / "optimus").rglob("*.py"), *(ROOT / "web").rglob("*.py")])
"""The Python the page is given: the rules package (its wheel) and web/ (``optimus_web``)."""


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


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_shipped_imports_the_lab(path: Path) -> None:
    lab = lab_imports(path)
    assert not lab, f"{path.relative_to(ROOT)} is shipped to the page but imports {lab}"


def lab_imports(path: Path, name: str = "") -> list[str]:
    return sorted(m for m in imports_of(path, name) if m.split(".")[0] == "optimus_lab")


def test_the_layer_check_would_catch_an_upward_import(tmp_path: Path) -> None:
    assert layer("optimus.fileiras.game") == "rules:fileiras"
    assert layer("optimus.fileiras.view") == "view:fileiras"
    assert layer("optimus_web.table") == "web"
    assert layer("optimus_web.optimus2_view") == "web:optimus2"
    assert layer("optimus_lab.optimus2.train") == "lab"
    fake = tmp_path / "bots.py"
    fake.write_text("from ..core import bots\n\ndef f():\n    from optimus_web.table import rect\n")
    found = ours(fake, "optimus.fileiras.bots")
    assert found >= {"optimus.core", "optimus.core.bots", "optimus_web.table.rect"}
    assert {layer(m) for m in found} == {"core", "web"}
    assert "web" not in ALLOWED["rules"] and "ui" not in ALLOWED["rules"]


def test_the_lab_check_would_catch_a_shipped_import_of_the_lab(tmp_path: Path) -> None:
    fake = tmp_path / "main.py"
    fake.write_text(
        "import importlib\n\ndef f():\n    import optimus_lab.bench\n"
        "    return importlib.import_module('optimus_lab.slices')\n"
    )
    # The top of the package may use every layer of ours, but never the lab.
    assert layer("optimus.__main__") == "top"
    assert lab_imports(fake, "optimus.__main__") == ["optimus_lab.bench", "optimus_lab.slices"]


def test_the_layers_cover_the_page() -> None:
    names = {module_name(p) for p in SHIPPED}
    assert {"optimus_web.table", "optimus_web.optimus_view", "optimus.core.protocol"} <= names
    assert layer("optimus_web.optimus_view") == "web:optimus"
    assert "web" not in ALLOWED["ui"]
