"""Club nights in a crew's JSON export and back in by its restore: the night, who was there, each
stage's places and tables (a table names its game by the game's number in the file), and the
organiser's log. The restore checks and stages them with the games (`club_night_restore`) and
copies them in after the last game. A log line's facts are optional fields (a file from before
m0016 has only words, which the restore keeps as they are)."""
import json

from .lists import AMONG, listed

# --- Out ------------------------------------------------------------------------------------


def export(db, crew_id, numbers):
    """The crew's club nights as plain values; `numbers`: game id -> its number in the file. A night
    seated by standing names its season by its place in the file's seasons (counting from 1)."""
    nights = list(db.query("SELECT * FROM club_nights WHERE crew_id = ? ORDER BY created, id", [crew_id]))
    seasons = {row[0]: n for n, row in enumerate(db.execute(
        "SELECT id FROM seasons WHERE crew_id = ? ORDER BY id", [crew_id]).fetchall(), start=1)}
    names = {row["id"]: row["name"] for row in db.query("SELECT id, name FROM players WHERE crew_id = ?", [crew_id])}
    found = []
    for night in nights:
        key = [night["id"]]
        stages = list(db.query("SELECT * FROM club_night_stages WHERE night_id = ? ORDER BY number", key))
        places = list(db.query("SELECT * FROM club_night_places WHERE night_id = ?"
                               " ORDER BY stage, table_no IS NULL, table_no, seat, player_id", key))
        tables = list(db.query("SELECT * FROM club_night_tables WHERE night_id = ? ORDER BY stage, table_no", key))
        found.append({
            "name": night["name"], "created": night["created"], "format": night["format"],
            "stage_hands": night["stage_hands"], "ranking": night["ranking"], "seed": night["seed"],
            **({"seating": night["seating"]} if night["seating"] != "mixed" else {}),
            **({"season": seasons[night["season_id"]]} if night["season_id"] is not None else {}),
            "players": [{"name": names[row["player_id"]], "here": bool(row["here"]), "joined": row["joined"]}
                        for row in db.query("SELECT * FROM club_night_players WHERE night_id = ?"
                                            " ORDER BY joined, player_id", key)],
            "stages": [{
                "number": stage["number"], "status": stage["status"], "drawn": stage["drawn"],
                "started": stage["started"], **({"made": json.loads(stage["made"])} if stage["made"] else {}),
                **({"ends_at": stage["ends_at"]} if stage["ends_at"] else {}),
                "places": [{"player": names[p["player_id"]], "table": p["table_no"], "seat": p["seat"]}
                           for p in places if p["stage"] == stage["number"]],
                "tables": [{"table": t["table_no"], "game": numbers[t["game_id"]]}
                           for t in tables if t["stage"] == stage["number"]],
            } for stage in stages],
            "changes": [_change_out(row, names)
                        for row in db.query("SELECT * FROM club_night_changes WHERE night_id = ? ORDER BY id", key)],
        })
    return found


def _change_out(row, names):
    """A log line with its facts, each left out when it has none (a file from before m0016 has none)."""
    players = json.loads(row["players"] or "[]")
    return {"at": row["at"], "action": row["action"], "detail": row["detail"],
            **({"stage": row["stage"]} if row["stage"] is not None else {}),
            **({"players": [names[p] for p in players]} if players else {}),
            **({"count": row["count"]} if row["count"] is not None else {}),
            **({"times": row["times"]} if row["times"] > 1 else {})}


# --- Checked and staged (in the restore's child process) -------------------------------------

STAGING = """
CREATE TABLE nights (id INTEGER PRIMARY KEY, name, created, format, stage_hands, ranking, seed, seating, season);
CREATE TABLE night_players (night_id, player_id, here, joined);
CREATE TABLE night_stages (night_id, number, status, drawn, started, made, ends_at);
CREATE TABLE night_places (night_id, stage, player_id, table_no, seat);
CREATE TABLE night_tables (night_id, stage, table_no, game_id);
CREATE TABLE night_changes (night_id, at, action, detail, stage, players, count, times);
"""


# --- Copied in (in the parent, after the last game, in its write transaction) ----------------

COPY = [
    "CREATE TEMP TABLE IF NOT EXISTS restore_nights (staged INTEGER PRIMARY KEY, stored INTEGER)",
    "DELETE FROM temp.restore_nights",
    "INSERT INTO temp.restore_nights SELECT id, id + (SELECT coalesce(max(id), 0) FROM main.club_nights)"
    " FROM staged.nights",
    "INSERT INTO main.club_nights (id, crew_id, name, created, format, stage_hands, ranking, seed, seating)"
    " SELECT m.stored, :crew, n.name, n.created, n.format, n.stage_hands, n.ranking, n.seed, n.seating"
    " FROM staged.nights AS n JOIN temp.restore_nights AS m ON m.staged = n.id ORDER BY n.id",
    "INSERT INTO main.club_night_players (night_id, player_id, here, joined)"
    " SELECT m.stored, p.stored, x.here, x.joined FROM staged.night_players AS x"
    " JOIN temp.restore_nights AS m ON m.staged = x.night_id JOIN temp.restore_players AS p ON p.staged = x.player_id",
    "INSERT INTO main.club_night_stages (night_id, number, status, drawn, started, made, ends_at)"
    " SELECT m.stored, x.number, x.status, x.drawn, x.started, x.made, x.ends_at FROM staged.night_stages AS x"
    " JOIN temp.restore_nights AS m ON m.staged = x.night_id",
    "INSERT INTO main.club_night_places (night_id, stage, player_id, table_no, seat)"
    " SELECT m.stored, x.stage, p.stored, x.table_no, x.seat FROM staged.night_places AS x"
    " JOIN temp.restore_nights AS m ON m.staged = x.night_id JOIN temp.restore_players AS p ON p.staged = x.player_id",
    "INSERT INTO main.club_night_tables (night_id, stage, table_no, game_id)"
    " SELECT m.stored, x.stage, x.table_no, g.stored FROM staged.night_tables AS x"
    " JOIN temp.restore_nights AS m ON m.staged = x.night_id JOIN temp.restore_games AS g ON g.staged = x.game_id",
    # A line's players are staged ids in a JSON list, each made the stored player's, in order.
    "INSERT INTO main.club_night_changes (night_id, at, action, detail, stage, players, count, times)"
    " SELECT m.stored, x.at, x.action, x.detail, x.stage, CASE WHEN x.players IS NOT NULL THEN"
    " (SELECT json_group_array(stored) FROM (SELECT p.stored FROM json_each(x.players) AS j"
    " JOIN temp.restore_players AS p ON p.staged = j.value ORDER BY j.key)) END, x.count, x.times"
    " FROM staged.night_changes AS x"
    " JOIN temp.restore_nights AS m ON m.staged = x.night_id ORDER BY x.rowid",
]


def remove(db, crew_id):
    """Delete a crew's club nights (a restore cut off part way), inside the caller's transaction."""
    nights = listed([row[0] for row in db.execute("SELECT id FROM club_nights WHERE crew_id = ?", [crew_id])])
    for table in ("door_check_ins", "club_night_changes", "club_night_tables", "club_night_places",
                  "club_night_stages", "club_night_players"):
        db.execute(f"DELETE FROM {table} WHERE night_id {AMONG}", [nights])
    db.execute("DELETE FROM club_nights WHERE crew_id = ?", [crew_id])
