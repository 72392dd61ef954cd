"""Club night pages: a new night, the organiser's page (who is here, the stage's seating with its
swap, each table's QR code), the live leaderboard on every phone, and the big-screen view."""
from flask import Blueprint, abort, current_app, flash, g, make_response, request, url_for
from flask_wtf import FlaskForm

from web.access import CREW, DOOR, WATCH, allow, live_poll
from web.quick import quick
from wtforms import (IntegerField, RadioField, SelectChoice, SelectField, SelectMultipleField, StringField,
                     TextAreaField)
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from scoring import NAME_MAX, club_night
from services import club_night_stages as stage_service
from services import club_nights as night_service
from services import crews as crew_service
from services import door as door_service
from services import links as link_service
from services import seasons as season_service
from services.refusals import Refused

from . import night_follow as follow
from .fields import check_name
from .lookup import load_crew
from .fragments import once_per_mark
from .render import render, see_other, wants_fragment
from .share_links import qr_svg, share_link

bp = Blueprint("club_nights", __name__, url_prefix="/c/<token>/club-nights")

NAMES_MAX = club_night.MAX_PLAYERS * (NAME_MAX + 2)  # one name a line, every player of a full night


class NightForm(FlaskForm):
    name = StringField("Name of the night", default="Club night", validators=[check_name])
    # The crew's players are picked by a tap; anyone new is typed. A picked value is only a name,
    # checked like a typed one, so a forged value can do no more than typing could.
    known = SelectMultipleField("Tap who is here", validate_choice=False)
    names = TextAreaField("Who is here: one name a line", validators=[
        Length(max=NAMES_MAX, message=f"That is more names than a night can seat ({club_night.MAX_PLAYERS})."),
    ])
    format = RadioField("Each stage is", default="hands", choices=[
        SelectChoice("hands", "A set number of hands at every table"),
        SelectChoice("game", "One game to the goal at every table"),
    ])
    stage_hands = IntegerField("Hands a stage", default=4, validators=[
        Optional(),
        NumberRange(min=1, max=club_night.MAX_STAGE_HANDS,
                    message=f"A stage is 1 to {club_night.MAX_STAGE_HANDS} hands."),
    ])
    # Per hand played by default: with sit-outs (players not a multiple of four) some play fewer
    # hands, and a total would put them behind; with none it ranks as the total does.
    ranking = RadioField("Rank the night by", default="per-hand", choices=[
        SelectChoice(key, label) for key, label in club_night.RANKING_NAMES.items()])
    seating = RadioField("Make the tables", default="mixed", choices=[
        SelectChoice(key, label) for key, label in club_night.SEATING_NAMES.items()])
    season = SelectField("Stage 1 by the standings of the season", coerce=int, validate_choice=False)  # the crew's

    def validate(self, extra_validators=None):
        ok = super().validate(extra_validators)
        if self.format.data == "hands" and self.stage_hands.data is None and not self.stage_hands.errors:
            self.stage_hands.errors.append("Enter how many hands a stage is.")
            ok = False
        return ok

    def name_list(self):
        return [*(self.known.data or ()), *(self.names.data or "").splitlines()]


class PlayerForm(FlaskForm):
    name = StringField("A late arrival", validators=[check_name])


class SwapForm(FlaskForm):
    first = SelectField("Swap", coerce=int, validate_choice=False)
    second = SelectField("with", coerce=int, validate_choice=False)
    version = IntegerField(validators=[InputRequired()])  # the night as the page showed it: a stale swap is a 409


def load_night(token, night_id):
    crew = load_crew(token)
    night = night_service.find(crew["id"], night_id)
    if night is None:
        abort(404)
    return crew, night


