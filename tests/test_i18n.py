"""The catalogs: complete, in step with the code, compiled right; no player text around them.

The browser tests check the pages themselves (tests/e2e/test_languages.py); each
game's tests play a whole game in each language through its views.
"""

from __future__ import annotations

import ast
import gettext
import io
import re
from pathlib import Path

import pytest

from optimus import i18n
from optimus.games import GAMES
from sitebuild import ROOT
from sitebuild.i18n import (
    TRANSLATED,
    Entry,
    extract,
    extract_html,
    extract_python,
    placeholders,
    pot_path,
    read_language,
    read_po,
    translations,
    write_mo,
    write_po,
)


def test_the_catalogs_hold_exactly_the_messages_of_the_code() -> None:
    """A message added, changed or removed in the code without `python build.py i18n`."""
    for domain, messages in extract().items():
        wanted = [(m.context, m.msgid, m.plural) for m in messages]
        _, template = read_po(pot_path(domain).read_text(encoding="utf-8"))
        assert [(e.context, e.msgid, e.plural) for e in template] == wanted, (
            f"locale/{domain}.pot is stale: run `python build.py i18n`"
        )
        for lang in TRANSLATED:
            entries = read_language(lang).get(domain, [])
            got = [(e.context, e.msgid, e.plural) for e in entries]
            assert got == wanted, f"locale/{lang}/{domain}.po is stale: run `python build.py i18n`"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(lang: str) -> None:
    problems = []
    for domain, entries in read_language(lang).items():
        for entry in entries:
            where = f"{lang}/{domain}.po {entry.msgid!r}"
            if not entry.translated:
                problems.append(f"{where}: not translated" + (" (fuzzy)" if entry.fuzzy else ""))
                continue
            forms = [entry.msgid, entry.plural] if entry.plural else [entry.msgid]
            wanted = set().union(*(placeholders(f) for f in forms))
            for text in entry.strings:
                # A plural's singular form may say "one" in words instead of {n}.
                got = placeholders(text)
                if got - wanted or (wanted - got) - ({"n"} if entry.plural else set()):
                    problems.append(f"{where}: placeholders {sorted(got)} != {sorted(wanted)}")
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} in all)"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_one_message_has_one_translation_in_every_catalog(lang: str) -> None:
    """The page merges the catalogs it loads: the same English must mean the same."""
    seen: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {}
    clashes = []
    for domain, entries in read_language(lang).items():
        for entry in entries:
            if not entry.translated:
                continue
            known = seen.setdefault(entry.key, (domain, tuple(entry.strings)))
            if known[1] != tuple(entry.strings):
                clashes.append(
                    f"{entry.msgid!r}: {known[0]} {known[1]} vs {domain} {entry.strings}"
                )
    assert not clashes, "use pgettext for a word of two meanings:\n" + "\n".join(clashes)


def test_a_compiled_catalog_reads_the_same_in_the_page_and_in_gettext() -> None:
    entries = [
        Entry("Hello", strings=["Olá"]),
        Entry("{n} card", "{n} cards", strings=["{n} carta", "{n} cartas"]),
        Entry("Row", context="table", strings=["Fileira"]),
        Entry("Unfinished", strings=[""]),
    ]
    text = write_po(
        "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; plural=(n > 1);\n",
        entries,
    )
    head, back = read_po(text)
    assert [(e.msgid, e.plural, e.context, e.strings) for e in back] == [
        (e.msgid, e.plural, e.context, e.strings) for e in entries
    ]
    data = write_mo(translations(back), head)
    reference = gettext.GNUTranslations(io.BytesIO(data))
    assert reference.gettext("Hello") == "Olá"
    assert reference.ngettext("{n} card", "{n} cards", 1) == "{n} carta"
    assert reference.ngettext("{n} card", "{n} cards", 2) == "{n} cartas"
    assert reference.pgettext("table", "Row") == "Fileira"
    assert reference.gettext("Unfinished") == "Unfinished"
    assert i18n.read_mo(data) == {
        "Hello": "Olá",
        "{n} card": ("{n} carta", "{n} cartas"),
        "table\x04Row": "Fileira",
    }


def test_po_strings_keep_quotes_backslashes_and_newlines() -> None:
    tricky = 'He said "go"\\ now\nand\tthen'
    _, back = read_po(write_po("", [Entry(tricky, strings=[tricky + "!"])]))
    assert back[0].msgid == tricky and back[0].strings == [tricky + "!"]


