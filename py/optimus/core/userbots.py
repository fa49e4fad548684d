"""Bots a player brings: a ``.py`` file (or an installed wheel's modules) turned into seats.

The same file runs in ``python -m optimus arena GAME --players mybot.py:MyBot``
and, chosen from the device, at a table in the page (``web/userbots.py`` does
the file picker; the bot worker, :mod:`optimus.core.botworker`, installs a wheel
with micropip and plays the bots; everything else is here, without the browser).

- :func:`load_source` imports a module from source text; a syntax or import
  error becomes a :class:`UserBotError` naming the file and the line.
- :func:`find_bots` lists the :class:`~optimus.core.bots.Bot` subclasses a
  module defines (or an error if there is none).
- :func:`register` remembers, for one game and as long as the process (the
  page) lives, the bots a file holds and the file itself (:class:`BotFile`):
  :func:`registered` is what a table may seat.  In the page the file is loaded
  and its bots play in a worker, never in the page itself
  (:mod:`optimus.core.botworker`).  Nothing here is ever loaded from a name in a
  link or a saved game: only from a file the player chose.

>>> module = load_source("doc_bot.py", "from optimus.core.bots import RandomBot\\n"
...                      "class Lucky(RandomBot):\\n    pass\\n")
>>> [spec_of(c) for c in find_bots(module)]
['doc_bot:Lucky']
>>> load_source("oops.py", "x = (1,\\n")
Traceback (most recent call last):
...
optimus.core.userbots.UserBotError: oops.py, line 1: SyntaxError: '(' was never closed
"""

from __future__ import annotations

import base64
import importlib
import os
import re
import sys
import traceback
from dataclasses import dataclass
from types import ModuleType

from optimus.core.bots import Bot
from optimus.core.protocol import GameError
from optimus.i18n import _


class UserBotError(GameError):
    """A bot file that cannot be used, in words a player understands."""


_USER_MODULES: set[str] = set()
"""Modules made from a player's files (they may be replaced by a newer file)."""


@dataclass(frozen=True)
class BotFile:
    """A file a player chose: its name and its bytes (loaded again into a fresh worker)."""

    name: str
    data: bytes

    def message(self) -> dict[str, str]:
        """The bot worker's message that loads this file (:mod:`optimus.core.botworker`)."""
        return {"op": "load", "name": self.name, "data": base64.b64encode(self.data).decode()}


_REGISTRY: dict[str, dict[str, BotFile]] = {}
"""Per game name: seat spec (``module:Class``) -> the file that defines the bot."""

_FILES: dict[str, ModuleType] = {}
"""Per absolute path: the module made from it (the arena resolves a spec once per game)."""


def module_name(filename: str) -> str:
    """The module name a file becomes: its stem, made a valid identifier.

    >>> module_name("my bot (2).py"), module_name("2048.py"), module_name("x/y/z.py")
    ('my_bot__2_', '_2048', 'z')
    """
    stem = os.path.basename(filename)
    stem = stem[:-3] if stem.endswith(".py") else stem
    name = re.sub(r"\W", "_", stem) or "userbot"
    return f"_{name}" if name[0].isdigit() else name


def _line_in(exc: BaseException, filename: str) -> int | None:
    """The line of ``filename`` where ``exc`` happened (the deepest frame in that file)."""
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == filename:
            line = frame.lineno
    return line


def describe_error(exc: BaseException, filename: str) -> str:
    """``mybot.py, line 3: NameError: name 'x' is not defined`` (the line when known)."""
    label = os.path.basename(filename)
    if isinstance(exc, SyntaxError):
        line: int | None = exc.lineno
        text = f"{type(exc).__name__}: {exc.msg}"
    else:
        line = _line_in(exc, filename)
        text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    if line:
        return _("{file}, line {line}: {error}", file=label, line=line, error=text)
    return f"{label}: {text}"


def load_source(filename: str, source: str, name: str | None = None) -> ModuleType:
    """Import ``source`` as module ``name`` (default: from ``filename``), replacing an
    earlier module made from a player's file of that name.

    Raises :class:`UserBotError` for a syntax or import error (with the line), or a
    name taken by a module that is not a player's (``json.py`` would hide ``json``).
    """
    name = name or module_name(filename)
    if name in sys.modules and name not in _USER_MODULES:
        raise UserBotError(
            _(
                "{file}: a module named {name} already exists here; rename your file",
                file=os.path.basename(filename),
                name=repr(name),
            )
        )
    try:
        code = compile(source, filename, "exec")
    except SyntaxError as exc:  # includes IndentationError
        raise UserBotError(describe_error(exc, filename)) from None
    except ValueError as exc:  # e.g. null bytes in the source
        raise UserBotError(f"{os.path.basename(filename)}: {exc}") from None
    module = ModuleType(name)
    module.__file__ = filename
    previous = sys.modules.get(name)
    sys.modules[name] = module  # dataclasses and pickling look classes up by module
    _USER_MODULES.add(name)
    try:
        exec(code, module.__dict__)
    except BaseException as exc:  # anything its top level raises on import, sys.exit() too
        if previous is not None:
            sys.modules[name] = previous
        else:
            del sys.modules[name]
            _USER_MODULES.discard(name)
        raise UserBotError(describe_error(exc, filename)) from None
    return module


