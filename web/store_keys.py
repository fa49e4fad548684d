"""Every name the site keeps in the browser's storage (``localStorage``), in one place.

All start with ``optimus-table.``; a game's own keys follow with its id.  The
page's scripts keep the language chosen under :data:`LANG` too (``web/head.js``
reads it, ``web/page.js`` writes it: JavaScript, so they spell it themselves).
No browser imports here: the boot imports it (the landing's cards read the saves).

>>> save("mygame"), settings("mygame"), daily("mygame")
('optimus-table.mygame.save', 'optimus-table.mygame.settings', 'optimus-table.mygame.daily')
>>> game_key("mygame", "sheets"), PEOPLE
('optimus-table.mygame.sheets', 'optimus-table.people')
"""

from __future__ import annotations

PREFIX = "optimus-table."

PROBE = f"{PREFIX}probe"
"""Written and removed at once: whether storage is usable (web/storage.py)."""
PEOPLE = f"{PREFIX}people"
"""The names typed for the people at the device, every game's (web/setup.py)."""
RECORDS = f"{PREFIX}records"
"""The player's records (web/storage.py's ``RecordsStore``)."""
RECORDS_NOTICE = f"{PREFIX}records.notice"
"""What the records page must still say (a book set aside by a game page), until it does."""
RECORDS_LOCK = f"{PREFIX}records"
"""Not a key: the Web Lock every tab of the site holds while it reads and writes the records."""
LANG = f"{PREFIX}lang"
"""The language chosen (web/head.js, web/page.js)."""
TABS = f"{PREFIX}tabs"
"""Not a key: the ``BroadcastChannel`` the site's tabs share (web/tabs.py)."""


def game_key(game_id: str, name: str) -> str:
    """A game's own key ``name`` (``save``, ``settings``, ``daily``; a page's own, such
    as Optimus's ``sheets``, the random sheets that can be played again)."""
    return f"{PREFIX}{game_id}.{name}"


def save(game_id: str) -> str:
    """A game's game in progress (web/storage.py's ``Saves``; the landing reads it)."""
    return game_key(game_id, "save")


def settings(game_id: str) -> str:
    """A game's set-up settings (web/setup.py)."""
    return game_key(game_id, "settings")


def daily(game_id: str) -> str:
    """The seed and day of a game's daily challenge in play (web/links.py)."""
    return game_key(game_id, "daily")


def play_lock(game_id: str) -> str:
    """Not a key: the Web Lock held by the tab that plays a game (web/tabs.py)."""
    return game_key(game_id, "play")
