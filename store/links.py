"""Table and watch links: rows that say what a link opens, found by the hash of its token. The
token is made from the row's nonce with the server's key (services/links.py), never stored."""
import json

from . import get_db, now
from .club_nights import live_mark_sql


def find(token_hash):
    """The link with this token hash, with its game's status, or None."""
    rows = list(get_db().query(
        "SELECT links.*, games.status AS game_status FROM links LEFT JOIN games ON games.id = links.game_id"
        " WHERE links.token_hash = ?", [token_hash]))
    return rows[0] if rows else None


def existing(crew_id, kind, game_id=None, night_id=None, season_id=None):
    return existing_in(get_db(), crew_id, kind, game_id, night_id, season_id)


def add(db, crew_id, kind, game_id, night_id, nonce, token_hash, season_id=None):
    """A new link row, in db's transaction."""
    db.execute("INSERT INTO links (crew_id, kind, game_id, night_id, season_id, nonce, token_hash, created)"
               " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [crew_id, kind, game_id, night_id, season_id, nonce, token_hash, now()])
    return existing_in(db, crew_id, kind, game_id, night_id, season_id)


def existing_in(db, crew_id, kind, game_id, night_id, season_id=None):
    rows = list(db.query("SELECT * FROM links WHERE crew_id = ? AND kind = ? AND game_id IS ? AND night_id IS ?"
                         " AND season_id IS ?", [crew_id, kind, game_id, night_id, season_id]))
    return rows[0] if rows else None


def replace(db, link_id, nonce, token_hash):
    """A new token for the link (in db's transaction): the old one stops working at once, and its
    hash is kept as replaced (`was_replaced`)."""
    db.execute("INSERT OR REPLACE INTO replaced_links (token_hash, link_id, replaced)"
               " SELECT token_hash, id, ? FROM links WHERE id = ?", [now(), link_id])
    db.execute("UPDATE links SET nonce = ?, token_hash = ? WHERE id = ?", [nonce, token_hash, link_id])


def held_without_index(token_hash):
    """Whether a crew or a link has this token hash, read row by row without the tables' indexes:
    after `resolve` found nothing, a yes means an index lost it (the file is damaged)."""
    return get_db().execute(
        "SELECT 1 FROM crews NOT INDEXED WHERE token_hash = ?"
        " UNION ALL SELECT 1 FROM links NOT INDEXED WHERE token_hash = ? LIMIT 1",
        [token_hash, token_hash]).fetchone() is not None


def was_replaced(token_hash):
    """Whether a link once had this token and was given a new one."""
    return get_db().execute("SELECT 1 FROM replaced_links WHERE token_hash = ?", [token_hash]).fetchone() is not None


def of_crew(crew_id):
    """The crew's links, with the game or night each opens (a game's players by seat)."""
    rows = list(get_db().query(
        "SELECT links.*, games.status AS game_status, club_nights.name AS night_name, seasons.name AS season_name,"
        " (SELECT json_group_array(name) FROM (SELECT players.name FROM seats JOIN players"
        "  ON players.id = seats.player_id WHERE seats.game_id = links.game_id ORDER BY seats.seat)) AS players"
        " FROM links LEFT JOIN games ON games.id = links.game_id"
        " LEFT JOIN club_nights ON club_nights.id = links.night_id LEFT JOIN seasons ON seasons.id = links.season_id"
        " WHERE links.crew_id = ? ORDER BY links.id", [crew_id]))
    return [{**row, "players": json.loads(row["players"])} for row in rows]


def resolve(token_hash, poll=None, night=None):
    """(the crew's row, kind, game id, night id, game status, polled, night mark, season id) of the crew or
    table or watch link with this token hash, in one indexed read; None when there is none.

    With `poll` (game id, device, board), the same read also answers a live poll's question
    (services/phones.py, `live_version`): `polled` is (the game's version, with `board` the
    scoreboard's; when this device's seat claim in it was last seen), both found only among the
    link's crew's games, so a game the crew does not have is (None, None). Without, it is None.
    With `night` (a night's id), it brings that night's live mark too (store/club_nights.py,
    `live_mark`), None when the link's crew has no such night; without, the mark is None."""
    asked, args = "", []
    if poll is not None:
        game_id, device, board = poll
        column = "board_version" if board else "version"
        asked = (f", (SELECT polled.{column} FROM games AS polled WHERE polled.id = ? AND polled.crew_id = crews.id)"
                 ", (SELECT seat_claims.seen FROM games AS polled JOIN seat_claims ON seat_claims.game_id = polled.id"
                 " WHERE polled.id = ? AND polled.crew_id = crews.id AND seat_claims.device = ?)")
        args = [game_id, game_id, device]
    if night is not None:
        asked += f", {live_mark_sql('crews.id')}"
        args.append(night)
    cursor = get_db().conn.execute(
        f"SELECT crews.*, NULL, 'crew', NULL, NULL, NULL{asked} FROM crews WHERE crews.token_hash = ?"
        f" UNION ALL SELECT crews.*, links.season_id, links.kind, links.game_id, links.night_id, games.status{asked}"
        " FROM links"
        " JOIN crews ON crews.id = links.crew_id LEFT JOIN games ON games.id = links.game_id"
        " WHERE links.token_hash = ? LIMIT 1", [*args, token_hash, *args, token_hash])
    found = cursor.fetchone()
    if found is None:
        return None
    polls, nights = (2 if poll is not None else 0), (1 if night is not None else 0)
    width = len(cursor.description) - 5 - polls - nights
    crew = dict(zip([column[0] for column in cursor.description[:width]], found[:width]))
    polled = tuple(found[width + 5:width + 5 + polls]) if poll is not None else None
    return (crew, *found[width + 1:width + 5], polled, found[-1] if night is not None else None, found[width])


def of_games(crew_id, kind, game_ids):
    """The crew's links of this kind to these games."""
    marks = ", ".join("?" * len(game_ids))
    return list(get_db().query(f"SELECT * FROM links WHERE crew_id = ? AND kind = ? AND game_id IN ({marks})",
                               [crew_id, kind, *game_ids])) if game_ids else []
