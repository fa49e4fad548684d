"""Markup that is escaped unless marked safe.

Text put into the page goes through :class:`Markup`: a ``str`` whose value is
already HTML.  Everything else that meets it (a player's name, a translated
sentence, a number) is escaped on the way in, so forgetting to escape is safe
and escaping twice cannot happen.  This is MarkupSafe's idea (and Jinja2's
autoescape), written small: the page's boot imports nothing for it.

>>> name = "<b>Ana</b> & co"
>>> html("<li class={cls}>{name}</li>", cls="you", name=name)
Markup('<li class=you>&lt;b&gt;Ana&lt;/b&gt; &amp; co</li>')
>>> html("<ul>{}</ul>", join(html("<li>{}</li>", x) for x in ("1 < 2", Markup("<i>b</i>"))))
Markup('<ul><li>1 &lt; 2</li><li><i>b</i></li></ul>')
>>> Markup("<p>") + "x > y" + Markup("</p>")
Markup('<p>x &gt; y</p>')
"""

from __future__ import annotations

from collections.abc import Iterable

from optimus import i18n


def _escaped(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;").replace("'", "&#x27;")


class Markup(str):
    """Text that is markup already: joined, added to and formatted without being escaped
    again, while whatever plain text meets it is escaped.

    >>> Markup("<b>{}</b>").format("&")
    Markup('<b>&amp;</b>')
    >>> str(Markup("<br>")) == "<br>"
    True
    """

    __slots__ = ()

    def __html__(self) -> Markup:
        return self

    def __add__(self, other: str) -> Markup:
        return Markup(str.__add__(self, escape(other)))

    def __radd__(self, other: str) -> Markup:
        return Markup(str.__add__(escape(other), self))

    def __repr__(self) -> str:
        return f"Markup({str.__repr__(self)})"

    def join(self, pieces: Iterable[object]) -> Markup:
        return Markup(str.join(self, (escape(p) for p in pieces)))

    def format(self, *args: object, **kwargs: object) -> Markup:
        """``str.format`` with every argument escaped (numbers and booleans as they are, so
        that a format spec such as ``{:+d}`` still applies).  Fields name an argument; they
        do not reach into it (no ``{x.attr}`` or ``{x[0]}``), as what they would read is not
        escaped."""
        if "." in self or "[" in self:
            _refuse_lookups(self)
        return Markup(
            str.format(
                self,
                *(_field(a) for a in args),
                **{k: _field(v) for k, v in kwargs.items()},
            )
        )


def _field(value: object) -> object:
    if isinstance(value, (bool, int, float)):
        return value
    return escape(value)


def _refuse_lookups(template: str) -> None:
    """Refuse a field that reads an attribute or an item of its argument.

    >>> _refuse_lookups("{a.b}")
    Traceback (most recent call last):
    ...
    ValueError: markup fields name an argument, not its parts: '{a.b}'
    >>> _refuse_lookups("<p>1.5 [x]</p>")
    """
    depth, field = 0, ""
    for ch in template:
        if ch == "{":
            depth, field = depth + 1, ""
        elif ch == "}" and depth:
            depth = 0
            name = field.split(":", 1)[0].split("!", 1)[0]
            if "." in name or "[" in name:
                raise ValueError(f"markup fields name an argument, not its parts: '{{{field}}}'")
        elif depth:
            field += ch


def escape(value: object) -> Markup:
    """``value`` as markup: itself if it is markup already (has ``__html__``), else its
    text escaped for an element's content or a quoted attribute value.

    >>> escape("<b class='x'>Tom & Jerry</b>")
    Markup('&lt;b class=&#x27;x&#x27;&gt;Tom &amp; Jerry&lt;/b&gt;')
    >>> escape(Markup("<b>")), escape(3)
    (Markup('<b>'), Markup('3'))
    """
    if isinstance(value, Markup):
        return value
    html_method = getattr(value, "__html__", None)
    if html_method is not None:
        return Markup(html_method())
    return Markup(_escaped(str(value)))


def html(template: str, *args: object, **kwargs: object) -> Markup:
    """The markup ``template`` (a literal of the code, never text from outside) with its
    ``{fields}`` filled by the arguments, each escaped unless it is markup.

    >>> html('<a title="{t}">{n:02d}</a>', t='say "hi"', n=7)
    Markup('<a title="say &quot;hi&quot;">07</a>')
    """
    return Markup(template).format(*args, **kwargs)


def join(pieces: Iterable[object], sep: str = "") -> Markup:
    """The pieces one after another (plain text among them escaped).

    >>> join(["a<", Markup("<br>"), 1], " ")
    Markup('a&lt; <br> 1')
    """
    return Markup(sep).join(pieces)


def css_string(value: object) -> str:
    """``value`` as a quoted CSS string, for an attribute selector's value: what
    ``CSS.escape`` gives inside quotes, computed in Python so it is tested in CPython.

    >>> css_string('a"b\\\\c')
    '"a\\\\"b\\\\\\\\c"'
    >>> f"[data-box={css_string('x]')}]"
    '[data-box="x]"]'
    >>> css_string("line\\nbreak")
    '"line\\\\a break"'
    """
    out = []
    for ch in str(value):
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch == "\0":
            out.append("\ufffd")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\{ord(ch):x} ")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def emphasis(text: str) -> Markup:
    """``text`` (a sentence of the catalogs, which carry no markup) escaped, each
    ``*word*`` in it made bold; a lone ``*`` stays as it is.

    >>> emphasis("Click *Confirm* & <go>, or 2 * 3")
    Markup('Click <b>Confirm</b> &amp; &lt;go&gt;, or 2 * 3')
    """
    pieces = str(text).split("*")
    if len(pieces) % 2 == 0:  # an odd number of stars: the last one is a star
        pieces[-2:] = [pieces[-2] + "*" + pieces[-1]]
    return join(html("<b>{}</b>", p) if i % 2 else p for i, p in enumerate(pieces))


def tr(message: str, /, **values: object) -> Markup:
    """``_(message, **values)`` as markup: the translated sentence escaped, its fields
    filled with the values, each escaped unless it is markup.

    >>> tr("{who} plays <fast>", who=Markup("<b>Ana</b>"))
    Markup('<b>Ana</b> plays &lt;fast&gt;')
    """
    return Markup(escape(i18n._(message))).format(**values)


def tr_plural(singular: str, plural: str, count: int, /, **values: object) -> Markup:
    """``ngettext`` as markup (see :func:`tr`); ``{n}`` is the count as the language
    writes it unless ``values`` gives it (markup, say).

    >>> tr_plural("{n} card left", "{n} cards left", 1200, n=Markup("<b>1,200</b>"))
    Markup('<b>1,200</b> cards left')
    >>> tr_plural("{n} card & {x}", "{n} cards & {x}", 1, x="<")
    Markup('1 card &amp; &lt;')
    """
    fields = {key: "{" + key + "}" for key in ("n", *values)}  # the form, its fields kept
    form = i18n.ngettext(singular, plural, count, **fields)
    return Markup(escape(form)).format(**{"n": i18n.number(count), **values})
