"""New games, the scoreboard, starting the next round, and the rematch."""
from flask import Blueprint, abort, flash, url_for

import tally
from forms import ActionForm, GameForm
from store import crews as crew_store
from store import games as game_store
from store import rounds as round_store
from store import write

from .crews import load_crew
from .render import render, see_other

bp = Blueprint("games", __name__, url_prefix="/c/<token>/games")


def load_game(token, game_id):
    crew = load_crew(token)
    game = game_store.game(crew["id"], game_id)
    if game is None:
        abort(404)
    return crew, game


def scoreboard_context(token, game_id):
    crew, game = load_game(token, game_id)
    saved = round_store.scored(game_id)
    return {
        "crew": crew,
        "game": game,
        "rounds": saved,
        "standing": tally.standing(game, saved),
        "rules": tally.house_rules(game),
        "open_round": round_store.open_round(game_id),
        "action_form": ActionForm(),
    }


@bp.get("/new")
def game_new(token):
    crew = load_crew(token)
    form = GameForm().fill(tally.house_rules(crew))
    return render("games/new.html", crew=crew, form=form, players=crew_store.players(crew["id"]))


@bp.post("")
def game_create(token):
    crew = load_crew(token)
    form = GameForm()
    if not form.validate_on_submit():
        return render(
            "games/new.html", "game_form", status=422, crew=crew, form=form,
            players=crew_store.players(crew["id"]),
        )
    game_id = game_store.create_game(
        crew["id"], form.names(), int(form.first_dealer.data), form.house_rules()
    )
    return see_other(url_for("games.game_show", token=token, game_id=game_id))


@bp.get("/<int:game_id>")
def game_show(token, game_id):
    return render("games/show.html", "scoreboard", **scoreboard_context(token, game_id))


@bp.post("/<int:game_id>/rounds")
def round_start(token, game_id):
    """Open the next round for entry (or go to the one already open)."""
    crew, game = load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)
    with write() as db:
        saved = round_store.scored(game_id, db)
        standing = tally.standing(game, saved)
        if standing.result.over:
            flash("The game is over: start a rematch for another game.")
            return see_other(url_for("games.game_show", token=token, game_id=game_id))
        open_rows = list(
            db.query(
                "SELECT number FROM rounds WHERE game_id = ? AND number = ? AND status = 'entering'",
                [game_id, standing.next_number],
            )
        )
        if not open_rows:
            round_store.start(db, game_id, standing.next_number, standing.next_dealer)
    return see_other(
        url_for("rounds.round_show", token=token, game_id=game_id, number=standing.next_number)
    )


@bp.post("/<int:game_id>/rematch")
def game_rematch(token, game_id):
    """A new game with the same seats and house rules, and the deal moved on one seat."""
    crew, game = load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)
    new_id = game_store.create_game(
        crew["id"], game["names"], (game["first_dealer"] + 1) % 4, tally.house_rules(game),
        rematch_of=game_id,
    )
    return see_other(url_for("games.game_show", token=token, game_id=new_id))
