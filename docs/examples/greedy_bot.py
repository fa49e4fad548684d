"""An example bot for any Optimus Table game: the move that looks best right now.

Try it at home, then at the table in the page ("Add your bot…" on a game's
set-up screen):

    PYTHONPATH=py python -m optimus arena fileiras \
        --players docs/examples/greedy_bot.py:GreedyBot,normal --games 50

It imports nothing but the game package, and yields after each move it weighs
so the page stays responsive.
"""

from optimus.core.bots import Bot, Budget


class GreedyBot(Bot):
    """Plays each legal move on a copy of the game and keeps the best score lead."""

    level = "greedy"
    default_budget = Budget(time_ms=500)

    def think(self, observation, legal_moves):
        if len(legal_moves) == 1:
            return legal_moves[0]
        # A full state consistent with what this seat may see (hidden cards sampled).
        base = self.game.state_from_observation(observation, self.player, self.rng)
        best, best_value = legal_moves[0], None
        for move in legal_moves:
            state = base.clone()
            state.apply_move(self.player, move)
            scores = state.scores()
            others = [s for i, s in enumerate(scores) if i != self.player]
            value = scores[self.player] - (max(others) if others else 0)
            if best_value is None or value > best_value:
                best, best_value = move, value
            yield None  # let the page breathe between moves
        return best
