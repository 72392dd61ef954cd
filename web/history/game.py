"""One game as recorded: standings, the running-totals chart, every saved round read-only with
its bid, trump, targets and breakdowns; its note; abandoning and resuming."""
from flask import flash, make_response, url_for

from web.access import CREW, WATCH, allow
from web import charts
from web import result_card
from web.colours import game_colours
from scoring.entries import hand_score
from scoring import format_points, highlight
from services import history as history_service
from services.refusals import Refused

from . import bp
from ..filters import night_date
from .forms import NoteForm
from .notes import note_answer
from ..lookup import load_game
from ..render import render, see_other, wants_fragment


@bp.get("/c/<token>/history/games/<int:game_id>")
@allow(CREW)
def game_record_show(token, game_id):
    crew, game = load_game(token, game_id)
    return _record(crew, game)


def _record(crew, game, status=200, refusal=None):
    """The game's record; `refusal` is said under the abandon or resume button it answers."""
    record = history_service.game_record(crew, game)
    rounds, standing = record.rounds, record.standing
    response = render(
        "history/game.html",
        "content" if refusal else None,
        status=status,
        refusal=refusal,
        final_night=history_service.final_night(game),
        crew=crew,
        game=game,
        seats=record.seats,
        rating_changes=record.rating_changes,
        rounds=rounds,
        breakdowns={row["id"]: [hand_score(hand) for hand in row["hands"]]
                    for row in rounds},
        standing=standing,
        chart=charts.running_totals_chart(game["names"], standing.running, game["goal"], game_colours(game)),
        chart_rows=[[row["number"], *(format_points(total) for total in running)]
                    for row, running in zip(rounds, standing.running)],
        note=record.note,
        note_form=NoteForm(formdata=None),
        highlight=result_card.highlight_words(highlight(standing.running, standing.result.winners), game["names"])
        if game["status"] == "finished" else "",
    )
    if refusal and wants_fragment():  # the button's form asked: the page's main area says why
        response.headers["HX-Retarget"], response.headers["HX-Reswap"] = "#main", "innerHTML"
    return response


@bp.post("/c/<token>/history/games/<int:game_id>/note")
@allow(CREW)
def game_note_update(token, game_id):
    crew, game = load_game(token, game_id)
    return note_answer(crew, "game", game_id,
                       url_for("history.game_record_show", token=token, game_id=game_id))


@bp.post("/c/<token>/history/games/<int:game_id>/abandon")
@allow(CREW)
def game_abandon(token, game_id):
    """Stop a game without a winner: it stays in the history, read-only, out of the stats."""
    crew, game = load_game(token, game_id)
    try:
        if history_service.abandon(game):
            flash("Game abandoned. It stays in the history; resume it from here at any time.")
    except Refused as refused:
        return _record(crew, game, refused.status, refused.sentence)
    return see_other(url_for("history.game_record_show", token=token, game_id=game_id))


@bp.post("/c/<token>/history/games/<int:game_id>/resume")
@allow(CREW)
def game_resume(token, game_id):
    """Put an abandoned game back in play and go to its scoreboard."""
    crew, game = load_game(token, game_id)
    try:
        history_service.resume(game)
    except Refused as refused:
        return _record(crew, game, refused.status, refused.sentence)
    return see_other(url_for("games.game_show", token=token, game_id=game_id))


@bp.get("/c/<token>/games/<int:game_id>/card.png")
@allow(CREW, WATCH)
def game_card_show(token, game_id):
    """The finished game's result as a PNG card to share; it carries the crew's name, not its link."""
    crew, game = load_game(token, game_id)
    if game["status"] != "finished":
        response = make_response("This game is not finished: its result card comes with its winner.\n", 409)
        response.mimetype = "text/plain"
        return response
    standing = history_service.final_standing(game)
    png = result_card.draw(result_card.CardGame(
        crew_name=crew["name"], date=night_date(game["created"]), goal=game["goal"],
        names=tuple(game["names"]), totals=tuple(standing.totals), order=tuple(standing.order),
        winners=tuple(standing.result.winners), running=tuple(tuple(r) for r in standing.running),
        highlight=result_card.highlight_words(highlight(standing.running, standing.result.winners), game["names"]),
        colours=tuple(game_colours(game)),
    ))
    response = make_response(png)
    response.mimetype = "image/png"
    response.headers["Content-Disposition"] = f'inline; filename="orchard-game-{game_id}.png"'
    return response
