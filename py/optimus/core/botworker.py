"""Players' bots off the page's thread: the messages between the page and its bot worker.

A player's bot is code the page did not write: it may think for seconds without
yielding, loop for ever, or call ``sys.exit()``.  In the page it runs in a web
worker (``web/botworker.js``, which starts Pyodide there and hands each message
to a :class:`Host`), so the page never waits on it: the page sends a message and
awaits the answer, and past :func:`stop_ms` it stops the worker.

Both sides are here, without the browser:

- :class:`Host`, in the worker: loads a player's file (``load``), seats one of
  its bots at a table (``seat``) and makes its decisions (``decide``).  Whatever
  the bot raises, ``BaseException`` included (``SystemExit``,
  ``KeyboardInterrupt``), becomes an answer in words: the worker goes on.
- :class:`Client`, in the page: what the picker and the table ask, over a
  :class:`Transport` (the worker in the page, a :class:`Host` called directly in
  the tests).  It loads the page's files into a fresh worker, seats a table's
  bots there on their first decision, and turns a worker that was stopped or
  lost into an answer :meth:`optimus.ui.session.TableSession.answer` understands.

Every message and answer is JSON (a dict); the page and the worker exchange it as text.

>>> import asyncio
>>> from optimus.core.registry import available_games
>>> client = Client(available_games()[0], LocalTransport())
>>> asyncio.run(client.load("one.py", b"from optimus.core.bots import RandomBot\\n"
...                         b"class One(RandomBot):\\n    pass\\n"))
['one:One']
>>> forget()
"""

from __future__ import annotations

import base64
import json
import os
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from optimus import i18n
from optimus.core import jsontext, userbots
from optimus.core.bots import Bot, Budget
from optimus.core.protocol import JSON
from optimus.core.rng import Rng, derive_seed
from optimus.i18n import _

STOP_MS = 5000.0
"""The longest the page waits for a player's bot's answer (a decision, or loading
its file) before it stops the worker: at least this, or twice the bot's own
thinking limit if that is longer (:func:`stop_ms`)."""

USER_BOT_MS = 1000.0
"""Thinking time of a player's bot per decision when its budget sets none."""

WHEELS = "/tmp/optimus-userbots"
"""Where the worker unpacks a player's wheels (the folder is put on ``sys.path``)."""

Reply = dict[str, Any]


def think_limit_ms(bot: Bot) -> float:
    """How long a player's bot may think per decision (checked at each of its yields):
    its budget's time, or ``USER_BOT_MS``, plus half as much again (a search checks its
    clock only now and then)."""
    return 1.5 * (bot.budget.time_ms or USER_BOT_MS)


def stop_ms(limit_ms: float) -> float:
    """How long the page waits for a decision of a bot whose thinking limit is
    ``limit_ms`` before it stops the worker.

    >>> stop_ms(1500.0), stop_ms(6000.0)
    (5000.0, 12000.0)
    """
    return max(STOP_MS, 2 * limit_ms)


def problem(exc: BaseException) -> str:
    """``ValueError: boom``, ``SystemExit`` (shortened)."""
    return short(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)


def short(value: object, limit: int = 120) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- the worker's side -----------------------------------------------------------------


