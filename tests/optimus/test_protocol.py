"""Optimus on the core protocol: conformance, enumeration, options, records, rebuilds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

import pytest

from optimus.core.conformance import check_random_game, check_rebuilds, check_replays, random_match
from optimus.core.protocol import OptionError
from optimus.core.record import Match, Record, replay
from optimus.core.registry import get_game
from optimus.core.rng import Rng
from optimus.optimus.game import OptimusGame, OptimusState, check_state, markings, resolve_sheet
from optimus.optimus.generate import generate_sheet
from optimus.optimus.sheet import (
    BOXES,
    COLS,
    NUM_COLOURS,
    ROWS,
    START_COL,
    layout_of,
    standard_sheet,
)
from tests.soak import soak_games

GAME = OptimusGame()
FAST_GAMES = soak_games(500)
"""Seeded random games per player count checked with deep=False (``OPTIMUS_SOAK_GAMES``
plays more: tests/soak.py)."""
DEEP_GAMES = {1: 12, 2: 8, 3: 6, 4: 3, 5: 2, 6: 2}
"""Games per player count also checked with deep=True (views, refusals, clones, privacy);
random games are long (over 100 rolls with 6 players), so fewer with more players."""
CHUNKS = 4


def test_registry_finds_the_game() -> None:
    game = get_game("optimus")
    assert isinstance(game, OptimusGame)
    assert (game.min_players, game.max_players) == (1, 6)
    assert {"random", "easy", "normal", "hard"} <= set(game.bot_levels())


@pytest.mark.parametrize("players", range(1, 7))
def test_conformance_deep(players: int) -> None:
    for seed in range(DEEP_GAMES[players]):
        options = {"players": players, "bonuses": seed % 3 != 0}
        if seed % 4 == 1:
            options["sheet"] = f"random:{seed}"
        check_random_game(GAME, options, seed, check_state=check_state, deep=True)


@pytest.mark.parametrize("players", range(1, 7))
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_conformance_fast(players: int, chunk: int) -> None:
    per_chunk = FAST_GAMES // CHUNKS
    for seed in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        options = {"players": players, "sheet": "orchard" if seed % 2 else "harbour"}
        check_random_game(GAME, options, 10_000 + seed, check_state=check_state, deep=False)


# -- enumeration against a brute-force reference ---------------------------------------


def _brute_force(colours: tuple[int, ...], marks: int, colour: int, number: int) -> set[int]:
    """Grow every connected set of unmarked boxes of ``colour`` (grid coordinates)."""

    def free(r: int, c: int) -> bool:
        i = r * COLS + c
        return 0 <= r < ROWS and 0 <= c < COLS and colours[i] == colour and not marks >> i & 1

    def near(i: int) -> list[tuple[int, int]]:
        r, c = divmod(i, COLS)
        return [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]

    sets = {frozenset([i]) for i in range(BOXES) if free(*divmod(i, COLS))}
    for _ in range(number - 1):
        sets = {
            s | {r * COLS + c}
            for s in sets
            for i in s
            for r, c in near(i)
            if free(r, c) and r * COLS + c not in s
        }

    def may_start(i: int) -> bool:
        if i % COLS == START_COL:
            return True
        return any(
            0 <= r < ROWS and 0 <= c < COLS and marks >> (r * COLS + c) & 1 for r, c in near(i)
        )

    return {sum(1 << i for i in s) for s in sets if any(may_start(i) for i in s)}


def test_markings_equal_a_brute_force_reference_on_random_sheets_and_positions() -> None:
    rng = Rng(2024)
    checked = 0
    for sheet_seed in range(24):
        sheet = generate_sheet(sheet_seed) if sheet_seed else standard_sheet("harbour")
        layout = layout_of(sheet)
        for density in (0.0, 0.15, 0.35, 0.6, 0.85):
            marks = sum(1 << i for i in range(BOXES) if rng.random() < density)
            for colour in range(NUM_COLOURS):
                for number in range(1, 6):
                    found = markings(layout, marks, colour, number)
                    assert len(found) == len(set(found)), "a set of boxes is listed twice"
                    assert set(found) == _brute_force(sheet.colours, marks, colour, number)
                    checked += len(found)
    assert checked > 1000


def test_legal_moves_list_each_box_set_once_per_pair_of_dice() -> None:
    for seed in range(20):
        m = Match(GAME, {"players": 3}, seed)
        rng = Rng(seed)
        while not m.state.is_terminal():
            p = m.state.actors()[0]
            legal = m.state.legal_moves(p)
            assert len(legal) == len(set(legal))
            m.play(p, rng.choice(legal))


# -- options: sheets ------------------------------------------------------------------


def test_random_sheet_option_is_kept_and_replays(tmp_path: Path) -> None:
    m = Match(GAME, {"players": 2, "sheet": "random:77"}, 3)
    assert m.state.sheet == generate_sheet(77)
    rng = Rng(1)
    for _ in range(40):
        p = m.state.actors()[0]
        m.play(p, rng.choice(m.state.legal_moves(p)))
    text = m.record.to_json()
    assert json.loads(text)["options"]["sheet"] == "random:77"
    assert replay(Record.from_json(text)).observation(None) == m.state.observation(None)


def test_a_sheet_text_is_validated_and_kept_in_the_record() -> None:
    sheet = generate_sheet(5)
    text = "\n" + sheet.text() + "\n\n"
    opts = GAME.normalize_options({"players": 1, "sheet": text})
    assert opts["sheet"] == sheet.compact()
    m = Match(GAME, {"players": 1, "sheet": sheet.compact()}, 1)
    assert replay(Record.from_json(m.record.to_json())).observation(None) == m.state.observation(
        None
    )
    assert isinstance(m.state, OptimusState) and m.state.sheet == sheet


def _no_file_is_opened(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Make every way of reading a file fail the test; return the attempts."""
    attempts: list[object] = []

    def refuse(*args: object, **kwargs: object) -> object:
        attempts.append(args)
        raise AssertionError(f"a file was opened: {args!r}")

    import builtins
    import io
    import os

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    monkeypatch.setattr(os, "open", refuse)
    monkeypatch.setattr(Path, "read_text", refuse)
    monkeypatch.setattr(Path, "read_bytes", refuse)
    monkeypatch.setattr(Path, "open", refuse)
    return attempts


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("/dev/urandom", "a sheet has 7 lines of 15 letters, not 2 lines"),
        ("/dev/tty", "a sheet has 7 lines of 15 letters, not 2 lines"),
        ("/dev/null", "a sheet has 7 lines of 15 letters, not 2 lines"),
        ("/etc/passwd", "a sheet has 7 lines of 15 letters, not 2 lines"),
        ("mine.txt", "is not a sheet"),
        ("./harbour", "is not a sheet"),
        ("C:\\sheets\\mine.txt", "is not a sheet"),
        ("", "is not a sheet"),
    ],
)
def test_a_sheet_option_is_data_never_a_path(
    path: str, reason: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    resolve_sheet.cache_clear()
    attempts = _no_file_is_opened(monkeypatch)
    for options in ({"sheet": path}, {"players": 2, "sheet": path}):
        with pytest.raises(OptionError) as info:
            GAME.normalize_options(options)
        assert reason in str(info.value)
        assert "never a file" in str(info.value) and "random:SEED" in str(info.value)
    with pytest.raises(OptionError, match="never a file"):
        Match(GAME, {"players": 1, "sheet": path}, 1)
    assert attempts == []


def test_a_sheet_file_that_exists_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sheet = generate_sheet(5)
    path = tmp_path / "mine.txt"
    path.write_text(sheet.text())
    resolve_sheet.cache_clear()
    attempts = _no_file_is_opened(monkeypatch)
    with pytest.raises(OptionError, match=r"is not a sheet: .*never a file"):
        GAME.normalize_options({"players": 1, "sheet": str(path)})
    assert attempts == []


@pytest.mark.parametrize("seed", ["²", "١٢", "1_0", "1" * 5000])
def test_a_random_sheet_seed_is_ascii_digits_only(seed: str) -> None:
    with pytest.raises(OptionError, match="random:SEED wants a whole number"):
        GAME.normalize_options({"sheet": f"random:{seed}"})


def test_a_long_bad_sheet_option_is_shown_shortened() -> None:
    with pytest.raises(OptionError) as info:
        GAME.normalize_options({"sheet": "x." * 50_000})
    assert "x." * 20 + "…" in str(info.value) and len(str(info.value)) < 400


def test_bad_sheet_options_say_what_is_wrong() -> None:
    bad = standard_sheet("harbour").compact().replace("g", "y", 1)
    with pytest.raises(OptionError, match="invalid sheet: green has 20 boxes"):
        GAME.normalize_options({"sheet": bad})
    short = standard_sheet("harbour").text()
    with pytest.raises(OptionError, match="line 2 has 14 letters, not 15"):
        GAME.normalize_options({"sheet": short[:20] + short[21:]})
    with pytest.raises(OptionError, match="random:SEED wants a whole number"):
        GAME.normalize_options({"sheet": "random:abc"})
    with pytest.raises(OptionError, match="1-6 players"):
        GAME.normalize_options({"players": 7})
    assert resolve_sheet("orchard")[1] == standard_sheet("orchard")


# -- records, observations, rebuilds -----------------------------------------------------


def _random_match(players: int, seed: int, stop_at: int | None = None) -> Match:
    return random_match(GAME, {"players": players}, seed, stop_at)


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_record_replays_identically(players: int) -> None:
    events = check_replays(_random_match(players, 42))
    assert [who for who, _ in events[:4]] == ["*"] * 4  # every die is a recorded chance event


@pytest.mark.parametrize("players", [1, 2, 3, 5])
def test_state_from_observation_is_exact_but_for_pending_choices(players: int) -> None:
    for seed in range(4):
        check_rebuilds(
            GAME, {"players": players}, seed, exact=lambda s: not cast(OptimusState, s).pending
        )


def test_a_finished_game_scores_every_seat_and_reports_the_solo_band() -> None:
    m = _random_match(1, 3)
    assert m.state.is_terminal()
    obs = m.state.observation(0)
    assert obs["roll"] == 30 and "solo_band" in obs
    assert obs["scores"][0]["total"] == m.state.scores()[0]
