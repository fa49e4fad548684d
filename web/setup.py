"""The set-up form: a table's settings, and the players and seats drawn from the game's description.

Player counts, bot levels, the default level and the game's own options (their
defaults, choices and labels) come from the game's description in
:data:`optimus.games.GAMES` (never a list of a page's own).  Every input with
``data-setting="<key>"`` is validated against the choices and saved under
``optimus-table.<id>.settings``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from optimus.core import jsontext
from optimus.core.protocol import JSON
from optimus.games import GameInfo, Option, call
from optimus.i18n import _
from optimus.ui import table as ui
from optimus.ui.seats import NAME_PROBLEMS, is_person, name_problem

from . import store_keys
from .markup import Markup, html, join
from .router import found
from .storage import Storage

PERSON = "person"
"""A seat's choice for one more person at the device (pass-and-play), beside the bot levels."""
PEOPLE_KEY = store_keys.PEOPLE
"""The names typed for the people at the device (``you``, ``bot0``…), kept for next time."""


class People:
    """The names typed on the set-up form, remembered in storage (every game shares them)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        try:
            data = jsontext.loads(storage.get(PEOPLE_KEY) or "{}", ui.MAX_SETTINGS)
        except ValueError:
            data = {}
        self.names: dict[str, str] = {
            str(k): v
            for k, v in (data.items() if isinstance(data, dict) else ())
            if isinstance(v, str) and len(v) <= 40
        }

    def get(self, key: str) -> str:
        return self.names.get(key, "")

    def seat_names(self, seats: Sequence[str]) -> list[str]:
        """The players' names of ``seats``: with several people at the device, the
        owner's seat says the name typed for "you"."""
        people = sum(1 for kind in seats if is_person(kind))
        owner = ui.person_name(self.get("you")) if people > 1 else None
        return ui.seat_names(seats, owner)

    def from_input(self, target: Any) -> bool:
        """Take a name field's text (``data-name``); True if it was one."""
        key = target.getAttribute("data-name") if hasattr(target, "getAttribute") else None
        if not found(key) or not key:
            return False
        self.names[str(key)] = str(target.value)[:40]
        self.storage.set(PEOPLE_KEY, json.dumps(self.names, separators=(",", ":")))
        return True


class Settings:
    """A table's settings: every key with its default and allowed values, saved on change."""

    def __init__(
        self,
        info: GameInfo,
        levels: Sequence[str],
        storage: Storage,
    ) -> None:
        level = info.default_level if info.default_level in levels else levels[0]
        bots = range(info.players[1] - 1)
        places = [v for v, _ in ui.seat_choices(info.players[1])]
        self.defaults: dict[str, JSON] = {
            "players": info.first_players,
            "seat": places[0],
            "speed": "normal",
            "thinking": "quick",
            **{f"bot{i}": level for i in bots},
            **info.option_defaults(),
        }
        # Per table: a player's bots join the seat choices ("Add your bot…", web/userbots.py).
        self.choices: dict[str, list[JSON]] = {
            "players": list(info.player_counts),
            "seat": list(places),
            "speed": list(ui.SPEEDS),
            "thinking": list(ui.THINKING),
            **{f"bot{i}": [*levels, PERSON] for i in bots},
            **{o.key: list(o.allowed()) for o in info.options},
        }
        self.storage = storage
        self.key = store_keys.settings(info.id)
        self.values = self.read()

    def read(self) -> dict[str, JSON]:
        return ui.read_settings(self.storage.get(self.key), self.defaults, self.choices)

    def save(self) -> None:
        self.storage.set(self.key, json.dumps(self.values, separators=(",", ":")))

    def from_input(self, target: Any) -> str | None:
        """Take an input's value (``data-setting``); the key it set, or None if none."""
        key = target.getAttribute("data-setting")
        if not found(key) or not key or str(key) not in self.choices:
            return None
        key = str(key)
        if str(target.type) == "checkbox":
            value: JSON = bool(target.checked)
        else:
            text = str(target.value)
            value = next((c for c in self.choices[key] if str(c) == text), self.defaults[key])
        self.values[key] = value
        self.save()
        return key


