"""What a crew's export file must hold to be restored: every value checked for what the store
needs and for what live entry accepts (the same round check as a save, in the engine's words),
with every cached value (scores, bonuses, the verdict) recomputed by the rule engine. Used by the
restore's child process (`store.restore`); RestoreError names the first thing wrong."""
import datetime
import unicodedata

from scoring import (CARD_CODES, MAX_BID, MODES, NAME_MAX, NOTE_MAX, PLAYERS, RANKS, SUIT_NAMES, YEARS, GameError,
                     HouseRules, game_result)

from .export import FORMAT, VERSION
from .rounds import engine_hand, hand_score, round_problems
from .stats import bonus_of

ROUND_STATUSES = ("entering", "scored", "replaced", "deleted", "discarded")
GAME_STATUSES = ("playing", "finished", "abandoned")
TEXT_MAX = 2000  # any text the app writes (a change's detail, a device id) is far shorter
ROUNDS_MAX = 100_000


class RestoreError(ValueError):
    """A file that is not a whole, consistent Orchard export; the message says what is wrong."""


class NotJson(RestoreError):
    """The file is not JSON text at all."""

    def __init__(self):
        super().__init__("This file is not JSON: pick the .json export of a crew.")


def checked(data):
    """The export's crew, players and games, each value checked for what the store needs, with
    every cached value recomputed by the engine; RestoreError naming the first thing wrong. The
    games come one at a time, each checked as it comes (so the first can be staged while the
    rest are checked)."""
    _need(isinstance(data, dict) and data.get("format") == FORMAT,
          "This is not an Orchard crew export (a .json file from a crew's History page).")
    _need(data.get("version") == VERSION,
          f"This export is version {str(data.get('version'))[:20]!r}; this server reads version {VERSION}.")
    crew = _record(data.get("crew"), "The crew", {"name": _name, "created": _stamp})
    _rules(crew, "The crew's house rules")
    players = data.get("players")
    _need(isinstance(players, list), "The export has no list of players.")
    names = set()
    for player in players:
        _record(player, "A player", {"name": _name, "created": _stamp})
        _need(player["name"].casefold() not in names, f"The player {player['name']} is in the file twice.")
        names.add(player["name"].casefold())
    games = data.get("games")
    _need(isinstance(games, list), "The export has no list of games.")
    return crew, players, _checked_games(games, names)


def _checked_games(games, names):
    numbers = set()
    engine = _Engine()
    for game in games:
        _need(isinstance(game, dict) and _whole(game.get("number"), 1, 10**9)
              and game["number"] not in numbers, "Each game needs a number of its own.")
        _check_game(game, names, numbers, f"Game {game['number']}", engine)
        numbers.add(game["number"])
        yield game


class _Engine:
    """The rule engine's word on each distinct hand and round of one file, asked once: the engine
    is pure, so a hand (or a round) of the same value gets the same answer. Many hands repeat
    (an empty pile with the same target, the same few counts), and a long history is thousands
    of rounds."""

    def __init__(self):
        self.hands = {}  # the hand's value -> (its engine value, its score or None)
        self.saveable = set()  # rounds (their hands' engine values and bid) the check passed

    def hand(self, hand, where):
        key = (hand["mode"], hand["target"], tuple(hand["won"]), tuple(hand["counts"].items()))
        found = self.hands.get(key)
        if found is None:
            try:
                found = self.hands[key] = (engine_hand(hand), hand_score(hand))
            except Exception as error:  # a count or pile the engine cannot read
                raise RestoreError(f"{where}: {error}") from None
        return found

    def check(self, entry, seats, values, where):
        """RestoreError unless the round passes the check live entry runs before a save."""
        bid = entry["bid"]["number"] if entry["bid"] else None
        key = (values, tuple(hand["target"] for hand in entry["hands"]), bid is not None)
        if key in self.saveable:
            return
        problems = round_problems({"hands": entry["hands"], "bid_number": bid}, seats, list(values))
        _need(not problems, f"{where} cannot be saved as it is: {problems[0].message}" if problems else "")
        self.saveable.add(key)


def _need(condition, message):
    if not condition:
        raise RestoreError(message)


def _whole(value, low, high):
    return type(value) is int and low <= value <= high  # JSON's true and false are not numbers


# What a value must be, by kind; each returns whether the value will do.
def _text(value):
    return isinstance(value, str) and len(value) <= TEXT_MAX


def _maybe_text(value):
    return value is None or _text(value)


def _stamp(value):
    """A time as the app stores it: ISO 8601 with its offset from UTC, in a year pages can show."""
    try:
        when = isinstance(value, str) and len(value) <= 40 and datetime.datetime.fromisoformat(value)
    except ValueError:
        return False
    return bool(when) and when.utcoffset() is not None and when.year in YEARS


def _maybe_stamp(value):
    return value is None or _stamp(value)


def _name(value):
    """A crew's or player's name as the forms allow it: 1 to 40 characters, no control characters."""
    return (isinstance(value, str) and value == " ".join(value.split()) and 1 <= len(value) <= NAME_MAX
            and not any(unicodedata.category(ch).startswith("C") for ch in value))


def _note(value):
    return value is None or (_text(value) and len(value) <= NOTE_MAX)


def _seat(value):
    return _whole(value, 0, 3)


def _card(value):
    """A card code as the app stores it ("10S", "QH"): what a player types is read by the engine
    when it is entered, and only its code is kept."""
    return value is None or (isinstance(value, str) and value in CARD_CODES)


def _cards(value):
    return isinstance(value, list) and len(value) <= 52 and all(type(code) is str and code in CARD_CODES
                                                                 for code in value)


