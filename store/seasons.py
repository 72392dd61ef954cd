"""Seasons: a crew's ladder between two days, its rule, the events left out of it by hand, its log,
and the finished games and club nights it is made of (the standings are the engine's, worked out
on every read, so a correction to any game moves them at once)."""
import json

from . import get_db, now
from .club_nights import finished
from .history import _utc_midnight


def create(db, crew_id, name, first_day, last_day, best, minimum):
    """Store a new season (in db's transaction) and log its opening; returns its id."""
    season_id = db.execute(
        "INSERT INTO seasons (crew_id, name, first_day, last_day, best, minimum, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [crew_id, name, first_day.isoformat(), last_day and last_day.isoformat(), best, minimum, now()]).lastrowid
    log(db, season_id, "opened")
    return season_id


def seasons(crew_id):
    """The crew's seasons, the newest first day first."""
    return list(get_db().query("SELECT * FROM seasons WHERE crew_id = ? ORDER BY first_day DESC, id DESC", [crew_id]))


def season(crew_id, season_id, db=None):
    rows = list((db or get_db()).query("SELECT * FROM seasons WHERE id = ? AND crew_id = ?", [season_id, crew_id]))
    return rows[0] if rows else None


def set_rule(db, season_id, best, minimum):
    db.execute("UPDATE seasons SET best = ?, minimum = ? WHERE id = ?", [best, minimum, season_id])


def left_out(season_id, db=None):
    """The events left out by hand: ("game" | "night", id) -> (reason, when)."""
    return {("game", row["game_id"]) if row["game_id"] is not None else ("night", row["night_id"]):
            (row["reason"], row["at"])
            for row in (db or get_db()).query("SELECT * FROM season_left_out WHERE season_id = ?", [season_id])}


def leave_out(db, season_id, kind, event_id, reason):
    db.execute("INSERT INTO season_left_out (season_id, game_id, night_id, reason, at) VALUES (?, ?, ?, ?, ?)",
               [season_id, event_id if kind == "game" else None, event_id if kind == "night" else None, reason, now()])


def count_again(db, season_id, kind, event_id):
    db.execute(f"DELETE FROM season_left_out WHERE season_id = ? AND {kind}_id = ?", [season_id, event_id])


def log(db, season_id, action, detail=None, before=None, after=None):
    db.execute("INSERT INTO season_changes (season_id, at, action, detail, before, after) VALUES (?, ?, ?, ?, ?, ?)",
               [season_id, now(), action, detail, None if before is None else json.dumps(before),
                None if after is None else json.dumps(after)])


def changes(season_id):
    """The season's log, newest first, a line's standings before and after read back."""
    return [{**row, "before": json.loads(row["before"] or "null"), "after": json.loads(row["after"] or "null")}
            for row in get_db().query("SELECT * FROM season_changes WHERE season_id = ? ORDER BY id DESC", [season_id])]


def names(crew_id, db=None):
    return {row["id"]: row["name"] for row in (db or get_db()).query("SELECT id, name FROM players WHERE crew_id = ?",
                                                                     [crew_id])}


def _bounds(first_day, last_day):
    return {"since": _utc_midnight(first_day, "0"),
            "until": "9" if last_day is None else _utc_midnight(last_day, "9", days_after=1)}


def finished_games(crew_id, first_day, last_day, db=None):
    """The crew's finished games between the days (local dates, inclusive) that were not played at a
    club night (a night counts as one event): id, created, when its rounds last changed, and each
    player's place (equal totals share one)."""
    db = db or get_db()
    rows = db.query(
        "SELECT games.id, games.created, (SELECT max(round_changes.at) FROM round_changes JOIN rounds"
        " ON rounds.id = round_changes.round_id WHERE rounds.game_id = games.id) AS changed,"
        " json_group_object(seat_results.player_id, seat_results.place) AS places"
        " FROM games JOIN seat_results ON seat_results.game_id = games.id"
        " WHERE games.crew_id = :crew AND games.status = 'finished' AND games.created >= :since"
        " AND games.created < :until AND games.id NOT IN (SELECT game_id FROM club_night_tables)"
        " GROUP BY games.id ORDER BY games.created, games.id",
        {"crew": crew_id, **_bounds(first_day, last_day)})
    return [{**row, "places": {int(k): v for k, v in json.loads(row["places"]).items()}} for row in rows]


def finished_nights(crew_id, first_day, last_day, db=None):
    """The crew's finished club nights that started between the days: the night's row (with when
    it finished) and when its log or any of its games last changed."""
    db = db or get_db()
    rows = db.query(
        "SELECT club_nights.*, max(coalesce((SELECT max(at) FROM club_night_changes"
        " WHERE night_id = club_nights.id), ''), coalesce((SELECT max(round_changes.at) FROM round_changes"
        " JOIN rounds ON rounds.id = round_changes.round_id JOIN club_night_tables"
        " ON club_night_tables.game_id = rounds.game_id WHERE club_night_tables.night_id = club_nights.id), ''))"
        " AS changed FROM club_nights WHERE crew_id = :crew AND created >= :since AND created < :until"
        " ORDER BY created, id", {"crew": crew_id, **_bounds(first_day, last_day)})
    found = []
    for row in rows:
        row["finished"] = finished(db, row["id"])
        if row["finished"]:
            found.append(row)
    return found
