"""Fileiras view models: an observation becomes plain data the DOM layer draws.

Nothing here decides a rule: what may be clicked comes from the legal moves,
scores come from :mod:`optimus.fileiras.scoring`. Every colour has a symbol as
well as a hue, so the table reads without colour vision.

>>> card("red").symbol, card("+2").label, card("+2").caption
('♥', '+2', 'bonus')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from optimus.fileiras.cards import label, word
from optimus.fileiras.scoring import score_breakdown
from optimus.i18n import N_, _, ngettext, pgettext
from optimus.ui import table as ui

COLOUR_SYMBOLS: dict[str, tuple[str, str]] = {
    # kind: (symbol on the card, caption under the symbol); the name is cards.label's
    "yellow": ("●", N_("Yellow")),
    "green": ("▲", N_("Green")),
    "blue": ("■", N_("Blue")),
    "grey": ("◆", N_("Grey")),
    "orange": ("✚", N_("Orange")),
    "red": ("♥", N_("Red")),
    "brown": ("♣", N_("Brown")),
    "joker": ("✱", N_("Joker")),
    "+2": ("+2", N_("bonus")),
    "last": ("⚑", N_("Last")),
}
ACTIONS = ("draw", "place", "take")
"""Logged events that are a player's own decision (the last one stays highlighted)."""

__all__ = ["card", "describe", "deck_hint", "end_screen", "final", "status", "table"]


@dataclass(frozen=True)
class Card:
    """A card as drawn: hue (``kind``), symbol and caption, never colour alone."""

    kind: str
    label: str
    symbol: str
    caption: str
    last_by: str = ""
    """The name of the player whose last action placed it here ("" if none)."""
    last_seat: int | None = None
    """That player's seat (None if none)."""
    last_you: bool = False
    """Whether that player is the person."""


@dataclass(frozen=True)
class Row:
    n: int
    """The row's number, from 1."""
    cards: tuple[Card, ...]
    free: int
    """Empty slots left."""
    taken_by: str | None
    taken_seat: int | None
    place: bool
    """Whether the person may place the drawn card here now."""
    take: bool
    """Whether the person may take this row now."""


@dataclass(frozen=True)
class Deck:
    count: int
    last_round: bool
    draws_before_last: int | None
    can_draw: bool
    hint: str


@dataclass(frozen=True)
class Group:
    """A colour a player collected: how many cards, and whether it counts plus now."""

    card: Card
    count: int
    plus: bool


@dataclass(frozen=True)
class Player(ui.Panel):
    """A player's panel, with what they collected."""

    sat_out: bool
    """Whether the player took a row this round (and sits out the rest of it)."""
    groups: tuple[Group, ...]
    jokers: int
    plus2: int
    cards: int

    @property
    def panel(self) -> ui.Panel:
        """The panel drawn: the last action followed by whether the player sits out."""
        state = ""
        if self.sat_out:
            state = (
                _("you have taken a row this round")
                if self.you
                else _("has taken a row this round")
            )
        return replace(self, last=self.last + (f" · {state}" if state and self.last else state))


@dataclass(frozen=True)
class Table:
    """The whole table as the person sees it."""

    status: ui.Status
    round: int
    deck: Deck
    drawn: Card | None
    removed: tuple[Card, ...]
    rows: tuple[Row, ...]
    players: tuple[Player, ...]
    log: list[str]
    advanced: bool

    @property
    def panels(self) -> list[ui.Panel]:
        return [p.panel for p in self.players]


def card(kind: str) -> Card:
    """A card kind as drawn, in the language spoken now."""
    symbol, caption = COLOUR_SYMBOLS.get(kind, ("?", kind))
    return Card(kind, label(kind), symbol, _(caption) if kind in COLOUR_SYMBOLS else caption)


def card_words(kinds: Iterable[str]) -> str:
    """Cards listed inside a sentence: ``red, joker, +2``."""
    return ", ".join(word(c) for c in kinds)


