"""A crew's JSON export in again, as a new crew with a new link: every value is checked first, and
scores, bonuses and winners are recomputed by the rule engine, so a file can never make the
store say something its rounds do not."""
import datetime
import itertools
import json
import os
import re
import secrets
import sqlite3
import subprocess
import sys
import tempfile
import time
import unicodedata

from scoring import (CARD_CODES, MAX_BID, MODES, NAME_MAX, NOTE_MAX, PLAYERS, RANKS, SUIT_NAMES, YEARS, GameError,
                     HouseRules, game_result)

from . import get_db, now, write
from .rounds import engine_hand, hand_score, round_problems
from .crews import token_hash
from .stats import bonus_of

from .export import FORMAT, VERSION
from .lists import AMONG, listed
from .results import COLUMNS, seat_rows

ROUND_STATUSES = ("entering", "scored", "replaced", "deleted", "discarded")
GAME_STATUSES = ("playing", "finished", "abandoned")
TEXT_MAX = 2000  # any text the app writes (a change's detail, a device id) is far shorter
ROUNDS_MAX = 100_000


class RestoreError(ValueError):
    """A file that is not a whole, consistent Orchard export; the message says what is wrong."""


# A restore works in two processes, so a save in another crew never waits long, for the write
# lock or for Python's GIL:
#  - a child process (`python -m store.restore STAGING-FILE GAMES`, the file on its standard input)
#    reads the file, runs every check and the rule engine, and writes the rows as they will be
#    stored (each game's results included) into a staging file, saying on its standard output
#    how many games are staged so far;
#  - meanwhile this process copies the staged games in, a few per write transaction, each a few
#    SQL statements (SQLite works without the GIL), and lets a waiting save go first between two.
# Until the last one commits the new crew has no link: its token_hash holds a marker no token
# hashes to, with the time the restore began. A refusal or failure part way removes what is in.
GAMES_PER_WRITE = 40
RESTORING = "restoring "
LEFTOVER_AGE = datetime.timedelta(hours=1)  # a restore this old was cut off (the process died)
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class NotJson(RestoreError):
    """The file is not JSON text at all."""

    def __init__(self):
        super().__init__("This file is not JSON: pick the .json export of a crew.")


def restore(source):
    """Store an export (the file's bytes, or its parsed JSON) as a new crew with a new link;
    returns the new crew row, with its token and its number of games. RestoreError (nothing
    stored) when the file is not a whole, consistent export."""
    if not isinstance(source, bytes):
        source = json.dumps(source, ensure_ascii=False).encode("utf-8", "surrogatepass")
    db = get_db()
    remove_leftovers(db)
    token = secrets.token_urlsafe(32)
    marker = f"{RESTORING}{now()} {secrets.token_hex(8)}"
    with tempfile.TemporaryDirectory(prefix="orchard-restore-") as folder:
        staged = os.path.join(folder, "staged.db")
        with open(os.path.join(folder, "errors.txt"), "w+b") as errors, subprocess.Popen(
                [sys.executable, "-m", "store.restore", staged, str(GAMES_PER_WRITE)], cwd=_ROOT,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors) as child:
            try:
                crew_id, games = _copy_while_staged(db, child, source, staged, marker)
                with write(db):  # the crew appears, whole, with its link
                    db.execute("UPDATE crews SET token_hash = ? WHERE id = ?", [token_hash(token), crew_id])
            except BaseException as error:
                child.kill()
                _remove_marked(db, marker)
                if isinstance(error, sqlite3.IntegrityError):
                    raise RestoreError(f"The export is incomplete or damaged ({error}).") from None
                if isinstance(error, _ChildFailed):
                    errors.seek(0)
                    raise RuntimeError(f"The restore process failed: {error} {errors.read()[-2000:]!r}") from None
                raise
            finally:
                if db.conn.in_transaction:
                    db.conn.rollback()
                if any(row[1] == "staged" for row in db.execute("PRAGMA database_list")):
                    db.execute("DETACH DATABASE staged")
    return {**next(db.query("SELECT * FROM crews WHERE id = ?", [crew_id])), "token": token, "games": games}


class _ChildFailed(Exception):
    """The child process stopped without saying why (a bug, or it was killed)."""


