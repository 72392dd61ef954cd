"""Games, their seats, and the cached verdict on who won."""
import json

from . import get_db, now, write
from .crews import player_ids_for_names


def create_game(crew_id, names, first_dealer, rules, rematch_of=None):
    """Store a game with its four seats (players created as needed) and the house rules it is
    played under, and return its id."""
    with write() as db:
        player_ids = player_ids_for_names(db, crew_id, names)
        cursor = db.execute(
            "INSERT INTO games (crew_id, created, goal, tie_rule, min_bid, redeal_moves_deal,"
            " first_dealer, status, rematch_of) VALUES (?, ?, ?, ?, ?, ?, ?, 'playing', ?)",
            [crew_id, now(), rules.goal, rules.tie_rule, rules.min_bid,
             int(rules.redeal_moves_deal), first_dealer, rematch_of],
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
        "  WHERE seat_claims.game_id = games.id) AS _claims"
        " FROM games WHERE id = ? AND crew_id = ?", [game_id, crew_id]))
    if not rows:
        return None
    found = rows[0]
    names = json.loads(found.pop("_names") or "{}")
    found["names"] = [names[seat] for seat in sorted(names, key=int)]
    found["claims"] = {int(seat): claim for seat, claim in json.loads(found.pop("_claims") or "{}").items()}
    found["winners"] = [int(s) for s in (found["winner_seats"] or "").split(",") if s]
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


def set_result(db, game_id, over, winners):
    """Cache the engine's verdict on the game (inside the caller's transaction)."""
    db.execute(
        "UPDATE games SET status = ?, winner_seats = ?, finished = ? WHERE id = ?",
        [
            "finished" if over else "playing",
            ",".join(str(seat) for seat in winners) if over else None,
            now() if over else None,
            game_id,
        ],
    )