def _counts(value):
    return (isinstance(value, dict) and _RANKS.issuperset(value)
            and all(type(n) is int and 0 <= n <= 52 for n in value.values()))


_RANKS = frozenset(RANKS)


_HINTS = {_name: " (1 to 40 characters)", _note: " (text of at most 200 characters)",
          _stamp: f" (a date and time with its UTC offset, in the years {YEARS[0]} to {YEARS[-1]})",
          _maybe_stamp: f" (a date and time with its UTC offset, in the years {YEARS[0]} to {YEARS[-1]})",
          _card: " (a card such as 10S or QH)", _cards: " (cards such as 10S or QH)",
          _counts: " (ranks 2 to 10, J, Q, K, A, each with a count)"}


def _record(value, what, kinds, part=""):
    """`value` as an object holding every key in `kinds`, each of its kind; the message names it
    `what` + `part` (put together only when something is wrong: a file has many thousand)."""
    if not isinstance(value, dict):
        raise RestoreError(f"{what}{part} is missing or damaged.")
    for key, kind in kinds.items():
        if not (key in value and kind(value[key])):
            raise RestoreError(f"{what}{part} has no proper {key.replace('_', ' ')}{_HINTS.get(kind, '')}.")
    return value


def _rules(row, what):
    try:
        return HouseRules(goal=row["goal"], tie_rule=row["tie_rule"], min_bid=row["min_bid"],
                          redeal_moves_deal=row["redeal_moves_deal"])
    except (KeyError, TypeError, GameError) as error:
        raise RestoreError(f"{what}: {error}") from None


def _check_game(game, names, numbers, where, engine):
    _record(game, where, {
        "created": _stamp, "finished": _maybe_stamp, "first_dealer": _seat, "note": _note,
        "night_note": _note, "status": lambda v: isinstance(v, str) and v in GAME_STATUSES,
        "rules": lambda v: isinstance(v, dict), "seats": lambda v: isinstance(v, list),
        "rounds": lambda v: isinstance(v, list),
        "rematch_of": lambda v: v is None or (_whole(v, 1, 10**9) and v in numbers),
    })
    rules = _rules(game["rules"], f"{where}'s rules")
    seats = game["seats"]
    _need(len(seats) == PLAYERS and all(_name(name) for name in seats)
          and len({name.casefold() for name in seats}) == PLAYERS, f"{where} needs four different players.")
    _need(all(name.casefold() in names for name in seats), f"{where} seats a player the file does not list.")
    scored, revisions = [], {}
    for entry in game["rounds"]:
        if not (isinstance(entry, dict) and _whole(entry.get("number"), 1, ROUNDS_MAX)):
            raise RestoreError(f"{where} has a round without a proper number.")
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


def _check_round(entry, seats, where, engine):
    _record(entry, where, _ROUND)
    if entry["bid"] is not None:
        _record(entry["bid"], where, _BID, ": the bid")
    for hand in entry["hands"]:
        # Files from before a hand had its own mode carry it once, on the round.
        if isinstance(hand, dict):
            hand.setdefault("mode", entry["mode"])
        _record(hand, where, _HAND, ": a hand")
    if sorted(hand["seat"] for hand in entry["hands"]) != _SEATS:
        raise RestoreError(f"{where} needs one hand per seat.")
    entry["hands"].sort(key=lambda hand: hand["seat"])
    for change in entry["changes"]:
        _record(change, where, _CHANGE, ": a change")
    for mark in entry["signoffs"]:
        _record(mark, where, _SIGNOFF, ": a sign-off")
    found = [engine.hand(hand, where) for hand in entry["hands"]]
    # A revision that was saved once (the saved one, one a correction replaced, one undone) passed
    # the round check when it was saved: it must pass it again.
    if entry["status"] in SAVED_ONCE:
        engine.check(entry, seats, tuple(value for value, _ in found), where)
    # Scores and target bonuses are caches: recomputed for every revision that was ever saved.
    if entry["status"] in SAVED_ONCE or all(hand.get("score") is not None for hand in entry["hands"]):
        for hand, (_, score) in zip(entry["hands"], found):
            if score is None:
                raise RestoreError(f"{where}: a saved hand cannot be scored.")
            hand["score"] = score.total
            hand["target_bonus"] = bonus_of(score)
    else:
        for hand in entry["hands"]:
            hand["score"] = hand["target_bonus"] = None


SAVED_ONCE = ("scored", "replaced", "deleted")
_SEATS = list(range(PLAYERS))
_ROUND = {
    "revision": lambda v: _whole(v, 1, ROUNDS_MAX), "dealer": _seat,
    "status": lambda v: isinstance(v, str) and v in ROUND_STATUSES,
    "mode": lambda v: isinstance(v, str) and v in MODES,
    "redeals": lambda v: _whole(v, 0, ROUNDS_MAX), "bid": lambda v: v is None or isinstance(v, dict),
    "created": _maybe_stamp, "updated": _maybe_stamp,
    "hands": lambda v: isinstance(v, list) and len(v) == PLAYERS,
    "changes": lambda v: isinstance(v, list), "signoffs": lambda v: isinstance(v, list),
}
_BID = {"seat": _seat, "number": lambda v: _whole(v, 1, MAX_BID),
        "suit": lambda v: isinstance(v, str) and v in SUIT_NAMES}
_HAND = {"seat": _seat, "target": _card, "entered_by": _maybe_text, "done": _maybe_stamp,
         "mode": lambda v: isinstance(v, str) and v in MODES, "won": _cards, "counts": _counts}
_CHANGE = {"at": _stamp, "action": _text, "detail": _maybe_text, "by": _maybe_text}
_SIGNOFF = {"seat": _seat, "device": _text, "at": _stamp}
