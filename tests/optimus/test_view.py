"""The Optimus view model lights exactly what the legal moves allow; scores are the engine's."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from optimus.core import Match, Rng
from optimus.optimus import view as vm
from optimus.optimus.game import JOKERS, OptimusGame, OptimusState, solo_band
from optimus.optimus.sheet import COLUMN_LETTERS, box_index, box_name
from optimus.ui.table import FinalScore, log_lines

NAMES = ["You", "Random bot 2", "Random bot 3", "Random bot 4"]


def positions(
    seed: int, players: int, **options: object
) -> Iterator[tuple[OptimusState, int | None]]:
    """Every decision point of a random game, as (state, actor); (final state, None) last."""
    m = Match(OptimusGame(), {"players": players, **options}, seed)
    rng = Rng(seed)
    while not m.state.is_terminal():
        state = m.state
        assert isinstance(state, OptimusState)
        p = state.actors()[0]
        yield state, p
        m.play(p, rng.choice(state.legal_moves(p)))
    assert isinstance(m.state, OptimusState)
    yield m.state, None


def pencil_for(move: str, sheet: list[str], order: list[int]) -> Iterator[tuple[vm.Pencil, int]]:
    """The steps a person clicks for ``move``: dice, joker names, then each box (in ``order``)."""
    cf, nf, boxes = vm.parse(move)
    p = vm.choose_die(vm.choose_die(vm.Pencil(), "colour", cf), "number", nf)
    if cf == "x":
        p = vm.name_joker(p, "colour", sheet[min(boxes)])
    if nf == "?":
        p = vm.name_joker(p, "number", str(len(boxes)))
    for b in order:
        yield p, b
        p = vm.toggle_box(p, b)
    yield p, -1


def lit(state: OptimusState, actor: int, pencil: vm.Pencil, legal: list[str]) -> set[int]:
    s = vm.sheet_view(state.observation(actor), actor, pencil, legal)
    return {box_index(c.box) for c in s.cells if c.target}


def test_dice_boxes_and_completion_are_exactly_the_legal_moves() -> None:
    checked = 0
    for players, seed in ((1, 3), (2, 5), (4, 8)):
        for n, (state, actor) in enumerate(positions(seed, players)):
            if actor is None or n % 3:
                continue
            obs = state.observation(actor)
            legal = state.legal_moves(actor)
            sheet = vm.sheet_faces(obs)
            markings = [vm.parse(m) for m in legal if m != "pass"]
            # The dice that react are the faces some legal marking uses.
            dice = vm.dice_view(obs, NAMES, actor, legal, vm.Pencil())
            usable = {
                (d.kind, d.face) for k in ("colour", "number") for d in getattr(dice, k) if d.usable
            }
            assert usable == {("colour", c) for c, _, _ in markings} | {
                ("number", x) for _, x, _ in markings
            }
            # For each move: the lit boxes are every box of a fitting legal marking, each
            # click is on a lit box, and the last click makes it complete and legal.
            for move in legal[1::7]:
                cf, nf, boxes = vm.parse(move)
                order = sorted(boxes, reverse=True)
                for pencil, box in pencil_for(move, sheet, order):
                    if box < 0:
                        fb = vm.feedback(pencil, legal, sheet, lambda m: "?")
                        assert (fb.state, fb.move, fb.confirm) == ("complete", move, move)
                        assert vm.parse(pencil.move()) == (cf, nf, boxes)
                        continue
                    unfinished = vm.feedback(pencil, legal, sheet, lambda m: "?")
                    assert unfinished.state != "complete" and unfinished.confirm == ""
                    fitting = [b for _, b in vm.candidates(legal, pencil, sheet)]
                    chosen = set(pencil.boxes)
                    expected = set().union(*(b - chosen for b in fitting if chosen <= b))
                    assert box in expected
                    assert lit(state, actor, pencil, legal) == expected
                    if not chosen:
                        assert expected == set().union(*fitting)
                checked += 1
    assert checked > 100


def two_box_marking(players: int, seed: int) -> tuple[Any, int, list[str], Any, str, str, Any]:
    """The first position (of ``positions``) where a plain 2 die marks two boxes:
    the state, the actor, their legal moves, the sheet's faces and that marking."""
    for state, actor in positions(players, seed):
        if actor is None:
            break
        legal = state.legal_moves(actor)
        plain = [m for m in legal if m != "pass" and m[0] != "x" and m[1] == "2"]
        if plain:
            sheet = vm.sheet_faces(state.observation(actor))
            return (state, actor, legal, sheet, *vm.parse(plain[0]))
    raise AssertionError("no position with a plain 2-box marking")


