"""The table's dialogs: rules drawer, settings, confirmation, a player's details, the end.

Native ``<dialog>`` elements opened modally (focus trapped, Escape closes); one
is open at a time.  :class:`Dialogs` draws them once per mount and fills the
ones whose content changes (details, end screen) when they open.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from optimus.games import GAMES
from optimus.i18n import _, pgettext
from optimus.ui import howto
from optimus.ui import review_view as rv
from optimus.ui import table as ui

from .markup import Markup, emphasis, html, join
from .router import found

ROLES = (
    "rules",
    "settings",
    "confirm",
    "confirm-text",
    "confirm-yes",
    "player",
    "end",
    "options",
    "symbols",
    "symbols-list",
)


def rules_html(game_id: str, rules: Sequence[str]) -> Markup:
    """The rules drawer's text: the game's how-to-play in the language spoken now (built
    from docs/howto/), else the view's points (English marked ``N_``, said with ``_``)."""
    page = howto.read(game_id)  # the project's own HTML (sitebuild/howto.py), never a player's
    if page:
        # A wide table scrolls sideways in its own box (a phone's drawer is narrow),
        # which the keyboard can reach and scroll too; each box is a landmark with a
        # name of its own ("Table 2").
        pieces = page.split("<table>")
        drawn = Markup(pieces[0])
        for n, rest in enumerate(pieces[1:], 1):
            label = pgettext("rules", "Table {n}", n=n)
            drawn += html(
                '<div class="howto-table" tabindex="0" role="region" aria-label="{label}">'
                "<table>{rest}",
                label=label,
                rest=Markup(rest.replace("</table>", "</table></div>", 1)),
            )
        return html('<div class="howto">{}</div>', drawn)
    points = join(html("<li>{}</li>", emphasis(_(r))) for r in rules)
    return html("<ol>{}</ol>", points)


def grades_html(game_id: str) -> Markup:
    """The rules drawer's "How the review grades a decision": each grade and the points
    lost that earn it, read from the game's coach (nothing when it has none)."""
    coach = GAMES[game_id].coach
    if coach is None:
        return Markup()
    rows = join(
        html('<tr><th scope="row">{}</th><td>{}</td></tr>', rv.GRADE_NAMES[grade], said)
        for grade, said in rv.grade_steps(coach)
    )
    return html(
        '<section class="review-grading" data-role="review-grading" aria-labelledby="{g}-grading">'
        '<h3 id="{g}-grading">{title}</h3><p>{said}</p>'
        '<table><thead><tr><th scope="col">{grade}</th><th scope="col">{lost}</th></tr>'
        "</thead><tbody>{rows}</tbody></table></section>",
        g=game_id,
        title=_("How the review grades a decision"),
        said=_(
            "“Review the game” on the end screen and in a replay rates each of your decisions "
            "with the strongest bot: the points your move gave away against the move it would "
            "play, as it counts them. Your accuracy is your mean loss and your share of best "
            "moves."
        ),
        grade=_("Grade"),
        lost=_("Points lost"),
        rows=rows,
    )


def _options(labels: Mapping[str, str], chosen: str) -> Markup:
    return join(
        html(
            '<option value="{k}"{selected}>{label}</option>',
            k=k,
            selected=Markup(" selected" if k == chosen else ""),
            label=label,
        )
        for k, label in labels.items()
    )


