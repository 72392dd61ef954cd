"""The stage clock's controls on the organiser's night page (issue 47, item 6): play until a time,
take the clock away, and, once it has run out, end the games of tables between hands. The rule is
the engine's (scoring/club_night/clock.py), the time kept by services/stage_clock.py; the phones
and the big screen count down with static/stage-clock.js."""
import datetime as dt
import re

from flask import Blueprint
from flask_wtf import FlaskForm
from wtforms import IntegerField, StringField
from wtforms.validators import Optional

from scoring import club_night
from services import stage_clock
from services.refusals import Refused
from web.access import CREW, allow

from .club_nights import done, load_night, refused

bp = Blueprint("stage_clock", __name__, url_prefix="/c/<token>/club-nights/<int:night_id>/stages/<int:number>/clock")

CLOCK_TIME = re.compile(r"^\s*(\d{1,2})[:.h](\d{2})\s*$")


class ClockForm(FlaskForm):
    until = StringField("Play until")
    # The phone's own time zone, as JavaScript tells it (static/stage-clock.js fills it in); left
    # empty, the time is read in the server's zone.
    offset = IntegerField(validators=[Optional()])


@bp.post("")
@allow(CREW)
def clock_set(token, night_id, number):
    crew, night = load_night(token, night_id)
    form = ClockForm()
    try:
        matched = CLOCK_TIME.match((form.until.data or "")[:20])
        if not form.validate_on_submit() or not matched:
            raise Refused("Enter the time the stage ends, such as 21:30.", 422, field="clock")
        end = stage_clock.set_clock(night, number, int(matched[1]), int(matched[2]), form.offset.data)
    except Refused as error:
        return refused(token, night_id, error, field="clock")
    return done(token, night_id, f"Stage {number} plays until {end:%H:%M}: every table sees the time left.", "clock")


@bp.post("/clear")
@allow(CREW)
def clock_clear(token, night_id, number):
    crew, night = load_night(token, night_id)
    try:
        stage_clock.clear_clock(night, number)
    except Refused as error:
        return refused(token, night_id, error, field="clock")
    return done(token, night_id, f"Stage {number} has no clock now.", "clock")


@bp.post("/close")
@allow(CREW)
def clock_close(token, night_id, number):
    """Once the clock has run out: the tables between hands end their games now."""
    crew, night = load_night(token, night_id)
    try:
        ended, playing = stage_clock.close_stage(night, number)
    except Refused as error:
        return refused(token, night_id, error, field="clock")
    said = (f"{ended} table{'' if ended == 1 else 's'} between hands ended with the hands played" if ended
            else "No table was between hands")
    still = ("" if not playing else "; the table still playing ends once its hand is saved" if playing == 1
             else f"; the {playing} tables still playing end once their hands are saved")
    return done(token, night_id, f"{said}{still}.", "clock")


@bp.app_template_filter("stage_clock")
def clock_of(ends_at):
    """A stage's clock as the templates show it (templates/club_nights/_clock.html): when it ends
    (`ends`, UTC; `clock`, the server's time of day, for a page without JavaScript), the whole
    minutes left and whether the time is up; None without a clock."""
    if not ends_at:
        return None
    end, at = dt.datetime.fromisoformat(ends_at), stage_clock.now()
    return {"ends": ends_at, "clock": f"{end.astimezone():%H:%M}", "left": club_night.minutes_left(end, at),
            "up": club_night.time_is_up(end, at)}