def test_extraction_finds_each_kind_of_call_and_refuses_a_computed_one() -> None:
    source = (
        "a = _('One')\nb = N_('Two')\nc = ngettext('{n} die', '{n} dice', k)\n"
        "d = pgettext('card', 'Row')\ne = _(variable)\nf = NP_('die', 'Red')\n"
        "g = pgettext('die', variable)\nh = NN_('{n} box', '{n} boxes')\ni = ngettext(*h, k)\n"
    )
    found = extract_python(source, "x.py")
    assert [m.msgid for m in found] == ["One", "Two", "{n} die", "Row", "Red", "{n} box"]
    assert [m.plural for m in found] == ["", "", "{n} dice", "", "", "{n} boxes"]
    assert [m.context for m in found] == ["", "", "", "card", "die", ""]
    for computed in ("N_(name)", "NP_('die', name)", "pgettext(ctx, 'Row')", "NN_(a, 'b')"):
        with pytest.raises(Exception, match="string literal"):
            extract_python(f"x = {computed}\n", "x.py")
    page = '<p data-i18n>Hello  world</p><meta data-i18n-attr="content" content="Hi &amp; bye">'
    page += '<script>el("p", t("Reload the page."))</script>'
    assert [m.msgid for m in extract_html(page, "p.html")] == [
        "Hello world",
        "Hi & bye",
        "Reload the page.",
    ]


def test_plural_forms_follow_each_language() -> None:
    # Brazilian Portuguese says "0 dias", "1 dia", "2 dias": only 1 is singular.
    assert [i18n.PLURALS["pt"](n) for n in (0, 1, 2)] == [1, 0, 1]
    assert i18n.PLURALS["ca"](0) == 1 and i18n.PLURALS["ca"](1) == 0
    for lang in TRANSLATED:
        head, _ = read_po((ROOT / "locale" / lang / "table.po").read_text(encoding="utf-8"))
        assert f"Plural-Forms: {i18n.PLURAL_FORMS[lang]}" in head


# A count of things: a count's placeholder before the thing counted ("{n} days", "{cards}
# of {n} cards").  Such a message goes through ngettext / tr_plural, so each language
# chooses the form for the number ("0 dias", "1 dia", "2 dias").
COUNTS = r"n|count|cards|capacity|rounds|seconds|most|left|used|marked|have|need|limit|total"
THINGS = (
    r"players?|rounds?|cards?|days?|points?|pts?|seconds?|dice|die|box(?:es)?|games?|rolls?"
    r"|rows?|jokers?|fox(?:es)?|cells?|slots?|values?|draws?|scores?|moves?|decisions?|steps?"
)
COUNTED = re.compile(rf"\{{(?:{COUNTS})\}}\s+(?:more\s+|of\s+\{{\w+\}}\s+)?(?:{THINGS})\b")
NEVER_ONE = {
    # message: why its count is never 1 (so one form is always right)
    "{n} players; {sheet}; colour bonuses on (5 first, 3 later).": "solo has its own sentence",
    "{n} players; {sheet}; no colour bonuses.": "solo has its own sentence",
    "{n} players ({rounds} rounds)": "solo has its own; 4 rounds or more",
    "{n} players, {rounds} rounds; standard sheet.": "solo has its own; 4 rounds or more",
    "1 player (solo, {rounds} rounds)": "a solo game has 6 rounds or more",
    "1 player, {rounds} rounds; solo: a passive turn after each of yours; standard sheet.": (
        "a solo game has 6 rounds or more"
    ),
    "{fewest}-{most} players": "every game seats 2 or more",
    "{game} is for {fewest}-{most} players, not {n}: the link's players were ignored.": (
        "every game seats 2 or more"
    ),
    "It did not finish loading within {seconds} seconds.": "always 120 (web/page.js)",
}


def test_every_count_of_things_takes_the_plural_form_of_each_language() -> None:
    singular_only = []
    for domain in ("table", *(g for g, info in GAMES.items() if info.translated)):
        _head, template = read_po(pot_path(domain).read_text(encoding="utf-8"))
        for entry in template:
            if not entry.plural and COUNTED.search(entry.msgid) and entry.msgid not in NEVER_ONE:
                singular_only.append(entry.msgid)
    assert singular_only == [], "counts to say with ngettext / tr_plural"
    assert all(COUNTED.search(message) for message in NEVER_ONE)  # no stale exception
    for lang in TRANSLATED:
        for entries in read_language(lang).values():
            for entry in entries:
                if entry.plural and entry.msgid != entry.plural:  # English has two forms
                    assert len(set(entry.strings)) == 2, (lang, entry.msgid, entry.strings)
    # Zero takes the plural in all three: "0 dias", "0 dies", "0 days".
    for lang in ("en", *TRANSLATED):
        assert i18n.PLURALS[lang](0) == i18n.PLURALS[lang](2) != i18n.PLURALS[lang](1)


