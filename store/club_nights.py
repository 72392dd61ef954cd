"""Club nights: the night, who is here, each stage's places and tables, the organiser's log, and the
one read the leaderboard's live poll makes. The log holds facts, not words (m0016): a line's stage,
the players it names (`players`, ids as a JSON list), a count and how many times in a row; `changes`
returns them with the players' names as they are now, and the web words them. A line from an older
release (or an older export restored) may still hold its words in `detail`: the web shows them as they are."""
import json

from . import get_db, now
from .crews import player_ids_for_names
from .lists import AMONG, listed
from scoring import club_night


def create(db, crew_id, name, format, stage_hands, ranking, seed, names, seating="mixed", season_id=None):
    """Store a night and its players (new names join the crew) in db's transaction; returns its id."""
    night_id = db.execute(
        "INSERT INTO club_nights (crew_id, name, created, format, stage_hands, ranking, seed, seating, season_id)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [crew_id, name, now(), format, stage_hands, ranking, seed, seating,
                                               season_id],
    ).lastrowid
    player_ids = player_ids_for_names(db, crew_id, names)
    for player_id in player_ids:
        db.execute("INSERT INTO club_night_players (night_id, player_id, here, joined) VALUES (?, ?, 1, ?)",
                   [night_id, player_id, now()])
    log(db, night_id, "created", players=player_ids)
    return night_id


def night(crew_id, night_id, db=None):
    """The night with its players (id, name, here) in the order they joined, or None."""
    db = db or get_db()
    rows = list(db.query("SELECT * FROM club_nights WHERE id = ? AND crew_id = ?", [night_id, crew_id]))
    if not rows:
        return None
    found = rows[0]
    found["finished"] = finished(db, night_id)
    found["players"] = list(db.query(
        "SELECT players.id, players.name, club_night_players.here FROM club_night_players"
        " JOIN players ON players.id = club_night_players.player_id WHERE night_id = ?"
        " ORDER BY club_night_players.joined, players.id", [night_id]))
    return found


def nights(crew_id):
    """The crew's club nights, newest first, with how many players and stages each had."""
    return list(get_db().query(
        "SELECT club_nights.*, (SELECT count(*) FROM club_night_players WHERE night_id = club_nights.id)"
        " AS player_count, (SELECT count(*) FROM club_night_stages WHERE night_id = club_nights.id)"
        " AS stage_count FROM club_nights WHERE crew_id = ? ORDER BY created DESC, id DESC", [crew_id]))


def stages(night_id, db=None):
    """The night's stages in order, each with its places (player, table, seat) and its tables'
    games (table -> game id, status, and the players the game seats now, in seat order)."""
    db = db or get_db()
    found = list(db.query("SELECT * FROM club_night_stages WHERE night_id = ? ORDER BY number", [night_id]))
    places = {}
    for row in db.query("SELECT * FROM club_night_places WHERE night_id = ? ORDER BY stage, table_no, seat",
                        [night_id]):
        places.setdefault(row["stage"], []).append(row)
    tables = {}
    for row in db.query(
        "SELECT club_night_tables.stage, club_night_tables.table_no, games.id AS game_id, games.status,"
        " (SELECT json_group_object(seat, player_id) FROM seats WHERE seats.game_id = games.id) AS seated,"
        " (SELECT count(*) FROM rounds WHERE rounds.game_id = games.id AND rounds.status = 'scored') AS hands"
        " FROM club_night_tables JOIN games ON games.id = club_night_tables.game_id"
        " WHERE club_night_tables.night_id = ?", [night_id],
    ):
        seated = json.loads(row.pop("seated") or "{}")
        row["players"] = [seated[seat] for seat in sorted(seated, key=int)]
        tables.setdefault(row["stage"], {})[row["table_no"]] = row
    for stage in found:
        stage["places"] = places.get(stage["number"], [])
        stage["tables"] = tables.get(stage["number"], {})
    return found


def results(night_id, db=None):
    """Each table game's seats with their points and hands so far: (stage, table, game, seat,
    player, points, hands), from the games' results that every saved round keeps current."""
    return list((db or get_db()).query(
        "SELECT club_night_tables.stage, club_night_tables.table_no, seats.game_id, seats.seat,"
        " seats.player_id, coalesce(seat_results.total, 0) AS points,"
        " coalesce(seat_results.rounds, 0) AS hands"
        " FROM club_night_tables JOIN seats ON seats.game_id = club_night_tables.game_id"
        " LEFT JOIN seat_results ON seat_results.game_id = seats.game_id AND seat_results.seat = seats.seat"
        " WHERE club_night_tables.night_id = ? ORDER BY club_night_tables.stage, club_night_tables.table_no,"
        " seats.seat", [night_id]))