def load_file(path: str) -> ModuleType:
    """:func:`load_source` of a file on disk (loaded once per path)."""
    key = os.path.abspath(path)
    if key in _FILES:
        return _FILES[key]
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise UserBotError(
            _("cannot read {file}: {error}", file=path, error=exc.strerror or exc)
        ) from None
    module = load_source(path, decode(data, path))
    _FILES[key] = module
    return module


def decode(data: bytes, filename: str) -> str:
    """A file's bytes as text (UTF-8, as Python reads source), or a plain error."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserBotError(
            _(
                "{file} is not a UTF-8 text file (byte {byte} cannot be read); "
                "is it really Python source?",
                file=os.path.basename(filename),
                byte=exc.start,
            )
        ) from None


def wheel_modules(data: bytes, filename: str) -> list[str]:
    """The top-level modules and packages a wheel installs (read from the archive).

    Refuses a file that is not a zip archive, holds no module, or whose module
    would hide one the page already has (a wheel named ``optimus`` or ``json``).
    """
    import io
    import zipfile  # only when a wheel is added: not on every visit of a game

    label = os.path.basename(filename)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            paths = archive.namelist()
    except (zipfile.BadZipFile, OSError) as exc:
        raise UserBotError(
            _("{file} is not a wheel (not a zip archive: {error})", file=label, error=exc)
        ) from None
    tops: list[str] = []
    for path in paths:
        first, _slash, rest = path.partition("/")
        if first.endswith((".dist-info", ".data")):
            continue
        name = first[:-3] if not rest and first.endswith(".py") else first if rest else ""
        if name.isidentifier() and name not in tops:
            tops.append(name)
    if not tops:
        raise UserBotError(_("{file} holds no Python module", file=label))
    for name in tops:
        if name in sys.modules and name not in _USER_MODULES:
            raise UserBotError(
                _(
                    "{file}: its module {name} would hide one the page already has; rename it",
                    file=label,
                    name=repr(name),
                )
            )
    return tops


def import_installed(names: list[str]) -> list[ModuleType]:
    """Import the (just installed) modules ``names`` afresh, replacing earlier versions a
    player installed; an error on import names the file and the line."""
    for loaded in list(sys.modules):
        if loaded.partition(".")[0] in names and loaded.partition(".")[0] in _USER_MODULES:
            del sys.modules[loaded]
    importlib.invalidate_caches()
    modules = []
    for name in names:
        _USER_MODULES.add(name)
        try:
            modules.append(importlib.import_module(name))
        except BaseException as exc:  # the wheel's own code failed on import (or exited)
            frames = [
                f.filename
                for f in traceback.extract_tb(exc.__traceback__)
                if f"/{name}/" in f.filename or f.filename.endswith(f"/{name}.py")
            ]
            where = frames[-1] if frames else name
            if isinstance(exc, SyntaxError) and exc.filename:
                where = exc.filename
            raise UserBotError(describe_error(exc, where)) from None
    return modules


def find_bots(*modules: ModuleType) -> list[type[Bot]]:
    """The Bot subclasses defined in ``modules`` (or their submodules), in order of
    definition; raises :class:`UserBotError` if there is none."""
    found: list[type[Bot]] = []
    for module in modules:
        prefix = module.__name__
        for value in list(vars(module).values()):
            if (
                isinstance(value, type)
                and issubclass(value, Bot)
                and value is not Bot
                and (value.__module__ == prefix or value.__module__.startswith(prefix + "."))
                and value not in found
            ):
                found.append(value)
    if not found:
        names = ", ".join(getattr(m, "__file__", None) or m.__name__ for m in modules)
        raise UserBotError(
            _(
                "{file} defines no subclass of optimus.core.bots.Bot "
                "(write `class MyBot(Bot):` with a `think` method: the help page "
                "“Play against your own bot” shows how)",
                file=os.path.basename(names),
            )
        )
    return found


def spec_of(cls: type[Bot]) -> str:
    """A bot class's seat name, ``module:Class``."""
    return f"{cls.__module__}:{cls.__qualname__}"


def label(spec: str) -> str:
    """A seat choice's words: ``MyBot (mybot)``.

    >>> label("mybot:MyBot")
    'MyBot (mybot)'
    """
    module, _, name = spec.partition(":")
    return f"{name} ({module})"


def register(game: str, specs: list[str], file: BotFile) -> list[str]:
    """Make the bots ``specs`` of ``file`` seat choices of ``game`` for the life of the
    page (a newer file of the same name replaces the older's); ``specs``."""
    seats = _REGISTRY.setdefault(game, {})
    for spec, old in list(seats.items()):
        if old.name == file.name:
            del seats[spec]
    for spec in specs:
        seats[spec] = file
    return specs


def registered(game: str) -> dict[str, BotFile]:
    """The player's bots seated so far at ``game`` (spec -> its file), oldest first."""
    return dict(_REGISTRY.get(game, {}))


def files(game: str) -> list[BotFile]:
    """The files of ``game``'s registered bots, each once, oldest first."""
    return list(dict.fromkeys(_REGISTRY.get(game, {}).values()))


def forget(game: str | None = None) -> None:
    """Forget the registered bots (of one game, or all): for tests."""
    if game is None:
        _REGISTRY.clear()
    else:
        _REGISTRY.pop(game, None)
