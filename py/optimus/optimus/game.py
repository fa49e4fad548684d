"""Optimus: the rules engine (state, moves, chance, observations, scoring).

A roll: the six dice are rolled one by one (each a chance event: a colour
die shows ``g y b r o`` or ``x``, the joker; a number die ``1``-``5`` or
``?``, the joker). In the first three rolls every player chooses at the same
time from all six dice (simultaneous actors). Later the active player
chooses first, in the open; then every other player chooses at the same time
from the four dice left (all six if the active player passed), and no one
sees another's pending choice. When all have chosen, the marks are made, and
columns and colours completed in that roll are scored.

Moves are text:

* ``pass`` -- mark nothing;
* ``DICE BOXES`` -- ``DICE`` is the colour die's face and the number die's
  face (``g3``, ``x?``...); ``BOXES`` are the boxes to mark in reading order
  (``H3 G4 H4``). A joker's colour or number is the one the boxes show.

:meth:`OptimusState.legal_moves` lists every legal move, each set of boxes
once per pair of dice faces.

>>> from optimus.core.record import Match
>>> m = Match(OptimusGame(), {"players": 2}, seed=1)
>>> m.state.phase, m.state.actors()
('all', (0, 1))
>>> "pass" in m.state.legal_moves(0)
True
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from optimus.core.jsontext import whole_number
from optimus.core.protocol import JSON, Game, GameError, OptionError, State
from optimus.i18n import N_, _, ngettext
from optimus.optimus.generate import generate_sheet
from optimus.optimus.sheet import (
    BOXES,
    COLOUR_NAMES,
    COLOURS,
    COLS,
    COLUMN_LETTERS,
    COLUMN_MASKS,
    COLUMN_POINTS,
    NUM_COLOURS,
    ROWS,
    STANDARD_SHEETS,
    START_MASK,
    Layout,
    Sheet,
    SheetError,
    bits,
    box_index,
    box_name,
    eligible_of,
    is_connected,
    layout_of,
    neighbours_mask,
    parse_sheet,
    standard_sheet,
)
from optimus.optimus.words import box_colour

if TYPE_CHECKING:
    pass

COLOUR_FACES = "gybrox"
NUMBER_FACES = "12345?"
JOKERS = 8
"""The "!" boxes of a sheet (published count)."""
COLOUR_BONUS = (5, 3)
"""Completing a colour: first, later (published)."""
OPEN_ROLLS = 3
"""The first rolls in which everyone chooses from all six dice."""
SOLO_ROLLS = 30
MAX_ROLLS = 200
"""Decision: a game also ends after this roll (only endless passing gets there)."""
STAR_PENALTY = 2
LOG_LIMIT = 40
SOLO_BANDS: tuple[tuple[int, int, str], ...] = (
    (-(10**9), -1, N_("below 0")),
    (0, 0, "0"),
    (1, 4, "1-4"),
    (5, 8, "5-8"),
    (9, 12, "9-12"),
    (13, 16, "13-16"),
    (17, 20, "17-20"),
    (21, 24, "21-24"),
    (25, 28, "25-28"),
    (29, 32, "29-32"),
    (33, 36, "33-36"),
    (37, 40, "37-40"),
    (41, 10**9, N_("above 40")),
)
"""The solo rating bands by score (published)."""


def solo_band(score: int) -> str:
    """The solo rating band of a score.

    >>> solo_band(-3), solo_band(0), solo_band(26), solo_band(41)
    ('below 0', '0', '25-28', 'above 40')
    """
    return next(name for lo, hi, name in SOLO_BANDS if lo <= score <= hi)


@functools.lru_cache(maxsize=1 << 16)
def boxes_text(mask: int) -> str:
    """Box names of ``mask`` in reading order: ``'H3 G4 H4'``."""
    return " ".join(box_name(i) for i in bits(mask))


@functools.lru_cache(maxsize=1 << 16)
def parse_move(move: str) -> tuple[str, str, int]:
    """``(colour face, number face, box mask)`` of a marking move (fast, unchecked)."""
    parts = move.split()
    mask = 0
    for name in parts[1:]:
        mask |= 1 << box_index(name)
    return parts[0][0], parts[0][1], mask


FACE_COLOURS = {f: (range(NUM_COLOURS) if f == "x" else (COLOURS.index(f),)) for f in COLOUR_FACES}
"""The colours a colour face lets a player name (the joker: any)."""
FACE_NUMBERS = {f: (range(1, 6) if f == "?" else (int(f),)) for f in NUMBER_FACES}
"""The numbers a number face lets a player name (the joker: any)."""


def joker_cost(colour_face: str, number_face: str) -> int:
    return (colour_face == "x") + (number_face == "?")


def markings(layout: Layout, marks: int, colour: int, number: int) -> list[int]:
    """Every legal set of ``number`` new boxes of ``colour`` for a sheet with ``marks``.

    One block, one orthogonally connected group of unmarked boxes, at least one
    of them in column H or next to a marked box. Each set appears once.
    """
    return [s for s, _ in marking_choices(layout, marks, colour, number)]


def marking_choices(layout: Layout, marks: int, colour: int, number: int) -> list[tuple[int, str]]:
    """:func:`markings` with the text of each set."""
    eligible = eligible_of(marks)
    free = ~marks
    out: list[tuple[int, str]] = []
    blocks = layout.blocks
    for b in layout.blocks_by_colour[colour]:
        if number < len(layout.connected[b]) and blocks[b][1] & eligible:
            out.extend(layout.choices(b, free, eligible)[number])
    return out


SHEET_FORMS = (
    f"a sheet is a standard sheet's name ({', '.join(STANDARD_SHEETS)}), "  # not shown
    "random:SEED or "  # not shown
    f"a sheet's text ({ROWS} rows of {COLS} letters joined by /), never a file"  # not shown
)
"""What a ``sheet`` option may be, for error messages."""


def is_sheet_value(value: str) -> bool:
    """True if ``value`` is a ``sheet`` option as it is: a standard name,
    ``random:...`` or a whole sheet's text (the command line reads anything
    else as the path of a sheet file; the rules never do).

    >>> is_sheet_value("harbour"), is_sheet_value("random:7"), is_sheet_value("/dev/tty")
    (True, True, False)
    """
    value = value.strip()
    if value in STANDARD_SHEETS or value.startswith("random:"):
        return True
    letters = value.replace("/", "").replace("\n", "").replace(" ", "")
    return ("/" in value or "\n" in value) and len(letters) == BOXES and letters.isalpha()


def sheet_from_command_line(value: str) -> str:
    """An Optimus ``sheet`` option from the command line, a sheet file read.

    A standard name, ``random:SEED`` or a sheet's text is passed on as it is;
    anything else names a sheet file the user chose, and its text is passed on
    (the rules never open a file: a sheet option is data).
    """
    if is_sheet_value(value):
        return value
    try:
        with open(value, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise GameError(  # not shown (the command line's)
            f"cannot read sheet file {value!r} ({exc.__class__.__name__}: "
            f"{getattr(exc, 'strerror', None) or exc}); a sheet is a standard name, "
            "random:SEED, a sheet's text or a sheet file"
        ) from None


@functools.lru_cache(maxsize=256)
def resolve_sheet(option: str) -> tuple[str, Sheet]:
    """``(canonical option, sheet)`` for a ``sheet`` option value.

    A standard sheet's name, ``random:SEED`` or a sheet's text (rows joined by
    ``/`` or new lines). The option is data, never a path: nothing is read
    from a file here (the command line reads a file its user names and passes
    its text).
    """
    value = option.strip()
    if value in STANDARD_SHEETS:
        return value, standard_sheet(value)
    if value.startswith("random:"):
        seed_text = value.removeprefix("random:").strip()
        seed = whole_number(seed_text, 18)
        if seed is None:
            shown_seed = seed_text if len(seed_text) <= 40 else seed_text[:40] + "…"
            wants = f"random:SEED wants a whole number, not {shown_seed!r}"  # not shown
            raise OptionError(wants)
        return f"random:{seed}", generate_sheet(seed)
    shown = value if len(value) <= 40 else value[:40] + "…"
    letters = "".join(value.replace("/", " ").split())
    if not ("/" in value or "\n" in value) or not letters.isalpha():
        raise OptionError(f"sheet {shown!r} is not a sheet: {SHEET_FORMS}")  # not shown
    try:
        sheet = parse_sheet(value)
    except SheetError as exc:
        problem = f"sheet {shown!r} is not a valid sheet's text: {exc}"  # not shown
        raise OptionError(f"{problem}; {SHEET_FORMS}") from None
    return sheet.compact(), sheet


class OptimusState(State):
    """One position of Optimus. Marks are box bit masks, one per player.

    ``phase``: ``roll`` (chance: the next die), ``all`` (first three rolls:
    everyone chooses at once), ``active`` (the active player chooses),
    ``others`` (the others choose at once) or ``over``.
    """

    def __init__(self, players: int, sheet: Sheet, sheet_option: str, bonuses: bool) -> None:
        self.num_players = players
        self.sheet = sheet
        self.layout = layout_of(sheet)
        self.sheet_option = sheet_option
        self.bonuses = bonuses
        self.solo = players == 1
        self.dice_count = 2 if self.solo else 3
        self.marks = [0] * players
        self.jokers_used = [0] * players
        self.roll = 0
        """Rolls started so far (the current roll's number, from 1)."""
        self.active = 0
        self.dice_c: list[str] = []
        self.dice_n: list[str] = []
        self.phase = "roll"
        self.active_move: str | None = None
        self.pending: dict[int, str] = {}
        self.column_roll = [[0] * len(COLUMN_MASKS) for _ in range(players)]
        """Roll in which each player completed each column (0: not yet)."""
        self.column_first = [0] * len(COLUMN_MASKS)
        """Roll in which anyone first completed each column (0: not yet)."""
        self.colour_roll = [[0] * NUM_COLOURS for _ in range(players)]
        self.colour_first = [0] * NUM_COLOURS
        self.log: list[dict[str, JSON]] = []
        self._legal: dict[int, list[str]] = {}
        self._actors: tuple[int, ...] | None = None
        self._start_roll()

    # -- helpers -------------------------------------------------------------
    def _start_roll(self) -> None:
        self.roll += 1
        self.active = (self.roll - 1) % self.num_players
        self.dice_c, self.dice_n = [], []
        self.phase = "roll"
        self.active_move = None
        self.pending = {}

    def _log(self, entry: dict[str, JSON]) -> None:
        self.log.append(entry)
        if len(self.log) > LOG_LIMIT:
            del self.log[0]

    def open_dice(self, player: int) -> tuple[list[str], list[str]]:
        """The colour and number dice ``player`` may choose from now."""
        move = self.active_move
        if player != self.active and self.phase == "others" and move and move != "pass":
            c, n = list(self.dice_c), list(self.dice_n)
            c.remove(move[0])
            n.remove(move[1])
            return c, n
        return self.dice_c, self.dice_n

    def jokers_left(self, player: int) -> int:
        return JOKERS - self.jokers_used[player]

    def colours_done(self, player: int) -> int:
        return sum(1 for r in self.colour_roll[player] if r)

    # -- protocol: whose decision ------------------------------------------
    def actors(self) -> tuple[int, ...]:
        found = self._actors
        if found is None:
            found = self._actors = self._find_actors()
        return found

    def _find_actors(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == "active":
            return (self.active,)
        if phase == "all":
            return tuple(p for p in range(self.num_players) if p not in self.pending)
        if phase == "others":
            return tuple(
                p for p in range(self.num_players) if p != self.active and p not in self.pending
            )
        return ()

    def is_chance(self) -> bool:
        return self.phase == "roll"

    def is_terminal(self) -> bool:
        return self.phase == "over"

    # -- chance -------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[str, int]]:
        if self.phase != "roll":
            raise ValueError(f"no chance event in phase {self.phase!r}")
        faces = COLOUR_FACES if len(self.dice_c) < self.dice_count else NUMBER_FACES
        return [(f, 1) for f in faces]

    def apply_chance(self, outcome: str) -> None:
        self._legal = {}
        self._actors = None
        if len(self.dice_c) < self.dice_count:
            self.dice_c.append(outcome)
            return
        self.dice_n.append(outcome)
        if len(self.dice_n) < self.dice_count:
            return
        self._log(
            {
                "event": "roll",
                "roll": self.roll,
                "active": self.active,
                "dice": "".join(self.dice_c) + " " + "".join(self.dice_n),
            }
        )
        open_roll = not self.solo and self.roll <= OPEN_ROLLS
        self.phase = "all" if open_roll else "active"

    # -- moves --------------------------------------------------------------
    def legal_moves(self, player: int) -> list[str]:
        cached = self._legal.get(player)
        if cached is not None:
            return cached
        if player not in self.actors():
            return []
        moves = ["pass"]
        dice_c, dice_n = self.open_dice(player)
        left = self.jokers_left(player)
        marks = self.marks[player]
        layout = self.layout
        blocks = layout.blocks
        eligible = eligible_of(marks)
        free = ~marks
        per_colour: dict[int, list[list[list[tuple[int, str]]]]] = {}
        for cf in COLOUR_FACES:
            if cf not in dice_c:
                continue
            for nf in NUMBER_FACES:
                if nf not in dice_n or joker_cost(cf, nf) > left:
                    continue
                prefix = cf + nf + " "
                colours = FACE_COLOURS[cf]
                numbers = FACE_NUMBERS[nf]
                for k in colours:
                    lists = per_colour.get(k)
                    if lists is None:
                        lists = per_colour[k] = [
                            layout.choices(b, free, eligible)
                            for b in layout.blocks_by_colour[k]
                            if blocks[b][1] & eligible
                        ]
                    for n in numbers:
                        for by_size in lists:
                            if n < len(by_size):
                                moves.extend([prefix + t for _, t in by_size[n]])
        self._legal[player] = moves
        return moves

    def apply_move(self, player: int, move: str) -> None:
        self._legal = {}
        self._actors = None
        if self.phase == "active":
            self.active_move = move
            if self.solo:
                self._resolve()
            else:
                self.phase = "others"
                self._log({"event": "choice", "player": player, "move": move})
            return
        self.pending[player] = move
        waiting = self.num_players if self.phase == "all" else self.num_players - 1
        if len(self.pending) == waiting:
            self._resolve()

    def _resolve(self) -> None:
        """Make every chosen mark, score completions, end the game or start the next roll."""
        chosen = dict(self.pending)
        if self.active_move is not None:
            chosen[self.active] = self.active_move
        roll = self.roll
        layout = self.layout
        for p in sorted(chosen):
            move = chosen[p]
            if p != self.active or self.phase == "all":
                self._log({"event": "choice", "player": p, "move": move})
            if move == "pass":
                continue
            cf, nf, mask = parse_move(move)
            marks = self.marks[p] | mask
            self.marks[p] = marks
            self.jokers_used[p] += joker_cost(cf, nf)
            # only the columns and the colour of the new marks can be completed now
            done = self.column_roll[p]
            for c in {i % COLS for i in bits(mask)}:
                cm = COLUMN_MASKS[c]
                if cm & marks == cm and not done[c]:
                    done[c] = roll
                    if not self.column_first[c] or self.column_first[c] == roll:
                        self.column_first[c] = roll
                    self._log({"event": "column", "player": p, "column": COLUMN_LETTERS[c]})
            k = self.sheet.colours[(mask & -mask).bit_length() - 1]
            km = layout.colour_masks[k]
            if km & marks == km and not self.colour_roll[p][k]:
                self.colour_roll[p][k] = roll
                if not self.colour_first[k] or self.colour_first[k] == roll:
                    self.colour_first[k] = roll
                self._log({"event": "colour", "player": p, "colour": COLOUR_NAMES[k]})
        if self.solo:
            over = roll >= SOLO_ROLLS
        else:
            over = roll >= MAX_ROLLS or any(
                self.colours_done(p) >= 2 for p in range(self.num_players)
            )
        if over:
            self.phase = "over"
            self.pending = {}
            self._log({"event": "end", "scores": [int(s) for s in self.scores()]})
            return
        self._start_roll()

    def explain_illegal(self, player: int, move: str) -> str:
        """A player-facing reason why ``move`` is not legal for ``player`` now, in the
        player's language."""
        reason = self.common_refusal(player, _("the dice are being rolled"))
        if reason:
            return reason
        if player not in self.actors():
            if player in self.pending or (player == self.active and self.phase == "others"):
                return _("you have already chosen in this roll")
            return _("wait: the active player (player {player}) chooses first", player=self.active)
        words = move.split()
        if not words or len(words[0]) != 2:
            return _(
                "unknown move: moves are 'pass' or two dice faces then the boxes, "
                "e.g. 'g3 H3 H4 H5'"
            )
        cf, nf = words[0][0].lower(), words[0][1]
        if cf not in COLOUR_FACES or nf not in NUMBER_FACES:
            return _(
                "unknown dice {dice}: moves are 'pass' or two dice faces then the boxes, "
                "e.g. 'g3 H3 H4 H5'",
                dice=repr(words[0]),
            )
        dice_c, dice_n = self.open_dice(player)
        shown = {"colours": " ".join(dice_c), "numbers": " ".join(dice_n)}
        taken = dice_c is not self.dice_c
        if cf not in dice_c:
            if taken:
                return _(
                    "no colour die shows {face}: the dice open to you are {colours} and "
                    "{numbers} (the active player took the others)",
                    face=repr(cf),
                    **shown,
                )
            return _(
                "no colour die shows {face}: the dice open to you are {colours} and {numbers}",
                face=repr(cf),
                **shown,
            )
        if nf not in dice_n:
            if taken:
                return _(
                    "no number die shows {face}: the dice open to you are {colours} and "
                    "{numbers} (the active player took the others)",
                    face=repr(nf),
                    **shown,
                )
            return _(
                "no number die shows {face}: the dice open to you are {colours} and {numbers}",
                face=repr(nf),
                **shown,
            )
        cost, left = joker_cost(cf, nf), self.jokers_left(player)
        if cost > left:
            if cost > 1:
                return _("the jokers would cost 2 '!' and you have {left}", left=left)
            return _("the joker would cost 1 '!' and you have {left}", left=left)
        try:
            boxes = [box_index(w) for w in words[1:]]
        except ValueError as exc:
            return str(exc)
        return self._explain_boxes(player, cf, nf, boxes, move)

    def _explain_boxes(self, player: int, cf: str, nf: str, boxes: list[int], move: str) -> str:
        if len(set(boxes)) != len(boxes):
            return _("a box is listed twice")
        colours = self.sheet.colours
        if nf != "?" and len(boxes) != int(nf):
            return ngettext(
                "the {n} die means exactly {n} box, not {count}",
                "the {n} die means exactly {n} boxes, not {count}",
                int(nf),
                count=len(boxes),
            )
        if not 1 <= len(boxes) <= 5:
            return _(
                "mark 1 to 5 boxes (the number you name for the joker), not {count}",
                count=len(boxes),
            )
        marks = self.marks[player]
        for i in boxes:
            if marks >> i & 1:
                return _("{box} is already marked", box=box_name(i))
        kinds = {colours[i] for i in boxes}
        if cf != "x" and kinds != {COLOURS.index(cf)}:
            wrong = next(i for i in boxes if colours[i] != COLOURS.index(cf))
            return _(
                "{box} is {colour}, not {named}",
                box=box_name(wrong),
                colour=box_colour(COLOURS[colours[wrong]]),
                named=box_colour(cf),
            )
        if len(kinds) > 1:
            return _("all boxes must be of the one colour you name for the joker")
        block = {self.layout.block_of[i] for i in boxes}
        if len(block) > 1:
            return _("the boxes must all lie in one block (touching boxes of that colour)")
        mask = sum(1 << i for i in boxes)
        if not is_connected(mask):
            return _(
                "the new marks must form one group joined side by side "
                "(no diagonals; boxes marked earlier do not join them)"
            )
        if not mask & (START_MASK | neighbours_mask(marks)):
            return _("at least one box must be in column H or next to a box you marked before")
        canonical = f"{cf}{nf} {boxes_text(mask)}"
        if canonical != move and canonical in self.legal_moves(player):
            return _("write the boxes in reading order: {move}", move=repr(canonical))
        return super().explain_illegal(player, move)

    # -- scoring --------------------------------------------------------------
    def breakdown(self, player: int) -> dict[str, int]:
        """Column points, colour bonuses, unused "!", star penalty and the total."""
        columns = 0
        for c, r in enumerate(self.column_roll[player]):
            if r:
                first = self.solo or self.column_first[c] == r
                columns += COLUMN_POINTS[c][0 if first else 1]
        bonus = 0
        if self.bonuses:
            for k, r in enumerate(self.colour_roll[player]):
                if r:
                    bonus += COLOUR_BONUS[0 if self.solo or self.colour_first[k] == r else 1]
        jokers = self.jokers_left(player)
        unmarked = (self.layout.star_mask & ~self.marks[player]).bit_count()
        stars = -STAR_PENALTY * unmarked
        return {
            "columns": columns,
            "colours": bonus,
            "jokers": jokers,
            "stars": stars,
            "total": columns + bonus + jokers + stars,
        }

    def scores(self) -> list[float]:
        return [float(self.breakdown(p)["total"]) for p in range(self.num_players)]

    def ranking_keys(self) -> list[tuple[float, ...]]:
        """Score, then most unused "!" (published); then a shared victory."""
        return [
            (float(self.breakdown(p)["total"]), float(self.jokers_left(p)))
            for p in range(self.num_players)
        ]

    # -- views --------------------------------------------------------------
    def observation(self, player: int | None) -> dict[str, JSON]:
        """Everything is public except the others' pending choices (and future rolls)."""
        n = self.num_players
        breakdowns = [self.breakdown(p) for p in range(n)]
        obs: dict[str, JSON] = {
            "game": "optimus",
            "you": player,
            "players": n,
            "sheet": self.sheet.compact(),
            "sheet_option": self.sheet_option,
            "bonuses": self.bonuses,
            "phase": self.phase,
            "roll": self.roll,
            "rolls_limit": SOLO_ROLLS if self.solo else None,
            "active": self.active,
            "dice": {"colour": list(self.dice_c), "number": list(self.dice_n)},
            "active_move": self.active_move if self.phase == "others" else None,
            "chosen": [p in self.pending for p in range(n)],
            "marks": [boxes_text(m).split() if m else [] for m in self.marks],
            "jokers_used": list(self.jokers_used),
            "column_rolls": [list(r) for r in self.column_roll],
            "column_first": list(self.column_first),
            "colour_rolls": [list(r) for r in self.colour_roll],
            "colour_first": list(self.colour_first),
            "scores": breakdowns,
            "log": list(self.log),
        }
        if player is not None and self.phase in ("all", "active", "others"):
            c, nums = self.open_dice(player)
            obs["open_dice"] = {"colour": list(c), "number": list(nums)}
        if self.phase == "over" and self.solo:
            obs["solo_band"] = solo_band(breakdowns[0]["total"])
        return obs

    def clone(self) -> OptimusState:
        c = OptimusState.__new__(OptimusState)
        c.__dict__.update(self.__dict__)
        c.marks = list(self.marks)
        c.jokers_used = list(self.jokers_used)
        c.dice_c = list(self.dice_c)
        c.dice_n = list(self.dice_n)
        c.pending = dict(self.pending)
        c.column_roll = [list(r) for r in self.column_roll]
        c.column_first = list(self.column_first)
        c.colour_roll = [list(r) for r in self.colour_roll]
        c.colour_first = list(self.colour_first)
        c.log = list(self.log)
        c._legal = {}
        c._actors = None
        return c


def check_state(state: State) -> None:
    """Invariants of any Optimus state (used by the conformance tests)."""
    assert isinstance(state, OptimusState)
    assert len(state.dice_c) <= state.dice_count and len(state.dice_n) <= state.dice_count
    if state.dice_c and state.phase != "over":
        return  # marks change only when a roll is resolved: check once per roll
    for p in range(state.num_players):
        assert 0 <= state.jokers_used[p] <= JOKERS, "more '!' used than the sheet has"
        for c, cm in enumerate(COLUMN_MASKS):
            done = state.marks[p] & cm == cm
            assert done == bool(state.column_roll[p][c]), "column record"
            if state.column_roll[p][c]:
                assert 0 < state.column_first[c] <= state.column_roll[p][c], "first column roll"


class OptimusGame(Game, described="optimus"):
    """Optimus's rules (optimus.games describes it); options ``sheet`` and ``bonuses``."""

    bots: ClassVar[str] = "optimus.optimus.bots"

    def normalize_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """As the core does, and the sheet resolved (a standard or random name, or a text)."""
        out = super().normalize_options(options)
        if not isinstance(out["sheet"], str):
            raise OptionError(f"option 'sheet' must be text, not {out['sheet']!r}")  # not shown
        try:
            out["sheet"] = resolve_sheet(out["sheet"])[0]
        except SheetError as exc:
            raise OptionError(str(exc)) from None
        return out

    def new_state(self, options: Mapping[str, JSON]) -> OptimusState:
        opts = self.normalize_options(options)
        option, sheet = resolve_sheet(opts["sheet"])
        return OptimusState(opts["players"], sheet, option, bool(opts["bonuses"]))

    def rebuild(self, observation: Mapping[str, JSON]) -> OptimusState:
        """The state behind an observation (others' pending choices: not yet made)."""
        return state_from_observation(observation)


def state_from_observation(obs: Mapping[str, Any]) -> OptimusState:
    """Rebuild a full state from any seat's (or a spectator's) observation.

    Exact except for the other players' pending choices in a simultaneous
    phase: in the rebuilt state they have not chosen yet.
    """
    sheet = resolve_sheet(obs["sheet"])[1]
    s = OptimusState(int(obs["players"]), sheet, str(obs["sheet_option"]), bool(obs["bonuses"]))
    s.phase = obs["phase"]
    s.roll = int(obs["roll"])
    s.active = int(obs["active"])
    s.dice_c = list(obs["dice"]["colour"])
    s.dice_n = list(obs["dice"]["number"])
    s.active_move = obs["active_move"]
    s.marks = [sum(1 << box_index(b) for b in m) for m in obs["marks"]]
    s.jokers_used = [int(x) for x in obs["jokers_used"]]
    s.column_roll = [[int(x) for x in r] for r in obs["column_rolls"]]
    s.column_first = [int(x) for x in obs["column_first"]]
    s.colour_roll = [[int(x) for x in r] for r in obs["colour_rolls"]]
    s.colour_first = [int(x) for x in obs["colour_first"]]
    s.log = [dict(e) for e in obs["log"]]
    s._actors = None
    s._legal = {}
    return s


__all__ = [
    "OptimusGame",
    "OptimusState",
    "check_state",
    "is_sheet_value",
    "markings",
    "resolve_sheet",
    "solo_band",
    "state_from_observation",
]
