"""The history list: game nights newest first, a search, and a short note on a night."""
from flask import abort, request, url_for

from web.access import CREW, allow
from services import history as history_service
from services import players as player_service

from . import bp
from .common import real_id
from .forms import NoteForm, SearchForm
from .notes import note_answer
from ..lookup import load_crew
from ..render import render


@bp.get("/c/<token>/history")
@allow(CREW)
def history_list(token):
    """Nights newest first; with a search, only the nights and games that match."""
    crew = load_crew(token)
    players = player_service.crew_players(crew["id"])
    form = SearchForm(formdata=request.args).offer(players)
    valid = form.validate()
    search = _search(form) if valid else {}
    page = request.args.get("page", 1, type=int)
    if page < 1:
        abort(404)
    nights = history_service.nights(crew["id"], page, **search)
    asked = {key: value for key, value in request.args.items() if key != "page" and value}
    return render(
        "history/list.html",
        "results",
        status=200 if valid else 422,
        crew=crew,
        form=form,
        players=players,
        listing=nights.listing,
        page=page,
        searching=nights.searching,
        page_url=lambda n: url_for("history.history_list", token=token, page=n, **asked),
        note_form=NoteForm(formdata=None),
    )


def _search(form):
    """What a valid search form asks, as history_service.nights takes it."""
    return {"player": form.player.data, "since": form.since.data, "until": form.until.data,
            "ahead": form.ahead.data, "behind": form.behind.data}


@bp.post("/c/<token>/history/nights/<int:first_game_id>/note")
@allow(CREW)
def night_note_update(token, first_game_id):
    """A short note on a night ("at Dana's, 3 bottles of cider"); an empty note removes it.
    A night of history is known by the first game played that day (not a club night's id)."""
    crew = load_crew(token)
    if not history_service.is_night(crew["id"], real_id(first_game_id)):
        abort(404)
    return note_answer(crew, "night", first_game_id, url_for("history.history_list", token=token))