def describe(entry: Mapping[str, Any], names: Sequence[str], you: int | None = None) -> str | None:
    """One log line for a public event (None for events not worth a line); the person
    (seat ``you``) is told in the second person."""
    ev = entry.get("event")
    seat = entry.get("player")
    mine = seat is not None and seat == you
    who = names[seat] if seat is not None else ""
    if ev == "remove":
        return _("{card} is out of this game.", card=label(entry["colour"]))
    if ev == "deal":
        c = word(entry["card"])
        return (
            _("You start with {card}.", card=c)
            if mine
            else _("{who} starts with {card}.", who=who, card=c)
        )
    if ev == "round":
        n, starter = entry["round"], entry["starter"]
        if starter == you:
            return _("Round {round} — you start.", round=n)
        return _("Round {round} — {who} starts.", round=n, who=names[starter])
    if ev == "draw":
        c = word(entry["card"])
        return _("You drew {card}.", card=c) if mine else _("{who} drew {card}.", who=who, card=c)
    if ev == "last_round":
        if mine:
            return _("You drew the last-round card: this is the last round!")
        return _("{who} drew the last-round card: this is the last round!", who=who)
    if ev == "place":
        c, row = word(entry["card"]), entry["row"]
        if mine:
            return _("You placed {card} on row {row}.", card=c, row=row)
        return _("{who} placed {card} on row {row}.", who=who, card=c, row=row)
    if ev == "take":
        cards, row = card_words(entry.get("cards", [])), entry["row"]
        if mine:
            return _("You took row {row}: {cards}.", row=row, cards=cards)
        return _("{who} took row {row}: {cards}.", who=who, row=row, cards=cards)
    if ev == "out":
        cards = card_words(entry.get("cards", []))
        return (
            _("Row {row} leaves the game ({cards}).", row=entry["row"], cards=cards)
            if cards
            else None
        )
    if ev == "end":
        return _("The game is over.")
    return None


def status(obs: Mapping[str, Any], names: Sequence[str], you: int | None) -> ui.Status:
    """Whose turn it is and what they can do, in one sentence."""
    if obs["phase"] == "over":
        return ui.Status("over", _("The game is over."))
    current = obs["current"]
    if current is None:
        return ui.Status("wait", _("Setting up…"))
    if current == you:
        legal = obs["legal_moves"]
        if obs["phase"] == "place":
            drawn = word(obs["drawn"])
            return ui.Status("you", _("Place the {card} card on a highlighted row.", card=drawn))
        if "draw" in legal:
            return ui.Status("you", _("Your turn: draw a card from the deck, or take a row."))
        return ui.Status("you", _("Your turn: no row has room, so take one."))
    return ui.Status("bot", _("{who} is thinking…", who=names[current]))


def deck_hint(last_round: bool, draws_before_last: int | None) -> str:
    """When the last-round card can come, in words that do not promise it will.

    >>> deck_hint(False, 7)
    'Last-round card: not before 7 more draws.'
    >>> deck_hint(False, 1), deck_hint(False, 0)
    ('Last-round card: not before 1 more draw.', 'Last-round card: may come with the next draw.')
    >>> deck_hint(True, None)
    'This is the last round!'
    """
    if last_round:
        return _("This is the last round!")
    if not draws_before_last:
        return _("Last-round card: may come with the next draw.")
    return ngettext(
        "Last-round card: not before {n} more draw.",
        "Last-round card: not before {n} more draws.",
        draws_before_last,
    )


def _last_placed(log: Sequence[Mapping[str, Any]], at: int, row_len: int) -> int | None:
    """Where in its row the card placed by ``log[at]`` lies now (None once the row left)."""
    row = log[at]["row"]
    later_places = 0
    for entry in log[at + 1 :]:
        ev = entry.get("event")
        if ev == "round" or (ev in ("take", "out") and entry.get("row") == row):
            return None
        if ev == "place" and entry.get("row") == row:
            later_places += 1
    index = row_len - 1 - later_places
    return index if index >= 0 else None


def last_action_text(entry: Mapping[str, Any], mine: bool = False) -> str:
    """A player's last action, short, for their panel ("took row 2"); ``mine``: the
    person's own (the same English, said to them in the languages that conjugate)."""
    ev = entry["event"]
    if ev == "take":
        row = entry["row"]
        return pgettext("you", "took row {row}", row=row) if mine else _("took row {row}", row=row)
    c = word(entry["card"])
    if ev == "place":
        row = entry["row"]
        if mine:
            return pgettext("you", "placed {card} on row {row}", card=c, row=row)
        return _("placed {card} on row {row}", card=c, row=row)
    return pgettext("you", "drew {card}", card=c) if mine else _("drew {card}", card=c)


