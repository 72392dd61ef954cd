"""m0014: a round's log holds facts, the web words them (issue 37)."""
from .. import old_log_words
from . import migrations


@migrations()
def m0014_change_facts(db):
    """A correction keeps the revision it was copied from (`rounds.copied_from`, which its
    "correction started · from revision 2" line said in words), and the "saved", "corrected" and
    "correction started" lines drop the words the page now works out from the revisions' scores.
    A line whose words are not exactly those (an older release's) keeps them, and reads as before."""
    db["rounds"].add_column("copied_from", int)
    for change_id, round_id, revision, detail in db.execute(
            "SELECT round_changes.id, rounds.id, rounds.revision, round_changes.detail FROM round_changes"
            " JOIN rounds ON rounds.id = round_changes.round_id"
            " WHERE round_changes.action = 'correction started' AND round_changes.detail != ''").fetchall():
        found = old_log_words.copied_from("correction started", detail, revision)
        if found is not None:
            db.execute("UPDATE rounds SET copied_from = ? WHERE id = ?", [found, round_id])
            db.execute("UPDATE round_changes SET detail = '' WHERE id = ?", [change_id])
    for change_id, action, detail, round_id, copied in db.execute(
            "SELECT round_changes.id, round_changes.action, round_changes.detail, rounds.id, copied.id"
            " FROM round_changes JOIN rounds ON rounds.id = round_changes.round_id"
            " LEFT JOIN rounds AS copied ON copied.game_id = rounds.game_id AND copied.number = rounds.number"
            " AND copied.revision = rounds.copied_from"
            " WHERE round_changes.action IN ('saved', 'corrected') AND round_changes.detail != ''").fetchall():
        if old_log_words.says_scores(action, detail, _scores(db, round_id), copied and _scores(db, copied)):
            db.execute("UPDATE round_changes SET detail = '' WHERE id = ?", [change_id])


def _scores(db, round_id):
    return [score for (score,) in db.execute("SELECT score FROM hands WHERE round_id = ? ORDER BY seat",
                                             [round_id]).fetchall()] or None
