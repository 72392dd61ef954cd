"""Export and restore: a crew's history or one game out as CSV (one row per player per counted
round) and as JSON (everything a restore needs, but not the crew's link), and a JSON export in
again as a new crew with a new link of its own."""
import json

from store import export as crew_export
from store import restore as crew_restore
from store.restore import NotJson, RestoreError  # noqa: F401  (raised by restore)


def csv_chunks(crew_id, game_id=None):
    """The crew's (or one game's) CSV text in pieces, to stream, header first."""
    return crew_export.csv_chunks(crew_id, game_id)


def json_text(crew_id, game_id=None):
    """The crew's (or one game's) JSON export as one line of text, compact (a long history is
    tens of megabytes; any JSON viewer lays it out again)."""
    body = json.dumps(crew_export.export(crew_id, game_id), ensure_ascii=False, separators=(",", ":"))
    return body + "\n"


def restore(source):
    """An export's bytes stored as a new crew; returns its row with its new token and its number
    of games. NotJson when the file is not JSON, RestoreError (nothing stored) when it is not a
    whole, consistent export."""
    return crew_restore.restore(source)
