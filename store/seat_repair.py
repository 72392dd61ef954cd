""""We sat in the wrong seats": two players exchange seats in a game after the fact."""
from . import games as game_store
from .results import refresh_game_results
from .round_log import log


def swap_seats(db, game_id, a, b, detail, by=None):
    """Seats `a` and `b` exchange their players, in the caller's transaction. What was entered
    at a seat stays at that seat (its piles, its bids, its deals), so it now counts for the other
    player; every saved round logs the change, and the game's results are worked out again.
    Phones holding either seat let go of it."""
    ids = dict(db.execute("SELECT seat, player_id FROM seats WHERE game_id = ? AND seat IN (?, ?)",
                          [game_id, a, b]).fetchall())
    db.execute("UPDATE seats SET player_id = ? WHERE game_id = ? AND seat = ?", [ids[b], game_id, a])
    db.execute("UPDATE seats SET player_id = ? WHERE game_id = ? AND seat = ?", [ids[a], game_id, b])
    db.execute("DELETE FROM seat_claims WHERE game_id = ? AND seat IN (?, ?)", [game_id, a, b])
    for (round_id,) in db.execute("SELECT id FROM rounds WHERE game_id = ? AND status = 'scored' ORDER BY number",
                                  [game_id]).fetchall():
        log(db, round_id, "seats swapped", detail, by)
    refresh_game_results(db, game_id)
    game_store.bump(db, game_id)


def open_number(db, game_id):
    """The round being entered or corrected, if any: a swap waits until it is saved or dropped."""
    row = db.execute("SELECT number FROM rounds WHERE game_id = ? AND status = 'entering'", [game_id]).fetchone()
    return row[0] if row else None
