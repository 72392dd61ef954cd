"""The export file's format as one typed model (pydantic, strict: JSON's true is no number, "1" no
count), which parses and checks a file's bytes in one pass in Rust; its first complaint becomes a
sentence naming the game, round and field (RestoreError). What a type cannot say is checked after
it, in `restore_checks`."""
import codecs
import json
from typing import Annotated, Any, Literal, Optional

from pydantic import Field, TypeAdapter, ValidationError, with_config
from typing_extensions import NotRequired, TypedDict

from scoring import MAX_BID, NAME_MAX, NOTE_MAX, PLAYERS, ROUNDS_MAX, SUIT_NAMES, YEARS, club_night
from scoring.season import MAX_SEASONS

from . import columns
from .export import FORMAT, VERSION
from .file_types import STRICT, TEXT_MAX, Name, Note, Seat, Stamp, TableNumber, Text

GAME_STATUSES = ("playing", "finished", "abandoned")
TIMES_MAX = 10**9  # a run of one step logged as one line (a change's `times`)
GAMES_MAX = 10**9
NIGHT_CHANGES_MAX = club_night.MAX_LOG_LINES
SEASON_CHANGES_MAX = 10_000  # a season's log lines and events left out: far beyond a season's worth
SEASON_PLAYERS_MAX = 100_000  # the players a season's logged standings name: every player of a crew
# A night's first log line names everyone it started with: up to 200 names of up to 40 characters.
NIGHT_DETAIL_MAX = TEXT_MAX + club_night.MAX_PLAYERS * (NAME_MAX + 2)


class RestoreError(ValueError):
    """A file that is not a whole, consistent Orchard export; the message says what is wrong."""


class NotJson(RestoreError):
    """The file is not JSON text at all."""

    def __init__(self):
        super().__init__("This file is not JSON: pick the .json export of a crew.")


# --- The file's shape -------------------------------------------------------------------------

# A hand: its columns as `columns` declares them.
Hand = with_config(STRICT)(TypedDict("Hand", columns.HAND_FILE))


class Bid(TypedDict):
    __pydantic_config__ = STRICT
    seat: Seat
    number: Annotated[int, Field(ge=1, le=MAX_BID)]
    suit: Literal[tuple(SUIT_NAMES)]


class Change(TypedDict):
    __pydantic_config__ = STRICT
    at: Stamp
    action: Text
    detail: Optional[Text]
    by: Optional[Text]
    times: NotRequired[Annotated[int, Field(ge=1, lt=TIMES_MAX)]]  # a run of the step (m0015); 1 when left out


class SignOff(TypedDict):
    __pydantic_config__ = STRICT
    seat: Seat
    device: Text
    at: Stamp


# A round: its columns as `columns` declares them, then its bid, hands, changes and sign-offs.
Round = with_config(STRICT)(TypedDict("Round", {
    **columns.ROUND_FILE,
    "bid": Optional[Bid],
    "hands": Annotated[list[Hand], Field(min_length=PLAYERS, max_length=PLAYERS)],
    "changes": list[Change],
    "signoffs": list[SignOff],
}))


class Game(TypedDict):
    __pydantic_config__ = STRICT
    number: Annotated[int, Field(ge=1, le=GAMES_MAX)]
    created: Stamp
    finished: Optional[Stamp]
    first_dealer: Seat
    note: Optional[Note]
    night_note: Optional[Note]
    status: Literal[GAME_STATUSES]
    rules: dict[str, Any]  # read by the engine's HouseRules, which has the words for each rule
    seats: list[Name]
    rounds: list[Round]
    rematch_of: Optional[Annotated[int, Field(ge=1, le=GAMES_MAX)]]


class Player(TypedDict):
    __pydantic_config__ = STRICT
    name: Name
    created: Stamp


class Crew(TypedDict):
    __pydantic_config__ = STRICT
    name: Name
    created: Stamp
    rules: NotRequired[dict[str, Any]]  # read by the engine's HouseRules, as a game's are
    # Files written before the rules were one value carry them here, one key each (restore_checks).
    goal: NotRequired[Any]
    tie_rule: NotRequired[Any]
    min_bid: NotRequired[Any]
    redeal_moves_deal: NotRequired[Any]


class NightPlayer(TypedDict):
    __pydantic_config__ = STRICT
    name: Name
    here: bool
    joined: Stamp


class NightPlace(TypedDict):
    __pydantic_config__ = STRICT
    player: Name
    table: Optional[TableNumber]
    seat: Optional[Seat]


