"""web/router.py's pure parts, in CPython (the DOM parts run in the browser tests)."""

from __future__ import annotations

import doctest
import html
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _router() -> ModuleType:
    spec = importlib.util.spec_from_file_location("optimus_web_router", ROOT / "web" / "router.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


router = _router()


@pytest.mark.parametrize(
    "value",
    ["", "plain", "<b>", "a & b", "&amp;", "\"quoted\" and 'single'", "<&>\"'" * 3, 42, None],
)
def test_esc_escapes_exactly_as_html_escape(value: object) -> None:
    assert router.esc(value) == html.escape(str(value), quote=True)


def test_router_doctests_pass() -> None:
    result = doctest.testmod(router)
    assert result.attempted >= 3 and result.failed == 0