def table(obs: Mapping[str, Any], names: Sequence[str], you: int | None) -> Table:
    """The whole table as plain data. ``obs`` is ``you``'s observation."""
    legal = set(obs["legal_moves"]) if you is not None and obs["current"] == you else set()
    log = obs["log"]
    last = ui.last_actions(log, ACTIONS)
    marks: dict[tuple[int, int], int] = {}  # (row, index) -> seat whose last action put it there
    for seat, (at, entry) in last.items():
        if entry["event"] == "place":
            row_len = len(obs["rows"][entry["row"] - 1]["cards"])
            index = _last_placed(log, at, row_len)
            if index is not None:
                marks[(entry["row"], index)] = seat
    rows = []
    for i, row in enumerate(obs["rows"], start=1):
        cards = tuple(
            replace(
                card(kind),
                last_by=names[marks[(i, j)]],
                last_seat=marks[(i, j)],
                last_you=marks[(i, j)] == you,
            )
            if (i, j) in marks
            else card(kind)
            for j, kind in enumerate(row["cards"])
        )
        rows.append(
            Row(
                n=i,
                cards=cards,
                free=row["capacity"] - len(row["cards"]),
                taken_by=None if row["taken_by"] is None else names[row["taken_by"]],
                taken_seat=row["taken_by"],
                place=f"place {i}" in legal,
                take=f"take {i}" in legal,
            )
        )
    colours = obs["colours"]
    players = []
    for seat, (coll, score) in enumerate(zip(obs["collections"], obs["scores"], strict=True)):
        plus = set(score["plus_colours"])
        groups = tuple(
            Group(card(c), coll[c], c in plus)
            for c in sorted(colours, key=lambda c: (c not in plus, -coll[c], colours.index(c)))
            if coll[c]
        )
        players.append(
            Player(
                seat=seat,
                name=names[seat],
                you=seat == you,
                turn=obs["current"] == seat and obs["phase"] != "over",
                sat_out=bool(obs["taken_this_round"][seat]) and obs["phase"] != "over",
                score=score["total"],
                groups=groups,
                jokers=coll.get("joker", 0),
                plus2=coll.get("+2", 0),
                cards=sum(coll.values()),
                last=last_action_text(last[seat][1], seat == you) if seat in last else "",
            )
        )
    return Table(
        status=status(obs, names, you),
        round=obs["round"],
        deck=Deck(
            count=obs["deck_count"],
            last_round=obs["last_round"],
            draws_before_last=obs["draws_before_last"],
            can_draw="draw" in legal,
            hint=deck_hint(obs["last_round"], obs["draws_before_last"]),
        ),
        drawn=card(obs["drawn"]) if obs["drawn"] else None,
        removed=tuple(card(c) for c in obs["removed"]),
        rows=tuple(rows),
        players=tuple(players),
        log=ui.log_lines(log, lambda e: describe(e, names, you)),
        advanced=bool(obs["advanced"]),
    )


def final(obs: Mapping[str, Any], names: Sequence[str]) -> list[ui.FinalScore]:
    """Each player's scoring breakdown, best first, with ranks (ties share a rank).

    A line per colour (its points plus or minus), then the +2 cards.
    """
    out: list[ui.FinalScore] = []
    breakdowns = [
        score_breakdown(coll, advanced=obs["advanced"], colours=obs["colours"])
        for coll in obs["collections"]
    ]
    for seat, (b, rank) in enumerate(
        zip(breakdowns, ui.ranks([b.total for b in breakdowns]), strict=True)
    ):
        lines = [_colour_line(c) for c in b.colours]
        if b.plus2_cards:
            text = _("+2 cards: {n}", n=b.plus2_cards)
            lines.append(ui.ScoreLine(text, f"+{b.plus2_points}", icon="+2"))
        why = plus_reason(b.colours, obs["advanced"])
        out.append(ui.FinalScore(seat, names[seat], rank, b.total, tuple(lines), why))
    out.sort(key=lambda p: (p.rank, p.seat))
    return out


def cards_text(n: int) -> str:
    """``1 card``, ``3 cards``."""
    return ngettext("{n} card", "{n} cards", n)


def colour_text(colour: str, cards: int, plus: bool, jokers: int = 0) -> str:
    """A collected colour in words: ``Red: 3 cards + 1 joker, counts plus``."""
    v = {"colour": label(colour), "cards": cards_text(cards)}
    if jokers:
        v["jokers"] = ngettext("{n} joker", "{n} jokers", jokers)
        if plus:
            return _("{colour}: {cards} + {jokers}, counts plus", **v)
        return _("{colour}: {cards} + {jokers}, counts minus", **v)
    if plus:
        return _("{colour}: {cards}, counts plus", **v)
    return _("{colour}: {cards}, counts minus", **v)


