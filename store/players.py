"""A crew's players as people: found by id, renamed, and two names of one person merged."""
import json
import sqlite3

from scoring import names as name_rule

from . import get_db
from .crews import LookAlike
from .results import refresh_results


class NameTaken(Exception):
    """Another player of the crew already has this name (the same by `scoring.names.key`)."""


class SharedGame(Exception):
    """Two players sat at the same game, so they cannot be one person."""

    def __init__(self, game_id):
        super().__init__(game_id)
        self.game_id = game_id


class SharedNight(Exception):
    """Two players were both at the same club night, so they cannot be one person."""

    def __init__(self, night_id, name):
        super().__init__(night_id)
        self.night_id, self.name = night_id, name


class TwoRunningTables(Exception):
    """Both players sit at a club night table still being played: merged, one player would sit at
    two running tables."""


_AT_A_RUNNING_TABLE = ("SELECT 1 FROM club_night_tables JOIN games ON games.id = club_night_tables.game_id"
                       " AND games.status = 'playing' JOIN seats ON seats.game_id = games.id"
                       " WHERE seats.player_id = ? LIMIT 1")


def _named_again(db, keep_id, other_id):
    """The club nights' log lines that name `other_id` name `keep_id` instead (ids in a JSON list,
    written as store/club_nights.py `ids` writes them)."""
    rows = db.execute("SELECT id, players FROM club_night_changes WHERE players IS NOT NULL"
                      " AND EXISTS (SELECT 1 FROM json_each(club_night_changes.players) WHERE value = ?)",
                      [other_id]).fetchall()
    for change_id, players in rows:
        named = [keep_id if player == other_id else player for player in json.loads(players)]
        db.execute("UPDATE club_night_changes SET players = ? WHERE id = ?",
                   [json.dumps(named, separators=(",", ":")), change_id])


def _redraw(db, player_id):
    """Every page that shows the player's name draws it anew: the scoreboards of the games they
    sat at and the club nights they came to move their live versions on (a name is not a change
    a poll would otherwise see)."""
    db.execute("UPDATE games SET board_version = board_version + 1"
               " WHERE id IN (SELECT game_id FROM seats WHERE player_id = ?)", [player_id])
    db.execute("UPDATE club_nights SET version = version + 1"
               " WHERE id IN (SELECT night_id FROM club_night_players WHERE player_id = ?)", [player_id])


def player(crew_id, player_id):
    """The crew's player, or None when the crew has no such player."""
    rows = list(
        get_db().query("SELECT * FROM players WHERE id = ? AND crew_id = ?", [player_id, crew_id])
    )
    return rows[0] if rows else None


def rename(db, crew_id, player_id, name):
    """Give the player a new name, in db's transaction; NameTaken when another player of the crew
    has it, LookAlike when another's is drawn like it."""
    taken = list(
        db.query(
            "SELECT 1 FROM players WHERE crew_id = ? AND name_key = ? AND id != ?",
            [crew_id, name_rule.key(name), player_id],
        )
    )
    if taken:
        raise NameTaken()
    others = [row[0] for row in db.execute("SELECT name FROM players WHERE crew_id = ? AND id != ?",
                                           [crew_id, player_id])]
    other = name_rule.look_alike(name, others)
    if other:
        raise LookAlike(name, other)
    try:
        db.execute(
            "UPDATE players SET name = ?, name_key = ? WHERE id = ? AND crew_id = ?",
            [name, name_rule.key(name), player_id, crew_id],
        )
    except sqlite3.IntegrityError as error:  # the unique index, should a rename race this one
        raise NameTaken() from error
    _redraw(db, player_id)


def merge(db, crew_id, keep_id, other_id):
    """Move every seat of `other_id` (and their places at club nights) to `keep_id` and drop the
    emptied player; SharedGame when both sat at one game, SharedNight when both came to one
    club night. Returns how many games moved. In db's transaction."""
    both = list(
        db.query(
            """
            SELECT kept.game_id FROM seats AS kept
            JOIN seats AS other ON other.game_id = kept.game_id AND other.player_id = ?
            WHERE kept.player_id = ? ORDER BY kept.game_id LIMIT 1
            """,
            [other_id, keep_id],
        )
    )
    if both:
        raise SharedGame(both[0]["game_id"])
    nights = list(
        db.query(
            """
            SELECT club_nights.id, club_nights.name FROM club_night_players AS kept
            JOIN club_night_players AS other ON other.night_id = kept.night_id AND other.player_id = ?
            JOIN club_nights ON club_nights.id = kept.night_id
            WHERE kept.player_id = ? ORDER BY club_nights.id LIMIT 1
            """,
            [other_id, keep_id],
        )
    )
    if nights:
        raise SharedNight(nights[0]["id"], nights[0]["name"])
    if all(db.execute(_AT_A_RUNNING_TABLE, [player]).fetchone() for player in (keep_id, other_id)):
        raise TwoRunningTables()
    owned = list(
        db.query(
            "SELECT count(*) AS n FROM players WHERE crew_id = ? AND id IN (?, ?)",
            [crew_id, keep_id, other_id],
        )
    )
    if owned[0]["n"] != 2:
        raise LookupError("both players must belong to the crew")
    games = [row[0] for row in db.execute("SELECT game_id FROM seats WHERE player_id = ?", [other_id])]
    db.execute("UPDATE seats SET player_id = ? WHERE player_id = ?", [keep_id, other_id])
    for table in ("club_night_players", "club_night_places", "door_check_ins"):  # the nights they came to, too
        db.execute(f"UPDATE {table} SET player_id = ? WHERE player_id = ?", [keep_id, other_id])
    _named_again(db, keep_id, other_id)
    refresh_results(db, games)
    _redraw(db, keep_id)
    db.execute("DELETE FROM players WHERE id = ? AND crew_id = ?", [other_id, crew_id])
    return len(games)