def test_a_marking_that_is_not_legal_gets_the_engines_reason() -> None:
    state, actor, legal, sheet, cf, nf, boxes = two_box_marking(4, 2)
    marked = state.marks[actor]
    other = next(i for i in range(105) if sheet[i] != cf and not marked >> i & 1 and i not in boxes)
    pencil = vm.Pencil(colour=cf, number=nf, boxes=(min(boxes), other))
    fb = vm.feedback(pencil, legal, sheet, functools.partial(state.explain_illegal, actor))
    assert fb.state == "illegal" and fb.move == pencil.move() and fb.confirm == ""
    assert f"{box_name(other)} is " in fb.text and fb.text.startswith("Not legal: ")
    # Fewer boxes than the die that no legal marking contains: said so, plainly.
    short = vm.Pencil(colour=cf, number="3", boxes=(other,))
    if any(m.startswith(f"{cf}3 ") for m in legal):
        fb = vm.feedback(short, legal, sheet, lambda m: "unused")
        assert fb.state == "illegal" and "take one back" in fb.text


def test_confirm_is_offered_only_for_a_complete_legal_marking() -> None:
    state, actor, legal, sheet, cf, nf, boxes = two_box_marking(4, 1)
    explain = functools.partial(state.explain_illegal, actor)
    # 1 of 2 boxes marked: a fitting start, not a move yet; Confirm stays disabled.
    half = vm.Pencil(colour=cf, number=nf, boxes=(min(boxes),))
    fb = vm.feedback(half, legal, sheet, explain)
    assert (fb.state, fb.confirm) == ("boxes", "")
    assert fb.text.startswith("1 of 2 marked") and half.move() not in fb.text
    # Both boxes: complete and legal, and Confirm plays exactly that move.
    full = vm.Pencil(colour=cf, number=nf, boxes=tuple(sorted(boxes)))
    fb = vm.feedback(full, legal, sheet, explain)
    assert (fb.state, fb.confirm) == ("complete", full.move())
    assert full.move() in legal


def test_every_step_can_be_taken_back_in_order() -> None:
    p = vm.Pencil()
    p = vm.choose_die(p, "colour", "x")
    p = vm.choose_die(p, "number", "?")
    p = vm.name_joker(p, "colour", "r")
    p = vm.name_joker(p, "number", "2")
    p = vm.toggle_box(vm.toggle_box(p, 7), 22)
    assert p.ready and p.colour_face == "r" and p.count == 2 and p.move() == "x? H1 H2"
    steps = []
    while p != vm.Pencil():
        p = vm.undo(p)
        steps.append((p.colour, p.number, p.named_colour, p.named_number, p.boxes))
    assert steps == [
        ("x", "?", "r", 2, (7,)),
        ("x", "?", "r", 2, ()),
        ("x", "?", "r", 0, ()),
        ("x", "?", "", 0, ()),
        ("x", "", "", 0, ()),
        ("", "", "", 0, ()),
    ]
    # A box clicked twice is rubbed out; a die clicked twice is put back; a new
    # die or a new joker name starts the boxes again.
    q = vm.toggle_box(vm.toggle_box(vm.Pencil(colour="g", number="3"), 7), 7)
    assert q.boxes == ()
    assert vm.choose_die(vm.Pencil(colour="g"), "colour", "g").colour == ""
    assert vm.choose_die(vm.Pencil(colour="g", number="3", boxes=(7,)), "number", "4").boxes == ()
    # A new decision starts a clean pencil; the same one keeps it.
    kept = vm.Pencil(colour="g", key=(3, "active"))
    assert vm.fresh(kept, (3, "active")) is kept and vm.fresh(kept, (4, "active")) == vm.Pencil(
        key=(4, "active")
    )


def test_which_dice_are_open_to_whom() -> None:
    seen_taken = seen_pass = False
    for state, actor in positions(6, 3):
        if actor is None:
            break
        obs = state.observation(actor)
        text = vm.open_text(obs, NAMES, actor)
        if state.phase == "all":
            assert "all six dice are open to everyone" in text
        elif state.phase == "active":  # the active player is the actor: "you ... choose first"
            assert "you are the active player and choose first" in text
        elif state.phase == "others":
            legal = state.legal_moves(actor)
            dice = vm.dice_view(obs, NAMES, actor, legal, vm.Pencil())
            taken = [d for k in ("colour", "number") for d in getattr(dice, k) if d.taken_by]
            if state.active_move == "pass":
                seen_pass = True
                assert not taken and "passed: all six dice are open" in text
            else:
                seen_taken = True
                assert len(taken) == 2 and all(d.taken_by == NAMES[state.active] for d in taken)
                assert not any(d.usable for d in taken)
                assert "the other four dice are open" in text
    assert seen_taken and seen_pass


