"""A club night's door (issue 44, item 3): the door code's page, where a player picks their name
from the crew's players or types a new one and is checked in for the next draw (services/door.py),
and the organiser's undo of a check-in. The door link opens this page and nothing else; a phone
checked in goes on to the night's board, by the night's watch link, where it follows its player."""
from flask import Blueprint
from flask_wtf import FlaskForm
from wtforms import StringField

from scoring import NAME_MAX
from services import crews as crew_service
from services import door as door_service
from services.refusals import Refused
from web.access import CREW, DOOR, allow

from .club_nights import big_screen_url, done, load_night, refused
from .render import render, see_other
from .viewer import device_id

bp = Blueprint("door", __name__, url_prefix="/c/<token>/club-nights/<int:night_id>")


class DoorForm(FlaskForm):
    # The name's rule (scoring.names) is the service's: a typed name and a tapped one alike.
    name = StringField("Your name")
    pick = StringField()  # a tap on a name in the crew's list sends it here instead

    def chosen(self):
        return self.pick.data or self.name.data or ""


def _page(token, night_id, form=None, error=None, status=200):
    crew, night = load_night(token, night_id)
    on_list = {player["name"] for player in night["players"] if player["here"]}
    return render("door/show.html", status=status, crew=crew, night=night, form=form or DoorForm(formdata=None),
                  error=error, checked=door_service.checked_in_as(night, device_id()), on_list=on_list,
                  players=crew_service.players(crew["id"]), board_url=big_screen_url(crew, night_id),
                  name_max=NAME_MAX)


@bp.get("/door")
@allow(DOOR, CREW)
def door_show(token, night_id):
    return _page(token, night_id)


@bp.post("/door")
@allow(DOOR, CREW)
def door_check_in(token, night_id):
    crew, night = load_night(token, night_id)
    form = DoorForm()
    try:
        if not form.validate_on_submit():
            raise Refused("This page was open too long: check in again.", 400, field="name")
        door_service.check_in(night, device_id(), form.chosen())
    except Refused as error:
        return _page(token, night_id, form, error.sentence, error.status)
    return see_other(big_screen_url(crew, night_id))


@bp.post("/players/<int:player_id>/door-undo")
@allow(CREW)
def door_undo(token, night_id, player_id):
    crew, night = load_night(token, night_id)
    try:
        name, listed = door_service.undo(night, player_id)
    except Refused as error:
        return refused(token, night_id, error, field=f"here-{player_id}")
    # Said in the player's row, or where it was (under the list) when it left the list.
    return done(token, night_id, f"{name}'s check-in is undone: tonight's list is as it was before it.",
                f"here-{player_id}" if listed else "door-undone")
