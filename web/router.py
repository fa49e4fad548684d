"""Hash routes of the single page: ``#/`` is the landing page, ``#/<game>`` a game.

Games are routes of the same page, so the site stays one static file that
works under any sub-path and inside an iframe.  A game's table is a *view*
registered with :meth:`Router.register`.  The landing page itself is static
HTML in index.html (its cards made by the build from the games' descriptions),
visible before Python loads; the router only hides and shows it.

Route parsing is pure (``parse_route``) so it can be reasoned about without a
browser; everything that touches the DOM takes the ``document``/``window``
objects it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from . import store_keys

try:
    from optimus.i18n import _
except ImportError:  # the wheel is missing or damaged: boot() reports it in words

    def _(message: str, /, **values: object) -> str:
        return message.format(**values) if values else message


def N_(message: str, /) -> str:  # noqa: N802 - optimus.i18n's name, for the catalogs
    return message


PLAY = N_("Play")
"""A landing card's word (optimus.games.PLAY, as the build writes it)."""
RESUME = N_("Resume")
"""A landing card's word when its game has a game in progress."""


class View(Protocol):
    """A game table drawn into a container element.

    ``mount`` is called when the route is entered, with an empty container
    element; ``unmount`` when the route is left (drop event proxies, stop
    timers).  Views must never block: long work (bots) yields to the page.
    """

    def mount(self, container: Any) -> None: ...

    def unmount(self) -> None: ...


ViewFactory = Callable[[], View]

try:  # Pyodide >= 0.27 hands JS null to Python as ``jsnull``, not None
    from pyodide.ffi import jsnull as _JSNULL
except ImportError:  # outside Pyodide (doctests) or an older Pyodide
    _JSNULL = None


def found(node: Any) -> bool:
    """True if a DOM lookup found something: JS ``null`` arrives as None or ``jsnull``.

    >>> found(None)
    False
    """
    return node is not None and node is not _JSNULL


def when_idle(window: Any, callback: Callable[..., None]) -> None:
    """Call ``callback`` once, in the page's next idle period (``requestIdleCallback``;
    200 ms from now where there is none, as in Safari): work nobody waits for, done
    where it keeps no click or bot waiting."""
    from pyodide.ffi import create_once_callable  # here: the pure parts import in CPython

    if hasattr(window, "requestIdleCallback"):
        window.requestIdleCallback(create_once_callable(callback))
    else:
        window.setTimeout(create_once_callable(callback), 200)


HOME = ""


def shorten(text: str, limit: int = 40) -> str:
    """``text`` as shown on a page: its first ``limit`` characters and "…" if longer.

    A route comes from the address bar, which may hold any length of text.

    >>> shorten("cards"), shorten("x" * 100_000)
    ('cards', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…')
    """
    return text if len(text) <= limit else text[:limit] + "…"


def parse_route(location_hash: str) -> str:
    """The route named by a URL fragment: ``"#/cards"`` -> ``"cards"``.

    The landing page is ``HOME`` (the empty string); surrounding slashes and
    letter case do not matter; a query (``?seed=1``) and a sub-path
    (``/daily``) are not part of the route (:func:`split_route`).

    >>> parse_route("#/Cards/"), parse_route("#/"), parse_route("")
    ('cards', '', '')
    >>> parse_route("#/Dice2?seed=812&players=you,hard"), parse_route("#/dice/daily")
    ('dice2', 'dice')
    """
    return split_route(location_hash)[0]


def split_route(location_hash: str) -> tuple[str, str, str]:
    """A URL fragment as (route, sub-path, query): the route lowercased, the sub-path's
    letters too (``daily``, ``replay/3``), the query as it was written (names in it
    keep their case).

    >>> split_route("#/Dice2/?seed=812&players=you,Ana")
    ('dice2', '', 'seed=812&players=you,Ana')
    >>> split_route("#/cards/Daily?date=2026-12-02")
    ('cards', 'daily', 'date=2026-12-02')
    >>> split_route("#/dice/replay/3/")
    ('dice', 'replay/3', '')
    """
    path, _sep, query = location_hash.removeprefix("#").partition("?")
    route, _sep, sub = path.strip("/").partition("/")
    return route.lower(), sub.strip("/").lower(), query