def seat_fields(
    settings: Mapping[str, JSON],
    players: Mapping[int, str],
    levels: Sequence[str],
    names: People | None = None,
    drawn_start: bool = False,
) -> Markup:
    """The "Players" select (count -> option text), your place, one bot level or "a
    person" (with a name) per other seat; where the rules draw who starts
    (``drawn_start``), the places say so."""
    s = settings
    count = int(str(s["players"]))
    counts = join(
        html('<option value="{}"{}>{}</option>', n, _selected(n == s["players"]), text)
        for n, text in players.items()
    )
    places = join(
        html(
            '<option value="{}"{}{}>{}</option>',
            v,
            _selected(v == s["seat"]),
            Markup(" hidden" if v.isdigit() and int(v) > count else ""),
            text,
        )
        for v, text in ui.seat_choices(max(players), drawn_start)
    )
    drawn = (
        html('<p class="small" data-role="drawn-start">{}</p>', _(ui.DRAWN_START))
        if drawn_start
        else ""
    )
    seats = []
    person = _("A person at this device")
    for i in range(max(players) - 1):
        opts = join(
            # the name it has at the table
            html('<option value="{}"{}>{}</option>', lv, _selected(s[f"bot{i}"] == lv), name)
            for lv, name in ((lv, ui.bot_name(lv, i + 1)) for lv in levels)
        )
        opts += html(
            '<option value="{}"{}>{}</option>', PERSON, _selected(s[f"bot{i}"] == PERSON), person
        )
        seats.append(
            html(
                '<label class="seat field"{hidden}>{label} '
                '<select name="bot{i}" data-setting="bot{i}">{opts}</select></label>',
                hidden=Markup(" hidden" if i >= count - 1 else ""),
                label=_("Other player {n}", n=i + 1),
                i=i,
                opts=opts,
            )
        )
        seats.append(
            name_field(
                f"bot{i}",
                _("Other player {n}: name", n=i + 1),
                names,
                i < count - 1 and s[f"bot{i}"] == PERSON,
            )
        )
    anyone = any(s[f"bot{i}"] == PERSON for i in range(count - 1))
    seats.insert(0, name_field("you", _("Your name"), names, anyone))
    return html(
        """
  <label class="field">{players_word}
    <select name="players" data-setting="players">{counts}</select></label>
  <fieldset class="seats"{hidden}>
    <legend>{legend}</legend>
    <label class="field">{you_play} <select name="seat" data-setting="seat">{places}</select>
    </label>{drawn}{seats}</fieldset>""",
        players_word=_("Players"),
        counts=counts,
        hidden=Markup(" hidden" if count == 1 else ""),
        legend=_("Your place at the table, and the bots"),
        you_play=_("You play"),
        places=places,
        drawn=drawn,
        seats=join(seats),
    )


def _selected(yes: object) -> Markup:
    return Markup(" selected" if yes else "")


def option_fields(
    options: Sequence[Option], settings: Mapping[str, JSON], choices: Mapping[str, Sequence[JSON]]
) -> Markup:
    """The game's own options as its description declares them, in order: a yes/no
    option a check box, any other a select of ``choices[key]`` (the values allowed
    now), each value in the words of its ``value_label``."""
    out = []
    for option in options:
        key = option.key
        label = _(option.label)
        if option.is_check:
            out.append(
                html(
                    '\n  <label class="check"><input type="checkbox" name="{key}" '
                    'data-setting="{key}"{checked}>\n    <span>{label}</span></label>',
                    key=key,
                    checked=Markup(" checked" if settings[option.key] else ""),
                    label=label,
                )
            )
            continue
        items = join(
            html(
                '<option value="{}"{}>{}</option>',
                str(v),
                _selected(settings[option.key] == v),
                call(option.value_label, v) if option.value_label else str(v),
            )
            for v in choices[option.key]
        )
        out.append(
            html(
                '\n  <label class="field">{label}\n'
                '    <select name="{key}" data-setting="{key}">{items}</select></label>',
                label=label,
                key=key,
                items=items,
            )
        )
    return join(out)


def name_field(key: str, label: str, names: People | None, shown: bool) -> Markup:
    """A person's name field (``data-name="<key>"``), shown when the seat is a person."""
    return html(
        '<label class="field seat-name" data-for="{key}"{hidden}>'
        '{label} <input type="text" name="name-{key}" data-name="{key}" maxlength="20" '
        'autocomplete="off" spellcheck="false" value="{value}"></label>',
        key=key,
        hidden=Markup("" if shown else " hidden"),
        label=label,
        value=names.get(key) if names is not None else "",
    )


