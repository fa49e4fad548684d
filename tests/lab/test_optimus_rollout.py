"""One step of policy improvement on Optimus's solo network (optimus_lab.optimus.rollout)."""

from __future__ import annotations

from optimus.optimus.game import JOKERS
from optimus.optimus.net import FEATURES
from optimus_lab import tdnet
from optimus_lab.optimus import net, rollout


def test_rollouts_play_the_held_out_dice_and_change_the_argmax_s_moves() -> None:
    p = tdnet.init_params(len(FEATURES), [8, 6], 1, 0.25)
    model = tdnet.Sparse(p)
    games = range(2)
    greedy = [net.play(p, 5, g, 0.0, "eval")[3][0] for g in games]
    # played out from the start, the argmax's game is the held-out one
    for g in games:
        dice = net.game_dice(5, "eval", g)
        assert rollout.finish(model, net.eval_layout(g), 0, JOKERS, 0, dice) == greedy[g]
    # the best afterstate alone is the argmax
    assert [rollout.improved(model, 5, g, 1, 2) for g in games] == greedy
    # more afterstates played out change some game
    better = [rollout.improved(model, 5, g, 3, 1) for g in games]
    assert better != greedy
    assert better == [rollout.improved(model, 5, g, 3, 1) for g in games]