ENGLISH_JARGON = re.compile(r"(?i)\b(?:replays?|offline|online)\b")
"""Words a Portuguese or Catalan player would not say: each language has its own."""


def test_replays_and_offline_are_said_in_the_players_words() -> None:
    for lang in TRANSLATED:
        for entries in read_language(lang).values():
            for entry in entries:
                for text in entry.strings:
                    assert not ENGLISH_JARGON.search(text), (lang, entry.msgid, text)
    said = {e.msgid: e.strings[0] for e in read_language("pt")["table"]}
    assert said["Replay"] == "Rever a partida" and "sem internet" in said["Now works offline."]


# -- no player text around the catalogs -----------------------------------------------

# The modules that speak to the player.  The rules' game modules speak through the
# reasons a refused move gives; other exceptions there are for developers.
SPEAKING = [
    *sorted((ROOT / "web").glob("*.py")),
    *sorted((ROOT / "py/optimus/ui").glob("*.py")),
    ROOT / "py/optimus/games.py",
    ROOT / "py/optimus/core/userbots.py",
    *(
        f
        for g, info in GAMES.items()
        if info.translated  # an untranslated game's rules and view data speak English
        for f in sorted((ROOT / "py/optimus" / g).glob("*.py"))
        if f.name in ("game.py", "words.py") or f.name.startswith("view")  # view_<part>.py
    ),
]
NOT_SHOWN = "# not shown"
"""A line's comment saying its text never reaches the player (a developer's message)."""
SILENT_CALLS = {
    "_",
    "N_",
    "NP_",
    "NN_",
    "ngettext",
    "pgettext",
    "tr",
    "tr_plural",
    "print",
    "error",
    "warn",
    "log",
    "debug",
}
DEVELOPER_ERRORS = {
    "ValueError",
    "TypeError",
    "KeyError",
    "AssertionError",
    "RuntimeError",
    "NotImplementedError",
    "BuildError",
    "SystemExit",
    "IndexError",
}
SENTENCE = re.compile(r"[A-Za-z]{2,}[,:;.!?'’)]*\s+[(“\"]*[A-Za-z]{2,}")


def _visible_text(fragment: str) -> str:
    """What of a string literal could show as text: markup, entities and ``{...}`` out."""
    text = re.sub(r"<[^<>]*>", " ", fragment)
    text = re.sub(r"<[^<>]*$|^[^<>]*>", " ", text)  # a tag cut by an f-string's {value}
    return re.sub(r"&\w+;|&#\w+;", " ", text)


def bypasses(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    lines = source.splitlines()
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))  # a docstring, of a module, class, function or attribute
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in SILENT_CALLS or name in DEVELOPER_ERRORS:
                for inner in ast.walk(node):
                    skip.add(id(inner))
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in DEVELOPER_ERRORS:
                for inner in ast.walk(node):
                    skip.add(id(inner))
        if isinstance(node, ast.Assert):
            for inner in ast.walk(node):
                skip.add(id(inner))
        simple = isinstance(node, ast.stmt) and not hasattr(node, "body")
        if simple and any(NOT_SHOWN in line for line in lines[node.lineno - 1 : node.end_lineno]):
            for inner in ast.walk(node):
                skip.add(id(inner))  # a statement marked "# not shown" on any of its lines
    found = []
    for node in ast.walk(tree):
        if (
            not isinstance(node, ast.Constant)
            or not isinstance(node.value, str)
            or id(node) in skip
        ):
            continue
        line = lines[node.lineno - 1] if node.lineno <= len(lines) else ""
        if NOT_SHOWN in line or (node.end_lineno and NOT_SHOWN in lines[node.end_lineno - 1]):
            continue
        text = _visible_text(node.value)
        if SENTENCE.search(text):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value[:70]!r}")
    return found


def test_no_player_text_bypasses_the_catalogs() -> None:
    """A sentence in a speaking module outside ``_()`` and friends shows in English to
    everyone.  Developer text says so with a ``# not shown`` comment on its line."""
    found = [line for path in SPEAKING for line in bypasses(path)]
    assert not found, "\n".join(found[:60]) + f"\n({len(found)} in all)"


