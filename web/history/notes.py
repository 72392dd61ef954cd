"""Saving a note on a game or a night: the note box again for htmx, else back to the page."""
from flask import flash, url_for

from services import history as history_service

from .forms import NoteForm
from ..render import render, see_other, wants_fragment


def note_url(crew, kind, subject_id):
    if kind == "night":
        return url_for("history.night_note_update", token=crew["token"], first_game_id=subject_id)
    return url_for("history.game_note_update", token=crew["token"], game_id=subject_id)


def note_answer(crew, kind, subject_id, back):
    form = NoteForm()
    context = {"crew": crew, "kind": kind, "subject_id": subject_id, "back": back,
               "action": note_url(crew, kind, subject_id)}
    if not form.validate_on_submit():
        return render("history/note.html", "note", status=422, form=form,
                      note=form.text.data, **context)
    note = history_service.save_note(crew["id"], kind, subject_id, form.text.data)
    if wants_fragment():
        return render("history/note.html", "note", form=NoteForm(formdata=None),
                      note=note, saved=True, **context)
    flash("Note saved." if note else "Note removed.")
    return see_other(back)