def _copy_while_staged(db, child, raw, staged, marker):
    """Feed the file to the child, and copy games in as it stages them; (crew id, games)."""
    child.stdin.write(raw)
    child.stdin.close()
    crew_id, copied, answer = None, 0, None
    for line in child.stdout:
        said = json.loads(line)
        if not isinstance(said, int):
            answer = said
            break
        if crew_id is None:
            db.execute("ATTACH DATABASE ? AS staged", [staged])
            crew_id = _copy_crew(db, marker)
        while copied + GAMES_PER_WRITE <= said:
            copied = _copy_games(db, crew_id, copied, copied + GAMES_PER_WRITE)
    child.wait()
    kind, value = answer or ("failed", f"code {child.returncode}")
    if kind == "not json":
        raise NotJson()
    if kind == "refused":
        raise RestoreError(value)
    if kind != "staged":
        raise _ChildFailed(value)
    while copied < value:
        copied = _copy_games(db, crew_id, copied, min(copied + GAMES_PER_WRITE, value))
    return crew_id, value


def _copy_crew(db, marker):
    """The staged crew and its players in (marked, without a link); the new crew's id."""
    db.execute("CREATE TEMP TABLE IF NOT EXISTS restore_players (staged INTEGER PRIMARY KEY, stored INTEGER)")
    db.execute("CREATE TEMP TABLE IF NOT EXISTS restore_games (staged INTEGER PRIMARY KEY, stored INTEGER)")
    db.execute("CREATE TEMP TABLE IF NOT EXISTS restore_chunk (first INTEGER, last INTEGER, offset INTEGER)")
    with write(db):
        for table in ("restore_players", "restore_games", "restore_chunk"):
            db.execute(f"DELETE FROM temp.{table}")
        crew_id = db.execute(
            "INSERT INTO crews (name, token_hash, created, goal, tie_rule, min_bid, redeal_moves_deal)"
            " SELECT name, ?, created, goal, tie_rule, min_bid, redeal_moves_deal FROM staged.crew",
            [marker]).lastrowid
        db.execute("INSERT INTO players (crew_id, name, created) SELECT ?, name, created FROM staged.players"
                   " ORDER BY id", [crew_id])
        db.execute("INSERT INTO temp.restore_players SELECT staged.players.id, main.players.id"
                   " FROM staged.players JOIN main.players ON main.players.crew_id = ?"
                   " AND main.players.name = staged.players.name", [crew_id])
    return crew_id


def _copy_games(db, crew_id, done, upto):
    """Staged games done + 1 to upto in, in one write transaction; then a save waiting for the
    write lock takes it. Returns upto."""
    with write(db):
        _insert_games(db, {"first": done + 1, "last": upto, "crew": crew_id, "now": now()})
    time.sleep(0.001)
    return upto


def _insert_games(db, span):
    """One chunk of staged games in (inside the caller's write transaction)."""
    for sql in _COPY:
        db.execute(sql, span)


# One chunk of staged games (:first to :last) in, ids taken after the highest already stored. A
# chunk's rounds are numbered one after another in the staging file: `temp.restore_chunk` holds
# their first and last number and what turns them into stored ids.
_GAMES = "BETWEEN :first AND :last"
_ROUNDS = "BETWEEN (SELECT first FROM temp.restore_chunk) AND (SELECT last FROM temp.restore_chunk)"
_OFFSET = "(SELECT offset FROM temp.restore_chunk)"
_COPY = [
    "INSERT INTO temp.restore_games SELECT id, id + (SELECT coalesce(max(id), 0) FROM main.games) + 1 - :first"
    f" FROM staged.games WHERE id {_GAMES}",
    "INSERT INTO main.games (id, crew_id, created, finished, goal, tie_rule, min_bid, redeal_moves_deal,"
    " first_dealer, status, rematch_of)"
    " SELECT m.stored, :crew, g.created, g.finished, g.goal, g.tie_rule, g.min_bid, g.redeal_moves_deal,"
    " g.first_dealer, g.status, earlier.stored FROM staged.games AS g"
    " JOIN temp.restore_games AS m ON m.staged = g.id"
    f" LEFT JOIN temp.restore_games AS earlier ON earlier.staged = g.rematch_of WHERE g.id {_GAMES} ORDER BY g.id",
    "INSERT INTO main.seats (game_id, seat, player_id, won)"
    " SELECT m.stored, s.seat, p.stored, s.won FROM staged.seats AS s"
    " JOIN temp.restore_games AS m ON m.staged = s.game_id"
    f" JOIN temp.restore_players AS p ON p.staged = s.player_id WHERE s.game_id {_GAMES}",
    "INSERT INTO main.notes (crew_id, kind, game_id, text, updated)"
    " SELECT :crew, n.kind, m.stored, n.text, :now FROM staged.notes AS n"
    f" JOIN temp.restore_games AS m ON m.staged = n.game_id WHERE n.game_id {_GAMES}",
    "DELETE FROM temp.restore_chunk",
    "INSERT INTO temp.restore_chunk SELECT min(id), max(id),"
    f" (SELECT coalesce(max(id), 0) FROM main.rounds) + 1 - min(id) FROM staged.rounds WHERE game_id {_GAMES}",
    "INSERT INTO main.rounds (id, game_id, number, revision, status, mode, dealer, redeals, bid_seat,"
    " bid_number, bid_suit, version, created, updated)"
    f" SELECT r.id + {_OFFSET}, m.stored, r.number, r.revision, r.status, r.mode,"
    " r.dealer, r.redeals, r.bid_seat, r.bid_number, r.bid_suit, 1, r.created, r.updated"
    f" FROM staged.rounds AS r JOIN temp.restore_games AS m ON m.staged = r.game_id WHERE r.id {_ROUNDS}"
    " ORDER BY r.id",
    "INSERT INTO main.hands (round_id, seat, mode, target, won, counts, score, target_bonus, entered_by, done)"
    f" SELECT round_id + {_OFFSET}, seat, mode, target, won, counts, score,"
    f" target_bonus, entered_by, done FROM staged.hands WHERE round_id {_ROUNDS}",
    "INSERT INTO main.round_changes (round_id, at, action, detail, by)"
    f" SELECT round_id + {_OFFSET}, at, action, detail, by"
    f" FROM staged.round_changes WHERE round_id {_ROUNDS} ORDER BY rowid",
    "INSERT INTO main.signoffs (round_id, seat, device, at)"
    f" SELECT round_id + {_OFFSET}, seat, device, at FROM staged.signoffs WHERE round_id {_ROUNDS}",
    f"INSERT INTO main.seat_results ({', '.join(COLUMNS)})"
    f" SELECT m.stored, r.seat, p.stored, {', '.join('r.' + c for c in COLUMNS[3:])}"
    " FROM staged.results AS r JOIN temp.restore_games AS m ON m.staged = r.game_id"
    f" JOIN temp.restore_players AS p ON p.staged = r.player_id WHERE r.game_id {_GAMES}",
]


