"""The parts every game page shares: a game page is a :class:`GameTable` plus its own board.

A subclass sets ``game_id``, ``rules_html``, its settings (``defaults`` and
``choices``) and implements the board hooks (``setup_fields``,
``new_session``, ``view``, ``board_html``, ``status``, ``panels``, ``log``,
``end``, ``focus_order`` and, for animations, ``capture``/``animate``).  This
class draws and runs the rest:

- the thin game bar's tools (How to play, Settings, Results) beside the title
  and the back link from index.html; leaving a game in progress asks first;
- the status line (one polite live region, never re-created);
- the set-up screen frame: notices, "resume", "start" (asks before replacing
  a saved game);
- the play screen: the board, compact player panels with live scores (a click
  opens the player's details), the log (newest first, keyboard-scrollable);
- the bot loop: bots think in slices so the page never freezes, each action is
  paced by the speed setting and animated (no movement with "instant" or
  ``prefers-reduced-motion``);
- focus after each move (the game's next sensible control), dialogs (rules
  drawer, settings, confirmation, player details, end screen with rematch);
- saves: every move is saved; a save that cannot be read is kept under
  ``<key>.backup`` and reported in plain words; storage the browser refuses
  falls back to memory and the page says once that the game cannot be resumed.

Everything decided (speeds, settings validation, ranks, log order, wording)
lives in :mod:`optimus.ui.table`, which has no browser imports.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from typing import Any

import js
from pyodide.ffi import create_once_callable, create_proxy, to_js

from optimus.core.protocol import JSON, GameError
from optimus.core.registry import get_game
from optimus.games import GAMES
from optimus.ui import table as ui
from optimus.ui.session import TableSession

from .router import esc, found
from .userbots import BotPicker

SLICE_MS = 25.0
"""How long a bot thinks before the page gets control back."""


def _js(value: Any) -> Any:
    return to_js(value, dict_converter=js.Object.fromEntries)


class Storage:
    """``localStorage``, or memory when the browser refuses it (sandboxed iframe, blocked data).

    ``persistent`` says which: with memory, a game lasts only as long as the page.
    """

    told = False
    """Whether a page has already said that storage is refused (said once per page load)."""
    _memory: dict[str, str] = {}  # noqa: RUF012 - shared on purpose: lives as long as the page

    def __init__(self) -> None:
        self._local: Any = None
        try:
            local = js.window.localStorage
            local.setItem("optimus-table.probe", "1")
            local.removeItem("optimus-table.probe")
            self._local = local
        except Exception:  # SecurityError, QuotaExceededError, no localStorage at all
            self._local = None
        self.persistent = self._local is not None

    def get(self, key: str) -> str | None:
        if self._local is not None:
            try:
                value = self._local.getItem(key)
                return str(value) if found(value) else None
            except Exception:
                self._local = None  # refused from now on: fall back to memory
        return self._memory.get(key)

    def set(self, key: str, value: str) -> None:
        self._memory[key] = value
        if self._local is not None:
            try:
                self._local.setItem(key, value)
            except Exception:
                self._local = None

    def remove(self, key: str) -> None:
        self._memory.pop(key, None)
        if self._local is not None:
            try:
                self._local.removeItem(key)
            except Exception:
                self._local = None

    def set_aside(self, key: str, value: str) -> None:
        """Keep an unreadable value under ``<key>.backup`` instead of deleting it."""
        self.set(key + ".backup", value)
        self.remove(key)


Rect = tuple[float, float, float, float]


def rect(element: Any) -> Rect | None:
    if not found(element):
        return None
    r = element.getBoundingClientRect()
    return (float(r.left), float(r.top), float(r.width), float(r.height))


class GameTable:
    """A router view for one game: the shared frame; subclasses draw their board."""

    game_id = ""
    """The game's id in :data:`optimus.games.GAMES` (its title, players and bot levels)."""
    lead = ""
    """One sentence on the set-up screen: what the game is about."""
    rules: Sequence[str] = ()
    """The rules drawer's points, in order (HTML fragments)."""
    defaults: dict[str, JSON] = {}
    """The game's own settings (beside players, seats and speed), with their defaults."""
    choices: dict[str, Sequence[JSON]] = {}
    """The values each of the game's own settings allows."""
    max_humans = 1

    # -- hooks for the game page ---------------------------------------------
    def setup_fields(self) -> str:
        """The set-up form's fields (inputs carry ``data-setting="<key>"``): by default
        the players and their seats; a game adds its options after ``seat_fields()``."""
        return self.seat_fields()

    def player_label(self, n: int) -> str:
        """The "Players" option for ``n`` players (a game may add what changes with it)."""
        return f"{n} player{'' if n == 1 else 's'}"

    def setting_changed(self, key: str) -> None:
        """A setting changed on the set-up screen (by default: show the right number of seats)."""
        if key != "players" or self.root is None:
            return
        players = int(str(self.settings["players"]))
        for i, label in enumerate(self.root.querySelectorAll(".seat")):
            label.hidden = i >= players - 1
        for option in self.root.querySelectorAll("select[name=seat] option"):
            value = str(option.value)
            option.hidden = value.isdigit() and int(value) > players
        place = str(self.settings.get("seat", "1"))
        if place.isdigit() and int(place) > players:  # past the last seat: the last seat
            self.settings["seat"] = str(players)
            self.storage.set(self.settings_key, _dumps(self.settings))
            select = self.root.querySelector("select[name=seat]")
            if found(select):
                select.value = str(players)
        fieldset = self.root.querySelector("fieldset.seats")
        if found(fieldset):
            fieldset.hidden = players == 1

    # -- seats: for games whose settings are "players" and "bot0", "bot1", ... -------
    def seat_fields(self) -> str:
        """The "Players" select, your place, one bot level per other seat (from the game's
        description: ``GAMES[game_id]``)."""
        s = self.settings
        count = int(str(s["players"]))
        players = {n: self.player_label(n) for n in self.info.player_counts}
        levels = self.levels
        counts = "".join(
            f'<option value="{n}"{" selected" if n == s["players"] else ""}>{esc(text)}</option>'
            for n, text in players.items()
        )
        places = "".join(
            f'<option value="{v}"{" selected" if v == s["seat"] else ""}'
            f"{' hidden' if v.isdigit() and int(v) > count else ''}>{esc(text)}</option>"
            for v, text in ui.seat_choices(max(players))
        )
        seats = []
        for i in range(max(players) - 1):
            opts = "".join(
                f'<option value="{lv}"{" selected" if s[f"bot{i}"] == lv else ""}>'
                f"{esc(lv.capitalize())}</option>"
                for lv in levels
            )
            hidden = " hidden" if i >= count - 1 else ""
            seats.append(
                f'<label class="seat field"{hidden}>Bot {i + 1} '
                f'<select name="bot{i}" data-setting="bot{i}">{opts}</select></label>'
            )
        return f"""
  <label class="field">Players <select name="players" data-setting="players">{counts}</select>
  </label>
  <fieldset class="seats"{" hidden" if count == 1 else ""}>
    <legend>Your place at the table, and the bots</legend>
    <label class="field">You play <select name="seat" data-setting="seat">{places}</select>
    </label>{"".join(seats)}</fieldset>"""

    def seats(self, seed: int = 0) -> list[str]:
        """The bot levels chosen, in order, with the person at the place chosen."""
        players = int(str(self.settings["players"]))
        bots = [str(self.settings[f"bot{i}"]) for i in range(players - 1)]
        return ui.seat_order(bots, str(self.settings["seat"]), seed)

    def new_session(self, seed: int) -> TableSession:
        raise NotImplementedError

    def options_text(self) -> str:
        """The options in use, in words, for the rules drawer."""
        return ""

    def view(self) -> Any:
        """The game's view model for the current state (passed to the hooks below)."""
        raise NotImplementedError

    def board_html(self, view: Any) -> str:
        raise NotImplementedError

    def status(self, view: Any) -> ui.Status:
        """The status line (by default the view's ``status``)."""
        status: ui.Status = view.status
        return status

    def panels(self, view: Any) -> Sequence[ui.Panel]:
        """One panel per seat (by default the view's ``panels``)."""
        panels: Sequence[ui.Panel] = view.panels
        return panels

    def panel_summary(self, view: Any, panel: ui.Panel) -> str:
        """HTML under a compact panel (what the player collected or marked)."""
        return ""

    def panel_detail(self, view: Any, panel: ui.Panel) -> str:
        """HTML of a player's details dialog (drawn only when it opens)."""
        return ""

    def log(self, view: Any) -> list[str]:
        """The log's sentences, newest first (by default the view's ``log``)."""
        return list(view.log)

    def end(self) -> ui.EndScreen:
        """The end screen of the finished game."""
        raise NotImplementedError

    def score_icon(self, icon: str) -> str:
        """HTML of a breakdown line's piece (``ScoreLine.icon``: a card, an area)."""
        return ""

    def focus_order(self, view: Any) -> Sequence[str]:
        """Selectors tried in order for the next sensible control on the player's turn."""
        return ("[data-move]",)

    def board_action(self, action: str, target: Any) -> bool:
        """A click on a board control with a ``data-action`` of the game's own.

        For steps that are not moves yet (pick a die, pencil a box, take a mark
        back): change the page's own state and ``render()``. Return True if handled.
        """
        return False

    def capture(self, seat: int, move: str) -> Any:
        """Before a move is drawn: remember where its pieces are (for ``animate``)."""
        return None

    def animate(self, captured: Any, seat: int, move: str, ms: int) -> None:
        """After a move is drawn: move its pieces from where they were (``ms`` > 0)."""

    # -- router hooks -----------------------------------------------------------
    def __init__(self) -> None:
        self.info = GAMES[self.game_id]
        self.title = self.info.title
        self.game = get_game(self.game_id)
        offered = self.game.bot_levels()
        self.levels = [lv for lv in self.info.levels if lv in offered] or list(offered)[:1]
        """The bot levels of the set-up form, weakest first."""
        default_level = (
            self.info.default_level if self.info.default_level in self.levels else self.levels[0]
        )
        bots = range(self.info.players[1] - 1)
        places = [v for v, _ in ui.seat_choices(self.info.players[1])]
        self.defaults = {
            "players": self.info.first_players,
            "seat": places[0],
            "speed": "normal",
            **{f"bot{i}": default_level for i in bots},
            **type(self).defaults,
        }
        # Per table: a player's bots join the seat choices ("Add your bot…", web/userbots.py).
        self.choices = {
            "players": list(self.info.player_counts),
            "seat": places,
            "speed": list(ui.SPEEDS),
            **{f"bot{i}": list(self.levels) for i in bots},
            **{k: list(v) for k, v in type(self).choices.items()},
        }
        self.bot_picker = BotPicker(self.game.name, self.choices, list(self.game.bot_levels()))
        self.bot_picker.on_added = lambda: self.bot_picker.decorate(self.root, self.settings)
        self._log = ui.LogNotes()
        self.storage = Storage()
        self.save_key = f"optimus-table.{self.game_id}.save"
        self.settings_key = f"optimus-table.{self.game_id}.settings"
        self.settings = ui.read_settings(
            self.storage.get(self.settings_key), self.defaults, self.choices
        )
        self.session: TableSession | None = None
        self.names: list[str] = []
        self.you: int | None = None
        self.notices: list[str] = []
        self.error = ""
        self.generation = 0
        self.root: Any = None
        self.section: Any = None
        self._on_yes: Callable[[], None] | None = None
        self._click = create_proxy(self._on_click)
        self._change = create_proxy(self._on_change)
        self._dragover = create_proxy(self.bot_picker.dragover)
        self._drop = create_proxy(self.bot_picker.drop)
        self._nodes: dict[str, Any] = {}
        self._your_turn = False
        self._drawn: dict[str, str] = {}
        """The markup last drawn per part of the play screen (redrawn only on change)."""

    def mount(self, container: Any) -> None:
        doc = js.document
        self.section = doc.getElementById("game")
        container.innerHTML = self._frame_html()
        self.root = container.firstElementChild
        for role in (
            *("status", "status-text", "screen", "options"),  # parts redrawn in place
            *("rules", "settings", "confirm", "confirm-text", "confirm-yes", "player", "end"),
        ):
            self._nodes[role] = self.root.querySelector(f"[data-role={role}]")
        tools = doc.getElementById("game-tools")
        if found(tools):
            tools.innerHTML = (
                '<button type="button" class="btn tool" data-action="rules">How to play</button>'
                '<button type="button" class="btn tool" data-action="settings">Settings</button>'
                '<button type="button" class="btn tool" data-action="results" hidden>'
                "Results</button>"
            )
        self.section.addEventListener("click", self._click)
        self.section.addEventListener("change", self._change)
        self.section.addEventListener("dragover", self._dragover)
        self.section.addEventListener("drop", self._drop)
        self.show_setup()

    def unmount(self) -> None:
        self.generation += 1  # stops a running bot loop
        if self.section is not None:
            self.section.removeEventListener("click", self._click)
            self.section.removeEventListener("change", self._change)
            self.section.removeEventListener("dragover", self._dragover)
            self.section.removeEventListener("drop", self._drop)
        tools = js.document.getElementById("game-tools")
        if found(tools):
            tools.replaceChildren()
        self.root = None
        self.section = None

    # -- the frame ----------------------------------------------------------------
    def _frame_html(self) -> str:
        speeds = "".join(
            f'<option value="{k}"{" selected" if k == self.settings["speed"] else ""}>'
            f"{esc(label)}</option>"
            for k, label in ui.SPEED_LABELS.items()
        )
        g = esc(self.game_id)
        return f"""
<div class="table-shell" data-game="{g}">
  <p class="status" data-role="status" role="status" aria-live="polite">
    <span class="spinner" aria-hidden="true"></span><span data-role="status-text"></span></p>
  <div class="screen" data-role="screen"></div>
  <dialog class="drawer" data-role="rules" aria-labelledby="{g}-rules-title">
    <header class="dialog-head"><h2 id="{g}-rules-title">How to play</h2>
      <button type="button" class="btn" data-action="close">Close</button></header>
    <div class="drawer-body"><ol>{"".join(f"<li>{r}</li>" for r in self.rules)}</ol>
      <h3>Options in use</h3><p data-role="options"></p></div>
  </dialog>
  <dialog class="small-dialog" data-role="settings" aria-labelledby="{g}-settings-title">
    <header class="dialog-head"><h2 id="{g}-settings-title">Settings</h2>
      <button type="button" class="btn" data-action="close">Close</button></header>
    <label class="field">Bot speed
      <select name="speed" data-setting="speed">{speeds}</select></label>
    <p class="small">With “Instant”, or when your system asks for reduced motion,
      cards appear in their new place without moving.</p>
  </dialog>
  <dialog class="small-dialog" data-role="confirm" aria-labelledby="{g}-confirm-text">
    <p id="{g}-confirm-text" data-role="confirm-text"></p>
    <p class="dialog-actions">
      <button type="button" class="btn" data-action="confirm-no">Cancel</button>
      <button type="button" class="btn primary" data-action="confirm-yes"
        data-role="confirm-yes">OK</button></p>
  </dialog>
  <dialog class="small-dialog" data-role="player" aria-labelledby="{g}-player-title"></dialog>
  <dialog class="end-dialog" data-role="end" aria-labelledby="{g}-end-title"></dialog>
</div>"""

    def set_status(self, tone: str, text: str) -> None:
        """Update the status line in place (a live region must not be re-created)."""
        node = self._nodes["status"]
        cls = f"status {tone}" + (" thinking" if tone == "bot" else "")
        if node.className != cls:
            node.className = cls
        if self.error:
            text = f"{self.error} {text}"
        label = self._nodes["status-text"]
        if label.textContent != text:
            label.textContent = text

    def _tool(self, action: str) -> Any:
        return js.document.querySelector(f"#game-tools [data-action={action}]")

    # -- storage ------------------------------------------------------------------
    def _saved_game(self) -> TableSession | None:
        raw = self.storage.get(self.save_key)
        if not raw:
            return None
        try:
            session = TableSession.load(self.game, raw, max_humans=self.max_humans)
        except Exception as exc:  # RecordError, or anything a tampered save provokes
            self.storage.set_aside(self.save_key, raw)
            self.notices.append(ui.SAVE_SET_ASIDE)
            js.console.warn(f"{self.game_id}: saved game set aside: {exc}")
            return None
        if session.state.is_terminal():
            self.storage.remove(self.save_key)
            return None
        return session

    def save(self) -> None:
        session = self.session
        if session is None:
            return
        if session.state.is_terminal():
            self.storage.remove(self.save_key)
        else:
            self.storage.set(self.save_key, session.save())

    def in_progress(self) -> bool:
        return self.session is not None and not self.session.state.is_terminal()

    # -- screens ------------------------------------------------------------------
    def show_setup(self) -> None:
        self.generation += 1
        self.session = None
        self.error = ""
        self._close_all()  # "New game" from the end screen: its dialog must not stay open
        saved = self._saved_game()
        if not self.storage.persistent and not Storage.told:
            Storage.told = True
            self.notices.append(ui.STORAGE_REFUSED)
        notices = "".join(f'<p class="notice">{esc(n)}</p>' for n in self.notices)
        self.notices = []
        resume = ""
        if saved is not None:
            names = self.seat_names(saved.seats)
            resume = "".join(
                f'<p class="notice">{esc(n.who or names[n.seat])} {esc(n.text)}</p>'
                for n in saved.notes
            )  # a player's bot that is not loaded
            resume += (
                '<p class="resume">You have a game in progress. '
                '<button type="button" class="btn primary" data-action="resume">'
                "Resume it</button></p>"
            )
        self._nodes["screen"].innerHTML = f"""
<form class="setup" data-role="setup" onsubmit="return false">
  {notices}{resume}
  <p class="lead">{self.lead}</p>
  {self.setup_fields()}
  {self.bot_picker.html()}
  <p><button type="button" class="btn {"" if resume else "primary"}" data-action="start">
    Start {"a new " if resume else ""}game</button></p>
</form>"""
        self.bot_picker.decorate(self._nodes["screen"], self.settings)
        self._set_results(False)
        if resume:
            self.set_status("wait", "Resume your game, or start a new one.")
        else:
            self.set_status("wait", "Choose the players, then start the game.")

    def start(self, session: TableSession) -> None:
        self.session = session
        self.you = ui.human_seat(session.seats)
        self.names = self.seat_names(session.seats)
        self._log = ui.LogNotes()
        self.error = ""
        self.generation += 1
        self._close_all()
        self._your_turn = False
        self._set_results(False)
        self._drawn = {}
        self._nodes["screen"].innerHTML = """
<div class="play" data-role="play">
  <section class="board" aria-label="Table" tabindex="-1" data-role="board"></section>
  <section class="side" aria-label="Players and log">
    <ul class="panels" aria-label="Players" data-role="panels"></ul>
    <section class="log" aria-labelledby="log-title">
      <h2 id="log-title">Log <span class="small">newest first</span></h2>
      <ol tabindex="0" aria-labelledby="log-title" data-role="log"></ol>
    </section>
  </section>
</div>"""
        self.render(moved=True)
        self.kick()

    def seat_names(self, seats: Sequence[str]) -> list[str]:
        return ui.seat_names(seats)

    def render(self, moved: bool = False) -> None:
        """Draw the current state; ``moved``: the player just acted (move focus on)."""
        session = self.session
        if session is None or self.root is None:
            return
        screen = self._nodes["screen"]
        board = screen.querySelector("[data-role=board]")
        if not found(board):
            return
        had_focus = _inside(screen, js.document.activeElement)
        focus_key = _focus_key(js.document.activeElement) if had_focus else None
        view = self.view()
        status = self.status(view)
        self.set_status(status.tone, status.text)
        self._draw(board, "board", self.board_html(view))
        self._draw(
            screen.querySelector("[data-role=panels]"),
            "panels",
            "".join(self._panel_html(p, self.panel_summary(view, p)) for p in self.panels(view)),
        )
        notes = [f"{n.who or self.names[n.seat]} {n.text}" for n in session.take_notes()]
        self._draw(
            screen.querySelector("[data-role=log]"),
            "log",
            "".join(
                f'<li class="{cls}">{esc(line)}</li>'
                for cls, line in self._log.lines(self.log(view), notes)
            ),
        )
        if session.state.is_terminal():
            self._your_turn = False
            self._set_results(True)
            self.show_end()
            return
        your_turn = session.human_to_act() is not None
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
            self.focus_first(self.focus_order(view))
        elif lost:
            again = screen.querySelector(focus_key) if focus_key else None
            (again if found(again) else board).focus()

    def _draw(self, node: Any, key: str, markup: str) -> None:
        """Replace ``node``'s content only if it changed (less work, focus kept)."""
        if self._drawn.get(key) != markup:
            node.innerHTML = markup
            self._drawn[key] = markup

    def focus_first(self, selectors: Sequence[str]) -> None:
        """Focus the first control matching ``selectors`` (else the board)."""
        screen = self._nodes["screen"]
        for selector in selectors:
            node = screen.querySelector(selector)
            if found(node):
                node.focus()
                return
        screen.querySelector("[data-role=board]").focus()

    def _panel_html(self, p: ui.Panel, summary: str) -> str:
        cls = ["panel"]
        if p.turn:
            cls.append("turn")
        if p.you:
            cls.append("you")
        marker = '<span class="turn-mark">▶ to play</span>' if p.turn else ""
        last = f'<p class="plast">Last: {esc(p.last)}</p>' if p.last else '<p class="plast"></p>'
        score = esc(ui.points(p.score))
        return (
            f'<li class="{" ".join(cls)}" data-seat="{p.seat}" data-action="player">'
            f'<button type="button" class="panel-head" data-action="player" '
            f'data-seat="{p.seat}" aria-label="{esc(p.name)}: {score}. Show details">'
            f'<span class="pname">{esc(p.name)}</span>{marker}'
            f'<span class="pscore" data-role="score">{score}</span></button>'
            f'{last}<div class="psum">{summary}</div></li>'
        )

    def show_player(self, seat: int) -> None:
        if self.session is None:
            return
        view = self.view()
        p = next((p for p in self.panels(view) if p.seat == seat), None)
        if p is None:
            return
        dialog = self._nodes["player"]
        dialog.innerHTML = (
            f'<header class="dialog-head"><h2 id="{esc(self.game_id)}-player-title">'
            f"{esc(p.name)}: {esc(ui.points(p.score))}</h2>"
            '<button type="button" class="btn" data-action="close">Close</button></header>'
            f"{self.panel_detail(view, p)}"
        )
        self._open(dialog)

    def _final_html(self, p: ui.FinalScore) -> str:
        lines = []
        for line in p.lines:
            icon = self.score_icon(line.icon) if line.icon else ""
            detail = f' <span class="small">{esc(line.detail)}</span>' if line.detail else ""
            data = "".join(f' data-{k}="{esc(v)}"' for k, v in line.data)
            lines.append(
                f'<li class="{esc(line.kind)}">{icon or "<span></span>"}'
                f"<span>{esc(line.text)}{detail}</span><b{data}>{esc(line.value)}</b></li>"
            )
        why = f'<p class="why">{esc(p.why)}</p>' if p.why else ""
        return (
            f'<article class="final" data-seat="{p.seat}" data-total="{p.total}">'
            f'<h3><span class="rank">#{p.rank}</span> {esc(p.name)}'
            f'<span class="total" data-role="total">{ui.points(p.total)}</span></h3>'
            f"{why}<ul>{''.join(lines)}</ul></article>"
        )

    def show_end(self) -> None:
        session = self.session
        if session is None:
            return
        end = self.end()
        players = "".join(self._final_html(p) for p in end.players)
        dialog = self._nodes["end"]
        dialog.setAttribute("data-record", session.record.to_json())
        dialog.innerHTML = f"""
<div class="end-head"><h2 id="{esc(self.game_id)}-end-title">{esc(end.headline)}</h2>
<p class="end-rules">{esc(end.rules)}</p></div>
<div class="finals" tabindex="0" role="region" aria-label="Scores">{players}</div>
<p class="dialog-actions">
  <button type="button" class="btn primary" data-action="rematch">Rematch</button>
  <button type="button" class="btn" data-action="new">New game</button>
  <button type="button" class="btn" data-action="see-table">See the final table</button></p>"""
        self._open(dialog)
        # Focused from script, not with `autofocus`: a cross-origin iframe (a blog's
        # embed) blocks autofocus and says so on the console.
        dialog.querySelector("[data-action=rematch]").focus()

    def show_rules(self) -> None:
        """The rules drawer, with the options of the game in progress."""
        options = self.options_text() if self.session is not None else ""
        self._nodes["options"].textContent = options or "You choose them on the set-up screen."
        self._open(self._nodes["rules"])

    def _set_results(self, shown: bool) -> None:
        tool = self._tool("results")
        if found(tool):
            tool.hidden = not shown

    # -- dialogs ------------------------------------------------------------------
    def _open(self, dialog: Any) -> None:
        self._close_all(dialog)
        if not dialog.open:
            dialog.showModal()

    def _close_all(self, keep: Any = None) -> None:
        if self.root is None:
            return
        for dialog in self.root.querySelectorAll("dialog[open]"):
            if keep is None or not dialog.isSameNode(keep):
                dialog.close()

    def confirm(self, text: str, yes: str, on_yes: Callable[[], None]) -> None:
        """Ask before doing something that loses or leaves a game."""
        self._nodes["confirm-text"].textContent = text
        self._nodes["confirm-yes"].textContent = yes
        self._on_yes = on_yes
        self._open(self._nodes["confirm"])
        self._nodes["confirm"].querySelector("[data-action=confirm-no]").focus()

    # -- the game loop ------------------------------------------------------------
    def reduced_motion(self) -> bool:
        try:
            return bool(js.window.matchMedia("(prefers-reduced-motion: reduce)").matches)
        except Exception:
            return False

    def kick(self) -> None:
        """Let the bots play until a person is to act (never blocking the page)."""
        if self.session is not None and self.session.bot_to_act() is not None:
            asyncio.ensure_future(self._bots(self.generation))

    async def _bots(self, generation: int) -> None:
        session = self.session
        assert session is not None
        while generation == self.generation and (seat := session.bot_to_act()) is not None:
            started = time.perf_counter()
            self.render()
            await asyncio.sleep(0)
            while (move := session.think(SLICE_MS)) is None:
                await asyncio.sleep(0)  # give the page back between slices
                if generation != self.generation:
                    return
            await asyncio.sleep(0)  # the last slice ends its task; the move is drawn in the next
            if generation != self.generation:
                return
            self._after_move(seat, move, lambda: None)
            speed = str(self.settings["speed"])
            delay = ui.bot_delay(speed, self.reduced_motion())
            await asyncio.sleep(max(0.0, delay - (time.perf_counter() - started)))
        if generation == self.generation:
            self.render()

    def _after_move(self, seat: int, move: str, apply: Callable[[], None]) -> None:
        try:
            captured = self.capture(seat, move)  # the DOM still shows the state before the move
        except Exception as exc:  # an animation must never break the game (but tests see it)
            js.console.error(f"animation skipped: {exc!r}")
            captured = None
        apply()
        self.save()
        self.render(moved=seat == self.you)
        ms = ui.animation_ms(str(self.settings["speed"]), self.reduced_motion())
        if ms and str(self.settings["speed"]) != "instant":
            try:
                self.animate(captured, seat, move, ms)
            except Exception as exc:  # an animation must never break the game (but tests see it)
                js.console.error(f"animation skipped: {exc!r}")

    def human_move(self, move: str) -> None:
        session = self.session
        if session is None or session.state.is_terminal():
            return
        seat = session.human_to_act()
        if seat is None:
            self.error = "Please wait: it is not your turn."
            self.render()
            return
        self.error = ""
        try:
            self._after_move(seat, move, lambda: session.play(seat, move))
        except GameError as exc:
            reason = str(exc)
            self.error = f"{reason[:1].upper()}{reason[1:]}."
            self.render()
            return
        self.kick()

    # -- pieces in motion -----------------------------------------------------------
    def fly(self, element: Any, source: Rect | None, ms: int) -> None:
        """Move ``element`` (already in its new place) from ``source`` to where it is."""
        target = rect(element)
        if source is None or target is None:
            return
        dx = source[0] - target[0]
        dy = source[1] - target[1]
        element.animate(
            _js([{"transform": f"translate({dx}px, {dy}px)"}, {"transform": "none"}]),
            _js({"duration": ms, "easing": "ease-out"}),
        )

    def send(self, pieces: Sequence[tuple[Rect, str]], destination: Any, ms: int) -> None:
        """Copies of pieces (rect, HTML) that left the board travel to ``destination``."""
        target = rect(destination)
        if target is None or self.root is None:
            return
        tx, ty = target[0] + target[2] / 2, target[1] + target[3] / 2
        for (x, y, w, h), inner in pieces:
            ghost = js.document.createElement("div")
            ghost.className = "ghost"
            ghost.setAttribute("aria-hidden", "true")
            ghost.style.cssText = f"left:{x}px;top:{y}px;width:{w}px;height:{h}px"
            ghost.innerHTML = inner
            self.root.append(ghost)
            dx, dy = tx - (x + w / 2), ty - (y + h / 2)
            motion = ghost.animate(
                _js(
                    [
                        {"transform": "none", "opacity": 1},
                        {"transform": f"translate({dx}px, {dy}px) scale(0.4)", "opacity": 0.2},
                    ]
                ),
                _js({"duration": ms, "easing": "ease-in"}),
            )
            motion.onfinish = create_once_callable(lambda _e, g=ghost: g.remove())

    # -- events ---------------------------------------------------------------------
    def _on_click(self, event: Any) -> None:
        origin = event.target
        if not found(origin) or not hasattr(origin, "closest"):
            return
        if str(origin.tagName) == "DIALOG":
            box = rect(origin)
            x, y = float(event.clientX), float(event.clientY)
            outside = box is not None and not (
                box[0] <= x <= box[0] + box[2] and box[1] <= y <= box[1] + box[3]
            )
            if outside and origin.getAttribute("data-role") != "end":
                origin.close()  # a click on the backdrop closes a drawer or a small dialog
            return
        target = origin.closest("[data-move], [data-action], a.back")
        if not found(target):
            return
        if target.tagName == "A" and "back" in str(target.className):
            if self.in_progress():
                event.preventDefault()
                self.confirm(
                    f"Leave the table? Your game stays saved: open {self.title} again to "
                    "resume it.",
                    "Leave",
                    lambda: setattr(js.window.location, "hash", "#/"),
                )
            return
        move = target.getAttribute("data-move")
        if found(move) and move:
            if self.session is not None and not self._nodes["end"].open:
                self.human_move(str(move))
            return
        action = str(target.getAttribute("data-action"))
        handler = self._actions().get(action)
        if handler is not None:
            event.preventDefault()
            handler(target)
        elif (
            self.session is not None
            and not self._nodes["end"].open
            and self.board_action(action, target)
        ):
            event.preventDefault()

    def _actions(self) -> dict[str, Callable[[Any], None]]:
        return {
            "start": lambda _t: self._ask_start(),
            "resume": lambda _t: self._resume(),
            "rules": lambda _t: self.show_rules(),
            "settings": lambda _t: self._open(self._nodes["settings"]),
            "results": lambda _t: self.show_end(),
            "close": lambda t: t.closest("dialog").close(),
            "confirm-no": lambda _t: self._nodes["confirm"].close(),
            "confirm-yes": lambda _t: self._confirmed(),
            "player": lambda t: self.show_player(int(t.getAttribute("data-seat"))),
            "rematch": lambda _t: self._rematch(),
            "new": lambda _t: self.show_setup(),
            "see-table": lambda _t: self._see_table(),
        }

    def _see_table(self) -> None:
        self._nodes["end"].close()
        self._nodes["screen"].querySelector("[data-role=board]").focus()

    def _confirmed(self) -> None:
        self._nodes["confirm"].close()
        on_yes, self._on_yes = self._on_yes, None
        if on_yes is not None:
            on_yes()

    def _ask_start(self) -> None:
        if self.storage.get(self.save_key):
            self.confirm(
                "Start a new game? The game in progress will be replaced.",
                "Start a new game",
                self._start_new,
            )
        else:
            self._start_new()

    def _start_new(self) -> None:
        self.start_with(self.new_session(self._seed()))

    def start_with(self, session: TableSession) -> None:
        self.session = session
        self.save()
        self.start(session)

    def _rematch(self) -> None:
        old = self.session
        if old is None:
            return
        self.start_with(TableSession(self.game, old.record.options, self._seed(), old.seats))

    def _resume(self) -> None:
        saved = self._saved_game()
        if saved is not None:
            self.start(saved)
        else:
            self.show_setup()

    @staticmethod
    def _seed() -> int:
        return int(js.Date.now()) % 2_147_483_647

    def _on_change(self, event: Any) -> None:
        target = event.target
        if not found(target):
            return
        if self.bot_picker.picked(target):
            return
        key = target.getAttribute("data-setting")
        if not found(key) or not key or str(key) not in self.choices:
            return
        key = str(key)
        if str(target.type) == "checkbox":
            value: JSON = bool(target.checked)
        else:
            text = str(target.value)
            value = next((c for c in self.choices[key] if str(c) == text), self.defaults[key])
        self.settings[key] = value
        self.storage.set(self.settings_key, _dumps(self.settings))
        self.setting_changed(key)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _inside(container: Any, node: Any) -> bool:
    return found(node) and bool(container.contains(node))


def _focus_key(element: Any) -> str | None:
    """A selector that finds the same control after a redraw (None if there is none)."""
    for attr in ("data-move", "data-seat"):
        value = element.getAttribute(attr) if hasattr(element, "getAttribute") else None
        if found(value) and value:
            tag = str(element.tagName).lower()
            return f'{tag}[{attr}="{value}"]'
    return None
