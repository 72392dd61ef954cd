"""A round's page, saving a round, and what happens to saved rounds: correction, undo, restore."""
from flask import Blueprint, abort, flash, make_response, url_for

import tally
from forms import ActionForm, SaveForm
from scoring import GameError
from store import games as game_store
from store import rounds as round_store
from store import seats as seat_store
from store import write
from store.rounds import RoundConflict

from .lookup import load_game
from .render import see_other
from .round_page import has_saved, round_page
from .viewer import unchanged_since_shown, viewer_for

bp = Blueprint("rounds", __name__, url_prefix="/c/<token>/games/<int:game_id>/rounds/<int:number>")


@bp.get("")
def round_show(token, game_id, number):
    return round_page(token, game_id, number)


@bp.get("/live")
def round_live(token, game_id, number):
    """The round again, only when the game changed since the version the phone shows."""
    load_game(token, game_id)
    if unchanged_since_shown(game_id):
        return make_response("", 204)
    return round_page(token, game_id, number)


@bp.post("/agree")
def round_agree(token, game_id, number):
    """A seated player agrees to their own score in a saved round."""
    crew, game = load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)
    viewer = viewer_for(game)
    if viewer.seat is None:
        return round_page(token, game_id, number, status=403, notice="Take a seat to agree to your score.")
    with write() as db:
        saved = [row for row in round_store.scored(game_id, db) if row["number"] == number]
        if not saved:
            abort(404)
        seat_store.agree(db, saved[0]["id"], viewer.seat, viewer.device)
        round_store.log(db, saved[0]["id"], "agreed", by=viewer.label(game["names"]))
        round_store.touch(db, saved[0]["id"])
    return round_page(token, game_id, number)


@bp.get("/hands/<int:seat>")
def hand_show(token, game_id, number, seat):
    return round_page(token, game_id, number, seat=seat)


@bp.post("/save")
def round_save(token, game_id, number):
    crew, game = load_game(token, game_id)
    form = SaveForm()
    if not form.validate_on_submit():
        return round_page(token, game_id, number, status=422, notice="Reload the page and save again.")
    try:
        with write() as db:
            entry = round_store.lock_open_number(db, game_id, number)
            if entry["version"] != form.version.data:
                raise RoundConflict()
            problems = save_if_complete(db, game, entry, _by(game))
    except GameError as error:
        # A correction that would end the game before rounds already saved after it.
        return round_page(
            token, game_id, number, status=409,
            notice=f"{error}: undo the later rounds first, then save this correction.",
        )
    except RoundConflict:
        return round_page(
            token, game_id, number, status=409,
            notice=f"Round {number} changed on another phone before this save: nothing was "
            "overwritten. Check what is stored now, then save again if needed.",
        )
    if problems:
        return round_page(
            token, game_id, number, status=422,
            notice="This round cannot be saved yet: fix the problems below.",
        )
    flash(f"Round {number} saved.")
    return see_other(url_for("games.game_show", token=token, game_id=game_id))


def save_if_complete(db, game, entry, by):
    """Save the open round if the engine finds no problem (in the caller's transaction), and
    return the problems; GameError if the scores would end the game before later rounds."""
    problems = tally.problems(entry, game["names"])
    if not problems:
        round_store.mark_saved(db, entry, tally.scores_to_save(entry), by)
        _update_result(db, game)
    return problems


def _update_result(db, game):
    """Recompute the game's verdict inside the same transaction as the change that moves it."""
    saved = round_store.scored(game["id"], db)
    result = tally.standing(game, saved).result
    game_store.set_result(db, game["id"], result.over, result.winners)


def _by(game):
    """Who makes a change, for the round's history."""
    return viewer_for(game).label(game["names"])


@bp.post("/correct")
def correction_create(token, game_id, number):
    """Open a pre-filled copy of a saved round; the saved one stays until the copy is saved."""
    crew, game = load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)
    with write() as db:
        rows = list(
            db.query(
                "SELECT id, status FROM rounds WHERE game_id = ? AND number = ?"
                " AND status IN ('scored', 'entering')",
                [game_id, number],
            )
        )
        statuses = {row["status"]: row["id"] for row in rows}
        if "scored" not in statuses:
            abort(404)
        if "entering" not in statuses:
            round_store.start_correction(db, round_store.load(statuses["scored"], db), _by(game))
    return see_other(url_for("rounds.round_show", token=token, game_id=game_id, number=number))


@bp.post("/discard")
def correction_discard(token, game_id, number):
    """Drop a correction in progress; the saved round is untouched."""
    crew, game = load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)
    with write() as db:
        if has_saved(game_id, number):
            try:
                entry = round_store.lock_open_number(db, game_id, number)
                round_store.set_status(db, entry["id"], "discarded", "correction discarded", _by(game))
            except RoundConflict:
                pass
    return see_other(url_for("rounds.round_show", token=token, game_id=game_id, number=number))


@bp.post("/delete")
def round_delete(token, game_id, number):
    """Undo the last saved round; it is kept and can be restored."""
    crew, game = load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)
    with write() as db:
        saved = round_store.scored(game_id, db)
        if not saved or saved[-1]["number"] != number:
            return round_page(token, game_id, number, status=409, notice="Only the last round can be undone.")
        round_store.set_status(db, saved[-1]["id"], "deleted", "undone", _by(game))
        _update_result(db, game)
    flash(f"Round {number} undone. You can restore it from its page.")
    return see_other(url_for("games.game_show", token=token, game_id=game_id))


@bp.post("/restore")
def round_restore(token, game_id, number):
    crew, game = load_game(token, game_id)
    ActionForm().validate_on_submit() or abort(400)
    with write() as db:
        entry = round_store.for_number(game_id, number)
        saved = round_store.scored(game_id, db)
        busy = list(
            db.query(
                "SELECT 1 FROM rounds WHERE game_id = ? AND number >= ? AND status = 'entering'",
                [game_id, number],
            )
        )
        if entry is None or entry["status"] != "deleted" or len(saved) != number - 1 or busy:
            return round_page(
                token, game_id, number, status=409,
                notice="This round cannot be restored: another round has taken its place.",
            )
        round_store.set_status(db, entry["id"], "scored", "restored", _by(game))
        _update_result(db, game)
    flash(f"Round {number} restored.")
    return see_other(url_for("games.game_show", token=token, game_id=game_id))
