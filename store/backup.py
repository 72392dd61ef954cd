"""Copies of the database taken with SQLite's online backup, safe while the app is serving: on
demand (`orchard backup PATH`), and one a day beside the database while the server runs."""
import datetime
import fcntl
import logging
import os
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

from . import owner_only

KEEP_DAYS = 7  # the daily copies kept: the newest seven
CHECK_SECONDS = 60 * 60  # how often a running server looks whether today's copy is made yet
SQLITE_HEADER = b"SQLite format 3\x00"
_log = logging.getLogger("orchard.backup")


class BackupError(Exception):
    """The copy could not be made whole; any earlier copy is left as it was. `detail`: what SQLite
    said about a damaged database, for a sentence of another's making."""

    def __init__(self, message, detail=None):
        super().__init__(message)
        self.detail = detail


class LiveFileError(BackupError):
    """The target is the live database, or a file beside it that SQLite or the server keeps open:
    nothing was written (a copy renamed over it would replace the file the server writes to)."""


def _live_files(source):
    """(path, what it is) for the database at `source` and every file kept beside it while it is
    served: its journal and shared memory, the server's locks, the guess counters and theirs."""
    from .limits import limits_path

    limits = limits_path(source)
    return [(f"{source}", "the live database"),
            (f"{source}-wal", "the live database's write-ahead log"),
            (f"{source}-journal", "the name of the live database's rollback journal"),
            (f"{source}-shm", "the live database's shared-memory file"),
            (f"{source}-backup.lock", "the live database's backup lock"),
            (f"{source}-damaged", "the live database's damage mark"),
            (f"{source}-writer.lock", "the live database's writer lock"),
            (limits, "the live database's guess counters"),
            (f"{limits}-wal", "the live database's guess counters' write-ahead log"),
            (f"{limits}-journal", "the name of the live database's guess counters' rollback journal"),
            (f"{limits}-shm", "the live database's guess counters' shared-memory file")]


def _same_file(one, other):
    """Whether the paths name one file: the same place once symlinks, `..` and the working folder
    are resolved, or (both existing) the same inode, as a hard link is."""
    if os.path.realpath(one) == os.path.realpath(other):
        return True
    try:
        return os.path.samefile(one, other)
    except OSError:  # one of them does not exist (yet): not the same file
        return False


def refuse_live_target(source, target):
    """Raise LiveFileError when `target` is the database at `source` or a file kept beside it,
    however it is named (relative, through `..` or a symlink, a hard link)."""
    for base in dict.fromkeys((str(source), os.path.realpath(source))):
        for live, what in _live_files(base):
            if _same_file(target, live):
                raise LiveFileError(f"Nothing was copied: {target} is {what} ({live}); "
                                    "a copy must go to another file.")


def backup(source, target):
    """Copy the live database at `source` into `target`: the copy is made under a temporary
    name and checked (PRAGMA integrity_check), and only a whole copy takes the target's name."""
    refuse_live_target(source, target)
    target = Path(target)
    _refuse_to_overwrite(target)
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    owner_only(partial)  # it holds what the database holds
    try:
        with closing(sqlite3.connect(str(source))) as src, closing(sqlite3.connect(str(partial))) as dst:
            src.backup(dst)
            verdict = dst.execute("PRAGMA integrity_check").fetchall()
        if verdict != [("ok",)]:
            detail = [line for line in verdict[0][0].splitlines() if not line.startswith("*** ")][0]
            raise BackupError(f"The database {source} is damaged ({detail}).", detail)
        os.replace(partial, target)
    except sqlite3.DatabaseError as error:
        raise BackupError(f"The database {source} is damaged or unreadable ({error}).", str(error)) from None
    finally:
        partial.unlink(missing_ok=True)
    return target


def _refuse_to_overwrite(target):
    """A copy replaces an earlier copy (an SQLite file) or an empty file, never anything else."""
    if target.is_dir():
        raise BackupError(f"{target} is a folder: name the file to write the copy to, such as {target / 'orchard.db'}.")
    if target.exists() and target.stat().st_size:
        with open(target, "rb") as existing:
            if existing.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                raise BackupError(f"{target} exists and is not an SQLite database, so it was left as it is: "
                                  "name a new file or an earlier backup.")


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


def keep_backing_up(source, stop, today=datetime.date.today, every=CHECK_SECONDS):
    """Until `stop` (a threading.Event) is set: every `every` seconds, today's copy unless it is
    there (`rolling_backup`, which keeps the newest KEEP_DAYS). A copy that fails is logged and
    tried again at the next look; the server goes on serving. `stop.wait` is the only waiting,
    so a test drives the schedule with an Event and a clock of its own."""
    while not stop.wait(every):
        try:
            rolling_backup(source, today=today())
        except (BackupError, OSError, sqlite3.Error) as error:
            _log.error("Today's backup of %s failed, tried again within the hour: %s", source, error)


def start_daily_backups(source):
    """Run `keep_backing_up` on a daemon thread of this process, unless another process serving
    the same database already does (it holds an flock of <database>-backup.lock while it lives).
    The stop event, or None when another process has the schedule."""
    lock_path = f"{source}-backup.lock"
    owner_only(lock_path)
    lock = open(lock_path, "r+b")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return None
    stop = threading.Event()
    thread = threading.Thread(target=keep_backing_up, args=(source, stop), daemon=True, name="orchard-backups")
    thread.lock = lock  # held, open, for as long as the thread (and so the process) lives
    thread.start()
    return stop