def dialogs_html(game_id: str, rules: Sequence[str], speed: str, thinking: str) -> Markup:
    """Every dialog of a table, closed, in the language spoken now."""
    return html(
        """
  <dialog class="drawer" data-role="rules" aria-labelledby="{g}-rules-title">
    <header class="dialog-head"><h2 id="{g}-rules-title">{how_to_play}</h2>
      <button type="button" class="btn" data-action="close">{close}</button></header>
    <div class="drawer-body">{rules}{grading}
      <h3>{options}</h3><p data-role="options"></p></div>
  </dialog>
  <dialog class="drawer" data-role="symbols" aria-labelledby="{g}-symbols-title">
    <header class="dialog-head"><h2 id="{g}-symbols-title">{symbols}</h2>
      <button type="button" class="btn" data-action="close">{close}</button></header>
    <div class="drawer-body"><ul class="symbols-list" data-role="symbols-list"></ul></div>
  </dialog>
  <dialog class="small-dialog" data-role="settings" aria-labelledby="{g}-settings-title">
    <header class="dialog-head"><h2 id="{g}-settings-title">{settings}</h2>
      <button type="button" class="btn" data-action="close">{close}</button></header>
    <label class="field">{bot_speed}
      <select name="speed" data-setting="speed">{speeds}</select></label>
    <p class="small">{instant}</p>
    <label class="field">{bots_think}
      <select name="thinking" data-setting="thinking">{thinkings}</select></label>
  </dialog>
{confirm}
  <dialog class="small-dialog" data-role="player" aria-labelledby="{g}-player-title"></dialog>
  <dialog class="end-dialog" data-role="end" aria-labelledby="{g}-end-title"></dialog>""",
        g=game_id,
        how_to_play=_("How to play"),
        close=_("Close"),
        rules=rules_html(game_id, rules),
        grading=grades_html(game_id),
        options=_("Options in use"),
        symbols=_("Symbols"),
        settings=_("Settings"),
        bot_speed=_("Bot speed"),
        speeds=_options(ui.SPEED_LABELS, speed),
        # Every game's words: no cards in a dice game, no dice in a card game.
        instant=_(
            "With “Instant”, or when your system asks for reduced motion, each move appears "
            "at once, with nothing sliding across the table."
        ),
        bots_think=_("Bots think"),
        thinkings=_options(ui.THINKING_LABELS, thinking),
        confirm=confirm_html("confirm", f"{game_id}-confirm-text", _("OK")),
    )


def confirm_html(role: str, ident: str, yes: str, text: str = "") -> Markup:
    """A small dialog (``data-role`` ``role``) asking ``text`` (the paragraph ``ident``,
    which names it): Cancel (``data-action=confirm-no``), then ``yes`` (``confirm-yes``).

    The table's asks what :meth:`Dialogs.confirm` writes in it; the records page's is
    drawn with its question.
    """
    return html(
        """
  <dialog class="small-dialog" data-role="{role}" aria-labelledby="{ident}">
    <p id="{ident}" data-role="confirm-text">{text}</p>
    <p class="dialog-actions">
      <button type="button" class="btn" data-action="confirm-no">{cancel}</button>
      <button type="button" class="btn primary" data-action="confirm-yes"
        data-role="confirm-yes">{yes}</button></p>
  </dialog>""",
        role=role,
        ident=ident,
        text=text,
        cancel=_("Cancel"),
        yes=yes,
    )


def symbols_html(symbols: Sequence[tuple[Markup, str]]) -> Markup:
    """The "Symbols" screen's lines: a symbol as the table draws it (markup), its meaning
    (text); the same screen for every game."""
    return join(
        html(
            '<li><span class="sym-piece" aria-hidden="true">{}</span>'
            '<span class="sym-meaning">{}</span></li>',
            piece,
            meaning,
        )
        for piece, meaning in symbols
    )


def end_html(game_id: str, end: ui.EndScreen, icon: Callable[[str], str]) -> Markup:
    """The end screen: headline, how totals and ties were decided, each player's breakdown,
    Rematch / New game / See the final table.  ``icon`` draws a line's piece (markup)."""
    return html(
        """
<div class="end-head"><h2 id="{g}-end-title">{headline}</h2>
<p class="end-rules"{no_rules}>{rules}</p></div>
<div class="finals" tabindex="0" role="region" aria-label="{scores}">{players}</div>
<p class="dialog-actions">
  <button type="button" class="btn primary" data-action="rematch">{rematch}</button>
  <button type="button" class="btn" data-action="new">{new}</button>
  <button type="button" class="btn" data-action="see-table">{see}</button></p>""",
        g=game_id,
        headline=end.headline,
        rules=end.rules,
        no_rules=Markup("" if end.rules else " hidden"),  # no tie and nothing else to say
        scores=_("Scores"),
        players=join(final_html(p, icon) for p in end.players),
        rematch=_("Rematch"),
        new=_("New game"),
        see=_("See the final table"),
    )


