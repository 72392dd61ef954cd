"""A crew's JSON export in again, as a new crew with a new link: every value is checked first, and
scores, bonuses and winners are recomputed by the rule engine, so a file can never make the
store say something its rounds do not."""
import datetime
import json
import secrets
import sqlite3
import unicodedata

from scoring import (CARD_CODES, MAX_BID, MODES, NAME_MAX, NOTE_MAX, PLAYERS, RANKS, SUIT_NAMES, YEARS, GameError,
                     HouseRules, standing)

from . import get_db, now, write
from .rounds import engine_hand, hand_score, round_problems
from .crews import token_hash
from .stats import bonus_of

from .export import FORMAT, VERSION
from .results import INSERT as RESULTS_INSERT, seat_rows

ROUND_STATUSES = ("entering", "scored", "replaced", "deleted", "discarded")
GAME_STATUSES = ("playing", "finished", "abandoned")
TEXT_MAX = 2000  # any text the app writes (a change's detail, a device id) is far shorter
ROUNDS_MAX = 100_000


class RestoreError(ValueError):
    """A file that is not a whole, consistent Orchard export; the message says what is wrong."""


# A restore writes a few games per transaction, so a save in another crew never waits long for
# the write lock. Until the last one commits the new crew has no link: its token_hash holds a
# marker no token hashes to, with the time the restore began.
GAMES_PER_WRITE = 20
RESTORING = "restoring "
LEFTOVER_AGE = datetime.timedelta(hours=1)  # a restore this old was cut off (the process died)


def restore(data):
    """Store an export as a new crew with a new link; returns the new crew row. RestoreError
    (nothing stored) when the file is not a whole, consistent export."""
    crew, players, games = _checked(data)
    db = get_db()
    remove_leftovers(db)
    token = secrets.token_urlsafe(32)
    marker = f"{RESTORING}{now()} {secrets.token_hex(8)}"
    try:
        crew_id = _insert(db, crew, players, games, marker)
        with write(db):  # the crew appears, whole, with its link
            db.execute("UPDATE crews SET token_hash = ? WHERE id = ?", [token_hash(token), crew_id])
    except BaseException as error:
        _remove_marked(db, marker)
        if isinstance(error, sqlite3.IntegrityError):
            raise RestoreError(f"The export is incomplete or damaged ({error}).") from None
        raise
    return {**next(db.query("SELECT * FROM crews WHERE id = ?", [crew_id])), "token": token}


def remove_leftovers(db):
    """Delete what restores cut off by a dying process left behind (crews that never got a link)."""
    cutoff = datetime.datetime.now(datetime.timezone.utc) - LEFTOVER_AGE
    stale = f"{RESTORING}{cutoff.isoformat(timespec='seconds')}"
    for (marker,) in db.execute(
            "SELECT token_hash FROM crews WHERE token_hash >= ? AND token_hash < ?", [RESTORING, stale]).fetchall():
        _remove_marked(db, marker)


def _remove_marked(db, marker):
    """Delete a crew still being restored, a few games per transaction."""
    if db.conn.in_transaction:
        db.rollback()
    found = db.execute("SELECT id FROM crews WHERE token_hash = ?", [marker]).fetchone()
    if found is None:
        return
    crew_id = found[0]
    with write(db):
        db.execute("UPDATE games SET rematch_of = NULL WHERE crew_id = ?", [crew_id])
    while True:
        with write(db):
            ids = [row[0] for row in db.execute(
                "SELECT id FROM games WHERE crew_id = ? LIMIT ?", [crew_id, GAMES_PER_WRITE]).fetchall()]
            if not ids:
                for table in ("notes", "players", "crews"):
                    db.execute(f"DELETE FROM {table} WHERE {'id' if table == 'crews' else 'crew_id'} = ?", [crew_id])
                return
            games = json.dumps(ids)
            rounds = "SELECT id FROM rounds WHERE game_id IN (SELECT value FROM json_each(?))"
            for table in ("signoffs", "round_changes", "hands"):
                db.execute(f"DELETE FROM {table} WHERE round_id IN ({rounds})", [games])
            for table in ("seat_results", "notes", "seats", "seat_claims", "rounds"):
                db.execute(f"DELETE FROM {table} WHERE game_id IN (SELECT value FROM json_each(?))", [games])
            db.execute("DELETE FROM games WHERE id IN (SELECT value FROM json_each(?))", [games])


