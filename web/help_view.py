"""The help page (route ``#/help``): how a player writes a bot of their own and seats it
at a table, in a few sentences of the player's language (docs/bots.md is the whole story,
for developers)."""

from __future__ import annotations

from typing import Any

from optimus.i18n import N_, _

from .markup import Markup, html, tr

TITLE = N_("Play against your own bot")
"""The page's title (a catalog key, shown with ``_``; also the set-up's link to it)."""

EXAMPLE = """from optimus.core.bots import Bot


class MyBot(Bot):
    def think(self, observation, legal_moves):
        yield
        return legal_moves[0]
"""  # not shown: code, the same in every language
"""The smallest bot (the page shows it as it is)."""


def help_html() -> Markup:
    """The page: what a bot is, then write it, seat it, play."""
    what = _(
        "A bot is a small Python program that chooses a move whenever its seat must play. "
        "Write one and seat it at any table of this site: it runs in your browser only, "
        "until you close the page."
    )
    write = tr(
        "Save this as a file named {file}. Its class is given what its seat may see and "
        "the legal moves, and returns one of them:",
        file=Markup("<code>my_bot.py</code>"),
    )
    moves = _(
        "Moves are short words, such as “draw” or “take 2”. The “yield” lets the page "
        "breathe while your bot thinks: a bot that weighs many moves yields between them."
    )
    seat = _(
        "On a game's set-up screen, choose “Add your bot…” or drop the file there. Your "
        "bot joins the choices of every bot seat of that game, named after its class."
    )
    play = _("Start the game. If your bot fails, a built-in bot plays for it and the log says so.")
    return html(
        '<article class="help-page" data-role="help">'
        "<h2>{title}</h2><p>{what}</p>"
        "<h3>{write_title}</h3><p>{write}</p>"
        '<pre tabindex="0"><code>{example}</code></pre><p>{moves}</p>'
        "<h3>{seat_title}</h3><p>{seat}</p>"
        "<h3>{play_title}</h3><p>{play}</p></article>",
        title=_(TITLE),
        what=what,
        write_title=_("1. Write it"),
        write=write,
        example=EXAMPLE,
        moves=moves,
        seat_title=_("2. Seat it"),
        seat=seat,
        play_title=_("3. Play"),
        play=play,
    )


class HelpView:
    """The help page, drawn in the language spoken (the router draws it again on a switch)."""

    def mount(self, container: Any) -> None:
        container.innerHTML = help_html()

    def unmount(self) -> None:
        """Nothing to stop."""
