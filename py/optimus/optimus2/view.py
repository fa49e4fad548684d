"""Optimus 2 view models: an observation becomes plain data the DOM layer draws.

Nothing here decides a rule. What can be clicked comes from the observation's
legal moves, read through the engine's own move table (``parse_place`` and
friends); scores come from the engine's sheet view. Each colour has a symbol
as well as a hue, so the sheet reads without colour vision.

The page chooses a die first (``selected``), then a target on the sheet: a
target is a cell key (``Y3`` yellow cell 3, ``S1-4`` silver row 1 value 4,
``B5``/``G5``/``P5`` slot 5 of blue/green/pink) mapped to the legal move that
fills it.

>>> die("white").symbol, bonus(4).label
('✱', 'fox')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, partial
from typing import Any

from optimus.i18n import N_, _, ngettext, pgettext
from optimus.optimus2.moves import move_table, unpack
from optimus.optimus2.sheet import (
    ACTIONS,
    AREAS,
    BONUS_TEXT,
    DICE,
    EXTRA,
    FOX,
    NONE,
    Q_ANY,
    REROLL,
    RETURN,
    SILVER,
    YELLOW,
    SheetDef,
    load_sheet,
)
from optimus.ui import table as ui

from .view_end import TIE_RULE as TIE_RULE
from .view_end import area_details as area_details
from .view_end import end_screen as end_screen
from .view_end import final as final
from .view_end import rating_text as rating_text
from .view_end import tie_note as tie_note
from .view_log import DECISIONS as DECISIONS
from .view_log import described_log
from .view_log import describer as describer
from .view_log import place_text as place_text
from .words import colour_name as colour_name  # named here too (web/)
from .words import die_word as die_colour
from .words import question, row_word
from .words import task_text as task_text

row_colour = row_word
"""A silver row's colour in words (the page names the rows with it)."""

SYMBOLS = {
    "white": "✱",
    "yellow": "●",
    "blue": "■",
    "green": "▲",
    "pink": "♥",
    "silver": "◆",
}
"""One symbol per colour (dice, areas, "?" bonuses): never colour alone."""

AREA_LETTER = {"yellow": "Y", "blue": "B", "green": "G", "pink": "P", "silver": "S"}


@dataclass(frozen=True)
class Die:
    """A die (or a colour) as drawn: name, symbol, value and its spoken name."""

    die: str
    symbol: str
    value: int | None
    label: str


@dataclass(frozen=True)
class TableDie(Die):
    """A die on the table: where it lies and what the person may do with it now."""

    place: str = "hand"
    """``hand`` (rolled), ``field`` (chosen onto the die fields) or ``tray``."""
    selectable: bool = False
    selected: bool = False
    return_move: str | None = None
    """The move that brings it back from the tray, when that is legal now."""
    extra_taken: bool = False
    choose_label: str = ""
    """The spoken name of the button that chooses it."""
    return_label: str = ""
    """The spoken name of the button that brings it back from the tray."""


@dataclass(frozen=True)
class Player(ui.Panel):
    """A player's panel, with their areas' points, foxes and sheet."""

    areas: dict[str, int]
    foxes: int
    make_sheet: Callable[[], Sheet] = field(repr=False, compare=False)
    """Builds :attr:`sheet`."""

    @cached_property
    def sheet(self) -> Sheet:
        """The player's sheet, built on first use: the board draws the person's, a
        panel's details another's (on a phone, building all four at every drawing
        costs a tenth of a bot's turn)."""
        return self.make_sheet()


@dataclass(frozen=True)
class Table:
    """The whole table as the person sees it."""

    status: ui.Status
    round: int
    rounds: int
    round_track: list[Bonus]
    choices: int
    phase: str
    dice: tuple[TableDie, ...]
    values: dict[str, int]
    selected: str | None
    """The die the person has chosen (its targets light up)."""
    extra_phase: bool
    solo_passive: bool
    controls: tuple[ui.Choice, ...]
    """Buttons for the moves that are no cell (roll, end, reroll, pass, done)."""
    writes: tuple[ui.Choice, ...]
    """Answers to "which value do you write?" (label: the value)."""
    chooses: tuple[ui.Choice, ...]
    """Answers to "which area does the '?' go to?" (label: the colour)."""
    targets: dict[str, str]
    """Cell key -> the legal move that fills it."""
    players: tuple[Player, ...]
    log: list[str]
    rating: str | None

    @property
    def panels(self) -> list[ui.Panel]:
        return list(self.players)


