"""A crew's JSON export in again, as a new crew with a new link: every value is checked first, and
scores, bonuses and winners are recomputed by the rule engine, so a file can never make the
store say something its rounds do not."""
import contextlib
import datetime
import gc
import json
import os
import secrets
import sqlite3
import subprocess
import sys
import tempfile

from scoring import names as name_rule

from . import club_night_restore, club_night_transfer, columns, now, season_restore, season_transfer
from .crews import rotate_token
from .lists import AMONG, listed
from .restore_checks import GameChecks, NotJson, RestoreError, checked
from .results import COLUMNS, seat_rows

# A restore works in two processes, so a save in another crew never waits long, for the write
# lock or for Python's GIL:
#  - a child process (`python -m store.restore STAGING-FILE GAMES`, the file on its standard input)
#    reads the file, runs every check and the rule engine, and writes the rows as they will be
#    stored (each game's results included) into a staging file, saying on its standard output
#    how many games are staged so far;
#  - meanwhile the server's process copies the staged games in, a few per write transaction, each
#    a few SQL statements (SQLite works without the GIL), and lets a waiting save go first between
#    two. `services/transfer.py` opens each transaction and runs this module's steps in it, in
#    order: `copy_crew`, `copy_games` again and again, `link` last.
# Until the last one commits the new crew has no link: its token_hash holds a marker no token
# hashes to, with the time the restore began. A refusal or failure part way removes what is in
# (`remove_nights`, then `remove_games` until the crew is gone, each in its own transaction).
GAMES_PER_WRITE = 40
RESTORING = "restoring "
LEFTOVER_AGE = datetime.timedelta(hours=1)  # a restore this old was cut off (the process died)


def new_marker():
    """What a crew being restored holds as its token_hash until its last step: no token hashes to
    it, and it begins with the time the restore began."""
    return f"{RESTORING}{now()} {secrets.token_hex(8)}"