def final_html(p: ui.FinalScore, icon: Callable[[str], str]) -> Markup:
    """One player's result on the end screen (``icon``: a line's piece, as markup)."""
    lines = []
    for line in p.lines:
        piece = Markup(icon(line.icon)) if line.icon else Markup("<span></span>")
        detail = html(' <span class="small">{}</span>', line.detail) if line.detail else ""
        data = join(html(' data-{}="{}"', k, v) for k, v in line.data)
        lines.append(
            html(
                '<li class="{kind}">{piece}<span>{text}{detail}</span><b{data}>{value}</b></li>',
                kind=line.kind,
                piece=piece,
                text=line.text,
                detail=detail,
                data=data,
                value=line.value,
            )
        )
    why = html('<p class="why">{}</p>', p.why) if p.why else ""
    return html(
        '<article class="final" data-seat="{seat}" data-total="{total}">'
        '<h3><span class="rank">#{rank}</span> {name}'
        '<span class="total" data-role="total">{points}</span></h3>'
        "{why}<ul>{lines}</ul></article>",
        seat=p.seat,
        total=p.total,
        rank=p.rank,
        name=p.name,
        points=ui.points(p.total),
        why=why,
        lines=join(lines),
    )


class Dialogs:
    """The dialogs of one mounted table (``root``: the table's shell)."""

    def __init__(self, root: Any, game_id: str) -> None:
        self.root = root
        self.game_id = game_id
        self.nodes = {role: root.querySelector(f"[data-role={role}]") for role in ROLES}
        self._on_yes: Callable[[], None] | None = None

    def open(self, dialog: Any) -> None:
        self.close_all(dialog)
        if not dialog.open:
            dialog.showModal()

    def close_all(self, keep: Any = None) -> None:
        for dialog in self.root.querySelectorAll("dialog[open]"):
            if keep is None or not dialog.isSameNode(keep):
                dialog.close()

    def end_open(self) -> bool:
        return bool(self.nodes["end"].open)

    def confirm(self, text: str, yes: str, on_yes: Callable[[], None]) -> None:
        """Ask before doing something that loses or leaves a game."""
        self.nodes["confirm-text"].textContent = text
        self.nodes["confirm-yes"].textContent = yes
        self._on_yes = on_yes
        self.open(self.nodes["confirm"])
        self.nodes["confirm"].querySelector("[data-action=confirm-no]").focus()

    def confirmed(self) -> None:
        self.nodes["confirm"].close()
        on_yes, self._on_yes = self._on_yes, None
        if on_yes is not None:
            on_yes()

    def cancel(self) -> None:
        self.nodes["confirm"].close()

    def rules(self, options: str) -> None:
        """The rules drawer, with the options of the game in progress."""
        self.nodes["options"].textContent = options or _("You choose them on the set-up screen.")
        self.open(self.nodes["rules"])

    def settings(self) -> None:
        self.open(self.nodes["settings"])

    def symbols(self, symbols: Sequence[tuple[Markup, str]]) -> None:
        """The game's symbols, each drawn as the table draws it, with its meaning."""
        self.nodes["symbols-list"].innerHTML = symbols_html(symbols)
        self.open(self.nodes["symbols"])

    def player(self, panel: ui.Panel, detail: str) -> None:
        """A player's details (their whole sheet or collection; ``detail``: markup)."""
        dialog = self.nodes["player"]
        dialog.innerHTML = html(
            '<header class="dialog-head"><h2 id="{g}-player-title">{name}: {points}</h2>'
            '<button type="button" class="btn" data-action="close">{close}</button>'
            "</header>{detail}",
            g=self.game_id,
            name=panel.name,
            points=ui.points(panel.score),
            close=_("Close"),
            detail=Markup(detail),
        )
        self.open(dialog)

    def end(self, end: ui.EndScreen, record: str, icon: Callable[[str], str]) -> None:
        dialog = self.nodes["end"]
        dialog.setAttribute("data-record", record)
        dialog.innerHTML = end_html(self.game_id, end, icon)
        self.open(dialog)
        # Focused from script, not with `autofocus`: a cross-origin iframe (a blog's
        # embed) blocks autofocus and says so on the console.
        dialog.querySelector("[data-action=rematch]").focus()

    def close_end(self) -> None:
        self.nodes["end"].close()


def backdrop_click(dialog: Any, event: Any) -> bool:
    """Whether a click on ``dialog`` itself fell outside its box (on the backdrop)."""
    r = dialog.getBoundingClientRect()
    x, y = float(event.clientX), float(event.clientY)
    inside = float(r.left) <= x <= float(r.right) and float(r.top) <= y <= float(r.bottom)
    return found(dialog) and not inside
