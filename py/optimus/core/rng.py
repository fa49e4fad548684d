"""Seeded randomness.

Rules never draw random numbers: the runner owns one generator per game and
samples chance events from it; every bot gets a generator of its own derived
from the game seed and its seat. The same seed gives the same numbers on
CPython and on Pyodide (both use the Mersenne Twister of ``random.Random``,
and only ``random()`` and ``randrange()`` are used, whose algorithms are stable
across Python versions). For speed, a draw below a positive ``n`` is made
here the way ``randrange(n)`` makes it (``random.Random._randbelow``, the
same code in CPython 3.11, 3.12 and 3.13): ``k = n.bit_length()`` random bits,
drawn again until they are below ``n`` -- the same numbers, without two
Python calls per draw. ``tests/core/test_rng.py`` checks that they agree.

>>> a, b = Rng(7), Rng(7)
>>> [a.randrange(100) for _ in range(3)] == [b.randrange(100) for _ in range(3)]
True
>>> derive_seed(7, "bot", 1) == derive_seed(7, "bot", 1) != derive_seed(7, "bot", 2)
True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

from optimus.core.protocol import EqualOutcomes

T = TypeVar("T")


def derive_seed(seed: int, *labels: object) -> int:
    """A 63-bit seed derived from ``seed`` and labels, independent of PYTHONHASHSEED."""
    text = "/".join([str(seed), *map(str, labels)]).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


class Rng:
    """A small wrapper around ``random.Random`` exposing only version-stable calls."""

    __slots__ = ("_r", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._r = random.Random(seed)

    def random(self) -> float:
        return self._r.random()

    def randrange(self, n: int) -> int:
        """An integer in ``[0, n)``: ``random.Random(seed).randrange(n)``'s numbers."""
        if n > 0:
            bits = self._r.getrandbits
            k = n.bit_length()
            r = bits(k)
            while r >= n:
                r = bits(k)
            return r
        return self._r.randrange(n)  # raises the usual error

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randrange(len(items))]

    def weighted(self, items: Sequence[T], weights: Sequence[int]) -> T:
        """Pick one item with probability proportional to its integer weight."""
        total = sum(weights)
        if total <= 0:
            raise ValueError("weights must add up to a positive number")
        x = self._r.randrange(total)
        for item, w in zip(items, weights, strict=True):
            if x < w:
                return item
            x -= w
        raise AssertionError("unreachable")

    def pick(self, pairs: Sequence[tuple[T, int]]) -> T:
        """:meth:`weighted` for (item, weight) pairs, such as ``chance_outcomes()``.

        The same draw as ``weighted(items, weights)`` (the same numbers are
        used, in the same way), without building the two lists; for
        :class:`~optimus.core.protocol.EqualOutcomes`, where every weight is 1,
        the walk through the weights ends at the drawn index itself.
        """
        if type(pairs) is EqualOutcomes:  # randrange(len(pairs)), inlined
            n = len(pairs)
            bits = self._r.getrandbits
            k = n.bit_length()
            r = bits(k)
            while r >= n:
                r = bits(k)
            return pairs[r][0]  # type: ignore[return-value]
        total = 0
        for _, w in pairs:
            total += w
        if total <= 0:
            raise ValueError("weights must add up to a positive number")
        x = self.randrange(total)
        for item, w in pairs:
            if x < w:
                return item
            x -= w
        raise AssertionError("unreachable")

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates with ``randrange`` (stable across Python versions)."""
        for i in range(len(items) - 1, 0, -1):
            j = self._r.randrange(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self, *labels: object) -> Rng:
        """An independent generator derived from this one's seed and labels."""
        return Rng(derive_seed(self.seed, *labels))
