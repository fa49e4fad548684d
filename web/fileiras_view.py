"""The Fileiras table: set-up form, the table, bots taking turns, the end screen.

Only drawing and clicks live here. What can be clicked comes from the legal
moves (via :mod:`optimus.ui.fileiras`), moves go through the checked path of
:class:`optimus.ui.session.TableSession`, and bots think in short slices
between which the page gets control back, so it never freezes.
"""

from __future__ import annotations

import asyncio
import html
import json
import time
from typing import Any

import js
from pyodide.ffi import create_proxy

from optimus.core.protocol import GameError
from optimus.core.registry import get_game
from optimus.ui import fileiras as vm
from optimus.ui.session import TableSession

SAVE_KEY = "optimus-table.fileiras.save"
SETTINGS_KEY = "optimus-table.fileiras.settings"
SPEEDS = {"slow": 1.4, "normal": 0.8, "fast": 0.35, "fastest": 0.08}
"""Seconds between two bot actions (never instant: every action is drawn)."""
LEVELS = ("easy", "normal", "hard")
SLICE_MS = 25.0
"""How long a bot thinks before the page gets control back."""


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def points(n: int) -> str:
    return f"{n} pt" if abs(n) == 1 else f"{n} pts"


def card_html(c: dict[str, str], extra: str = "") -> str:
    return (
        f'<span class="fcard c-{esc(c["kind"]).replace("+", "plus")}{extra}" '
        f'title="{esc(c["label"])}" data-kind="{esc(c["kind"])}">'
        f'<span class="sym" aria-hidden="true">{esc(c["symbol"])}</span>'
        f'<span class="lbl">{esc(c["label"])}</span></span>'
    )