def night_page(token, night_id, status=200, block=None, forms=None, mark=None):
    # The mark is read before what it stands for: a write landing in between leaves the page a
    # mark older than what it shows (one poll too many), never newer (a phone stuck on the old).
    mark = mark or night_service.live_mark(g.link.crew["id"], night_id)
    crew, night = load_night(token, night_id)
    stages = night_service.stages(night)
    board = night_service.leaderboard(night, stages)
    forms = forms or {}
    swap_form = forms.get("swap") or SwapForm(formdata=None)
    names = {player["id"]: player["name"] for player in night["players"]}
    swap_form.first.choices = swap_form.second.choices = sorted(names.items(), key=lambda item: item[1].casefold())
    if not swap_form.is_submitted() and len(names) > 1:
        swap_form.second.data = swap_form.second.choices[1][0]  # two different players to start from
    swap_form.version.data = night["version"]  # a refused stale swap's page can swap at once
    current = stages[-1] if stages else None
    return render(
        "club_nights/show.html", block, status=status, crew=crew, night=night, stages=stages,
        current=current, plan=night_service.seating(current) if current else None, names=names, board=board,
        made=night_service.how_made(night, current),
        qr={} if block == "live" and wants_fragment() else _table_codes(crew, current),  # stand-ins: show.html
        board_url=None if block else big_screen_url(crew, night_id),
        player_form=forms.get("player") or PlayerForm(formdata=None),
        swap_form=swap_form, notice=forms.get("notice"), mark=mark,
        ranking_name=club_night.RANKING_NAMES[night["ranking"]], name_max=NAME_MAX,
        drawable=not night["finished"] and len(stages) < club_night.MAX_STAGES,
        log=night_service.changes(night, night_service.LOG_SHOWN) if block in (None, "night") else None,
        log_length=night_service.log_length(night) if block in (None, "night") else 0,
        door=_door(crew, night, stages) if block in (None, "night") and not night["finished"] else None,
    )


def _door(crew, night, stages):
    """The night's door code, and who checked in there (those the organiser may still undo)."""
    return {"code": door_code(crew, night["id"]), "arrivals": door_service.arrivals(night),
            "undoable": door_service.undoable(night, stages)}


def door_code(crew, night_id):
    """The night's door code: its link (a door link checks one player in, nothing else) and QR code."""
    token = link_service.token_for(current_app.secret_key, crew["id"], DOOR, night_id=night_id)
    link = share_link(url_for("door.door_show", token=token, night_id=night_id))
    return {"url": link.url, "svg": qr_svg(link.url)}


def _refusal(error, field=None):
    return {"field": error.field or field or "stage", "text": error.sentence, "refused": True}


def big_screen_url(crew, night_id):
    """The big screen's address: the night's watch link (read only), never the crew's."""
    watch = link_service.token_for(current_app.secret_key, crew["id"], WATCH, night_id=night_id)
    return url_for("club_nights.night_board", token=watch, night_id=night_id)


def _table_codes(crew, stage):
    """Each started table's QR code: a table link to its game (that game's play, nothing else of
    the crew), so table 3's phones join table 3 and cannot reach the rest."""
    if not stage or stage["status"] != "playing":
        return {}
    games = {table_no: game["game_id"] for table_no, game in stage["tables"].items()}
    tokens = link_service.table_tokens(current_app.secret_key, crew["id"], list(games.values()))
    codes = {}
    for table_no, game_id in games.items():
        link = share_link(url_for("games.game_show", token=tokens[game_id], game_id=game_id))
        codes[table_no] = {"url": link.url, "svg": qr_svg(link.url)}
    return codes


def refused(token, night_id, error, forms=None, field=None):
    """The night again with the refusal's sentence next to its control (`field`, when the refusal
    names none)."""
    return night_page(token, night_id, status=error.status, block="night",
                      forms={**(forms or {}), "notice": _refusal(error, field)})


def done(token, night_id, text, field):
    """After a change: htmx swaps the night in place with the sentence next to the control that
    made it (the page does not jump); a plain form post goes back to the page with it flashed."""
    if wants_fragment():
        return night_page(token, night_id, block="night", forms={"notice": {"field": field, "text": text, "refused": False}})
    flash(text)
    return see_other(url_for("club_nights.night_show", token=token, night_id=night_id))


@bp.get("")
@allow(CREW)
def night_list(token):
    crew = load_crew(token)
    return render("club_nights/index.html", crew=crew, nights=night_service.nights(crew["id"]))