def _insert(db, crew, players, games, marker):
    with write(db):
        crew_id = db.execute(
            "INSERT INTO crews (name, token_hash, created, goal, tie_rule, min_bid, redeal_moves_deal)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [crew["name"], marker, crew["created"], crew["goal"], crew["tie_rule"], crew["min_bid"],
             int(crew["redeal_moves_deal"])],
        ).lastrowid
        player_ids = {}
        for player in players:
            player_ids[player["name"].casefold()] = db.execute(
                "INSERT INTO players (crew_id, name, created) VALUES (?, ?, ?)",
                [crew_id, player["name"], player["created"]],
            ).lastrowid
    game_ids = {}
    for first in range(0, len(games), GAMES_PER_WRITE):
        with write(db):
            _insert_games(db.conn, crew_id, games[first:first + GAMES_PER_WRITE], player_ids, game_ids)
    return crew_id


def _insert_games(conn, crew_id, games, player_ids, game_ids):
    """A few games in one transaction, in bulk (plain sqlite3, one statement per table), each
    with its `seat_results` rows worked out once from the file's checked rounds."""
    next_round = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM rounds").fetchone()[0]
    seats, notes, rounds, hands, changes, signoffs, results = [], [], [], [], [], [], []
    stamp = now()
    for game in games:
        rules = game["rules"]
        game_id = game_ids[game["number"]] = conn.execute(
            "INSERT INTO games (crew_id, created, finished, goal, tie_rule, min_bid, redeal_moves_deal,"
            " first_dealer, status, rematch_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [crew_id, game["created"], game["finished"], rules["goal"], rules["tie_rule"], rules["min_bid"],
             int(rules["redeal_moves_deal"]), game["first_dealer"], game["status"],
             game_ids.get(game["rematch_of"])],
        ).lastrowid
        seated = {seat: (player_ids[name.casefold()], seat in game["winner_seats"])
                  for seat, name in enumerate(game["seats"])}
        seats += [(game_id, seat, player_id, int(won)) for seat, (player_id, won) in seated.items()]
        notes += [(crew_id, kind, game_id, game[key], stamp)
                  for key, kind in (("note", "game"), ("night_note", "night")) if game.get(key)]
        saved = []
        for entry in game["rounds"]:
            round_id, next_round = next_round, next_round + 1
            bid = entry["bid"] or {}
            rounds.append((round_id, game_id, entry["number"], entry["revision"], entry["status"], entry["mode"],
                           entry["dealer"],
                           entry["redeals"], bid.get("seat"), bid.get("number"), bid.get("suit"),
                           entry["created"], entry["updated"]))
            hands += [(round_id, hand["seat"], hand["mode"], hand["target"], " ".join(hand["won"]),
                       json.dumps(hand["counts"]) if hand["counts"] else None, hand["score"],
                       hand["target_bonus"], hand["entered_by"], hand["done"]) for hand in entry["hands"]]
            changes += [(round_id, change["at"], change["action"], change["detail"], change["by"])
                        for change in entry["changes"]]
            signoffs += [(round_id, mark["seat"], mark["device"], mark["at"]) for mark in entry["signoffs"]]
            if entry["status"] == "scored":
                saved.append((bid.get("seat"), bid.get("suit"),
                              {hand["seat"]: (hand["score"], hand["target_bonus"]) for hand in entry["hands"]}))
        results += seat_rows(game_id, game["created"], game["status"], seated, saved)
    conn.executemany(
        "INSERT INTO rounds (id, game_id, number, revision, status, mode, dealer, redeals, bid_seat,"
        " bid_number, bid_suit, version, created, updated)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)", rounds)
    conn.executemany(
        "INSERT INTO hands (round_id, seat, mode, target, won, counts, score, target_bonus, entered_by, done)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", hands)
    conn.executemany("INSERT INTO seats (game_id, seat, player_id, won) VALUES (?, ?, ?, ?)", seats)
    conn.executemany("INSERT INTO notes (crew_id, kind, game_id, text, updated) VALUES (?, ?, ?, ?, ?)", notes)
    conn.executemany("INSERT INTO round_changes (round_id, at, action, detail, by) VALUES (?, ?, ?, ?, ?)", changes)
    conn.executemany("INSERT INTO signoffs (round_id, seat, device, at) VALUES (?, ?, ?, ?)", signoffs)
    conn.executemany(RESULTS_INSERT, results)


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
        _record(player, "A player", {"name": _name, "created": _stamp})
        _need(player["name"].casefold() not in names, f"The player {player['name']} is in the file twice.")
        names.add(player["name"].casefold())
    games = data.get("games")
    _need(isinstance(games, list), "The export has no list of games.")
    numbers = set()
    engine = _Engine()
    for game in games:
        _need(isinstance(game, dict) and _whole(game.get("number"), 1, 10**9)
              and game["number"] not in numbers, "Each game needs a number of its own.")
        _check_game(game, names, numbers, f"Game {game['number']}", engine)
        numbers.add(game["number"])
    return crew, players, games


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
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


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
    return isinstance(value, list) and len(value) <= 52 and all(isinstance(code, str) and code in CARD_CODES
                                                                 for code in value)


