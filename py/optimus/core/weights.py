"""Named learned weights of one kind: those a package ships as data files, and those
registered in their place (training, tests, a player's experiment).

>>> from optimus.games import GAMES
>>> game = next(g for g in GAMES if data.exists(f"optimus.{g}", "value_weights.json"))
>>> shelf = Shelf(f"optimus.{game}", lambda text, where: len(text))
>>> shelf.register("value_weights", 7)
>>> shelf.get("value_weights"), shelf.registered("value_weights")
(7, 7)
>>> shelf.unregister("value_weights")
>>> shelf.registered("value_weights") is None and shelf.get("value_weights") > 100
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from optimus.core import data

T = TypeVar("T")


class Shelf(Generic[T]):
    """Models of one kind by name: a registered one, else the package's ``<name>.json``
    (read and parsed once, by ``parse(text, where)``, lazily: on first use).

    ``changed`` is called whenever what a name gives may have changed (a cache of
    values computed from the models is then stale).
    """

    def __init__(
        self,
        package: str,
        parse: Callable[[str, str], T],
        changed: Callable[[], None] = lambda: None,
    ) -> None:
        self.package = package
        self.parse = parse
        self.changed = changed
        self._registered: dict[str, T] = {}
        self._shipped: dict[str, T] = {}
        self._found: dict[str, bool] = {}

    def register(self, name: str, model: T) -> None:
        """Make ``model`` the one :meth:`get` gives for ``name``."""
        self._registered[name] = model
        self.changed()

    def unregister(self, name: str) -> None:
        """Undo :meth:`register`: ``name`` is the package's model again (if it has one)."""
        self._registered.pop(name, None)
        self.changed()

    def registered(self, name: str) -> T | None:
        return self._registered.get(name)

    def has(self, name: str) -> bool:
        """Whether ``name`` is registered or the package ships ``<name>.json`` (looked for
        once: a bot asks at every decision)."""
        if name in self._registered or name in self._shipped:
            return True
        found = self._found.get(name)
        if found is None:
            found = self._found[name] = data.exists(self.package, f"{name}.json")
        return found

    def get(self, name: str) -> T:
        """The registered model, else the package's (:meth:`shipped`)."""
        hit = self._registered.get(name)
        return hit if hit is not None else self.shipped(name)

    def shipped(self, name: str) -> T:
        """The package's ``<name>.json``, parsed once."""
        hit = self._shipped.get(name)
        if hit is None:
            where = f"{name}.json"
            text = data.text(self.package, where)
            hit = self._shipped[name] = self.parse(text, where)
        return hit