class FileirasView:
    """Router view for ``#/fileiras``."""

    def __init__(self) -> None:
        self.game = get_game("fileiras")
        self.container: Any = None
        self.session: TableSession | None = None
        self.names: list[str] = []
        self.settings = self._load_settings()
        self.notice = ""
        self.error = ""
        self.task: Any = None
        self.generation = 0
        self._click = create_proxy(self._on_click)
        self._change = create_proxy(self._on_change)

    # -- router hooks -----------------------------------------------------
    def mount(self, container: Any) -> None:
        self.container = container
        container.addEventListener("click", self._click)
        container.addEventListener("change", self._change)
        self.show_setup()

    def unmount(self) -> None:
        self.generation += 1  # stops a running bot loop
        if self.container is not None:
            self.container.removeEventListener("click", self._click)
            self.container.removeEventListener("change", self._change)
        self.container = None

    # -- settings and saves -------------------------------------------------
    def _load_settings(self) -> dict[str, Any]:
        default: dict[str, Any] = {
            "players": 3,
            "bots": ["normal"] * 4,
            "advanced": False,
            "speed": "normal",
        }
        try:
            raw = js.localStorage.getItem(SETTINGS_KEY)
            data = json.loads(raw) if raw else {}
        except Exception:
            data = {}
        if isinstance(data, dict):
            if data.get("players") in (2, 3, 4, 5):
                default["players"] = data["players"]
            bots = data.get("bots")
            if isinstance(bots, list) and len(bots) == 4 and all(b in LEVELS for b in bots):
                default["bots"] = bots
            default["advanced"] = data.get("advanced") is True
            if data.get("speed") in SPEEDS:
                default["speed"] = data["speed"]
        return default

    def _store(self, key: str, value: str | None) -> None:
        try:
            if value is None:
                js.localStorage.removeItem(key)
            else:
                js.localStorage.setItem(key, value)
        except Exception:
            pass  # storage can be disabled (private mode, sandboxed iframe)

    def _saved_game(self) -> TableSession | None:
        try:
            raw = js.localStorage.getItem(SAVE_KEY)
        except Exception:
            return None
        if not raw:
            return None
        try:
            session = TableSession.load(self.game, str(raw))
        except GameError as exc:
            self.notice = f"Your saved game could not be read and was set aside ({exc})."
            self._store(SAVE_KEY, None)
            return None
        return None if session.state.is_terminal() else session

    # -- screens ------------------------------------------------------------
    def show_setup(self) -> None:
        self.generation += 1
        self.session = None
        saved = self._saved_game()
        s = self.settings
        variants = {2: " (rows of 1, 2 and 3 cards)", 3: " (one colour out)"}
        players = "".join(
            f'<option value="{n}"{" selected" if n == s["players"] else ""}>'
            f"{n} players{variants.get(n, '')}</option>"
            for n in (2, 3, 4, 5)
        )
        seats = []
        for i in range(4):
            opts = "".join(
                f'<option value="{lv}"{" selected" if s["bots"][i] == lv else ""}>'
                f"{lv.capitalize()}</option>"
                for lv in LEVELS
            )
            hidden = " hidden" if i >= s["players"] - 1 else ""
            seats.append(
                f'<label class="seat"{hidden}>Seat {i + 2}: '
                f'<select name="bot{i}" data-setting="bot{i}">{opts}</select></label>'
            )
        speeds = "".join(
            f'<option value="{k}"{" selected" if k == s["speed"] else ""}>{k.capitalize()}</option>'
            for k in SPEEDS
        )
        resume = ""
        if saved is not None:
            resume = (
                '<p class="resume">You have a game in progress. '
                '<button type="button" class="btn" data-action="resume">Resume it</button></p>'
            )
        notice = f'<p class="notice" role="status">{esc(self.notice)}</p>' if self.notice else ""
        self.notice = ""
        self.container.innerHTML = f"""
<form class="fsetup" data-role="setup" onsubmit="return false">
  {notice}{resume}
  <p class="lead">Take rows of cards, collect three colours, avoid the rest.
  <a href="#/fileiras" data-action="rules">How to play</a></p>
  <label>Players <select name="players" data-setting="players">{players}</select></label>
  <fieldset><legend>Seat 1 is you; the other seats are bots</legend>{"".join(seats)}</fieldset>
  <label class="check"><input type="checkbox" name="advanced" data-setting="advanced"
    {"checked" if s["advanced"] else ""}> Advanced scoring table (1, 4, 8, 7, 6, 5)</label>
  <label>Bot speed <select name="speed" data-setting="speed">{speeds}</select></label>
  <p><button type="button" class="btn primary" data-action="start">Start game</button></p>
  <details class="howto" data-role="rules"><summary>How to play</summary>{RULES_HTML}</details>
</form>"""

    def start(self, session: TableSession) -> None:
        self.session = session
        self.names = vm.seat_names(session.seats)
        self.error = ""
        self.generation += 1
        self.render()
        self.kick()

    def render(self) -> None:
        session = self.session
        if session is None or self.container is None:
            return
        state = session.state
        if state.is_terminal():
            self.render_end()
            return
        you = 0 if "human" in session.seats else None
        obs = state.observation(you)
        t = vm.table(obs, self.names, you)
        st = t["status"]
        deck = t["deck"]
        if deck["last_round"]:
            deck_note = '<span class="badge last">Last round!</span>'
        else:
            deck_note = (
                f'<span class="hint">The last-round card can come in '
                f"{deck['draws_before_last']} draws</span>"
            )
        draw_btn = (
            '<button type="button" class="btn primary" data-move="draw">Draw a card</button>'
            if deck["can_draw"]
            else ""
        )
        drawn = ""
        if t["drawn"]:
            drawn = f'<div class="drawn"><span>Drawn:</span>{card_html(t["drawn"], " big")}</div>'
        removed = ""
        if t["removed"]:
            out = "".join(card_html(c, " mini") for c in t["removed"])
            removed = f'<p class="removed">Out of this game: {out}</p>'
        rows = "".join(self._row_html(r) for r in t["rows"])
        players = "".join(self._player_html(p) for p in t["players"])
        log = "".join(f"<li>{esc(line)}</li>" for line in t["log"])
        error = f'<p class="error" role="alert">{esc(self.error)}</p>' if self.error else ""
        thinking = " thinking" if st["tone"] == "bot" else ""
        scoring = "Advanced scoring" if t["advanced"] else "Standard scoring"
        self.container.innerHTML = f"""
<div class="ftable">
  <p class="status {esc(st["tone"])}{thinking}" role="status" data-role="status">
    <span class="spinner" aria-hidden="true"></span>{esc(st["text"])}</p>
  {error}
  <section class="deckbar">
    <div class="deck" data-role="deck"><span class="deck-count">{deck["count"]}</span>
      <span>cards in the deck · round {t["round"]}</span></div>
    {deck_note}{draw_btn}{drawn}
  </section>
  {removed}
  <section class="rows" aria-label="Rows">{rows}</section>
  <section class="players" aria-label="Players">{players}</section>
  <details class="log" open><summary>What happened (latest first)</summary>
    <ul>{log}</ul></details>
  <p class="small">{scoring}. <button type="button" class="linkish" data-action="quit">
    Leave this game</button></p>
</div>"""

    def _row_html(self, r: dict[str, Any]) -> str:
        cards = "".join(card_html(c) for c in r["cards"])
        slots = '<span class="fcard slot" aria-hidden="true"></span>' * r["free"]
        classes = ["frow"]
        action = ""
        if r["place"]:
            classes.append("can-place")
            action = (
                f'<button type="button" class="btn" data-move="place {r["n"]}">Place here</button>'
            )
        if r["take"]:
            classes.append("can-take")
            action += (
                f'<button type="button" class="btn" data-move="take {r["n"]}">Take row</button>'
            )
        if r["taken_by"]:
            classes.append("taken")
            action = f'<span class="taken-by">Taken by {esc(r["taken_by"])}</span>'
        return (
            f'<div class="{" ".join(classes)}" data-row="{r["n"]}">'
            f'<span class="row-n">Row {r["n"]}</span>'
            f'<div class="row-cards">{cards}{slots}</div><div class="row-act">{action}</div></div>'
        )

    def _player_html(self, p: dict[str, Any]) -> str:
        groups = "".join(
            f'<span class="group{" plus" if g["plus"] else " minus"}" title="{esc(g["label"])}: '
            f'{g["count"]} card(s), {"counts plus" if g["plus"] else "counts minus"}">'
            f"{card_html(g, ' mini')}<b>×{g['count']}</b>"
            f'<i aria-hidden="true">{"+" if g["plus"] else "−"}</i></span>'
            for g in p["groups"]
        )
        extras = ""
        if p["jokers"]:
            extras += f'<span class="group">{card_html(vm.card("joker"), " mini")}'
            extras += f"<b>×{p['jokers']}</b></span>"
        if p["plus2"]:
            extras += f'<span class="group">{card_html(vm.card("+2"), " mini")}'
            extras += f"<b>×{p['plus2']}</b></span>"
        cls = ["fplayer"]
        if p["turn"]:
            cls.append("turn")
        if p["you"]:
            cls.append("you")
        state = " · has taken a row" if p["sat_out"] else ""
        return (
            f'<article class="{" ".join(cls)}" data-seat="{p["seat"]}">'
            f'<header><b>{esc(p["name"])}</b><span class="pscore" data-role="score">'
            f"{points(p['score'])}</span></header>"
            f'<p class="pstate">{"▶ to play" if p["turn"] else ""}{esc(state)}</p>'
            f'<div class="groups">{groups}{extras or ""}</div></article>'
        )

    def render_end(self) -> None:
        session = self.session
        assert session is not None
        obs = session.state.observation(None)
        rows = []
        for p in vm.final(obs, self.names):
            colours = "".join(self._final_colour_html(c) for c in p["colours"])
            plus2 = (
                f"<li>{card_html(vm.card('+2'), ' mini')} {p['plus2_cards']} card(s) → "
                f"<b>+{p['plus2_points']}</b></li>"
                if p["plus2_cards"]
                else ""
            )
            rows.append(
                f'<article class="final" data-seat="{p["seat"]}" data-total="{p["total"]}">'
                f'<header><span class="rank">#{p["rank"]}</span> <b>{esc(p["name"])}</b>'
                f'<span class="total" data-role="total">{points(p["total"])}</span></header>'
                f"<ul>{colours}{plus2}</ul></article>"
            )
        winners = [self.names[w] for w in session.state.outcome().winners]
        if len(winners) == 1:
            headline = f"{winners[0]} win!" if winners[0] == "You" else f"{winners[0]} wins!"
        else:
            headline = "Shared victory: " + ", ".join(winners)
        self._store(SAVE_KEY, None)
        self.container.innerHTML = f"""
<div class="fend" data-role="end" data-record="{esc(session.record.to_json())}">
  <h2>{esc(headline)}</h2>
  <div class="finals">{"".join(rows)}</div>
  <p><button type="button" class="btn primary" data-action="again">Play again</button></p>
</div>"""

    @staticmethod
    def _final_colour_html(c: dict[str, Any]) -> str:
        jokers = f" + {c['jokers']} joker(s)" if c["jokers"] else ""
        sign = "+" if c["points"] >= 0 else ""
        kind = "plus" if c["plus"] else "minus"
        return (
            f'<li class="{kind}">{card_html(c, " mini")} {c["cards"]} card(s){jokers} '
            f"→ <b>{sign}{c['points']}</b></li>"
        )

    # -- the game loop ------------------------------------------------------
    def kick(self) -> None:
        """Let the bots play until a human is to act (never blocking the page)."""
        if self.session is not None and self.session.bot_to_act() is not None:
            self.task = asyncio.ensure_future(self._bots(self.generation))

    async def _bots(self, generation: int) -> None:
        session = self.session
        assert session is not None
        delay = SPEEDS.get(self.settings["speed"], SPEEDS["normal"])
        while generation == self.generation and session.bot_to_act() is not None:
            started = time.perf_counter()
            self.render()
            await asyncio.sleep(0)
            while session.think(SLICE_MS) is None:
                await asyncio.sleep(0)  # give the page back between slices
                if generation != self.generation:
                    return
            self._store(SAVE_KEY, session.save())
            await asyncio.sleep(max(0.0, delay - (time.perf_counter() - started)))
        if generation == self.generation:
            self.render()

    # -- events -------------------------------------------------------------
    def _on_click(self, event: Any) -> None:
        target = event.target.closest("[data-move], [data-action]")
        if target is None:
            return
        move = target.getAttribute("data-move")
        if move:
            self._human_move(str(move))
            return
        action = str(target.getAttribute("data-action"))
        if action == "start":
            self._start_new()
        elif action == "resume":
            saved = self._saved_game()
            if saved is not None:
                self.start(saved)
            else:
                self.show_setup()
        elif action in ("again", "quit"):
            if action == "quit":
                self._store(SAVE_KEY, None)
            self.show_setup()
        elif action == "rules":
            event.preventDefault()
            box = self.container.querySelector("[data-role=rules]")
            if box is not None:
                box.open = True

    def _on_change(self, event: Any) -> None:
        target = event.target
        key = target.getAttribute("data-setting")
        if not key:
            return
        s = self.settings
        if key == "players":
            s["players"] = int(target.value)
            for i, label in enumerate(self.container.querySelectorAll(".seat")):
                label.hidden = i >= s["players"] - 1
        elif key.startswith("bot"):
            s["bots"][int(key[3:])] = str(target.value)
        elif key == "advanced":
            s["advanced"] = bool(target.checked)
        elif key == "speed":
            s["speed"] = str(target.value)
        self._store(SETTINGS_KEY, json.dumps(s))

    def _start_new(self) -> None:
        s = self.settings
        seats = ["human", *s["bots"][: s["players"] - 1]]
        seed = int(js.Date.now()) % 2_147_483_647
        session = TableSession(self.game, {"advanced": s["advanced"]}, seed, seats)
        self._store(SAVE_KEY, session.save())
        self.start(session)

    def _human_move(self, move: str) -> None:
        session = self.session
        if session is None:
            return
        seat = session.human_to_act()
        if seat is None:
            self.error = "Please wait: it is not your turn."
        else:
            try:
                session.play(seat, move)
                self.error = ""
            except GameError as exc:
                self.error = str(exc)
            self._store(SAVE_KEY, session.save())
        self.render()
        self.kick()


RULES_HTML = """
<ol>
<li>On your turn, either <b>draw</b> the top card and place it on a row that has room
(at most 3 cards; in the 2-player game the rows hold 1, 2 and 3), or <b>take</b> a row
with at least one card. Whoever takes a row sits out the rest of the round. When every
row is full you must take one.</li>
<li>The round ends when everyone has taken a row; whoever took the last row starts the
next one.</li>
<li>When the <b>last-round card</b> appears (15 cards lie beneath it), this round is the
last one.</li>
<li>Scoring per colour: 1, 3, 6, 10, 15, 21 points for 1-6 cards (no more for a 7th).
Only your <b>three best colours</b> count plus; every other colour counts minus.
Jokers become the colours that score you most; each +2 card adds 2.</li>
</ol>"""
