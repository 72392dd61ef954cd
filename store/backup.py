"""Copies of the database taken with SQLite's online backup, safe while the app is serving."""
import datetime
import sqlite3
from pathlib import Path

from . import owner_only

KEEP_DAYS = 7


def backup(source, target):
    """Copy the live database at `source` into a new file at `target`."""
    target = Path(target)
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    owner_only(target)  # it holds what the database holds
    with sqlite3.connect(str(source)) as src, sqlite3.connect(str(target)) as dst:
        src.backup(dst)
    return target


def rolling_backup(source, keep=KEEP_DAYS, today=None):
    """Keep one copy per day beside the database (backups/orchard-YYYY-MM-DD.db), the last few days."""
    source = Path(source)
    if not source.exists():
        return None
    folder = source.parent / "backups"
    day = (today or datetime.date.today()).isoformat()
    target = folder / f"{source.stem}-{day}.db"
    if not target.exists():
        backup(source, target)
    for old in sorted(folder.glob(f"{source.stem}-*.db"))[:-keep]:
        old.unlink()
    return target