@bp.get("/new")
@allow(CREW)
def night_new(token):
    crew = load_crew(token)
    return _new_page(crew, NightForm())


def _new_page(crew, form, error=None, status=200, block=None):
    form.season.choices = [(season["id"], season["name"]) for season in season_service.seasons(crew["id"])]
    return render("club_nights/new.html", block or ("night_form" if status != 200 else None), status=status, crew=crew,
                  form=form, error=error, players=crew_service.players(crew["id"]), names_max=NAMES_MAX,
                  stage_hands_max=club_night.MAX_STAGE_HANDS, name_max=NAME_MAX,
                  here_count=night_service.count_names(form.name_list()))


@bp.post("/new/count")
@allow(CREW)
def night_count(token):
    """"N players here" while the new-night form is filled in: htmx asks again as names are tapped
    or typed; a plain post (no htmx) gets the whole form back, counted. Nothing is saved."""
    return _new_page(load_crew(token), NightForm(), block="here_count")


@bp.post("")
@allow(CREW)
def night_create(token):
    crew = load_crew(token)
    form = NightForm()
    error = None
    if form.validate_on_submit():
        try:
            by_standing = form.seating.data == "standing"
            night_id = night_service.create(crew["id"], form.name.data, form.name_list(), form.format.data,
                                            form.stage_hands.data, form.ranking.data, form.seating.data,
                                            form.season.data if by_standing and form.season.raw_data else None)
        except Refused as refusal:
            error = refusal
        else:
            return see_other(url_for("club_nights.night_show", token=token, night_id=night_id))
    return _new_page(crew, form, error, status=error.status if error else 422)


@bp.get("/<int:night_id>")
@allow(CREW)
def night_show(token, night_id):
    return night_page(token, night_id)


@bp.get("/<int:night_id>/live")
@allow(CREW)
@live_poll(night=True)
@quick
def night_live(token, night_id):
    """The leaderboard again, only when something it shows changed (a 204 otherwise)."""
    mark = _mark(token, night_id)
    if request.args.get("v", "") == mark:
        return make_response("", 204)
    if request.args.get("v", "").split(".")[0] != mark.split(".")[0]:
        # The night itself changed (a stage drawn, swapped or started, a player left or came):
        # the controls below the leaderboard are out of date too, so the whole night comes back.
        response = night_page(token, night_id, block="night", mark=mark)
        response.headers.update({"HX-Retarget": "#night", "HX-Reswap": "outerHTML"})
        return response
    return once_per_mark((token, night_id, mark, "live"),
                          lambda: night_page(token, night_id, block="live", mark=mark))


@bp.get("/<int:night_id>/board")
@allow(CREW, WATCH)
def night_board(token, night_id):
    """The big-screen view: the leaderboard in large type, no controls, following live."""
    crew, night = load_night(token, night_id)
    return _board(token, crew, night)


@bp.get("/<int:night_id>/board/live")
@allow(CREW, WATCH)
@live_poll(night=True)
@quick
def night_board_live(token, night_id):
    mark = _mark(token, night_id)
    if request.args.get("v", "") == mark:
        return make_response("", 204)
    crew, night = load_night(token, night_id)
    response = once_per_mark((token, night_id, mark, "big_board"), lambda: _board(token, crew, night, "big_board", mark))
    return follow.with_my_table(response, crew, night, lambda: night_service.stages(night))


def _board(token, crew, night, block=None, mark=None):
    mark = mark or night_service.live_mark(crew["id"], night["id"])  # before the board: see night_page
    stages = night_service.stages(night)
    door = door_code(crew, night["id"]) if block is None and not night["finished"] else None
    return render("club_nights/board.html", block, crew=crew, night=night, follow=follow.my_table(crew, night, stages),
                  door=door,
                  board=night_service.leaderboard(night, stages), mark=mark, current=stages[-1] if stages else None,
                  ranking_name=club_night.RANKING_NAMES[night["ranking"]])


