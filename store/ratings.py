"""A crew's skill ratings: what a finished game's result is, read from `seat_results`, and the
rating changes `ratings.rate` works out from them, kept in `rating_changes` as a cache.

The cache is rebuilt whole, from every finished game in order, on the first read after any
finished game's results changed (a correction, an undo, a restore, a merge, a finish):
`store/results.py`, which works each game's results out, drops the crew's `rating_state` row in
the same transaction as the change. Reading the ladder then costs a few indexed rows however long the history is.
The reads here expect the cache up to date: `services/ratings.py` rebuilds it first, in its own
write transaction, when `is_fresh` says no.
"""
from scoring import ratings

from . import get_db, now

COLUMNS = ("crew_id", "seq", "game_id", "player_id", "games",
           "mu_before", "sigma_before", "mu", "sigma", "latest")


def finished_results(crew_id, db=None):
    """The crew's finished games, oldest first (by start, then id), each with its players'
    places: 1 for the highest total, equal totals sharing a place."""
    rows = (db or get_db()).query(
        "SELECT results.game_id, results.created, results.seat, results.player_id, results.place"
        " FROM seat_results AS results JOIN games ON games.id = results.game_id"
        " WHERE games.crew_id = ? AND results.status = 'finished'",
        [crew_id],
    )
    games = {}
    for row in rows:
        games.setdefault((row["created"], row["game_id"]), []).append(row)
    return [ratings.Result(game_id, tuple((seat["player_id"], seat["place"])
                                          for seat in sorted(seats, key=lambda s: s["seat"])))
            for (_, game_id), seats in sorted(games.items())]


def is_fresh(crew_id, db=None):
    """Whether the crew's ratings cache holds what its finished games give (no change since it
    was built)."""
    return bool(list((db or get_db()).query("SELECT 1 FROM rating_state WHERE crew_id = ?", [crew_id])))


def rebuild(db, crew_id):
    """Work the crew's ratings out again from its finished games, and keep them as the cache (in
    db's write transaction)."""
    results = finished_results(crew_id, db)
    changes = ratings.rate(results)
    order = {result.game_id: seq for seq, result in enumerate(results)}
    last = {change.player_id: index for index, change in enumerate(changes)}
    db.execute("DELETE FROM rating_changes WHERE crew_id = ?", [crew_id])
    db.conn.executemany(
        f"INSERT INTO rating_changes ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)})",
        [(crew_id, order[c.game_id], c.game_id, c.player_id, c.games, c.mu_before,
          c.sigma_before, c.mu, c.sigma, int(last[c.player_id] == index))
         for index, c in enumerate(changes)],
    )
    db.execute("INSERT INTO rating_state (crew_id, built) VALUES (?, ?)", [crew_id, now()])


def _change(row):
    return ratings.Change(row["game_id"], row["player_id"], row["games"], row["mu_before"],
                          row["sigma_before"], row["mu"], row["sigma"])


def ladder(crew_id):
    """Every player of the crew with a finished game: name, rating now (a Change), and whether it
    is shown yet. Rated players first by their careful figure, then the others by games played."""
    rows = get_db().query(
        "SELECT changes.*, players.name FROM rating_changes AS changes"
        " JOIN players ON players.id = changes.player_id"
        " WHERE changes.crew_id = ? AND changes.latest = 1",
        [crew_id],
    )
    entries = [{"player_id": row["player_id"], "name": row["name"], "rating": _change(row),
                "shown": ratings.shown(row["games"])} for row in rows]
    return sorted(entries, key=lambda e: (not e["shown"], -e["rating"].ordinal if e["shown"]
                                          else -e["rating"].games, e["name"].casefold()))


def player_history(crew_id, player_id, limit=None):
    """The player's rating after each of their finished games, oldest first (the last `limit`)."""
    rows = list(get_db().query(
        "SELECT * FROM rating_changes WHERE player_id = ? AND crew_id = ? ORDER BY seq DESC"
        + (" LIMIT ?" if limit else ""),
        [player_id, crew_id, *([limit] if limit else [])],
    ))
    return [_change(row) for row in rows[::-1]]


def game_changes(crew_id, game_id):
    """player id -> what this finished game did to their rating (empty for any other game)."""
    rows = get_db().query(
        "SELECT * FROM rating_changes WHERE game_id = ? AND crew_id = ?", [game_id, crew_id])
    return {row["player_id"]: _change(row) for row in rows}


def set_enabled(db, crew_id, enabled):
    """Switch the crew's ratings on or off, in db's transaction (only what is shown: the games are
    untouched)."""
    db.execute("UPDATE crews SET ratings = ? WHERE id = ?", [int(enabled), crew_id])
