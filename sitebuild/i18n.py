"""The catalogs of the words players read: extract them from the code, keep the
``.po`` files in step, compile them for the page (docs/i18n.md).

- **Extract**: every ``_("...")``, ``N_("...")``, ``pgettext("ctx", "...")``,
  ``ngettext("...", "...", n)``, the data markers ``NP_("ctx", "...")`` and
  ``NN_("...", "...")``, and their markup forms ``tr``/``tr_plural``
  (web/markup.py) in the shipped code (``py/optimus``, ``web``), and
  in index.html every element marked ``data-i18n`` (its text), every attribute
  named in ``data-i18n-attr``, and every ``t("...")`` of its scripts (``web/*.js``).
- **Domains**: a game's package and its board (``web/<game>_view.py``) make the
  game's catalog, shipped in the game's archive; everything else is the shared
  ``table`` catalog.  A game described as not ``translated`` (the worked example)
  has none: it speaks English.
- **Update** (``python build.py i18n``): writes ``locale/<domain>.pot`` (the
  English) and, for each language, ``locale/<lang>/<domain>.po`` with every
  message of the code, keeping the translations already made (by message, across
  all of the language's files) and dropping messages the code no longer has.
- **Compile** (every build): each ``.po`` becomes ``messages.<lang>.mo`` in its
  package; the landing page's own sentences also go into index.html as JSON, so
  the page speaks the language before Python is ready.

Plain Python, no dependency: the ``.po`` subset read here is what ``write_po``
writes (and what editors such as Poedit keep).
"""

from __future__ import annotations

import ast
import json
import re
import struct
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from optimus.games import GAMES, PLAYERS_TEXT
from optimus.i18n import LANGUAGES, PLURAL_FORMS, TAGS
from sitebuild import PY_SRC, ROOT, WEB_SRC, BuildError

LOCALE = ROOT / "locale"
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")
TABLE = "table"
UNTRANSLATED_GAMES = tuple(game for game, info in GAMES.items() if not info.translated)
"""Games with no catalog (their descriptions say so): they speak English."""

PLACEHOLDER = re.compile(r"\{(\w*)(?:[!:][^{}]*)?\}")


@dataclass
class Message:
    """One message: its key (context, English, plural English) and where it is used."""

    msgid: str
    plural: str = ""
    context: str = ""
    places: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str]:
        return (self.context, self.msgid)


@dataclass
class Entry(Message):
    """A message of a ``.po`` file with its translation (one string, or the plural forms)."""

    strings: list[str] = field(default_factory=list)
    fuzzy: bool = False

    @property
    def translated(self) -> bool:
        return not self.fuzzy and bool(self.strings) and all(self.strings)


def domain_of(path: Path) -> str | None:
    """The catalog a source file's messages belong to (None: none, it is not shipped)."""
    rel = path.resolve().relative_to(ROOT).as_posix()
    for game in GAMES:
        if rel.startswith((f"py/optimus/{game}/", f"web/{game}_")):  # its view, its parts
            return None if game in UNTRANSLATED_GAMES else game
    return TABLE


def package_of(domain: str) -> str:
    """The package whose archive ships ``domain``'s compiled catalogs."""
    return "optimus.ui" if domain == TABLE else f"optimus.{domain}"


def sources() -> list[Path]:
    """The shipped source files whose messages are extracted."""
    files = sorted(PY_SRC.rglob("*.py")) + sorted(WEB_SRC.glob("*.py"))
    files = [f for f in files if "__pycache__" not in f.parts] + [ROOT / "index.html"]
    return files + PAGE_SCRIPTS


PAGE_SCRIPTS = sorted(WEB_SRC.glob("*.js"))
"""The page's scripts (``web/head.js``, ``web/page.js``, ``web/sw.js``): their
``t("...")`` are the landing page's, translated before Python is ready."""


# -- extraction ------------------------------------------------------------------


