"""m0015: a run of the same step counts itself in a column, not in words (issue 37)."""
from .. import old_log_words
from . import migrations


@migrations()
def m0015_change_times(db):
    """A round's log line counts its run of the same step (everyone passing again, a correction
    dropped again, seats swapped again) in `round_changes.times` (1 for a step done once), which
    its words said before ("everyone passed · 3 times", "3 times", "… · 3 swaps in a row"). Words
    whose count is not exactly as the page writes it are kept, and read as before."""
    db["round_changes"].add_column("times", int, not_null_default=1)
    for change_id, action, detail in db.execute(
            "SELECT id, action, detail FROM round_changes WHERE action IN ('redeal', 'correction discarded',"
            " 'seats swapped') AND (detail LIKE '% times' OR detail LIKE '% swaps in a row')").fetchall():
        found = old_log_words.counted(action, detail)
        if found is not None:
            db.execute("UPDATE round_changes SET detail = ?, times = ? WHERE id = ?", [*found, change_id])
