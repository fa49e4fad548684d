"""Pruning Optimus's networks (optimus_lab.optimus.prune): the units that fire are noted
while ``hard`` plays, the others go, the values stay."""

from __future__ import annotations

from optimus.core import mlp
from optimus.core.mlp import Mlp, Near, forward
from optimus.optimus import net_multi
from optimus_lab.optimus import prune

# unit 0 of the first layer fires on feature 0 only, unit 1 never, unit 2 always; unit 1
# of the second layer never fires
MODEL = Mlp(
    w1=[[1.0, -1.0, 0.5], [-2.0, -1.0, 0.5], [0.0, -1.0, 0.5]],
    b1=[0.0, -1.0, 1.0],
    w2=[[1.0, 3.0, 1.0], [-1.0, -1.0, -1.0]],
    b2=[0.0, -0.5],
    w3=[2.0, 5.0],
    b3=1.0,
)


def test_watching_notes_the_units_that_fire_on_every_path_to_an_output() -> None:
    real = mlp.output
    fired: dict[int, tuple[set[int], set[int]]] = {}
    with prune.watching(fired):
        forward(MODEL, [1])  # net's way: mlp.output
        Near(MODEL).value([0, 2])  # net_multi's way
    assert fired[id(MODEL)] == ({0, 2}, {0})
    assert mlp.output is real and prune.net.output is real  # put back


def test_a_pruned_network_values_as_the_whole_where_the_dropped_units_do_not_fire() -> None:
    small = Mlp(**prune.pruned(MODEL, [0, 2], [0]))
    assert len(small.b1) == 2 and len(small.b2) == 1 and len(small.w1) == 3
    for idx in ([0], [1], [2], [0, 1], [0, 2], [1, 2], [0, 1, 2]):
        assert forward(small, idx) == forward(MODEL, idx)
    # a dropped unit that fires: the values part
    assert Mlp(**prune.pruned(MODEL, [2], [0])).b1 == [1.0]
    assert forward(Mlp(**prune.pruned(MODEL, [2], [0])), [0]) != forward(MODEL, [0])


def test_watch_sees_the_network_of_games_with_others_in_a_game_of_two() -> None:
    units = prune.watch([2], 1, 5, 0.0)
    first, second = units["net_multi_weights"]
    whole = net_multi.NETS.get("net_multi_weights")
    assert first and second
    assert set(first) <= set(range(len(whole.b1))) and set(second) <= set(range(len(whole.b2)))
    assert units["net_weights"] == ([], [])  # alone only
