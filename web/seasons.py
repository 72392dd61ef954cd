"""Seasons (issue 47): the crew's seasons and the form that opens one, a season's standings with
its rule and log, a player's breakdown, the rule changed, and an event left out or counted again.
Plain forms (each answers with the page, a refusal beside its control): a season is set up a few
times a year, from the crew's phone."""
import datetime

from flask import Blueprint, current_app, make_response, url_for
from flask_wtf import FlaskForm
from wtforms import DateField, IntegerField, StringField
from wtforms.validators import InputRequired, NumberRange, Optional

from scoring import NAME_MAX, NOTE_MAX
from scoring.season import MAX_SEASON_EVENTS, TREND_LENGTH, SeasonRule, percent
from services import links as link_service
from services import seasons as season_service
from services.links import WATCH
from services.refusals import Refused
from web import season_card
from web.access import CREW, allow, is_crew
from web.share_links import qr_svg, share_link

from .lookup import load_crew
from .render import render, see_other

bp = Blueprint("seasons", __name__, url_prefix="/c/<token>/seasons")

COUNT = NumberRange(min=1, max=MAX_SEASON_EVENTS, message=f"A number from 1 to {MAX_SEASON_EVENTS}.")


class RuleForm(FlaskForm):
    best = IntegerField("Count each player’s best … events", validators=[Optional(), COUNT],
                        render_kw={"inputmode": "numeric", "min": 1, "max": MAX_SEASON_EVENTS})
    minimum = IntegerField("Rank a player from their … event", default=1,
                           validators=[InputRequired("Enter how many events rank a player."), COUNT],
                           render_kw={"inputmode": "numeric", "min": 1, "max": MAX_SEASON_EVENTS})

    def rule(self):
        return SeasonRule(best=self.best.data, minimum=self.minimum.data)


class SeasonForm(RuleForm):
    name = StringField("Season name", render_kw={"maxlength": NAME_MAX, "autocomplete": "off"})
    first_day = DateField("First day", validators=[InputRequired("Pick the season's first day.")])
    last_day = DateField("Last day", validators=[Optional()])


class LeaveOutForm(FlaskForm):
    reason = StringField("Why it does not count", render_kw={"maxlength": NOTE_MAX, "autocomplete": "off"})


def _load(token, season_id):
    crew = load_crew(token)
    season = season_service.find(crew["id"], season_id)
    if season is None:
        raise Refused("There is no such season in this crew.", 404)
    return crew, season


def _list(crew, form=None, error=None, status=200):
    if form is None:
        form = SeasonForm(formdata=None)
        form.first_day.data = datetime.date.today()
    return render("seasons/list.html", status=status, crew=crew, seasons=season_service.seasons(crew["id"]),
                  form=form, error=error)


def _page(crew, season, rule_form=None, error=None, error_field=None, status=200):
    standing = season_service.standings_of(season)
    if rule_form is None:
        rule_form = RuleForm(formdata=None, best=season["best"], minimum=season["minimum"])
    return render("seasons/show.html", status=status, crew=crew, season=season, standing=standing,
                  rule_form=rule_form, leave_form=LeaveOutForm(formdata=None), error=error, error_field=error_field,
                  changes=season_service.changes(season), percent=percent, trend_length=TREND_LENGTH,
                  code=season_code(crew, season["id"]) if is_crew() else None)


@bp.get("")
@allow(CREW)
def season_list(token):
    return _list(load_crew(token))


@bp.post("")
@allow(CREW)
def season_open(token):
    crew = load_crew(token)
    form = SeasonForm()
    if not form.validate_on_submit():
        return _list(crew, form, status=422)
    try:
        season_id = season_service.open_season(crew["id"], form.name.data, form.first_day.data, form.last_day.data,
                                               form.rule())
    except Refused as refused:
        getattr(form, refused.field or "name").errors = [refused.sentence]
        return _list(crew, form, status=refused.status)
    return see_other(url_for("seasons.season_show", token=token, season_id=season_id))


def season_code(crew, season_id):
    """The season's watch link (its standings, read only) as the room's phones open it, and its QR code."""
    token = link_service.token_for(current_app.secret_key, crew["id"], WATCH, season_id=season_id)
    link = share_link(url_for("seasons.season_show", token=token, season_id=season_id))
    return {"url": link.url, "svg": qr_svg(link.url), "token": token}


@bp.get("/<int:season_id>")
@allow(CREW, WATCH)
def season_show(token, season_id):
    return _page(*_load(token, season_id))


@bp.get("/<int:season_id>/screen")
@allow(CREW, WATCH)
def season_screen(token, season_id):
    """The projector view: the standings in type sized for the room, paging by itself
    (static/big-screen.js), the season's QR code in a corner; it reloads its standings by itself."""
    crew, season = _load(token, season_id)
    return render("seasons/screen.html", "big_board", crew=crew, season=season,
                  standing=season_service.standings_of(season), code=season_code(crew, season_id), percent=percent)


@bp.get("/<int:season_id>/card.png")
@allow(CREW, WATCH)
def season_card_show(token, season_id):
    """The standings as a PNG card to share: the crew's and season's names, never a link."""
    crew, season = _load(token, season_id)
    standing = season_service.standings_of(season)
    png = season_card.draw(crew["name"], season, standing)
    response = make_response(png)
    response.mimetype = "image/png"
    response.headers["Content-Disposition"] = f'inline; filename="orchard-season-{season_id}.png"'
    return response


@bp.get("/<int:season_id>/players/<int:player_id>")
@allow(CREW, WATCH)
def season_player(token, season_id, player_id):
    crew, season = _load(token, season_id)
    standing = season_service.standings_of(season)
    line = next((line for line in standing.lines if line.player == player_id), None)
    if line is None:
        raise Refused("That player has no event in this season.", 404)
    return render("seasons/player.html", crew=crew, season=season, standing=standing, line=line,
                  name=standing.names.get(player_id, "?"), percent=percent)


@bp.post("/<int:season_id>/rule")
@allow(CREW)
def season_rule(token, season_id):
    crew, season = _load(token, season_id)
    form = RuleForm()
    if not form.validate_on_submit():
        return _page(crew, season, form, status=422)
    season_service.set_rule(season, form.rule())
    return see_other(url_for("seasons.season_show", token=token, season_id=season_id) + "#standings")


@bp.post("/<int:season_id>/<any(game, night):kind>/<int:event_id>/leave-out")
@allow(CREW)
def season_leave_out(token, season_id, kind, event_id):
    crew, season = _load(token, season_id)
    form = LeaveOutForm()
    try:
        if not form.validate_on_submit():
            raise Refused("This page was open too long: try again.", 400, "reason")
        season_service.leave_out(season, kind, event_id, form.reason.data or "")
    except Refused as refused:
        return _page(crew, season, error=refused.sentence, error_field=f"{kind}-{event_id}", status=refused.status)
    return see_other(url_for("seasons.season_show", token=token, season_id=season_id) + "#events")


@bp.post("/<int:season_id>/<any(game, night):kind>/<int:event_id>/count-again")
@allow(CREW)
def season_count_again(token, season_id, kind, event_id):
    crew, season = _load(token, season_id)
    if not FlaskForm().validate_on_submit():
        return _page(crew, season, error="This page was open too long: try again.",
                     error_field=f"{kind}-{event_id}", status=400)
    try:
        season_service.count_again(season, kind, event_id)
    except Refused as refused:
        return _page(crew, season, error=refused.sentence, error_field=f"{kind}-{event_id}", status=refused.status)
    return see_other(url_for("seasons.season_show", token=token, season_id=season_id) + "#events")
