"""Rounds and hands as entered, and their revisions: a correction is a new revision of a saved round.
A round's start, redeals, save, correction, discard and undo are logged steps (round_log); the entry
itself (the bid, each hand, a hand marked all in) is a draft that only moves the version. The log
holds facts, not words: a save's scores are its revision's hands', a correction's "before" is the
revision it was copied from (`copied_from`), and the web words them."""
import json

from scoring import PLAYERS

from . import columns, get_db, now
from .games import bump
from .round_log import history, log, log_again  # noqa: F401  (callers reach them as rounds.*)

OPEN = "entering"
SCORED = "scored"


def hand_from_row(row, round_mode=None):
    """A stored hand row as the dict the app passes around (the one place rows are decoded)."""
    return {
        "seat": row["seat"],
        "mode": row.get("mode") or round_mode,
        "target": row["target"],
        "won": (row["won"] or "").split(),
        "counts": json.loads(row["counts"] or "{}"),
        "score": row["score"],
        "target_bonus": row.get("target_bonus"),
        "entered_by": row.get("entered_by"),
        "done": row.get("done"),
        "version": row.get("version") or 0,
    }


def _hands(db, round_id, round_mode):
    rows = db.query("SELECT * FROM hands WHERE round_id = ? ORDER BY seat", [round_id])
    return [hand_from_row(row, round_mode) for row in rows]


# A round revision, and whether it corrects a saved one, in one statement.
# A round comes with its game's live version, read in the same statement, before its hands: a
# page drawn from it carries a version no newer than what it shows, so a tap made on another phone
# while it was read is fetched by the page's next poll, never hidden behind a version that has it.
ROUND_SELECT = (
    "SELECT rounds.*, rounds.status = 'entering' AND EXISTS (SELECT 1 FROM rounds AS saved"
    " WHERE saved.game_id = rounds.game_id AND saved.number = rounds.number"
    " AND saved.status = 'scored') AS is_correction,"
    " (SELECT version FROM games WHERE games.id = rounds.game_id) AS live_version FROM rounds"
)


def _with_hands(db, rows):
    if not rows:
        return None
    found = rows[0]
    found["is_correction"] = bool(found["is_correction"])
    found["hands"] = _hands(db, found["id"], found["mode"])
    return found


def load(round_id, db=None):
    """One round revision with its four hands, or None."""
    db = db or get_db()
    return _with_hands(db, list(db.query(ROUND_SELECT + " WHERE rounds.id = ?", [round_id])))


def for_number(game_id, number, db=None):
    """The revision a page shows for a round number: the one being entered, else the saved one,
    else the latest deleted one (so it can be brought back)."""
    db = db or get_db()
    rows = list(
        db.query(
            """
            SELECT id FROM rounds WHERE game_id = ? AND number = ?
            ORDER BY CASE status WHEN 'entering' THEN 0 WHEN 'scored' THEN 1
                     WHEN 'deleted' THEN 2 ELSE 3 END, revision DESC
            LIMIT 1
            """,
            [game_id, number],
        )
    )
    return load(rows[0]["id"], db) if rows else None


def open_number(db, game_id, number):
    """The id of the revision of a round number open for entry, or None."""
    rows = list(db.query(
        "SELECT id FROM rounds WHERE game_id = ? AND number = ? AND status = 'entering'", [game_id, number]))
    return rows[0]["id"] if rows else None


def open_from(db, game_id, number):
    """Whether a round from `number` on is open for entry."""
    return bool(list(db.query(
        "SELECT 1 FROM rounds WHERE game_id = ? AND number >= ? AND status = 'entering'", [game_id, number])))


def revisions_by_status(db, game_id, number):
    """status -> id of a round number's saved and open revisions."""
    rows = db.query(
        "SELECT id, status FROM rounds WHERE game_id = ? AND number = ? AND status IN ('scored', 'entering')",
        [game_id, number])
    return {row["status"]: row["id"] for row in rows}


def scored(game_id, db=None):
    """The game's saved rounds in order, each with its four cached scores and target bonuses
    (`scores`, `bonuses`: lists in seat order)."""
    db = db or get_db()
    rounds = list(
        db.query(
            "SELECT * FROM rounds WHERE game_id = ? AND status = 'scored' ORDER BY number",
            [game_id],
        )
    )
    hands = {}
    for round_id, score, bonus in db.conn.execute(
        "SELECT hands.round_id, hands.score, hands.target_bonus FROM hands"
        " JOIN rounds ON rounds.id = hands.round_id"
        " WHERE rounds.game_id = ? AND rounds.status = 'scored' ORDER BY rounds.number, hands.seat",
        [game_id],
    ):
        found = hands.setdefault(round_id, ([], []))
        found[0].append(score)
        found[1].append(bonus)
    for row in rounds:
        row["scores"], row["bonuses"] = hands.get(row["id"], ([], []))
    return rounds