def die(name: str, value: int | None = None) -> Die:
    """A die (or a colour) as drawn: name, symbol, value and its spoken name."""
    colour = die_colour(name)
    if value:
        spoken = _("{colour} die showing {value}", colour=colour, value=value)
    else:
        spoken = _("{colour} die", colour=colour)
    return Die(name, SYMBOLS[name], value, spoken)


def choose_label(name: str, value: int | None) -> str:
    """The spoken name of the button that chooses a die."""
    colour = die_colour(name)
    if value:
        return _("Choose the {colour} die showing {value}", colour=colour, value=value)
    return _("Choose the {colour} die", colour=colour)


def return_label(name: str, value: int | None) -> str:
    """The spoken name of the button that brings a die back from the tray."""
    colour = die_colour(name)
    if value:
        return _(
            "Bring the {colour} die showing {value} back from the tray",
            colour=colour,
            value=value,
        )
    return _("Bring the {colour} die back from the tray", colour=colour)


@dataclass(frozen=True)
class Bonus:
    """A bonus as drawn on the sheet: a short mark, a word, and its colour (if any)."""

    mark: str
    label: str
    colour: str = ""


def bonus(code: int) -> Bonus:
    """A bonus as drawn on the sheet: a short mark, a word, and its colour (if any)."""
    if code == NONE:
        return Bonus("", "")
    if code == REROLL:
        return Bonus("↻", pgettext("bonus", "reroll"))
    if code == RETURN:
        return Bonus("↩", pgettext("bonus", "return"))
    if code == EXTRA:
        return Bonus("+1", pgettext("bonus", "extra die"))
    if code == FOX:
        return Bonus("✪", pgettext("bonus", "fox"))
    if code == Q_ANY:
        return Bonus("?", _("a '?' of any colour"), "any")
    colour = BONUS_TEXT[code].removesuffix("?")
    return Bonus(f"{SYMBOLS[colour]}?", question(colour), colour)


# -- moves ---------------------------------------------------------------------


def _next_slot(sheet: Mapping[str, Any], area: str) -> int:
    return len(sheet[area])


def place_targets(
    obs: Mapping[str, Any], sd: SheetDef, moves: Sequence[str], you: int
) -> dict[str, dict[str, str]]:
    """Die entries among ``moves``: die name -> {cell key: move} (``extra`` moves too)."""
    mt = move_table(sd)
    sheet = obs["sheets"][you]
    values = {d["die"]: d["value"] or 0 for d in obs["dice"]}
    out: dict[str, dict[str, str]] = {}
    for move in moves:
        place = mt.parse_place.get(move)
        if place is None:
            place = mt.parse_extra.get(move)
        if place is None:
            continue
        d, a, t = unpack(place)
        name = DICE[d]
        if a == YELLOW:
            key = f"Y{t}"
        elif a == SILVER:
            key = f"S{t}-{values[name]}"
        else:
            area = AREAS[a - 1]
            key = f"{AREA_LETTER[area]}{_next_slot(sheet, area)}"
        out.setdefault(name, {})[key] = move
    return out


def task_targets(sd: SheetDef, moves: Sequence[str]) -> dict[str, str]:
    """Cell answers to a bonus or chain question (``mark ...``): cell key -> move."""
    out: dict[str, str] = {}
    for move in moves:
        parts = move.split()
        if parts[0] != "mark":
            continue
        if len(parts) == 2:
            out[f"Y{sd.cell_names.index(parts[1])}"] = move
        else:
            out[f"S{AREAS.index(parts[1])}-{parts[2]}"] = move
    return out


# -- the sheet -------------------------------------------------------------------


