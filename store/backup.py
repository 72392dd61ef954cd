"""Copies of the database taken with SQLite's online backup, safe while the app is serving."""
import datetime
import os
import sqlite3
from contextlib import closing
from pathlib import Path

from . import owner_only

KEEP_DAYS = 7


class BackupError(Exception):
    """The copy could not be made whole; any earlier copy is left as it was."""


def backup(source, target):
    """Copy the live database at `source` into `target`: the copy is made under a temporary
    name and checked (PRAGMA integrity_check), and only a whole copy takes the target's name."""
    target = Path(target)
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    owner_only(partial)  # it holds what the database holds
    try:
        with closing(sqlite3.connect(str(source))) as src, closing(sqlite3.connect(str(partial))) as dst:
            src.backup(dst)
            verdict = dst.execute("PRAGMA integrity_check").fetchall()
        if verdict != [("ok",)]:
            raise BackupError(f"The database {source} is damaged: {verdict[0][0]}")
        os.replace(partial, target)
    except sqlite3.DatabaseError as error:
        raise BackupError(f"The database {source} is damaged or unreadable ({error}).") from None
    finally:
        partial.unlink(missing_ok=True)
    return target


def rolling_backup(source, keep=KEEP_DAYS, today=None):
    """Keep one copy per day beside the database (backups/orchard-YYYY-MM-DD.db), the last few days."""
    source = Path(source)
    if not source.exists():
        return None
    folder = source.parent / "backups"
    day = (today or datetime.date.today()).isoformat()
    target = folder / f"{source.stem}-{day}.db"
    # An empty file is what an interrupted copy by an earlier version left behind.
    if not target.exists() or target.stat().st_size == 0:
        backup(source, target)
    for old in sorted(folder.glob(f"{source.stem}-*.db"))[:-keep]:
        old.unlink()
    return target
