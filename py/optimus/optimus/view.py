"""Optimus view models: an observation, the legal moves and the person's pencil become plain data.

Nothing here decides a rule. What lights up, what is complete and what can be
confirmed all come from the engine's legal moves; a reason for refusing a
marking comes from the engine (``explain``). Every colour has a symbol as well
as a hue, so the sheet reads without colour vision.

The person builds a marking step by step in a :class:`Pencil`: a colour die,
a number die, the colour or number a joker stands for, then boxes. Each step
can be taken back before the move is confirmed.

>>> colour_info("r").symbol, colour_info("x").name
('♥', 'colour joker')
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from optimus import i18n
from optimus.core.jsontext import whole_number
from optimus.i18n import N_, _, ngettext, pgettext
from optimus.optimus.game import COLOUR_BONUS, JOKERS, SOLO_BANDS, STAR_PENALTY
from optimus.optimus.sheet import (
    COLOURS,
    COLS,
    COLUMN_LETTERS,
    COLUMN_POINTS,
    ROWS,
    STANDARD_SHEETS,
    START_COL,
    box_index,
    box_name,
)
from optimus.optimus.words import box_colour, boxes_of, colour_name, colour_of_name, die_name
from optimus.optimus.words import number_name as number_name
from optimus.ui import table as ui

SYMBOLS = {"g": "▲", "y": "●", "b": "■", "r": "♥", "o": "✚", "x": "X"}
"""A symbol per colour (the hue is never the only signal); ``x`` is the colour joker."""

TIE_RULE = N_("Equal totals: most unused “!” wins; if that is equal too, the victory is shared.")


@dataclass(frozen=True)
class ColourInfo:
    """A colour face (``g y b r o``) or the colour joker ``x``: its name and symbol."""

    face: str
    name: str
    symbol: str


def colour_info(face: str) -> ColourInfo:
    """Name (in the player's language) and symbol of a colour face (``g y b r o``) or the
    colour joker ``x``."""
    return ColourInfo(face, colour_name(face), SYMBOLS[face])


@dataclass(frozen=True)
class Feedback:
    """Where the person's marking stands, in words, and the move it makes (if any)."""

    state: str
    """``dice``, ``name``, ``boxes``, ``complete``, ``illegal``, or ``none`` (no die
    fits: passing is the only move)."""
    move: str
    """The move the pencil marks make ("" before any box)."""
    text: str

    @property
    def confirm(self) -> str:
        """The move "Confirm" plays: only a complete legal marking ("" leaves it disabled)."""
        return self.move if self.state == "complete" else ""


# -- the pencil: a marking in progress ----------------------------------------------


@dataclass(frozen=True)
class Pencil:
    """The person's marking before it is confirmed (nothing here is a move yet)."""

    colour: str = ""
    """The chosen colour die's face (``g y b r o x``), or "" while none is chosen."""
    number: str = ""
    """The chosen number die's face (``1``-``5``, ``?``), or ""."""
    named_colour: str = ""
    """The colour the colour joker stands for (``g y b r o``), or ""."""
    named_number: int = 0
    """The number the number joker stands for (1-5), or 0."""
    boxes: tuple[int, ...] = ()
    """Pencilled boxes in the order they were clicked."""
    key: tuple[int, str] = (0, "")
    """The (roll, phase) the pencil belongs to: a new decision starts a clean pencil."""

    @property
    def colour_face(self) -> str:
        """The colour the marking uses ("" while unknown)."""
        return self.named_colour if self.colour == "x" else self.colour

    @property
    def count(self) -> int:
        """How many boxes the marking needs (0 while unknown)."""
        if self.number == "?":
            return self.named_number
        return int(self.number) if self.number else 0

    @property
    def ready(self) -> bool:
        """Both dice chosen and any joker named: boxes can be marked."""
        return bool(self.colour_face and self.count)

    def move(self) -> str:
        """The move these pencil marks make, boxes in reading order ("" without boxes)."""
        if not (self.colour and self.number and self.boxes):
            return ""
        names = " ".join(box_name(i) for i in sorted(self.boxes))
        return f"{self.colour}{self.number} {names}"


@functools.lru_cache(maxsize=1 << 14)
def parse(move: str) -> tuple[str, str, frozenset[int]]:
    """``(colour face, number face, boxes)`` of a marking move (cached: pages redraw often)."""
    words = move.split()
    return words[0][0], words[0][1], frozenset(box_index(w) for w in words[1:])


def _markings(legal: Sequence[str]) -> list[tuple[str, str, frozenset[int]]]:
    return [parse(m) for m in legal if m != "pass"]


def candidates(
    legal: Sequence[str], pencil: Pencil, sheet: Sequence[str]
) -> list[tuple[str, frozenset[int]]]:
    """The legal markings that fit the pencil's dice and named joker values: (move, boxes).

    ``sheet`` is the sheet's colour face per box (``g y b r o``).
    """
    out = []
    for m in legal:
        if m == "pass":
            continue
        cf, nf, boxes = parse(m)
        if pencil.colour and cf != pencil.colour:
            continue
        if pencil.number and nf != pencil.number:
            continue
        if pencil.named_colour and sheet[next(iter(boxes))] != pencil.named_colour:
            continue
        if pencil.named_number and len(boxes) != pencil.named_number:
            continue
        out.append((m, boxes))
    return out


def choose_die(pencil: Pencil, kind: str, face: str) -> Pencil:
    """Pick (or, if it is the picked one, put back) a die; its joker name and boxes reset."""
    if kind == "colour":
        face = "" if pencil.colour == face else face
        return replace(pencil, colour=face, named_colour="", boxes=())
    face = "" if pencil.number == face else face
    return replace(pencil, number=face, named_number=0, boxes=())


def name_joker(pencil: Pencil, kind: str, value: str) -> Pencil:
    """Say what a joker stands for (again to take it back); the boxes reset."""
    if kind == "colour":
        named = "" if pencil.named_colour == value else value
        return replace(pencil, named_colour=named, boxes=())
    n = int(value)
    return replace(pencil, named_number=0 if pencil.named_number == n else n, boxes=())


def toggle_box(pencil: Pencil, box: int) -> Pencil:
    """Pencil a box, or rub it out if it is pencilled already."""
    if box in pencil.boxes:
        return replace(pencil, boxes=tuple(b for b in pencil.boxes if b != box))
    return replace(pencil, boxes=(*pencil.boxes, box))


def undo(pencil: Pencil) -> Pencil:
    """Take back the last step: the last box, else a joker's name, else a die."""
    if pencil.boxes:
        return replace(pencil, boxes=pencil.boxes[:-1])
    if pencil.named_number:
        return replace(pencil, named_number=0)
    if pencil.named_colour:
        return replace(pencil, named_colour="")
    if pencil.number:
        return replace(pencil, number="")
    return replace(pencil, colour="")


def fresh(pencil: Pencil, key: tuple[int, str]) -> Pencil:
    """The pencil for decision ``key``: kept if it is the same decision, else clean."""
    return pencil if pencil.key == key else Pencil(key=key)


# -- the table as data ----------------------------------------------------------------


@dataclass(frozen=True)
class Die:
    """A rolled die: which the person may pick now, which the active player took."""

    kind: str
    """``colour`` or ``number``."""
    face: str
    label: str
    symbol: str
    joker: bool
    taken_by: str | None
    usable: bool
    """A legal marking uses it (with the other die picked, if any)."""
    picked: bool


@dataclass(frozen=True)
class Dice:
    colour: tuple[Die, ...]
    number: tuple[Die, ...]
    open_text: str
    """Which dice are open to whom, in one sentence."""


@dataclass(frozen=True)
class Cell:
    """A box of a sheet."""

    box: str
    """Its name (``H3``)."""
    face: str
    colour: str
    symbol: str
    star: bool
    start: bool
    """In the starting column (H)."""
    marked: bool
    last: bool
    """Marked by the player's latest choice (kept highlighted)."""
    pencil: bool
    target: bool
    """A legal marking that fits the pencil can still use it."""
    free: bool
    """The person may pencil it now."""


@dataclass(frozen=True)
class Column:
    letter: str
    first: int
    later: int
    first_taken: bool
    """Someone completed it in an earlier roll: the later value is left."""
    done: bool
    points: int


@dataclass(frozen=True)
class ColourBonus:
    face: str
    name: str
    symbol: str
    marked: int
    done: bool
    first_taken: bool
    points: int


@dataclass(frozen=True)
class Sheet:
    """One player's sheet: cells, column points, "!" boxes, colour bonuses, score."""

    seat: int
    rows: int
    cells: tuple[Cell, ...]
    columns: tuple[Column, ...]
    jokers: tuple[bool, ...]
    """Each "!" box: used or not."""
    jokers_left: int
    colours: tuple[ColourBonus, ...]
    bonuses: bool
    bonus_values: tuple[int, int]
    score: dict[str, int]
    """The engine's breakdown: columns, colours, jokers, stars, total."""
    stars_unmarked: int
    star_penalty: int


@dataclass(frozen=True)
class Table:
    """The whole table as the person sees it now (the page builds it from the session)."""

    obs: Mapping[str, Any]
    mine: bool
    """Whether the person is to choose now."""
    actor: int | None
    legal: list[str]
    pencil: Pencil
    feedback: Feedback | None
    status: ui.Status
    dice: Dice
    sheet: Sheet
    """The person's sheet (with the pencil on their turn)."""
    log: list[str]
    panels: list[ui.Panel]
    watching: bool = False
    """A replay: nobody's decision to take (no marking bar)."""


def table(
    obs: Mapping[str, Any],
    names: Sequence[str],
    you: int | None,
    actor: int | None,
    legal: Sequence[str],
    pencil: Pencil,
    explain: Callable[[str], str],
    watching: bool = False,
) -> Table:
    """The table ``you`` sees (``None``: a watcher): ``obs`` is their observation,
    ``legal`` their moves when ``actor`` is them (else empty), ``pencil`` what they have
    pencilled, ``explain`` the rules' reason a move is refused; ``watching``: a replay,
    nobody's decision to take (nothing lights up)."""
    mine = you is not None and actor == you and not watching
    moves = list(legal) if mine else []
    fb = feedback(pencil, moves, sheet_faces(obs), explain) if mine else None
    return Table(
        obs=obs,
        mine=mine,
        actor=actor,
        legal=moves,
        pencil=pencil,
        feedback=fb,
        status=status(obs, names, you, actor, todo(fb)),
        dice=dice_view(obs, names, you, moves, pencil),
        sheet=sheet_view(obs, you if you is not None else 0, pencil if mine else None, moves),
        log=log(obs, names, you),
        panels=[panel(obs, names, seat, you, actor) for seat in range(int(obs["players"]))],
        watching=watching,
    )


def todo(fb: Feedback | None) -> str:
    """What the status line says the person must do now (after "your turn:")."""
    if fb is None:
        return ""
    if fb.state == "none":
        return _("no die fits your sheet, so pass.")
    return fb.text


def sheet_faces(obs: Mapping[str, Any]) -> list[str]:
    """The colour face of every box (the sheet's letters, lower case)."""
    return _sheet(str(obs["sheet"]), i18n.language())[0]


def sheet_stars(obs: Mapping[str, Any]) -> list[bool]:
    return _sheet(str(obs["sheet"]), i18n.language())[1]


@functools.lru_cache(maxsize=8)
def _sheet(
    text: str, lang: str
) -> tuple[list[str], list[bool], list[tuple[str, str, str, str, bool, bool]]]:
    """Faces, stars and each box's fixed data (its colour in ``lang``), read once per sheet."""
    letters = [ch for ch in text if ch.isalpha()]
    faces = [ch.lower() for ch in letters]
    stars = [ch.isupper() for ch in letters]
    cells = [
        (box_name(i), face, box_colour(face), SYMBOLS[face], stars[i], i % COLS == START_COL)
        for i, face in enumerate(faces)
    ]
    return faces, stars, cells


def describe(
    entry: Mapping[str, Any],
    names: Sequence[str],
    sheet: Sequence[str],
    you: int | None = None,
) -> str | None:
    """One log line, a whole sentence, for a public event (``you``: the person's seat)."""
    ev = entry.get("event")
    if ev == "roll":
        colours, numbers = str(entry["dice"]).split()
        values = {
            "roll": entry["roll"],
            "colours": ", ".join(colour_name(c) for c in colours),
            "numbers": ", ".join(number_name(n) for n in numbers),
        }
        if entry["active"] == you:
            return _("Roll {roll}: you rolled {colours}; {numbers}.", **values)
        return _(
            "Roll {roll}: {who} rolled {colours}; {numbers}.", who=names[entry["active"]], **values
        )
    mine = "player" in entry and entry["player"] == you
    who = names[entry["player"]] if "player" in entry else ""
    if ev == "choice":
        move = str(entry["move"])
        if move == "pass":
            return _("You passed.") if mine else _("{who} passed.", who=who)
        return marking_text(move, sheet, who, mine)
    if ev == "column":
        if mine:
            return _("You completed column {column}.", column=entry["column"])
        return _("{who} completed column {column}.", who=who, column=entry["column"])
    if ev == "colour":
        colour = colour_name(colour_of_name(str(entry["colour"])))
        if mine:
            return _("You completed every {colour} box.", colour=colour)
        return _("{who} completed every {colour} box.", who=who, colour=colour)
    if ev == "end":
        return _("The game is over.")
    return None


def marking_text(move: str, sheet: Sequence[str], who: str, mine: bool) -> str:
    """``Ana marked 3 red boxes (G4 H3 H4) with red and 3.``, and what a joker cost."""
    cf, nf, boxes = parse(move)
    face = sheet[min(boxes)]
    values = {
        "boxes": boxes_of(face, len(boxes)),
        "where": " ".join(move.split()[1:]),
        "colour": colour_name(face),
        "number": len(boxes),
    }
    if cf == "x" and nf == "?":
        if mine:
            return _(
                "You marked {boxes} ({where}) with the colour joker as {colour} and the "
                "number joker as {number}, spending 2 “!”.",
                **values,
            )
        return _(
            "{who} marked {boxes} ({where}) with the colour joker as {colour} and the "
            "number joker as {number}, spending 2 “!”.",
            who=who,
            **values,
        )
    if cf == "x":
        if mine:
            return _(
                "You marked {boxes} ({where}) with the colour joker as {colour} and {number}, "
                "spending 1 “!”.",
                **values,
            )
        return _(
            "{who} marked {boxes} ({where}) with the colour joker as {colour} and {number}, "
            "spending 1 “!”.",
            who=who,
            **values,
        )
    if nf == "?":
        if mine:
            return _(
                "You marked {boxes} ({where}) with {colour} and the number joker as {number}, "
                "spending 1 “!”.",
                **values,
            )
        return _(
            "{who} marked {boxes} ({where}) with {colour} and the number joker as {number}, "
            "spending 1 “!”.",
            who=who,
            **values,
        )
    if mine:
        return _("You marked {boxes} ({where}) with {colour} and {number}.", **values)
    return _("{who} marked {boxes} ({where}) with {colour} and {number}.", who=who, **values)


def marking_advice(move: str, sheet: Sequence[str]) -> str:
    """A marking as advice (the hint's line): what to mark, with which dice.

    >>> faces = ["r"] * 105
    >>> marking_advice("r3 A1 A2 A3", faces)
    'Mark 3 red boxes (A1 A2 A3) with the red colour die and the 3 number die.'
    """
    cf, nf, boxes = parse(move)
    return _(
        "Mark {boxes} ({where}) with the {colour_die} and the {number_die}.",
        boxes=boxes_of(sheet[min(boxes)], len(boxes)),
        where=" ".join(move.split()[1:]),
        colour_die=die_name("colour", cf),
        number_die=die_name("number", nf),
    )


def with_solo_choices(obs: Mapping[str, Any], moves: Sequence[str]) -> dict[str, Any]:
    """A solo observation whose log also names the player's choice after each roll.

    The engine resolves a solo roll at once and logs no choice; ``moves`` are the
    player's moves in order (from the game's record), one per roll.
    """
    if obs["players"] != 1:
        return dict(obs)
    log: list[Mapping[str, Any]] = []
    for entry in obs["log"]:
        log.append(entry)
        roll = entry.get("roll")
        if entry.get("event") == "roll" and isinstance(roll, int) and 0 < roll <= len(moves):
            log.append({"event": "choice", "player": 0, "move": moves[roll - 1]})
    return {**obs, "log": log}


def last_choices(log: Sequence[Mapping[str, Any]]) -> dict[int, str]:
    """Each player's latest choice (a move), kept highlighted until they choose again."""
    return {
        seat: str(entry["move"]) for seat, (_, entry) in ui.last_actions(log, {"choice"}).items()
    }


def dice_view(
    obs: Mapping[str, Any],
    names: Sequence[str],
    you: int | None,
    legal: Sequence[str],
    pencil: Pencil,
) -> Dice:
    """The rolled dice, which are open to whom, and which the person may pick now."""
    dice = obs["dice"]
    phase = obs["phase"]
    active = obs["active"]
    taken: dict[str, int] = {}  # kind -> index of the die the active player took
    move = obs.get("active_move")
    if phase == "others" and move and move != "pass":
        taken["colour"] = list(dice["colour"]).index(move[0])
        taken["number"] = list(dice["number"]).index(move[1])
    marks = _markings(legal)
    out: dict[str, list[Die]] = {"colour": [], "number": []}
    for kind in ("colour", "number"):
        seen: set[str] = set()
        for i, face in enumerate(dice[kind]):
            took = taken.get(kind) == i
            first = face not in seen and not took
            if not took:
                seen.add(face)
            if kind == "colour":
                info = colour_info(face)
                label, symbol = info.name, info.symbol
                other = pencil.number
                usable = any(c == face and (not other or n == other) for c, n, _ in marks)
                picked = pencil.colour == face
            else:
                label, symbol = number_name(face), face
                other = pencil.colour
                usable = any(n == face and (not other or c == other) for c, n, _ in marks)
                picked = pencil.number == face
            out[kind].append(
                Die(
                    kind=kind,
                    face=face,
                    label=label,
                    symbol=symbol,
                    joker=face in "x?",
                    taken_by=names[active] if took else None,
                    # Equal faces are the same choice: only the first one reacts.
                    usable=bool(usable and first and not took),
                    picked=bool(picked and first and not took),
                )
            )
    return Dice(tuple(out["colour"]), tuple(out["number"]), open_text(obs, names, you))


def open_text(obs: Mapping[str, Any], names: Sequence[str], you: int | None) -> str:
    """Which dice are open to whom, in one sentence."""
    phase = obs["phase"]
    active = obs["active"]
    roll = obs["roll"]
    if obs["players"] == 1:
        return _(
            "Roll {roll} of {limit}: take one colour and one number die.",
            roll=roll,
            limit=obs["rolls_limit"],
        )
    if phase == "all":
        return _(
            "Roll {roll}: in the first three rolls all six dice are open to everyone.", roll=roll
        )
    if phase == "active":
        if active == you:
            return _(
                "Roll {roll}: you are the active player and choose first; the others then "
                "choose from the four dice left.",
                roll=roll,
            )
        return _(
            "Roll {roll}: {who} is the active player and chooses first; the others then "
            "choose from the four dice left.",
            roll=roll,
            who=names[active],
        )
    if phase == "others":
        move = obs.get("active_move")
        if move == "pass":
            if active == you:
                return _("You passed: all six dice are open to everyone else.")
            return _("{who} passed: all six dice are open to everyone else.", who=names[active])
        if active == you:
            return _(
                "You took the crossed-out pair; the other four dice are open to everyone else."
            )
        return _(
            "{who} took the crossed-out pair; the other four dice are open to everyone else.",
            who=names[active],
        )
    return ""


def sheet_view(
    obs: Mapping[str, Any],
    seat: int,
    pencil: Pencil | None = None,
    legal: Sequence[str] = (),
) -> Sheet:
    """One player's sheet: cells, column points, "!" boxes, colour bonuses, score.

    With a ``pencil`` (the person's own sheet on their turn) the cells say which
    boxes are pencilled and which ones a legal marking can still use.
    """
    faces = sheet_faces(obs)
    stars = sheet_stars(obs)
    marked = {box_index(b) for b in obs["marks"][seat]}
    last = last_choices(obs["log"]).get(seat)
    last_boxes = parse(last)[2] if last and last != "pass" else frozenset()
    solo = obs["players"] == 1
    pencilled = set(pencil.boxes) if pencil else set()
    targets: set[int] = set()
    if pencil is not None and pencil.colour and pencil.number and legal:
        faces_seq = faces
        for _move, boxes in candidates(legal, pencil, faces_seq):
            if pencilled <= boxes:
                targets |= boxes - pencilled
    writable = pencil is not None and pencil.ready
    cells = tuple(
        Cell(
            *fixed,
            marked=i in marked,
            last=i in last_boxes,
            pencil=i in pencilled,
            target=i in targets,
            free=writable and i not in marked,
        )
        for i, fixed in enumerate(_sheet(str(obs["sheet"]), i18n.language())[2])
    )
    columns = []
    for c, letter in enumerate(COLUMN_LETTERS):
        first, later = COLUMN_POINTS[c]
        done = obs["column_rolls"][seat][c]
        taken = bool(obs["column_first"][c]) and not solo
        got = first if done and (solo or obs["column_first"][c] == done) else later
        columns.append(Column(letter, first, later, taken, bool(done), got if done else 0))
    used = obs["jokers_used"][seat]
    colours = []
    bonuses = bool(obs["bonuses"])
    for k, face in enumerate(COLOURS):
        done = obs["colour_rolls"][seat][k]
        first_roll = obs["colour_first"][k]
        count = sum(1 for i in marked if faces[i] == face)
        first = not solo and first_roll and first_roll != done
        info = colour_info(face)
        colours.append(
            ColourBonus(
                face=face,
                name=info.name,
                symbol=info.symbol,
                marked=count,
                done=bool(done),
                first_taken=bool(first_roll) and not solo,
                points=(COLOUR_BONUS[1] if first else COLOUR_BONUS[0]) if done and bonuses else 0,
            )
        )
    return Sheet(
        seat=seat,
        rows=ROWS,
        cells=cells,
        columns=tuple(columns),
        jokers=tuple(i < used for i in range(JOKERS)),
        jokers_left=JOKERS - used,
        colours=tuple(colours),
        bonuses=bonuses,
        bonus_values=(COLOUR_BONUS[0], COLOUR_BONUS[1]),
        score=dict(obs["scores"][seat]),
        stars_unmarked=sum(1 for i, s in enumerate(stars) if s and i not in marked),
        star_penalty=STAR_PENALTY,
    )


def sheet_key(obs: Mapping[str, Any], seat: int, last: str | None = None) -> str:
    """Everything :func:`sheet_view` reads of ``obs`` for ``seat``'s sheet without a
    pencil, as one string: two observations with the same key give the same sheet (the
    page keeps the others' small sheets drawn by it). ``last``: the seat's latest choice
    (:func:`last_choices`), if the caller has it."""
    if last is None:
        last = last_choices(obs["log"]).get(seat)
    return json.dumps(
        [
            seat,
            str(obs["sheet"]),
            i18n.language(),
            obs["players"],
            obs["marks"][seat],
            last,
            obs["column_rolls"][seat],
            obs["column_first"],
            obs["jokers_used"][seat],
            bool(obs["bonuses"]),
            obs["colour_rolls"][seat],
            obs["colour_first"],
            obs["scores"][seat],
        ],
        sort_keys=True,
    )


def feedback(
    pencil: Pencil,
    legal: Sequence[str],
    sheet: Sequence[str],
    explain: Callable[[str], str],
) -> Feedback:
    """Where the marking stands: what is missing, whether it is complete and legal, and why not.

    ``explain(move)`` is the engine's reason for refusing a move.
    """
    move = pencil.move()
    if not _markings(legal):
        return Feedback(
            "none",
            "",
            _("No die fits your sheet: no legal marking uses the dice open to you. Pass."),
        )
    if not pencil.colour and not pencil.number:
        return Feedback("dice", "", _("Choose a colour die and a number die (or pass)."))
    if not pencil.colour:
        return Feedback("dice", "", _("Choose a colour die (or pass)."))
    if not pencil.number:
        return Feedback("dice", "", _("Choose a number die (or pass)."))
    if pencil.colour == "x" and not pencil.named_colour:
        return Feedback("name", "", _("Say which colour the colour joker is."))
    if pencil.number == "?" and not pencil.named_number:
        return Feedback("name", "", _("Say which number the number joker is."))
    need = pencil.count
    have = len(pencil.boxes)
    wanted = boxes_of(pencil.colour_face, need)
    if not move:
        return Feedback(
            "boxes", "", _("Mark {boxes}: the lit boxes can start a marking.", boxes=wanted)
        )
    if move in legal and have == need:  # a named joker number counts: 1 box named 2 is unfinished
        return Feedback("complete", move, _("Complete and legal: confirm it."))
    fits = any(set(pencil.boxes) <= boxes for _m, boxes in candidates(legal, pencil, sheet))
    if have < need and fits:
        text = ngettext(
            "{have} of {need} marked: {n} more box.",
            "{have} of {need} marked: {n} more boxes.",
            need - have,
            have=have,
            need=need,
        )
        return Feedback("boxes", move, text)
    if have < need:
        return Feedback(
            "illegal",
            move,
            _("No legal marking of {boxes} contains these boxes: take one back.", boxes=wanted),
        )
    reason = explain(move)
    return Feedback("illegal", move, _("Not legal: {reason}.", reason=reason))


def status(
    obs: Mapping[str, Any],
    names: Sequence[str],
    you: int | None,
    actor: int | None,
    todo: str = "",
) -> ui.Status:
    """Whose decision it is and what they must do now (``todo``: the person's next step)."""
    if obs["phase"] == "over":
        return ui.Status("over", _("The game is over."))
    if actor is None:
        return ui.Status("wait", _("Rolling the dice…"))
    roll, limit = obs["roll"], obs["rolls_limit"]
    if actor == you:
        todo = i18n.continued(todo) if todo else _("choose your dice, or pass.")
        if obs["phase"] == "others":
            if limit:
                text = _(
                    "Roll {roll} of {limit}, your choice from the four dice left: {todo}",
                    roll=roll,
                    limit=limit,
                    todo=todo,
                )
            else:
                text = _(
                    "Roll {roll}, your choice from the four dice left: {todo}", roll=roll, todo=todo
                )
        elif limit:
            text = _("Roll {roll} of {limit}, your turn: {todo}", roll=roll, limit=limit, todo=todo)
        else:
            text = _("Roll {roll}, your turn: {todo}", roll=roll, todo=todo)
        return ui.Status("you", text)
    if obs["phase"] in ("all", "others"):
        return ui.Status("bot", _("{who} is choosing (hidden until all have)…", who=names[actor]))
    return ui.Status("bot", _("{who} is choosing first…", who=names[actor]))


def panel(
    obs: Mapping[str, Any], names: Sequence[str], seat: int, you: int | None, actor: int | None
) -> ui.Panel:
    """A player's compact panel: score, turn, last choice (or that they chose), "!" left."""
    faces = sheet_faces(obs)
    last = last_choices(obs["log"]).get(seat)
    if obs["phase"] in ("all", "others") and obs["chosen"][seat]:
        last_text = _("has chosen (shown once everyone has)")
    elif last is None:
        last_text = _("nothing yet")
    elif last == "pass":
        last_text = pgettext("panel", "passed")
    else:
        _cf, _nf, boxes = parse(last)
        last_text = _("marked {boxes}", boxes=boxes_of(faces[min(boxes)], len(boxes)))
    left = JOKERS - obs["jokers_used"][seat]
    return ui.Panel(
        seat=seat,
        name=names[seat],
        score=int(obs["scores"][seat]["total"]),
        turn=actor == seat,
        you=seat == you,
        last=ngettext("{what}; {n} “!” left", "{what}; {n} “!” left", left, what=last_text),
    )


def is_active(obs: Mapping[str, Any], seat: int) -> bool:
    """Whether ``seat`` is the active player of the roll (never in solo)."""
    return bool(obs["active"] == seat and obs["players"] > 1)


def final(obs: Mapping[str, Any], names: Sequence[str]) -> list[ui.FinalScore]:
    """Each player's end-screen breakdown, best first, with ranks (tie-break applied).

    Lines: columns, colour bonuses, unused "!", stars (and the rating band in solo);
    each value carries ``data-part`` (``columns``, ``colours``, ``jokers``, ``stars``).
    """
    n = obs["players"]
    keys = [(obs["scores"][p]["total"], JOKERS - obs["jokers_used"][p]) for p in range(n)]
    rank_of = ui.ranks([t * 100 + j for t, j in keys])
    out = []
    for p in range(n):
        s = sheet_view(obs, p)
        score = obs["scores"][p]
        cols = ", ".join(
            f"{c.letter} {c.points}"
            if c.points == c.first
            else _("{column} {points} (later)", column=c.letter, points=c.points)
            for c in s.columns
            if c.done
        )
        colours = ", ".join(f"{c.symbol} {c.name} {c.points}" for c in s.colours if c.done)
        if not obs["bonuses"]:
            colours = (
                _("{colours} (no bonuses in this game)", colours=colours)
                if colours
                else _("no bonuses in this game")
            )
        stars = int(score["stars"])
        lines = [
            ui.ScoreLine(
                _("Columns:"),
                str(score["columns"]),
                cols or _("none completed"),
                data=(("part", "columns"),),
            ),
            ui.ScoreLine(
                _("Colour bonuses:"),
                str(score["colours"]),
                colours or _("none completed"),
                data=(("part", "colours"),),
            ),
            ui.ScoreLine(_("Unused “!”:"), str(score["jokers"]), data=(("part", "jokers"),)),
            ui.ScoreLine(
                _("Stars:"),
                str(stars),
                ngettext("{n} unmarked × −2", "{n} unmarked × −2", s.stars_unmarked),
                kind="minus" if stars else "",
                data=(("part", "stars"),),
            ),
        ]
        if n == 1:
            band = _(str(obs.get("solo_band") or _band(int(score["total"]))))
            lines.append(
                ui.ScoreLine(_("Solo rating:"), band, kind="band", data=(("role", "band"),))
            )
        out.append(ui.FinalScore(p, names[p], rank_of[p], int(score["total"]), tuple(lines)))
    out.sort(key=lambda f: (f.rank, f.seat))
    return out


def end_screen(
    obs: Mapping[str, Any], names: Sequence[str], you: int | None, winners: Sequence[int]
) -> ui.EndScreen:
    """The end screen from the final observation (solo: the score and its rating band)."""
    players = final(obs, names)
    if obs["players"] == 1:
        total = players[0].total
        head = _(
            "Your score: {points}, rating band {band}.",
            points=ui.points(total),
            band=_(str(obs["solo_band"])),
        )
        return ui.EndScreen(head, _("Solo: the rating band of your score."), tuple(players))
    rules = _(TIE_RULE) if ui.tied([p.total for p in players]) else ""
    return ui.EndScreen(ui.headline(winners, names, you), rules, tuple(players))


def _band(score: int) -> str:
    return next(name for lo, hi, name in SOLO_BANDS if lo <= score <= hi)


def log(obs: Mapping[str, Any], names: Sequence[str], you: int | None = None) -> list[str]:
    """The log's sentences, newest first, built now (in the language spoken now)."""
    faces = sheet_faces(obs)
    return ui.log_lines(obs["log"], lambda e: describe(e, names, faces, you))


SHEET_NAMES = {"harbour": N_("Harbour"), "orchard": N_("Orchard")}
"""The standard sheets' names, as players read them."""


def sheet_label(option: str) -> str:
    """The sheet in words: ``Harbour``, ``Random sheet #123``, ``Sheet from a file``."""
    if option.startswith("random:"):
        return _("Random sheet #{seed}", seed=option.removeprefix("random:"))
    if "/" in option or len(option) > 40:
        return _("Sheet from a file")
    return _(SHEET_NAMES[option]) if option in SHEET_NAMES else option.capitalize()


# -- the sheet option (declared in optimus.games) -----------------------------------
RANDOM_SHEETS = 100_000
"""Random sheets are numbered below this (``random:N``)."""


def sheet_choices() -> tuple[str, ...]:
    """The sheets the set-up form offers: the standard ones and a new random one (the
    page adds the random sheets played lately)."""
    return (*STANDARD_SHEETS, "random")


def sheet_choice_label(option: str) -> str:
    """A sheet as the set-up form offers it.

    >>> sheet_choice_label("harbour"), sheet_choice_label("random:12")
    ('Harbour (standard)', 'Random sheet #12 again')
    """
    if option == "random":
        return _("Random sheet (a new one)")
    if option.startswith("random:"):
        return _("Random sheet #{seed} again", seed=option.removeprefix("random:"))
    return _("{sheet} (standard)", sheet=sheet_label(option))


def link_sheet(text: str) -> str | None:
    """The sheet a link names: one of the standard sheets, or ``random:N`` (N < 100000).

    >>> link_sheet("orchard"), link_sheet("random:4411"), link_sheet("../etc/passwd")
    ('orchard', 'random:4411', None)
    >>> link_sheet("random:²"), link_sheet("random:123456")
    (None, None)
    """
    if text in STANDARD_SHEETS:
        return text
    number = whole_number(text.removeprefix("random:"), 5) if text.startswith("random:") else None
    return None if number is None else f"random:{number}"


def daily_options(seed: int) -> dict[str, str]:
    """The daily challenge's options: the day's random sheet.

    >>> daily_options(123_456)
    {'sheet': 'random:23456'}
    """
    return {"sheet": f"random:{seed % RANDOM_SHEETS}"}


def symbols() -> list[ui.Symbol]:
    """Every symbol of an Optimus table and what it means, in the language spoken (the
    game bar's "Symbols"); ``piece`` names what the page draws: ``c-<face>`` a box of
    that colour, ``die-x``/``die-?`` a joker die, else the glyph as it is drawn.

    >>> [s.glyph for s in symbols()][:7]
    ['▲', '●', '■', '♥', '✚', 'X', '?']
    """
    colours = [
        ui.Symbol(
            SYMBOLS[f], _("A box or die of the colour {colour}", colour=colour_name(f)), f"c-{f}"
        )
        for f in "gybro"
    ]
    return [
        *colours,
        ui.Symbol(
            "X",
            _("Colour joker: a die that stands for the colour you name; costs one “!”"),
            "die-x",
        ),
        ui.Symbol(
            "?",
            _("Number joker: a die that stands for the number you name (1 to 5); costs one “!”"),
            "die-?",
        ),
        ui.Symbol("★", _("Star: 2 points off at the end unless you marked the box"), "star"),
        ui.Symbol(
            "!",
            _("“!”: 8 each; a joker uses one, and each one left scores 1 point at the end"),
            "bang",
        ),
        ui.Symbol(
            "H",
            _("Column H, the start column: every marking touches it or a box you marked before"),
            "start",
        ),
        ui.Symbol(
            "5 3",
            _(
                "A column's points, above its letter: the first value to whoever completes it "
                "first, the later value to the others; a struck-out value was taken"
            ),
            "column",
        ),
        ui.Symbol(
            "12/21 · 5/3",
            _(
                "A colour's bonus: its boxes you marked, of 21; completing them scores the "
                "first value, or the later one once another player has"
            ),
            "bonus",
        ),
    ]


RULES: tuple[str, ...] = (
    N_(
        "The active player rolls three colour dice and three number dice. They take one colour "
        "die and one number die — or pass. Then every other player takes one colour and one "
        "number die from the *four dice left* (all six if the active player passed); no "
        "one sees the others' choice until all have chosen. In the first three rolls everyone "
        "chooses from all six dice."
    ),
    N_(
        "To mark: click a colour die and a number die (for a joker, say which colour or number "
        "it is). Boxes where a legal marking can go light up. Click boxes to pencil them (click "
        "again to rub one out), or drag across them; “Undo” in the game bar takes back the "
        "last step. Then *Confirm*, or *Pass*."
    ),
    N_(
        "A marking is exactly as many boxes as the number, all of the chosen colour, in one "
        "block of that colour, joined side by side. At least one box must be in column H or "
        "next to a box you marked before."
    ),
    N_(
        "Each joker (X colour, ? number) costs one of your 8 “!”; with none left you cannot use "
        "jokers."
    ),
    N_(
        "Completing a column scores its first value if no one completed it in an earlier roll "
        "(ties in the same roll all score first), else the later value. Completing all 21 boxes "
        "of a colour scores 5 first, 3 later (if colour bonuses are on)."
    ),
    N_(
        "The game ends after the roll in which someone completes a second colour. Score: "
        "columns + colour bonuses + 1 per unused “!” − 2 per unmarked star. Ties: most unused "
        "“!”."
    ),
    N_(
        "Solo: 2 colour and 2 number dice, 30 rolls, always the first values; your score gives "
        "a rating band."
    ),
    N_(
        "Colours carry symbols: ▲ green, ● yellow, ■ blue, ♥ red, ✚ orange; X is the colour "
        "joker, ? the number joker."
    ),
)
"""The rules drawer's points (plain text, ``*word*`` for emphasis: the drawer makes it
bold), in order."""
