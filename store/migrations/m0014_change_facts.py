"""m0014: a round's log holds facts, the web words them (issue 37).

A migration stands alone: the words the releases before it wrote are read here, with what that
takes copied in, so a later change elsewhere does not change what this step does to an old
database. Each reading is one regular expression or one comparison: linear in the line."""
import re

from . import migrations

MINUS = "−"
_FROM = re.compile(r"from revision ([1-9][0-9]{0,5})")


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
        found = _copied_from(detail, revision)
        if found is not None:
            db.execute("UPDATE rounds SET copied_from = ? WHERE id = ?", [found, round_id])
            db.execute("UPDATE round_changes SET detail = '' WHERE id = ?", [change_id])
    for change_id, action, detail, round_id, copied in db.execute(
            "SELECT round_changes.id, round_changes.action, round_changes.detail, rounds.id, copied.id"
            " FROM round_changes JOIN rounds ON rounds.id = round_changes.round_id"
            " LEFT JOIN rounds AS copied ON copied.game_id = rounds.game_id AND copied.number = rounds.number"
            " AND copied.revision = rounds.copied_from"
            " WHERE round_changes.action IN ('saved', 'corrected') AND round_changes.detail != ''").fetchall():
        if _says_scores(action, detail, _scores(db, round_id), copied and _scores(db, copied)):
            db.execute("UPDATE round_changes SET detail = '' WHERE id = ?", [change_id])


def _scores(db, round_id):
    return [score for (score,) in db.execute("SELECT score FROM hands WHERE round_id = ? ORDER BY seat",
                                             [round_id]).fetchall()] or None


def _copied_from(detail, revision):
    """The revision a "correction started" line's words name ("from revision 2"), when it is one
    before the correction's own `revision`; else None."""
    found = _FROM.fullmatch(detail or "")
    number = int(found.group(1)) if found else None
    return number if number is not None and number < revision else None


def _says_scores(action, detail, scores, copied_scores):
    """Whether a "saved" or "corrected" line's words are its facts as the page words them: the
    revision's `scores`, after the scores of the revision it was copied from for a correction."""
    if not detail or scores is None or None in scores:
        return False
    if action == "saved":
        return detail == _points(scores)
    if action == "corrected" and copied_scores is not None and None not in copied_scores:
        return detail == f"{_points(copied_scores)} → {_points(scores)}"
    return False


def _points(scores):
    return " · ".join(f"{MINUS}{-score}" if score < 0 else str(score) for score in scores)
