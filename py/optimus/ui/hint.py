"""The hint: the move the coach's bot (``hard``) would make in a person's position, and why.

:class:`Hint` thinks with the game's coach level (:class:`optimus.games.Coach`) as a
seat of the table would (:meth:`~optimus.ui.session.TableSession.coach_bot`: the same
bot, the budget a ``hard`` seat gets at the first decision of a wait, the same
slices), so the hint is the move ``hard`` would play there.  It then appraises the
position with that bot (:meth:`~optimus.core.bots.Bot.appraise`) for one line saying
why: the points the move scores now, and its value against the others the bot weighed.
Nothing is played: the page draws the move (web/move_marks.py, web/hint.py).

>>> from optimus.core.bots import Budget
>>> from optimus.core.registry import get_game
>>> session = TableSession(get_game("fileiras"), {}, 5, ["human", "normal"], Budget(iterations=8))
>>> hint = Hint(session, 0)
>>> found = hint.finish()
>>> found.move in session.state.legal_moves(0), bool(found.why())
(True, True)
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass

from optimus.core.bots import Appraisal, run_to_end
from optimus.i18n import N_, _, ngettext, number, signed

from .session import TableSession

CLOSE = 0.05
"""Points apart below which two values say nothing (the search's noise)."""

NO_HINT_AFTER_BOT = N_("No hint now: it is not your turn.")
"""Why the bar's Hint does nothing (a bot's turn, the game over, a replay)."""


@dataclass(frozen=True)
class Found:
    """A hint: the move, what it scores now, the coach bot's values of the moves it weighed."""

    move: str
    gain: float
    """The seat's score after the move less its score before (points now)."""
    values: Mapping[str, float]
    """The coach bot's values (its own points) of the moves it weighed, ``move`` included."""
    moves: int
    """How many legal moves there were."""

    def why(self) -> str:
        """One line saying why, in the language spoken: the points now, then the value
        against the next best move weighed (or that it is the only move)."""
        parts = []
        gain = round(self.gain)
        if gain:
            parts.append(ngettext("{n} point now.", "{n} points now.", abs(gain), n=signed(gain)))
        if self.moves < 2:
            parts.append(_("It is the only move."))
            return " ".join(parts)
        mine = self.values.get(self.move)
        others = [v for m, v in self.values.items() if m != self.move]
        if mine is None or not others:
            parts.append(_("The coach's search kept no other move in the end."))
            return " ".join(parts)
        gap = mine - max(others)
        weighed = len(others) + 1
        if gap < CLOSE:
            parts.append(
                ngettext(
                    "The coach values it about as much as its next best ({n} move weighed).",
                    "The coach values it about as much as its next best ({n} moves weighed).",
                    weighed,
                )
            )
        else:
            parts.append(
                ngettext(
                    "The coach values it {gap} points above its next best ({n} move weighed).",
                    "The coach values it {gap} points above its next best ({n} moves weighed).",
                    weighed,
                    gap=number(gap, 1),
                )
            )
        return " ".join(parts)


class Hint:
    """The hint for ``seat`` (a person's seat) in ``session``'s position now, thought in
    slices by :meth:`run` (or at once by :meth:`finish`)."""

    def __init__(self, session: TableSession, seat: int) -> None:
        self.session = session
        self.seat = seat
        self.events = len(session.record.events)
        """Where it was asked: the record's length then (a later position needs another)."""

    def current(self) -> bool:
        """Whether the position is still the one the hint is for."""
        session = self.session
        return len(session.record.events) == self.events and session.human_to_act() == self.seat

    def run(self) -> Generator[None, None, Found]:
        """Think as ``hard`` would (yielding now and then), then appraise the move found."""
        session, seat = self.session, self.seat
        state = session.state
        legal = state.legal_moves(seat)
        if not legal:
            raise ValueError("a hint was asked for a seat with no move")  # not shown
        obs = state.observation(seat)
        move = yield from session.coach_bot(seat).think(obs, legal)
        values: Mapping[str, float] = {move: 0.0}
        if len(legal) > 1:
            got: Appraisal = yield from session.coach_bot(seat).appraise(obs, legal, move)
            values = got.values
        after = state.clone()
        after.apply_move(seat, move)
        gain = after.scores()[seat] - state.scores()[seat]
        return Found(move, gain, values, len(legal))

    def finish(self) -> Found:
        """:meth:`run` to the end at once."""
        return run_to_end(self.run())
