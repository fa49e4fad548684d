"""Sentences kept as data (marked with ``N_``), read in the language spoken when read."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from optimus.i18n import _


class Words(Mapping[str, str]):
    """A mapping of keys to sentences kept as data (``N_``), read in the language spoken
    when they are read: ``SPEED_LABELS["fast"]`` is "Fast", or "Rápida" in Portuguese.

    >>> Words({"a": "Hello"})["a"], list(Words({"a": "Hello"}).items())
    ('Hello', [('a', 'Hello')])
    """

    def __init__(self, english: Mapping[str, str]) -> None:
        self.english = dict(english)
        """The sentences in English (the catalogs' keys)."""

    def __getitem__(self, key: str) -> str:
        return _(self.english[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self.english)

    def __len__(self) -> int:
        return len(self.english)
