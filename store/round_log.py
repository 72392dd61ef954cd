"""A round's logged changes: who did what to it and when, one line a step, and a run of the same
step (everyone passing, a correction dropped) one line that counts it. A line holds facts, not
words: a save's scores are its revision's hands' and a correction's "before" the revision it was
copied from (`rounds.copied_from`); `history` returns them and the web words them. A line from an
older release (or an older export restored) may still hold its words in `detail`: the web shows them as
they are.
A run of the same step is one line that counts it in `times` (m0015), which the web words too."""
import json
from collections import Counter

from scoring.limits import HISTORY_LINES

from . import get_db, now

_CHANGES = (" FROM round_changes JOIN rounds ON rounds.id = round_changes.round_id"
            " WHERE rounds.game_id = ? AND rounds.number = ?")


def history(game_id, number, lines=HISTORY_LINES):
    """The logged changes to a round number, oldest first: the newest `lines` of them, after a
    line counting the earlier ones not listed (`earlier`, when there are more). Each line has its
    revision, `scores` (the revision's hands', in seat order; None until it is saved), `piles` (each
    hand's target and won cards by rank) and, for a correction, `copied_from`, `copied_scores` and
    `copied_piles` (the revision it was copied from, its scores and piles)."""
    db = get_db()
    rows = list(db.query(f"SELECT round_changes.*, rounds.revision, rounds.copied_from{_CHANGES}"
                         " ORDER BY round_changes.id DESC LIMIT ?", [game_id, number, lines + 1]))[::-1]
    scores, piles = {}, {}
    for revision, score, target, won, counts in db.execute(
            "SELECT rounds.revision, hands.score, hands.target, hands.won, hands.counts FROM rounds JOIN hands"
            " ON hands.round_id = rounds.id WHERE rounds.game_id = ? AND rounds.number = ?"
            " ORDER BY rounds.revision, hands.seat", [game_id, number]):
        scores.setdefault(revision, []).append(score)
        piles.setdefault(revision, []).append((target, _ranks(won, counts)))
    scores = {revision: None if None in found else found for revision, found in scores.items()}
    for row in rows:
        row["scores"], row["copied_scores"] = scores.get(row["revision"]), scores.get(row["copied_from"])
        row["piles"], row["copied_piles"] = piles.get(row["revision"]), piles.get(row["copied_from"])
    if len(rows) <= lines:
        return rows
    earlier = db.execute(f"SELECT count(*){_CHANGES}", [game_id, number]).fetchone()[0] - lines
    return [{"at": rows[0]["at"], "earlier": earlier, "action": "", "detail": "", "by": None, "times": 1,
             "revision": 1, "scores": None, "copied_from": None, "copied_scores": None,
             "piles": None, "copied_piles": None}] + rows[1:]


def _ranks(won, counts):
    """A stored hand's pile as rank counts, whichever way it was entered (each card, or by rank)."""
    ranks = Counter(code[:-1] for code in (won or "").split())
    ranks.update(json.loads(counts or "{}"))
    return {rank: n for rank, n in ranks.items() if n}


def log(db, round_id, action, detail="", by=None):
    """Log one step on a round (it happened once: `times` is 1)."""
    db.execute(
        "INSERT INTO round_changes (round_id, at, action, detail, by) VALUES (?, ?, ?, ?, ?)",
        [round_id, now(), action, detail, by],
    )


def log_again(db, round_id, action, detail="", by=None):
    """Log `action`, or count it once more on the round's latest change when that is the same
    action: a run of one change (everyone passing, a correction dropped, seats swapped) is one line
    that counts it (`times`; the web says "… · 3 times"), with the newest step's detail and who."""
    last = db.execute("SELECT id, action FROM round_changes WHERE round_id = ? ORDER BY id DESC LIMIT 1",
                      [round_id]).fetchone()
    if last is None or last[1] != action:
        return log(db, round_id, action, detail, by)
    db.execute("UPDATE round_changes SET at = ?, detail = ?, by = ?, times = times + 1 WHERE id = ?",
               [now(), detail, by, last[0]])