class Host:
    """The worker: the players' files loaded there, and the bots seated at its tables."""

    def __init__(self) -> None:
        self.classes: dict[str, type[Bot]] = {}
        self.bots: dict[int, Bot] = {}
        self.limits: dict[int, float] = {}

    def handle(self, message: Mapping[str, Any]) -> Reply:
        """The answer to one message; never raises (a bot's ``BaseException`` becomes words)."""
        try:
            op = message.get("op")
            if op == "load":
                if "lang" in message:  # the refusals in the language the page speaks now
                    i18n.use(str(message["lang"]))
                return self.load(
                    str(message["name"]),
                    base64.b64decode(message["data"]),
                    bool(message.get("installed")),
                )
            if op == "seat":
                return self.seat(message)
            if op == "decide":
                return self.decide(int(message["seat"]), message["observation"], message["legal"])
            return {"error": f"unknown message {op!r}"}  # not shown (a bug of ours)
        except BaseException as exc:  # noqa: BLE001 - sys.exit() and the like from a bot's code
            return {"error": problem(exc)}

    def load(self, name: str, data: bytes, installed: bool = False) -> Reply:
        """Import a ``.py`` file or a pure-Python wheel (``installed``: micropip has
        installed it already, in the worker: ``web/worker_host.py``; else it is unpacked); the
        specs of its bots, or the refusal in words."""
        try:
            if name.endswith(".py"):
                modules = [userbots.load_source(name, userbots.decode(data, name))]
            elif name.endswith(".whl") and installed:  # by micropip, in the worker
                modules = userbots.import_installed(userbots.wheel_modules(data, name))
            elif name.endswith(".whl"):
                modules = install_wheel(name, data)
            else:
                raise userbots.UserBotError(
                    _("{file}: choose a .py file or a wheel (.whl)", file=name)
                )
            found = userbots.find_bots(*modules)
        except userbots.UserBotError as exc:
            return {"refused": str(exc)}
        except BaseException as exc:  # noqa: BLE001 - what an import can raise, in words
            return {"refused": f"{os.path.basename(name)}: {problem(exc)}"}
        specs = []
        for cls in found:
            spec = userbots.spec_of(cls)
            self.classes[spec] = cls
            specs.append(spec)
        return {"specs": specs}

    def seat(self, message: Mapping[str, Any]) -> Reply:
        """Seat the bot ``spec`` at ``seat`` of a new table of ``game``: as the table
        would (its own generator from the table's seed); its thinking limit."""
        from optimus.core.registry import get_game

        seat = int(message["seat"])
        self.bots.pop(seat, None)
        cls = self.classes.get(str(message["spec"]))
        if cls is None:
            return {"error": _("{bot} is not loaded", bot=userbots.label(str(message["spec"])))}
        budget = message.get("budget")
        rng = Rng(derive_seed(int(message["seed"]), "bot", seat))
        try:
            bot = cls(
                get_game(str(message["game"])),
                seat,
                rng,
                Budget(**budget) if isinstance(budget, dict) else None,
            )
        except BaseException as exc:  # noqa: BLE001 - a player's constructor
            return {"error": problem(exc)}
        self.bots[seat] = bot
        self.limits[seat] = think_limit_ms(bot)
        return {"limit_ms": self.limits[seat]}

    def decide(self, seat: int, observation: Mapping[str, JSON], legal: list[str]) -> Reply:
        """The seated bot's move (``move``; ``illegal`` when it is not text), or why it
        has none: ``error`` (it raised), ``slow`` (past its thinking limit, in seconds,
        checked at each of its yields)."""
        bot = self.bots.get(seat)
        if bot is None:
            return {"error": "not seated"}  # not shown (a bug of ours)
        limit = self.limits[seat]
        started = time.perf_counter()
        try:
            steps = bot.think(observation, list(legal))
            while True:
                try:
                    next(steps)
                except StopIteration as stop:
                    move = stop.value
                    break
                if (time.perf_counter() - started) * 1000 > limit:
                    steps.close()
                    return {"slow": limit / 1000}
        except BaseException as exc:  # noqa: BLE001 - sys.exit() in a move is an error too
            return {"error": problem(exc)}
        if not isinstance(move, str):
            return {"illegal": short(move)}
        return {"move": move}


def staged_wheel(message: Mapping[str, Any]) -> tuple[str, Reply | None]:
    """The wheel of a ``load`` message, checked (it has modules) and written under
    ``WHEELS`` for the worker's installer (micropip, ``web/worker_host.py``): its path,
    or the refusal in words."""
    name = os.path.basename(str(message["name"]))
    data = base64.b64decode(message["data"])
    try:
        userbots.wheel_modules(data, name)  # a wheel with modules, before installing
    except userbots.UserBotError as exc:
        return "", {"refused": str(exc)}
    os.makedirs(WHEELS, exist_ok=True)
    path = os.path.join(WHEELS, name)
    with open(path, "wb") as handle:
        handle.write(data)
    return path, None


def install_wheel(name: str, data: bytes) -> list[Any]:
    """Unpack a pure-Python wheel into ``WHEELS`` (on ``sys.path``) and import its
    top-level modules afresh: where there is no micropip (CPython: the command line,
    the tests). Its dependencies are not installed."""
    import io
    import zipfile

    modules = userbots.wheel_modules(data, name)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for member in archive.namelist():
            top = member.partition("/")[0]
            if top.removesuffix(".py") in modules and not member.endswith("/"):
                target = os.path.join(WHEELS, member)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "wb") as handle:
                    handle.write(archive.read(member))
    if WHEELS not in sys.path:
        sys.path.insert(0, WHEELS)
    return userbots.import_installed(modules)


# -- the page's side -------------------------------------------------------------------


class Stopped(Exception):
    """The worker did not answer in time: it was stopped (a fresh one starts on the next
    message)."""