def results_of_nights(night_ids, db=None):
    """`results` of several nights in one read, each row with its night's id."""
    return list((db or get_db()).query(
        "SELECT club_night_tables.night_id, club_night_tables.stage, club_night_tables.table_no, seats.player_id,"
        " coalesce(seat_results.total, 0) AS points, coalesce(seat_results.rounds, 0) AS hands"
        " FROM club_night_tables JOIN seats ON seats.game_id = club_night_tables.game_id"
        " LEFT JOIN seat_results ON seat_results.game_id = seats.game_id AND seat_results.seat = seats.seat"
        f" WHERE club_night_tables.night_id {AMONG} ORDER BY club_night_tables.night_id, club_night_tables.stage,"
        " club_night_tables.table_no, seats.seat", [listed(night_ids)]))


def live_mark_sql(crew):
    """The live mark (`live_mark`) as one scalar subquery, for a statement of its own or another
    read's column (store/links.py, `resolve`, a night's live poll): one `?`, the night's id, and
    `crew`, the SQL that names the crew's id. NULL when the crew has no such night."""
    return (
        "(SELECT club_nights.version || '-' || (SELECT count(*) FROM club_night_tables JOIN games"
        " ON games.id = club_night_tables.game_id WHERE club_night_tables.night_id = club_nights.id"
        " AND games.status = 'playing') || '.' || ((SELECT coalesce(sum(games.board_version), 0)"
        " FROM club_night_tables JOIN games ON games.id = club_night_tables.game_id"
        " WHERE club_night_tables.night_id = club_nights.id) - (SELECT count(*)"
        " FROM club_night_tables JOIN rounds ON rounds.game_id = club_night_tables.game_id"
        " WHERE club_night_tables.night_id = club_nights.id))"
        f" FROM club_nights WHERE club_nights.id = ? AND club_nights.crew_id = {crew})")


def live_mark(crew_id, night_id):
    """What the leaderboard shows, as one short mark read in one statement: the night's own version
    and its table games' scoreboard versions less their rounds. A scoreboard's version moves on a
    round's start too, which the leaderboard does not show; a start (or a correction begun) adds a
    round in the same write, so the difference moves only on saves, undos, corrections saved,
    verdicts and repairs, and never goes back (a round is only ever deleted with a bump: one
    correction dropped). The part before the dot also counts the tables still playing: when the
    last one finishes, the controls the night offers change ("Draw stage 2", "Finish the night"),
    and a phone's poll brings the whole night back. None when the link has no such night."""
    return get_db().conn.execute(f"SELECT {live_mark_sql('?')}", [night_id, crew_id]).fetchone()[0]


def table_of_game(game_id, db=None):
    """The club night table a game is played at (night id and name, stage, table, and when the
    stage's clock ends: `ends_at`, None without one), or None."""
    rows = list((db or get_db()).query(
        "SELECT club_nights.id AS night_id, club_nights.name, club_night_tables.stage, club_night_tables.table_no,"
        " club_night_stages.ends_at"
        " FROM club_night_tables JOIN club_nights ON club_nights.id = club_night_tables.night_id"
        " JOIN club_night_stages ON club_night_stages.night_id = club_night_tables.night_id"
        " AND club_night_stages.number = club_night_tables.stage"
        " WHERE club_night_tables.game_id = ?", [game_id]))
    return rows[0] if rows else None


def set_clock(db, night_id, number, ends_at):
    """Give a stage its clock (`ends_at`, UTC ISO 8601), or take it away (None)."""
    db.execute("UPDATE club_night_stages SET ends_at = ? WHERE night_id = ? AND number = ?", [ends_at, night_id, number])


def player_of_device(night_id, device):
    """The player a phone last took a seat for at one of the night's tables, or checked in as at
    its door (store/door.py), whichever came last; None when neither."""
    row = get_db().execute(
        "SELECT seats.player_id, seat_claims.claimed AS at FROM seat_claims"
        " JOIN club_night_tables ON club_night_tables.game_id = seat_claims.game_id"
        " JOIN seats ON seats.game_id = seat_claims.game_id AND seats.seat = seat_claims.seat"
        " WHERE club_night_tables.night_id = ? AND seat_claims.device = ?"
        " UNION ALL SELECT player_id, at FROM door_check_ins WHERE night_id = ? AND device = ?"
        " ORDER BY at DESC LIMIT 1", [night_id, device, night_id, device]).fetchone()
    return row[0] if row else None