def _colour_line(c: Any) -> ui.ScoreLine:
    kind = "plus" if c.plus else "minus"
    sign = "+" if c.points >= 0 else ""
    text = colour_text(c.colour, c.cards, c.plus, c.jokers)
    return ui.ScoreLine(text, f"{sign}{c.points}", kind=kind, icon=c.colour)


def end_screen(
    obs: Mapping[str, Any], names: Sequence[str], you: int | None, winners: Sequence[int]
) -> ui.EndScreen:
    """The end screen from the final (public) observation."""
    players = final(obs, names)
    rules = end_rules(bool(obs["advanced"]), ui.tied([p.total for p in players]))
    return ui.EndScreen(ui.headline(winners, names, you), rules, tuple(players))


def plus_reason(colours: Sequence[Any], advanced: bool) -> str:
    """Which colours counted plus (and where the jokers went), short, for the end screen."""
    del advanced  # the table in use is said once, in ``end_rules``
    plus = [word(c.colour) for c in colours if c.plus]
    if plus:
        text = _("Counted plus: {colours}.", colours=", ".join(plus))
    else:
        text = _("Counted plus: no colour.")
    jokers = [
        ngettext("{n} joker as {colour}", "{n} jokers as {colour}", c.jokers, colour=word(c.colour))
        for c in colours
        if c.jokers
    ]
    if jokers:
        text += f" {'; '.join(jokers)}."
    return text


def end_rules(advanced: bool, tied: bool = False) -> str:
    """How the end screen's totals were made and, when totals are ``tied``, how ties are
    decided, in words."""
    scale = (
        _("Each colour scores 1, 4, 8, 7, 6, 5 (advanced) for 1 to 6 cards.")
        if advanced
        else _("Each colour scores 1, 3, 6, 10, 15, 21 for 1 to 6 cards.")
    )
    counted = _(
        "Each player's three colours that give the highest total count plus, every other "
        "colour counts minus; jokers go where they score most; each +2 card adds 2."
    )
    return f"{scale} {counted} {_(ui.TIE_RULE)}" if tied else f"{scale} {counted}"


def symbols() -> list[ui.Symbol]:
    """Every symbol of a Fileiras table and what it means, in the language spoken (the
    game bar's "Symbols"); ``piece``: ``card-<kind>`` a card, else the glyph.

    >>> [s.glyph for s in symbols()][-5:]
    ['✱', '+2', '⚑', '+', '−']
    """
    colours = [
        ui.Symbol(card(kind).symbol, _("{card} card", card=card(kind).label), f"card-{kind}")
        for kind in ("yellow", "green", "blue", "grey", "orange", "red", "brown")
    ]
    return [
        *colours,
        ui.Symbol(
            "✱", _("Joker: at the end it becomes the colour that scores you most"), "card-joker"
        ),
        ui.Symbol("+2", _("+2 card: 2 points more at the end"), "card-+2"),
        ui.Symbol(
            "⚑", _("Last-round card: once it appears, this round is the last one"), "card-last"
        ),
        ui.Symbol("+", _("Beside a colour you took: it counts plus (one of your three best)")),
        ui.Symbol("−", _("Beside a colour you took: it counts minus")),
    ]


RULES: tuple[str, ...] = (
    N_(
        "On your turn, either *draw* the top card of the deck and place it on a row that "
        "has room (at most 3 cards; in the 2-player game the rows hold 1, 2 and 3), or "
        "*take* a row with at least one card. Whoever takes a row sits out the rest of the "
        "round. When every row is full you must take one."
    ),
    N_(
        "To play, click the deck to draw, then a highlighted row (or its empty slot) to place "
        "the card; click a highlighted row to take it. The buttons beside them do the same."
    ),
    N_(
        "The round ends when everyone has taken a row; whoever took the last row starts the "
        "next one."
    ),
    N_(
        "When the *last-round card* appears (15 cards lie beneath it), this round is the "
        "last one. The table says how many draws must come first, at the least."
    ),
    N_(
        "Scoring per colour: 1, 3, 6, 10, 15, 21 points for 1-6 cards (no more for a 7th). Only "
        "your *three best colours* count plus; every other colour counts minus. Jokers "
        "become the colours that score you most; each +2 card adds 2."
    ),
    N_("Players with the same total share the victory (there is no tie-break)."),
)
"""The rules drawer's points (plain text, ``*word*`` for emphasis; English:
the frame translates them), in order."""
