"""The history's forms: a search (a GET question, no CSRF), notes, renaming, merging, restoring."""

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import DateField, PasswordField, SelectField, StringField
from wtforms.validators import Optional, ValidationError

from web.fields import check_name
from scoring import NOTE_MAX
from scoring import notes as note_rule



def _player_id(value):
    return int(value) if value not in (None, "") else None


class SearchForm(FlaskForm):
    """Find games by player, by date range, and by who finished ahead of whom."""

    class Meta:
        csrf = False  # it only asks a question

    player = SelectField("Player", coerce=_player_id, validators=[Optional()])
    since = DateField("From", validators=[Optional()])
    until = DateField("To", validators=[Optional()])
    ahead = SelectField("Games where", coerce=_player_id, validators=[Optional()])
    behind = SelectField("finished ahead of", coerce=_player_id, validators=[Optional()])

    def offer(self, players):
        choices = [("", "anyone")] + [(p["id"], p["name"]) for p in players]
        for field in (self.player, self.ahead, self.behind):
            field.choices = choices
        return self

    def validate(self, extra_validators=None):
        ok = super().validate(extra_validators)
        if ok and self.since.data and self.until.data and self.since.data > self.until.data:
            self.until.errors.append("The end date is before the start date.")
            ok = False
        if ok and (self.ahead.data is None) != (self.behind.data is None):
            missing = self.behind if self.behind.data is None else self.ahead
            missing.errors.append("Pick both players to compare.")
            ok = False
        if ok and self.ahead.data is not None and self.ahead.data == self.behind.data:
            self.behind.errors.append("Pick two different players.")
            ok = False
        return ok


def check_note(form, field):
    """The one rule for a note (`scoring.notes`): the field keeps the note as kept."""
    if not isinstance(field.data, str | None):
        raise ValidationError("A note is text.")
    field.data = note_rule.clean(field.data)
    sentence = note_rule.problem(field.data)
    if len(field.data) > NOTE_MAX:
        field.data = field.data[:NOTE_MAX]  # the form shows it again: only an excerpt
    if sentence:
        raise ValidationError(sentence)


class NoteForm(FlaskForm):
    text = StringField("Note", validators=[check_note])


class RenameForm(FlaskForm):
    name = StringField("New name", validators=[check_name])  # the one rule (scoring.names)


class MergeForm(FlaskForm):
    other = SelectField("Same person as", coerce=_player_id,
                        validators=[Optional()])

    def offer(self, players, keep_id):
        self.other.choices = [("", "— pick a player —")] + [
            (p["id"], p["name"]) for p in players if p["id"] != keep_id
        ]
        return self

    def validate(self, extra_validators=None):
        ok = super().validate(extra_validators)
        if ok and self.other.data is None:
            self.other.errors.append("Pick the player to merge in.")
            ok = False
        return ok


class RestoreForm(FlaskForm):
    file = FileField("Crew export (.json)", validators=[FileRequired("Pick the .json file to restore.")])
    # Asked only when the server has a passphrase (ORCHARD_PASSPHRASE): a restore starts a crew.
    passphrase = PasswordField("Server passphrase")


class RatingsSettingForm(FlaskForm):
    """Switch the crew's ratings on or off."""

    ratings = StringField("Ratings")

    def validate_ratings(self, field):
        if field.data not in ("on", "off"):
            raise ValidationError("Ratings are either on or off.")
