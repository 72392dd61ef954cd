"""Whether the database file is whole: SQLite's integrity check at start (every b-tree page read
through, and every index held against its table), its quick check for the health probe (the pages
only: fast enough to run once a minute), and a link's token looked for without its index when the
index found nothing (an index can lose a row while every page still reads)."""
import os
import sqlite3
from contextlib import closing
from pathlib import Path
from urllib.parse import quote


class DamagedDatabase(sqlite3.DatabaseError):
    """The file is damaged; `detail` is SQLite's first complaint, one line."""

    def __init__(self, path, detail):
        super().__init__(f"The database {path} is damaged ({detail}).")
        self.detail = detail


INDEX_WORDS = ("missing from index", "wrong # of entries in index", "index ")


def first_problem(conn, indexes=False):
    """None when `PRAGMA quick_check` finds the file whole, else its first complaint (one line);
    with `indexes`, `PRAGMA integrity_check`, which also holds each index against its table."""
    try:
        rows = conn.execute("PRAGMA integrity_check" if indexes else "PRAGMA quick_check").fetchall()
    except sqlite3.OperationalError:  # not opened at all (no access, a read-only folder): not damage
        raise
    except sqlite3.DatabaseError as error:  # too damaged to be read through at all
        return str(error)
    lines = [line for row in rows for line in str(row[0]).splitlines() if not line.startswith("*** ")]
    return None if lines == ["ok"] else lines[0]


def only_an_index(problem):
    """Whether SQLite's complaint is about an index alone (the rows are whole: REINDEX rebuilds it)."""
    said = problem.lower()
    return any(words in said for words in INDEX_WORDS) and not any(word in said for word in ("page", "btree", "malformed"))


def check_file(path):
    """Raise DamagedDatabase when the file at `path` is not whole (its indexes held against their
    tables too). It is opened read-only: nothing
    is written into it, not even the checkpoint SQLite makes when its last connection closes, and
    a file it is refused for is left as it was found: the write-ahead log and shared-memory files
    SQLite makes beside it to read it are taken away again (they hold nothing)."""
    made = [Path(f"{path}{suffix}") for suffix in ("-wal", "-shm") if not Path(f"{path}{suffix}").exists()]
    refused = True
    try:
        with closing(sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)) as conn:
            problem = first_problem(conn, indexes=True)
        if problem:
            raise DamagedDatabase(path, problem)
        refused = False
    finally:
        if refused:
            for companion in made:
                companion.unlink(missing_ok=True)


def mark_path(path):
    """Where a process that found the database at `path` damaged says so to the others."""
    return Path(_mark_name(path))


def _mark_name(path):
    return f"{path}-damaged"


def mark_damaged(path, problem):
    """Say to every process serving `path` that it is damaged (`problem`: SQLite's complaint). The
    mark is written beside the file, never into it, under a temporary name and then renamed."""
    mark = mark_path(path)
    staged = mark.with_name(f"{mark.name}.{os.getpid()}")
    staged.write_text(problem)
    os.replace(staged, mark)


def marked_damage(path):
    """The complaint another process marked the database at `path` damaged with, or None. Asked
    before every request: a look for the mark (2 µs) comes first, not an open that fails (13 µs)."""
    mark = _mark_name(path)
    if not os.access(mark, os.F_OK):
        return None
    try:
        return Path(mark).read_text() or "damaged"
    except FileNotFoundError:  # cleared in between
        return None


def clear_damage_mark(path):
    """At a start whose check found the file whole (a good copy was put in its place)."""
    mark_path(path).unlink(missing_ok=True)


def stray_journal(path):
    """A whole database file where SQLite looks for this one's rollback journal (a backup saved as
    `<database>-journal`): SQLite would take it for an unfinished write's journal. Its path, or None."""
    journal = Path(f"{path}-journal")
    try:
        with journal.open("rb") as file:
            return journal if file.read(16) == b"SQLite format 3\x00" else None
    except OSError:
        return None