def show_names(root: Any, settings: Settings) -> None:
    """Show the name fields of the seats that are people (and yours, if any is)."""
    values = settings.values
    players = int(str(values["players"]))
    anyone = False
    for label in root.querySelectorAll(".seat-name"):
        key = str(label.getAttribute("data-for"))
        if key == "you":
            continue
        shown = int(key.removeprefix("bot")) < players - 1 and values.get(key) == PERSON
        label.hidden = not shown
        anyone = anyone or shown
    you = root.querySelector('.seat-name[data-for="you"]')
    if found(you):
        you.hidden = not anyone


def people_problem(settings: Mapping[str, JSON], names: People) -> str | None:
    """Why the names typed cannot start a game (in words), or None."""
    players = int(str(settings["players"]))
    keys = ["you", *(f"bot{i}" for i in range(players - 1) if settings[f"bot{i}"] == PERSON)]
    if len(keys) == 1:
        return None
    seen: list[str] = []
    for key in keys:
        text = names.get(key).strip()
        if not text:
            continue
        problem = name_problem(text, seen)
        if problem is not None:
            return _(NAME_PROBLEMS[problem], name=ui.person_name(text) or text[:30])
        seen.append(text)
    return None


def show_seats(root: Any, settings: Settings) -> None:
    """Show the seats and places a table of the chosen size uses (solo: none)."""
    values = settings.values
    players = int(str(values["players"]))
    for i, label in enumerate(root.querySelectorAll(".seat")):
        label.hidden = i >= players - 1
    for option in root.querySelectorAll("select[name=seat] option"):
        value = str(option.value)
        option.hidden = value.isdigit() and int(value) > players
    place = str(values.get("seat", "1"))
    if place.isdigit() and int(place) > players:  # past the last seat: the last seat
        values["seat"] = str(players)
        settings.save()
        select = root.querySelector("select[name=seat]")
        if found(select):
            select.value = str(players)
    fieldset = root.querySelector("fieldset.seats")
    if found(fieldset):
        fieldset.hidden = players == 1
    show_names(root, settings)


def seats(settings: Mapping[str, JSON], seed: int, names: People | None = None) -> list[str]:
    """The bot levels chosen, in order, with the person at the place chosen; a seat
    chosen for one more person is ``"human:<name>"`` (the name typed, or empty)."""
    players = int(str(settings["players"]))
    bots = []
    for i in range(players - 1):
        kind = str(settings[f"bot{i}"])
        if kind == PERSON:
            typed = names.get(f"bot{i}") if names is not None else ""
            kind = f"human:{ui.person_name(typed) or ''}"
        bots.append(kind)
    return ui.seat_order(bots, str(settings["seat"]), seed)


def setup_html(
    notices: Sequence[str],
    resume: Markup,
    lead: str,
    fields: Markup,
    picker: Markup,
    offer: Markup | None = None,
) -> Markup:
    """The set-up screen: notices, "resume" (with a saved game), ``offer`` (today's
    challenge: near the top, in view on a phone), the fields, "start".

    ``notices`` are English sentences of the catalogs (``ui.SAVE_SET_ASIDE``), said
    here in the language spoken; ``lead`` is already in it."""
    return html(
        """
<form class="setup" data-role="setup">
  {said}{resume}{offer}
  <p class="lead">{lead}</p>
  {fields}
  {picker}
  <p><button type="button" class="btn {primary}" data-action="start">
    {start}</button></p>
</form>""",
        said=join(html('<p class="notice">{}</p>', _(n)) for n in notices),
        resume=resume,
        offer=offer or "",
        lead=lead,
        fields=fields,
        picker=picker,
        primary="" if resume else "primary",
        start=_("Start a new game") if resume else _("Start game"),
    )


def resume_html(notes: Sequence[str], elsewhere: bool = False) -> Markup:
    """The "resume" offer, after the notes of the saved game (sentences: a player's bot
    that is not loaded); ``elsewhere``: the game is open in another tab, "Play it here"."""
    if elsewhere:
        progress = _("This game is open in another tab.")
        resume = _("Play it here")
    else:
        progress = _("You have a game in progress.")
        resume = _("Resume it")
    return html(
        '{said}<p class="resume">{progress} '
        '<button type="button" class="btn primary" data-action="resume">{resume}</button></p>',
        said=join(html('<p class="notice">{}</p>', text) for text in notes),
        progress=progress,
        resume=resume,
    )
