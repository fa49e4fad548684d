"""The page's own modules (``web/*.py``, the package ``optimus_web``) imported in
CPython with stand-ins for the browser (``js``, ``pyodide.ffi``): their HTML-making
functions need neither.  Shared by the tests that read what the page would show.

``page_module(monkeypatch, "optimus_view")`` imports ``optimus_web.optimus_view``;
the stand-ins and every ``optimus_web`` module go when the test ends.
"""

from __future__ import annotations

import html
import importlib
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

WEB = Path(__file__).resolve().parents[1] / "web"


class Anything:
    """A stand-in for a browser object: any attribute, any call, is another one."""

    def __getattr__(self, name: str) -> Any:
        return Anything()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return Anything()


def page_module(monkeypatch: pytest.MonkeyPatch, name: str) -> Any:
    """``optimus_web.<name>`` imported from web/ with the browser's modules stood in for."""
    fake_js = ModuleType("js")
    fake_js.__getattr__ = lambda attr: Anything()  # type: ignore[method-assign]
    ffi = ModuleType("pyodide.ffi")
    # create_proxy and friends: the function itself (a listener is never called here)
    ffi.__getattr__ = lambda attr: lambda f=None, *a, **k: f  # type: ignore[method-assign]
    pyodide = ModuleType("pyodide")
    pyodide.__path__ = []
    pyodide.ffi = ffi  # type: ignore[attr-defined]
    package = ModuleType("optimus_web")
    package.__path__ = [str(WEB)]
    stand_ins = {"js": fake_js, "pyodide": pyodide, "pyodide.ffi": ffi, "optimus_web": package}
    for key, module in stand_ins.items():
        monkeypatch.setitem(sys.modules, key, module)
    for key in [k for k in sys.modules if k.startswith("optimus_web.")]:
        monkeypatch.delitem(sys.modules, key)
    return importlib.import_module(f"optimus_web.{name}")


_NAMES = re.compile(r'\s(?:aria-label|title|alt)="([^"]*)"')
_TAGS = re.compile(r"<[^<>]*>")


def readable(markup: str) -> str:
    """What a person reads or hears of some HTML: its text, and its accessible names."""
    return html.unescape("\n".join([*_NAMES.findall(markup), _TAGS.sub("\n", markup)]))