def _mark(token, night_id):
    """The night's live mark; a 404 when the link has no such night. A route declared
    `@live_poll(night=True)` (web/access.py) has it from the link's read; any other reads it."""
    polled = g.link.night_polled
    if polled is not None and polled.night_id == night_id:
        mark = polled.mark
    else:
        mark = night_service.live_mark(g.link.crew["id"], night_id)
    if mark is None:
        abort(404)
    return mark


@bp.post("/<int:night_id>/players")
@allow(CREW)
def player_add(token, night_id):
    crew, night = load_night(token, night_id)
    form = PlayerForm()
    try:
        if not form.validate_on_submit():
            raise Refused(form.name.errors[0] if form.name.errors else "Enter a name.", 422, field="name")
        night_service.add_player(night, form.name.data)
    except Refused as error:
        return refused(token, night_id, error, {"player": form})
    return done(token, night_id, f"{form.name.data} joined: they are seated from the next stage drawn.", "name")


@bp.post("/<int:night_id>/players/<int:player_id>/here")
@allow(CREW)
def player_here(token, night_id, player_id):
    crew, night = load_night(token, night_id)
    here = request.form.get("here") == "1"
    try:
        name = night_service.set_here(night, player_id, here)
    except Refused as error:
        return refused(token, night_id, error, field=f"here-{player_id}")
    return done(token, night_id, f"{name} is back." if here else f"{name} left: the next stage is drawn without them.",
                f"here-{player_id}")


@bp.post("/<int:night_id>/stages")
@allow(CREW)
def stage_draw(token, night_id):
    crew, night = load_night(token, night_id)
    try:
        number = stage_service.draw_stage(night)
    except Refused as error:
        return refused(token, night_id, error)
    return done(token, night_id, f"Stage {number} drawn: check the seats, swap two players if needed, then start it.",
                "stage")


@bp.post("/<int:night_id>/stages/<int:number>/redraw")
@allow(CREW)
def stage_redraw(token, night_id, number):
    crew, night = load_night(token, night_id)
    try:
        stage_service.redraw(night, number)
    except Refused as error:
        return refused(token, night_id, error)
    return done(token, night_id, f"Stage {number} drawn again from who is here now.", "stage")


@bp.post("/<int:night_id>/stages/<int:number>/swap")
@allow(CREW)
def stage_swap(token, night_id, number):
    crew, night = load_night(token, night_id)
    form = SwapForm()
    try:
        if not form.validate_on_submit():
            raise Refused("Pick the two players to swap.", 422, field="swap")
        text = stage_service.swap(night, number, form.first.data, form.second.data, form.version.data)
    except Refused as error:
        return refused(token, night_id, error, {"swap": form})
    return done(token, night_id, text + ".", "swap")


@bp.post("/<int:night_id>/stages/<int:number>/start")
@allow(CREW)
def stage_start(token, night_id, number):
    crew, night = load_night(token, night_id)
    try:
        games = stage_service.start_stage(night, crew, number)
    except Refused as error:
        return refused(token, night_id, error)
    tables = f"{len(games)} table{'' if len(games) == 1 else 's'}"
    return done(token, night_id, f"Stage {number} started at {tables}: each table scans its own code.", "stage")


@bp.post("/<int:night_id>/finish")
@allow(CREW)
def night_finish(token, night_id):
    """The organiser finishes the night: its standings are final, and it takes no more stages."""
    crew, night = load_night(token, night_id)
    try:
        stage_service.finish(night)
    except Refused as error:
        return refused(token, night_id, error)
    return done(token, night_id, "The night is over: these are its final standings.", "stage")


@bp.post("/<int:night_id>/reopen")
@allow(CREW)
def night_reopen(token, night_id):
    """The organiser reopens a finished night: its standings are open again (logged)."""
    crew, night = load_night(token, night_id)
    try:
        stage_service.reopen(night)
    except Refused as error:
        return refused(token, night_id, error)
    return done(token, night_id, "The night is open again: its tables' rounds can be corrected, and stages drawn.",
                "stage")