def last_cells(
    log: Sequence[Mapping[str, Any]], sd: SheetDef, sheets: Sequence[Mapping[str, Any]]
) -> dict[int, str]:
    """The cell each player's latest entry went to (kept highlighted until they enter again)."""
    values: dict[str, int] = {}
    out: dict[int, str] = {}
    for e in log:
        ev, p = e.get("event"), e.get("player")
        if ev == "roll":
            values.update(e.get("dice", {}))
        if not isinstance(p, int) or ev not in ("use", "pick", "extra", "bonus"):
            continue
        parts = str(e.get("move", "")).removeprefix("extra ").split()
        if ev == "bonus":
            if parts[0] == "mark" and len(parts) == 2:
                out[p] = f"Y{sd.cell_names.index(parts[1])}"
            elif parts[0] == "mark":
                out[p] = f"S{AREAS.index(parts[1])}-{parts[2]}"
            continue
        name = parts[0]
        area, rest = (parts[1], parts[2:]) if name == "white" else (name, parts[1:])
        if area == "yellow" and rest:
            out[p] = f"Y{sd.cell_names.index(rest[0])}"
        elif area == "silver" and rest and name in values:
            out[p] = f"S{AREAS.index(rest[0])}-{values[name]}"
        elif area in ("blue", "green", "pink"):
            out[p] = f"{AREA_LETTER[area]}{len(sheets[p][area]) - 1}"
    return out


@dataclass(frozen=True)
class Cell:
    """A place on the sheet: its key (``Y3``, ``S1-4``, ``B5``...), the legal move that
    fills it now (if any), what that would write, and whether the latest entry is here."""

    key: str
    move: str | None
    will: str
    last: bool


@dataclass(frozen=True)
class YellowCell(Cell):
    row: int
    column: int
    value: int
    state: str
    """``open``, ``circled`` or ``crossed``."""
    name: str


@dataclass(frozen=True)
class SilverCell(Cell):
    value: int
    marked: bool


@dataclass(frozen=True)
class SilverRow:
    row: str
    """The colour of the row."""
    cells: tuple[SilverCell, ...]


@dataclass(frozen=True)
class Slot(Cell):
    """A slot of a track (blue, green, pink)."""

    n: int
    value: int | None
    next: bool
    """The next slot to fill."""
    bonus: Bonus
    mult: int = 0
    """Green: the multiplier."""
    pair: int = 0
    """Green: the pair it belongs to."""
    threshold: int = 0
    """Pink: the value its bonus needs."""


@dataclass(frozen=True)
class ActionBar:
    name: str
    mark: str
    slots: int
    circled: int
    used: int
    left: int
    last_bonus: Bonus


@dataclass(frozen=True)
class Sheet:
    """Every area of one player's sheet, as cells."""

    yellow: tuple[YellowCell, ...]
    yellow_rows: int
    yellow_columns: int
    yellow_row_bonus: tuple[Bonus, ...]
    yellow_column_bonus: tuple[Bonus, ...]
    silver: tuple[SilverRow, ...]
    silver_column_bonus: tuple[Bonus, ...]
    silver_columns_done: tuple[bool, ...]
    blue: tuple[Slot, ...]
    green: tuple[Slot, ...]
    pink: tuple[Slot, ...]
    actions: tuple[ActionBar, ...]
    foxes: int
    fox_worth: int
    areas: dict[str, int]
    total: int
    extra_taken: tuple[str, ...]

    def track(self, area: str) -> tuple[Slot, ...]:
        """The slots of ``blue``, ``green`` or ``pink``."""
        return {"blue": self.blue, "green": self.green, "pink": self.pink}[area]

    def inert(self) -> Sheet:
        """The same sheet with no move anywhere (for a player's details)."""
        return replace(
            self,
            yellow=tuple(replace(c, move=None) for c in self.yellow),
            silver=tuple(
                replace(r, cells=tuple(replace(c, move=None) for c in r.cells)) for r in self.silver
            ),
            blue=tuple(replace(c, move=None) for c in self.blue),
            green=tuple(replace(c, move=None) for c in self.green),
            pink=tuple(replace(c, move=None) for c in self.pink),
        )