def test_sheet_shows_the_engines_columns_bonuses_jokers_and_score() -> None:
    *_, (final, _) = positions(12, 2)
    obs = final.observation(None)
    assert any(obs["column_first"])
    for seat in range(2):
        s = vm.sheet_view(obs, seat)
        assert s.score == final.breakdown(seat)
        cols = {c.letter: c for c in s.columns}
        for c, letter in enumerate(COLUMN_LETTERS):
            col = cols[letter]
            assert col.first_taken == bool(final.column_first[c])  # first value struck
            assert col.done == bool(final.column_roll[seat][c])
        assert sum(c.points for c in s.columns) == final.breakdown(seat)["columns"]
        assert sum(c.points for c in s.colours) == final.breakdown(seat)["colours"]
        assert s.jokers.count(True) == final.jokers_used[seat]
        assert s.jokers_left == JOKERS - final.jokers_used[seat]
        assert {c.symbol for c in s.cells} == {"▲", "●", "■", "♥", "✚"}
        assert sum(c.star for c in s.cells) == 15
        assert sum(c.marked for c in s.cells) == final.marks[seat].bit_count()


def test_solo_shows_first_values_only_and_the_rating_band() -> None:
    *_, (final, _) = positions(2, 1)
    obs = final.observation(0)
    s = vm.sheet_view(obs, 0)
    assert not any(c.first_taken for c in s.columns)  # solo: always the first value
    (p,) = vm.final(obs, ["You"])
    assert p.total == final.scores()[0] and part(p, "role", "band") == solo_band(p.total)
    assert vm.status(obs, ["You"], 0, None).tone == "over"
    end = vm.end_screen(obs, ["You"], 0, final.outcome().winners)
    assert end.headline == f"Your score: {p.total} pts, rating band {solo_band(p.total)}."


def part(p: FinalScore, key: str, value: str) -> str:
    """The value of the breakdown line of ``p`` whose value carries ``data-<key>="<value>"``."""
    (line,) = [line for line in p.lines if (key, value) in line.data]
    return line.value


def test_end_breakdown_and_ranks_follow_the_engine() -> None:
    for seed in (1, 2, 3):
        *_, (final, _) = positions(seed, 3, bonuses=seed != 2)
        obs = final.observation(None)
        rows = vm.final(obs, NAMES)
        for p in rows:
            b = final.breakdown(p.seat)
            assert p.total == b["total"]
            parts = {k: int(part(p, "part", k)) for k in ("columns", "colours", "jokers", "stars")}
            assert sum(parts.values()) == b["total"]
            assert parts["columns"] == b["columns"] == vm.sheet_view(obs, p.seat).score["columns"]
            unmarked = vm.sheet_view(obs, p.seat).stars_unmarked
            assert parts["stars"] == -2 * unmarked
            assert f"{unmarked} unmarked" in next(
                ln.detail for ln in p.lines if ln.text == "Stars:"
            )
            if seed == 2:
                assert parts["colours"] == 0
        assert [p.rank for p in rows] == sorted(p.rank for p in rows)  # best first
        winners = final.outcome().winners
        assert {p.seat for p in rows if p.rank == 1} == set(winners)


def test_log_lines_are_whole_sentences_newest_first() -> None:
    *_, (final, _) = positions(9, 2)
    obs = final.observation(None)
    lines = vm.log(obs, NAMES)
    assert lines[0] == "The game is over."
    assert all(line.endswith(".") and line[0].isupper() for line in lines)
    sheet = vm.sheet_faces(obs)
    assert vm.describe({"event": "choice", "player": 1, "move": "pass"}, NAMES, sheet) == (
        "Random bot 2 passed."
    )
    harbour_h1 = sheet[7]
    line = vm.describe({"event": "choice", "player": 0, "move": "x? H1"}, NAMES, sheet)
    name = vm.colour_info(harbour_h1).name
    assert line == (
        f"You marked 1 {name} box (H1) with the colour joker as {name} and the number "
        "joker as 1, spending 2 “!”."
    )
    roll = vm.describe({"event": "roll", "roll": 4, "active": 1, "dice": "gxr 3?1"}, NAMES, sheet)
    assert roll == "Roll 4: Random bot 2 rolled green, colour joker, red; 3, number joker, 1."
    assert log_lines([], lambda e: None) == []


def test_status_and_panels_say_who_chooses_and_hide_pending_choices() -> None:
    hidden = False
    for state, actor in positions(7, 3):
        if actor is None:
            break
        obs = state.observation(0)
        st = vm.status(obs, NAMES, 0, actor, "Choose a colour die and a number die (or pass).")
        if actor == 0:
            assert st.tone == "you" and ": choose a colour die" in st.text  # small after the colon
        else:
            assert st.tone == "bot" and NAMES[actor] in st.text
        for seat in range(3):
            p = vm.panel(obs, NAMES, seat, 0, actor)
            assert p.score == state.breakdown(seat)["total"]
            assert p.last.endswith(f"; {JOKERS - state.jokers_used[seat]} “!” left")
            if seat in state.pending:
                hidden = True
                assert p.last.startswith("has chosen (shown once everyone has);")
                assert state.pending[seat].split()[-1] not in p.last
    assert hidden


