"""Fileiras view models: an observation becomes plain data the DOM layer draws.

Nothing here decides a rule: what may be clicked comes from the legal moves,
scores come from :mod:`optimus.rows.scoring`. Every colour has a symbol as
well as a hue, so the table reads without colour vision.

>>> card("red")["symbol"], card("+2")["label"]
('♥', '+2')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from optimus.core.protocol import JSON
from optimus.rows.scoring import score_breakdown

COLOUR_SYMBOLS: dict[str, tuple[str, str]] = {
    "yellow": ("Yellow", "●"),
    "green": ("Green", "▲"),
    "blue": ("Blue", "■"),
    "grey": ("Grey", "◆"),
    "orange": ("Orange", "✚"),
    "red": ("Red", "♥"),
    "brown": ("Brown", "♣"),
    "joker": ("Joker", "✱"),
    "+2": ("+2", "+2"),
    "last": ("Last round", "⚑"),
}

BOT_NAMES = {"easy": "Easy bot", "normal": "Normal bot", "hard": "Hard bot", "random": "Random bot"}


def card(kind: str) -> dict[str, str]:
    label, symbol = COLOUR_SYMBOLS.get(kind, (kind, "?"))
    return {"kind": kind, "label": label, "symbol": symbol}


def seat_names(seats: Sequence[str], human: str = "You") -> list[str]:
    """Display names: the human is "You", bots are named by level and seat."""
    names = []
    for i, kind in enumerate(seats):
        if kind == "human":
            names.append(human if seats.count("human") == 1 else f"Player {i + 1}")
        else:
            names.append(f"{BOT_NAMES.get(kind, kind)} {i + 1}")
    return names


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def describe(entry: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """One log line for a public event (None for events not worth a line)."""
    ev = entry.get("event")
    who = names[entry["player"]] if "player" in entry else ""
    if ev == "remove":
        return f"{card(entry['colour'])['label']} is out of this game."
    if ev == "deal":
        return f"{who} starts with {card(entry['card'])['label']}."
    if ev == "round":
        return f"Round {entry['round']} — {names[entry['starter']]} starts."
    if ev == "draw":
        return f"{who} drew {card(entry['card'])['label']}."
    if ev == "last_round":
        return f"{who} drew the last-round card: this is the last round!"
    if ev == "place":
        return f"{who} placed {card(entry['card'])['label']} on row {entry['row']}."
    if ev == "take":
        cards = ", ".join(card(c)["label"] for c in entry.get("cards", []))
        return f"{who} took row {entry['row']} ({cards})."
    if ev == "out":
        cards = ", ".join(card(c)["label"] for c in entry.get("cards", []))
        return f"Row {entry['row']} leaves the game ({cards})." if cards else None
    if ev == "end":
        return "The game is over."
    return None


def status(obs: Mapping[str, Any], names: Sequence[str], you: int | None) -> dict[str, str]:
    """Whose turn it is and what they can do, in one sentence."""
    if obs["phase"] == "over":
        return {"tone": "over", "text": "The game is over."}
    current = obs["current"]
    if current is None:
        return {"tone": "wait", "text": "Setting up…"}
    if current == you:
        legal = obs["legal_moves"]
        if obs["phase"] == "place":
            drawn = card(obs["drawn"])
            return {"tone": "you", "text": f"Place the {drawn['label']} card on a highlighted row."}
        if "draw" in legal:
            return {"tone": "you", "text": "Your turn: draw a card, or take a row."}
        return {"tone": "you", "text": "Every row is full: take one."}
    return {"tone": "bot", "text": f"{names[current]} is thinking…"}


def table(obs: Mapping[str, Any], names: Sequence[str], you: int | None) -> dict[str, JSON]:
    """The whole table as plain data. ``obs`` is ``you``'s observation."""
    legal = set(obs["legal_moves"]) if you is not None and obs["current"] == you else set()
    rows = []
    for i, row in enumerate(obs["rows"], start=1):
        rows.append(
            {
                "n": i,
                "cards": [card(c) for c in row["cards"]],
                "free": row["capacity"] - len(row["cards"]),
                "taken_by": None if row["taken_by"] is None else names[row["taken_by"]],
                "place": f"place {i}" in legal,
                "take": f"take {i}" in legal,
            }
        )
    colours = obs["colours"]
    players = []
    for seat, (coll, score) in enumerate(zip(obs["collections"], obs["scores"], strict=True)):
        plus = set(score["plus_colours"])
        groups = [
            {**card(c), "count": coll[c], "plus": c in plus}
            for c in sorted(colours, key=lambda c: (c not in plus, -coll[c], colours.index(c)))
            if coll[c]
        ]
        players.append(
            {
                "seat": seat,
                "name": names[seat],
                "you": seat == you,
                "turn": obs["current"] == seat and obs["phase"] != "over",
                "sat_out": obs["taken_this_round"][seat] and obs["phase"] != "over",
                "score": score["total"],
                "groups": groups,
                "jokers": coll.get("joker", 0),
                "plus2": coll.get("+2", 0),
            }
        )
    log = [line for e in obs["log"] if (line := describe(e, names))]
    return {
        "status": status(obs, names, you),
        "round": obs["round"],
        "deck": {
            "count": obs["deck_count"],
            "last_round": obs["last_round"],
            "draws_before_last": obs["draws_before_last"],
            "can_draw": "draw" in legal,
        },
        "drawn": card(obs["drawn"]) if obs["drawn"] else None,
        "removed": [card(c) for c in obs["removed"]],
        "rows": rows,
        "players": players,
        "log": log[-12:][::-1],
        "advanced": obs["advanced"],
    }


def final(obs: Mapping[str, Any], names: Sequence[str]) -> list[dict[str, JSON]]:
    """Each player's scoring breakdown, best first, with ranks (ties share a rank)."""
    out: list[dict[str, Any]] = []
    for seat, coll in enumerate(obs["collections"]):
        b = score_breakdown(coll, advanced=obs["advanced"], colours=obs["colours"])
        out.append(
            {
                "seat": seat,
                "name": names[seat],
                "total": b.total,
                "colours": [
                    {
                        **card(c.colour),
                        "cards": c.cards,
                        "jokers": c.jokers,
                        "points": c.points,
                        "plus": c.plus,
                    }
                    for c in b.colours
                ],
                "jokers": b.jokers,
                "plus2_cards": b.plus2_cards,
                "plus2_points": b.plus2_points,
            }
        )
    totals: list[int] = [p["total"] for p in out]
    for p in out:
        p["rank"] = 1 + sum(1 for t in totals if t > p["total"])
    out.sort(key=lambda p: (p["rank"], p["seat"]))
    return out
