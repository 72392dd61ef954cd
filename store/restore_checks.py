"""What a crew's export file must hold to be restored.

Two layers, each written once:
  - `Export`, a typed model of the file (pydantic, strict: JSON's true is no number, "1" no
    count). pydantic parses and checks the bytes in one pass in Rust; its first complaint is
    put into a sentence that names the game, round and field (`_message`).
  - what a type cannot say, in Python: the rounds of a game numbered 1, 2, 3 …, its players
    listed, and every revision that was ever saved passing the same round check as a live save,
    in the engine's words. Every cached value (scores, bonuses, the verdict) is recomputed by
    the rule engine.
Used by the restore's child process (`store.restore`); RestoreError names the first thing wrong.
"""
import codecs
import datetime
import json
import operator
import unicodedata
from typing import Annotated, Any, Literal, NamedTuple, Optional

from pydantic import AfterValidator, ConfigDict, Field, TypeAdapter, ValidationError
from typing_extensions import NotRequired, TypedDict

from scoring import (CARD_CODES, MAX_BID, MODES, NAME_MAX, NOTE_MAX, PLAYERS, RANKS, SUIT_NAMES, YEARS, GameError,
                     HouseRules, game_result)

from .export import FORMAT, VERSION
from .rounds import engine_hand, hand_score, round_problems
from .stats import bonus_of

ROUND_STATUSES = ("entering", "scored", "replaced", "deleted", "discarded")
GAME_STATUSES = ("playing", "finished", "abandoned")
SAVED_ONCE = ("scored", "replaced", "deleted")  # revisions that passed the round check once
TEXT_MAX = 2000  # any text the app writes (a change's detail, a device id) is far shorter
STAMP_MAX = 40
ROUNDS_MAX = 100_000
GAMES_MAX = 10**9


class RestoreError(ValueError):
    """A file that is not a whole, consistent Orchard export; the message says what is wrong."""


class NotJson(RestoreError):
    """The file is not JSON text at all."""

    def __init__(self):
        super().__init__("This file is not JSON: pick the .json export of a crew.")


# --- The file's shape -------------------------------------------------------------------------

def _stamp(value):
    """A time as the app stores it: ISO 8601 with its offset from UTC, in a year pages can show."""
    when = datetime.datetime.fromisoformat(value)
    if when.utcoffset() is None or when.year not in YEARS:
        raise ValueError("not a time the app writes")
    return value


def _name(value):
    """A crew's or player's name as the forms allow it: no control characters, no runs of spaces."""
    if value != " ".join(value.split()) or any(unicodedata.category(ch).startswith("C") for ch in value):
        raise ValueError("not a name the app writes")
    return value


Stamp = Annotated[str, Field(max_length=STAMP_MAX), AfterValidator(_stamp)]
Name = Annotated[str, Field(min_length=1, max_length=NAME_MAX), AfterValidator(_name)]
Text = Annotated[str, Field(max_length=TEXT_MAX)]
Note = Annotated[str, Field(max_length=NOTE_MAX)]
Seat = Annotated[int, Field(ge=0, le=PLAYERS - 1)]
# A card as the app stores it ("10S", "QH"): what a player types is read by the engine when it is
# entered, and only its code is kept.
Card = Literal[tuple(sorted(CARD_CODES))]
Count = Annotated[int, Field(ge=0, le=52)]
_STRICT = ConfigDict(strict=True)


class Hand(TypedDict):
    __pydantic_config__ = _STRICT
    seat: Seat
    mode: NotRequired[Literal[MODES]]  # files from before a hand had its own mode carry it on the round
    target: Optional[Card]
    won: Annotated[list[Card], Field(max_length=52)]
    counts: dict[Literal[RANKS], Count]
    score: NotRequired[Any]  # a cache: recomputed
    entered_by: Optional[Text]
    done: Optional[Stamp]


class Bid(TypedDict):
    __pydantic_config__ = _STRICT
    seat: Seat
    number: Annotated[int, Field(ge=1, le=MAX_BID)]
    suit: Literal[tuple(SUIT_NAMES)]


class Change(TypedDict):
    __pydantic_config__ = _STRICT
    at: Stamp
    action: Text
    detail: Optional[Text]
    by: Optional[Text]