def sheet_data(
    sd: SheetDef,
    sheet: Mapping[str, Any],
    targets: Mapping[str, str],
    preview: Mapping[str, str],
    last: str = "",
) -> Sheet:
    """Every area of one player's sheet as cells (state, bonus, legal move if any).

    ``targets`` maps cell keys to legal moves; ``preview`` to what a click there
    would write (shown in the cell's name); ``last`` is the cell of the
    player's latest entry.
    """

    def cell(key: str) -> tuple[str, str | None, str, bool]:
        return key, targets.get(key), preview.get(key, ""), key == last

    yellow = []
    for c, (r, col, value) in enumerate(sd.yellow_cells):
        state = ("open", "circled", "crossed")[int(sheet["yellow"][c])]
        yellow.append(YellowCell(*cell(f"Y{c}"), r, col, value, state, sd.cell_names[c]))
    silver = []
    for r in range(4):
        marked = set(sheet["silver"][r])
        cells = tuple(
            SilverCell(*cell(f"S{r}-{v}"), v, v in marked) for v in range(1, sd.silver_values + 1)
        )
        silver.append(SilverRow(AREAS[r], cells))
    columns_done = tuple(
        all(v in sheet["silver"][r] for r in range(4)) for v in range(1, sd.silver_values + 1)
    )

    def slots(
        area: str,
        count: int,
        bonuses: Sequence[int],
        mult: Sequence[int] = (),
        threshold: Sequence[int] = (),
    ) -> tuple[Slot, ...]:
        written = sheet[area]
        letter = AREA_LETTER[area]
        return tuple(
            Slot(
                *cell(f"{letter}{i}"),
                n=i + 1,
                value=written[i] if i < len(written) else None,
                next=i == len(written),
                bonus=bonus(bonuses[i]),
                mult=mult[i] if mult else 0,
                pair=i // 2 + 1 if mult else 0,
                threshold=threshold[i] if threshold else 0,
            )
            for i in range(count)
        )

    actions = []
    for i, name in enumerate(ACTIONS):
        bar = sheet["actions"][name]
        actions.append(
            ActionBar(
                name=name,
                mark=bonus(i + 1).mark,
                slots=sd.action_slots[i],
                circled=bar["circled"],
                used=bar["used"],
                left=bar["circled"] - bar["used"],
                last_bonus=bonus(sd.action_last_bonus[i]),
            )
        )
    areas = sheet["areas"]
    return Sheet(
        yellow=tuple(yellow),
        yellow_rows=sd.yellow_rows,
        yellow_columns=sd.yellow_columns,
        yellow_row_bonus=tuple(bonus(b) for b in sd.yellow_row_bonus),
        yellow_column_bonus=tuple(bonus(b) for b in sd.yellow_column_bonus),
        silver=tuple(silver),
        silver_column_bonus=tuple(bonus(b) for b in sd.silver_column_bonus),
        silver_columns_done=columns_done,
        blue=slots("blue", len(sd.blue_bonus), sd.blue_bonus),
        green=slots("green", len(sd.green_mult), sd.green_bonus, mult=sd.green_mult),
        pink=slots("pink", len(sd.pink_threshold), sd.pink_bonus, threshold=sd.pink_threshold),
        actions=tuple(actions),
        foxes=sheet["foxes"],
        fox_worth=min(areas.values()),
        areas=dict(areas),
        total=sheet["total"],
        extra_taken=tuple(sheet["extra_taken"]),
    )


def previews(obs: Mapping[str, Any], sd: SheetDef, die_name: str, you: int) -> dict[str, str]:
    """What the selected die would write in each area's next slot (for the cells' names)."""
    values = {d["die"]: d["value"] or 0 for d in obs["dice"]}
    v = values.get(die_name, 0)
    sheet = obs["sheets"][you]
    out: dict[str, str] = {}
    if not v:
        return out
    nb, ng, npk = len(sheet["blue"]), len(sheet["green"]), len(sheet["pink"])
    out[f"B{nb}"] = _("write {total} (blue + white)", total=values["blue"] + values["white"])
    if ng < len(sd.green_mult):
        m = sd.green_mult[ng]
        out[f"G{ng}"] = _(
            "write {value} × {multiplier} = {product}", value=v, multiplier=m, product=v * m
        )
    out[f"P{npk}"] = _("write {value}", value=v)
    return out


# -- status, log -------------------------------------------------------------------