@contextlib.contextmanager
def staging(raw):
    """Start the child process that checks the file's bytes `raw` and stages its rows in a
    staging file, in a temporary folder; yields its Staging. The folder goes on leaving."""
    with tempfile.TemporaryDirectory(prefix="orchard-restore-") as folder:
        path = os.path.join(folder, "staged.db")
        with open(os.path.join(folder, "errors.txt"), "w+b") as errors, subprocess.Popen(
                [sys.executable, "-m", "store.restore", path, str(GAMES_PER_WRITE)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors) as child:
            yield Staging(child, raw, path, errors)


class Staging:
    """The child process staging one file, as the server's process sees it: `path` is the staging
    file it writes."""

    def __init__(self, child, raw, path, errors):
        self.child, self.raw, self.path, self.errors = child, raw, path, errors
        self.answer = None

    def counts(self):
        """Feed the file to the child; yield each count of games staged so far, as it says it."""
        self.child.stdin.write(self.raw)
        self.child.stdin.close()
        for line in self.child.stdout:
            said = json.loads(line)
            if not isinstance(said, int):
                self.answer = said
                return
            yield said

    def games(self):
        """Once the counts are said: how many games the child staged, the whole file. NotJson or
        RestoreError (why not) when it refused the file, _ChildFailed when it failed."""
        self.child.wait()
        kind, value = self.answer or ("failed", f"code {self.child.returncode}")
        if kind == "not json":
            raise NotJson()
        if kind == "refused":
            raise RestoreError(value)
        if kind != "staged":
            raise _ChildFailed(value)
        return value

    def stop(self):
        self.child.kill()

    def failure(self, error):
        """What to raise for `error`, which ended the restore part way: a sentence for a fault no
        check names, the child's last words when it failed; None to raise `error` itself."""
        if isinstance(error, sqlite3.IntegrityError):
            return RestoreError("The export holds rows that cannot be stored together: it is damaged "
                                "or was changed by hand. Restore the file as the app exported it.")
        if isinstance(error, _ChildFailed):
            self.errors.seek(0)
            return RuntimeError(f"The restore process failed: {error} {self.errors.read()[-2000:]!r}")
        return None


class _ChildFailed(Exception):
    """The child process stopped without saying why (a bug, or it was killed)."""


# --- In the server's process: the steps, each in the caller's write transaction (but `attach`,
# `detach` and `marked_crew`, which run outside one) ----------------------------------------------

def attach(db, path):
    """The staging file attached to db as `staged`, and the connection's scratch tables made
    (outside any transaction)."""
    db.execute("ATTACH DATABASE ? AS staged", [path])
    db.execute("CREATE TEMP TABLE IF NOT EXISTS restore_players (staged INTEGER PRIMARY KEY, stored INTEGER)")
    db.execute("CREATE TEMP TABLE IF NOT EXISTS restore_games (staged INTEGER PRIMARY KEY, stored INTEGER)")
    db.execute("CREATE TEMP TABLE IF NOT EXISTS restore_chunk (first INTEGER, last INTEGER, offset INTEGER)")


def copy_crew(db, marker):
    """The staged crew and its players in (marked, without a link); the new crew's id."""
    for table in ("restore_players", "restore_games", "restore_chunk"):
        db.execute(f"DELETE FROM temp.{table}")
    crew_id = db.execute(
        "INSERT INTO crews (name, token_hash, created, rules) SELECT name, ?, created, rules FROM staged.crew",
        [marker]).lastrowid
    db.execute("INSERT INTO players (crew_id, name, name_key, created)"
               " SELECT ?, name, name_key, created FROM staged.players ORDER BY id", [crew_id])
    db.execute("INSERT INTO temp.restore_players SELECT staged.players.id, main.players.id"
               " FROM staged.players JOIN main.players ON main.players.crew_id = ?"
               " AND main.players.name_key = staged.players.name_key", [crew_id])
    return crew_id


def copy_games(db, crew_id, done, upto):
    """Staged games done + 1 to upto in."""
    _insert_games(db, {"first": done + 1, "last": upto, "crew": crew_id, "now": now()})


def _insert_games(db, span):
    """One chunk of staged games in."""
    for sql in _COPY:
        db.execute(sql, span)


def link(db, crew_id):
    """The last step: the crew appears, whole, with its club nights and its link; returns the
    link's token."""
    for sql in club_night_transfer.COPY + season_transfer.COPY:
        db.execute(sql, {"crew": crew_id})
    return rotate_token(db, crew_id)


def detach(db):
    """Let go of the staging file: a transaction left open ended, and the file detached."""
    if db.conn.in_transaction:
        db.conn.rollback()
    if any(row[1] == "staged" for row in db.execute("PRAGMA database_list")):
        db.execute("DETACH DATABASE staged")


def leftover_markers(db):
    """The markers of restores cut off by a dying process: crews that never got a link, begun
    longer than LEFTOVER_AGE ago."""
    cutoff = datetime.datetime.now(datetime.timezone.utc) - LEFTOVER_AGE
    stale = f"{RESTORING}{cutoff.isoformat(timespec='seconds')}"
    return [marker for (marker,) in db.execute(
        "SELECT token_hash FROM crews WHERE token_hash >= ? AND token_hash < ?", [RESTORING, stale]).fetchall()]


def marked_crew(db, marker):
    """The id of the crew still being restored under `marker`, or None; any transaction left
    open is ended first."""
    if db.conn.in_transaction:
        db.rollback()
    found = db.execute("SELECT id FROM crews WHERE token_hash = ?", [marker]).fetchone()
    return None if found is None else found[0]


def remove_nights(db, crew_id):
    """The first step of removing a crew still being restored: its club nights, and its games'
    links to the games they were a rematch of."""
    season_transfer.remove(db, crew_id)
    club_night_transfer.remove(db, crew_id)
    db.execute("UPDATE games SET rematch_of = NULL WHERE crew_id = ?", [crew_id])


def remove_games(db, crew_id):
    """The next step: up to GAMES_PER_WRITE of the crew's games deleted, or, when none is left,
    the crew itself (its notes, players and row). Returns whether the crew is gone."""
    ids = [row[0] for row in db.execute(
        "SELECT id FROM games WHERE crew_id = ? LIMIT ?", [crew_id, GAMES_PER_WRITE]).fetchall()]
    if not ids:
        for table in ("notes", "players", "crews"):
            db.execute(f"DELETE FROM {table} WHERE {'id' if table == 'crews' else 'crew_id'} = ?", [crew_id])
        return True
    games = listed(ids)
    rounds = f"SELECT id FROM rounds WHERE game_id {AMONG}"
    for table in ("signoffs", "round_changes", "hands"):
        db.execute(f"DELETE FROM {table} WHERE round_id IN ({rounds})", [games])
    for table in ("seat_results", "notes", "seats", "seat_claims", "rounds"):
        db.execute(f"DELETE FROM {table} WHERE game_id {AMONG}", [games])
    db.execute(f"DELETE FROM games WHERE id {AMONG}", [games])
    return False


# One chunk of staged games (:first to :last) in, ids taken after the highest already stored. A
# chunk's rounds are numbered one after another in the staging file: `temp.restore_chunk` holds
# their first and last number and what turns them into stored ids.
_GAMES = "BETWEEN :first AND :last"
_ROUNDS = "BETWEEN (SELECT first FROM temp.restore_chunk) AND (SELECT last FROM temp.restore_chunk)"
_OFFSET = "(SELECT offset FROM temp.restore_chunk)"
_COPY = [
    "INSERT INTO temp.restore_games SELECT id, id + (SELECT coalesce(max(id), 0) FROM main.games) + 1 - :first"
    f" FROM staged.games WHERE id {_GAMES}",
    "INSERT INTO main.games (id, crew_id, created, finished, rules, first_dealer, status, rematch_of)"
    " SELECT m.stored, :crew, g.created, g.finished, g.rules, g.first_dealer, g.status, earlier.stored"
    " FROM staged.games AS g"
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
    f"INSERT INTO main.rounds (id, {', '.join(columns.ROUND)}, version)"
    f" SELECT r.id + {_OFFSET}, {', '.join('m.stored' if c == 'game_id' else 'r.' + c for c in columns.ROUND)}, 1"
    f" FROM staged.rounds AS r JOIN temp.restore_games AS m ON m.staged = r.game_id WHERE r.id {_ROUNDS}"
    " ORDER BY r.id",
    f"INSERT INTO main.hands ({', '.join(columns.HAND)})"
    f" SELECT round_id + {_OFFSET}, {', '.join(columns.HAND[1:])} FROM staged.hands WHERE round_id {_ROUNDS}",
    f"INSERT INTO main.round_changes ({', '.join(columns.CHANGE)})"
    f" SELECT round_id + {_OFFSET}, {', '.join(columns.CHANGE[1:])}"
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


# The staging file: the rows as they will be stored, numbered from 1 in the file's order.
_STAGING = """
CREATE TABLE crew (name, created, rules);
CREATE TABLE players (id INTEGER PRIMARY KEY, name, name_key, created);
CREATE TABLE games (id INTEGER PRIMARY KEY, created, finished, rules, first_dealer, status, rematch_of);
CREATE TABLE seats (game_id, seat, player_id, won, PRIMARY KEY (game_id, seat)) WITHOUT ROWID;
CREATE TABLE notes (kind, game_id, text);
CREATE TABLE rounds (id INTEGER PRIMARY KEY, {round_columns});
CREATE TABLE hands ({hand_columns}, PRIMARY KEY (round_id, seat)) WITHOUT ROWID;
CREATE TABLE round_changes ({change_columns});
CREATE TABLE signoffs (round_id, seat, device, at);
CREATE TABLE results ({columns}, PRIMARY KEY (game_id, seat)) WITHOUT ROWID;
CREATE INDEX rounds_game ON rounds (game_id);
CREATE INDEX notes_game ON notes (game_id);
CREATE INDEX changes_round ON round_changes (round_id);
CREATE INDEX signoffs_round ON signoffs (round_id);
"""


def _stage(raw, staged, per_write, say):
    """Parse and check the file, and write its rows into a new staging file, `per_write` games
    per transaction, saying how many games are staged after each; returns the game count."""
    crew, players, games, names = checked(raw)
    conn = sqlite3.connect(staged, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")  # the parent reads while this writes
        conn.execute("PRAGMA synchronous = OFF")
        conn.executescript(_STAGING.format(
            columns=", ".join(COLUMNS), round_columns=", ".join(columns.ROUND), hand_columns=", ".join(columns.HAND),
            change_columns=", ".join(columns.CHANGE)) + club_night_transfer.STAGING + season_transfer.STAGING)
        conn.execute("BEGIN")
        conn.execute("INSERT INTO crew VALUES (?, ?, ?)", [crew["name"], crew["created"], json.dumps(crew["rules"])])
        player_ids = {name_rule.key(player["name"]): n for n, player in enumerate(players, start=1)}
        conn.executemany("INSERT INTO players (id, name, name_key, created) VALUES (?, ?, ?, ?)",
                         [(n, player["name"], name_rule.key(player["name"]), player["created"])
                          for n, player in enumerate(players, start=1)])
        conn.execute("COMMIT")
        say(0)
        checks, game_ids, round_id, staged_games = GameChecks(names), {}, 0, 0
        by_number = {game["number"]: game for game in games}  # checked by the time the nights are
        for first in range(1, len(games) + 1, per_write):
            chunk = [checks.check(game) for game in games[first - 1:first - 1 + per_write]]
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
            if staged_games == len(games):  # the nights and seasons name the games: staged with the last chunk
                _stage_nights(conn, crew, game_ids, player_ids, by_number)
            say(staged_games)
        if not games:
            _stage_nights(conn, crew, game_ids, player_ids, by_number)
        return staged_games
    finally:
        conn.close()


def _stage_nights(conn, crew, game_ids, player_ids, by_number):
    conn.execute("BEGIN")
    club_night_restore.stage(conn, crew["club_nights"], game_ids, player_ids, by_number, len(crew["seasons"]))
    season_restore.stage(conn, crew["seasons"], game_ids, len(crew["club_nights"]))
    conn.execute("COMMIT")


_NONE_YET = dict.fromkeys(columns.ROUND)  # a column a file leaves out (added after it was written)


def _stage_game(rows, game_id, game, game_ids, player_ids, round_id):
    """Add one checked game's rows; returns the last staged round number."""
    rows["games"].append((game_id, game["created"], game["finished"], json.dumps(game["rules"]), game["first_dealer"],
                          game["status"], game_ids.get(game["rematch_of"])))
    seated = {seat: (player_ids[name_rule.key(name)], seat in game["winner_seats"])
              for seat, name in enumerate(game["seats"])}
    rows["seats"] += [(game_id, seat, player_id, int(won)) for seat, (player_id, won) in seated.items()]
    rows["notes"] += [(kind, game_id, game[key])
                      for key, kind in (("note", "game"), ("night_note", "night")) if game.get(key)]
    saved = []
    for entry in game["rounds"]:
        round_id += 1
        bid = entry["bid"] or {}
        stored = {**_NONE_YET, **entry, "game_id": game_id, "bid_seat": bid.get("seat"), "bid_number": bid.get("number"),
                  "bid_suit": bid.get("suit")}
        rows["rounds"].append((round_id, *(stored[column] for column in columns.ROUND)))
        rows["hands"] += [tuple({**hand, "round_id": round_id, "won": " ".join(hand["won"]),
                                 "counts": _counts_text(hand["counts"])}[column] for column in columns.HAND)
                          for hand in entry["hands"]]
        rows["round_changes"] += [(round_id, *(change[column] for column in columns.CHANGE[1:]))
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
    key = (*counts, *counts.values())
    text = _COUNTS_WRITTEN.get(key)
    if text is None:
        text = _COUNTS_WRITTEN[key] = json.dumps(counts)
    return text


def _say(value):
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    # This process lives for one file: what it allocates goes with it. Python's cycle collector
    # would walk the whole parsed file again and again as it grows (a sixth of the time for a
    # 2,000-game file), and finds nothing to free.
    gc.disable()
    _stage_and_answer(sys.stdin.buffer.read(), sys.argv[1], int(sys.argv[2]), _say)