class Router:
    """Shows the landing page or one game, following ``location.hash``."""

    def __init__(
        self,
        document: Any,
        window: Any,
        create_proxy: Callable[[Any], Any],
        games: Mapping[str, str],
    ) -> None:
        """``games`` maps each game's route to its title (the descriptions in
        ``optimus.games``)."""
        self._document = document
        self._window = window
        self._home = document.getElementById("home")
        self._game = document.getElementById("game")
        self._title = document.getElementById("game-title")
        self._container = document.getElementById("game-view")
        self._tools = document.getElementById("game-tools")
        self.games = dict(games)
        self._factories: dict[str, ViewFactory] = {}
        self._current: View | None = None
        self._route: str | None = None
        self._titles: dict[str, str] = {}
        self._listener = create_proxy(self._on_hashchange)

    def register(self, game: str, factory: ViewFactory, title: str = "") -> None:
        """Draw ``game``'s route with views made by ``factory``; a route that is not a game
        (``records``) gives its ``title``."""
        if game not in self.games and not title:
            raise ValueError(f"unknown game {game!r}; the games are {sorted(self.games)}")
        if title:
            self._titles[game] = title
        self._factories[game] = factory

    def start(self) -> None:
        """Listen for route changes and show the current route."""
        self._window.addEventListener("hashchange", self._listener)
        self._follow()

    def _on_hashchange(self, _event: Any = None) -> None:
        self._follow()

    def _follow(self) -> None:
        """Show the route of the address; a view with ``open(sub, query)`` is given the
        rest of it (a deal's link, ``daily``, ``replay/3``)."""
        route, sub, query = split_route(str(self._window.location.hash))
        self.show(route)
        view = self._current
        opener = getattr(view, "open", None)
        if opener is not None and route == self._route:
            try:
                opener(sub, query)
            except Exception as exc:  # a link must not take the page down
                self._window.console.error(f"route {route!r} could not open {sub!r}: {exc!r}")

    def show(self, route: str) -> None:
        """Switch the page to ``route`` (``HOME`` or a game id)."""
        if route == self._route:
            return
        if self._current is not None:
            current, self._current = self._current, None
            current.unmount()
        self._route = route
        self._container.replaceChildren()
        if found(self._tools):
            self._tools.replaceChildren()
        if route == HOME:
            self._game.hidden = True
            self._home.hidden = False
            self._document.title = _("Optimus Table: three tabletop games")
            self.mark_saved_games()
            return
        self._home.hidden = True
        self._game.hidden = False
        title = self.games.get(route) or self._titles.get(route)
        factory = self._factories.get(route)
        if title is None or factory is None:
            shown = shorten(route)
            self._show_message(
                _("Page not found"), _("There is no game called “{name}” here.", name=shown)
            )
        else:
            self._title.textContent = title
            try:
                self._current = factory()
                self._current.mount(self._container)
            except Exception as exc:  # a broken view must not take the page down
                self._current = None
                self._container.replaceChildren()
                self._show_message(
                    title,
                    _("{game} could not start: {error}", game=title, error=_error(exc)),
                )
                self._window.console.error(f"view {route!r} failed: {exc!r}")
        self._document.title = f"{self._title.textContent} · Optimus Table"  # not shown: names only
        # Scrolling and focusing need the page laid out: done once the table is in
        # it, so the browser lays out once, not also the empty frame before.
        self._window.scrollTo(0, 0)
        self._title.focus()

    def relabel(self) -> None:
        """Draw the current route again in the language spoken now (a game's table keeps
        its game: its ``relabel``)."""
        view = self._current
        relabel = getattr(view, "relabel", None)
        if relabel is not None:
            relabel()
        elif self._route is not None and self._route != HOME:
            route, self._route = self._route, None
            self.show(route)
            return
        if self._route == HOME:
            self._document.title = _("Optimus Table: three tabletop games")
            self.mark_saved_games()
        else:
            self._document.title = (
                f"{self._title.textContent} · Optimus Table"  # not shown: names only
            )

    def mark_saved_games(self) -> None:
        """The landing's card of a game with a game in progress says "Resume" rather than
        "Play" (the saves are ``optimus-table.<id>.save``, web/store_keys.py; read only here).
        ``data-i18n-text`` keeps index.html's own translation of the card in step."""
        try:
            local = self._window.localStorage
        except Exception:  # storage refused: nothing can be resumed after a reload
            local = None
        for card in self._document.querySelectorAll("a.game-card[data-game]"):
            go = card.querySelector(".go")
            if not found(go):
                continue
            try:
                key = store_keys.save(str(card.getAttribute("data-game")))
                saved = found(local) and bool(local.getItem(key))
            except Exception:
                saved = False
            word = RESUME if saved else PLAY
            go.setAttribute("data-i18n-text", word)
            go.textContent = _(word)
            go.classList.toggle("resume", saved)

    def _show_message(self, title: str, message: str) -> None:
        self._title.textContent = title
        paragraph = self._document.createElement("p")
        paragraph.className = "notice"
        paragraph.textContent = message
        self._container.append(paragraph)


def _error(exc: BaseException) -> str:
    """An error as the notice shows it: its kind and its own words."""
    return f"{type(exc).__name__}: {exc}"
