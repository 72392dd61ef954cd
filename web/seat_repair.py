""""We sat wrong": the page that swaps two players' seats in a game after the fact."""
from flask import Blueprint, flash, url_for
from flask_wtf import FlaskForm

from web.access import CREW, TABLE, allow
from wtforms import IntegerField, SelectField
from wtforms.validators import InputRequired

from scoring import PLAYERS
from services import seat_repair
from services.refusals import Refused

from .lookup import load_game
from .render import render, see_other
from .viewer import viewer_for

bp = Blueprint("seat_repair", __name__, url_prefix="/c/<token>/games")


class SwapSeatsForm(FlaskForm):
    first = SelectField("Swap", coerce=int, validate_choice=False)
    second = SelectField("with", coerce=int, validate_choice=False)
    version = IntegerField(validators=[InputRequired()])


def _page(crew, game, form, refusal=None, status=200):
    choices = [(seat, game["names"][seat]) for seat in range(PLAYERS)]
    form.first.choices = form.second.choices = choices
    if not form.is_submitted():
        form.first.data, form.second.data, form.version.data = 0, 1, game["version"]
    return render("seat_repair/show.html", "swap_form" if status != 200 else None, status=status,
                  crew=crew, game=game, form=form, refusal=refusal)


@bp.get("/<int:game_id>/seats/swap")
@allow(CREW, TABLE)
def swap_show(token, game_id):
    crew, game = load_game(token, game_id)
    return _page(crew, game, SwapSeatsForm(formdata=None))


@bp.post("/<int:game_id>/seats/swap")
@allow(CREW, TABLE)
def swap_save(token, game_id):
    crew, game = load_game(token, game_id)
    form = SwapSeatsForm()
    try:
        if not form.validate_on_submit():
            if form.first.errors or form.second.errors:
                raise Refused("Pick the two players who sat in each other's seats.", 422)
            # The seats are there but not the page's own fields (its version, its form token).
            raise Refused("This page is out of date: reload it and pick the swap again.", 422)
        done = seat_repair.swap(game, form.first.data, form.second.data, form.version.data,
                                viewer_for(game).label(game["names"]))
    except Refused as refusal:
        return _page(crew, game, form, refusal.sentence, refusal.status)
    flash(done)
    return see_other(url_for("games.game_show", token=token, game_id=game_id))
