"""Players: everyone's record, a page per player with their numbers and finishing totals,
head-to-head between two players, renaming, and merging two players who are one person."""
from flask import abort, flash, url_for

from web.access import CREW, allow
from web import charts
from scoring import ratings
from scoring import format_points
from scoring.rounding import tenths
from services import players as player_service
from services.refusals import Refused

from . import bp
from ..filters import short_date
from .common import real_id
from .forms import MergeForm, RenameForm
from ..lookup import load_crew
from ..render import render, see_other


def load_player(token, player_id):
    """The crew and its player; another crew's player is a plain 404."""
    crew = load_crew(token)
    player = player_service.find(crew["id"], real_id(player_id))
    if player is None:
        abort(404)
    return crew, player


@bp.get("/c/<token>/players")
@allow(CREW)
def players_list(token):
    crew = load_crew(token)
    return render("history/players.html", crew=crew, players=player_service.overview(crew["id"]))


@bp.get("/c/<token>/players/<int:player_id>")
@allow(CREW)
def player_show(token, player_id):
    crew, player = load_player(token, player_id)
    return player_page(crew, player)


def _dated(rows):
    """Rows with a "created" time, each with its short local date as "date" (the charts' labels)."""
    return [{**row, "date": short_date(row["created"])} for row in rows]


def player_page(crew, player, status=200, rename_form=None, merge_form=None, block=None):
    page = player_service.player_page(crew, player)
    recent = _dated(page.recent)
    rated = _dated(page.ratings)
    return render(
        "history/player.html",
        block,
        status=status,
        crew=crew,
        player=player,
        summary=page.summary,
        extremes=page.extremes,
        form_games=page.form_games,
        chart=charts.finishing_totals_chart(player["name"], recent),
        chart_rows=[[game["date"], format_points(game["total"]), "won" if game["won"] else
                     f"place {game['place']}"] for game in recent[::-1]],
        rating=rated[-1] if rated else None,
        rating_text=ratings.in_words(rated[-1]["mu"], rated[-1]["sigma"], rated[-1]["games"]) if rated else None,
        rating_chart=charts.rating_chart(player["name"], rated) if rated else None,
        rating_rows=[[change["date"], tenths(change["mu"]), ratings.in_words(
            change["mu"], change["sigma"], change["games"])] for change in rated[::-1]],
        shown_after=ratings.SHOWN_AFTER,
        others=page.others,
        rename_form=rename_form or RenameForm(formdata=None, name=player["name"]),
        merge_form=merge_form or MergeForm(formdata=None).offer(page.players, player["id"]),
    )


@bp.get("/c/<token>/players/<int:player_id>/vs/<int:other_id>")
@allow(CREW)
def versus_show(token, player_id, other_id):
    crew, player = load_player(token, player_id)
    versus = player_service.versus(crew["id"], player_id, real_id(other_id))
    if versus is None:
        abort(404)
    return render(
        "history/versus.html",
        crew=crew,
        player=player,
        other=versus.other,
        duel=versus.duel,
    )


@bp.post("/c/<token>/players/<int:player_id>/rename")
@allow(CREW)
def player_rename(token, player_id):
    crew, player = load_player(token, player_id)
    form = RenameForm()
    if form.validate_on_submit():
        try:
            player_service.rename(crew["id"], player_id, form.name.data)
        except Refused as refused:
            form.name.errors.append(refused.sentence)
        else:
            flash(f"{player['name']} is now called {form.name.data}.")
            return see_other(url_for("history.player_show", token=token, player_id=player_id))
    return player_page(crew, player, status=422, rename_form=form, block="rename")


@bp.post("/c/<token>/players/<int:player_id>/merge")
@allow(CREW)
def player_merge(token, player_id):
    """Fold another player (the same person under another name) into this one."""
    crew, player = load_player(token, player_id)
    form = MergeForm().offer(player_service.crew_players(crew["id"]), player_id)
    if form.validate_on_submit():
        try:
            merged = player_service.merge(crew["id"], player_id, form.other.data)
        except Refused as refused:
            form.other.errors.append(refused.sentence)
            return player_page(crew, player, status=refused.status, merge_form=form, block="merge")
        games = "1 game" if merged.games == 1 else f"{merged.games} games"
        flash(f"{merged.other['name']} merged into {player['name']}: {games} moved, nothing lost.")
        return see_other(url_for("history.player_show", token=token, player_id=player_id))
    return player_page(crew, player, status=422, merge_form=form, block="merge")
