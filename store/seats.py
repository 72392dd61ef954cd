"""Phones at the table: which phone holds which seat, and sign-offs."""
import datetime

from . import get_db, now
from .games import bump
from .lists import AMONG, listed

# A phone that has not been heard from for this long no longer keeps its seat from others.
IDLE_AFTER = datetime.timedelta(minutes=30)
# Polls refresh a claim's "seen" time at most this often, so an idle table writes almost nothing.
SEEN_EVERY = datetime.timedelta(seconds=60)


class SeatTaken(Exception):
    """Another phone that is still active holds this seat."""


def claims(game_id, db=None):
    """seat -> claim row, for the seats phones hold in this game."""
    rows = (db or get_db()).query("SELECT * FROM seat_claims WHERE game_id = ?", [game_id])
    return {row["seat"]: row for row in rows}


def is_idle(claim, at=None):
    seen = datetime.datetime.fromisoformat(claim["seen"])
    return (at or datetime.datetime.now(datetime.timezone.utc)) - seen > IDLE_AFTER


def take(db, game_id, seat, device, force=False):
    """Give `seat` to this phone (releasing any other seat it held); SeatTaken unless the seat
    is free, idle, already this phone's, or the table chose to reassign it."""
    held = claims(game_id, db).get(seat)
    if held and held["device"] != device and not force and not is_idle(held):
        raise SeatTaken()
    db.execute("DELETE FROM seat_claims WHERE game_id = ? AND (seat = ? OR device = ?)", [game_id, seat, device])
    stamp = now()
    db.execute(
        "INSERT INTO seat_claims (game_id, seat, device, claimed, seen) VALUES (?, ?, ?, ?, ?)",
        [game_id, seat, device, stamp, stamp],
    )
    bump(db, game_id)


def leave(db, game_id, device):
    if db.execute("DELETE FROM seat_claims WHERE game_id = ? AND device = ?", [game_id, device]).rowcount:
        bump(db, game_id)


def seen_long_ago(game_id, device, seen=...):
    """Whether this phone's claim on a seat was last seen long enough ago to be noted again (a
    read decides, or `seen`, when the caller read it already), so polls rarely write."""
    if seen is ...:
        rows = list(
            get_db().query(
                "SELECT seen FROM seat_claims WHERE game_id = ? AND device = ?", [game_id, device]
            )
        )
        seen = rows[0]["seen"] if rows else None
    if seen is None:
        return False
    return datetime.datetime.now(datetime.timezone.utc) - datetime.datetime.fromisoformat(seen) > SEEN_EVERY


def note_seen(db, game_id, device):
    """Note, in db's transaction, that this phone is still at the table."""
    db.execute("UPDATE seat_claims SET seen = ? WHERE game_id = ? AND device = ?", [now(), game_id, device])


def signoffs(round_ids, db=None):
    """round id -> set of seats that agreed to their score in that round."""
    if not round_ids:
        return {}
    rows = (db or get_db()).query(
        f"SELECT round_id, seat FROM signoffs WHERE round_id {AMONG}", [listed(round_ids)]
    )
    agreed = {}
    for row in rows:
        agreed.setdefault(row["round_id"], set()).add(row["seat"])
    return agreed


def agree(db, round_id, seat, device):
    """Record a seat's sign-off on a round; False when it had already agreed."""
    return db.execute(
        "INSERT OR IGNORE INTO signoffs (round_id, seat, device, at) VALUES (?, ?, ?, ?)",
        [round_id, seat, device, now()],
    ).rowcount == 1
