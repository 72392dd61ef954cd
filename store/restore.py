"""A crew's JSON export in again, as a new crew with a new link: every value is checked first, and
scores, bonuses and winners are recomputed by the rule engine, so a file can never make the
store say something its rounds do not."""
import datetime
import json
import secrets
import sqlite3
import unicodedata

from scoring import MAX_BID, MODES, NAME_MAX, NOTE_MAX, PLAYERS, SUIT_NAMES, GameError, HouseRules, standing

from . import get_db, now, write
from .rounds import hand_score, round_problems
from .crews import token_hash
from .stats import bonus_of

from .export import FORMAT, VERSION

ROUND_STATUSES = ("entering", "scored", "replaced", "deleted", "discarded")
GAME_STATUSES = ("playing", "finished", "abandoned")
TEXT_MAX = 2000  # any text the app writes (a change's detail, a device id) is far shorter
ROUNDS_MAX = 100_000


class RestoreError(ValueError):
    """A file that is not a whole, consistent Orchard export; the message says what is wrong."""



def restore(data):
    """Store an export as a new crew with a new link; returns the new crew row. RestoreError
    (nothing stored) when the file is not a whole, consistent export."""
    crew, players, games = _checked(data)
    token = secrets.token_urlsafe(32)
    try:
        crew_id = _insert(crew, players, games, token)
    except sqlite3.IntegrityError as error:
        raise RestoreError(f"The export is incomplete or damaged ({error}).") from None
    return {**next(get_db().query("SELECT * FROM crews WHERE id = ?", [crew_id])), "token": token}


def _insert(crew, players, games, token):
    with write() as db:
        crew_id = db.execute(
            "INSERT INTO crews (name, token_hash, created, goal, tie_rule, min_bid, redeal_moves_deal)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [crew["name"], token_hash(token), crew["created"], crew["goal"], crew["tie_rule"], crew["min_bid"],
             int(crew["redeal_moves_deal"])],
        ).lastrowid
        player_ids = {}
        for player in players:
            player_ids[player["name"].casefold()] = db.execute(
                "INSERT INTO players (crew_id, name, created) VALUES (?, ?, ?)",
                [crew_id, player["name"], player["created"]],
            ).lastrowid
        game_ids = {}
        for game in games:
            game_ids[game["number"]] = _insert_game(db, crew_id, game, player_ids, game_ids)
    return crew_id


def _insert_game(db, crew_id, game, player_ids, game_ids):
    rules = game["rules"]
    game_id = db.execute(
        "INSERT INTO games (crew_id, created, finished, goal, tie_rule, min_bid, redeal_moves_deal,"
        " first_dealer, status, winner_seats, rematch_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [crew_id, game["created"], game["finished"], rules["goal"], rules["tie_rule"], rules["min_bid"],
         int(rules["redeal_moves_deal"]), game["first_dealer"], game["status"],
         ",".join(map(str, game["winner_seats"])) or None, game_ids.get(game["rematch_of"])],
    ).lastrowid
    for seat, name in enumerate(game["seats"]):
        db.execute("INSERT INTO seats (game_id, seat, player_id) VALUES (?, ?, ?)",
                   [game_id, seat, player_ids[name.casefold()]])
    for key in ("note", "night_note"):
        if game.get(key):
            db.execute(
                "INSERT INTO notes (crew_id, kind, game_id, text, updated) VALUES (?, ?, ?, ?, ?)",
                [crew_id, "game" if key == "note" else "night", game_id, game[key], now()],
            )
    for entry in game["rounds"]:
        bid = entry["bid"] or {}
        # Inserted as a draft of no status first: the hands go in, then the round takes its
        # status, so the per-seat results are worked out once per round, not once per hand.
        round_id = db.execute(
            "INSERT INTO rounds (game_id, number, revision, status, mode, dealer, redeals, bid_seat,"
            " bid_number, bid_suit, version, created, updated)"
            " VALUES (?, ?, ?, 'restoring', ?, ?, ?, ?, ?, ?, 1, ?, ?)",
            [game_id, entry["number"], entry["revision"], entry["mode"], entry["dealer"],
             entry["redeals"], bid.get("seat"), bid.get("number"), bid.get("suit"),
             entry["created"], entry["updated"]],
        ).lastrowid
        for hand in entry["hands"]:
            db.execute(
                "INSERT INTO hands (round_id, seat, mode, target, won, counts, score, target_bonus,"
                " entered_by, done) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [round_id, hand["seat"], hand["mode"], hand["target"], " ".join(hand["won"]),
                 json.dumps(hand["counts"]) if hand["counts"] else None, hand["score"],
                 hand["target_bonus"], hand["entered_by"], hand["done"]],
            )
        db.execute("UPDATE rounds SET status = ? WHERE id = ?", [entry["status"], round_id])
        for change in entry["changes"]:
            db.execute(
                "INSERT INTO round_changes (round_id, at, action, detail, by) VALUES (?, ?, ?, ?, ?)",
                [round_id, change["at"], change["action"], change["detail"], change["by"]],
            )
        for mark in entry["signoffs"]:
            db.execute("INSERT INTO signoffs (round_id, seat, device, at) VALUES (?, ?, ?, ?)",
                       [round_id, mark["seat"], mark["device"], mark["at"]])
    return game_id


