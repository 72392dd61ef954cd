"""Games: started with their seats, the engine's cached verdict on who won, the live version
phones follow, abandoned and taken up again."""
import json

from . import get_db, now
from .crews import player_ids_for_names
from .lists import AMONG, listed
from .results import refresh_game_results


def insert_game(db, crew_id, names, first_dealer, rules, rematch_of=None):
    """Store a game with its four seats (players created as needed) and the house rules it is
    played under, in db's transaction, and return its id."""
    player_ids = player_ids_for_names(db, crew_id, names)
    cursor = db.execute(
        "INSERT INTO games (crew_id, created, rules, first_dealer, status, rematch_of)"
        " VALUES (?, ?, ?, ?, 'playing', ?)",
        [crew_id, now(), json.dumps(rules.as_json()), first_dealer, rematch_of],
    )
    game_id = cursor.lastrowid
    for seat, player_id in enumerate(player_ids):
        db.execute(
            "INSERT INTO seats (game_id, seat, player_id) VALUES (?, ?, ?)",
            [game_id, seat, player_id],
        )
    return game_id


def game(crew_id, game_id):
    """The game with its seated players' names and its seat claims (seat -> claim row, the
    seats phones hold), or None when the crew has no such game. One statement: the names and
    claims come as JSON objects keyed by seat, so their order needs no promise from SQLite."""
    rows = list(get_db().query(
        "SELECT games.*,"
        " (SELECT json_group_object(seats.seat, players.name) FROM seats"
        "  JOIN players ON players.id = seats.player_id WHERE seats.game_id = games.id) AS _names,"
        " (SELECT json_group_object(seat, json_object('game_id', game_id, 'seat', seat,"
        "  'device', device, 'claimed', claimed, 'seen', seen)) FROM seat_claims"
        "  WHERE seat_claims.game_id = games.id) AS _claims,"
        " (SELECT json_group_array(seat) FROM seats WHERE seats.game_id = games.id AND seats.won) AS _winners,"
        " (SELECT json_group_object(seats.seat, (SELECT count(*) FROM players AS earlier"
        "   WHERE earlier.crew_id = games.crew_id AND earlier.id < seats.player_id))"
        "  FROM seats WHERE seats.game_id = games.id) AS _joined"
        " FROM games WHERE id = ? AND crew_id = ?", [game_id, crew_id]))
    if not rows:
        return None
    found = rows[0]
    names = json.loads(found.pop("_names") or "{}")
    found["names"] = [names[seat] for seat in sorted(names, key=int)]
    found["claims"] = {int(seat): claim for seat, claim in json.loads(found.pop("_claims") or "{}").items()}
    found["winners"] = sorted(json.loads(found.pop("_winners")))
    joined = json.loads(found.pop("_joined") or "{}")
    found["joined"] = [joined[seat] for seat in sorted(joined, key=int)]  # each seat's player's place in the crew
    return found


def games(crew_id):
    """The crew's games, newest first, with their players' names in seat order.

    The names are put in seat order here, not by group_concat: SQLite does not promise the order
    group_concat joins its values in."""
    db = get_db()
    rows = list(
        db.query(
            "SELECT * FROM games WHERE crew_id = ? ORDER BY created DESC, id DESC", [crew_id]
        )
    )
    names = {}
    for row in db.query(
        "SELECT seats.game_id, players.name FROM seats"
        " JOIN games ON games.id = seats.game_id JOIN players ON players.id = seats.player_id"
        " WHERE games.crew_id = ? ORDER BY seats.game_id, seats.seat",
        [crew_id],
    ):
        names.setdefault(row["game_id"], []).append(row["name"])
    for row in rows:
        row["players"] = " · ".join(names.get(row["id"], []))
    return rows


def games_version(crew_id):
    """A short mark that changes when the crew's list of games does (a game started, finished,
    abandoned or taken up again), for the crew page's live follow."""
    row = list(get_db().query(
        "SELECT count(*) AS n, coalesce(max(id), 0) AS last, coalesce(sum(status != 'playing'), 0) AS over"
        " FROM games WHERE crew_id = ?", [crew_id]))[0]
    return f"{row['n']}.{row['last']}.{row['over']}"


def set_rules(db, game_id, rules):
    """Change a game's rules (JSON, as `HouseRules.as_json` wrote them): a stage clock that ran
    out sets the hand its game ends on (services/stage_clock.py)."""
    db.execute("UPDATE games SET rules = ? WHERE id = ?", [rules, game_id])


def set_result(db, game_id, over, winners, saved=None):
    """Cache the engine's verdict on the game, a flag on each winning seat, and the game's
    results (inside the caller's transaction, the last step of a write that changes its rounds;
    `saved`: the game's saved rounds, when the caller has read them in this transaction)."""
    db.execute(
        "UPDATE games SET status = ?, finished = ? WHERE id = ?",
        ["finished" if over else "playing", now() if over else None, game_id],
    )
    # Only seats whose flag changes are written (mid-game, none: no page to write to the disk).
    db.execute(
        f"UPDATE seats SET won = seat {AMONG} WHERE game_id = ? AND won IS NOT (seat {AMONG})",
        [listed(winners if over else []), game_id, listed(winners if over else [])],
    )
    refresh_game_results(db, game_id, saved)


# --- The live version -----------------------------------------------------------------------

def game_version(game_id, db=None):
    rows = list((db or get_db()).query("SELECT version FROM games WHERE id = ?", [game_id]))
    return rows[0]["version"] if rows else None


def live_state(crew_id, game_id, device, board=False):
    """(version, seen) of a game of the crew, in one indexed read: the game's version (with
    `board`, the scoreboard's) and when this phone's seat claim was last seen (None without one);
    None when the link has no such game. Read from the file, so every worker process answers alike."""
    column = "games.board_version" if board else "games.version"
    return get_db().conn.execute(
        f"SELECT {column}, (SELECT seen FROM seat_claims WHERE seat_claims.game_id = games.id"
        " AND seat_claims.device = ?) FROM games WHERE games.id = ? AND games.crew_id = ?",
        [device, game_id, crew_id],
    ).fetchone()


def bump(db, game_id, board=True):
    """Mark the game changed, so every phone following it fetches the new state; returns its new
    version. A change the scoreboard does not show (a tap on the round being entered: `board`
    False) leaves the scoreboard's version as it is."""
    also = ", board_version = board_version + 1" if board else ""
    return db.execute(f"UPDATE games SET version = version + 1{also} WHERE id = ? RETURNING version",
                      [game_id]).fetchall()[0][0]


# --- Abandon and resume ----------------------------------------------------------------------

def abandon(db, game_id):
    """Mark a game still being played as abandoned (in db's transaction); returns whether it was."""
    return _set_status(db, game_id, "playing", "abandoned")


def resume(db, game_id):
    """Put an abandoned game back in play (in db's transaction); returns whether it was abandoned."""
    return _set_status(db, game_id, "abandoned", "playing")


def _set_status(db, game_id, before, after):
    changed = db.execute(
        "UPDATE games SET status = ? WHERE id = ? AND status = ?", [after, game_id, before],
    ).rowcount
    if changed:
        bump(db, game_id)
        refresh_game_results(db, game_id)
    return bool(changed)
