"""web/router.py's pure parts, in CPython (the DOM parts run in the browser tests)."""

from __future__ import annotations

import doctest
import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _router() -> ModuleType:
    """web/router.py with web/store_keys.py (its one import of the page's package), as the
    modules of a package of the tests' own name (kept in ``sys.modules``: doctest looks
    its functions up there, and the page's tests stand their own ``optimus_web`` in)."""
    package = ModuleType("router_under_test")
    package.__path__ = [str(ROOT / "web")]
    sys.modules.setdefault("router_under_test", package)
    return importlib.import_module("router_under_test.router")


router = _router()


def test_router_doctests_pass() -> None:
    result = doctest.testmod(router)
    assert result.attempted >= 3 and result.failed == 0


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("", ""),
        ("fileiras", "fileiras"),
        ("a" * 40, "a" * 40),
        ("a" * 41, "a" * 40 + "…"),
        ("é" * 100_000, "é" * 40 + "…"),
    ],
    ids=["empty", "short", "40", "41", "100000"],
)
def test_shorten_keeps_the_first_40_characters(text: str, shown: str) -> None:
    assert router.shorten(text) == shown


class _Node:
    def __init__(self) -> None:
        self.children: list[_Node] = []
        self.textContent = ""
        self.hidden = False
        self.className = ""

    def replaceChildren(self) -> None:  # noqa: N802 (DOM name)
        self.children = []

    def append(self, node: _Node) -> None:
        self.children.append(node)

    def focus(self) -> None:
        pass


class _Document:
    def __init__(self) -> None:
        self.nodes: dict[str, _Node] = {}
        self.title = ""

    def getElementById(self, name: str) -> _Node:  # noqa: N802 (DOM name)
        return self.nodes.setdefault(name, _Node())

    def createElement(self, _tag: str) -> _Node:  # noqa: N802 (DOM name)
        return _Node()


class _Window:
    def scrollTo(self, _x: int, _y: int) -> None:  # noqa: N802 (DOM name)
        pass


def test_a_very_long_route_is_shown_shortened_on_the_not_found_page() -> None:
    document = _Document()
    page = router.Router(document, _Window(), lambda f: f, {"fileiras": "Fileiras"})
    route = router.parse_route("#/" + "z" * 100_000)
    page.show(route)
    [notice] = document.nodes["game-view"].children
    assert document.nodes["game-title"].textContent == "Page not found"
    assert notice.textContent == f"There is no game called “{'z' * 40}…” here."
    assert len(document.title) < 100


def test_a_route_keeps_its_sub_path_and_query_apart() -> None:
    assert router.split_route("#/Optimus2?seed=812&players=you,Ana") == (
        "optimus2",
        "",
        "seed=812&players=you,Ana",
    )
    assert router.split_route("#/fileiras/daily?date=2026-12-01") == (
        "fileiras",
        "daily",
        "date=2026-12-01",
    )
    assert router.split_route("#/optimus/replay/3") == ("optimus", "replay/3", "")
    assert router.split_route("#/?seed=1") == ("", "", "seed=1")
    assert router.parse_route("#/fileiras?seed=<img src=x>") == "fileiras"


def test_a_view_is_given_the_rest_of_its_address() -> None:
    opened: list[tuple[str, str]] = []

    class Node:
        hidden = False
        textContent = ""

        def replaceChildren(self, *nodes: object) -> None: ...  # noqa: N802
        def focus(self) -> None: ...

    class Document:
        title = ""
        nodes: dict[str, Node] = {}  # noqa: RUF012

        def getElementById(self, name: str) -> Node:  # noqa: N802
            return self.nodes.setdefault(name, Node())

    class Location:
        hash = "#/fileiras?seed=12&players=you,easy"

    class Window:
        location = Location()

        def addEventListener(self, *args: object) -> None: ...  # noqa: N802
        def scrollTo(self, *args: object) -> None: ...  # noqa: N802

    class View:
        def mount(self, container: object) -> None: ...
        def unmount(self) -> None: ...
        def open(self, sub: str, query: str) -> None:
            opened.append((sub, query))

    window = Window()
    page = router.Router(Document(), window, lambda f: f, {"fileiras": "Fileiras"})
    page.register("fileiras", View)
    page.register("records", View, title="Your records")
    page.start()
    Location.hash = "#/fileiras/daily"
    page._on_hashchange()
    Location.hash = "#/records"
    page._on_hashchange()
    assert opened == [("", "seed=12&players=you,easy"), ("daily", ""), ("", "")]
