"""Issue 47, item 6: the stage clock. The organiser gives a stage an end time ("play until 21:30");
the night page, the big screen and every table's phones show the time left; once it has passed,
each table finishes the hand it is in and its game ends with the hands played (a table between
hands when it taps Start, or when the organiser closes the stage); a table with no hand yet plays
one. The clock is logged, and exported and restored with its stage."""
import datetime as dt

import pytest

from scoring import club_night
from scoring.club_night import ClockError
from services import stage_clock
from support.club_nights import new_night, night_of, play_round
from support.exports import export_of, restore
from support.html_text import attribute, element_text, select, text, text_of, texts

HX = {"HX-Request": "true"}
EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
UTC = dt.timezone.utc


def at(hour, minute, day=5):
    return dt.datetime(2026, 12, day, hour, minute, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch):
    """The time the stage clock reads, moved by the test: clock.now = at(19, 50)."""
    class Clock:
        now = at(19, 0)
    monkeypatch.setattr(stage_clock, "now", lambda: Clock.now)
    return Clock


@pytest.fixture
def started(app, client, crew):
    """A night of eight, one game to the goal a table, stage 1 started: (night URL, table games)."""
    response = new_night(client, crew, names=EIGHT, format="game", ranking="per-hand")
    assert response.status_code == 303, text(response)
    night = response.headers["Location"]
    assert client.post(night + "/stages").status_code == 303
    assert client.post(night + "/stages/1/start").status_code == 303
    _, stages = night_of(app, night)
    return night, [table["game_id"] for _, table in sorted(stages[0]["tables"].items())]


# --- The engine's rule ---------------------------------------------------------------------------

def test_a_clock_time_is_the_next_such_time_of_day_and_at_most_six_hours_off():
    assert club_night.clock_end(21, 30, at(19, 0)) == at(21, 30)
    assert club_night.clock_end(0, 15, at(23, 0)) == at(0, 15, day=6)  # after midnight: tomorrow's
    with pytest.raises(ClockError, match="within 6 hours of now: 18:59 is 23 h 59 min away"):
        club_night.clock_end(18, 59, at(19, 0))  # a time just past is tomorrow's: refused, not a day long
    with pytest.raises(ClockError, match="within 6 hours"):
        club_night.clock_end(1, 1, at(19, 0))
    assert club_night.clock_end(1, 0, at(19, 0)) == at(1, 0, day=6)  # six hours exactly
    with pytest.raises(ClockError, match="Enter a time of day"):
        club_night.clock_end(24, 0, at(19, 0))


def test_minutes_left_round_up_and_a_table_ends_only_between_hands():
    assert club_night.minutes_left(at(19, 45), at(19, 44) + dt.timedelta(seconds=40)) == 1
    assert club_night.minutes_left(at(19, 45), at(19, 0)) == 45
    assert club_night.minutes_left(at(19, 45), at(19, 46)) == 0
    assert club_night.hands_at_time_up(saved=3, round_open=False) == 3
    assert club_night.hands_at_time_up(saved=3, round_open=True) is None  # it finishes the hand it is in
    assert club_night.hands_at_time_up(saved=0, round_open=False) is None  # it plays one hand


# --- Setting it ----------------------------------------------------------------------------------

def test_the_organiser_sets_the_clock_and_every_page_of_the_night_shows_the_time_left(app, client, crew, clock, started):
    night, games = started
    response = client.post(night + "/stages/1/clock", data={"until": "19:45", "offset": "0"}, headers=HX)
    assert response.status_code == 200
    assert element_text(response, "#note-clock") == "Stage 1 plays until 19:45: every table sees the time left."
    clock.now = at(19, 14)
    page = client.get(night)
    assert attribute(page, ".stage-clock", "data-ends") == "2026-12-05T19:45:00+00:00"
    assert element_text(page, ".stage-clock .clock-left") == "31 min left"
    assert "Change the clock" in texts(page, "#clock button")
    assert texts(page, "#night-log li")[-1].endswith(" · Stage 1: the clock set, 45 minutes to play")
    table_page = client.get(f"{crew}games/{games[0]}")
    assert element_text(table_page, ".stage-clock").startswith("Stage 1: play until")
    assert element_text(table_page, ".stage-clock .clock-left") == "31 min left"
    board_url = select(client.get(night), "a.button")[0].get("href")
    assert element_text(client.get(board_url), ".stage-clock .clock-left") == "31 min left"
    round_url = client.post(f"{crew}games/{games[0]}/rounds").headers["Location"]
    assert element_text(client.get(round_url), ".stage-clock .clock-left") == "31 min left"


