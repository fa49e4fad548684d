"""A game in which a hint was used is *assisted*: the save keeps it (Undo too), the
records keep it (its replay, its daily challenge's try), and the daily result's share
text says so."""

from __future__ import annotations

from optimus.core.bots import Budget
from optimus.core.registry import get_game
from optimus.ui import deals, records
from optimus.ui.hint import Hint
from optimus.ui.session import TableSession

DAY = "2026-12-03"


def _person_to_act(session: TableSession) -> int:
    while session.human_to_act() is None:
        session.think(slice_ms=1000)
    seat = session.human_to_act()
    assert seat is not None
    return seat


def test_the_assisted_flag_survives_save_resume_and_undo():
    game = get_game("fileiras")
    session = TableSession(game, {}, 4, ["human", "normal"], Budget(iterations=4))
    assert '"assisted"' not in session.save()
    seat = _person_to_act(session)
    move = Hint(session, seat).finish().move
    session.assisted = True  # what the page's Hint does once the hint is found
    session.play(seat, move)
    _person_to_act(session)
    resumed = TableSession.load(game, session.save())
    assert resumed.assisted and resumed.record.events == session.record.events
    assert resumed.undo(seat) is not None  # Undo takes the move back, not the help
    assert resumed.assisted and TableSession.load(game, resumed.save()).assisted
    fresh = TableSession.load(game, TableSession(game, {}, 4, ["human", "normal"]).save())
    assert not fresh.assisted


def _result(ident: str, score: int, assisted: bool, daily: str = DAY) -> records.Result:
    saved = {"events": [], "seats": ["human"], "assisted": True} if assisted else {"events": []}
    return records.Result(
        "optimus2", "solo", 1, score, False, DAY, saved, "", daily, ident, assisted=assisted
    )


def test_the_records_keep_an_assisted_game_and_its_daily_try():
    kept = records.Records()
    assert kept.add(_result("a", 210, assisted=True))  # the day's counted try
    assert not kept.add(_result("b", 250, assisted=False))  # a later try: practice
    assert kept.daily_result("optimus2", DAY) == (210, "")
    assert kept.daily_assisted("optimus2", DAY)
    assert [r.get("assisted", False) for r in kept.replays] == [True, False]
    assert kept.replays[0]["record"]["assisted"] is True
    again = records.load(records.dump(kept)).records  # stored and read back
    assert again.daily_assisted("optimus2", DAY)
    assert [r.get("assisted", False) for r in again.replays] == [True, False]
    merged = records.merge(records.Records(), again)
    assert merged.daily_assisted("optimus2", DAY)
    plain = records.Records()
    plain.add(_result("c", 200, assisted=False))
    assert not plain.daily_assisted("optimus2", DAY)
    assert "assisted" not in records.dump(plain)
    # a tampered flag is not trusted as one
    text = records.dump(kept).replace('"assisted":true', '"assisted":"yes"')
    assert not records.load(text).records.daily_assisted("optimus2", DAY)


def test_the_share_text_says_a_daily_result_was_assisted():
    url = "https://x/#/optimus2/daily?date=2026-12-03"
    plain = deals.share_text("Optimus 2", "Dec 3, 2026", "210 pts", "", url)
    helped = deals.share_text("Optimus 2", "Dec 3, 2026", "210 pts", "", url, assisted=True)
    assert "assisted" not in plain
    assert helped == (
        "Optimus 2, daily challenge of Dec 3, 2026: 210 pts, assisted (hints used). " + url
    )
    rated = deals.share_text("Optimus 2", "Dec 3, 2026", "210 pts", "B", url, assisted=True)
    assert "assisted (hints used), solo rating B" in rated
