"""Issue 36.10, 38.4 and 38.8: "Draw stage 1 again" draws anew; a draw searches outside the write
lock and writes only if the night did not change meanwhile; a stale swap is refused; the night's
log stays bounded and what live entry writes restores."""
import json

import pytest

import store
from scoring import club_night
from services import club_nights as night_service
from services import transfer
from store import crews as crew_store
from support.club_nights import new_night, night, night_of  # noqa: F401
from support.html_text import element_text, select
from web.club_night_changes import night_change_words

HX = {"HX-Request": "true"}


def _plan(app, night_url):
    _, stages = night_of(app, night_url)
    return night_service.seating(stages[-1])


def _version(client, night_url):
    return select(client.get(night_url), ".swap-form input[name=version]")[0].get("value")


def _same(a, b):
    return set(a.tables) == set(b.tables) and set(a.sitting_out) == set(b.sitting_out)


def test_draw_again_gives_another_seating_each_time(app, client, crew, night):
    client.post(night + "/stages")
    shown = [_plan(app, night)]
    for _ in range(3):
        assert client.post(night + "/stages/1/redraw").status_code == 303
        shown.append(_plan(app, night))
        assert not _same(shown[-1], shown[-2])


def test_the_first_draw_is_reproducible(app, client, crew, night):
    found, _ = night_of(app, night)
    present = [p["id"] for p in found["players"]]
    client.post(night + "/stages")
    assert _plan(app, night) == club_night.draw_seating(present, [], seed=found["seed"] * 1000 + 1)


def test_two_organisers_tapping_the_same_swap_change_the_seating_once(app, client, crew, night):
    client.post(night + "/stages")
    before = _plan(app, night)
    version = _version(client, night)
    a, b = before.tables[0][0], before.tables[1][0]
    form = {"first": a, "second": b, "version": version}
    assert client.post(night + "/stages/1/swap", data=form, headers=HX).status_code == 200
    once = _plan(app, night)
    stale = client.post(night + "/stages/1/swap", data=form, headers=HX)
    assert stale.status_code == 409
    assert element_text(stale, "#note-swap") == "The night changed since this page was drawn: look at the seating again, then swap."
    assert _plan(app, night) == once != before
    # A page drawn before another organiser's swap of two others is stale too.
    c, d = before.tables[0][1], before.tables[1][1]
    stale = client.post(night + "/stages/1/swap", data={"first": c, "second": d, "version": version})
    assert stale.status_code == 409 and _plan(app, night) == once


def test_a_draw_searches_without_holding_the_write_lock(app, client, crew, night, monkeypatch):
    seen = []
    draw = club_night.draw_seating

    def watching(*args, **kwargs):
        with app.app_context():
            db = store.get_db()
            seen.append((db.conn.in_transaction, store.writer_queue(db.path).lock.locked()))
        return draw(*args, **kwargs)
    monkeypatch.setattr(club_night, "draw_seating", watching)
    assert client.post(night + "/stages").status_code == 303
    assert client.post(night + "/stages/1/redraw").status_code == 303
    assert seen and all(held == (False, False) for held in seen)


def test_a_night_that_changes_during_both_searches_is_refused_with_a_409(app, client, crew, night, monkeypatch):
    found, _ = night_of(app, night)
    leaving = iter(p["id"] for p in found["players"])
    draw = club_night.draw_seating

    def meanwhile(*args, **kwargs):
        with app.app_context():
            night_service.add_player(night_service.find(found["crew_id"], found["id"]), f"Late {next(leaving)}")
        return draw(*args, **kwargs)
    monkeypatch.setattr(club_night, "draw_seating", meanwhile)
    refused = client.post(night + "/stages")
    assert refused.status_code == 409
    assert element_text(refused, "#note-stage") == "The night changed while stage 1 was being drawn: draw it again."
    assert night_of(app, night)[1] == []


def test_a_night_that_changes_during_one_search_is_drawn_again_from_the_new_night(app, client, crew, night,
                                                                                 monkeypatch):
    found, _ = night_of(app, night)
    draw, calls = club_night.draw_seating, []

    def once(*args, **kwargs):
        if not calls:
            with app.app_context():
                night_service.add_player(night_service.find(found["crew_id"], found["id"]), "Late")
        calls.append(args[0])
        return draw(*args, **kwargs)
    monkeypatch.setattr(club_night, "draw_seating", once)
    assert client.post(night + "/stages").status_code == 303
    assert len(calls) == 2 and len(calls[1]) == 10
    assert len(_plan(app, night).players) == 10


@pytest.mark.slow
def test_the_nights_log_stays_bounded_and_restores(app, client, crew, night):
    client.post(night + "/stages")

    def cycle():
        plan = _plan(app, night)
        assert client.post(night + "/stages/1/redraw").status_code == 303
        plan = _plan(app, night)
        form = {"first": plan.tables[0][0], "second": plan.tables[1][0], "version": _version(client, night)}
        assert client.post(night + "/stages/1/swap", data=form).status_code == 303
        out = _plan(app, night).sitting_out[0]
        assert client.post(night + f"/players/{out}/here", data={"here": "0"}).status_code == 303
        assert client.post(night + f"/players/{out}/here", data={"here": "1"}).status_code == 303

    def lines():
        found, _ = night_of(app, night)
        with app.app_context():
            return night_service.changes(found)
    cycle()
    after_one = len(lines())
    for _ in range(30):
        cycle()
    log = lines()
    assert after_one == 4 and len(log) <= 3 + 9  # created, drawn, swapped, and a line a player at most
    assert night_change_words(log[1]) == "Stage 1 drawn for 9 players · 32 draws"
    assert night_change_words(log[2]).endswith(" swapped places · 31 swaps")
    with app.app_context():
        crew_id = crew_store.crew_by_token(crew.split("/c/")[1].strip("/"))["id"]
        exported = json.loads(transfer.json_text(crew_id))
        restored = transfer.restore(exported)
        assert json.loads(transfer.json_text(restored["id"]))["club_nights"] == exported["club_nights"]


def test_a_night_of_two_hundred_exports_and_restores(app, client, crew):
    names = [f"Player number {n}" for n in range(club_night.MAX_PLAYERS)]
    night_url = new_night(client, crew, names).headers["Location"]
    client.post(night_url + "/stages")
    with app.app_context():
        crew_id = crew_store.crew_by_token(crew.split("/c/")[1].strip("/"))["id"]
        exported = json.loads(transfer.json_text(crew_id))
        restored = transfer.restore(exported)
        assert len(json.loads(transfer.json_text(restored["id"]))["club_nights"][0]["players"]) == 200


@pytest.mark.parametrize("value, shown", [
    (None, "–"), ((25, 4), "6.3"), ((-5, 2), "−2.5"), ((-25, 4), "−6.3"), ((1, 3), "0.3"), ((-1, 20), "−0.1"),
    ((-1, 21), "0.0"), ((0, 1), "0.0"), ((40, 1), "40.0"),
])
def test_points_per_hand_are_shown_to_a_tenth_half_away_from_zero_with_a_minus_sign(value, shown):
    from fractions import Fraction
    assert club_night.per_hand_text(None if value is None else Fraction(*value)) == shown


