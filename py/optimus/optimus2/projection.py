"""A learned projection of each Optimus 2 area's final score, for the bots.

A fox scores like the lowest area *at the end*, so what a position is worth
depends on what each area can still become in the game left. This module
projects every area's final score, and the foxes at the end, by a linear
model per area on a few features of the sheet (its score now, the
hand-written effective score of :mod:`optimus.optimus2.heuristics`, the slots
filled, the room left, the actions in hand, each also times the share of the
game left ``t``). :func:`projected_value` is then the sum of the projected
areas plus the projected foxes times the (soft) lowest projected area.

The coefficients are package data (``projection.json``), fitted by least
squares on the positions of self-played solo games (standard library only)::

    nice -n 19 env PYTHONPATH=py python -m optimus.optimus2.projection --games 2000

>>> from optimus.optimus2.sheet import load_sheet
>>> sd = load_sheet()
>>> round(projected_value(sd, sd.new_sheet(), 0.0), 6)
0.0
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, partial
from importlib import resources
from typing import TYPE_CHECKING

from optimus.optimus2.heuristics import FITS, effective_areas, fox_progress
from optimus.optimus2.sheet import AREAS, SheetDef, area_scores

if TYPE_CHECKING:
    from optimus.optimus2.game import Optimus2State

TARGETS = (*AREAS, "foxes")
"""What is projected: the five areas' final scores, then the final foxes."""


Parts = tuple[list[int], list[float], list[tuple[int, float]], list[float], float, float]


def parts(sd: SheetDef, sh: list[int], t: float, eff: list[float] | None = None) -> Parts:
    """What the features are made of: area scores, effective scores, per-area progress,
    the features common to every target, the foxes and the progress towards more."""
    now = area_scores(sd, sh)
    if eff is None:
        eff = effective_areas(sd, sh, t)
    AC, AU = sd.AC, sd.AU
    r, b, x = sh[AC] - sh[AU], sh[AC + 1] - sh[AU + 1], sh[AC + 2] - sh[AU + 2]
    common = [t, t * t, t * r, t * b, t * x, float(x)]
    Y = sd.Y
    cells = sh[Y : Y + len(sd.yellow_cells)]
    n = sh[sd.BN]
    last = sh[sd.BN + n] if n else 13
    g = sh[sd.GN]
    S = sd.S
    filled = [
        (cells.count(2), cells.count(1)),
        (n, FITS[min(last, 12)] * (sd.blue_slots - n)),
        (g, float(sh[sd.GN + g]) if g % 2 else 0.0),
        (sh[sd.PN], 0.0),
        (
            sh[S].bit_count()
            + sh[S + 1].bit_count()
            + sh[S + 2].bit_count()
            + sh[S + 3].bit_count(),
            0.0,
        ),
    ]
    return now, eff, filled, common, float(sh[sd.FOX]), fox_progress(sd, sh)


def features(
    sd: SheetDef, sh: list[int], t: float, eff: list[float] | None = None
) -> list[list[float]]:
    """Feature vectors of each target of :data:`TARGETS` (the last: the foxes).

    All features but the current score (or foxes) and the extra dice in hand
    vanish at the end of the game (``t == 0``), where a fitted projection is
    then close to the score itself.
    """
    now, eff, filled, common, foxes, prog = parts(sd, sh, t, eff)
    rows = []
    for a in range(5):
        x, y = filled[a]
        s = now[a]
        rows.append([float(s), eff[a] - s, t * s, t * x, t * t * x, t * y, *common])
    rows.append([foxes, t * foxes, t * prog, prog * (1 - t) * t, *common])
    return rows


@dataclass(frozen=True)
class Projection:
    """Coefficients per target (the order of :data:`TARGETS` and :func:`features`)."""

    coefs: tuple[tuple[float, ...], ...]
    soft: float = 2.0
    """Temperature of the soft minimum over the projected areas (0: the plain minimum)."""

    def project(
        self, sd: SheetDef, sh: list[int], t: float, eff: list[float] | None = None
    ) -> list[float]:
        """Projected final scores of the five areas, then the projected final foxes.

        ``eff``: the sheet's :func:`~optimus.optimus2.heuristics.effective_areas` at ``t``
        when the caller has them already. (The dot products of :func:`features` with
        the coefficients, computed without building the feature lists.)
        """
        now, eff, filled, (c0, c1, c2, c3, c4, c5), foxes, prog = parts(sd, sh, t, eff)
        out = []
        for a, k in enumerate(self.coefs):
            common = k[-6] * c0 + k[-5] * c1 + k[-4] * c2 + k[-3] * c3 + k[-2] * c4 + k[-1] * c5
            if a == 5:
                out.append(
                    k[0] * foxes + t * (k[1] * foxes + k[2] * prog + k[3] * prog * (1 - t)) + common
                )
                break
            x, y = filled[a]
            s = now[a]
            out.append(
                k[0] * s
                + k[1] * (eff[a] - s)
                + t * (k[2] * s + k[3] * x + k[4] * t * x + k[5] * y)
                + common
            )
        return out


