"""m0015: a run of the same step counts itself in a column, not in words (issue 37).

A migration stands alone: the words it reads are read here (one regular expression a line)."""
import re

from . import migrations

# Before m0015 a run of the same step was counted in its words: "everyone passed · 3 times" (a
# redeal), "3 times" (a correction discarded), "… · 3 swaps in a row" (seats swapped).
_RUNS = {"redeal": " times", "correction discarded": " times", "seats swapped": " swaps in a row"}
_COUNT = re.compile(r"(?:(.+) · )?([1-9][0-9]{0,8})")


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
        found = _counted(action, detail)
        if found is not None:
            db.execute("UPDATE round_changes SET detail = ?, times = ? WHERE id = ?", [*found, change_id])


def _counted(action, detail):
    """A line's words without the run count its last words name, and that count, as (detail, times),
    when the page words them exactly so (a count of 2 or more); else None."""
    unit = _RUNS.get(action)
    found = _COUNT.fullmatch(detail.removesuffix(unit)) if unit and detail and detail.endswith(unit) else None
    if found is None or int(found.group(2)) < 2:
        return None
    return found.group(1) or "", int(found.group(2))
