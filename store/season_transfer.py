"""Seasons in a crew's JSON export and back in by its restore: each season's days and rule, the
events left out of it (a game by its number in the file, a club night by its place in the file's
list of nights, counting from 1) with their reasons, and its log. The standings are not carried:
they are the engine's, worked out again from the games and nights."""
import json

# --- Out ------------------------------------------------------------------------------------


def export(db, crew_id, numbers):
    """The crew's seasons as plain values; `numbers`: game id -> its number in the file."""
    nights = {row[0]: n for n, row in enumerate(db.execute(
        "SELECT id FROM club_nights WHERE crew_id = ? ORDER BY created, id", [crew_id]).fetchall(), start=1)}
    found = []
    for season in db.query("SELECT * FROM seasons WHERE crew_id = ? ORDER BY id", [crew_id]):
        key = [season["id"]]
        found.append({
            "name": season["name"], "created": season["created"], "first_day": season["first_day"],
            "last_day": season["last_day"], "best": season["best"], "minimum": season["minimum"],
            "left_out": [{**({"game": numbers[row["game_id"]]} if row["game_id"] is not None
                             else {"night": nights[row["night_id"]]}), "reason": row["reason"], "at": row["at"]}
                         for row in db.query("SELECT * FROM season_left_out WHERE season_id = ? ORDER BY id", key)],
            "changes": [{"at": row["at"], "action": row["action"], "detail": row["detail"],
                         "before": json.loads(row["before"] or "null"), "after": json.loads(row["after"] or "null")}
                        for row in db.query("SELECT * FROM season_changes WHERE season_id = ? ORDER BY id", key)],
        })
    return found


# --- Staged (checked by `season_restore`, with the club nights, after the last game) -----------

STAGING = """
CREATE TABLE seasons (id INTEGER PRIMARY KEY, name, created, first_day, last_day, best, minimum);
CREATE TABLE season_left_out (season_id, game_id, night_id, reason, at);
CREATE TABLE season_changes (season_id, at, action, detail, before, after);
"""


# --- Copied in (in the parent, after the club nights, in its write transaction) ----------------

COPY = [
    "CREATE TEMP TABLE IF NOT EXISTS restore_seasons (staged INTEGER PRIMARY KEY, stored INTEGER)",
    "DELETE FROM temp.restore_seasons",
    "INSERT INTO temp.restore_seasons SELECT id, id + (SELECT coalesce(max(id), 0) FROM main.seasons) FROM staged.seasons",
    "INSERT INTO main.seasons (id, crew_id, name, created, first_day, last_day, best, minimum)"
    " SELECT m.stored, :crew, s.name, s.created, s.first_day, s.last_day, s.best, s.minimum"
    " FROM staged.seasons AS s JOIN temp.restore_seasons AS m ON m.staged = s.id ORDER BY s.id",
    "INSERT INTO main.season_left_out (season_id, game_id, night_id, reason, at)"
    " SELECT m.stored, g.stored, n.stored, x.reason, x.at FROM staged.season_left_out AS x"
    " JOIN temp.restore_seasons AS m ON m.staged = x.season_id"
    " LEFT JOIN temp.restore_games AS g ON g.staged = x.game_id"
    " LEFT JOIN temp.restore_nights AS n ON n.staged = x.night_id ORDER BY x.rowid",
    # A night seated by standing names its season: set once both are in.
    "UPDATE main.club_nights SET season_id = (SELECT s.stored FROM staged.nights AS n"
    " JOIN temp.restore_nights AS m ON m.staged = n.id JOIN temp.restore_seasons AS s ON s.staged = n.season"
    " WHERE m.stored = main.club_nights.id) WHERE id IN (SELECT stored FROM temp.restore_nights)",
    "INSERT INTO main.season_changes (season_id, at, action, detail, before, after)"
    " SELECT m.stored, x.at, x.action, x.detail, x.before, x.after FROM staged.season_changes AS x"
    " JOIN temp.restore_seasons AS m ON m.staged = x.season_id ORDER BY x.rowid",
]


def remove(db, crew_id):
    """Delete a crew's seasons (a restore cut off part way), inside the caller's transaction."""
    seasons = f"SELECT id FROM seasons WHERE crew_id = {int(crew_id)}"
    db.execute(f"UPDATE club_nights SET season_id = NULL WHERE crew_id = {int(crew_id)}")
    for table in ("season_changes", "season_left_out"):
        db.execute(f"DELETE FROM {table} WHERE season_id IN ({seasons})")
    db.execute("DELETE FROM seasons WHERE crew_id = ?", [crew_id])