def _checked(data):
    """The export's crew, players and games, each value checked for what the store needs, with
    every cached value recomputed by the engine; RestoreError naming the first thing wrong."""
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
        _record(player, "A player", {"name": _name, "created": _text})
        _need(player["name"].casefold() not in names, f"The player {player['name']} is in the file twice.")
        names.add(player["name"].casefold())
    games = data.get("games")
    _need(isinstance(games, list), "The export has no list of games.")
    numbers = set()
    for game in games:
        _need(isinstance(game, dict) and _whole(game.get("number"), 1, 10**9)
              and game["number"] not in numbers, "Each game needs a number of its own.")
        _check_game(game, names, numbers, f"Game {game['number']}")
        numbers.add(game["number"])
    return crew, players, games


def _need(condition, message):
    if not condition:
        raise RestoreError(message)


def _whole(value, low, high):
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


# What a value must be, by kind; each returns whether the value will do.
def _text(value):
    return isinstance(value, str) and len(value) <= TEXT_MAX


def _maybe_text(value):
    return value is None or _text(value)


def _stamp(value):
    try:
        return isinstance(value, str) and datetime.datetime.fromisoformat(value) is not None
    except ValueError:
        return False


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


_HINTS = {_name: " (1 to 40 characters)", _note: " (text of at most 200 characters)",
          _stamp: " (a date and time)"}


def _record(value, what, kinds):
    """`value` as an object holding every key in `kinds`, each of its kind."""
    _need(isinstance(value, dict), f"{what} is missing or damaged.")
    for key, kind in kinds.items():
        _need(key in value and kind(value[key]),
              f"{what} has no proper {key.replace('_', ' ')}{_HINTS.get(kind, '')}.")
    return value


def _rules(row, what):
    try:
        return HouseRules(goal=row["goal"], tie_rule=row["tie_rule"], min_bid=row["min_bid"],
                          redeal_moves_deal=row["redeal_moves_deal"])
    except (KeyError, TypeError, GameError) as error:
        raise RestoreError(f"{what}: {error}") from None


