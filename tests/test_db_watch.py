"""The "nothing changed" check the hostile tests lean on (support/db_watch.py) sees every commit:
one made by another connection of this process, by another process, and none that was not made."""
import sqlite3
import subprocess
import sys
from contextlib import closing

from support.db_watch import Watched


def _rows(path):
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute("SELECT name FROM t ORDER BY name").fetchall()


def test_a_commit_from_anywhere_is_read_again_and_nothing_else_is(tmp_path):
    path = tmp_path / "w.db"
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("PRAGMA journal_mode = wal")
        conn.execute("CREATE TABLE t (name TEXT)")
    reads = []
    watched = Watched(path, lambda: reads.append(1) or _rows(path))
    try:
        assert watched() == [] and watched() == [] and len(reads) == 1
        with closing(sqlite3.connect(path)) as conn, conn:
            conn.execute("INSERT INTO t VALUES ('here')")
        assert watched() == [("here",)]
        subprocess.run([sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                        "c.execute(\"INSERT INTO t VALUES ('there')\"); c.commit()", str(path)], check=True)
        assert watched() == [("here",), ("there",)]
        with closing(sqlite3.connect(path)) as conn:
            conn.execute("INSERT INTO t VALUES ('never')")  # not committed
        assert watched() == [("here",), ("there",)] and len(reads) == 3
    finally:
        watched.close()
