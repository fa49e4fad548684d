"""The frame every game page is drawn in: status line, game bar tools, set-up and play screens.

The play screen is the game's board beside compact player panels and the log.
:class:`Frame` draws each part only when its markup changed; the board is
patched in place by keys (:mod:`optimus_web.keyed`), so focus and a running
animation survive an update.  It also keeps focus where a player expects it:
on the next sensible control when their turn comes, else where it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import js

from optimus.i18n import _, pgettext
from optimus.ui import table as ui

from . import keyed
from .markup import Markup, css_string, html, join
from .router import found


def tools_html(symbols: bool = True) -> Markup:
    """The game bar's tools, beside the title and the back link of index.html (with
    "Symbols" when the game declares its symbols).  Each tool has an icon and a word:
    on a wide screen the word shows; on a phone (web/table.css) the icon, the word kept
    for screen readers, and the tools used less (symbols, settings, records) go into
    the "⋯" menu (a popover), so the bar stays one line."""
    return html(
        '<button type="button" class="btn tool" data-action="rules">'
        '<span class="tool-icon" aria-hidden="true">?</span>'
        '<span class="tool-word">{rules}</span></button>'
        '<button type="button" class="btn tool" data-action="results" hidden>'
        '<span class="tool-icon" aria-hidden="true">⚑</span>'
        '<span class="tool-word">{results}</span></button>'
        '<button type="button" class="btn tool" data-action="take-back" hidden '
        'aria-disabled="true" aria-keyshortcuts="Control+Z Meta+Z">'
        '<span class="tool-icon" aria-hidden="true">↶</span>'
        '<span class="tool-word">{undo}</span></button>'
        '<button type="button" class="btn tool" data-action="hint" hidden '
        'aria-disabled="true">'
        '<span class="tool-icon" aria-hidden="true">◎</span>'
        '<span class="tool-word">{hint}</span></button>'
        '<button type="button" class="btn tool tool-more-button" data-role="more" '
        'popovertarget="game-more" aria-label="{more}" title="{more}">'
        '<span aria-hidden="true">⋯</span></button>'
        '<div class="tool-more" id="game-more" data-role="more-menu" popover>'
        '<button type="button" class="btn tool" data-action="symbols"{hide}>'
        '<span class="tool-icon" aria-hidden="true">◈</span>'
        '<span class="tool-word">{symbols}</span></button>'
        '<button type="button" class="btn tool" data-action="settings">'
        '<span class="tool-icon" aria-hidden="true">⚙\ufe0e</span>'
        '<span class="tool-word">{settings}</span></button>'
        '<a class="btn tool" href="#/records" data-role="records-link">'
        '<span class="tool-icon" aria-hidden="true">★</span>'
        '<span class="tool-word">{records}</span></a></div>',
        rules=_("How to play"),
        hide=Markup("" if symbols else " hidden"),
        symbols=_("Symbols"),
        settings=_("Settings"),
        results=_("Results"),
        hint=pgettext("game bar", "Hint"),
        undo=_("Undo"),
        records=_("Records"),
        more=_("More tools"),
    )


def play_html() -> Markup:
    """The play screen: the board beside the players' panels and the log."""
    return html(
        """
<div class="play" data-role="play">
  <section class="board" aria-label="{table}" tabindex="-1" data-role="board"></section>
  <section class="side" aria-label="{side}">
    <ul class="panels" aria-label="{players}" data-role="panels"></ul>
    <section class="log" aria-labelledby="log-title">
      <h2 id="log-title">{log} <span class="small">{newest}</span></h2>
      <ol tabindex="0" aria-labelledby="log-title" data-role="log"></ol>
    </section>
  </section>
</div>
<section class="handover" data-role="handover" aria-labelledby="handover-title" hidden>
  <h2 id="handover-title" data-role="handover-title"></h2>
  <p data-role="handover-note"></p>
  <p><button type="button" class="btn primary" data-action="handover"></button></p>
</section>""",
        table=_("Table"),
        side=_("Players and log"),
        players=_("Players"),
        log=_("Log"),
        newest=_("newest first"),
    )


def shell_html(game_id: str, dialogs: Markup) -> Markup:
    """The table's shell: the status line (a polite live region), the screen, the dialogs."""
    return html(
        """
<div class="table-shell" data-game="{game}">
  <p class="status" data-role="status" role="status" aria-live="polite">
    <span class="spinner" aria-hidden="true"></span><span data-role="status-text"></span>
    <span class="undo-why" data-role="undo-why" aria-hidden="true" hidden></span></p>
  <div class="screen" data-role="screen"></div>{dialogs}
</div>""",
        game=game_id,
        dialogs=dialogs,
    )


