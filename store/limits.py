"""Counters for the limits on guessing (crew links, the passphrase) and on starting crews, kept in
a small SQLite file beside the database, so that every worker process serving that database counts
against the same allowance.

Fixed windows, as Flask-Limiter counted them before: a limit of "30 per minute" allows 30 hits per
address in each whole minute. The counters live in their own file, not in the database: a guess
never waits for the write lock of a round being saved, and backups and exports hold only crews.
"""
import os
import sqlite3
import time
from pathlib import Path

from . import BUSY_TIMEOUT_SECONDS, owner_only, thread_connection

SCHEMA = """
CREATE TABLE IF NOT EXISTS hits (
    name TEXT NOT NULL,      -- which limit: GUESS_LIMIT, PASSPHRASE_LIMIT, CREW_LIMIT
    address TEXT NOT NULL,   -- who: the client's address
    window INTEGER NOT NULL, -- the window's start, in seconds since the epoch
    expires INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (name, address, window)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS hits_expires ON hits (expires);
CREATE TABLE IF NOT EXISTS bodies (
    pid INTEGER NOT NULL,    -- the worker process reading them
    address TEXT NOT NULL,   -- whose: the client's address
    count INTEGER NOT NULL,  -- slow bodies of that address that process is reading now
    PRIMARY KEY (pid, address)
) WITHOUT ROWID;
"""


def limits_path(database):
    """The counters' file for a database file: orchard.db -> orchard-limits.db."""
    path = Path(database)
    return str(path.with_name(f"{path.stem}-limits{path.suffix or '.db'}"))


def _connect(path):
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None,
                           check_same_thread=False)
    # Counters are worth no fsync: after a power cut an address at worst gets a fresh allowance.
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


def create(path):
    """Make the counters' file (owner only, WAL so counting never blocks a reader)."""
    owner_only(path)
    conn = _connect(path)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.executescript(SCHEMA)
    finally:
        conn.close()
    for companion in (f"{path}-wal", f"{path}-shm"):
        if os.path.exists(companion):
            owner_only(companion)


class SharedCounter:
    """Hits per limit and address, shared through the counters' file by every process."""

    def __init__(self, app, path):
        self.app = app
        self.path = path
        create(path)

    def _conn(self):
        return thread_connection(self.app, self.path, _connect)

    @staticmethod
    def _window(seconds, at=None):
        now = int(at if at is not None else time.time())
        return now - now % seconds

    def window_start(self, seconds):
        """The current window of a limit counted over `seconds`."""
        return self._window(seconds)

    def count(self, name, address, seconds):
        """Hits so far in the current window."""
        row = self._conn().execute(
            "SELECT count FROM hits WHERE name = ? AND address = ? AND window = ?",
            [name, address, self._window(seconds)]).fetchone()
        return row[0] if row else 0

    def hit(self, name, address, seconds):
        """Count one hit (one statement, atomic across processes); returns the window's count."""
        window = self._window(seconds)
        conn = self._conn()
        # fetchall: the statement is finished (and, autocommitting, committed) before it returns
        count = conn.execute(
            "INSERT INTO hits (name, address, window, expires, count) VALUES (?, ?, ?, ?, 1)"
            " ON CONFLICT (name, address, window) DO UPDATE SET count = count + 1 RETURNING count",
            [name, address, window, window + seconds]).fetchall()[0][0]
        if count == 1:  # a new window: the ended ones go
            conn.execute("DELETE FROM hits WHERE expires <= ?", [int(time.time())])
        return count

    def take_back(self, name, address, seconds, window):
        """Uncount one hit made in `window` (a step that turned out to cost nothing); once the
        window is over there is nothing to take back."""
        if window == self._window(seconds):
            self._conn().execute("UPDATE hits SET count = count - 1 WHERE name = ? AND address = ?"
                                 " AND window = ? AND count > 0", [name, address, window]).fetchall()


class SharedBodies:
    """Slow request bodies being read, per address, over every worker process serving a database
    (cli/body_first.py: one address may have only a few at once, whichever processes read them).
    Each process keeps its own rows; the rows of a process that is gone (killed outright) are
    dropped the first time they would refuse someone, and at the process's start."""

    def __init__(self, path):
        create(path)
        self.path, self.pid = path, os.getpid()
        self.conn = _connect(path)
        self.conn.execute("DELETE FROM bodies WHERE pid = ?", [self.pid])

    def take(self, address, cap):
        """Count one more body for `address` when it has fewer than `cap` in all (one statement,
        atomic across processes, as `SharedCounter.hit`); whether it did."""
        for first_try in (True, False):
            taken = self.conn.execute(
                "INSERT INTO bodies (pid, address, count) SELECT :pid, :address, 1"
                " WHERE (SELECT coalesce(sum(count), 0) FROM bodies WHERE address = :address) < :cap"
                " ON CONFLICT (pid, address) DO UPDATE SET count = count + 1"
                " WHERE (SELECT coalesce(sum(count), 0) FROM bodies WHERE address = :address) < :cap"
                " RETURNING count", {"pid": self.pid, "address": address, "cap": cap}).fetchall()
            if taken or not first_try:
                return bool(taken)
            for (pid,) in self.conn.execute("SELECT DISTINCT pid FROM bodies WHERE address = ?", [address]).fetchall():
                if pid != self.pid and not _alive(pid):  # a process killed outright left its count
                    self.conn.execute("DELETE FROM bodies WHERE pid = ?", [pid])
        return False

    def give_back(self, address):
        self.conn.execute("UPDATE bodies SET count = count - 1 WHERE pid = ? AND address = ?", [self.pid, address])
        self.conn.execute("DELETE FROM bodies WHERE pid = ? AND count <= 0", [self.pid])


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, but another user's: not ours to judge
        return True
    return True