def open_round(game_id):
    """The round being entered (not a correction), if any."""
    rows = list(
        get_db().query(
            "SELECT * FROM rounds WHERE game_id = ? AND status = 'entering' AND revision = 1"
            " ORDER BY number LIMIT 1",
            [game_id],
        )
    )
    return rows[0] if rows else None


def undone_after(game_id, saved_count):
    """The number of the round that was undone right after the saved ones, if nothing has taken
    its place yet (so the scoreboard can offer to bring it back)."""
    rows = list(
        get_db().query(
            "SELECT status FROM rounds WHERE game_id = ? AND number = ? ORDER BY revision DESC LIMIT 1",
            [game_id, saved_count + 1],
        )
    )
    return saved_count + 1 if rows and rows[0]["status"] == "deleted" else None


def _next_revision(db, game_id, number):
    rows = list(
        db.query(
            "SELECT coalesce(max(revision), 0) + 1 AS next FROM rounds"
            " WHERE game_id = ? AND number = ?",
            [game_id, number],
        )
    )
    return rows[0]["next"]


def last_modes(db, game_id):
    """How each seat's player last entered a hand (quick or exact), in this game or an earlier one
    of the crew, or None for a player who never has: a player who enters card by card keeps doing so
    until they change it."""
    rows = db.execute(
        "SELECT (SELECT coalesce(hands.mode, rounds.mode) FROM seats AS theirs"
        "  JOIN rounds ON rounds.game_id = theirs.game_id AND rounds.status = 'scored'"
        "  JOIN hands ON hands.round_id = rounds.id AND hands.seat = theirs.seat"
        "  WHERE theirs.player_id = seats.player_id ORDER BY rounds.id DESC LIMIT 1)"
        " FROM seats WHERE seats.game_id = ? ORDER BY seats.seat", [game_id]).fetchall()
    return [row[0] for row in rows] or None


def start(db, game_id, number, dealer, mode="quick", by=None, modes=None):
    """Open a new round for entry and return its id; `modes` gives each seat's entry mode."""
    stamp = now()
    cursor = db.execute(
        "INSERT INTO rounds (game_id, number, revision, status, mode, dealer, redeals, version,"
        " created, updated) VALUES (?, ?, ?, 'entering', ?, ?, 0, 1, ?, ?)",
        [game_id, number, _next_revision(db, game_id, number), mode, dealer, stamp, stamp],
    )
    round_id = cursor.lastrowid
    for seat in range(PLAYERS):
        db.execute("INSERT INTO hands (round_id, seat, mode) VALUES (?, ?, ?)",
                   [round_id, seat, (modes and modes[seat]) or mode])
    log(db, round_id, "started", by=by)
    touch(db, round_id)
    return round_id


def start_correction(db, saved, by=None):
    """Open a new revision of a saved round, pre-filled from it, and return its id."""
    stamp = now()
    copy = {**saved, "revision": _next_revision(db, saved["game_id"], saved["number"]), "status": OPEN,
            "created": stamp, "updated": stamp, "copied_from": saved["revision"]}
    cursor = db.execute(
        f"INSERT INTO rounds ({', '.join(columns.ROUND)}, version) VALUES ({', '.join('?' * len(columns.ROUND))}, 1)",
        [copy[column] for column in columns.ROUND],
    )
    round_id = cursor.lastrowid
    db.execute(
        "INSERT INTO hands (round_id, seat, mode, target, won, counts)"
        " SELECT ?, seat, coalesce(mode, ?), target, won, counts FROM hands WHERE round_id = ?",
        [round_id, saved["mode"], saved["id"]],
    )
    log(db, round_id, "correction started", by=by)
    touch(db, round_id)
    return round_id


def touch(db, round_id, board=True):
    """Mark the round, and so its game, changed: phones following the game fetch it again (the
    scoreboard's phones only when `board`: what the scoreboard shows changed). Returns (the
    round's new version, the game's new version). (Its status is set apart: with `status` in its
    SET, an UPDATE of a round rewrites the indexes on saved and open rounds.)"""
    game_id, version = db.execute(
        "UPDATE rounds SET version = version + 1, updated = ? WHERE id = ? RETURNING game_id, version",
        [now(), round_id],
    ).fetchall()[0]
    return version, bump(db, game_id, board)


_SETTABLE = frozenset(columns.ROUND) - {"game_id", "number", "revision", "status"}


def update(db, round_id, board=True, **fields):
    """Set columns of a round (any of `columns.ROUND` but its place and status) and mark it changed
    (`touch`: the scoreboard's phones too when `board`)."""
    if not fields or not _SETTABLE.issuperset(fields):
        raise ValueError(f"not columns a round's entry sets: {sorted(set(fields) - _SETTABLE)}")
    db.execute(f"UPDATE rounds SET {', '.join(f'{name} = ?' for name in fields)} WHERE id = ?",
               [*fields.values(), round_id])
    touch(db, round_id, board=board)