# --- In the child process: parse, check and stage --------------------------------------------

def _stage_and_answer(raw, staged, per_write, say):
    """Stage the file, saying each count of games staged, then ['staged', games] or why not."""
    try:
        answer = ["staged", _stage(raw, staged, per_write, say)]
    except NotJson:
        answer = ["not json", None]
    except RestoreError as error:
        answer = ["refused", str(error)]
    except Exception as error:  # a bug: the parent reports it
        answer = ["failed", f"{type(error).__name__}: {error}"]
    say(answer)


def parse(raw):
    """The JSON in an uploaded file. Text that cannot be stored (a lone surrogate such as
    "\\ud800", which JSON allows and UTF-8 does not) is refused here, once for the whole file."""
    try:
        text = raw.decode("utf-8-sig")
        data = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise NotJson() from None
    # Only an escape can make a surrogate (UTF-8 text holds none): look for one first.
    if _SURROGATE_ESCAPE.search(text):
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise RestoreError("The file holds text that is not proper Unicode.") from None
    return data


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# The staging file: the rows as they will be stored, numbered from 1 in the file's order.
_STAGING = """
CREATE TABLE crew (name, created, goal, tie_rule, min_bid, redeal_moves_deal);
CREATE TABLE players (id INTEGER PRIMARY KEY, name, created);
CREATE TABLE games (id INTEGER PRIMARY KEY, created, finished, goal, tie_rule, min_bid,
    redeal_moves_deal, first_dealer, status, rematch_of);
CREATE TABLE seats (game_id, seat, player_id, won);
CREATE TABLE notes (kind, game_id, text);
CREATE TABLE rounds (id INTEGER PRIMARY KEY, game_id, number, revision, status, mode, dealer, redeals,
    bid_seat, bid_number, bid_suit, created, updated);
CREATE TABLE hands (round_id, seat, mode, target, won, counts, score, target_bonus, entered_by, done);
CREATE TABLE round_changes (round_id, at, action, detail, by);
CREATE TABLE signoffs (round_id, seat, device, at);
CREATE TABLE results ({columns});
CREATE INDEX rounds_game ON rounds (game_id);
CREATE INDEX seats_game ON seats (game_id);
CREATE INDEX notes_game ON notes (game_id);
CREATE INDEX hands_round ON hands (round_id);
CREATE INDEX changes_round ON round_changes (round_id);
CREATE INDEX signoffs_round ON signoffs (round_id);
CREATE INDEX results_game ON results (game_id);
"""