def test_sheet_labels() -> None:
    assert vm.sheet_label("harbour") == "Harbour"
    assert vm.sheet_label("random:42") == "Random sheet #42"
    assert vm.sheet_label("g" * 105) == "Sheet from a file"


def test_solo_log_names_each_choice_after_its_roll() -> None:
    m = Match(OptimusGame(), {"players": 1}, 5)
    rng = Rng(5)
    moves = []
    for _ in range(3):
        move = rng.choice(m.state.legal_moves(0))
        moves.append(move)
        m.play(0, move)
    obs = vm.with_solo_choices(m.state.observation(0), moves)
    events = [e["event"] for e in obs["log"]]
    assert events[:2] == ["roll", "choice"] and events.count("choice") == 3
    choices = [e["move"] for e in obs["log"] if e["event"] == "choice"]
    assert choices == moves
    lines = vm.log(obs, ["You"])
    assert lines[0].startswith("Roll 4: ")
    assert lines[1] in (
        "You passed.",
        vm.marking_text(moves[2], vm.sheet_faces(obs), "You", mine=True),
    )
    # Last choice highlighted; a non-solo observation is left alone.
    assert vm.last_choices(obs["log"]) == {0: moves[2]}
    two = Match(OptimusGame(), {"players": 2}, 5).state.observation(0)
    assert vm.with_solo_choices(two, ["pass"])["log"] == two["log"]


def test_with_no_usable_die_the_view_says_so_and_offers_only_pass() -> None:
    """Issue 36 §4.1: when no marking uses the dice open to the person, the feedback
    says that no die fits (not "choose a colour die"), every die is unusable, and the
    status line asks for a pass."""
    found = 0
    for players, seed in ((1, 3), (2, 5), (4, 8)):
        for state, actor in positions(seed, players):
            if actor is None or state.legal_moves(actor) != ["pass"]:
                continue
            obs = state.observation(actor)
            legal = state.legal_moves(actor)
            t = vm.table(obs, NAMES[:players], actor, actor, legal, vm.Pencil(), str)
            assert t.feedback is not None and t.feedback.state == "none"
            assert t.feedback.text.startswith("No die fits your sheet")
            assert t.feedback.confirm == ""
            assert not any(d.usable for d in (*t.dice.colour, *t.dice.number))
            assert t.status.text.endswith(": no die fits your sheet, so pass.")
            found += 1
            break
    assert found == 3
    # With a marking left, the person is asked to choose dice as before.
    fb = vm.feedback(vm.Pencil(), ["pass", "g1 H1"], ["g"] * 105, str)
    assert fb.state == "dice"


def test_a_replay_is_nobodys_decision_nothing_lights_up() -> None:
    """Issue 36 §4.5: drawn for watching, the person's own turn shows no usable die, no
    feedback and no pencil, whatever the moves would be."""
    state, actor = next(positions(5, 2))
    assert actor is not None
    obs = state.observation(actor)
    legal = state.legal_moves(actor)
    t = vm.table(obs, NAMES[:2], actor, actor, legal, vm.Pencil(), str, watching=True)
    assert not t.mine and t.feedback is None
    assert not any(d.usable or d.picked for d in (*t.dice.colour, *t.dice.number))
    assert not any(c.free or c.target for c in t.sheet.cells)


def test_equal_sheet_keys_give_equal_sheets_and_the_key_follows_what_changes() -> None:
    """The page keeps the others' small sheets drawn by ``sheet_key``: over whole games
    (4 and 3 players, a random sheet), every two observations with one key give the same
    sheet, the key changes as the game goes, and it is often kept (a player's sheet is
    the same over the others' moves)."""
    for seed, players, options in ((3, 4, {}), (8, 3, {"sheet": "random:7"})):
        seen: dict[str, vm.Sheet] = {}
        kept = 0
        for state, _ in positions(seed, players, **options):
            obs = state.observation(0)
            for seat in range(players):
                key = vm.sheet_key(obs, seat)
                sheet = vm.sheet_view(obs, seat)
                if key in seen:
                    assert seen[key] == sheet, (seat, key)
                    kept += 1
                else:
                    seen[key] = sheet
        assert len(seen) > 10 * players  # the sheets change over the game
        assert kept > len(seen)  # and stay the same across most moves
    obs = next(positions(3, 2))[0].observation(0)
    assert vm.sheet_key(obs, 0) != vm.sheet_key(obs, 1)  # the seat is drawn (its keys)
