"""IN-lists, built one way: `column IN (SELECT value FROM json_each(?))`, the values passed as one
JSON parameter, so no SQL is built from a list's length and a list has no length limit (SQLite
allows 32,766 parameters a statement)."""
import json

AMONG = "IN (SELECT value FROM json_each(?))"


def listed(values):
    """The one parameter AMONG takes: the values as a JSON array."""
    return json.dumps(list(values))
