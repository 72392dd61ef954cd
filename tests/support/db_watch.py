"""What a test reads from a database file, read again only when something was committed to it.

Tests that check "this request changed nothing" compared a full read of the database before and
after every request (thousands of reads a test). SQLite's `PRAGMA data_version` on a connection of
our own changes whenever any other connection, in this process or another, commits to the file:
while it stays the same, the last read still holds."""
import sqlite3


class Watched:
    """`watched()` is `read()`'s value, read again only after a commit to `path`."""

    def __init__(self, path, read):
        self.read = read
        self.connection = sqlite3.connect(path, isolation_level=None)  # never inside a transaction
        self.version = None
        self.value = None

    def __call__(self):
        # The version is taken first: a commit landing during the read shows as a new version on
        # the next call, which then reads again.
        version = self.connection.execute("PRAGMA data_version").fetchone()[0]
        if self.version is None or version != self.version:
            self.version, self.value = version, self.read()
        return self.value

    def close(self):
        self.connection.close()


class Commits:
    """Whether anything was committed to `path` since a check last ran on the same inputs.

    A stateful test checks what the pages show after every step, and some steps write nothing (a
    rule that finds nothing to do, a page read; about one step in six of the club night machine's):
    a check asked again of the same stored facts and the same inputs (a phone's cookie, the test's
    clock) would read the same answers. `changed` says when it must run again."""

    def __init__(self, path):
        self.connection = sqlite3.connect(path, isolation_level=None)
        self.seen = {}

    def changed(self, check, *inputs):
        key = (self.connection.execute("PRAGMA data_version").fetchone()[0], inputs)
        if self.seen.get(check) == key:
            return False
        self.seen[check] = key
        return True

    def close(self):
        self.connection.close()