class NightTable(TypedDict):
    __pydantic_config__ = STRICT
    table: TableNumber
    game: Annotated[int, Field(ge=1, le=GAMES_MAX)]


class StageMade(TypedDict):
    __pydantic_config__ = STRICT
    by: Literal["season", "tonight"]
    tables: Annotated[list[Annotated[list[Optional[Annotated[int, Field(ge=1, le=SEASON_PLAYERS_MAX)]]],
                                     Field(min_length=PLAYERS, max_length=PLAYERS)]],
                      Field(max_length=club_night.MAX_PLAYERS // PLAYERS)]


class NightStage(TypedDict):
    __pydantic_config__ = STRICT
    number: Annotated[int, Field(ge=1, le=club_night.MAX_STAGES)]
    status: Literal["planned", "playing"]
    drawn: Stamp
    started: Optional[Stamp]
    # How a night seated by standing made the stage's tables: which standings, each table's places.
    made: NotRequired[StageMade]
    ends_at: NotRequired[Stamp]  # the stage clock's end (m0024), when it has one
    places: Annotated[list[NightPlace], Field(max_length=club_night.MAX_PLAYERS)]
    tables: Annotated[list[NightTable], Field(max_length=club_night.MAX_PLAYERS // PLAYERS)]


class NightChange(TypedDict):
    __pydantic_config__ = STRICT
    at: Stamp
    action: Text
    detail: Annotated[str, Field(max_length=NIGHT_DETAIL_MAX)]  # an older release's words, or ""
    # The line's facts (m0016), each left out when it has none; a file from before has only words.
    stage: NotRequired[Annotated[int, Field(ge=1, le=club_night.MAX_STAGES)]]
    players: NotRequired[Annotated[list[Name], Field(min_length=1, max_length=club_night.MAX_PLAYERS)]]
    # Players, tables or stages; a stage clock's minutes.
    count: NotRequired[Annotated[int, Field(ge=0, le=max(club_night.MAX_PLAYERS, club_night.MAX_CLOCK_MINUTES))]]
    times: NotRequired[Annotated[int, Field(ge=1, lt=TIMES_MAX)]]


class ClubNight(TypedDict):
    """A club night (format and ranking are checked by the rule engine, as when one is made)."""
    __pydantic_config__ = STRICT
    name: Name
    created: Stamp
    format: Text
    stage_hands: Optional[Annotated[int, Field(ge=1, le=club_night.MAX_STAGE_HANDS)]]
    ranking: Text
    seed: Annotated[int, Field(ge=0, le=2**31)]
    seating: NotRequired[Literal[club_night.SEATINGS]]  # "mixed" when left out (files from before m0023)
    season: NotRequired[Annotated[int, Field(ge=1, le=MAX_SEASONS)]]  # its place in the file's seasons
    players: Annotated[list[NightPlayer], Field(max_length=club_night.MAX_PLAYERS)]
    stages: Annotated[list[NightStage], Field(max_length=club_night.MAX_STAGES)]
    changes: Annotated[list[NightChange], Field(max_length=NIGHT_CHANGES_MAX)]


class SeasonLeftOut(TypedDict):
    __pydantic_config__ = STRICT
    game: NotRequired[Annotated[int, Field(ge=1, le=GAMES_MAX)]]
    night: NotRequired[Annotated[int, Field(ge=1, le=GAMES_MAX)]]  # its place in the file's club nights
    reason: Note
    at: Stamp


# A line of the standings as a season's log keeps it: place, name, average as shown.
StandingLine = tuple[Annotated[int, Field(ge=1, le=SEASON_PLAYERS_MAX)], Name, Annotated[str, Field(max_length=8)]]


class SeasonChange(TypedDict):
    __pydantic_config__ = STRICT
    at: Stamp
    action: Literal["opened", "rule", "left out", "counted again"]
    detail: Optional[Text]
    before: Optional[Annotated[list[StandingLine], Field(max_length=SEASON_PLAYERS_MAX)]]
    after: Optional[Annotated[list[StandingLine], Field(max_length=SEASON_PLAYERS_MAX)]]


class Season(TypedDict):
    """A season (its days and rule checked by the engine, as when one is opened)."""
    __pydantic_config__ = STRICT
    name: Name
    created: Stamp
    first_day: Annotated[str, Field(max_length=10)]
    last_day: Optional[Annotated[str, Field(max_length=10)]]
    best: Optional[int]
    minimum: int
    left_out: Annotated[list[SeasonLeftOut], Field(max_length=SEASON_CHANGES_MAX)]
    changes: Annotated[list[SeasonChange], Field(max_length=SEASON_CHANGES_MAX)]


class Export(TypedDict):
    __pydantic_config__ = STRICT
    format: Literal[FORMAT]
    version: Literal[VERSION]
    crew: Crew
    players: list[Player]
    games: list[Game]
    club_nights: NotRequired[list[ClubNight]]
    seasons: NotRequired[Annotated[list[Season], Field(max_length=MAX_SEASONS)]]


_EXPORT = TypeAdapter(Export)


# --- From pydantic's complaint to a sentence -----------------------------------------------------

_STAMP_HINT = f" (a date and time with its UTC offset, in the years {YEARS[0]} to {YEARS[-1]})"
_NOTE_HINT = f" (text of at most {NOTE_MAX} characters, no control characters)"
_HINTS = {"name": f" (1 to {NAME_MAX} characters)", "note": _NOTE_HINT, "night_note": _NOTE_HINT, "target": " (a card such as 10S or QH)",
          "won": " (cards such as 10S or QH)", "counts": " (ranks 2 to 10, J, Q, K, A, each with a count)",
          **dict.fromkeys(("created", "finished", "updated", "done", "at"), _STAMP_HINT)}
_PARTS = {"bid": ": the bid", "hands": ": a hand", "changes": ": a change", "signoffs": ": a sign-off"}


def _message(error, data):
    """The first thing `error` (pydantic's) finds wrong, in a sentence naming where it is; `data`
    is the file as plain JSON, read for the names of games and rounds."""
    loc = error["loc"]
    if not loc or loc[0] == "format":
        return "This is not an Orchard crew export (a .json file from a crew's History page)."
    if loc[0] == "version":
        return f"This export is version {str(data.get('version'))[:20]!r}; this server reads version {VERSION}."
    if loc[0] in ("crew", "players"):
        what = "The crew" if loc[0] == "crew" else "A player"
        if loc[0] == "players" and len(loc) == 1:
            return "The export has no list of players."
        rest = loc[1:] if loc[0] == "crew" else loc[2:]
        return _no_proper(what, rest)
    if loc[0] in ("club_nights", "seasons"):
        what = "A club night" if loc[0] == "club_nights" else "A season"
        return _no_proper(what, [part for part in loc[2:] if not isinstance(part, int)][-1:])
    if len(loc) == 1:
        return "The export has no list of games."
    if len(loc) == 2 or loc[2] == "number":
        return "Each game needs a number of its own."
    game = data["games"][loc[1]]
    where = f"Game {game['number']}"
    if loc[2] == "seats" and len(loc) > 3:
        return f"{where} needs four different players."
    if loc[2] != "rounds" or len(loc) == 3:
        return _no_proper(where, loc[2:])
    entry = game["rounds"][loc[3]]
    if len(loc) == 4 or loc[4] == "number":
        number = entry.get("number") if isinstance(entry, dict) else None
        if type(number) is int and number > ROUNDS_MAX:
            return f"{where} has a round numbered over {ROUNDS_MAX:,}: a game may have {ROUNDS_MAX:,} rounds at most."
        return f"{where} has a round without a proper number."
    where = f"{where}, round {entry['number']}"
    if loc[4] in _PARTS and len(loc) > 5:  # inside the bid, or an item of a list
        return _no_proper(where + _PARTS[loc[4]], loc[5 if loc[4] == "bid" else 6:])
    return _no_proper(where, loc[4:])


def _no_proper(what, rest):
    if not rest:
        return f"{what} is missing or damaged."
    key = rest[0]
    return f"{what} has no proper {str(key).replace('_', ' ')}{_HINTS.get(key, '')}."


def typed(raw):
    """The file's bytes as the typed model's value (plain dicts and lists), or RestoreError."""
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8):]
    try:
        return _EXPORT.validate_json(raw)
    except ValidationError as invalid:
        first = invalid.errors(include_url=False, include_context=False)[0]
        if first["type"] == "json_invalid":
            if "surrogate" in first["msg"] or "hex escape" in first["msg"]:
                # "\ud800" alone: JSON allows it, Unicode text cannot hold it.
                raise RestoreError("The file holds text that is not proper Unicode.") from None
            raise NotJson() from None
        try:
            message = _message(first, json.loads(raw))
        except (LookupError, TypeError):  # the place cannot be named: the fault still can
            message = f"The export is incomplete or damaged (at {'/'.join(map(str, first['loc']))[:200]})."
        raise RestoreError(message) from None