class SignOff(TypedDict):
    __pydantic_config__ = _STRICT
    seat: Seat
    device: Text
    at: Stamp


class Round(TypedDict):
    __pydantic_config__ = _STRICT
    number: Annotated[int, Field(ge=1, le=ROUNDS_MAX)]
    revision: Annotated[int, Field(ge=1, le=ROUNDS_MAX)]
    dealer: Seat
    status: Literal[ROUND_STATUSES]
    mode: Literal[MODES]
    redeals: Annotated[int, Field(ge=0, le=ROUNDS_MAX)]
    bid: Optional[Bid]
    created: Optional[Stamp]
    updated: Optional[Stamp]
    hands: Annotated[list[Hand], Field(min_length=PLAYERS, max_length=PLAYERS)]
    changes: list[Change]
    signoffs: list[SignOff]


class Game(TypedDict):
    __pydantic_config__ = _STRICT
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
    __pydantic_config__ = _STRICT
    name: Name
    created: Stamp


class Crew(TypedDict):
    __pydantic_config__ = _STRICT
    name: Name
    created: Stamp
    goal: NotRequired[Any]  # the house rules, read by HouseRules as a game's are
    tie_rule: NotRequired[Any]
    min_bid: NotRequired[Any]
    redeal_moves_deal: NotRequired[Any]


class Export(TypedDict):
    __pydantic_config__ = _STRICT
    format: Literal[FORMAT]
    version: Literal[VERSION]
    crew: Crew
    players: list[Player]
    games: list[Game]


_EXPORT = TypeAdapter(Export)


# --- From pydantic's complaint to a sentence -----------------------------------------------------