def _stage(raw, staged, per_write, say):
    """Parse and check the file, and write its rows into a new staging file, `per_write` games
    per transaction, saying how many games are staged after each; returns the game count."""
    crew, players, games = _checked(parse(raw))
    conn = sqlite3.connect(staged, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")  # the parent reads while this writes
        conn.execute("PRAGMA synchronous = OFF")
        conn.executescript(_STAGING.format(columns=", ".join(COLUMNS)))
        conn.execute("BEGIN")
        conn.execute("INSERT INTO crew VALUES (?, ?, ?, ?, ?, ?)",
                     [crew["name"], crew["created"], crew["goal"], crew["tie_rule"], crew["min_bid"],
                      int(crew["redeal_moves_deal"])])
        player_ids = {player["name"].casefold(): n for n, player in enumerate(players, start=1)}
        conn.executemany("INSERT INTO players (id, name, created) VALUES (?, ?, ?)",
                         [(n, player["name"], player["created"]) for n, player in enumerate(players, start=1)])
        conn.execute("COMMIT")
        say(0)
        game_ids, round_id, staged_games = {}, 0, 0
        for first in itertools.count(1, per_write):
            chunk = list(itertools.islice(games, per_write))
            if not chunk:
                return staged_games
            rows = {table: [] for table in ("games", "seats", "notes", "rounds", "hands", "round_changes",
                                            "signoffs", "results")}
            for game_id, game in enumerate(chunk, start=first):
                game_ids[game["number"]] = game_id
                round_id = _stage_game(rows, game_id, game, game_ids, player_ids, round_id)
            conn.execute("BEGIN")
            for table, values in rows.items():
                if values:
                    conn.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' for _ in values[0])})", values)
            conn.execute("COMMIT")
            staged_games += len(chunk)
            say(staged_games)
    finally:
        conn.close()


def _stage_game(rows, game_id, game, game_ids, player_ids, round_id):
    """Add one checked game's rows; returns the last staged round number."""
    rules = game["rules"]
    rows["games"].append((game_id, game["created"], game["finished"], rules["goal"], rules["tie_rule"],
                          rules["min_bid"], int(rules["redeal_moves_deal"]), game["first_dealer"],
                          game["status"], game_ids.get(game["rematch_of"])))
    seated = {seat: (player_ids[name.casefold()], seat in game["winner_seats"])
              for seat, name in enumerate(game["seats"])}
    rows["seats"] += [(game_id, seat, player_id, int(won)) for seat, (player_id, won) in seated.items()]
    rows["notes"] += [(kind, game_id, game[key])
                      for key, kind in (("note", "game"), ("night_note", "night")) if game.get(key)]
    saved = []
    for entry in game["rounds"]:
        round_id += 1
        bid = entry["bid"] or {}
        rows["rounds"].append((round_id, game_id, entry["number"], entry["revision"], entry["status"],
                               entry["mode"], entry["dealer"], entry["redeals"], bid.get("seat"),
                               bid.get("number"), bid.get("suit"), entry["created"], entry["updated"]))
        rows["hands"] += [(round_id, hand["seat"], hand["mode"], hand["target"], " ".join(hand["won"]),
                           _counts_text(hand["counts"]), hand["score"], hand["target_bonus"],
                           hand["entered_by"], hand["done"]) for hand in entry["hands"]]
        rows["round_changes"] += [(round_id, change["at"], change["action"], change["detail"], change["by"])
                                  for change in entry["changes"]]
        rows["signoffs"] += [(round_id, mark["seat"], mark["device"], mark["at"]) for mark in entry["signoffs"]]
        if entry["status"] == "scored":
            saved.append((bid.get("seat"), bid.get("suit"),
                          {hand["seat"]: (hand["score"], hand["target_bonus"]) for hand in entry["hands"]}))
    rows["results"] += seat_rows(game_id, game["created"], game["status"], seated, saved)
    return round_id


_COUNTS_WRITTEN = {}  # counts (their items) -> their JSON, in the child process


def _counts_text(counts):
    """A hand's counts as the store keeps them (JSON), or None for none; the same few counts
    repeat in a long history, so each is written once."""
    if not counts:
        return None
    key = tuple(counts.items())
    text = _COUNTS_WRITTEN.get(key)
    if text is None:
        text = _COUNTS_WRITTEN[key] = json.dumps(counts)
    return text


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
            games = listed(ids)
            rounds = f"SELECT id FROM rounds WHERE game_id {AMONG}"
            for table in ("signoffs", "round_changes", "hands"):
                db.execute(f"DELETE FROM {table} WHERE round_id IN ({rounds})", [games])
            for table in ("seat_results", "notes", "seats", "seat_claims", "rounds"):
                db.execute(f"DELETE FROM {table} WHERE game_id {AMONG}", [games])
            db.execute(f"DELETE FROM games WHERE id {AMONG}", [games])


def _checked(data):
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


def _say(value):
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    _stage_and_answer(sys.stdin.buffer.read(), sys.argv[1], int(sys.argv[2]), _say)