def finished(db, night_id):
    """When the night was finished (its log's last "finished" line, unless a "reopened" line came
    after it: the log is where it is kept, and an export's log brings it back), or None."""
    row = db.execute("SELECT action, at FROM club_night_changes WHERE night_id = ?"
                     " AND action IN ('finished', 'reopened') ORDER BY id DESC LIMIT 1", [night_id]).fetchone()
    return row[1] if row and row[0] == "finished" else None


def final_night_of_game(game_id, db=None):
    """The name of the finished club night a game was played at, or None (no night, or open)."""
    db = db or get_db()
    row = db.execute("SELECT club_night_tables.night_id, club_nights.name FROM club_night_tables"
                     " JOIN club_nights ON club_nights.id = club_night_tables.night_id"
                     " WHERE club_night_tables.game_id = ?", [game_id]).fetchone()
    return row[1] if row and finished(db, row[0]) else None


def draw_mark(night_id, db=None):
    """All a draw depends on that can change, as one short mark in one statement: the night's
    version (who is here, stages drawn, swapped, started, the finish) and its tables' games (their
    versions, which any change to a game moves, and how many are still being played). A draw read
    with a mark writes only if the mark is the same in its write."""
    return tuple((db or get_db()).execute(
        "SELECT club_nights.version, count(games.id), coalesce(sum(games.version), 0),"
        " coalesce(sum(games.status = 'playing'), 0) FROM club_nights"
        " LEFT JOIN club_night_tables ON club_night_tables.night_id = club_nights.id"
        " LEFT JOIN games ON games.id = club_night_tables.game_id WHERE club_nights.id = ?"
        " GROUP BY club_nights.id", [night_id]).fetchone() or ())


def running_tables(db, night_id, player_ids):
    """Where any of these players sits at a table of another club night whose game is still being
    played: (player id, night name, stage, table) rows."""
    return list(db.query(
        "SELECT seats.player_id, club_nights.name, club_night_tables.stage, club_night_tables.table_no"
        " FROM club_night_tables JOIN games ON games.id = club_night_tables.game_id"
        " JOIN seats ON seats.game_id = games.id JOIN club_nights ON club_nights.id = club_night_tables.night_id"
        f" WHERE games.status = 'playing' AND club_night_tables.night_id != ? AND seats.player_id {AMONG}"
        " ORDER BY club_night_tables.night_id, club_night_tables.stage, club_night_tables.table_no",
        [night_id, listed(player_ids)]))


def log_length(night_id):
    return get_db().execute("SELECT count(*) FROM club_night_changes WHERE night_id = ?", [night_id]).fetchone()[0]


def changes(night_id, last=None):
    """The night's log (or its `last` lines), oldest first: each line's action, its facts (`stage`, `count`, `times`, and
    `names`, the names of the players it names as they are now) and any words an older release
    stored (`detail`, empty otherwise)."""
    db = get_db()
    # The crew's players, not only tonight's list: a check-in at the door undone leaves it.
    names = dict(db.execute("SELECT players.id, players.name FROM players JOIN club_nights"
                            " ON club_nights.crew_id = players.crew_id WHERE club_nights.id = ?", [night_id]).fetchall())
    rows = list(db.query("SELECT * FROM club_night_changes WHERE night_id = ? ORDER BY id", [night_id])) \
        if last is None else list(db.query(
            "SELECT * FROM (SELECT * FROM club_night_changes WHERE night_id = ? ORDER BY id DESC LIMIT ?) ORDER BY id",
            [night_id, last]))
    for row in rows:
        row["names"] = [names.get(player_id, "?") for player_id in json.loads(row["players"] or "[]")]
    return rows


def ids(players):
    """The players a log line names, as its `players` column holds them (a JSON list of ids), or None."""
    return json.dumps(list(players), separators=(",", ":")) if players else None


# --- Writes, in the caller's transaction ----------------------------------------------------

def bump(db, night_id):
    db.execute("UPDATE club_nights SET version = version + 1 WHERE id = ?", [night_id])


class LogFull(Exception):
    """The night's log holds `scoring.club_night.MAX_LOG_LINES` lines: a new one would make an
    export that no restore takes."""


def log(db, night_id, action, stage=None, players=(), count=None):
    """Log a step of the night with its facts (it happened once: `times` is 1); LogFull when the
    log has no room (the caller's transaction is then rolled back, the step with it)."""
    lines = db.execute("SELECT count(*) FROM club_night_changes WHERE night_id = ?", [night_id]).fetchone()[0]
    if lines >= club_night.MAX_LOG_LINES:
        raise LogFull()
    db.execute("INSERT INTO club_night_changes (night_id, at, action, detail, stage, players, count)"
               " VALUES (?, ?, ?, '', ?, ?, ?)", [night_id, now(), action, stage, ids(players), count])