def test_the_bypass_check_catches_a_sentence_and_passes_markup() -> None:
    sample = ROOT / "tests" / "fixtures" / "i18n_sample.py"
    sample.parent.mkdir(exist_ok=True)
    sample.write_text(
        'def f(x):\n    """A docstring is fine."""\n'
        "    ok = _('Roll the dice.') + f'<div class=\"a b\" data-x=\"{x}\">' + '</div>'\n"
        "    bad = f'{x} took the row.'\n"
        "    raise ValueError('developer text is fine')\n",
        encoding="utf-8",
    )
    try:
        assert [line.split(": ", 1)[1] for line in bypasses(sample)] == ["' took the row.'"]
    finally:
        sample.unlink()


NAMES = {"Optimus Table", "Optimus", "Optimus 2", "Fileiras"}
"""Names, the same in every language."""


def test_no_landing_text_bypasses_the_catalogs() -> None:
    """index.html's text and its accessible names are marked for the catalogs
    (``data-i18n``, ``data-i18n-attr``), names of the games aside."""
    from html.parser import HTMLParser

    found: list[str] = []

    class Page(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.stack: list[tuple[str, bool]] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            named = dict(attrs)
            marked = "data-i18n" in named
            for attr in ("aria-label", "title", "alt", "placeholder", "content"):
                value = named.get(attr) or ""
                wanted = (named.get("data-i18n-attr") or "").split()
                if attr == "content" and named.get("name") != "description":
                    continue
                if SENTENCE.search(value) and value not in NAMES and attr not in wanted:
                    found.append(f"<{tag} {attr}={value!r}>")
            if tag not in ("meta", "link", "img", "br", "input"):
                self.stack.append((tag, marked))

        def handle_endtag(self, tag: str) -> None:
            while self.stack and self.stack.pop()[0] != tag:
                pass

        def handle_data(self, data: str) -> None:
            text = " ".join(data.split())
            inside = [tag for tag, _ in self.stack]
            if not text or {"script", "style", "mpy-config"} & set(inside):
                return
            if any(marked for _, marked in self.stack) or text in NAMES or "{{" in text:
                return
            if sum(ch.isalpha() for ch in text) >= 2:
                found.append(f"text {text!r} in <{'/'.join(inside[-3:])}>")

    Page().feed((ROOT / "index.html").read_text(encoding="utf-8"))
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game", [g for g, info in GAMES.items() if info.translated])
def test_every_game_has_its_how_to_play_in_every_language_alike(game: str) -> None:
    """The same sections, lists and tables in each language, a worked example (a table)
    in each, and no English heading left in a translation."""
    from sitebuild.howto import files, to_html

    docs = files(game)
    assert set(docs) == set(i18n.LANGUAGES), f"docs/howto/{game}.<lang>.md for each language"
    shapes = {}
    headings = {}
    for lang, path in docs.items():
        page = to_html(path.read_text(encoding="utf-8"), str(path))
        shapes[lang] = [tag for tag in re.findall(r"<(h[3-6]|table|ul|ol)>", page)]
        headings[lang] = re.findall(r"<h[3-6]>(.*?)</h[3-6]>", page)
        assert "<table>" in page, f"{path.name}: a worked example of scoring, as a table"
    assert shapes["pt"] == shapes["en"] and shapes["ca"] == shapes["en"], "the same structure"
    for lang in TRANSLATED:
        same = [h for h, e in zip(headings[lang], headings["en"], strict=True) if h == e]
        assert not same, f"{game}.{lang}.md keeps English headings: {same}"


def test_no_message_carries_markup() -> None:
    """Markup is the code's (web/markup.py): a message stresses a word as ``*word*`` and
    takes markup through a placeholder, so a translation cannot break or inject a tag."""
    found = []
    for path in sorted((ROOT / "locale").rglob("*.po*")):
        _, entries = read_po(path.read_text(encoding="utf-8"), str(path))
        for entry in entries:
            for text in (entry.msgid, entry.plural, *entry.strings):
                if "<" in text:
                    found.append(f"{path.relative_to(ROOT)}: {text[:60]!r}")
    assert not found, found


def test_stressed_words_are_paired_in_every_translation() -> None:
    """A ``*word*`` left open would print a star and bold the rest of the rule."""
    odd = []
    for path in sorted((ROOT / "locale").rglob("*.po*")):
        _, entries = read_po(path.read_text(encoding="utf-8"), str(path))
        for entry in entries:
            for text in (entry.msgid, entry.plural, *entry.strings):
                if text.count("*") % 2:
                    odd.append(f"{path.relative_to(ROOT)}: {text[:60]!r}")
    assert not odd, odd
