"""One SQLite file: a connection per request, migrations at start, write transactions."""
import contextlib
import datetime
import os
import sqlite3
import threading

# Flask, sqlite-utils and the migrations are imported where they are used, so the restore's child
# process (python -m store.restore), which needs none of them, starts quickly.

BUSY_TIMEOUT_SECONDS = 10
# This process's writers queue here for their turn, and are woken the moment the writer before
# them commits; SQLite's own busy wait (for writers in other processes) polls, sleeping longer
# the longer it waits, so a writer that commits often (a restore) could keep it waiting.
_WRITER = threading.RLock()  # re-entrant: a nested write fails in SQLite, as before, not here


def connect(path):
    """Open the database file with the pragmas every connection needs."""
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False)
    conn.row_factory = None
    import sqlite_utils

    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA synchronous = FULL")
    return db


def owner_only(path):
    """Create the file readable by its owner only, or make an existing one so. SQLite gives the
    WAL and shared-memory files the database file's permissions."""
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)


def migrate(path):
    """Create or upgrade the schema and switch the file to WAL mode."""
    owner_only(path)
    for companion in (f"{path}-wal", f"{path}-shm"):
        if os.path.exists(companion):
            owner_only(companion)
    db = connect(path)
    try:
        db.enable_wal()
        from .migrations import migrations

        migrations.apply(db)
    finally:
        db.close()


def get_db():
    """The request's connection, opened on first use."""
    from flask import current_app, g

    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(exc=None):
    from flask import g

    db = g.pop("db", None)
    if db is not None:
        db.close()


@contextlib.contextmanager
def write(db=None):
    """A write transaction that takes the write lock up front, so concurrent saves queue."""
    db = db or get_db()
    with _WRITER:
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.rollback()
            raise
        else:
            db.commit()


def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def init_app(app):
    migrate(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
