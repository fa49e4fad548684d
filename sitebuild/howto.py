"""Each game's "how to play", in each language: ``docs/howto/<game>.<lang>.md``,
written for players (the rules drawer of the game's page shows it; the English
is also the base of the other two).

The build turns each file into an HTML fragment, ``optimus/<game>/howto.<lang>.html``
in the game's archive (``optimus.ui.howto`` reads it).  The Markdown used is a
small subset, all these files need: ``#``-headings, paragraphs, ``-`` and ``1.``
lists, tables (``| a | b |`` with a ``| --- |`` line), ``**bold**``, ``*italic*``,
and images (``![words](<game>-name.svg)``, SVG files in ``docs/howto/``, shipped
once each in the game's package).
Anything else is text, escaped.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from sitebuild import ROOT, BuildError

HOWTO = ROOT / "docs" / "howto"


def inline(text: str) -> str:
    """One line's text as HTML: escaped, then bold and italic.

    >>> inline("**Score** the *row* <now>")
    '<strong>Score</strong> the <em>row</em> &lt;now&gt;'
    """
    out = html.escape(text, quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])", r"<em>\1</em>", out)


def to_html(markdown: str, name: str = "<howto>") -> str:
    """The HTML fragment of a how-to-play file (headings start at ``<h3>``: the drawer
    has its own ``<h2>``).

    >>> md = "# Goal\\nScore most.\\n\\n- one\\n- two\\n\\n| a | b |\\n| --- | --- |\\n| 1 | 2 |"
    >>> print(to_html(md))
    <h3>Goal</h3>
    <p>Score most.</p>
    <ul><li>one</li><li>two</li></ul>
    <table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>
    """
    blocks: list[str] = []
    paragraph: list[str] = []
    items: list[str] = []
    ordered = False
    rows: list[list[str]] = []

    def flush() -> None:
        nonlocal items, rows, paragraph
        if paragraph:
            blocks.append(f"<p>{inline(' '.join(paragraph))}</p>")
            paragraph = []
        if items:
            tag = "ol" if ordered else "ul"
            blocks.append(
                f"<{tag}>" + "".join(f"<li>{inline(i)}</li>" for i in items) + f"</{tag}>"
            )
            items = []
        if rows:
            head, *body = rows
            cells = "".join(f"<th>{inline(c)}</th>" for c in head)
            tbody = "".join(
                "<tr>" + "".join(f"<td>{inline(c)}</td>" for c in row) + "</tr>" for row in body
            )
            blocks.append(f"<table><thead><tr>{cells}</tr></thead><tbody>{tbody}</tbody></table>")
            rows = []

    for number, raw in enumerate(markdown.splitlines(), 1):
        line = raw.rstrip()
        heading = re.match(r"(#{1,4})\s+(.*)", line)
        bullet = re.match(r"\s*[-*]\s+(.*)", line)
        numbered = re.match(r"\s*\d+[.)]\s+(.*)", line)
        if not line.strip():
            flush()
        elif heading:
            flush()
            level = min(len(heading.group(1)) + 2, 6)
            blocks.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif line.lstrip().startswith("|"):
            if paragraph or items:
                flush()
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
                continue
            rows.append(cells)
        elif bullet or numbered:
            if paragraph or rows:
                flush()
            ordered = numbered is not None and not bullet
            items.append((bullet or numbered).group(1))  # type: ignore[union-attr]
        elif items and raw.startswith("  "):
            items[-1] += " " + line.strip()  # a list item's next line
        elif line.startswith("!["):
            flush()
            image = re.fullmatch(r"!\[([^\]]*)\]\(([\w.-]+\.svg)\)", line.strip())
            if image is None:
                raise BuildError(
                    f"{name}:{number}: an image is ![words](name.svg), a file beside it"
                )
            _svg(image.group(2), name)  # it must be there
            words = html.escape(image.group(1))
            source = f"{IMAGE}{image.group(2)}"
            blocks.append(f'<p class="howto-figure"><img src="{source}" alt="{words}"></p>')
        else:
            if items or rows:
                flush()
            paragraph.append(line.strip())
    flush()
    return "\n".join(blocks)


IMAGE = "howto-image:"
"""How a fragment names an image of its game's package (``optimus.ui.howto`` makes it
a ``data:`` URL when it reads the fragment: each image is shipped once, whatever the
number of languages using it)."""


def _svg(file: str, name: str) -> bytes:
    path = HOWTO / file
    if not path.is_file():
        raise BuildError(f"{name}: no image {file} in docs/howto/")
    return path.read_bytes()


def compiled() -> list[tuple[str, bytes]]:
    """Every how-to-play as (path in our wheel, HTML bytes)."""
    out = []
    for path in sorted(HOWTO.glob("*.md")):
        game, _, lang = path.stem.partition(".")
        if not lang:
            continue
        text = to_html(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
        out.append((f"optimus/{game}/howto.{lang}.html", text.encode("utf-8")))
    for path in sorted(HOWTO.glob("*.svg")):
        game = path.stem.split("-", 1)[0]
        out.append((f"optimus/{game}/howto-{path.name}", path.read_bytes()))
    return out


def files(game: str) -> dict[str, Path]:
    """A game's how-to-play files by language."""
    return {p.stem.partition(".")[2]: p for p in sorted(HOWTO.glob(f"{game}.*.md"))}


__all__ = ["compiled", "files", "to_html", "Path"]