def _counts(value):
    return isinstance(value, dict) and all(rank in RANKS and _whole(n, 0, 52) for rank, n in value.items())


_HINTS = {_name: " (1 to 40 characters)", _note: " (text of at most 200 characters)",
          _stamp: f" (a date and time with its UTC offset, in the years {YEARS[0]} to {YEARS[-1]})",
          _maybe_stamp: f" (a date and time with its UTC offset, in the years {YEARS[0]} to {YEARS[-1]})",
          _card: " (a card such as 10S or QH)", _cards: " (cards such as 10S or QH)",
          _counts: " (ranks 2 to 10, J, Q, K, A, each with a count)"}


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
        _need(isinstance(entry, dict) and _whole(entry.get("number"), 1, ROUNDS_MAX),
              f"{where} has a round without a proper number.")
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


def _first_gap(numbers):
    return next(n for n, found in enumerate(numbers + [None], start=1) if n != found)


def _check_round(entry, seats, where, engine):
    _record(entry, where, {
        "revision": lambda v: _whole(v, 1, ROUNDS_MAX), "dealer": _seat,
        "status": lambda v: isinstance(v, str) and v in ROUND_STATUSES,
        "mode": lambda v: isinstance(v, str) and v in MODES,
        "redeals": lambda v: _whole(v, 0, ROUNDS_MAX), "bid": lambda v: v is None or isinstance(v, dict),
        "created": _maybe_stamp, "updated": _maybe_stamp,
        "hands": lambda v: isinstance(v, list) and len(v) == PLAYERS,
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
        _record(hand, f"{where}: a hand", _HAND)
    _need(sorted(hand["seat"] for hand in entry["hands"]) == list(range(PLAYERS)), f"{where} needs one hand per seat.")
    entry["hands"].sort(key=lambda hand: hand["seat"])
    for change in entry["changes"]:
        _record(change, f"{where}: a change", _CHANGE)
    for mark in entry["signoffs"]:
        _record(mark, f"{where}: a sign-off", _SIGNOFF)
    found = [engine.hand(hand, where) for hand in entry["hands"]]
    # A revision that was saved once (the saved one, one a correction replaced, one undone) passed
    # the round check when it was saved: it must pass it again.
    if entry["status"] in SAVED_ONCE:
        engine.check(entry, seats, tuple(value for value, _ in found), where)
    # Scores and target bonuses are caches: recomputed for every revision that was ever saved.
    if entry["status"] in SAVED_ONCE or all(hand.get("score") is not None for hand in entry["hands"]):
        for hand, (_, score) in zip(entry["hands"], found):
            _need(score is not None, f"{where}: a saved hand cannot be scored.")
            hand["score"] = score.total
            hand["target_bonus"] = bonus_of(score)
    else:
        for hand in entry["hands"]:
            hand["score"] = hand["target_bonus"] = None


SAVED_ONCE = ("scored", "replaced", "deleted")
_HAND = {"seat": _seat, "target": _card, "entered_by": _maybe_text, "done": _maybe_stamp,
         "mode": lambda v: isinstance(v, str) and v in MODES, "won": _cards, "counts": _counts}
_CHANGE = {"at": _stamp, "action": _text, "detail": _maybe_text, "by": _maybe_text}
_SIGNOFF = {"seat": _seat, "device": _text, "at": _stamp}