def soft_min(xs: Sequence[float], tau: float) -> float:
    """A smooth minimum of ``xs`` (the plain minimum when ``tau`` is 0)."""
    low = min(xs)
    if tau <= 0:
        return low
    return low - tau * math.log(math.fsum(math.exp((low - x) / tau) for x in xs))


def projected_value(
    sd: SheetDef,
    sh: list[int],
    t: float,
    p: Projection | None = None,
    eff: list[float] | None = None,
) -> float:
    """Projected final total: the areas plus the foxes times the lowest area."""
    p = p or load_projection()
    out = p.project(sd, sh, t, eff)
    areas, foxes = out[:5], out[5]
    return math.fsum(areas) + max(0.0, foxes) * soft_min(areas, p.soft * t)


@cache
def load_projection(name: str = "projection") -> Projection:
    """The fitted projection shipped with the package (``optimus/optimus2/<name>.json``)."""
    text = resources.files("optimus.optimus2").joinpath(f"{name}.json").read_text("utf-8")
    return parse_projection(text, f"{name}.json")


def parse_projection(text: str, where: str = "projection") -> Projection:
    """A :class:`Projection` from the JSON :func:`main` writes, checked against the features."""
    from optimus.optimus2.sheet import load_sheet

    data = json.loads(text)
    coefs = data.get("coefs")
    sd = load_sheet()
    sizes = [len(r) for r in features(sd, sd.new_sheet(), 1.0)]
    if data.get("targets") != list(TARGETS) or [len(c) for c in coefs or ()] != sizes:
        raise ValueError(
            f"{where}: expected coefficients for {list(TARGETS)} of sizes {sizes}"
            " (the features of this version); refit with python -m optimus.optimus2.projection"
        )
    return Projection(tuple(tuple(float(x) for x in c) for c in coefs), float(data["soft"]))


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a x = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[piv][col]) < 1e-12:
            raise ValueError("singular system")
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def least_squares(
    xs: Sequence[Sequence[float]], ys: Sequence[float], ridge: float = 1e-3
) -> list[float]:
    """Coefficients minimising the squared error of ``x . c`` against ``y`` (ridge-damped)."""
    k = len(xs[0])
    ata = [[0.0] * k for _ in range(k)]
    aty = [0.0] * k
    for x, y in zip(xs, ys, strict=True):
        for i in range(k):
            xi = x[i]
            if xi:
                aty[i] += xi * y
                row = ata[i]
                for j in range(k):
                    row[j] += xi * x[j]
    for i in range(k):
        ata[i][i] += ridge * len(xs)
    return solve(ata, aty)


def fit(samples: Sequence[tuple[list[list[float]], list[float]]]) -> list[list[float]]:
    """Least-squares coefficients per target from ``(features, finals)`` samples."""
    return [
        least_squares([f[k] for f, _ in samples], [y[k] for _, y in samples])
        for k in range(len(TARGETS))
    ]


def _look(seen: list[list[list[float]]], s: Optimus2State, p: int, legal: list[str]) -> None:
    """Record the features of a self-play position (:func:`self_play`)."""
    from optimus.optimus2.bots import progress_left

    seen.append(features(s.sd, s.sheets[p], progress_left(s)))


def self_play(games: int, seed: int, learned: float) -> list[tuple[list[list[float]], list[float]]]:
    """Positions of solo games of ``normal`` (evaluation mix ``learned``) with their finals."""
    from optimus.core.rng import Rng
    from optimus.optimus2.bots import greedy_to_end
    from optimus.optimus2.game import Optimus2State
    from optimus.optimus2.heuristics import Weights
    from optimus.optimus2.sheet import load_sheet

    w = Weights(learned=learned)
    out: list[tuple[list[list[float]], list[float]]] = []
    for g in range(seed, seed + games):
        s = Optimus2State(1, load_sheet())
        seen: list[list[list[float]]] = []
        greedy_to_end(s, w, Rng(g), Rng(g * 7919 + 17), before=partial(_look, seen))
        sh = s.sheets[0]
        finals = [float(x) for x in area_scores(s.sd, sh)] + [float(sh[s.sd.FOX])]
        out.extend((f, finals) for f in seen)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    import argparse  # here: the page imports this module, and needs no command line

    parser = argparse.ArgumentParser(
        prog="python -m optimus.optimus2.projection", description=__doc__
    )
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=300_000)
    parser.add_argument("--learned", type=float, default=0.0, help="evaluation mix of the players")
    parser.add_argument("--soft", type=float, default=2.0)
    parser.add_argument("--out", default="py/optimus/optimus2/projection.json")
    args = parser.parse_args(argv)
    samples = self_play(args.games, args.seed, args.learned)
    coefs = fit(samples)
    for name, c in zip(TARGETS, coefs, strict=True):
        print(name, " ".join(f"{x:.3f}" for x in c), flush=True)
    data = {
        "targets": list(TARGETS),
        "games": args.games,
        "seed": args.seed,
        "learned": args.learned,
        "samples": len(samples),
        "soft": args.soft,
        "coefs": [[round(x, 6) for x in c] for c in coefs],
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print(f"{len(samples)} positions of {args.games} games -> {args.out}")


if __name__ == "__main__":
    main()
