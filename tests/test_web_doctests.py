"""The doctests of the page's modules (``web/*.py``) run in CPython, each module
imported as ``optimus_web.<name>`` with the browser's modules stood in for
(tests/webstub.py); a module that cannot even be imported that way fails here."""

from __future__ import annotations

import doctest

import pytest

from tests.webstub import WEB, page_module

MODULES = sorted(path.stem for path in WEB.glob("*.py") if path.stem != "__init__")


@pytest.mark.parametrize("name", MODULES)
def test_the_doctests_of_a_page_module_pass(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    module = page_module(monkeypatch, name)
    runner = doctest.DocTestRunner()
    said: list[str] = []
    for test in doctest.DocTestFinder().find(module, module.__name__):
        runner.run(test, out=said.append)
    assert runner.summarize(verbose=False).failed == 0, "".join(said)


def test_the_page_modules_have_doctests_to_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The finder sees the examples (a wrong module name would find none and pass)."""
    found = 0
    for name in ("router", "storage", "tabs"):
        module = page_module(monkeypatch, name)
        found += sum(len(t.examples) for t in doctest.DocTestFinder().find(module))
    assert found >= 8
