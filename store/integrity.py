"""Whether the database file is whole: SQLite's quick check (every b-tree page read through), at
start and for the health probe."""
import sqlite3
from contextlib import closing
from urllib.parse import quote


class DamagedDatabase(sqlite3.DatabaseError):
    """The file is damaged; `detail` is SQLite's first complaint, one line."""

    def __init__(self, path, detail):
        super().__init__(f"The database {path} is damaged ({detail}).")
        self.detail = detail


def first_problem(conn):
    """None when `PRAGMA quick_check` finds the file whole, else its first complaint (one line)."""
    try:
        rows = conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.OperationalError:  # not opened at all (no access, a read-only folder): not damage
        raise
    except sqlite3.DatabaseError as error:  # too damaged to be read through at all
        return str(error)
    lines = [line for row in rows for line in str(row[0]).splitlines() if not line.startswith("*** ")]
    return None if lines == ["ok"] else lines[0]


def check_file(path):
    """Raise DamagedDatabase when the file at `path` is not whole. It is opened read-only: nothing
    is written into it, not even the checkpoint SQLite makes when its last connection closes."""
    with closing(sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)) as conn:
        problem = first_problem(conn)
    if problem:
        raise DamagedDatabase(path, problem)
