"""A club night's door (issue 44, item 3): which phone checked in as which player, and what the
check-in did to tonight's list, so the organiser's undo can put it back. Not exported: like a
seat claim, it belongs to the phones of the evening, not to the crew's history."""
from . import get_db, now

ADDED, BACK, HERE = "added", "back", "here"  # what a check-in did to tonight's list


def of_device(night_id, device, db=None):
    """The phone's check-in at this night (player_id, at, did), or None."""
    rows = list((db or get_db()).query("SELECT player_id, at, did FROM door_check_ins WHERE night_id = ? AND device = ?",
                                       [night_id, device]))
    return rows[0] if rows else None


def of_night(night_id, db=None):
    """{player id: (when they checked in, what it did)} for the night's check-ins, the latest each."""
    found = {}
    for row in (db or get_db()).query("SELECT player_id, at, did FROM door_check_ins WHERE night_id = ?"
                                      " ORDER BY at", [night_id]):
        found[row["player_id"]] = (row["at"], row["did"])
    return found


def arrivals_logged(db, night_id):
    """How many new names the night's door added (its log's "door" lines, undone ones too)."""
    return db.execute("SELECT count(*) FROM club_night_changes WHERE night_id = ? AND action = 'door'",
                      [night_id]).fetchone()[0]


def drawn_since(db, night_id, at):
    """Whether a stage of the night was drawn (or drawn again) at or after `at`."""
    return db.execute("SELECT 1 FROM club_night_stages WHERE night_id = ? AND drawn >= ? LIMIT 1",
                      [night_id, at]).fetchone() is not None


# --- Writes, in the caller's transaction ----------------------------------------------------

def check_in(db, night_id, device, player_id, did):
    db.execute("INSERT INTO door_check_ins (night_id, device, player_id, at, did) VALUES (?, ?, ?, ?, ?)",
               [night_id, device, player_id, now(), did])


def undo(db, night_id, player_id):
    """Forget the player's check-ins at the night; returns what the first one did, or None."""
    rows = db.execute("SELECT did FROM door_check_ins WHERE night_id = ? AND player_id = ? ORDER BY at",
                      [night_id, player_id]).fetchall()
    db.execute("DELETE FROM door_check_ins WHERE night_id = ? AND player_id = ?", [night_id, player_id])
    return rows[0][0] if rows else None


def leave_night(db, night_id, player_id):
    """Take a player who was never placed off tonight's list altogether."""
    db.execute("DELETE FROM club_night_players WHERE night_id = ? AND player_id = ?", [night_id, player_id])
