"""The stage clock: an organiser gives a club night's stage an end time ("play until 21:30");
every table's phones and the big screen count down to it, and once it has passed each table's
game ends with the hands played, as soon as the hand it is in is saved (a table between hands,
when it next taps "Start", or when the organiser closes the stage). The rule is the engine's
(scoring/club_night/clock.py); this module keeps the time and writes what it decides."""
import dataclasses
import datetime as dt
import json

from scoring import club_night
from scoring.club_night import ClockError
from store import club_nights as night_store
from store import games as game_store
from store import rounds as round_store
from store import write

from .club_nights import log_has_room
from .games import game_standing, house_rules
from .refusals import Refused


def now():
    """The time the clock is read by (tests move it)."""
    return dt.datetime.now(dt.timezone.utc)


def end_of(row):
    """A stage's (or a table's, `table_of_game`) clock end as an aware datetime, or None."""
    ends_at = row.get("ends_at") if row else None
    return dt.datetime.fromisoformat(ends_at) if ends_at else None


def time_up(row):
    """Whether a stage's (or a table's) clock has run out."""
    return club_night.time_is_up(end_of(row), now())


def zone_of(offset):
    """The organiser's time zone, from the phone's own word (JavaScript's getTimezoneOffset:
    minutes behind UTC), else the server's."""
    if offset is None:
        return now().astimezone().tzinfo
    if abs(offset) > club_night.MAX_ZONE_OFFSET_MINUTES:
        raise Refused("Your phone's time zone did not come through: reload the page and set the clock again.",
                      422, field="clock")
    return dt.timezone(-dt.timedelta(minutes=offset))


@log_has_room
def set_clock(night, number, hour, minute, offset=None):
    """Give stage `number` its end time, said as a time of day in the organiser's zone; returns
    when it ends. Logged with the minutes it gives."""
    at = now()
    try:
        end = club_night.clock_end(hour, minute, at.astimezone(zone_of(offset)))
    except ClockError as error:
        raise Refused(str(error), 422, field="clock") from None
    _write(night, number, end.astimezone(dt.timezone.utc).isoformat(timespec="seconds"),
           club_night.minutes_left(end, at))
    return end


@log_has_room
def clear_clock(night, number):
    """Take the stage's clock away: its tables play on as the night's format says."""
    _write(night, number, None, None)


def _write(night, number, ends_at, minutes):
    with write() as db:
        found = night_store.night(night["crew_id"], night["id"], db)
        if found["finished"]:
            raise Refused("The night is over: its stages take no clock.", field="clock")
        stages = {stage["number"]: stage for stage in night_store.stages(night["id"], db)}
        stage = stages.get(number)
        if stage is None or number != max(stages):
            raise Refused(f"Stage {number} is not the night's current stage.", 404, field="clock")
        if stage["status"] == "playing" and not any(table["status"] == "playing" for table in stage["tables"].values()):
            raise Refused(f"Every table of stage {number} has finished: there is nothing left to time.", field="stage")
        night_store.set_clock(db, night["id"], number, ends_at)
        night_store.log(db, night["id"], "clock", stage=number, count=minutes)
        night_store.bump(db, night["id"])
        for table in stage["tables"].values():  # every table's phones follow the clock by their poll
            if table["status"] == "playing":
                game_store.bump(db, table["game_id"])


def close_if_time_is_up(db, game, saved, round_open=None):
    """Inside a write: once the game's stage clock has passed, end the game with the `saved`
    hands it has played (its rules' hand limit), unless the table is still in a hand (`round_open`;
    None: read here, only once the time is up) or has not played one yet. Returns the game as it is
    now, with its new rules, or None when it plays on."""
    if not time_up(night_store.table_of_game(game["id"], db)):
        return None
    if round_open is None:
        round_open = round_store.open_from(db, game["id"], 1)
    hands = club_night.hands_at_time_up(saved, round_open)
    if hands is None:
        return None
    rules = json.dumps(dataclasses.replace(house_rules(game), hand_limit=hands).as_json())
    game_store.set_rules(db, game["id"], rules)
    return {**game, "rules": rules}


def close_stage(night, number):
    """The organiser's close, once the clock has passed: every table of the stage between hands
    ends its game with the hands played (a table in a hand finishes it first). Returns how many
    games it ended and how many still play (in a hand, or before their first)."""
    ended = playing = 0
    with write() as db:
        stages = {stage["number"]: stage for stage in night_store.stages(night["id"], db)}
        stage = stages.get(number)
        if stage is None or stage["status"] != "playing":
            raise Refused(f"Stage {number} is not being played.", 404, field="clock")
        if not time_up(stage):
            raise Refused(f"Stage {number}'s clock has not run out yet.", field="clock")
        tables = [table for table in stage["tables"].values() if table["status"] == "playing"]
        if not tables:
            raise Refused(f"Every table of stage {number} has finished: there is nothing left to end.",
                          field="stage")  # the clock's panel is gone: said beside the stage's controls
        for table in tables:
            game = game_store.game(night["crew_id"], table["game_id"])
            saved = round_store.scored(game["id"], db)
            closed = close_if_time_is_up(db, game, len(saved))
            if closed:
                result = game_standing(closed, saved).result
                game_store.set_result(db, game["id"], result.over, result.winners, saved)
                game_store.bump(db, game["id"])
                ended += 1
            else:
                playing += 1
        if ended:
            night_store.bump(db, night["id"])
    return ended, playing