def log_again(db, night_id, actions, same, stage=None, players=(), count=None):
    """Log a step of the night, or count it on the line the same step already has since the last
    stage started: of this gap's lines whose action is in `actions`, the newest with the same `same`
    fact ("stage": a stage drawn or swapped again; "players": a player leaving and coming back) takes
    this step's action and facts, and counts one more (`times`; the web says "· 3 swaps").
    So drawing again, swapping and a player leaving and coming back, in any order and any number
    of times, leave one line each per stage (bounded as a round's history is, and far below the
    100,000 lines a restore takes: 20 stages of at most a drawing, a swap and 200 players' lines)."""
    column, value = {"stage": ("stage", stage), "players": ("players", ids(players))}[same]
    row = db.execute(
        "SELECT id FROM club_night_changes WHERE night_id = ? AND id > (SELECT coalesce(max(id), 0)"
        " FROM club_night_changes WHERE night_id = ? AND action = 'started')"
        f" AND action {AMONG} AND detail = '' AND {column} = ? ORDER BY id DESC LIMIT 1",
        [night_id, night_id, listed(actions), value]).fetchone()
    if row is None:
        return log(db, night_id, actions[0], stage, players, count)
    db.execute("UPDATE club_night_changes SET at = ?, action = ?, stage = ?, players = ?, count = ?, times = times + 1"
               " WHERE id = ?", [now(), actions[0], stage, ids(players), count, row[0]])


def add_player(db, crew_id, night_id, name):
    """Add a player by name (known to the crew or new); returns the id, or None when already in."""
    player_id = player_ids_for_names(db, crew_id, [name])[0]
    added = db.execute("INSERT OR IGNORE INTO club_night_players (night_id, player_id, here, joined)"
                       " VALUES (?, ?, 1, ?)", [night_id, player_id, now()]).rowcount
    return player_id if added else None


def set_here(db, night_id, player_id, here):
    return db.execute("UPDATE club_night_players SET here = ? WHERE night_id = ? AND player_id = ?",
                      [int(here), night_id, player_id]).rowcount


def add_stage(db, night_id, number, seating, made=None):
    """Store a drawn stage: every player's table and seat, or sitting out (table and seat NULL),
    and how its tables were made (a night seated by standing)."""
    db.execute("INSERT INTO club_night_stages (night_id, number, status, drawn, made) VALUES (?, ?, 'planned', ?, ?)",
               [night_id, number, now(), made])
    put_places(db, night_id, number, seating)


def redraw_stage(db, night_id, number, seating, made=None):
    """A planned stage drawn again: its places replaced, its time of drawing now."""
    db.execute("UPDATE club_night_stages SET drawn = ?, made = ? WHERE night_id = ? AND number = ?",
               [now(), made, night_id, number])
    put_places(db, night_id, number, seating)


def drop_stage(db, night_id, number):
    """A planned stage that never started, thrown away (a night finished before it)."""
    db.execute("DELETE FROM club_night_places WHERE night_id = ? AND stage = ?", [night_id, number])
    db.execute("DELETE FROM club_night_stages WHERE night_id = ? AND number = ?", [night_id, number])


def put_places(db, night_id, number, seating):
    db.execute("DELETE FROM club_night_places WHERE night_id = ? AND stage = ?", [night_id, number])
    for table_no, table in enumerate(seating.tables, start=1):
        for seat, player_id in enumerate(table):
            db.execute("INSERT INTO club_night_places (night_id, stage, player_id, table_no, seat)"
                       " VALUES (?, ?, ?, ?, ?)", [night_id, number, player_id, table_no, seat])
    for player_id in seating.sitting_out:
        db.execute("INSERT INTO club_night_places (night_id, stage, player_id) VALUES (?, ?, ?)",
                   [night_id, number, player_id])


def start_stage(db, night_id, number, games):
    """Mark the stage started with its tables' games (table number -> game id)."""
    db.execute("UPDATE club_night_stages SET status = 'playing', started = ? WHERE night_id = ? AND number = ?",
               [now(), night_id, number])
    for table_no, game_id in games.items():
        db.execute("INSERT INTO club_night_tables (night_id, stage, table_no, game_id) VALUES (?, ?, ?, ?)",
                   [night_id, number, table_no, game_id])
