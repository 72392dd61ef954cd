"""A round's logged changes: who did what to it and when, one line a step, and a run of the same
step (everyone passing, a correction dropped) one line that counts it."""
import re

from scoring.limits import HISTORY_LINES

from . import get_db, now

_CHANGES = (" FROM round_changes JOIN rounds ON rounds.id = round_changes.round_id"
            " WHERE rounds.game_id = ? AND rounds.number = ?")


def history(game_id, number, lines=HISTORY_LINES):
    """The logged changes to a round number, oldest first: the newest `lines` of them, after a
    line saying how many earlier ones are not listed (when there are more)."""
    db = get_db()
    rows = list(db.query(f"SELECT round_changes.*, rounds.revision{_CHANGES} ORDER BY round_changes.id DESC"
                         " LIMIT ?", [game_id, number, lines + 1]))[::-1]
    if len(rows) <= lines:
        return rows
    earlier = db.execute(f"SELECT count(*){_CHANGES}", [game_id, number]).fetchone()[0] - lines
    return [{"at": rows[0]["at"], "action": f"{earlier} earlier change{'s' * (earlier > 1)}",
             "detail": "", "by": None, "revision": 1}] + rows[1:]


def log(db, round_id, action, detail="", by=None):
    db.execute(
        "INSERT INTO round_changes (round_id, at, action, detail, by) VALUES (?, ?, ?, ?, ?)",
        [round_id, now(), action, detail, by],
    )


_TIMES = re.compile(r"(\d+) times$")


def log_again(db, round_id, action, detail="", by=None):
    """Log `action`, or count it once more on the round's latest change when that is the same
    action: a run of one change (everyone passing, a correction dropped) is one line, "… · 3 times"."""
    last = db.execute("SELECT id, action, detail FROM round_changes WHERE round_id = ? ORDER BY id DESC LIMIT 1",
                      [round_id]).fetchone()
    if last is None or last[1] != action:
        return log(db, round_id, action, detail, by)
    counted = _TIMES.search(last[2] or "")
    times = f"{int(counted.group(1)) + 1 if counted else 2} times"
    db.execute("UPDATE round_changes SET at = ?, detail = ?, by = ? WHERE id = ?",
               [now(), f"{detail} · {times}" if detail else times, by, last[0]])
