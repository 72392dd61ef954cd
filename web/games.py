"""New games, the scoreboard (live on every phone), seats, starting the next round, and the rematch."""
import hashlib

from flask import Blueprint, abort, current_app, flash, g, make_response, request, url_for
from wtforms import RadioField, StringField

from scoring import PLAYERS
from scoring import names as name_rule
from services import club_nights as night_service
from services import crews as crew_service
from services import games as game_service
from services import links as link_service
from services import phones
from services import rounds as round_service
from services import stage_clock
from services.games import house_rules
from services.refusals import Refused
from web.access import CREW, TABLE, WATCH, allow, live_poll
from web.quick import quick
from web.crews import HouseRulesForm
from web.fields import SEATS, check_name

from .lookup import load_crew, load_game
from .render import render, see_other
from .share_links import qr_svg, share_link
from .viewer import device_id, poll_unchanged, viewer_for

bp = Blueprint("games", __name__, url_prefix="/c/<token>/games")


class GameForm(HouseRulesForm):
    player_0 = StringField("Seat 1", validators=[check_name])
    player_1 = StringField("Seat 2", validators=[check_name])
    player_2 = StringField("Seat 3", validators=[check_name])
    player_3 = StringField("Seat 4", validators=[check_name])
    first_dealer = RadioField("Who deals first", choices=SEATS, default="0")

    def names(self):
        return [getattr(self, f"player_{seat}").data for seat in range(PLAYERS)]

    def validate(self, extra_validators=None):
        ok = super().validate(extra_validators)
        seen = {}
        for seat, name in enumerate(self.names()):
            field = getattr(self, f"player_{seat}")
            if name and name_rule.key(name) in seen and not field.errors:
                field.errors.append(f"{name} is already in seat {seen[name_rule.key(name)] + 1}.")
                ok = False
            alike = name and not field.errors and name_rule.look_alike(name, [n for n in self.names()[:seat] if n])
            if alike:
                field.errors.append(name_rule.look_alike_sentence(name, alike, f"in seat {self.names().index(alike) + 1}"))
                ok = False
            seen.setdefault(name_rule.key(name or ""), seat)
        return ok


def scoreboard_page(token, game_id, status=200, notice=None, reassign=None, just_saved=None, loaded=None):
    """The scoreboard page, or its block for htmx (a swap, or a live poll that found a change);
    `just_saved`: the round number a save on this phone came from, said once it is saved;
    `loaded`: the (crew, game) this request already read and did not change since."""
    crew, game = loaded or load_game(token, game_id)
    board = game_service.scoreboard(game, just_saved)
    club_table = night_service.table_of_game(game_id)
    return render(
        "games/show.html",
        "scoreboard",
        status=status,
        crew=crew,
        game=game,
        rounds=board.rounds,
        earlier=board.earlier,
        standing=board.standing,
        rules=house_rules(game),
        open_round=board.open_round,
        undone=board.undone,
        viewer=viewer_for(game),
        all_agreed=board.all_agreed,
        notice=notice,
        reassign=reassign,
        done=board.just_saved,
        club_table=club_table,
        night_url=club_table and _night_url(crew, club_table["night_id"]),
        table_link=_table_link(token, crew, game),
    )


def _night_url(crew, night_id):
    """Where a night's table goes back to: the organiser's night page by the crew link, else the
    night's leaderboard on its watch link (the table's phones hold no more than their game)."""
    if g.link.kind == CREW:
        return url_for("club_nights.night_show", token=crew["token"], night_id=night_id)
    watch = link_service.token_for(current_app.secret_key, crew["id"], WATCH, night_id=night_id)
    return url_for("club_nights.night_board", token=watch, night_id=night_id)


def _table_link_url(crew, game):
    """The link that brings another phone to this table: a table link, which opens this game's
    play and nothing else of the crew; none once the game is over, nor on a watch link."""
    if game["status"] != "playing" or g.link.kind == WATCH:
        return None
    token = crew["token"] if g.link.kind == TABLE else link_service.token_for(
        current_app.secret_key, crew["id"], TABLE, game_id=game["id"])
    return share_link(url_for("games.game_show", token=token, game_id=game["id"])).url


def _table_link(token, crew, game):
    """The table link and where its QR code is drawn. The code is an image the phone fetches when
    "Bring another phone" is opened: drawn in the scoreboard, it cost each server process 5-15 ms
    a table, and past the codes a process keeps, 5-15 ms a scoreboard."""
    url = _table_link_url(crew, game)
    # The panel's id names the link: a live poll keeps the panel as this phone has it (open, its
    # code loaded) while the link is the same, and shows the new one when the link was replaced.
    return url and {"url": url, "src": url_for("games.table_link_code", token=token, game_id=game["id"]),
                    "id": "table-link-" + hashlib.sha256(url.encode()).hexdigest()[:12]}


