"""Whether the server can do its work: the database file is whole and answers a read (for an uptime
probe), and whether a page found it damaged (then every page and the probe say so, 503)."""
import sqlite3
import time

import store
from store.integrity import first_problem, mark_damaged, marked_damage

# How often one process reads the whole file through for the probe (PRAGMA quick_check): a probe
# asked more often is answered from the last look, so asking costs nothing.
WHOLE_CHECK_SECONDS = 60
# How often, at most, pages that failed as if the file were damaged have it read through.
CONFIRM_SECONDS = 5
DAMAGE_WORDS = ("malformed", "not a database")
_damage = {}  # database file -> SQLite's complaint, once this process found the file damaged
_looked = {}  # database file -> time.monotonic() of this process's last whole check


def damage(path):
    """What this process, or another serving the same file, found wrong with the database file at
    `path`, or None (one look for the other processes' mark beside the file: a stat)."""
    found = _damage.get(path)
    if found is None:
        found = marked_damage(path)
        if found:
            _damage[path] = found
    return found


def confirmed_damage(error, any_error=False):
    """After a request failed with `error`: when it reads as a damaged file (SQLite's "malformed",
    "not a database"), or with `any_error` when it failed at all (a damaged row can fail as a
    KeyError or a bad JSON text), read the database through now (unless it was found whole within
    the last CONFIRM_SECONDS: such errors, however many, cost a look every few seconds at most), and
    remember what is wrong for every later request of every process. None when the file is whole."""
    if not any_error and (not isinstance(error, sqlite3.DatabaseError)
                          or not any(word in str(error) for word in DAMAGE_WORDS)):
        return None
    try:
        db = store.get_db()
        looked = _looked.get(db.path)
        if db.path not in _damage and looked is not None and time.monotonic() - looked < CONFIRM_SECONDS:
            return None
        return _damage.get(db.path) or _look(db)
    except sqlite3.Error:  # not even opened: not known to be damaged
        return None


def index_lost_a_link():
    """A link's token that its index did not find was found row by row: the index is damaged,
    though every page still reads. Remembered, and marked for the other processes, as damage found
    by a read is; returns the sentence to raise (a database error, answered with the 503 page)."""
    db = store.get_db()
    problem = "an index of the links lost a row (database disk image is malformed): REINDEX rebuilds it"
    _damage[db.path] = problem
    mark_damaged(db.path, problem)
    return sqlite3.DatabaseError(problem)


def _look(db):
    problem = first_problem(db.conn)
    _looked[db.path] = time.monotonic()
    if problem:
        _damage[db.path] = problem
        mark_damaged(db.path, problem)  # every other process serving the file answers 503 too
    return problem


def database_trouble():
    """None when the database is whole (looked at once a minute) and answers a read of its crews,
    else what went wrong."""
    try:
        db = store.get_db()
        found = damage(db.path)  # found here, or marked by another process
        if found:
            return f"the database is damaged ({found})"
        looked = _looked.get(db.path)
        if looked is None or time.monotonic() - looked >= WHOLE_CHECK_SECONDS:
            found = _look(db)
            if found:
                return f"the database is damaged ({found})"
        db.execute("SELECT count(*) FROM (SELECT 1 FROM crews LIMIT 1)").fetchone()
    except sqlite3.Error as error:
        return str(error)
    return None
