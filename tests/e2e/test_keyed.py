"""The page's keyed updates (``optimusPatch``, web/page.js; web/keyed.py calls it) in
real Chromium: what a patch keeps, changes, moves, adds and removes.  One page, the
landing (the function is there before Python loads); tests/e2e/test_optimus.py
checks that focus survives a real table's updates."""

from __future__ import annotations

from typing import Any

# The `guarded` fixture is a conftest.Guard (page, origin, wait_ready, expect_errors).
Guard = Any

# Each case: patch a board built from `before` with `after` (and `again`, if any), and
# say which of the old elements (marked by their data-id) are still in the board.
CASES = """(cases) => cases.map(([before, after, again]) => {
  const root = document.createElement("section");
  root.innerHTML = before;
  root.querySelectorAll("*").forEach((el, i) => { el.__id = "old" + i; });
  let touched = 0;
  const set = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (...args) {
    touched += 1;
    return set.apply(this, args);
  };
  try { optimusPatch(root, after); } finally { Element.prototype.setAttribute = set; }
  const firstIds = [...root.querySelectorAll("*")].map((el) => el.__id || "new");
  if (again !== undefined) {
    [...root.querySelectorAll("*")].forEach((el, i) => { el.__again = i; });
    optimusPatch(root, again);
  }
  return { html: root.innerHTML, ids: firstIds, touched,
           kept: [...root.querySelectorAll("*")].map((el) => el.__again ?? null) };
})"""


def test_a_patch_keeps_moves_changes_adds_and_removes_elements(guarded: Guard, site: str) -> None:
    page = guarded.page
    page.goto(site, wait_until="domcontentloaded")
    page.wait_for_function("typeof window.optimusPatch === 'function'")
    moved, retagged, unkeyed, equal, twice = page.evaluate(
        CASES,
        [
            [
                '<i data-key="a" class="x">1</i><i data-key="b">2</i><i data-key="c">3</i>',
                '<i data-key="c">3</i><i data-key="a" class="y" title="t">9</i>',
            ],
            ['<span data-key="H3">x</span>', '<button data-key="H3">x</button>'],
            ["<p>one</p><b>bold</b><p>two</p>", "<b>bolder</b><p>one</p><p>three</p><p>four</p>"],
            [
                '<div data-key="sheet"><i>1</i><i>2</i></div><p data-key="s">a</p>',
                '<div data-key="sheet"><i>1</i><i>2</i></div><p data-key="s">b</p>',
            ],
            [
                "<ol><li>old</li></ol>",
                '<ol><li data-key="r1">x<b>1</b></li><li data-key="r2" class="c">y</li></ol>',
                '<ol><li data-key="r1">x<b>1</b></li><li data-key="r2" class="c">y</li></ol>',
            ],
        ],
    )
    # keyed pieces keep their element when they move and change; a gone one is removed
    assert moved["html"] == '<i data-key="c">3</i><i data-key="a" class="y" title="t">9</i>'
    assert moved["ids"] == ["old2", "old0"]
    # a piece that changes its tag is a new element
    assert retagged["html"] == '<button data-key="H3">x</button>' and retagged["ids"] == ["new"]
    # unkeyed elements are matched in order among their tag; text is patched in place
    assert unkeyed["html"] == "<b>bolder</b><p>one</p><p>three</p><p>four</p>"
    assert unkeyed["ids"] == ["old1", "old0", "old2", "new"]
    # an equal subtree is left alone: no attribute is set anywhere
    assert equal["html"].endswith('<p data-key="s">b</p>') and equal["touched"] == 0
    assert equal["ids"] == ["old0", "old1", "old2", "old3"]
    # patching twice with the same markup is a fixed point: every element is kept
    assert twice["html"] == (
        '<ol><li data-key="r1">x<b>1</b></li><li data-key="r2" class="c">y</li></ol>'
    )
    assert twice["kept"] == [0, 1, 2, 3]