class Lost(Exception):
    """The worker could not start, or failed (its words)."""


class Broke(Lost):
    """The worker's Python ended (``os._exit``), or it posted the page what is not an
    answer of ours: a player's bot did, and it is stopped for good (its words)."""


MAX_REPLY = 200_000
"""The longest answer read from the worker (characters; a list of bots is a few hundred)."""
MAX_REPLY_DEPTH = 3
"""The deepest nesting of an answer (``{"specs": [...]}`` is 2)."""
ANSWERS: dict[str, tuple[type, ...]] = {
    "move": (str,),
    "illegal": (str,),
    "error": (str,),
    "refused": (str,),
    "slow": (int, float),
    "limit_ms": (int, float),
    "specs": (list,),
}
"""What an answer of the worker's :class:`Host` holds, besides its ``id``: one of these."""


def read_reply(data: object, booting: bool = False) -> Reply:
    """An answer of the worker, checked before it is trusted: a player's bot runs there
    and can post the page anything (``js.postMessage``), so anything but our own
    answers (size, depth and shape) is :class:`Broke`, never parsed past a limit.
    ``booting``: the worker's first answer (``booted`` or ``failed``); once its Python
    ended, the worker answers ``exited`` (its status) or ``lost`` (web/botworker.js).

    >>> read_reply('{"id": 3, "move": "take 1"}'), read_reply('{"booted": 5.5}', booting=True)
    ({'id': 3, 'move': 'take 1'}, {'booted': 5.5})
    >>> read_reply("[" * 8000 + "]" * 8000)
    Traceback (most recent call last):
    ...
    optimus.core.botworker.Broke: it sent the page a message that is not the game's
    >>> read_reply('{"exited": 0}')
    Traceback (most recent call last):
    ...
    optimus.core.botworker.Broke: its Python exited (os._exit, status 0)
    """
    garbled = not_ours()
    if not isinstance(data, str) or jsontext.problem(data, MAX_REPLY, MAX_REPLY_DEPTH):
        raise garbled
    try:
        reply = json.loads(data, parse_constant=_no_constant)
    except ValueError:
        raise garbled from None
    if not isinstance(reply, dict):
        raise garbled
    if booting:
        if reply.keys() == {"booted"} and isinstance(reply["booted"], int | float):
            return reply
        if reply.keys() == {"failed"} and isinstance(reply["failed"], str):
            return reply
    if reply.keys() == {"exited"} and isinstance(reply["exited"], int):
        raise Broke(_("its Python exited (os._exit, status {status})", status=reply["exited"]))
    if reply.keys() == {"lost"} and isinstance(reply["lost"], str):
        raise Broke(short(reply["lost"]))
    ident = reply.get("id")
    rest = set(reply) - {"id"}
    if isinstance(ident, bool) or not isinstance(ident, int) or len(rest) != 1:
        raise garbled
    kind = rest.pop()
    value = reply[kind]
    if kind not in ANSWERS or isinstance(value, bool) or not isinstance(value, ANSWERS[kind]):
        raise garbled
    if isinstance(value, list) and not all(isinstance(spec, str) for spec in value):
        raise garbled
    return reply


def not_ours() -> Broke:
    """The worker posted the page what is not an answer of ours (its bot did)."""
    return Broke(_("it sent the page a message that is not the game's"))


def _no_constant(name: str) -> Any:
    raise ValueError(name)


class Transport(Protocol):
    """How the page talks to its bot worker."""

    epoch: int
    """Bumped each time a fresh worker takes the place of one stopped or lost."""

    async def send(self, message: Reply, limit_ms: float) -> Reply:
        """``message``'s answer; :class:`Stopped` past ``limit_ms`` (once the worker is
        started: its start does not count), :class:`Lost` if it fails."""
        ...


class LocalTransport:
    """A :class:`Host` called directly, in this process (the tests, the doctests).

    ``stop`` makes a decision of these seats time out, as a bot looping for ever would."""

    def __init__(self, stop: set[int] | None = None) -> None:
        self.host = Host()
        self.epoch = 0
        self.stop = stop or set()
        self.sent: list[Reply] = []

    async def send(self, message: Reply, limit_ms: float) -> Reply:
        self.sent.append(message)
        if message.get("op") == "decide" and message.get("seat") in self.stop:
            self.host = Host()
            self.epoch += 1
            raise Stopped
        return self.host.handle(message)


