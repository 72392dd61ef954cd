"""Whether the server can do its work: the database answers a read (for an uptime probe)."""
import sqlite3

import store


def database_trouble():
    """None when the database answers a read of its crews, else what went wrong."""
    try:
        store.get_db().execute("SELECT count(*) FROM (SELECT 1 FROM crews LIMIT 1)").fetchone()
    except sqlite3.Error as error:
        return str(error)
    return None
