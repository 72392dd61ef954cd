""""We sat in the wrong seats": two players exchange seats in a game after the fact."""
from . import games as game_store
from .results import refresh_game_results
from .round_log import log_again

ACTION = "seats swapped"


def swap_seats(db, game_id, a, b, detail, by=None):
    """Seats `a` and `b` exchange their players, in the caller's transaction. What was entered
    at a seat stays at that seat (its piles, its bids, its deals), so it now counts for the other
    player; every saved round logs the change (a run of swaps is one line that counts them, as
    round history counts a run of the same step), and the game's results are worked out again.
    Phones holding either seat let go of it."""
    ids = dict(db.execute("SELECT seat, player_id FROM seats WHERE game_id = ? AND seat IN (?, ?)",
                          [game_id, a, b]).fetchall())
    db.execute("UPDATE seats SET player_id = ? WHERE game_id = ? AND seat = ?", [ids[b], game_id, a])
    db.execute("UPDATE seats SET player_id = ? WHERE game_id = ? AND seat = ?", [ids[a], game_id, b])
    db.execute("DELETE FROM seat_claims WHERE game_id = ? AND seat IN (?, ?)", [game_id, a, b])
    for (round_id,) in db.execute("SELECT id FROM rounds WHERE game_id = ? AND status = 'scored' ORDER BY number",
                                  [game_id]).fetchall():
        # A run of swaps is one line a round, counted (`times`; the web says "… · 3 swaps in a row",
        # the newest swap's names shown), not one line per repair.
        log_again(db, round_id, ACTION, detail, by)
    refresh_game_results(db, game_id)
    game_store.bump(db, game_id)


def open_round(db, game_id):
    """The round being entered or corrected, if any, as (its number, whether it is a correction
    of a saved round): a swap waits until it is saved or dropped."""
    row = db.execute("SELECT number, EXISTS (SELECT 1 FROM rounds AS saved WHERE saved.game_id = rounds.game_id"
                     " AND saved.number = rounds.number AND saved.status = 'scored')"
                     " FROM rounds WHERE game_id = ? AND status = 'entering'", [game_id]).fetchone()
    return (row[0], bool(row[1])) if row else (None, False)