@dataclass(frozen=True)
class Ask:
    """A decision a player's bot must make in the worker (see
    :meth:`optimus.ui.session.TableSession.asking`)."""

    table: int
    """Which table (game) asks: a new game seats its bots again."""
    game: str
    seat: int
    spec: str
    seed: int
    budget: Budget | None
    observation: Mapping[str, JSON]
    legal: list[str]


class Client:
    """What the page asks of the bot worker for ``game``: loading a player's file, and
    the decisions of the bots seated at its table."""

    def __init__(self, game: str, transport: Transport) -> None:
        self.game = game
        self.transport = transport
        self._epoch: int | None = None
        """The worker whose files are loaded (the transport's epoch)."""
        self._seated: dict[int, tuple[int, int, float]] = {}
        """Per seat: the worker's epoch and the table it was seated for, its limit."""

    async def _fresh(self) -> None:
        """A fresh worker gets every file the page has loaded for the game (a file
        that fails there now leaves its bots unseatable: their seats say so)."""
        while self._epoch != self.transport.epoch:
            epoch = self.transport.epoch
            self._seated.clear()
            for file in userbots.files(self.game):
                try:
                    await self.transport.send(file.message(), STOP_MS)
                except Stopped:
                    break  # the next loop loads the others into the fresh worker
            else:
                self._epoch = epoch

    async def load(self, name: str, data: bytes) -> list[str]:
        """Load a player's file into the worker and register its bots for the game;
        their specs.  :class:`~optimus.core.userbots.UserBotError` in words otherwise."""
        file = userbots.BotFile(name, data)
        try:
            await self._fresh()
            reply = await self.transport.send({**file.message(), "lang": i18n.language()}, STOP_MS)
        except Stopped:
            raise userbots.UserBotError(
                _(
                    "{file} did not finish loading within {seconds} s: it was stopped",
                    file=os.path.basename(name),
                    seconds=seconds(STOP_MS / 1000),
                )
            ) from None
        except Broke as exc:
            raise userbots.UserBotError(
                _("{file} was stopped: {problem}", file=os.path.basename(name), problem=str(exc))
            ) from None
        except Lost as exc:
            raise userbots.UserBotError(
                _("Your bots cannot run here: {problem}", problem=str(exc))
            ) from None
        if "refused" in reply or "error" in reply:
            raise userbots.UserBotError(str(reply.get("refused") or reply.get("error")))
        specs = [str(spec) for spec in reply.get("specs", [])]
        userbots.register(self.game, specs, file)
        return specs

    async def decide(self, ask: Ask) -> Reply:
        """The answer to a decision, for ``TableSession.answer``: ``move``, ``illegal``,
        ``error``, ``slow`` (as :meth:`Host.decide`), or ``unseated`` (the bot could not
        be seated: its problem), ``stopped`` (no answer in time: the seconds waited,
        a number) or ``broke`` (its Python exited, or it posted the page what is not an
        answer: in words)."""
        try:
            await self._fresh()
            seated = self._seated.get(ask.seat)
            if seated is None or seated[:2] != (self.transport.epoch, ask.table):
                budget = ask.budget
                reply = await self.transport.send(
                    {
                        "op": "seat",
                        "game": ask.game,
                        "seat": ask.seat,
                        "spec": ask.spec,
                        "seed": ask.seed,
                        "budget": None
                        if budget is None
                        else {"time_ms": budget.time_ms, "iterations": budget.iterations},
                    },
                    STOP_MS,
                )
                if "error" in reply:
                    return {"unseated": str(reply["error"])}
                seated = (self.transport.epoch, ask.table, float(reply["limit_ms"]))
                self._seated[ask.seat] = seated
            waited = stop_ms(seated[2])
            message = {
                "op": "decide",
                "seat": ask.seat,
                "observation": ask.observation,
                "legal": ask.legal,
            }
            return await self.transport.send(message, waited)
        except Stopped:
            return {"stopped": stop_ms(self._limit(ask.seat)) / 1000}
        except Broke as exc:
            return {"broke": str(exc)}
        except Lost as exc:
            return {"unseated": str(exc)}

    def _limit(self, seat: int) -> float:
        seated = self._seated.get(seat)
        return seated[2] if seated is not None else 0.0


def seconds(value: float) -> str:
    """``5``, ``1.5`` (``1,5`` in Portuguese): as short as the value allows."""
    text = f"{value:g}"
    digits = len(text.partition(".")[2]) if "e" not in text else 3
    return i18n.number(value, digits)


def forget() -> None:
    """Forget the registered bots and the modules made from players' files: for tests."""
    userbots.forget()