class ExtractError(BuildError):
    pass


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def extract_python(source: str, name: str) -> list[Message]:
    """The messages of one Python file, in order of appearance."""
    found: list[Message] = []
    for node in ast.walk(ast.parse(source, name)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        func, args = node.func.id, node.args
        place = f"{name}:{node.lineno}"
        if func in ("_", "N_", "tr") and args:
            text = _literal(args[0])
            if text is None:
                if func == "N_":
                    raise ExtractError(f"{place}: N_() takes a string literal")
                continue  # _(variable): a message marked elsewhere with N_
            found.append(Message(text, places=[place]))
        elif func in ("pgettext", "NP_") and len(args) >= 2:
            ctx, text = _literal(args[0]), _literal(args[1])
            if ctx is not None and text is None and func == "pgettext":
                continue  # pgettext("ctx", variable): a message marked elsewhere with NP_
            if ctx is None or text is None:
                raise ExtractError(f"{place}: {func}() takes two string literals")
            found.append(Message(text, context=ctx, places=[place]))
        elif func in ("ngettext", "tr_plural", "NN_") and len(args) >= (2 if func == "NN_" else 3):
            one, many = _literal(args[0]), _literal(args[1])
            if one is None or many is None:
                raise ExtractError(f"{place}: {func}() takes two string literals")
            found.append(Message(one, plural=many, places=[place]))
    found.sort(key=lambda m: int(m.places[0].rsplit(":", 1)[1]))
    return [Message(m.msgid, m.plural, m.context, [name]) for m in found]


_ELEMENT = re.compile(r"<(\w+)([^<>]*\sdata-i18n(?:-attr=\"([^\"]*)\")?[^<>]*)>", re.S)
_ATTR = r'\s{name}="([^"]*)"'
_JS_CALL = re.compile(r"""\b(?:t|optimusT|N_)\((["'])((?:(?!\1)[^\\]|\\.)*)\1""")


def _unescape_html(text: str) -> str:
    import html

    return html.unescape(text)


def extract_html(source: str, name: str) -> list[Message]:
    """index.html's messages: ``data-i18n`` elements' text, ``data-i18n-attr`` attributes,
    and ``t("...")`` in its scripts."""
    found: list[Message] = []

    def line(at: int) -> str:
        return f"{name}:{source.count(chr(10), 0, at) + 1}"

    for match in _ELEMENT.finditer(source):
        tag, attrs, named = match.group(1), match.group(2), match.group(3)
        if re.search(r"\sdata-i18n(\s|=\"\"|$)", attrs + " "):
            end = source.find(f"</{tag}>", match.end())
            text = source[match.end() : end]
            if "<" in text or "{{" in text:
                raise ExtractError(f"{line(match.start())}: a data-i18n element holds markup")
            found.append(
                Message(_unescape_html(" ".join(text.split())), places=[line(match.start())])
            )
        for attr in (named or "").split():
            value = re.search(_ATTR.format(name=re.escape(attr)), attrs)
            if value is None:
                raise ExtractError(f"{line(match.start())}: data-i18n-attr names no {attr}")
            found.append(Message(_unescape_html(value.group(1)), places=[line(match.start())]))
    for match in _JS_CALL.finditer(source):
        text = json.loads('"' + match.group(2).replace("\\'", "'") + '"')
        found.append(Message(text, places=[line(match.start())]))
    return [Message(m.msgid, m.plural, m.context, [name]) for m in found]


def extract_js(source: str, name: str) -> list[Message]:
    """A page script's messages: every ``t("...")`` (or ``optimusT``, ``N_``) in it."""
    found: list[Message] = []
    for match in _JS_CALL.finditer(source):
        text = json.loads('"' + match.group(2).replace("\\'", "'") + '"')
        found.append(Message(text, places=[name]))
    return found


def extract(files: Iterable[Path] | None = None) -> dict[str, list[Message]]:
    """Every domain's messages, merged by key (places listed), in order of first use."""
    domains: dict[str, dict[tuple[str, str], Message]] = {}
    for path in files if files is not None else sources():
        domain = domain_of(path)
        if domain is None:
            continue
        rel = path.resolve().relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".html":
            found = extract_html(text, rel)
        elif path.suffix == ".js":
            found = extract_js(text, rel)
        else:
            found = extract_python(text, rel)
        into = domains.setdefault(domain, {})
        for message in found:
            known = into.get(message.key)
            if known is None:
                into[message.key] = message
            else:
                if message.plural != known.plural:
                    raise ExtractError(
                        f"{message.places[0]}: {message.msgid!r} has two plurals "
                        f"({known.plural!r} at {known.places[0]})"
                    )
                known.places += [p for p in message.places if p not in known.places]
    for game in GAMES:  # every translated game has a catalog, even before its first message
        if game not in UNTRANSLATED_GAMES:
            domains.setdefault(game, {})
    return {domain: list(found.values()) for domain, found in sorted(domains.items())}


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message (``{who}``, ``{n}``).

    >>> sorted(placeholders("{who} took {n} cards {{literal}}"))
    ['n', 'who']
    """
    return {m.group(1) for m in PLACEHOLDER.finditer(text.replace("{{", "").replace("}}", ""))}


# -- .po files ------------------------------------------------------------------


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + escaped.replace("\t", "\\t") + '"'


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise BuildError(f"not a quoted .po string: {text!r}")
    out, i, body = [], 0, text[1:-1]
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            out.append(escapes.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def header(lang: str, domain: str) -> str:
    return (
        f"Project-Id-Version: optimus-table {domain}\n"
        f"Language: {TAGS[lang].replace('-', '_')}\n"
        "MIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=UTF-8\n"
        "Content-Transfer-Encoding: 8bit\n"
        f"Plural-Forms: {PLURAL_FORMS[lang]}\n"
    )


def read_po(text: str, name: str = "<po>") -> tuple[str, list[Entry]]:
    """A ``.po`` file's header and entries (obsolete ``#~`` entries left out)."""
    entries: list[Entry] = []
    current: Entry | None = None
    field_name = ""
    places: list[str] = []
    fuzzy = False
    head = ""

    def finish() -> None:
        nonlocal current, head
        if current is None:
            return
        if current.msgid == "" and not current.context:
            head = current.strings[0] if current.strings else ""
        else:
            entries.append(current)
        current = None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        try:
            if not line:
                continue
            if line.startswith("#"):
                if current is not None and field_name.startswith("msgstr"):
                    finish()
                    field_name = ""
                if line.startswith("#:"):
                    places += line[2:].split()
                elif line.startswith("#,") and "fuzzy" in line:
                    fuzzy = True
                continue
            if line.startswith('"'):
                value = _unquote(line)
                if current is None:
                    raise BuildError("a string continues nothing")
                if field_name == "msgctxt":
                    current.context += value
                elif field_name == "msgid":
                    current.msgid += value
                elif field_name == "msgid_plural":
                    current.plural += value
                else:
                    current.strings[-1] += value
                continue
            keyword, _, rest = line.partition(" ")
            if keyword in ("msgctxt", "msgid") and (
                current is None or field_name.startswith("msgstr")
            ):
                finish()
                current = Entry("", places=places, fuzzy=fuzzy)
                places, fuzzy = [], False
            if current is None:
                raise BuildError(f"{keyword} before msgid")
            if keyword == "msgctxt":
                current.context = _unquote(rest)
            elif keyword == "msgid":
                current.msgid = _unquote(rest)
            elif keyword == "msgid_plural":
                current.plural = _unquote(rest)
            elif keyword == "msgstr" or re.fullmatch(r"msgstr\[\d+\]", keyword):
                current.strings.append(_unquote(rest))
            else:
                raise BuildError(f"unknown keyword {keyword!r}")
            field_name = keyword
        except BuildError as exc:
            raise BuildError(f"{name}:{number}: {exc}") from None
    finish()
    return head, entries


def write_po(head: str, entries: Iterable[Entry], comment: str = "") -> str:
    """``.po`` text: the header, then each entry with where it is used."""
    lines = [f"# {line}" for line in comment.splitlines()] if comment else []
    lines += ['msgid ""', 'msgstr ""', *(_quote(h + "\n") for h in head.splitlines())]
    for entry in entries:
        lines.append("")
        for place in entry.places:
            lines.append(f"#: {place}")
        if entry.fuzzy:
            lines.append("#, fuzzy")
        if entry.context:
            lines.append(f"msgctxt {_quote(entry.context)}")
        lines.append(f"msgid {_quote(entry.msgid)}")
        if entry.plural:
            lines.append(f"msgid_plural {_quote(entry.plural)}")
            strings = entry.strings or ["", ""]
            lines += [f"msgstr[{i}] {_quote(s)}" for i, s in enumerate(strings)]
        else:
            lines.append(f"msgstr {_quote(entry.strings[0] if entry.strings else '')}")
    return "\n".join(lines) + "\n"


def po_path(lang: str, domain: str) -> Path:
    return LOCALE / lang / f"{domain}.po"


def pot_path(domain: str) -> Path:
    return LOCALE / f"{domain}.pot"


def read_language(lang: str) -> dict[str, list[Entry]]:
    """Every ``.po`` file of ``lang``, by domain."""
    out: dict[str, list[Entry]] = {}
    for path in sorted((LOCALE / lang).glob("*.po")):
        out[path.stem] = read_po(path.read_text(encoding="utf-8"), str(path))[1]
    return out


COMMENT = (
    "Optimus Table: {what}.\n"
    "Made by `python build.py i18n` from the code; translate the msgstr lines\n"
    "(keep each {{placeholder}} as it is) and run it again after changing the code."
)


def update() -> list[str]:
    """Write the ``.pot`` templates and bring every language's ``.po`` files in step
    with the code; return what changed, one line per file."""
    messages = extract()
    report = []
    for domain, found in messages.items():
        template = [Entry(m.msgid, m.plural, m.context, places=m.places) for m in found]
        what = f"the English of the {domain} catalog"
        report += _write(
            pot_path(domain), write_po(header("en", domain), template, COMMENT.format(what=what))
        )
    for lang in TRANSLATED:
        known: dict[tuple[str, str], Entry] = {}
        for entries in read_language(lang).values():
            for entry in entries:
                if entry.translated or entry.key not in known:
                    known[entry.key] = entry
        for domain, found in messages.items():
            entries = []
            for m in found:
                old = known.get(m.key)
                strings = list(old.strings) if old is not None and old.plural == m.plural else []
                fuzzy = bool(old.fuzzy) if old is not None else False
                entries.append(Entry(m.msgid, m.plural, m.context, m.places, strings, fuzzy))
            what = f"the {LANGUAGES[lang]} of the {domain} catalog"
            text = write_po(header(lang, domain), entries, COMMENT.format(what=what))
            report += _write(po_path(lang, domain), text)
        for path in (LOCALE / lang).glob("*.po"):
            if path.stem not in messages:
                path.unlink()
                report.append(f"removed {path.relative_to(ROOT)}")
    return report


def _write(path: Path, text: str) -> list[str]:
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return []
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return [f"wrote {path.relative_to(ROOT)}"]


# -- compiled catalogs --------------------------------------------------------------


def translations(entries: Iterable[Entry]) -> dict[str, str]:
    """The ``.mo`` pairs of the translated entries (key -> value, gettext's encoding)."""
    pairs: dict[str, str] = {}
    for entry in entries:
        if not entry.translated:
            continue
        key = (entry.context + "\x04" if entry.context else "") + entry.msgid
        if entry.plural:
            pairs[key + "\x00" + entry.plural] = "\x00".join(entry.strings)
        else:
            pairs[key] = entry.strings[0]
    return pairs


def write_mo(pairs: dict[str, str], head: str = "") -> bytes:
    """A GNU ``.mo`` file of ``pairs`` (sorted keys, no hash table)."""
    items = sorted({"": head, **pairs}.items()) if head else sorted(pairs.items())
    keys = [k.encode("utf-8") for k, _ in items]
    values = [v.encode("utf-8") for _, v in items]
    count = len(items)
    originals = 28
    translated = originals + 8 * count
    data_start = translated + 8 * count
    offsets_k, offsets_v, blob = [], [], b""
    for k in keys:
        offsets_k.append((len(k), data_start + len(blob)))
        blob += k + b"\x00"
    for v in values:
        offsets_v.append((len(v), data_start + len(blob)))
        blob += v + b"\x00"
    out = struct.pack("<7I", 0x950412DE, 0, count, originals, translated, 0, data_start)
    out += b"".join(struct.pack("<2I", *pair) for pair in offsets_k)
    out += b"".join(struct.pack("<2I", *pair) for pair in offsets_v)
    return out + blob


def compiled() -> list[tuple[str, bytes]]:
    """Every catalog compiled: (path in our wheel, ``.mo`` bytes), e.g.
    ``optimus/ui/messages.pt.mo`` (the table's) or ``optimus/<game>/messages.ca.mo``."""
    out = []
    for lang in TRANSLATED:
        for domain, entries in read_language(lang).items():
            package = package_of(domain).replace(".", "/")
            head = header(lang, domain)
            out.append((f"{package}/messages.{lang}.mo", write_mo(translations(entries), head)))
    return sorted(out)


BOOT_SOURCES = tuple(
    root / name
    for root, names in (
        (PY_SRC, ("games.py", "i18n.py")),
        (WEB_SRC, ("main.py", "router.py", "lazy.py")),
    )
    for name in names
)
"""The modules of the page's boot that speak (docs/boot.md): their sentences come
with index.html, in its JSON."""


def report() -> str:
    """``python build.py i18n``: update the catalogs, then say how complete each is."""
    lines = update() or ["the catalogs were already up to date"]
    for lang in TRANSLATED:
        for domain, entries in read_language(lang).items():
            done = sum(1 for e in entries if e.translated)
            lines.append(f"{lang}/{domain}.po: {done} of {len(entries)} messages translated")
    return "\n".join(lines)


def landing(template: str) -> dict[str, dict[str, str]]:
    """index.html's own messages in each language (English key -> translation), for its
    script to use before Python is ready; only translated messages are listed."""
    from optimus.games import listed

    wanted = {m.msgid for m in extract_html(template, "index.html")}
    for script in PAGE_SCRIPTS:
        wanted |= {m.msgid for m in extract_js(script.read_text(encoding="utf-8"), script.name)}
    for path in BOOT_SOURCES:  # what Python says before the shared catalog is fetched
        wanted |= {m.msgid for m in extract_python(path.read_text(encoding="utf-8"), path.name)}
    out: dict[str, dict[str, str]] = {}
    for lang in TRANSLATED:
        table = {e.msgid: e for e in read_language(lang).get(TABLE, []) if not e.context}
        out[lang] = {}
        for msgid in sorted(wanted):
            entry = table.get(msgid)
            if entry is not None and entry.translated and not entry.plural:
                out[lang][msgid] = entry.strings[0]
        for info in listed():  # the cards' player counts, as the build writes them
            english, template_id = info.players_text(), PLAYERS_TEXT
            entry = table.get(template_id)
            if entry is not None and entry.translated:
                fewest, most = info.players
                out[lang][english] = entry.strings[0].format(fewest=fewest, most=most)
    return out


# -- checks (the tests': no English left on a player's screen) ----------------------


def install(lang: str) -> None:
    """Load ``lang``'s translations straight from the ``.po`` files (no build needed),
    for running the views in CPython in that language (``optimus.i18n.use``)."""
    from optimus import i18n

    for entries in read_language(lang).values():
        messages: dict[str, str | tuple[str, ...]] = {}
        for key, value in translations(entries).items():
            if "\x00" in key:
                messages[key.split("\x00")[0]] = tuple(value.split("\x00"))
            else:
                messages[key] = value
        i18n.add_catalog(lang, messages)


_FRAGMENT_SPLIT = re.compile(r"\{\w*\}")


def english_phrases(lang: str, domains: Iterable[str] | None = None) -> dict[str, str]:
    """The English that must not show in ``lang``: phrase -> the message it comes from.

    For each message whose translation differs from its English, its longest piece
    between placeholders, if that piece has four letters or more; messages that stay
    the same in ``lang`` (a name, "Total") are left out.
    """
    phrases: dict[str, str] = {}
    chosen = set(domains) if domains is not None else None
    catalogs = read_language(lang)
    # A word the language itself uses somewhere ("bonus" in Catalan) is no sign of English.
    spoken = " \n ".join(t for entries in catalogs.values() for e in entries for _, t in _pairs(e))
    for domain, entries in catalogs.items():
        if chosen is not None and domain not in chosen:
            continue
        for entry in entries:
            for english, translated in _pairs(entry):
                if translated == english or not translated:
                    continue
                pieces = [p.strip(" .,:;!?()“”\"'…-—") for p in _FRAGMENT_SPLIT.split(english)]
                longest = max(pieces, key=len, default="")
                if sum(ch.isalpha() for ch in longest) < 4 or longest in translated:
                    continue
                if re.search(r"(?<![\w])" + re.escape(longest) + r"(?![\w])", spoken):
                    continue
                phrases.setdefault(longest, english)
    return phrases


def _pairs(entry: Entry) -> list[tuple[str, str]]:
    if not entry.translated:
        return []
    if entry.plural:
        return [(entry.msgid, entry.strings[0]), (entry.plural, entry.strings[-1])]
    return [(entry.msgid, entry.strings[0])]


NAMES = ("Optimus Table",)
"""Names that hold English words but are the same in every language."""


def english_left(text: str, phrases: dict[str, str]) -> list[str]:
    """The phrases of ``english_phrases`` found in ``text`` as whole words (the site's
    name aside)."""
    for name in NAMES:
        text = text.replace(name, " ")
    found = []
    for phrase, message in phrases.items():
        if re.search(r"(?<![\w])" + re.escape(phrase) + r"(?![\w])", text):
            found.append(f"{phrase!r} (from {message!r})")
    return sorted(found)


def capitals_after_colons(text: str, names: Iterable[str] = ()) -> list[str]:
    """The lines of ``text`` where a colon is followed by a capital letter that starts
    no name: the languages spoken here go on in small letters after a colon ("Roll 3,
    your turn: choose a die", "took row 2: blue, +2").  Names keep their capital: the
    players' ``names``, a box such as ``A1``, the joker ``X``.

    >>> text = "Row 1: Blue\\nRow 2: blue\\nTurn: Ana plays\\nNot legal: A1 is marked"
    >>> capitals_after_colons(text, ["Ana"])
    ['Row 1: Blue']
    """
    keep = (*names, *NAMES)
    found = []
    for line in text.splitlines():
        for colon in re.finditer(r":\s+(?=[A-ZÀ-Þ])", line):
            rest = line[colon.end() :]
            if not rest.startswith(keep) and not re.match(r"[A-Z]\d|X\b", rest):
                found.append(line)
                break
    return found