def panel_html(p: ui.Panel, summary: Markup) -> Markup:
    """A compact player panel: name, live score, "▶ to play", last action, the game's summary
    (markup); a click or Enter opens the player's details."""
    cls = ["panel"]
    if p.turn:
        cls.append("turn")
    if p.you:
        cls.append("you")
    marker = html('<span class="turn-mark">▶ {}</span>', _("to play")) if p.turn else ""
    last = _("Last: {action}", action=p.last) if p.last else ""
    # The button's name is its visible text (WCAG 2.5.3): no aria-label; the
    # details it opens are its description and its popup.
    return html(
        '<li class="{cls}" data-seat="{seat}" data-key="seat{seat}" data-action="player">'
        '<button type="button" class="panel-head" data-action="player" '
        'data-seat="{seat}" title="{details}" aria-haspopup="dialog">'
        '<span class="pname">{name}</span><span class="sr-only">, </span>{marker}'
        '<span class="pscore" data-role="score">{score}</span></button>'
        '<p class="plast">{last}</p><div class="psum">{summary}</div></li>',
        cls=" ".join(cls),
        seat=p.seat,
        details=_("Show details"),
        name=p.name,
        marker=marker,
        score=ui.points(p.score),
        last=last,
        summary=summary,
    )


def log_html(lines: Sequence[tuple[str, str]]) -> Markup:
    """The log's lines, newest first: (class, sentence)."""
    return join(html('<li class="{}">{}</li>', cls, line) for cls, line in lines)