def set_bid(db, round_id, seat, number, suit, correction=False):
    if correction:
        _clear_agreements(db, round_id)
    update(db, round_id, board=False, bid_seat=seat, bid_number=number, bid_suit=suit)


def _clear_agreements(db, round_id):
    """A correction's content changed: the agreements to it no longer hold."""
    db.execute("DELETE FROM signoffs WHERE round_id = ?", [round_id])


def record_redeal(db, round_id, dealer, by=None):
    """Everyone passed: count the redeal, clear the bid, and set who deals the new deal."""
    db.execute(
        "UPDATE rounds SET redeals = redeals + 1, dealer = ?, bid_seat = NULL, bid_number = NULL,"
        " bid_suit = NULL WHERE id = ?",
        [dealer, round_id],
    )
    log_again(db, round_id, "redeal", "everyone passed", by)
    touch(db, round_id)


def set_hand(db, round_id, seat, *, mode=..., target=..., won=..., counts=..., entered_by=..., correction=False):
    """Update the given fields of one hand (ellipsis means leave as it is); a changed hand is
    no longer marked as all in, and counts one more change; in a `correction`, the agreements to it
    are cleared. Returns (the hand's new version,
    the round's, the game's), or None when nothing was given to change."""
    fields = {"done": None}
    if entered_by is not ...:
        fields["entered_by"] = entered_by
    if mode is not ...:
        fields["mode"] = mode
    if target is not ...:
        fields["target"] = target
    if won is not ...:
        fields["won"] = " ".join(won)
    if counts is not ...:
        fields["counts"] = json.dumps({rank: n for rank, n in counts.items() if n}) if counts else None
    if len(fields) > 1:
        assignments = ", ".join(f"{name} = ?" for name in fields)
        hand_version = db.execute(
            f"UPDATE hands SET {assignments}, version = version + 1 WHERE round_id = ? AND seat = ?"
            " RETURNING version",
            [*fields.values(), round_id, seat],
        ).fetchall()[0][0]
        if correction:
            _clear_agreements(db, round_id)
        return (hand_version, *touch(db, round_id, board=False))
    return None


def mark_done(db, round_id, seat, done):
    """Mark a hand as all in (or not any more)."""
    db.execute(
        "UPDATE hands SET done = ? WHERE round_id = ? AND seat = ?",
        [now() if done else None, round_id, seat],
    )
    touch(db, round_id, board=False)


def mark_saved(db, entered, scores, bonuses, by=None):
    """Make an open revision the round's saved one, replacing any earlier saved revision (a
    correction's: the one it was copied from, as nothing else can be saved while it is open); the
    engine's scores and target bonuses (0, 3 or 4) are cached on its hands, and are what its
    "saved" or "corrected" line shows."""
    replaced = []
    if entered["is_correction"]:
        replaced = list(db.query(
            "SELECT id FROM rounds WHERE game_id = ? AND number = ? AND status = 'scored'",
            [entered["game_id"], entered["number"]],
        ))
    for row in replaced:
        db.execute("UPDATE rounds SET status = 'replaced' WHERE id = ?", [row["id"]])
    db.conn.executemany(
        "UPDATE hands SET score = ?, target_bonus = ? WHERE round_id = ? AND seat = ?",
        [(score, bonuses[seat], entered["id"], seat) for seat, score in enumerate(scores)],
    )
    db.execute("UPDATE rounds SET status = 'scored' WHERE id = ?", [entered["id"]])
    touch(db, entered["id"])
    log(db, entered["id"], "corrected" if replaced else "saved", by=by)


def drop_correction(db, correction, saved, by=None):
    """A correction dropped before it was saved is deleted whole (it never counted; it is the
    round's newest revision, so the revisions stay numbered 1, 2, 3 …). The saved revision says it
    happened, on one line however often ("correction discarded · 5 times")."""
    for table in ("hands", "round_changes", "signoffs"):
        db.execute(f"DELETE FROM {table} WHERE round_id = ?", [correction])
    game_id = db.execute("DELETE FROM rounds WHERE id = ? RETURNING game_id", [correction]).fetchone()[0]
    log_again(db, saved, "correction discarded", by=by)
    bump(db, game_id)  # phones showing the correction fetch the saved round again


def set_status(db, round_id, status, action, by=None):
    db.execute("UPDATE rounds SET status = ? WHERE id = ?", [status, round_id])
    touch(db, round_id)
    log(db, round_id, action, by=by)


def lock_open_number(db, game_id, number):
    """The open revision of a round number, re-read inside the write transaction (two
    statements: the round, its hands); None when the number has no open revision."""
    return _with_hands(db, list(db.query(
        ROUND_SELECT + " WHERE rounds.game_id = ? AND rounds.number = ? AND rounds.status = 'entering'",
        [game_id, number])))
