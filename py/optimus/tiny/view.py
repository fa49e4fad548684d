"""Tiny's view data: what its board shows, from an observation and the game's events.

The worked example of docs/adding-a-game.md: a game gives the table its status
line, its panels, its log and its end screen as the shared shapes of
:mod:`optimus.ui.table`, and its board's own data (here the die, the drawn
card, the deck and the person's choices).  Nothing here decides a rule: the
choices are the legal moves.

>>> from optimus.tiny.game import TinyGame
>>> state = TinyGame().new_state({"players": 2})
>>> t = table(state.observation(0), ["You", "Bot 2"], 0, [], [])
>>> t.status.text, t.round, t.deck[0]
('Rolling the die…', 1, (1, 2))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from optimus.core.record import CHANCE
from optimus.ui import table as ui

__all__ = ["RULES", "Table", "end_screen", "log", "table"]

MOVES = {
    "keep": "Keep the die",
    "draw": "Draw a card",
    "add": "Add the card",
    "discard": "Discard the card",
    "hi": "Bet high (4-6)",
    "lo": "Bet low (1-3)",
}
"""The words on the button of each move."""

DONE = {
    "keep": "kept the {}",
    "draw": "drew a card",
    "add": "added the {}",
    "discard": "discarded the {}",
    "hi": "placed a bet",
    "lo": "placed a bet",
}
"""A move, told in the log (``{}``: the die or card it was about)."""


@dataclass(frozen=True)
class Table:
    """Tiny's table as the person sees it."""

    status: ui.Status
    round: int
    rounds: int
    roll: int
    """The die showing (0 before the first roll of a turn)."""
    card: int
    """The card drawn this turn (0: none)."""
    deck: tuple[tuple[int, int], ...]
    """(card, copies left) for each card of the deck."""
    choices: tuple[ui.Choice, ...]
    panels: list[ui.Panel]
    log: list[str]


def status(obs: Mapping[str, Any], names: Sequence[str], you: int | None) -> ui.Status:
    """Whose decision it is and what they can do, in one sentence."""
    phase = obs["phase"]
    active = obs["turn"] % obs["players"]
    if phase == "over":
        return ui.Status("over", "The game is over.")
    if phase in ("roll", "draw", "bet_roll"):
        return ui.Status("wait", "Rolling the die…" if phase != "draw" else "Drawing a card…")
    if phase == "bet":
        if you is not None and you != active and you not in obs["bets_made"]:
            return ui.Status("you", "Bet on the next roll: high (4-6) or low (1-3).")
        return ui.Status("bot", "The others are betting…")
    if active != you:
        return ui.Status("bot", f"{names[active]} is choosing…")
    if phase == "choose":
        return ui.Status("you", f"You rolled {obs['roll']}: keep it, or draw a card.")
    return ui.Status("you", f"You drew {obs['card']}: add it to your score, or discard it.")


def log(events: Sequence[tuple[int | str, str]], names: Sequence[str]) -> list[str]:
    """One sentence per event, newest first; a bet is told once the bet roll shows it.

    >>> log([("*", "5"), (0, "draw"), ("*", "3"), (0, "add"), (1, "lo"), ("*", "2")],
    ...     ["You", "Bot 2"])[:3]
    ['The bet roll is 2 (low). Right: Bot 2.', 'Bot 2 placed a bet.', 'You added the 3.']
    """
    lines: list[str] = []
    bets: dict[int, str] = {}
    last = ""
    shown = ""  # the die or card the active player decides on
    for who, what in events:
        if who == CHANCE:
            if last in ("keep", "add", "discard", "hi", "lo"):
                value = int(what)
                side = "high" if value >= 4 else "low"
                right = [names[p] for p, bet in bets.items() if (bet == "hi") == (value >= 4)]
                said = f" Right: {', '.join(right)}." if right else " No one was right."
                lines.append(f"The bet roll is {value} ({side}).{said}" if bets else "")
                bets = {}
            else:
                lines.append(f"The card is {what}." if last == "draw" else f"Rolled {what}.")
                shown = what
        elif isinstance(who, int):
            name = names[who]
            if what in ("hi", "lo"):
                bets[who] = what
            lines.append(f"{name} {DONE[what].format(shown)}.")
        last = what if who != CHANCE else ""
    return [line for line in lines if line][::-1][:40]


def table(
    obs: Mapping[str, Any],
    names: Sequence[str],
    you: int | None,
    legal: Sequence[str],
    events: Sequence[tuple[int | str, str]],
) -> Table:
    """The whole table: ``obs`` is ``you``'s observation, ``legal`` their moves now."""
    players = obs["players"]
    active = obs["turn"] % players
    over = obs["phase"] == "over"
    panels = []
    for seat in range(players):
        turn = not over and (
            (obs["phase"] in ("choose", "card") and seat == active)
            or (obs["phase"] == "bet" and seat != active and seat not in obs["bets_made"])
        )
        bet = "has bet" if obs["phase"] == "bet" and seat in obs["bets_made"] else ""
        score = obs["score"][seat]
        panels.append(ui.Panel(seat, names[seat], score, turn, seat == you, bet))
    return Table(
        status=status(obs, names, you),
        round=min(obs["turn"] // players + 1, obs["rounds"]),
        rounds=obs["rounds"],
        roll=obs["roll"] if obs["phase"] not in ("roll",) else 0,
        card=obs["card"] if obs["phase"] == "card" else 0,
        deck=tuple((int(c), n) for c, n in obs["deck"].items()),
        choices=tuple(ui.Choice(m, MOVES[m]) for m in legal),
        panels=panels,
        log=log(events, names),
    )


def end_screen(
    obs: Mapping[str, Any], names: Sequence[str], you: int | None, winners: Sequence[int]
) -> ui.EndScreen:
    """Each player's points, best first; equal totals share the victory."""
    scores = obs["score"]
    players = [
        ui.FinalScore(
            seat, names[seat], rank, scores[seat], (ui.ScoreLine("Points", str(scores[seat])),)
        )
        for seat, rank in enumerate(ui.ranks(scores))
    ]
    players.sort(key=lambda p: (p.rank, p.seat))
    rules = ui.TIE_RULE if ui.tied(scores) else ""
    return ui.EndScreen(ui.headline(winners, names, you), rules, tuple(players))


RULES: tuple[str, ...] = (
    "On your turn the die is rolled: *keep* it (its value is added to your score) or "
    "*draw* a card from the deck (two each of 1 to 5), then *add* the card or "
    "*discard* it.",
    "Then every other player bets *high* (4-6) or *low* (1-3) on one more roll, "
    "unseen until all have bet; a right bet scores 1.",
    "After the last round the highest score wins; equal scores share the victory.",
)
"""The rules drawer's points (plain text, ``*word*`` for emphasis: the drawer makes it
bold), in order."""