def status(
    obs: Mapping[str, Any], names: Sequence[str], you: int | None, selected: str | None = None
) -> ui.Status:
    """Whose turn it is and what they can do, in one sentence."""
    phase = obs["phase"]
    if phase == "over":
        return ui.Status("over", _("The game is over."))
    if phase in ("roll", "first"):
        return ui.Status("wait", _("Rolling the dice…"))
    legal = obs["legal_moves"]
    active = obs["active"]
    if you is not None and legal:
        sheet = obs["sheets"][you]
        if sheet["pending_raw"]:
            return ui.Status("you", task_text(sheet["pending_raw"][0]))
        if selected:
            v = next(d["value"] for d in obs["dice"] if d["die"] == selected)
            return ui.Status(
                "you",
                _(
                    "Choose where the {colour} {value} goes (highlighted), or another die.",
                    colour=die_colour(selected),
                    value=v,
                ),
            )
        if phase == "choose":
            n = obs["choices"] + 1
            total = load_sheet(str(obs["sheet"])).choices
            if "reroll" in legal:
                text = _(
                    "Your choice {n} of {total}: pick a rolled die, or reroll, or skip this roll.",
                    n=n,
                    total=total,
                )
            else:
                text = _(
                    "Your choice {n} of {total}: pick a rolled die, or skip this roll.",
                    n=n,
                    total=total,
                )
            return ui.Status("you", text)
        if phase == "preroll":
            return ui.Status(
                "you", _("You may bring tray dice back (return) before the next roll, then roll.")
            )
        if phase == "extra" or (phase == "simul" and sheet["stage"] == 1):
            return ui.Status("you", _("You may use an extra die: pick any die, or finish."))
        if phase == "simul":
            if obs["players"] > 1 and not any(d["place"] == "tray" for d in obs["dice"]):
                text = _(
                    "Passive pick: take one die from the active player's dice for your sheet, "
                    "or none."
                )
            else:
                text = _("Passive pick: take one die from the silver tray for your sheet, or none.")
            return ui.Status("you", text)
        return ui.Status("you", _("Your turn."))
    if phase == "simul":
        if you is not None and obs["sheets"][you]["stage"] == 2:
            return ui.Status("bot", _("Waiting for the other players to pick…"))
        return ui.Status("bot", _("The other players are picking…"))
    if active == you:
        return ui.Status("bot", _("You are thinking…"))
    return ui.Status("bot", _("{name} is thinking…", name=names[active]))


# -- the whole table -------------------------------------------------------------


def table(
    obs: Mapping[str, Any], names: Sequence[str], you: int | None, selected: str | None = None
) -> Table:
    """The whole table as plain data. ``obs`` is ``you``'s observation.

    ``selected`` is the die the person has chosen (ignored when it has no
    legal entry now); targets light up for it.
    """
    sd = load_sheet(str(obs["sheet"]))
    legal: list[str] = list(obs["legal_moves"]) if you is not None else []
    phase = obs["phase"]
    places = place_targets(obs, sd, legal, you) if you is not None else {}
    if selected not in places:
        selected = None
    if selected is None and len(places) == 1:
        selected = next(iter(places))
    cells: dict[str, str] = dict(task_targets(sd, legal))
    if selected:
        cells.update(places[selected])
    writes = [m for m in legal if m.startswith("write ")]
    chooses = [m for m in legal if m.startswith("choose ")]
    returns = {m.split()[1]: m for m in legal if m.startswith("return ")}
    values = {d["die"]: d["value"] or 0 for d in obs["dice"]}
    dice = []
    for d in obs["dice"]:
        name = d["die"]
        spoken = die(name, d["value"])
        dice.append(
            TableDie(
                **vars(spoken),
                place=d["place"],
                selectable=name in places,
                selected=name == selected,
                return_move=returns.get(name),
                extra_taken=you is not None and name in obs["sheets"][you]["extra_taken"],
                choose_label=choose_label(name, d["value"]),
                return_label=return_label(name, d["value"]),
            )
        )
    extra_phase = any(m.startswith("extra ") for m in legal)
    controls = []
    labels = {
        "pass": _("Take no die") if phase == "simul" else _("Skip this roll"),
        "reroll": _("Reroll"),
        "roll": _("Roll"),
        "end": _("End the turn"),
        "done": _("Finish (no extra die)"),
    }
    for m in ("roll", "end", "reroll", "pass", "done"):
        if m in legal:
            label = labels[m]
            if m == "reroll" and you is not None:
                bar = obs["sheets"][you]["actions"]["reroll"]
                left = bar["circled"] - bar["used"]
                label = ngettext("Reroll ({n} left)", "Reroll ({n} left)", left)
            controls.append(ui.Choice(m, label))
    log_sentences, last = described_log(obs["log"], names, you)
    last_cell = last_cells(obs["log"], sd, obs["sheets"])
    players = []
    for seat, sh in enumerate(obs["sheets"]):
        own = seat == you
        players.append(
            Player(
                seat=seat,
                name=names[seat],
                you=own,
                turn=seat == obs["active"] and phase not in ("over", "simul", "first"),
                score=sh["total"],
                areas=dict(sh["areas"]),
                foxes=sh["foxes"],
                make_sheet=partial(
                    sheet_data,
                    sd,
                    sh,
                    cells if own else {},
                    previews(obs, sd, selected, seat) if own and selected else {},
                    last_cell.get(seat, ""),
                ),
                last=last.get(seat, ""),
            )
        )
    solo_passive = obs["players"] == 1 and phase == "simul" and obs["simultaneous"] == "passive"
    return Table(
        status=status(obs, names, you, selected),
        round=obs["round"],
        rounds=obs["rounds"],
        round_track=[bonus(b) for b in sd.round_track],
        choices=obs["choices"],
        phase=phase,
        dice=tuple(dice),
        values=values,
        selected=selected,
        extra_phase=extra_phase,
        solo_passive=solo_passive,
        controls=tuple(controls),
        writes=tuple(ui.Choice(m, m.split()[1]) for m in writes),
        chooses=tuple(ui.Choice(m, colour_name(m.split()[1])) for m in chooses),
        targets=cells,
        players=tuple(players),
        log=log_sentences,
        rating=obs.get("rating"),
    )