def _check_game(game, names, numbers, where):
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
    scored = []
    for entry in game["rounds"]:
        _need(isinstance(entry, dict) and _whole(entry.get("number"), 1, ROUNDS_MAX),
              f"{where} has a round without a proper number.")
        _check_round(entry, seats, f"{where}, round {entry['number']}")
        if entry["status"] == "scored":
            scored.append(entry)
    scored.sort(key=lambda entry: entry["number"])
    _need([entry["number"] for entry in scored] == list(range(1, len(scored) + 1)),
          f"{where}: its saved rounds are not numbered 1, 2, 3 …")
    try:
        result = standing([[h["score"] for h in e["hands"]] for e in scored],
                          sum(e["redeals"] for e in scored), game["first_dealer"], rules).result
    except GameError as error:
        raise RestoreError(f"{where}: {error}.") from None
    # The verdict is a cache too: the engine's, whatever the file says; abandoned stays abandoned.
    if result.over:
        game["status"], game["winner_seats"] = "finished", list(result.winners)
    else:
        game["status"] = "abandoned" if game["status"] == "abandoned" else "playing"
        game["winner_seats"] = []


def _check_round(entry, seats, where):
    _record(entry, where, {
        "revision": lambda v: _whole(v, 1, ROUNDS_MAX), "dealer": _seat,
        "status": lambda v: isinstance(v, str) and v in ROUND_STATUSES,
        "mode": lambda v: isinstance(v, str) and v in MODES,
        "redeals": lambda v: _whole(v, 0, ROUNDS_MAX), "bid": lambda v: v is None or isinstance(v, dict),
        "created": _maybe_text, "updated": _maybe_text, "hands": lambda v: isinstance(v, list) and len(v) == PLAYERS,
        "changes": lambda v: isinstance(v, list), "signoffs": lambda v: isinstance(v, list),
    })
    if entry["bid"] is not None:
        _record(entry["bid"], f"{where}: the bid", {
            "seat": _seat, "number": lambda v: _whole(v, 1, MAX_BID),
            "suit": lambda v: isinstance(v, str) and v in SUIT_NAMES,
        })
    for hand in entry["hands"]:
        # Files from before a hand had its own mode carry it once, on the round.
        if isinstance(hand, dict):
            hand.setdefault("mode", entry["mode"])
        _record(hand, f"{where}: a hand", {
            "seat": _seat, "target": _maybe_text, "entered_by": _maybe_text, "done": _maybe_text,
            "mode": lambda v: isinstance(v, str) and v in MODES,
            "won": lambda v: isinstance(v, list) and len(v) <= 52 and all(_text(code) for code in v),
            "counts": lambda v: isinstance(v, dict) and len(v) <= 13
            and all(_text(rank) and _whole(n, 0, 52) for rank, n in v.items()),
        })
    _need(sorted(hand["seat"] for hand in entry["hands"]) == list(range(PLAYERS)), f"{where} needs one hand per seat.")
    entry["hands"].sort(key=lambda hand: hand["seat"])
    for change in entry["changes"]:
        _record(change, f"{where}: a change",
                {"at": _text, "action": _text, "detail": _maybe_text, "by": _maybe_text})
    for mark in entry["signoffs"]:
        _record(mark, f"{where}: a sign-off", {"seat": _seat, "device": _text, "at": _text})
    try:
        scores = [hand_score(hand) for hand in entry["hands"]]
    except Exception as error:  # a card code or count the engine cannot read
        raise RestoreError(f"{where}: {error}") from None
    if entry["status"] == "scored":
        stored = {"hands": entry["hands"], "bid_number": entry["bid"]["number"] if entry["bid"] else None}
        problems = round_problems(stored, seats)
        _need(not problems, f"{where} cannot be saved as it is: {problems[0].message}" if problems else "")
    # Scores and target bonuses are caches: recomputed for every revision that was ever saved.
    if entry["status"] == "scored" or all(hand.get("score") is not None for hand in entry["hands"]):
        for hand, score in zip(entry["hands"], scores):
            _need(score is not None, f"{where}: a saved hand cannot be scored.")
            hand["score"] = score.total
            hand["target_bonus"] = bonus_of(score)
    else:
        for hand in entry["hands"]:
            hand["score"] = hand["target_bonus"] = None