_STAMP_HINT = f" (a date and time with its UTC offset, in the years {YEARS[0]} to {YEARS[-1]})"
_HINTS = {"name": f" (1 to {NAME_MAX} characters)", "note": f" (text of at most {NOTE_MAX} characters)",
          "night_note": f" (text of at most {NOTE_MAX} characters)", "target": " (a card such as 10S or QH)",
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


def _typed(raw):
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


# --- What a type cannot say ----------------------------------------------------------------------

def checked(raw):
    """The export's crew, players and games from the file's bytes, with what concerns the whole
    file checked: every value of its kind, each player listed once, each game numbered once and a
    rematch naming a game before it. RestoreError names the first thing wrong. Each game's own
    checks are `GameChecks`' (run by whoever stages the game)."""
    data = _typed(raw)
    crew, players, games = data["crew"], data["players"], data["games"]
    _rules(crew, "The crew's house rules")
    names = set()
    for player in players:
        _need(player["name"].casefold() not in names, f"The player {player['name']} is in the file twice.")
        names.add(player["name"].casefold())
    numbers = set()
    for game in games:
        _need(game["number"] not in numbers, "Each game needs a number of its own.")
        _need(game["rematch_of"] is None or game["rematch_of"] in numbers,
              f"Game {game['number']} has no proper rematch of.")
        numbers.add(game["number"])
    return crew, players, games, names


class GameChecks:
    """One game's checks, what live entry would have let through and its cached values recomputed
    (`check(game)`, RestoreError naming the first thing wrong); the engine's answers are kept for
    the games checked after it."""

    def __init__(self, names):
        self.names = names
        self.engine = _Engine()

    def check(self, game):
        _check_game(game, self.names, f"Game {game['number']}", self.engine)
        return game


class _Engine:
    """The rule engine's word on each distinct hand and round of one file, asked once: the engine
    is pure, so a hand (or a round) of the same value gets the same answer. Many hands repeat
    (an empty pile with the same target, the same few counts), and a long history is thousands
    of rounds."""

    def __init__(self):
        self.hands = {}  # the hand's value -> Known
        self.saveable = set()  # rounds (their hands' engine values and bid) the check passed

    def hand(self, hand, where):
        # One flat tuple: won cards ("10S") and ranks ("10") never look alike, counts are ints.
        counts = hand["counts"]
        key = (hand["mode"], hand["target"], *hand["won"], *counts, *counts.values())
        found = self.hands.get(key)
        if found is None:
            try:
                value, score = engine_hand(hand), hand_score(hand)
            except Exception as error:  # a count or pile the engine cannot read
                raise RestoreError(f"{where}: {error}") from None
            found = self.hands[key] = Known(value, score and score.total, bonus_of(score))
        return found

    def check(self, entry, seats, known, where):
        """RestoreError unless the round passes the check live entry runs before a save
        (`known`: its hands' Known)."""
        bid = entry["bid"]["number"] if entry["bid"] else None
        # Each distinct hand has one Known, kept for the whole file: its id names the hand's value
        # (its target included).
        key = (*map(id, known), bid is not None)
        if key in self.saveable:
            return
        problems = round_problems({"hands": entry["hands"], "bid_number": bid}, seats,
                                  [found.value for found in known])
        _need(not problems, f"{where} cannot be saved as it is: {problems[0].message}" if problems else "")
        self.saveable.add(key)


class Known(NamedTuple):
    """What the engine says of one hand: its value, its score (None until it can be scored) and
    its target bonus."""
    value: object
    total: Optional[int]
    bonus: int


def _need(condition, message):
    if not condition:
        raise RestoreError(message)


def _rules(row, what):
    try:
        return HouseRules(goal=row["goal"], tie_rule=row["tie_rule"], min_bid=row["min_bid"],
                          redeal_moves_deal=row["redeal_moves_deal"])
    except (KeyError, TypeError, GameError) as error:
        raise RestoreError(f"{what}: {error}") from None


def _check_game(game, names, where, engine):
    rules = _rules(game["rules"], f"{where}'s rules")
    seats = game["seats"]
    _need(len(seats) == PLAYERS and len({name.casefold() for name in seats}) == PLAYERS,
          f"{where} needs four different players.")
    _need(all(name.casefold() in names for name in seats), f"{where} seats a player the file does not list.")
    scored, revisions = [], {}
    for entry in game["rounds"]:
        _check_round(entry, seats, f"{where}, round {entry['number']}", engine)
        revisions.setdefault(entry["number"], []).append(entry["revision"])
        if entry["status"] == "scored":
            scored.append(entry)
    scored.sort(key=lambda entry: entry["number"])
    _need([entry["number"] for entry in scored] == list(range(1, len(scored) + 1)),
          f"{where}: its saved rounds are not numbered 1, 2, 3 …")
    # Live entry opens round n + 1 only after round n, and numbers each correction next.
    _need(sorted(revisions) == list(range(1, len(revisions) + 1)),
          f"{where}: its rounds are not numbered 1, 2, 3 … (round {_first_gap(sorted(revisions))} is missing).")
    for number, found in revisions.items():
        _need(sorted(found) == list(range(1, len(found) + 1)),
              f"{where}, round {number}: its revisions are not numbered 1, 2, 3 …")
    try:
        result = game_result([[h["score"] for h in e["hands"]] for e in scored], rules)
    except GameError as error:
        raise RestoreError(f"{where}: {error}.") from None
    # The verdict is a cache too: the engine's, whatever the file says; abandoned stays abandoned.
    if result.over:
        game["status"], game["winner_seats"] = "finished", list(result.winners)
    else:
        game["status"] = "abandoned" if game["status"] == "abandoned" else "playing"
        game["winner_seats"] = []


def _first_gap(numbers):
    return next(n for n, found in enumerate(numbers + [None], start=1) if n != found)


_SEATS = list(range(PLAYERS))


def _check_round(entry, seats, where, engine):
    hands = entry["hands"]
    for hand in hands:
        hand.setdefault("mode", entry["mode"])
    hands.sort(key=_BY_SEAT)
    _need(list(map(_BY_SEAT, hands)) == _SEATS, f"{where} needs one hand per seat.")
    known = [engine.hand(hand, where) for hand in hands]
    saved = entry["status"] in SAVED_ONCE
    # A revision that was saved once (the saved one, one a correction replaced, one undone) passed
    # the round check when it was saved: it must pass it again.
    if saved:
        engine.check(entry, seats, known, where)
    # Scores and target bonuses are caches: recomputed for every revision that was ever saved.
    if saved or all(hand.get("score") is not None for hand in hands):
        for hand, found in zip(hands, known):
            if found.total is None:
                raise RestoreError(f"{where}: a saved hand cannot be scored.")
            hand["score"], hand["target_bonus"] = found.total, found.bonus
    else:
        for hand in hands:
            hand["score"] = hand["target_bonus"] = None


_BY_SEAT = operator.itemgetter("seat")