def test_phones_already_at_a_table_get_the_clock_by_their_next_poll(client, crew, clock, started):
    night, games = started
    board_url = f"{crew}games/{games[0]}"
    shown = attribute(client.get(board_url), "#scoreboard", "hx-get")
    round_url = client.post(board_url + "/rounds").headers["Location"]
    polled = attribute(client.get(round_url), "#poll", "hx-get")
    client.post(night + "/stages/1/clock", data={"until": "19:45", "offset": "0"})
    answer = client.get(shown, headers=HX)
    assert answer.status_code == 200 and element_text(answer, ".stage-clock .clock-left") == "45 min left"
    answer = client.get(polled, headers=HX)
    assert answer.status_code == 200 and element_text(answer, "#clock-line .clock-left") == "45 min left"


def test_the_organisers_time_is_read_in_the_zone_their_phone_gives(client, clock, started):
    night, _ = started
    # A phone at UTC+1 (JavaScript's getTimezoneOffset says -60): its 20:45 is 19:45 UTC.
    client.post(night + "/stages/1/clock", data={"until": "20:45", "offset": "-60"})
    assert attribute(client.get(night), ".stage-clock", "data-ends") == "2026-12-05T19:45:00+00:00"


@pytest.mark.parametrize(("until", "offset", "said"), [
    ("", "0", "Enter the time the stage ends, such as 21:30."),
    ("half past nine", "0", "Enter the time the stage ends, such as 21:30."),
    ("25:00", "0", "Enter a time of day, such as 21:30."),
    ("18:30", "0", "A stage clock ends within 6 hours of now: 18:30 is 23 h 30 min away."),
    ("19:45", "99999", "Your phone's time zone did not come through: reload the page and set the clock again."),
    ("19:45" + "9" * 5000, "0", "Enter the time the stage ends, such as 21:30."),
])
def test_a_clock_that_cannot_be_set_is_refused_next_to_its_control(client, clock, started, until, offset, said):
    night, _ = started
    response = client.post(night + "/stages/1/clock", data={"until": until, "offset": offset}, headers=HX)
    assert response.status_code == 422
    assert element_text(response, "#note-clock") == said
    assert not select(client.get(night), ".stage-clock")  # nothing was set


def test_the_clock_is_taken_away_and_refused_for_a_stage_not_current(client, clock, started):
    night, _ = started
    client.post(night + "/stages/1/clock", data={"until": "19:45", "offset": "0"})
    response = client.post(night + "/stages/1/clock/clear", headers=HX)
    assert element_text(response, "#note-clock") == "Stage 1 has no clock now."
    page = client.get(night)
    assert not select(page, ".stage-clock")
    assert texts(page, "#night-log li")[-1].endswith(" · Stage 1: the clock taken away")
    refused = client.post(night + "/stages/2/clock", data={"until": "19:45", "offset": "0"}, headers=HX)
    assert refused.status_code == 404
    assert element_text(refused, "#note-clock") == "Stage 2 is not the night's current stage."


# --- When it runs out ---------------------------------------------------------------------------

def test_when_time_is_up_each_table_ends_after_the_hand_it_is_in(app, client, crew, clock, started):
    night, (first, second) = started
    client.post(night + "/stages/1/clock", data={"until": "19:45", "offset": "0"})
    play_round(app, crew, first, (0, 1, 2, 3))
    play_round(app, crew, second, (0, 1, 2, 3))
    second_round = client.post(f"{crew}games/{second}/rounds").headers["Location"]  # table 2 is in hand 2
    clock.now = at(19, 46)
    # Table 1 is between hands: its scoreboard says so, and its next tap ends its game.
    board = client.get(f"{crew}games/{first}")
    assert element_text(board, ".next-round p.big") == "The stage’s time is up: this game ends with the 1 hand played."
    assert element_text(board, ".stage-clock .clock-left") == "time is up: the game ends with the hands played"
    in_a_hand = client.get(f"{crew}games/{second}")
    assert element_text(in_a_hand, ".stage-clock .clock-left") == "time is up: finish the hand you are in"
    ended = client.post(f"{crew}games/{first}/rounds")
    assert ended.headers["Location"].endswith(f"/games/{first}")
    page = client.get(f"{crew}games/{first}")
    assert "The stage’s time is up: this game ended with the hands played." in text_of(page)
    assert element_text(page, ".goal-line") == "1 hand played: the stage’s time was up"
    leader = element_text(page, ".totals li:first-child .name")  # seat 1 scored 40, the others less
    assert element_text(page, ".winner h1") == f"{leader} leads after 1 hand"
    # Table 2 finishes the hand it is in: the round page says it is the last, and its save ends the game.
    assert element_text(client.get(second_round), ".stage-clock .clock-left") == "time is up: finish this hand; it is the table’s last"
    play_round(app, crew, second, (3, 0, 1, 2))
    assert element_text(client.get(f"{crew}games/{second}"), ".goal-line") == "2 hands played: the stage’s time was up"
    found, stages = night_of(app, night)
    assert [table["status"] for table in stages[0]["tables"].values()] == ["finished", "finished"]
    assert [table["hands"] for _, table in sorted(stages[0]["tables"].items())] == [1, 2]
    page = client.get(night)
    assert "Draw stage 2" in texts(page, "#stage button")
    assert not select(page, ".stage-clock")  # every table is done: nothing left to time


