"""Optimus 2: the rules engine (turns, dice, bonuses, simultaneous passive picks).

Every die roll is a chance event: the runner rolls the dice to be rolled one
after the other, in die order (outcome ``"1"`` .. ``"6"``). In a game of 2-4
players the first player is chance too (``"first P"``).

Phases: ``first`` and ``roll`` (chance); ``choose`` (the active player uses a
rolled die, passes, or rerolls), ``preroll`` (before a roll, with a return
action: bring tray dice back, then ``roll``), ``task`` (the active player
answers a bonus or chain question), ``extra`` (the active player's extra dice
after the turn); ``simul`` (passive picks, or a round-track "?" for everyone:
every player involved acts at once, on a private copy that no other
observation shows until all are done); ``over``.

>>> from optimus.core.record import Match
>>> m = Match(Optimus2Game(), {"players": 1}, seed=3)
>>> m.state.phase, m.state.round, m.state.actors()
('choose', 1, (0,))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from optimus.core.protocol import JSON, EqualOutcomes, Game, GameError, OptionError, State
from optimus.i18n import _, names, ngettext
from optimus.optimus2.moves import DieTable, MoveTable, Place, move_table, unpack
from optimus.optimus2.sheet import (
    ACTIONS,
    AREAS,
    BLUE,
    DICE,
    GREEN,
    PINK,
    Q_BLUE,
    Q_GREEN,
    Q_PINK,
    Q_SILVER,
    Q_TASK,
    Q_YELLOW,
    SILVER,
    WHITE,
    YELLOW,
    SheetDef,
    SheetError,
    Task,
    area_scores,
    enter_blue,
    enter_green,
    enter_pink,
    enter_silver,
    enter_yellow,
    gain,
    load_sheet,
    silver_rows_open,
    yellow_targets,
)
from optimus.optimus2.words import die_word, row_word, task_reason

if TYPE_CHECKING:
    pass

T = TypeVar("T")
HAND, FIELD, TRAY = 0, 1, 2
ALL_AREAS = (1, 2, 3, 4, 5)
AREA_OF = ((), (1,), (2,), (3,), (4,), (5,))
"""The area a coloured die enters (white: any of :data:`ALL_AREAS`)."""
PLACES = ("hand", "field", "tray")
ROLL_OUTCOMES = EqualOutcomes(str(v) for v in range(1, 7))
FACE = {str(v): v for v in range(1, 7)}
LOG_LIMIT = 40
ACTIVE_PHASES = ("choose", "preroll", "task", "extra")
TASK_KINDS = {"Y": "yellow", "S": "silver", "B": "blue", "G": "green", "P": "pink", "A": "any"}
ANY_CHOICES = (Q_YELLOW, Q_BLUE, Q_GREEN, Q_PINK, Q_SILVER)
"""The "?" bonuses a "?" of any colour may become."""


class Optimus2State(State):
    """One position: flat int lists per player sheet, cheap to clone."""

    def __init__(self, players: int, sd: SheetDef) -> None:
        self.num_players = players
        self.sd = sd
        self.mt: MoveTable = move_table(sd)
        self.rounds = sd.rounds_for(players)
        self.sheets: list[list[int]] = [sd.new_sheet() for _ in range(players)]
        self.pend: list[list[Task]] = [[] for _ in range(players)]
        self.val = [0] * 6
        self.loc = [HAND] * 6
        self.to_roll: list[int] = []
        self.rpos = 0
        self.phase = "first"
        self.round = 0
        self.first = 0
        self.active = 0
        self.picks = 0
        self.stage = 0
        """Active turn: 0 choosing dice, 1 extra dice, 2 over."""
        self.solo_passive = False
        self.simul = ""
        """Kind of simultaneous phase: ``passive`` or ``track`` ('' if none)."""
        self.stg = [-1] * players
        """Per player in a simultaneous phase: -1 out, 0 to pick, 1 extra dice, 2 done."""
        self.snap: list[tuple[list[int], list[Task], int]] | None = None
        self.plog: list[list[LogEntry]] = [[] for _ in range(players)]
        """Private log entries of a simultaneous step (public once all are done)."""
        self.log: list[LogEntry] = []
        if players == 1:
            self.round = 1
            self._start_round()

    # -- helpers -------------------------------------------------------
    def available(self, player: int, action: int) -> int:
        """Circled, unused slots of action bar ``action`` (0 reroll, 1 return, 2 extra)."""
        sh, sd = self.sheets[player], self.sd
        return sh[sd.AC + action] - sh[sd.AU + action]

    def placements(self, player: int, die: int) -> list[Place]:
        """Where ``player`` may enter ``die`` now (white: in any area), as coded entries."""
        return self._entries(self.sheets[player], die, self.mt.codes[die])

    def _entries(self, sh: list[int], die: int, tab: tuple[tuple[T, ...], ...]) -> list[T]:
        """The entries of ``die`` open on sheet ``sh``, from ``tab`` (one die's row of a
        :data:`~optimus.optimus2.moves.DieTable`: codes or text)."""
        sd, val = self.sd, self.val
        v = val[die]
        if die == YELLOW:
            Y, cells = sd.Y, tab[YELLOW]
            return [cells[c] for c in sd.cells_of_value[v] if sh[Y + c] < 2]
        if die == BLUE:
            n = sh[sd.BN]
            if n < sd.blue_slots and (n == 0 or v + val[WHITE] <= sh[sd.BN + n]):
                return [tab[BLUE][0]]
            return []
        if die == GREEN:
            return [tab[GREEN][0]] if sh[sd.GN] < sd.green_slots else []
        if die == PINK:
            return [tab[PINK][0]] if sh[sd.PN] < sd.pink_slots else []
        bit = 1 << (v - 1)
        S = sd.S
        if die == SILVER:
            rows = tab[SILVER]
            return [rows[r] for r in (0, 1, 2, 3) if not sh[S + r] & bit]
        # white: any area
        Y, cells = sd.Y, tab[YELLOW]
        out = [cells[c] for c in sd.cells_of_value[v] if sh[Y + c] < 2]
        n = sh[sd.BN]
        if n < sd.blue_slots and (n == 0 or v + val[BLUE] <= sh[sd.BN + n]):
            out.append(tab[BLUE][0])
        if sh[sd.GN] < sd.green_slots:
            out.append(tab[GREEN][0])
        if sh[sd.PN] < sd.pink_slots:
            out.append(tab[PINK][0])
        rows = tab[SILVER]
        out.extend([rows[r] for r in (0, 1, 2, 3) if not sh[S + r] & bit])
        return out

    def _use(self, player: int, place: Place) -> None:
        d, a, t = place >> 7, place >> 4 & 7, place & 15
        sd, sh = self.sd, self.sheets[player]
        v = self.val[d]
        if a == YELLOW:
            new = enter_yellow(sd, sh, t)
        elif a == BLUE:
            new = enter_blue(sd, sh, self.val[BLUE] + self.val[WHITE])
        elif a == GREEN:
            new = enter_green(sd, sh, v)
        elif a == PINK:
            new = enter_pink(sd, sh, v)
        else:
            new = enter_silver(sd, sh, t, v)
        if new:
            self.pend[player][0:0] = new

    def task_options(self, player: int, task: Task) -> list[tuple[str, int]]:
        """The answers to a pending task, as (move text, argument)."""
        kind, value, rows = task
        sd, sh, mt = self.sd, self.sheets[player], self.mt
        if kind == "Y":
            return [(mt.mark_cell[c], c) for c in yellow_targets(sd, sh, value)]
        if kind == "S":
            if value:
                return [
                    (mt.mark_silver[r * 8 + value], r * 8 + value)
                    for r in silver_rows_open(sd, sh, value, rows)
                ]
            return [
                (mt.mark_silver[r * 8 + v], r * 8 + v)
                for r in range(4)
                for v in range(1, sd.silver_values + 1)
                if not sh[sd.S + r] >> (v - 1) & 1
            ]
        if kind == "B":
            n = sh[sd.BN]
            if n >= len(sd.blue_bonus):
                return []
            top = sh[sd.BN + n] if n else 12
            return [(mt.write[x], x) for x in range(2, top + 1)]
        if kind == "G":
            if sh[sd.GN] >= len(sd.green_mult):
                return []
            return [(mt.write[x], x) for x in range(1, 7)]
        if kind == "P":
            if sh[sd.PN] >= len(sd.pink_threshold):
                return []
            return [(mt.write[x], x) for x in range(1, 7)]
        # "A": a "?" of any colour: the areas where that "?" can be used.
        return [(mt.choose[q], q) for q in ANY_CHOICES if self.task_options(player, Q_TASK[q])]

    def _apply_task(self, player: int, arg: int) -> None:
        pend = self.pend[player]
        kind = pend[0][0]
        if kind == "A":
            pend[0] = Q_TASK[arg]
            return
        del pend[0]
        sd, sh = self.sd, self.sheets[player]
        if kind == "Y":
            new = enter_yellow(sd, sh, arg)
        elif kind == "S":
            new = enter_silver(sd, sh, arg >> 3, arg & 7)
        elif kind == "B":
            new = enter_blue(sd, sh, arg)
        elif kind == "G":
            new = enter_green(sd, sh, arg)
        else:
            new = enter_pink(sd, sh, arg)
        if new:
            pend[0:0] = new

    def _settle(self, player: int) -> bool:
        """Resolve pending tasks that leave no choice; True if a question remains."""
        pend = self.pend[player]
        while pend:
            opts = self.task_options(player, pend[0])
            if len(opts) > 1:
                return True
            if opts:
                self._apply_task(player, opts[0][1])
            else:
                del pend[0]  # a bonus that cannot be used is lost
        return False

    def extra_places(self, player: int) -> list[Place]:
        """Extra-die entries open to ``player`` (each die once per round)."""
        return self._extra_entries(player, self.mt.codes)

    def _extra_entries(self, player: int, table: DieTable[T]) -> list[T]:
        sh, sd = self.sheets[player], self.sd
        if sh[sd.AC + 2] <= sh[sd.AU + 2]:
            return []
        xm = sh[sd.XM]
        entries = self._entries
        out: list[T] = []
        for d in (0, 1, 2, 3, 4, 5):
            if not xm >> d & 1:
                out += entries(sh, d, table[d])
        return out

    def _has_extra(self, player: int) -> bool:
        """True if ``player`` has an extra-die entry open (``bool(extra_places(player))``)."""
        sh, sd = self.sheets[player], self.sd
        if sh[sd.AC + 2] <= sh[sd.AU + 2]:
            return False
        xm, codes, entries = sh[sd.XM], self.mt.codes, self._entries
        return any(entries(sh, d, codes[d]) for d in (0, 1, 2, 3, 4, 5) if not xm >> d & 1)

    def passive_places(self, player: int) -> list[Place]:
        """A passive pick: tray dice, or the active player's dice if no tray die is usable."""
        return self._passive_entries(player, self.mt.codes)

    def _passive_entries(self, player: int, table: DieTable[T]) -> list[T]:
        loc, sh, entries = self.loc, self.sheets[player], self._entries
        out: list[T] = []
        for d in (0, 1, 2, 3, 4, 5):
            if loc[d] == TRAY:
                out += entries(sh, d, table[d])
        if out:
            return out
        for d in (0, 1, 2, 3, 4, 5):
            if loc[d] == FIELD:
                out += entries(sh, d, table[d])
        return out

    # -- flow ------------------------------------------------------------
    def _start_round(self) -> None:
        sd = self.sd
        self.active = self.first
        for p in range(self.num_players):
            self.sheets[p][sd.XM] = 0
        self.log.append(("round", -1, self.round))
        if self.round <= len(sd.round_track):
            code = sd.round_track[self.round - 1]
            for p in range(self.num_players):
                out: list[Task] = []
                gain(sd, self.sheets[p], code, out)
                self.pend[p].extend(out)
            if any(self.pend):
                self._start_simul("track", list(range(self.num_players)))
                return
        self._start_turn()

    def _start_turn(self) -> None:
        self.loc = [HAND] * 6
        self.picks = 0
        self.stage = 0
        log = self.log
        if len(log) > 2 * LOG_LIMIT:  # only the last LOG_LIMIT entries are ever shown
            del log[:-LOG_LIMIT]
        log.append(("turn", self.active, None))
        self._roll_hand()

    def _roll_hand(self) -> None:
        loc = self.loc
        self.to_roll = [d for d in (0, 1, 2, 3, 4, 5) if loc[d] == HAND]
        self.rpos = 0
        self.phase = "roll"

    def _advance(self) -> None:
        """After an active player's step: the next question, roll or phase."""
        a = self.active
        if self.pend[a] and self._settle(a):
            self.phase = "task"
            return
        loc = self.loc
        if self.stage == 0:
            sd = self.sd
            if self.picks < sd.choices:
                sh = self.sheets[a]
                if sh[sd.AC + 1] > sh[sd.AU + 1] and TRAY in loc:
                    self.phase = "preroll"
                    return
                if HAND in loc:
                    self._roll_hand()
                    return
            for d in (0, 1, 2, 3, 4, 5):
                if loc[d] == HAND:
                    loc[d] = TRAY
            self.stage = 1
        if self.stage == 1:
            if self._has_extra(a):
                self.phase = "extra"
                return
            self.stage = 2
        if self.num_players == 1:
            self.loc = [HAND] * 6
            self.solo_passive = True
            self.log.append(("solo_passive", 0, None))
            self._roll_hand()
        else:
            self._start_simul("passive", [p for p in range(self.num_players) if p != a])

    def _solo_sort(self) -> None:
        """Solo passive turn: the lowest dice (ties in the sheet's die order) to the tray."""
        sd = self.sd
        val, loc = self.val, self.loc
        order = sorted([val[d] * 8 + i for i, d in enumerate(sd.solo_tie_order)])
        tie = sd.solo_tie_order
        k = sd.solo_passive_dice
        for i, key in enumerate(order):
            loc[tie[key & 7]] = TRAY if i < k else FIELD
        self.solo_passive = False
        self._start_simul("passive", [0])

    def _start_simul(self, kind: str, players: list[int]) -> None:
        self.simul = kind
        self.phase = "simul"
        stg = self.stg = [-1] * self.num_players
        for p in players:
            stg[p] = 0 if kind == "passive" else 1
        if self.num_players > 1:
            self.snap = [
                (list(self.sheets[p]), list(self.pend[p]), stg[p]) for p in range(self.num_players)
            ]
        for p in players:
            self._simul_next(p)
        self._maybe_end_simul()

    def _simul_next(self, p: int) -> None:
        if self.pend[p] and self._settle(p):
            return
        stg = self.stg
        if stg[p] == 1 and not (self.simul == "passive" and self._has_extra(p)):
            stg[p] = 2

    def _maybe_end_simul(self) -> None:
        stg = self.stg
        if 0 in stg or 1 in stg:
            return
        kind = self.simul
        self.simul = ""
        self.snap = None
        self.stg = [-1] * self.num_players
        for entries in self.plog:
            self.log += entries
            entries.clear()
        if kind == "track":
            self._start_turn()
        elif self.num_players == 1 or (self.active + 1) % self.num_players == self.first:
            if self.round >= self.rounds:
                self.phase = "over"
                self.log.append(("end", -1, tuple(int(x) for x in self.scores())))
                return
            self.round += 1
            self._start_round()
        else:
            self.active = (self.active + 1) % self.num_players
            self._start_turn()

    # -- protocol: whose decision -----------------------------------------
    def actors(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == "simul":
            return tuple([p for p, s in enumerate(self.stg) if s == 0 or s == 1])
        if phase in ACTIVE_PHASES:
            return (self.active,)
        return ()

    def is_chance(self) -> bool:
        phase = self.phase
        return phase == "roll" or phase == "first"

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def chance_outcomes(self) -> Sequence[tuple[str, int]]:
        if self.phase == "roll":
            return ROLL_OUTCOMES
        if self.phase == "first":
            return [(f"first {p}", 1) for p in range(self.num_players)]
        raise ValueError(f"no chance event in phase {self.phase!r}")

    def apply_chance(self, outcome: str) -> None:
        if self.phase == "roll":
            to_roll = self.to_roll
            i = self.rpos
            self.val[to_roll[i]] = FACE[outcome]
            self.rpos = i = i + 1
            if i == len(to_roll):
                self.log.append(("roll", -1, (to_roll, tuple(self.val))))
                if self.solo_passive:
                    self._solo_sort()
                else:
                    self.phase = "choose"
            return
        if self.phase == "first":
            self.first = self.active = int(outcome.removeprefix("first "))
            self.round = 1
            self.log.append(("first", self.first, None))
            self._start_round()
            return
        raise ValueError(f"no chance event in phase {self.phase!r}")

    # -- moves -------------------------------------------------------------
    def legal_moves(self, player: int) -> list[str]:
        phase = self.phase
        mt = self.mt
        if phase == "simul":
            s = self.stg[player] if 0 <= player < self.num_players else -1
            if s != 0 and s != 1:
                return []
            pend = self.pend[player]
            if pend:
                return [t for t, _ in self.task_options(player, pend[0])]
            if s == 0:
                moves = self._passive_entries(player, mt.texts)
                moves.append("pass")
                return moves
            moves = self._extra_entries(player, mt.extra_texts)
            moves.append("done")
            return moves
        if player != self.active or phase not in ACTIVE_PHASES:
            return []
        if phase == "choose":
            texts, loc, sh, entries = mt.texts, self.loc, self.sheets[player], self._entries
            moves = []
            for d in (0, 1, 2, 3, 4, 5):
                if loc[d] == HAND:
                    moves += entries(sh, d, texts[d])
            moves.append("pass")
            if sh[self.sd.AC] > sh[self.sd.AU]:
                moves.append("reroll")
            return moves
        if phase == "task":
            return [t for t, _ in self.task_options(player, self.pend[player][0])]
        if phase == "preroll":
            loc, rets = self.loc, mt.returns
            moves = ["roll" if HAND in loc else "end"]
            for d in (0, 1, 2, 3, 4, 5):
                if loc[d] == TRAY:
                    moves.append(rets[d])
            return moves
        # extra
        moves = self._extra_entries(player, mt.extra_texts)
        moves.append("done")
        return moves

    def apply_move(self, player: int, move: str) -> None:
        phase = self.phase
        mt = self.mt
        if phase == "choose":
            place = mt.parse_place.get(move)
            if place is not None:
                self._choose(player, place, move)
            elif move == "pass":
                self.picks += 1
                self.log.append(("pass", player, None))
            elif move == "reroll":
                self.sheets[player][self.sd.AU] += 1
                self.log.append(("reroll", player, None))
                self._roll_hand()
                return
            else:
                raise KeyError(move)
        elif phase == "simul":
            self._simul_move(player, move)
            return
        elif phase == "task":
            self._apply_task(player, mt.parse_task[move])
            self.log.append(("bonus", player, move))
        elif phase == "preroll":
            if move == "roll":
                self._roll_hand()
                return
            if move == "end":
                self.stage = 1
            else:
                d = mt.parse_return[move]
                self.loc[d] = HAND
                self.sheets[player][self.sd.AU + 1] += 1
                self.log.append(("return", player, move))
                if self.available(player, 1) > 0 and TRAY in self.loc:
                    return
                self._roll_hand()
                return
        elif phase == "extra":
            if move == "done":
                self.stage = 2
            else:
                self._extra(player, mt.parse_extra[move])
        else:
            raise ValueError(f"no move is due in phase {phase!r}")
        self._advance()

    def _choose(self, player: int, place: Place, move: str) -> None:
        d, a = place >> 7, place >> 4 & 7
        val, loc = self.val, self.loc
        v = val[d]
        loc[d] = FIELD
        self.picks += 1
        sent = [e for e in (0, 1, 2, 3, 4, 5) if loc[e] == HAND and val[e] < v]
        for e in sent:
            loc[e] = TRAY
        self.log.append(("use", player, move))
        self._use(player, place)
        if a == SILVER:
            chain = self.pend[player]
            for e in sent:
                rows = 0b1111 if e in (WHITE, SILVER) else 1 << (e - 1)
                chain.append(("S", val[e], rows))

    def _extra(self, player: int, place: Place) -> None:
        sd, sh = self.sd, self.sheets[player]
        sh[sd.AU + 2] += 1
        sh[sd.XM] |= 1 << (place >> 7)
        entry: LogEntry = ("extra", player, self.mt.place[place])
        if self.phase == "simul":
            self.plog[player].append(entry)
        else:
            self.log.append(entry)
        self._use(player, place)

    def _simul_move(self, player: int, move: str) -> None:
        mt = self.mt
        if self.pend[player]:
            self._apply_task(player, mt.parse_task[move])
        elif self.stg[player] == 0:
            self.stg[player] = 1
            if move == "pass":
                self.plog[player].append(("pass", player, None))
            else:
                place = mt.parse_place[move]
                self.plog[player].append(("pick", player, move))
                self._use(player, place)
        elif move == "done":
            self.stg[player] = 2
        else:
            self._extra(player, mt.parse_extra[move])
        self._simul_next(player)
        self._maybe_end_simul()

    def explain_illegal(self, player: int, move: str) -> str:
        """A player-facing reason why ``move`` is not legal now (in the language spoken)."""
        reason = self.common_refusal(player, _("the dice must be rolled first"))
        if reason:
            return reason
        actors = self.actors()
        if player not in actors:
            if self.phase == "simul" and self.stg[player] == 2:
                return _("you have finished this step; waiting for the other players")
            return ngettext(
                "it is not your turn (waiting for player {seats})",
                "it is not your turn (waiting for players {seats})",
                len(actors),
                seats=names([str(p + 1) for p in actors]),
            )
        mt = self.mt
        pend = self.pend[player]
        if pend and (self.phase == "task" or self.phase == "simul"):
            return task_reason(pend[0])
        if self.phase == "preroll":
            return _("before the next roll you may only return tray dice or roll")
        extra_phase = self.phase == "extra" or (self.phase == "simul" and self.stg[player] == 1)
        place = mt.parse_extra.get(move) if extra_phase else mt.parse_place.get(move)
        if move == "reroll" and self.phase == "choose":
            return _("you have no reroll action to use")
        if move == "reroll":
            return _("a reroll is only for the active player right after a roll")
        if move.startswith("return"):
            return _("a return is only for the active player before a roll")
        if place is None:
            if move.startswith("extra") and not extra_phase:
                return _("extra dice are used after your turn or your passive pick")
            if extra_phase and move in mt.parse_place:
                return _("your choice is made: now only extra dice, or finish")
            return super().explain_illegal(player, move)
        d, a, t = unpack(place)
        v = self.val[d]
        colour = die_word(DICE[d])
        if extra_phase:
            if self.available(player, 2) <= 0:
                return _("you have no extra-die action left")
            if self.sheets[player][self.sd.XM] >> d & 1:
                return _(
                    "the {colour} die was already taken as an extra die this round", colour=colour
                )
        elif self.phase == "choose":
            if self.loc[d] == FIELD:
                return _(
                    "the {colour} die is not among the rolled dice (it is on the die fields)",
                    colour=colour,
                )
            if self.loc[d] == TRAY:
                return _(
                    "the {colour} die is not among the rolled dice (it is in the silver tray)",
                    colour=colour,
                )
        else:
            loc = self.loc
            if loc[d] == FIELD and any(
                self.placements(player, e) for e in range(6) if loc[e] == TRAY
            ):
                return _("you may take the active player's dice only if no tray die is usable")
            if loc[d] == HAND:
                return _("the {colour} die is not in the tray", colour=colour)
        return area_reason(self, player, a, t, v)

    # -- views --------------------------------------------------------------
    def scores(self) -> list[float]:
        return [float(total_of(self.sd, sh)) for sh in self.sheets]

    def ranking_keys(self) -> list[tuple[float, ...]]:
        """Total first, then the highest single area (tie-break); then shared."""
        sd = self.sd
        return [(float(total_of(sd, sh)), float(max(area_scores(sd, sh)))) for sh in self.sheets]

    def observation(self, player: int | None) -> dict[str, JSON]:
        """Everything public; during simultaneous steps others' sheets as before them."""
        sd = self.sd
        players = []
        for p in range(self.num_players):
            if self.snap is not None and p != player:
                sh, pend, stage = self.snap[p]
            else:
                sh, pend, stage = self.sheets[p], self.pend[p], self.stg[p]
            players.append(sheet_view(sd, sh, pend, stage))
        return {
            "game": "optimus2",
            "sheet": sd.name,
            "you": player,
            "players": self.num_players,
            "phase": self.phase,
            "simultaneous": self.simul or None,
            "round": self.round,
            "rounds": self.rounds,
            "first": self.first,
            "active": self.active,
            "choices": self.picks,
            "turn_stage": self.stage,
            "solo_passive": self.solo_passive,
            "dice": [
                {"die": DICE[d], "value": self.val[d] or None, "place": PLACES[self.loc[d]]}
                for d in range(6)
            ],
            "to_roll": [DICE[d] for d in self.to_roll[self.rpos :]] if self.is_chance() else [],
            "sheets": players,
            "rating": sd.rating_for(self.scores()[0]) if self.num_players == 1 else None,
            "legal_moves": self.legal_moves(player) if player is not None else [],
            "log": [
                log_json(e)
                for e in self.log[-LOG_LIMIT:] + (self.plog[player] if player is not None else [])
            ],
        }

    def clone(self) -> Optimus2State:
        c = Optimus2State.__new__(Optimus2State)
        c.__dict__.update(self.__dict__)
        c.sheets = [list(s) for s in self.sheets]
        c.pend = [list(q) for q in self.pend]
        c.val = list(self.val)
        c.loc = list(self.loc)
        c.to_roll = list(self.to_roll)
        c.stg = list(self.stg)
        c.plog = [list(x) for x in self.plog]
        c.log = list(self.log)
        return c


LogEntry = tuple[str, int, Any] | dict[str, JSON]
"""(event, player or -1, detail); a rebuilt state keeps the JSON entries it was given."""


def log_json(e: LogEntry) -> dict[str, JSON]:
    """A log entry as JSON for observations."""
    if isinstance(e, dict):
        return e
    event, player, detail = e
    out: dict[str, JSON] = {"event": event}
    if player >= 0:
        out["player"] = player
    if event == "roll":
        dice, values = detail
        out["dice"] = {DICE[d]: values[d] for d in dice}
    elif event == "round":
        out["round"] = detail
    elif event == "end":
        out["scores"] = list(detail)
    elif detail is not None:
        out["move"] = detail
    return out


def total_of(sd: SheetDef, sh: list[int]) -> int:
    areas = area_scores(sd, sh)
    return sum(areas) + sh[sd.FOX] * min(areas)


def describe_task(task: Task) -> str:
    """A pending question with its move notation, for developers and bots (``pending``)."""
    kind, value, rows = task
    if kind == "Y":
        return "a yellow entry" + (
            f" of {value}" if value else " (any cell: mark rRcC)"
        )  # not shown
    if kind == "S":
        if value:
            names = [AREAS[r] for r in range(4) if rows >> r & 1]
            return f"mark {value} in a silver row ({', '.join(names)})"  # not shown
        return "a silver '?': mark any open silver cell (mark ROW VALUE)"  # not shown
    if kind == "A":
        return "a '?' of any colour: choose the area (choose AREA)"  # not shown
    return f"a {TASK_KINDS[kind]} '?': write the value (write N)"  # not shown


def area_reason(state: Optimus2State, player: int, a: int, t: int, v: int) -> str:
    """Why a die of value ``v`` cannot go to area ``a`` (target ``t``) for ``player``."""
    sd, sh = state.sd, state.sheets[player]
    if a == YELLOW:
        r, c, cv = sd.yellow_cells[t]
        if cv != v:
            return _(
                "the yellow cell in row {row}, column {column} holds a {cell}, "
                "the die shows {value}",
                row=r,
                column=c,
                cell=cv,
                value=v,
            )
        return _(
            "the yellow cell in row {row}, column {column} is already crossed", row=r, column=c
        )
    if a == BLUE:
        n = sh[sd.BN]
        if n >= len(sd.blue_bonus):
            return _("the blue area is full")
        total = state.val[BLUE] + state.val[WHITE]
        return _(
            "blue + white is {total}, higher than the last blue entry {last}",
            total=total,
            last=sh[sd.BN + n],
        )
    if a == GREEN:
        return _("the green area is full")
    if a == PINK:
        return _("the pink area is full")
    if not silver_rows_open(sd, sh, v):
        return _(
            "silver {value} is already marked in all four rows: the silver die is blocked",
            value=v,
        )
    return _("silver {value} is already marked in the {row} row", value=v, row=row_word(AREAS[t]))


def sheet_view(sd: SheetDef, sh: list[int], pend: list[Task], stage: int) -> dict[str, JSON]:
    """A player's sheet as JSON: readable fields for the page and ``raw`` for rebuilding."""
    areas = area_scores(sd, sh)
    nb, ng, npk = sh[sd.BN], sh[sd.GN], sh[sd.PN]
    return {
        "yellow": sh[sd.Y : sd.Y + len(sd.yellow_cells)],
        "blue": sh[sd.BN + 1 : sd.BN + 1 + nb],
        "green": sh[sd.GN + 1 : sd.GN + 1 + ng],
        "pink": sh[sd.PN + 1 : sd.PN + 1 + npk],
        "silver": [
            [v for v in range(1, sd.silver_values + 1) if sh[sd.S + r] >> (v - 1) & 1]
            for r in range(4)
        ],
        "actions": {
            name: {"circled": sh[sd.AC + i], "used": sh[sd.AU + i]}
            for i, name in enumerate(ACTIONS)
        },
        "foxes": sh[sd.FOX],
        "extra_taken": [DICE[d] for d in range(6) if sh[sd.XM] >> d & 1],
        "areas": dict(zip(AREAS, areas, strict=True)),
        "total": sum(areas) + sh[sd.FOX] * min(areas),
        "pending": [describe_task(t) for t in pend],
        "pending_raw": [[k, v, r] for k, v, r in pend],
        "stage": stage,
        "raw": list(sh),
    }


class Optimus2Game(Game, described="optimus2"):
    """Optimus 2's rules (optimus.games describes it); ``sheet`` names the sheet data file."""

    default_options: ClassVar[Mapping[str, JSON]] = {"sheet": "standard"}
    bots: ClassVar[str] = "optimus.optimus2.bots"

    def normalize_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        out = super().normalize_options(options)
        try:
            load_sheet(str(out["sheet"]))
        except SheetError as exc:
            raise OptionError(str(exc)) from None
        return out

    def new_state(self, options: Mapping[str, JSON]) -> Optimus2State:
        opts = self.normalize_options(options)
        return Optimus2State(int(opts["players"]), load_sheet(str(opts["sheet"])))

    def rebuild(self, observation: Mapping[str, JSON]) -> Optimus2State:
        """The state behind an observation (nothing hidden but others' pending choices)."""
        return state_from_observation(observation)


def state_from_observation(obs: Mapping[str, Any]) -> Optimus2State:
    """Rebuild a full state from an observation.

    Others' private progress in a simultaneous step is not in the view: they
    are rebuilt as they stood before it, still to choose.
    """
    try:
        sd = load_sheet(str(obs["sheet"]))
        s = Optimus2State.__new__(Optimus2State)
        n = int(obs["players"])
        s.num_players = n
        s.sd = sd
        s.mt = move_table(sd)
        s.rounds = int(obs["rounds"])
        views = obs["sheets"]
        s.sheets = [[int(x) for x in v["raw"]] for v in views]
        s.pend = [[(str(k), int(v), int(r)) for k, v, r in w["pending_raw"]] for w in views]
        s.stg = [int(v["stage"]) for v in views]
        s.val = [int(d["value"] or 0) for d in obs["dice"]]
        s.loc = [PLACES.index(d["place"]) for d in obs["dice"]]
        s.to_roll = [DICE.index(d) for d in obs["to_roll"]]
        s.rpos = 0
        s.phase = str(obs["phase"])
        s.round = int(obs["round"])
        s.first = int(obs["first"])
        s.active = int(obs["active"])
        s.picks = int(obs["choices"])
        s.stage = int(obs["turn_stage"])
        s.solo_passive = bool(obs["solo_passive"])
        s.simul = str(obs["simultaneous"] or "")
        s.snap = None
        if s.simul and n > 1:
            s.snap = [
                (list(sh), list(q), st) for sh, q, st in zip(s.sheets, s.pend, s.stg, strict=True)
            ]
        s.plog = [[] for _ in range(n)]
        s.log = [dict(e) for e in obs["log"]]  # shown as they were
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise GameError(f"not an Optimus 2 observation: {exc!r}") from None  # not shown
    return s


__all__ = [
    "FIELD",
    "HAND",
    "TRAY",
    "Optimus2Game",
    "Optimus2State",
    "state_from_observation",
]
