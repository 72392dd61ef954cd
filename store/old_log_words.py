"""The words releases before m0014 stored in a round's log, read back as the facts the log holds
now (`round_log`): "saved" with the revision's scores ("25 · 50 · −10 · 35"), "corrected" with
the scores before and after ("… → …"), "correction started" with "from revision 2". A database's
migration (`store/migrations/m0014_change_facts.py`) and the restore of an older export
(`restore_checks`) both read them here. A line's words are dropped only when the page words its
facts exactly so; any other (the first release's, say: "-15", no "before") is kept, and shown as it is.
A run's count in words ("· 3 times", "· 3 swaps in a row") is read the same way, by m0015
(`store/migrations/m0015_change_times.py`) and the restore: `counted`."""
import re

from scoring import format_points

_FROM = re.compile(r"from revision ([1-9][0-9]{0,5})")


def copied_from(action, detail, revision):
    """The revision a "correction started" line's words name ("from revision 2"), when it is one
    before the correction's own `revision`; else None."""
    found = _FROM.fullmatch(detail or "") if action == "correction started" else None
    number = int(found.group(1)) if found else None
    return number if number is not None and number < revision else None


def says_scores(action, detail, scores, copied_scores):
    """Whether a "saved" or "corrected" line's words are its facts as the page words them: the
    revision's `scores`, after the scores of the revision it was copied from (`copied_scores`)
    for a correction. Scores are lists in seat order, or None when not known."""
    if not detail or scores is None or None in scores:
        return False
    if action == "saved":
        return detail == _points(scores)
    if action == "corrected" and copied_scores is not None and None not in copied_scores:
        return detail == f"{_points(copied_scores)} → {_points(scores)}"
    return False


def _points(scores):
    return " · ".join(format_points(score) for score in scores)


# Before m0015 a run of the same step was counted in its words: "everyone passed · 3 times" (a
# redeal), "3 times" (a correction discarded), "… · 3 swaps in a row" (seats swapped). The count
# is `round_changes.times` now, and the web words it the same.
_RUNS = {"redeal": " times", "correction discarded": " times", "seats swapped": " swaps in a row"}
_COUNT = re.compile(r"(?:(.+) · )?([1-9][0-9]{0,8})")


def counted(action, detail):
    """A line's words without the run count its last words name, and that count, as (detail, times),
    when the page words them exactly so (a count of 2 or more, written as the app wrote it); else None."""
    unit = _RUNS.get(action)
    found = _COUNT.fullmatch(detail.removesuffix(unit)) if unit and detail and detail.endswith(unit) else None
    if found is None or int(found.group(2)) < 2:
        return None
    return found.group(1) or "", int(found.group(2))
