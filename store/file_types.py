"""The types of the values an export file holds (pydantic, strict: JSON's true is no number, "1"
no count). A table's columns are declared with them in `columns`, and the file's model in
`export_format` is built from those declarations."""
import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, ConfigDict, Field

from scoring import CARD_CODES, MODES, NAME_MAX, NOTE_MAX, PLAYERS, RANKS, ROUNDS_MAX, YEARS, club_night
from scoring import names as name_rule
from scoring import notes as note_rule

ROUND_STATUSES = ("entering", "scored", "replaced", "deleted", "discarded")
TEXT_MAX = 2000  # any text the app writes (a change's detail, a device id) is far shorter
STAMP_MAX = 40
STRICT = ConfigDict(strict=True)


def _stamp(value):
    """A time as the app stores it: ISO 8601 with its offset from UTC, in a year pages can show."""
    when = datetime.datetime.fromisoformat(value)
    if when.utcoffset() is None or when.year not in YEARS:
        raise ValueError("not a time the app writes")
    return value


def _name(value):
    """A crew's, player's or night's name by the one rule the forms follow (`scoring.names`), as
    the rule shows it."""
    name = name_rule.clean(value)
    if name_rule.problem(name):
        raise ValueError("not a name the app writes")
    return name


def _note(value):
    """A note by the one rule the note form follows (`scoring.notes`), kept as the form keeps it."""
    note = note_rule.clean(value)
    if note_rule.problem(note):
        raise ValueError("not a note the app writes")
    return note


Stamp = Annotated[str, Field(max_length=STAMP_MAX), AfterValidator(_stamp)]
Name = Annotated[str, Field(min_length=1, max_length=NAME_MAX), AfterValidator(_name)]
Text = Annotated[str, Field(max_length=TEXT_MAX)]
Note = Annotated[str, Field(max_length=NOTE_MAX), AfterValidator(_note)]
Seat = Annotated[int, Field(ge=0, le=PLAYERS - 1)]
TableNumber = Annotated[int, Field(ge=1, le=club_night.MAX_PLAYERS // PLAYERS)]
# A round's number, a revision of it, how often it was dealt again: all bounded by the engine's limit.
RoundCount = Annotated[int, Field(ge=1, le=ROUNDS_MAX)]
Redeals = Annotated[int, Field(ge=0, le=ROUNDS_MAX)]
RoundStatus = Literal[ROUND_STATUSES]
Mode = Literal[MODES]
# A card as the app stores it ("10S", "QH"): what a player types is read by the engine when it is
# entered, and only its code is kept.
Card = Literal[tuple(sorted(CARD_CODES))]
Cards = Annotated[list[Card], Field(max_length=len(CARD_CODES))]
Count = Annotated[int, Field(ge=0, le=len(CARD_CODES))]
Counts = dict[Literal[RANKS], Count]  # a pile entered by counts: how many of each rank
