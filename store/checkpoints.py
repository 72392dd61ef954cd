"""Checkpoints on a thread of their own while the app is served, never inside a writer's turn.

SQLite copies the write-ahead log into the database file (a checkpoint) from the commit that takes
the log to 1,000 pages, and syncs both files as it does. That commit is inside the writer queue's
turn (store.WriterQueue), which every writer of every process waits for, and the server runs a
table's writes on its event loop (cli/body_first.py): on a slow disk every table waited for those
syncs. Served, each worker process turns SQLite's own checkpoints off for its connections
(store.set_own_checkpoints) and checkpoints here instead, beside the writers: a PASSIVE checkpoint
takes no lock a writer waits for.

It checkpoints when the log holds CHECKPOINT_PAGES pages or more, some not yet copied, as SQLite
would, and no more often: the first commit after a checkpoint has copied the whole log starts the
log over and syncs its header, inside the writer's turn (a checkpoint every half second made that
twice a second). The log's length is read from its index (the `-shm` file's header, whose layout
SQLite documents at https://www.sqlite.org/walformat.html); an index that cannot be read is
checkpointed each time, and a file no connection has open (no index) not at all.
docs/performance.md has the figures (bench/load.py --slow-disk).
"""
import sqlite3
import struct
import threading

from . import integrity, set_own_checkpoints

CHECKPOINT_SECONDS = 0.5
CHECKPOINT_PAGES = 1000  # SQLite's own (wal_autocheckpoint)
# The wal-index header: its version, and where the log's last frame and the last frame copied into
# the database file are (unsigned 32-bit, in the machine's byte order).
WAL_INDEX_VERSION = 3007000
VERSION_AT, LAST_FRAME_AT, COPIED_AT = 0, 16, 96


def checkpoint_in_background(path, stop=None):
    """Turn SQLite's checkpoints off for the connections this process opens from now on
    (store.connect) and, on a daemon thread, look every CHECKPOINT_SECONDS whether `path` is `due`
    a checkpoint and make it, until `stop` is set or the file is found damaged. The thread."""
    set_own_checkpoints(False)
    thread = threading.Thread(target=keep_checkpointing, args=(path, stop or threading.Event()),
                              daemon=True, name="orchard-checkpoints")
    thread.start()
    return thread


def keep_checkpointing(path, stop):
    conn = sqlite3.connect(str(path), check_same_thread=False)
    try:
        while not stop.wait(CHECKPOINT_SECONDS):
            if integrity.marked_damage(path):
                return  # nothing more is written into a damaged file
            if not due(path):
                continue
            try:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            except sqlite3.OperationalError:  # another process's checkpoint is running: the next one
                continue
            except sqlite3.DatabaseError:  # damage: the requests and the health probe say so
                return
    finally:
        conn.close()


def due(path):
    """Whether the log of the database at `path` holds CHECKPOINT_PAGES pages or more and some not
    yet copied into the database file (always when its index is there but cannot be read)."""
    try:
        with open(f"{path}-shm", "rb") as index:
            header = index.read(COPIED_AT + 4)
        version, = struct.unpack_from("=I", header, VERSION_AT)
        last, = struct.unpack_from("=I", header, LAST_FRAME_AT)
        copied, = struct.unpack_from("=I", header, COPIED_AT)
    except FileNotFoundError:  # no connection has the file open: no log to copy
        return False
    except (OSError, struct.error):
        return True
    if version != WAL_INDEX_VERSION:
        return True
    return last >= CHECKPOINT_PAGES and copied < last