def symbols() -> list[ui.Symbol]:
    """Every symbol of an Optimus 2 table and what it means, in the language spoken (the
    game bar's "Symbols"); ``piece``: ``die-<colour>`` a die, else the glyph.

    >>> [s.glyph for s in symbols()]
    ['✱', '●', '■', '▲', '♥', '◆', '↻', '↩', '+1', '✪', '?']
    """
    dice = [
        ui.Symbol(SYMBOLS["white"], _("The white die: wild, it may go to any area"), "die-white"),
        *(
            ui.Symbol(SYMBOLS[c], _("A die and area: {colour}", colour=colour_name(c)), f"die-{c}")
            for c in ("yellow", "blue", "green", "pink", "silver")
        ),
    ]
    return [
        *dice,
        ui.Symbol("↻", _("Reroll: on your active turn, after a roll, roll all those dice again")),
        ui.Symbol(
            "↩", _("Return: on your active turn, before a roll, bring dice back from the tray")
        ),
        ui.Symbol(
            "+1",
            _("Extra die: after your turn or passive pick, enter any of the six dice once more"),
        ),
        ui.Symbol("✪", _("Fox: each one scores as much as your lowest area at the end")),
        ui.Symbol(
            "?",
            _(
                "“?” bonus: you write a value of your choice in that colour's area (any "
                "colour for a plain “?”)"
            ),
        ),
    ]


RULES: tuple[str, ...] = (
    N_(
        "Six dice: white (wild), yellow ●, blue ■, green ▲, pink ♥, silver ◆. On your active "
        "turn you *choose up to three dice*, one per roll: click a rolled die, then a "
        "highlighted cell of its area (the white die may go to any area). You may skip a roll "
        "instead."
    ),
    N_(
        "Every rolled die *lower* than the one you choose goes to the *silver tray*. "
        "After the third choice, the dice left go to the tray too."
    ),
    N_(
        "When another player is active, you take *one die from the tray* (a passive pick). "
        "Alone, after each of your turns all six dice are rolled and the three lowest go to the "
        "tray for your passive pick."
    ),
    N_(
        "*Yellow*: circle a cell of the die's value, later cross it; crosses score. "
        "*Blue*: blue + white, never higher than the last. *Green*: die × multiplier; "
        "each pair scores first minus second. *Pink*: any value; the bonus needs the value "
        "shown. *Silver*: mark the value in a row; dice this choice sent to the tray are "
        "marked too."
    ),
    N_(
        'Bonuses come at once: actions (↻ reroll, ↩ return, +1 extra die), foxes ✪ and "?" '
        "bonuses (you write a value of your choice; the table asks one question at a time)."
    ),
    N_("Each fox scores your *lowest* area. Ties: the highest single area wins."),
)
"""The rules drawer's points (plain text, ``*word*`` for emphasis, marked for the catalogs:
the table shows each through ``_``), in order."""