class Frame:
    """The mounted frame of one table (``root``: the table's shell)."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.status = root.querySelector("[data-role=status]")
        self.status_text = root.querySelector("[data-role=status-text]")
        self.screen = root.querySelector("[data-role=screen]")
        self._drawn: dict[str, tuple[str, bool]] = {}
        """Each part of the play screen as last drawn, its markup and whether it was drawn
        read-only (redrawn only on a change of either)."""
        self._your_turn = False

    # -- the game bar -----------------------------------------------------------------
    @staticmethod
    def mount_tools(symbols: bool = True) -> None:
        tools = js.document.getElementById("game-tools")
        if found(tools):
            tools.innerHTML = tools_html(symbols)

    @staticmethod
    def unmount_tools() -> None:
        tools = js.document.getElementById("game-tools")
        if found(tools):
            tools.replaceChildren()

    @staticmethod
    def show_results(shown: bool) -> None:
        """The bar's "Results" (reopens the end screen) is there once a game is over."""
        tool = js.document.querySelector("#game-tools [data-action=results]")
        if found(tool):
            tool.hidden = not shown

    @staticmethod
    def show_undo(shown: bool, can: bool, label: str, say: bool = True) -> None:
        """The bar's "Undo": there while a game is played; marked unusable
        (``aria-disabled``, still pressable: a press says why in the status line) when
        nothing can be taken back (``label``: what it takes back, or why nothing; its
        tooltip and its description for screen readers).  While it is unusable, why is
        also said in a small line of the status box (``say``: unless the screen says it
        already), for the eyes only (screen readers have it as Undo's description)."""
        tool = js.document.querySelector("#game-tools [data-action=take-back]")
        if found(tool):
            tool.hidden = not shown
            tool.setAttribute("aria-disabled", "false" if can else "true")
            tool.title = label
        why = js.document.querySelector("[data-role=undo-why]")
        if found(why):
            text = label if shown and not can and say else ""
            if why.textContent != text:
                why.textContent = text
            why.hidden = not text

    # -- the status line ---------------------------------------------------------------
    def set_status(self, tone: str, text: str) -> None:
        """Update the status line in place (a live region must not be re-created)."""
        cls = f"status {tone}" + (" thinking" if tone == "bot" else "")
        if self.status.className != cls:
            self.status.className = cls
        if self.status_text.textContent != text:
            self.status_text.textContent = text

    # -- screens -----------------------------------------------------------------------
    def show_setup(self, markup: str) -> None:
        self.screen.innerHTML = markup

    def show_play(self) -> None:
        self.screen.innerHTML = play_html()
        self._drawn = {}
        self._your_turn = False

    def board(self) -> Any:
        return self.screen.querySelector("[data-role=board]")

    def show_handover(self, title: str, note: str, button: str) -> None:
        """Hide the table behind the hand-over screen ("Pass the device to Ana"); an empty
        ``title`` shows the table again."""
        play = self.screen.querySelector("[data-role=play]")
        screen = self.screen.querySelector("[data-role=handover]")
        if not found(play) or not found(screen):
            return
        shown = bool(title)
        play.hidden = shown
        screen.hidden = not shown
        if not shown:
            return
        self.screen.querySelector("[data-role=handover-title]").textContent = title
        self.screen.querySelector("[data-role=handover-note]").textContent = note
        go = screen.querySelector("[data-action=handover]")
        go.textContent = button
        active = js.document.activeElement
        free = (
            not found(active) or active.isSameNode(js.document.body) or _inside(self.screen, active)
        )
        if free and not _inside(screen, active):
            go.focus()  # never taken from an open dialog or the game bar
        self._your_turn = False

    def draw(self, board: str, panels: str, log: str, read_only: bool = False) -> None:
        """Draw the parts of the play screen whose markup changed: the board and the
        panels are patched in place by keys (focus and animations survive); the log,
        text only, is replaced.  A ``read_only`` board (a replay's) is drawn without its
        moves: each ``data-move`` taken off the elements, its buttons disabled."""
        for part, markup, draw in (
            ("board", board, keyed.patch),
            ("panels", panels, keyed.patch),
            ("log", log, _replace),
        ):
            drawn = (markup, read_only and part == "board")
            if self._drawn.get(part) != drawn:
                node = self.screen.querySelector(f"[data-role={part}]")
                draw(node, markup)
                if drawn[1]:
                    _without_moves(node)
                self._drawn[part] = drawn

    # -- focus --------------------------------------------------------------------------
    def focus_before(self) -> tuple[bool, str | None]:
        """Before drawing: whether focus is on the screen, and a selector to find it again."""
        active = js.document.activeElement
        had_focus = _inside(self.screen, active)
        return had_focus, (_focus_key(active) if had_focus else None)

    def focus_after(
        self,
        before: tuple[bool, str | None],
        your_turn: bool,
        moved: bool,
        order: Sequence[str],
    ) -> None:
        """After drawing: on the person's turn (just arrived, or they just moved), focus
        the first of ``order``; else keep focus where it was (or the board, if the control
        it was on was drawn away).  Never taken from an open dialog or the game bar."""
        had_focus, focus_key = before
        screen = self.screen
        arrived, self._your_turn = your_turn and not self._your_turn, your_turn
        active = js.document.activeElement
        lost = had_focus and not _inside(screen, active)
        free = (
            lost
            or _inside(screen, active)
            or not found(active)
            or active.isSameNode(js.document.body)
        )
        if your_turn and free and (moved or arrived or lost):
            self.focus_first(order)
        elif lost:
            again: Any = screen.querySelector(focus_key) if focus_key else None
            (again if found(again) else self.board()).focus()

    def game_over(self) -> None:
        self._your_turn = False

    def focus_first(self, selectors: Sequence[str]) -> None:
        """Focus the first control matching ``selectors`` (else the board)."""
        for selector in selectors:
            node = self.screen.querySelector(selector)
            if found(node):
                node.focus()
                return
        self.board().focus()


def show_notices(root: Any, role: str, notices: Sequence[str]) -> None:
    """Sentences above the table's screen in a box (``data-role=<role>``, an alert),
    as text, never markup; none: the box goes."""
    old = root.querySelector(f"[data-role={role}]")
    if found(old):
        old.remove()
    if not notices:
        return
    box = js.document.createElement("div")
    box.className = "link-notices"
    box.setAttribute("data-role", role)
    box.setAttribute("role", "alert")
    for text in notices:
        line = js.document.createElement("p")
        line.className = "notice"
        line.textContent = text
        box.append(line)
    root.insertBefore(box, root.querySelector("[data-role=screen]"))


def _without_moves(node: Any) -> None:
    """Nothing in ``node`` can be played: its moves taken off, their buttons disabled."""
    for element in node.querySelectorAll("[data-move]"):
        element.removeAttribute("data-move")
        if str(element.tagName) == "BUTTON":
            element.disabled = True


def _replace(node: Any, markup: str) -> None:
    node.innerHTML = markup


def _inside(container: Any, node: Any) -> bool:
    return found(node) and bool(container.contains(node))


def _focus_key(element: Any) -> str | None:
    """A selector that finds the same control after a redraw (None if there is none)."""
    for attr in ("data-key", "data-move", "data-seat"):
        value = element.getAttribute(attr) if hasattr(element, "getAttribute") else None
        if found(value) and value:
            tag = str(element.tagName).lower()
            return f"{tag}[{attr}={css_string(value)}]"
    return None
