"""“Add your bot…” on every game's set-up screen: the file picker and drag-and-drop.

Only the browser glue is here.  A chosen file is never imported in the page: its
bytes go to the game's bot worker (web/botworker.py), which imports it there, off
the page's thread, and lists its bots; the table's seats then play there too
(:mod:`optimus.core.botworker`, :class:`optimus.ui.session.TableSession`).  A wheel
is installed there by micropip (pure Python, its dependencies not installed).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import js

from optimus.core import userbots
from optimus.core.protocol import JSON
from optimus.i18n import _, ngettext

from .botworker import client
from .markup import Markup, css_string, html, join, tr
from .router import found

PERSON = "person"
"""A seat setting's choice for one more person at the device (web/setup.py)."""


def seat_keys(choices: Mapping[str, Sequence[JSON]], levels: Sequence[str]) -> list[str]:
    """The settings that choose a seat's bot: every choice is a bot level of the game."""
    return [
        k
        for k, c in choices.items()
        if any(str(x) in levels for x in c) and all(str(x) in levels or x == PERSON for x in c)
    ]


class BotPicker:
    """The “Your own bot” part of a set-up screen, for one :class:`GameTable`.

    ``choices`` is the table's own (per-instance) settings choices: the player's
    bots are added to every seat setting, so a seat can be given one.
    """

    def __init__(self, game: str, choices: dict[str, list[JSON]], levels: Sequence[str]) -> None:
        self.game = game
        self.choices = choices
        self.keys = seat_keys(choices, levels)
        self.root: Any = None
        self.on_added: Callable[[], None] = lambda: None
        for spec in userbots.registered(game):
            self._add_choice(spec)

    def _add_choice(self, spec: str) -> None:
        for key in self.keys:
            if spec not in self.choices[key]:
                self.choices[key].append(spec)

    def html(self) -> Markup:
        if not self.keys:
            return Markup()
        drop = tr(
            "or drop a {py} file or a wheel here. It runs in this page until you close it; "
            "see {help}.",
            py=Markup("<code>.py</code>"),
            help=html('<a href="#/help">{}</a>', _("Play against your own bot")),
        )
        return html(
            '<fieldset class="userbots" data-role="userbots">'
            "<legend>{legend}</legend>"
            '<p><label class="btn add-bot">{add}'
            '<input type="file" accept=".py,.whl" '
            'data-role="bot-file" class="file-input" multiple></label> '
            '<span class="small">{drop}</span></p>'
            '<ul class="bot-list" data-role="bot-list">{bots}</ul>'
            '<p class="bot-message" data-role="bot-message" aria-live="polite"></p></fieldset>',
            legend=_("Your own bot"),
            add=_("Add your bot…"),
            drop=drop,
            bots=self._list_html(),
        )

    def _list_html(self) -> Markup:
        return join(
            html("<li>{}</li>", userbots.label(spec)) for spec in userbots.registered(self.game)
        )

    def decorate(self, root: Any, current: dict[str, JSON]) -> None:
        """After the set-up form is drawn: offer the player's bots in every seat select."""
        self.root = root
        for key in self.keys:
            select = root.querySelector(f"select[data-setting={css_string(key)}]")
            if not found(select):
                continue
            for spec in userbots.registered(self.game):
                if not found(select.querySelector(f"option[value={css_string(spec)}]")):
                    option = js.document.createElement("option")
                    option.value = spec
                    option.textContent = userbots.label(spec)
                    select.append(option)
            if str(current.get(key)) in userbots.registered(self.game):
                select.value = str(current[key])

    # -- events ---------------------------------------------------------------------
    def picked(self, target: Any) -> bool:
        """A change event: files chosen with the picker (True if it was ours)."""
        if str(target.getAttribute("data-role")) != "bot-file":
            return False
        files = list(target.files)
        target.value = ""  # choosing the same file again (after an edit) loads it again
        asyncio.ensure_future(self.load(files))
        return True

    def dragover(self, event: Any) -> None:
        if self._zone(event) is not None:
            event.preventDefault()  # allows the drop

    def drop(self, event: Any) -> None:
        if self._zone(event) is None:
            return
        event.preventDefault()
        transfer = event.dataTransfer
        if found(transfer):
            asyncio.ensure_future(self.load(list(transfer.files)))

    def _zone(self, event: Any) -> Any:
        target = event.target
        if not found(target) or not hasattr(target, "closest"):
            return None
        setup = target.closest("[data-role=setup]")
        return setup if found(setup) else None

    # -- loading ----------------------------------------------------------------------
    def _say(self, text: str, state: str) -> None:
        if self.root is None:
            return
        message = self.root.querySelector("[data-role=bot-message]")
        if found(message):
            message.textContent = text
            message.setAttribute("data-state", state)
            message.className = "bot-message" + (" notice" if state == "error" else "")

    async def load(self, files: list[Any]) -> None:
        added: list[str] = []
        problems: list[str] = []
        for file in files:
            name = str(file.name)
            self._say(_("Loading {file}…", file=name), "busy")
            try:
                if not name.endswith((".py", ".whl")):
                    raise userbots.UserBotError(
                        _("{file}: choose a .py file or a wheel (.whl)", file=name)
                    )
                data = (await file.arrayBuffer()).to_bytes()
                added += await client(self.game).load(name, data)  # in the bot worker
            except userbots.UserBotError as exc:
                problems.append(str(exc))
            except Exception as exc:  # reading the file: still plain words
                problems.append(f"{name}: {type(exc).__name__}: {exc}")
        for spec in added:
            self._add_choice(spec)
        if self.root is not None:
            listing = self.root.querySelector("[data-role=bot-list]")
            if found(listing):
                listing.innerHTML = self._list_html()
        if added:
            self.on_added()
        words = []
        if added:
            words.append(
                ngettext(
                    "Added {bots}: choose it for a seat.",
                    "Added {bots}: choose them for seats.",
                    len(added),
                    bots=", ".join(userbots.label(s) for s in added),
                )
            )
        if problems:
            words.append(_("Could not add a bot."))
            words += problems
        self._say(" ".join(words), "error" if problems else "done")
