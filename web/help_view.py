"""The help page (route ``#/help``): how a player writes a bot of their own and seats it
at a table, in a few sentences of the player's language (docs/bots.md is the whole story,
for developers)."""

from __future__ import annotations

from typing import Any

from optimus.i18n import N_, _

from .router import esc

TITLE = N_("Play against your own bot")
"""The page's title (a catalog key, shown with ``_``; also the set-up's link to it)."""

EXAMPLE = """from optimus.core.bots import Bot


class MyBot(Bot):
    def think(self, observation, legal_moves):
        yield
        return legal_moves[0]
"""  # not shown: code, the same in every language
"""The smallest bot (the page shows it as it is)."""


def help_html() -> str:
    """The page: what a bot is, then write it, seat it, play."""
    what = _(
        "A bot is a small Python program that chooses a move whenever its seat must play. "
        "Write one and seat it at any table of this site: it runs in your browser only, "
        "until you close the page."
    )
    write = _(
        "Save this as a file named {file}. Its class is given what its seat may see and "
        "the legal moves, and returns one of them:",
        file="<code>my_bot.py</code>",
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
    return (
        '<article class="help-page" data-role="help">'
        f"<h2>{esc(_(TITLE))}</h2><p>{esc(what)}</p>"
        f"<h3>{esc(_('1. Write it'))}</h3><p>{write}</p>"
        f'<pre tabindex="0"><code>{esc(EXAMPLE)}</code></pre><p>{esc(moves)}</p>'
        f"<h3>{esc(_('2. Seat it'))}</h3><p>{esc(seat)}</p>"
        f"<h3>{esc(_('3. Play'))}</h3><p>{esc(play)}</p></article>"
    )


class HelpView:
    """The help page, drawn in the language spoken (the router draws it again on a switch)."""

    def mount(self, container: Any) -> None:
        container.innerHTML = help_html()

    def unmount(self) -> None:
        """Nothing to stop."""