@bp.get("/new")
@allow(CREW)
def game_new(token):
    crew = load_crew(token)
    form = GameForm().fill(house_rules(crew))
    return render("games/new.html", crew=crew, form=form, players=crew_service.players(crew["id"]))


@bp.post("")
@allow(CREW)
def game_create(token):
    crew = load_crew(token)
    form = GameForm()
    if form.validate_on_submit():
        try:
            game_id = game_service.start(crew["id"], form.names(), int(form.first_dealer.data), form.house_rules())
        except Refused as refused:
            getattr(form, refused.field).errors.append(refused.sentence)
        else:
            return see_other(url_for("games.game_show", token=token, game_id=game_id))
    return render(
        "games/new.html", "game_form", status=422, crew=crew, form=form,
        players=crew_service.players(crew["id"]),
    )


@bp.get("/<int:game_id>")
@allow(CREW, TABLE, WATCH)
@quick
def game_show(token, game_id):
    # A save comes here with `?saved=N` (see rounds.round_save); app.js takes it off the address.
    return scoreboard_page(token, game_id, just_saved=request.args.get("saved", type=int))


@bp.get("/<int:game_id>/table-link.svg")
@allow(CREW, TABLE)
def table_link_code(token, game_id):
    """The QR code of the table link, as the scoreboard's "Bring another phone" shows it."""
    crew, game = load_game(token, game_id)
    url = _table_link_url(crew, game)
    if url is None:  # the game is over: no code to draw, and a link the app gave out is no guess
        return make_response("", 204)
    return current_app.response_class(qr_svg(url, standalone=True), mimetype="image/svg+xml")


@bp.get("/<int:game_id>/live")
@allow(CREW, TABLE, WATCH)
@live_poll(board=True)
@quick
def game_live(token, game_id):
    """The scoreboard again, only when the game changed since the version the phone shows."""
    if poll_unchanged(token, game_id, board=True):
        return make_response("", 204)
    loaded = load_game(token, game_id)
    me = request.args.get("me")
    if me is not None and str(viewer_for(loaded[1]).seat) != me:
        return scoreboard_page(token, game_id, notice="Your seat was moved to another phone.", loaded=loaded)
    return scoreboard_page(token, game_id, loaded=loaded)


@bp.post("/<int:game_id>/seats/<int:seat>")
@allow(CREW, TABLE)
def seat_take(token, game_id, seat):
    """This phone takes a seat; one that another active phone holds needs `force` (reassigning)."""
    crew, game = load_game(token, game_id)
    if seat not in range(PLAYERS):
        abort(404)
    try:
        phones.take_seat(game, seat, device_id(), force=request.form.get("force") == "1")
    except Refused as refused:
        return scoreboard_page(token, game_id, status=refused.status, notice=refused.sentence, reassign=seat)
    return scoreboard_page(token, game_id)


@bp.post("/<int:game_id>/seats/leave")
@allow(CREW, TABLE)
def seat_leave(token, game_id):
    load_game(token, game_id)
    phones.leave_seat(game_id, device_id())
    return scoreboard_page(token, game_id)


@bp.post("/<int:game_id>/rounds")
@allow(CREW, TABLE)
@quick
def round_start(token, game_id):
    """Open the next round for entry (or go to the one already open)."""
    crew, game = load_game(token, game_id)
    try:
        number = round_service.start_next(game, viewer_for(game))
    except Refused as refused:
        flash(refused.sentence, "warning")
        return see_other(url_for("games.game_show", token=token, game_id=game_id))
    if number is None:
        club_table = night_service.table_of_game(game_id)
        flash("The stage’s time is up: this game ended with the hands played." if stage_clock.time_up(club_table)
              else "The game is over: the night’s leaderboard has the next stage." if club_table
              else "The game is over: start a rematch for another game.", "warning")
        return see_other(url_for("games.game_show", token=token, game_id=game_id))
    return see_other(url_for("rounds.round_show", token=token, game_id=game_id, number=number))


@bp.post("/<int:game_id>/rematch")
@allow(CREW)
def game_rematch(token, game_id):
    """A new game with the same seats and house rules, and the deal moved on one seat. Not for a
    club night's table: its next game is the night's next stage (a rematch would never reach the
    night's leaderboard), so its game-over screen leads back to the night instead."""
    crew, game = load_game(token, game_id)
    club_table = night_service.table_of_game(game_id)
    if club_table is not None:
        return scoreboard_page(token, game_id, status=409, notice=(
            f"This game is table {club_table['table_no']} of {club_table['name']}: no rematch here. "
            "Go back to the night for its next stage."))
    new_id = game_service.rematch(crew["id"], game)
    return see_other(url_for("games.game_show", token=token, game_id=new_id))