def test_a_table_that_has_not_finished_a_hand_plays_one(app, client, crew, clock, started):
    night, (first, _) = started
    client.post(night + "/stages/1/clock", data={"until": "19:45", "offset": "0"})
    clock.now = at(19, 50)
    board = client.get(f"{crew}games/{first}")
    assert element_text(board, ".stage-clock .clock-left") == "time is up: play one hand, the table’s last"
    opened = client.post(f"{crew}games/{first}/rounds")
    assert opened.headers["Location"].endswith("/rounds/1")
    play_round(app, crew, first, (0, 1, 2, 3))
    assert element_text(client.get(f"{crew}games/{first}"), ".goal-line") == "1 hand played: the stage’s time was up"


def test_the_organiser_ends_the_tables_between_hands_once_time_is_up(app, client, crew, clock, started):
    night, (first, second) = started
    client.post(night + "/stages/1/clock", data={"until": "19:45", "offset": "0"})
    assert "Time is up: end the games of tables between hands" not in texts(client.get(night), "#clock button")
    early = client.post(night + "/stages/1/clock/close", headers=HX)
    assert early.status_code == 409 and element_text(early, "#note-clock") == "Stage 1's clock has not run out yet."
    play_round(app, crew, first, (0, 1, 2, 3))
    play_round(app, crew, second, (0, 1, 2, 3))
    client.post(f"{crew}games/{second}/rounds")  # table 2 is in its second hand
    # The organiser's page, drawn before the end, fetches the night again when its clock runs out
    # (static/stage-clock.js): the answer offers the close.
    refresh = attribute(client.get(night), "#night", "data-clock-refresh")
    clock.now = at(19, 46)
    answer = client.get(refresh, headers=HX)
    assert answer.headers["HX-Retarget"] == "#night"
    assert "Time is up: end the games of tables between hands" in texts(answer, "#clock button")
    assert attribute(answer, "#night", "data-clock-refresh") is None
    response = client.post(night + "/stages/1/clock/close", headers=HX)
    assert element_text(response, "#note-clock") == ("1 table between hands ended with the hands played; "
                                                      "the table still playing ends once its hand is saved.")
    _, stages = night_of(app, night)
    assert [table["status"] for _, table in sorted(stages[0]["tables"].items())] == ["finished", "playing"]
    play_round(app, crew, second, (0, 1, 2, 3))
    # Every table has finished: a second close (a stale page, a double tap) has nothing to end.
    again = client.post(night + "/stages/1/clock/close", headers=HX)
    assert again.status_code == 409
    assert element_text(again, "#note-stage") == "Every table of stage 1 has finished: there is nothing left to end."
    timed = client.post(night + "/stages/1/clock", data={"until": "20:30", "offset": "0"}, headers=HX)
    assert timed.status_code == 409
    assert element_text(timed, "#note-stage") == "Every table of stage 1 has finished: there is nothing left to time."


def test_the_clock_and_its_log_line_go_out_and_come_back_with_the_night(app, client, crew, clock, started):
    night, _ = started
    client.post(night + "/stages/1/clock", data={"until": "19:45", "offset": "0"})
    exported = export_of(client, crew)
    stage = exported["club_nights"][0]["stages"][0]
    assert stage["ends_at"] == "2026-12-05T19:45:00+00:00"
    assert {"action": "clock", "stage": 1, "count": 45}.items() <= exported["club_nights"][0]["changes"][-1].items()
    response = restore(client, exported)
    assert response.status_code == 303
    restored = response.headers["Location"].removesuffix("history")
    assert export_of(client, restored)["club_nights"] == exported["club_nights"]
    night_url = select(client.get(restored + "club-nights"), "main a[href*='/club-nights/']")[-1].get("href")
    assert attribute(client.get(night_url), ".stage-clock", "data-ends") == "2026-12-05T19:45:00+00:00"
