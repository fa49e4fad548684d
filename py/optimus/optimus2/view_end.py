"""Optimus 2's end screen: each player's breakdown by area and foxes, the tie-break, and
in solo the rating band reached."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from optimus.i18n import N_, _, ngettext
from optimus.optimus2.sheet import AREAS, SheetDef, load_sheet
from optimus.ui import table as ui

from .words import colour_name

TIE_RULE = N_("Ties are broken by the highest single area; players still level share the victory.")


def area_details(sd: SheetDef, sheet: Mapping[str, Any]) -> dict[str, str]:
    """How each area scored, in words."""
    crosses = sum(1 for s in sheet["yellow"] if s == 2)
    green = sheet["green"]
    pairs = [f"{green[i]}−{green[i + 1]}" for i in range(0, len(green) - 1, 2)]
    marks = [len(r) for r in sheet["silver"]]
    blue, pink = len(sheet["blue"]), len(sheet["pink"])
    if pairs:
        green_text = ngettext("pair {pairs}", "pairs {pairs}", len(pairs), pairs=", ".join(pairs))
    else:
        green_text = _("no complete pair")
    return {
        "yellow": (
            ngettext("{n} crossed cell", "{n} crossed cells", crosses)
            if crosses
            else _("no crossed cell")
        ),
        "blue": ngettext("{n} slot filled", "{n} slots filled", blue)
        if blue
        else _("no slot filled"),
        "green": green_text,
        "pink": (
            ngettext("sum of {n} value", "sum of {n} values", pink)
            if pink
            else _("nothing written")
        ),
        "silver": _("marks per row {marks}", marks=", ".join(str(m) for m in marks)),
    }


def rating_text(sd: SheetDef, rating: str) -> str:
    """A solo rating band in words (``320 and above``, ``300-319``, ``below 140``)."""
    bands = [low for low, _label in sd.rating]
    labels = [label for _low, label in sd.rating]
    if rating not in labels:
        return rating
    at = labels.index(rating)
    low = bands[at]
    if low is None:
        above = bands[at - 1] if at else None
        return _("below {low}", low=above) if above is not None else rating
    if at == 0:
        return _("{low} and above", low=low)
    high = bands[at - 1]
    return f"{low}-{high - 1}" if high is not None else rating


def final(obs: Mapping[str, Any], names: Sequence[str]) -> list[ui.FinalScore]:
    """Each player's breakdown (areas, foxes), best first, with ranks (tie-break applied).

    Each value carries ``data-area`` (the area, or ``foxes``).
    """
    sd = load_sheet(str(obs["sheet"]))
    keys = [_tie_key(sh) for sh in obs["sheets"]]
    out: list[ui.FinalScore] = []
    for seat, (sh, rank) in enumerate(zip(obs["sheets"], ui.ranks(keys), strict=True)):
        areas = dict(sh["areas"])
        low = min(areas.values())
        details = area_details(sd, sh)
        lines = [
            ui.ScoreLine(
                colour_name(a), str(areas[a]), f"({details[a]})", icon=a, data=(("area", a),)
            )
            for a in AREAS
        ]
        lines.append(
            ui.ScoreLine(
                _("✪ Foxes: {foxes} × {worth} (lowest area)", foxes=sh["foxes"], worth=low),
                str(sh["foxes"] * low),
                data=(("area", "foxes"),),
            )
        )
        out.append(ui.FinalScore(seat, names[seat], rank, sh["total"], tuple(lines)))
    out.sort(key=lambda p: (p.rank, p.seat))
    return out


def _tie_key(sheet: Mapping[str, Any]) -> int:
    """The total, then the highest single area (never above 1000 points)."""
    return int(sheet["total"]) * 1000 + int(max(sheet["areas"].values()))


def tie_note(names: Sequence[str], sheets: Sequence[Mapping[str, Any]]) -> str:
    """Whether the tie-break decided anything, in words (empty when totals differ)."""
    totals = [sh["total"] for sh in sheets]
    order = sorted(range(len(sheets)), key=lambda seat: (-_tie_key(sheets[seat]), seat))
    tied = [
        f"{names[seat]} {max(sheets[seat]['areas'].values())}"
        for seat in order
        if totals.count(sheets[seat]["total"]) > 1
    ]
    if not tied:
        return ""
    return _("Equal totals: the highest single area decides ({best}).", best=", ".join(tied))


def end_screen(
    obs: Mapping[str, Any], names: Sequence[str], you: int | None, winners: Sequence[int]
) -> ui.EndScreen:
    """The end screen from the final observation (solo: with the rating)."""
    note = tie_note(names, obs["sheets"])
    said = [note, _(TIE_RULE)] if note else []  # how ties are decided, when there is one
    rating = obs.get("rating")
    if rating:
        shown = rating_text(load_sheet(str(obs["sheet"])), str(rating))
        said.insert(0, _("Solo rating: {rating}.", rating=shown))
    rules = " ".join(said)
    return ui.EndScreen(ui.headline(winners, names, you), rules, tuple(final(obs, names)))
