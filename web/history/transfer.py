"""Export a crew's history or one game as CSV and JSON, and restore a JSON export as a new crew."""
import re

from flask import Response, flash, stream_with_context, url_for

from web.access import CREW, PUBLIC, allow
from web import security
from services import transfer as transfer_service
from services.refusals import Refused

from . import bp
from .forms import RestoreForm
from ..lookup import load_crew, load_game
from ..render import render, see_other


def _filename(crew, what, extension):
    slug = re.sub(r"[^a-z0-9]+", "-", crew["name"].lower()).strip("-") or "crew"
    return f"orchard-{slug}-{what}.{extension}"


def _download(body, mimetype, filename):
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _csv(crew, what, game_id=None):
    chunks = stream_with_context(transfer_service.csv_chunks(crew["id"], game_id))
    return _download(chunks, "text/csv", _filename(crew, what, "csv"))


def _json(crew, what, game_id=None):
    body = transfer_service.json_text(crew["id"], game_id)
    return _download(body, "application/json", _filename(crew, what, "json"))


@bp.get("/c/<token>/history/export.csv")
@allow(CREW)
def history_export_csv(token):
    """One row per player per counted round, every game of the crew."""
    crew = load_crew(token)
    return _csv(crew, "history")


@bp.get("/c/<token>/history/export.json")
@allow(CREW)
def history_export_json(token):
    """Everything needed to restore the crew elsewhere (but not its link)."""
    crew = load_crew(token)
    return _json(crew, "history")


@bp.get("/c/<token>/games/<int:game_id>/export.csv")
@allow(CREW)
def game_export_csv(token, game_id):
    crew, game = load_game(token, game_id)
    return _csv(crew, f"game-{game_id}", game_id)


@bp.get("/c/<token>/games/<int:game_id>/export.json")
@allow(CREW)
def game_export_json(token, game_id):
    crew, game = load_game(token, game_id)
    return _json(crew, f"game-{game_id}", game_id)


@bp.get("/restore")
@allow(PUBLIC)
def restore_show():
    return render("history/restore.html", form=RestoreForm(), crew=None)


@bp.post("/restore")
@allow(PUBLIC)
def restore_create():
    """A JSON export becomes a new crew with its own new link; nothing else is touched."""
    form = RestoreForm()
    valid = form.validate_on_submit()
    refusal = security.passphrase_refusal(form.passphrase.data)
    if refusal:
        status = refusal.status
        form.passphrase.errors = [refusal.sentence]
        return render("history/restore.html", "restore_form", status=status, form=form, crew=None)
    if valid:
        reservation = security.reserve_new_crew()
        if reservation is None:
            form.file.errors.append(security.TOO_MANY_CREWS)
            return render("history/restore.html", "restore_form", status=429, form=form, crew=None)
        try:
            crew = transfer_service.restore(form.file.data.read())
        except Refused as refused:
            security.release_new_crew(reservation)  # a refused file starts no crew
            form.file.errors.append(refused.sentence)
        else:
            games = crew["games"]
            flash(f"{crew['name']} is restored with {games} game{'' if games == 1 else 's'}, "
                  "at a new link of its own. Bookmark it or show the QR code on the crew page.")
            return see_other(url_for("history.history_list", token=crew["token"]))
    return render("history/restore.html", "restore_form", status=422, form=form, crew=None)
