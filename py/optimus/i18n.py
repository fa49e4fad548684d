"""The words players read, in their language: English, Brazilian Portuguese, Catalan.

Every sentence a player sees goes through this module: ``_("...")`` for a
sentence, ``ngettext(singular, plural, n)`` when it counts something,
``pgettext(context, "...")`` when one English word needs two translations, and
``N_("...")`` to mark a sentence kept as data (translated with ``_`` where it is
shown; ``NP_(context, "...")`` and ``NN_(singular, plural)`` likewise for
``pgettext`` and ``ngettext``).  Values go into named placeholders, always in the whole sentence::

    _("{who} took row {row}.", who=name, row=3)
    ngettext("{n} card", "{n} cards", n)

The English text is the key.  The translations are gettext catalogs: ``.po``
files in ``locale/<lang>/<domain>.po`` (edited by people), compiled by the
build into ``messages.<lang>.mo`` files inside the package each domain belongs
to (the shared table's in ``optimus.ui``, each game's in its own package), and
loaded with :func:`load` when that package is.  ``python build.py i18n``
extracts the sentences from the code into the catalogs (docs/i18n.md).

Nothing here touches the browser: the page tells :func:`use` which language to
speak.

>>> add_catalog("pt", {"{n} card": ("{n} carta", "{n} cartas"), "Hello": "Olá"})
>>> use("pt"); _("Hello"), ngettext("{n} card", "{n} cards", 2), number(1234.5, 1)
('Olá', '2 cartas', '1.234,5')
>>> use("en"); _("Hello"), ngettext("{n} card", "{n} cards", 1), number(1234.5, 1)
('Hello', '1 card', '1,234.5')
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Sequence
from typing import Any

LANGUAGES: dict[str, str] = {"en": "English", "pt": "Português (Brasil)", "ca": "Català"}
"""Each language the site speaks: its code (``?lang=``) and its name, in itself."""


TAGS: dict[str, str] = {"en": "en", "pt": "pt-BR", "ca": "ca"}
"""The BCP 47 tag of each language, for ``<html lang>``."""

PLURALS: dict[str, Callable[[int], int]] = {
    "en": lambda n: int(n != 1),
    # Brazilian Portuguese as players write it: only 1 is singular ("0 dias", "1 dia"),
    # not gettext's old (n > 1), which would say "0 dia" (docs/i18n.md).
    "pt": lambda n: int(n != 1),
    "ca": lambda n: int(n != 1),
}
"""Which plural form a count takes (the catalogs' ``Plural-Forms`` say the same)."""

PLURAL_FORMS: dict[str, str] = {
    "en": "nplurals=2; plural=(n != 1);",
    "pt": "nplurals=2; plural=(n != 1);",
    "ca": "nplurals=2; plural=(n != 1);",
}

SEPARATORS: dict[str, tuple[str, str]] = {"en": (",", "."), "pt": (".", ","), "ca": (".", ",")}
"""Thousands and decimal separators."""


_current = "en"
_catalogs: dict[str, dict[str, str | tuple[str, ...]]] = {lang: {} for lang in LANGUAGES}
_packages: list[str] = []
_listeners: list[Callable[[str], None]] = []
CONTEXT = "\x04"


def pick(preferred: Iterable[str]) -> str:
    """The language for a browser's list of languages: ``pt*`` -> pt, ``ca*`` -> ca, else en.

    The first language of the list that the site speaks wins.

    >>> pick(["de-DE", "pt-PT", "en"]), pick(["ca-ES"]), pick(["fr"]), pick([])
    ('pt', 'ca', 'en', 'en')
    """
    for tag in preferred:
        code = str(tag).strip().lower().replace("_", "-").split("-")[0]
        if code in LANGUAGES:
            return code
    return "en"


def parse(code: object) -> str | None:
    """A ``?lang=`` value as a language code, or None when the site does not speak it.

    >>> parse("PT-br"), parse("ca"), parse("xx"), parse(None)
    ('pt', 'ca', None, None)
    """
    if not isinstance(code, str):
        return None
    key = code.strip().lower().replace("_", "-").split("-")[0]
    return key if key in LANGUAGES else None


def language() -> str:
    """The language spoken now."""
    return _current


def use(lang: str) -> None:
    """Speak ``lang`` from now on (unknown codes mean English); load the catalogs of
    every package registered with :func:`load` for it, and tell the listeners."""
    global _current
    _current = lang if lang in LANGUAGES else "en"
    for package in list(_packages):
        _load_package(package, _current)
    for listener in list(_listeners):
        listener(_current)


def on_change(listener: Callable[[str], None]) -> None:
    """Call ``listener(lang)`` whenever :func:`use` changes the language."""
    _listeners.append(listener)


def load(package: str) -> None:
    """Register ``package``'s catalogs (``messages.<lang>.mo`` beside its modules) and
    load the current language's, if it is there (the source tree has none)."""
    if package not in _packages:
        _packages.append(package)
        _load_package(package, _current)


def _load_package(package: str, lang: str) -> None:
    if lang == "en":
        return
    import importlib
    import os

    try:  # what pkgutil.get_data does, without importing pkgutil at the page's boot
        module = importlib.import_module(package)
        folder = os.path.dirname(module.__file__ or "")
        loader: Any = module.__spec__.loader  # type: ignore[union-attr]
        data = loader.get_data(os.path.join(folder, f"messages.{lang}.mo"))
    except (OSError, ImportError, ValueError, AttributeError):
        data = None
    if data:
        add_catalog(lang, read_mo(data))


def add_catalog(lang: str, messages: dict[str, str | tuple[str, ...]]) -> None:
    """Add translations to ``lang``'s catalog (a later one wins on the same key)."""
    _catalogs.setdefault(lang, {}).update(messages)


def catalog(lang: str) -> dict[str, str | tuple[str, ...]]:
    """The translations loaded for ``lang`` (for tests and the page's own use)."""
    return _catalogs.setdefault(lang, {})


def read_mo(data: bytes) -> dict[str, str | tuple[str, ...]]:
    """A compiled gettext catalog (``.mo``) as {key: translation}.

    The key of a plural entry is its singular, its translation the tuple of forms;
    a context is written ``context + "\\x04" + message``.  The header is left out.
    """
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    out: dict[str, str | tuple[str, ...]] = {}
    for i in range(count):
        olen, ooff = struct.unpack(order + "2I", data[originals + 8 * i : originals + 8 * i + 8])
        tlen, toff = struct.unpack(
            order + "2I", data[translations + 8 * i : translations + 8 * i + 8]
        )
        key = data[ooff : ooff + olen].decode("utf-8")
        value = data[toff : toff + tlen].decode("utf-8")
        if not key:
            continue  # the header
        if "\x00" in key:
            out[key.split("\x00")[0]] = tuple(value.split("\x00"))
        else:
            out[key] = value
    return out


def _format(text: str, values: dict[str, object]) -> str:
    return text.format(**values) if values else text


def _(message: str, /, **values: object) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled from ``values``."""
    found = _catalogs.get(_current, {}).get(message) if _current != "en" else None
    return _format(found if isinstance(found, str) and found else message, values)


def pgettext(context: str, message: str, /, **values: object) -> str:
    """``_`` for a message whose translation depends on ``context`` (a word of two meanings)."""
    found = (
        _catalogs.get(_current, {}).get(context + CONTEXT + message) if _current != "en" else None
    )
    return _format(found if isinstance(found, str) and found else message, values)


def ngettext(singular: str, plural: str, n: int, /, **values: object) -> str:
    """The form of the sentence for the count ``n`` (``{n}`` in it is the count)."""
    values = {"n": number(n), **values}
    form = PLURALS.get(_current, PLURALS["en"])(abs(int(n)))
    found = _catalogs.get(_current, {}).get(singular) if _current != "en" else None
    if isinstance(found, tuple) and len(found) > form and found[form]:
        return _format(found[form], values)
    return _format(plural if form else singular, values)


def continued(text: str) -> str:
    """A sentence said after a colon of another one: its first letter small, as the
    languages spoken here write it ("Roll 3, your turn: choose a die.").

    >>> continued("Choose a colour die."), continued("3 of 5 marked.")
    ('choose a colour die.', '3 of 5 marked.')
    """
    return text[:1].lower() + text[1:]


def N_(message: str, /) -> str:
    """``message`` unchanged: marks a sentence kept as data, for the catalogs."""
    return message


def NP_(context: str, message: str, /) -> str:
    """``message`` unchanged: marks a sentence of ``context`` kept as data, read with
    ``pgettext(context, message)`` where it is shown."""
    return message


def NN_(singular: str, plural: str, /) -> tuple[str, str]:
    """Both forms unchanged: mark a counted sentence kept as data, read with
    ``ngettext(*forms, n)`` where it is shown.

    >>> forms = NN_("{n} die", "{n} dice")
    >>> ngettext(*forms, 1), ngettext(*forms, 3)
    ('1 die', '3 dice')
    """
    return singular, plural


def number(value: float, digits: int = 0) -> str:
    """``value`` written as the language writes numbers (``1,234.5``; ``1.234,5``).

    >>> number(-3), number(2.25, 1)
    ('-3', '2.2')
    """
    thousands, decimal = SEPARATORS.get(_current, SEPARATORS["en"])
    text = f"{value:,.{digits}f}"
    return text.replace(",", "\x00").replace(".", decimal).replace("\x00", thousands)


def signed(value: int) -> str:
    """A number of points with its sign (``+6``, ``−2``, ``0``)."""
    return f"+{number(value)}" if value > 0 else number(value).replace("-", "−")


def names(items: Sequence[str]) -> str:
    """A list of names in a sentence: ``A``, ``A and B``, ``A, B and C``.

    >>> names(["Ana"]), names(["Ana", "Bia", "Caio"])
    ('Ana', 'Ana, Bia and Caio')
    """
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return _("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


def date(year: int, month: int, day: int) -> str:
    """A date as the language writes it in a sentence (``2 December 2026``).

    >>> date(2026, 12, 2)
    '2 December 2026'
    """
    return _(MONTHS[month - 1], day=day, year=year)


MONTHS = (
    N_("{day} January {year}"),
    N_("{day} February {year}"),
    N_("{day} March {year}"),
    N_("{day} April {year}"),
    N_("{day} May {year}"),
    N_("{day} June {year}"),
    N_("{day} July {year}"),
    N_("{day} August {year}"),
    N_("{day} September {year}"),
    N_("{day} October {year}"),
    N_("{day} November {year}"),
    N_("{day} December {year}"),
)
"""A date in each month, as a whole sentence (Catalan writes "d'abril", "de maig")."""

N_("Language")  # the language switch's name (index.html's, drawn by the build)
