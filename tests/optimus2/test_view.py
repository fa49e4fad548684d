"""The Optimus 2 view model offers exactly the legal moves, where they really go, in words."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from optimus.core import Match, Rng
from optimus.optimus2 import view as vm
from optimus.optimus2.game import Optimus2Game, Optimus2State

NAMES = ["You", "Easy bot 2", "Hard bot 3", "Normal bot 4"]


def positions(seed: int, players: int) -> Iterator[tuple[Optimus2State, int | None]]:
    """Every decision point of a random game, as (state, actor)."""
    m = Match(Optimus2Game(), {"players": players}, seed)
    rng = Rng(seed)
    while not m.state.is_terminal():
        p = m.state.actors()[0]
        yield m.state, p  # type: ignore[misc]
        m.play(p, rng.choice(m.state.legal_moves(p)))
    yield m.state, None  # type: ignore[misc]


def offered(t: vm.Table, obs: dict[str, Any], you: int) -> set[str]:
    """Every move the page lets a person make: targets of each die, bonus answers, buttons."""
    moves = set(t.targets.values())
    for d in t.dice:
        if d.selectable:
            moves |= set(vm.table(obs, NAMES, you, d.die).targets.values())
        if d.return_move:
            moves.add(d.return_move)
    moves |= {c.move for c in (*t.controls, *t.writes, *t.chooses)}
    return moves


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_clickable_things_are_exactly_the_legal_moves(players: int) -> None:
    seen_phases = set()
    for state, actor in positions(players * 7, players):
        if actor is None:
            continue
        obs = state.observation(actor)
        t = vm.table(obs, NAMES, actor)
        assert offered(t, obs, actor) == set(state.legal_moves(actor))
        seen_phases.add(state.phase)
        for other in range(players):
            if other not in state.actors():  # someone who is not to act is offered nothing
                o = vm.table(state.observation(other), NAMES, other)
                assert not offered(o, state.observation(other), other)
    assert {"choose", "simul"} <= seen_phases


def _cell_changed(before: dict[str, Any], after: dict[str, Any], key: str) -> bool:
    kind, rest = key[0], key[1:]
    if kind == "Y":
        c = int(rest)
        return bool(after["yellow"][c] == before["yellow"][c] + 1)
    if kind == "S":
        row, value = (int(x) for x in rest.split("-"))
        return value in after["silver"][row] and value not in before["silver"][row]
    area = {"B": "blue", "G": "green", "P": "pink"}[kind]
    return len(after[area]) == int(rest) + 1 and len(before[area]) == int(rest)


def test_each_lit_cell_is_the_cell_its_move_fills_and_the_preview_is_what_is_written() -> None:
    checked = 0
    for state, actor in positions(11, 2):
        if actor is None or state.phase != "choose":
            continue
        obs = state.observation(actor)
        for d in vm.table(obs, NAMES, actor).dice:
            if not d.selectable:
                continue
            t = vm.table(obs, NAMES, actor, d.die)
            assert t.selected == d.die
            me = next(p for p in t.players if p.you)
            previews = {
                c.key: c.will
                for area in ("blue", "green", "pink")
                for c in me.sheet.track(area)
                if c.move
            }
            for key, move in t.targets.items():
                after = state.clone()
                after.apply_move(actor, move)
                before_sheet = obs["sheets"][actor]
                after_sheet = after.observation(actor)["sheets"][actor]
                assert _cell_changed(before_sheet, after_sheet, key), (key, move)
                if key in previews:
                    area = {"B": "blue", "G": "green", "P": "pink"}[key[0]]
                    written = after_sheet[area][int(key[1:])]
                    assert previews[key].startswith(f"write {written}") or previews[key].endswith(
                        f"= {written}"
                    ), (previews[key], written)
                checked += 1
    assert checked > 50


def test_status_says_whose_turn_and_what_to_do() -> None:
    tones = set()
    for state, actor in positions(3, 2):
        st = vm.status(state.observation(0), NAMES, 0)
        tones.add(st.tone)
        assert st.text.endswith((".", "…")) and st.text[0].isupper()
        if actor is None:
            assert st.tone == "over"
        elif 0 in state.actors():
            assert st.tone == "you"
            pending = state.observation(0)["sheets"][0]["pending_raw"]
            if pending:
                assert "Bonus" in st.text or "chain" in st.text
        elif state.phase != "simul":
            assert st.tone == "bot" and NAMES[state.actors()[0]] in st.text
    assert {"you", "bot", "over"} <= tones


def test_task_questions_are_told_in_words() -> None:
    assert "yellow" in vm.task_text(["Y", 0, 0])
    assert "the 4" in vm.task_text(["S", 4, 3])
    assert "any" in vm.task_text(["A", 0, 0])
    assert "green" in vm.task_text(["G", 0, 0])


def test_log_is_one_whole_sentence_per_event_with_the_dice_values() -> None:
    for state, actor in positions(5, 2):
        if actor is not None:
            continue
        t = vm.table(state.observation(0), NAMES[:2], 0)
        assert t.log[0] == "The game is over."
        for line in t.log:
            assert line[0].isupper() and line.endswith("."), line
        # The log keeps the last 40 events: values are known from its first roll on.
        oldest_roll = max(i for i, line in enumerate(t.log) if line.startswith("Rolled:"))
        chose = [line for line in t.log[:oldest_roll] if " chose the " in line]
        assert chose and all(any(ch.isdigit() for ch in line) for line in chose)
        assert all(p.last and not p.last.endswith(".") for p in t.panels)


A_TURN: list[dict[str, object]] = [
    {"event": "round", "round": 2},
    {"event": "turn", "player": 1},
    {"event": "roll", "dice": {"white": 3, "silver": 5, "pink": 2}},
    {"event": "use", "player": 1, "move": "silver pink"},
    {"event": "bonus", "player": 1, "move": "mark yellow 2"},
    {"event": "pass", "player": 0},
]
"""Round 2: the second player rolls, uses the pink die and marks a bonus; the first passes."""


def test_a_roll_then_a_choice_reads_as_sentences() -> None:
    log = [
        *A_TURN,
        {"event": "extra", "player": 0, "move": "extra white blue"},
        {"event": "roll", "dice": {"blue": 4}},
        {"event": "pick", "player": 0, "move": "blue"},
    ]
    lines, last = vm.described_log(log, NAMES[:2])
    assert lines == [
        "You picked the blue 4 in blue (blue + white: 7).",
        "Rolled: blue 4.",
        "You used an extra die: the white 3 as blue.",
        "You took no die.",
        "Easy bot 2 marked the 2 in the yellow row of silver.",
        "Easy bot 2 chose the silver 5 in the pink row of silver.",
        "Rolled: white 3, silver 5, pink 2.",
        "Easy bot 2's active turn.",
        "Round 2 begins.",
    ]
    assert last == {
        0: "picked the blue 4 in blue (blue + white: 7)",
        1: "marked the 2 in the yellow row of silver",
    }


@pytest.mark.parametrize("players", [1, 3])
def test_end_breakdown_is_the_engines_score_with_ranks(players: int) -> None:
    *_, (state, _) = positions(9, players)
    obs = state.observation(None)
    finals = vm.final(obs, NAMES)
    scores = state.scores()
    keys = state.ranking_keys()
    for p in finals:
        sheet = obs["sheets"][p.seat]
        assert p.total == scores[p.seat]
        value = {dict(line.data)["area"]: int(line.value) for line in p.lines}
        assert sum(value.values()) == p.total
        assert [value[a] for a in sheet["areas"]] == list(sheet["areas"].values())
        assert value["foxes"] == sheet["foxes"] * min(sheet["areas"].values())
        better = sum(1 for k in keys if k > keys[p.seat])
        assert p.rank == better + 1
    assert [p.rank for p in finals] == sorted(p.rank for p in finals)
    end = vm.end_screen(obs, NAMES, 0, state.outcome().winners)
    assert end.players == tuple(finals)
    tied = len(set(scores)) < len(scores)  # how ties are broken: said for a tie only
    assert ("highest single area" in end.rules) == tied
    if players == 1:
        assert vm.table(obs, NAMES, None).rating == obs["rating"]
        assert f"Solo rating: {obs['rating']}." in end.rules


def test_tie_note_names_the_best_areas_only_when_totals_are_level() -> None:
    a = {"total": 100, "areas": {"yellow": 40, "blue": 10}}
    b = {"total": 100, "areas": {"yellow": 20, "blue": 30}}
    c = {"total": 90, "areas": {"yellow": 50, "blue": 0}}
    assert vm.tie_note(["Bot", "You", "Other"], [b, a, c]) == (
        "Equal totals: the highest single area decides (You 40, Bot 30)."
    )
    assert vm.tie_note(["You", "Other"], [a, c]) == ""


def test_every_colour_and_bonus_has_a_symbol_and_a_word() -> None:
    symbols = set(vm.SYMBOLS.values())
    assert len(symbols) == 6
    for code in range(1, 11):
        b = vm.bonus(code)
        assert b.mark and b.label
    assert vm.bonus(0).mark == ""


def test_each_players_last_entry_stays_highlighted_on_their_sheet() -> None:
    highlighted = 0
    for state, actor in positions(13, 2):
        if actor is None:
            break
        obs = state.observation(0)
        t = vm.table(obs, NAMES[:2], 0)
        for p in t.players:
            sheet = p.sheet
            cells: list[vm.Cell] = [*sheet.yellow, *sheet.blue, *sheet.green, *sheet.pink]
            cells += [c for r in sheet.silver for c in r.cells]
            lit = [c for c in cells if c.last]
            assert len(lit) <= 1
            for c in lit:  # the highlighted cell is a filled one
                if isinstance(c, vm.YellowCell):
                    assert c.state != "open"
                elif isinstance(c, vm.SilverCell):
                    assert c.marked
                else:
                    assert isinstance(c, vm.Slot) and c.value is not None
                highlighted += 1
    assert highlighted > 20


def test_a_players_details_offer_no_move() -> None:
    offered = 0
    for state, actor in positions(5, 2):
        if actor != 0:
            continue
        for d in vm.table(state.observation(0), NAMES[:2], 0).dice:
            sheet = vm.table(state.observation(0), NAMES[:2], 0, d.die).players[0].sheet
            cells: list[vm.Cell] = [*sheet.yellow, *sheet.blue, *sheet.green, *sheet.pink]
            cells += [c for r in sheet.silver for c in r.cells]
            offered += sum(1 for c in cells if c.move)
            inert = sheet.inert()
            assert not any(c.move for c in (*inert.yellow, *inert.blue, *inert.green, *inert.pink))
            assert not any(c.move for r in inert.silver for c in r.cells)
            assert inert.total == sheet.total and len(inert.yellow) == len(sheet.yellow)
    assert offered > 0
