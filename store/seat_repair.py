""""We sat in the wrong seats": two players exchange seats in a game after the fact."""
import re

from . import games as game_store
from . import now
from .results import refresh_game_results
from .round_log import log

ACTION = "seats swapped"
_RUN = re.compile(r" · (\d+) swaps in a row$")


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
        _log_swap(db, round_id, detail, by)
    refresh_game_results(db, game_id)
    game_store.bump(db, game_id)


def _log_swap(db, round_id, detail, by):
    """Log a swap on a saved round, or, when the round's latest line is a swap already, make that
    line count one more: "… · 3 swaps in a row" (the newest swap's names shown), so repairs made
    again and again are one line a round, not one per repair."""
    last = db.execute("SELECT id, action, detail FROM round_changes WHERE round_id = ? ORDER BY id DESC LIMIT 1",
                      [round_id]).fetchone()
    if last is None or last[1] != ACTION:
        return log(db, round_id, ACTION, detail, by)
    counted = _RUN.search(last[2] or "")
    db.execute("UPDATE round_changes SET at = ?, detail = ?, by = ? WHERE id = ?",
               [now(), f"{detail} · {int(counted.group(1)) + 1 if counted else 2} swaps in a row", by, last[0]])


def open_round(db, game_id):
    """The round being entered or corrected, if any, as (its number, whether it is a correction
    of a saved round): a swap waits until it is saved or dropped."""
    row = db.execute("SELECT number, EXISTS (SELECT 1 FROM rounds AS saved WHERE saved.game_id = rounds.game_id"
                     " AND saved.number = rounds.number AND saved.status = 'scored')"
                     " FROM rounds WHERE game_id = ? AND status = 'entering'", [game_id]).fetchone()
    return (row[0], bool(row[1])) if row else (None, False)
