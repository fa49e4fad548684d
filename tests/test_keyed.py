"""web/keyed.py in CPython, on a small stand-in for the DOM: what a patch keeps, changes,
moves, adds and removes (the browser test in tests/e2e/test_optimus.py checks focus)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


class NodeList(list["Node"]):
    """A live list's snapshot, with ``item`` (None past the end, as JS null)."""

    def item(self, i: int) -> Node | None:
        return self[i] if i < len(self) else None


class Node:
    """The part of a DOM node keyed.patch uses."""

    def __init__(self, name: str, attrs: dict[str, str] | None = None, text: str = "") -> None:
        self.nodeName = name.upper() if not name.startswith("#") else name
        self.nodeType = 3 if name == "#text" else 11 if name == "#fragment" else 1
        self.nodeValue = text if self.nodeType == 3 else None
        self.attrs = dict(attrs or {})
        self.parent: Node | None = None
        self.kids: list[Node] = []

    # -- reading
    @property
    def childNodes(self) -> NodeList:
        return NodeList(self.kids)

    def getAttribute(self, name: str) -> str | None:
        return self.attrs.get(name)

    @property
    def attributes(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(name=k, value=v) for k, v in self.attrs.items()]

    def isSameNode(self, other: Node) -> bool:
        return self is other

    def isEqualNode(self, other: Node) -> bool:
        return self.html() == other.html()

    def html(self) -> str:
        if self.nodeType == 3:
            return str(self.nodeValue)
        inner = "".join(k.html() for k in self.kids)
        if self.nodeType == 11:
            return inner
        attrs = "".join(f' {k}="{v}"' for k, v in self.attrs.items())
        tag = self.nodeName.lower()
        return f"<{tag}{attrs}>{inner}</{tag}>"

    # -- writing
    def setAttribute(self, name: str, value: str) -> None:
        self.attrs[name] = value

    def removeAttribute(self, name: str) -> None:
        self.attrs.pop(name, None)

    def remove(self) -> None:
        if self.parent is not None:
            self.parent.kids.remove(self)
            self.parent = None

    def insertBefore(self, node: Node, ref: Node | None) -> None:
        node.remove()
        node.parent = self
        self.kids.insert(self.kids.index(ref) if ref is not None else len(self.kids), node)

    def appendChild(self, node: Node) -> None:
        self.insertBefore(node, None)

    def __iter__(self) -> Iterator[Node]:
        for kid in self.kids:
            yield kid
            yield from kid


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.root = Node("#fragment")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].appendChild(node)
        self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].appendChild(Node("#text", text=data))


def parse(markup: str) -> Node:
    parser = _Parser()
    parser.feed(markup)
    return parser.root


class Template:
    content = Node("#fragment")

    @property
    def innerHTML(self) -> str:
        return self.content.html()

    @innerHTML.setter
    def innerHTML(self, markup: str) -> None:
        self.content = parse(markup)


@pytest.fixture
def keyed(monkeypatch: pytest.MonkeyPatch) -> Any:
    """web/keyed.py imported as ``optimus_web.keyed`` with the stand-in for ``js``."""
    fake_js = ModuleType("js")
    fake_js.document = SimpleNamespace(createElement=lambda tag: Template())
    package = ModuleType("optimus_web")
    package.__path__ = [str(ROOT / "web")]
    monkeypatch.setitem(sys.modules, "js", fake_js)
    monkeypatch.setitem(sys.modules, "optimus_web", package)
    for name in ("optimus_web.keyed", "optimus_web.router"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return importlib.import_module("optimus_web.keyed")


def board(markup: str) -> Node:
    root = Node("section")
    for kid in list(parse(markup).kids):
        root.appendChild(kid)
    return root


def by_key(root: Node) -> dict[str, Node]:
    return {n.attrs["data-key"]: n for n in root if n.nodeType == 1 and "data-key" in n.attrs}


def test_keyed_pieces_keep_their_element_when_they_move_and_change(keyed: Any) -> None:
    root = board('<i data-key="a" class="x">1</i><i data-key="b">2</i><i data-key="c">3</i>')
    before = by_key(root)
    keyed.patch(root, '<i data-key="c">3</i><i data-key="a" class="y" title="t">9</i>')
    assert root.html() == (
        '<section><i data-key="c">3</i><i data-key="a" class="y" title="t">9</i></section>'
    )
    after = by_key(root)
    assert after["a"] is before["a"] and after["c"] is before["c"]  # moved, changed: kept
    assert before["b"].parent is None  # gone


def test_a_piece_that_changes_its_tag_is_a_new_element(keyed: Any) -> None:
    root = board('<span data-key="H3">x</span>')
    span = by_key(root)["H3"]
    keyed.patch(root, '<button data-key="H3">x</button>')
    assert by_key(root)["H3"] is not span and root.html() == (
        '<section><button data-key="H3">x</button></section>'
    )


def test_unkeyed_elements_are_matched_in_order_among_their_tag(keyed: Any) -> None:
    root = board("<p>one</p><b>bold</b><p>two</p>")
    first_p, b, second_p = root.kids
    keyed.patch(root, "<b>bolder</b><p>one</p><p>three</p><p>four</p>")
    assert root.html() == "<section><b>bolder</b><p>one</p><p>three</p><p>four</p></section>"
    assert root.kids[0] is b and root.kids[1] is first_p and root.kids[2] is second_p
    assert second_p.kids[0].nodeValue == "three"  # text patched in place


def test_an_equal_subtree_is_left_alone(keyed: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    markup = '<div data-key="sheet"><i>1</i><i>2</i></div><p data-key="s">a</p>'
    root = board(markup)
    touched: list[str] = []
    monkeypatch.setattr(Node, "setAttribute", lambda self, k, v: touched.append(k))
    keyed.patch(root, markup.replace(">a<", ">b<"))
    assert touched == [] and root.html() == f"<section>{markup.replace('>a<', '>b<')}</section>"


def test_patching_twice_with_the_same_markup_is_a_fixed_point(keyed: Any) -> None:
    markup = '<ol><li data-key="r1">x<b>1</b></li><li data-key="r2" class="c">y</li></ol>'
    root = board("<ol><li>old</li></ol>")
    keyed.patch(root, markup)
    kept = list(root)
    keyed.patch(root, markup)
    assert root.html() == f"<section>{markup}</section>"
    assert all(a is b for a, b in zip(kept, root, strict=True))
