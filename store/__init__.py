"""One SQLite file: a connection per worker thread, kept from request to request; migrations at
start; write transactions."""
import contextlib
import contextvars
import datetime
import fcntl
import os
import sqlite3
import threading
import weakref
from collections import OrderedDict

# Flask, sqlite-utils and the migrations are imported where they are used, so the restore's child
# process (python -m store.restore), which needs none of them, starts quickly.

BUSY_TIMEOUT_SECONDS = 10
# Connections a thread keeps open at once (one per app and database file; a server has one, a
# test run makes many apps one after another): the least recently used is closed beyond this.
KEPT_PER_THREAD = 4


# Whether SQLite checkpoints from the commit that fills its log (its default), or, in a served
# process, store/checkpoints.py does on a thread of its own.
_own_checkpoints = True


def set_own_checkpoints(on):
    """Whether the connections this process opens from now on let SQLite checkpoint by itself."""
    global _own_checkpoints
    _own_checkpoints = on


def connect(path):
    """Open the database file with the pragmas every connection needs."""
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_SECONDS, check_same_thread=False)
    conn.row_factory = None
    from .database import Database

    db = Database(conn)
    db.path = str(path)
    db.execute("PRAGMA foreign_keys = ON")
    # Commits do not wait for the disk; `write()` syncs the log after every one but a draft's,
    # once the write lock is let go. See `write` and `sync_log`.
    db.execute("PRAGMA synchronous = NORMAL")
    if not _own_checkpoints:
        db.execute("PRAGMA wal_autocheckpoint = 0")
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
    db.execute("PRAGMA synchronous = FULL")  # a schema change waits for the disk, as saves do
    try:
        db.enable_wal()
        from .migrations import migrations

        migrations.apply(db)
    finally:
        db.close()


_threads = threading.local()


def thread_connection(app, path, opener=None):
    """This thread's connection to `app`'s database file at `path` (opened by `opener`, default
    `connect`), opened on first use and kept: the schema is parsed once, SQLite's statement cache
    keeps the prepared statements, and closing (a checkpoint each time) happens only when a
    thread has more apps open than it keeps."""
    kept = getattr(_threads, "kept", None)
    if kept is None:
        kept = _threads.kept = OrderedDict()
    key = (id(app), path)
    found = kept.get(key)
    if found is not None and found[0]() is app:
        kept.move_to_end(key)
        return found[1]
    if found is not None:  # an app of the same id that is gone: its connection goes too
        kept.pop(key)[1].close()
    db = (opener or connect)(path)
    kept[key] = (weakref.ref(app), db)
    while len(kept) > KEPT_PER_THREAD:
        kept.popitem(last=False)[1][1].close()
    return db


def close_thread_connections():
    """Close every connection this thread keeps (tests and tools that want the file let go)."""
    kept = getattr(_threads, "kept", None) or {}
    while kept:
        kept.popitem()[1][1].close()


def get_db():
    """The request's connection: this thread's, kept from request to request."""
    from flask import current_app, g

    if "db" not in g:
        app = current_app._get_current_object()
        g.db = thread_connection(app, app.config["DATABASE"])
    return g.db


def close_db(exc=None):
    """The connection stays open for the thread's next request, never inside a transaction."""
    from flask import g

    db = g.pop("db", None)
    if db is not None and db.conn.in_transaction:
        db.conn.rollback()


class WriterQueue:
    """Writers to one database file wait their turn here, in line, before BEGIN IMMEDIATE.

    SQLite makes a writer that finds the write lock taken sleep and try again (1, 2, 5, … up to
    100 ms between tries), so under load a tap could wait 100 ms for a lock that was free after
    one. Here the threads of a process queue on a lock, and the processes on an flock of a small
    file beside the database (`<database>-writer.lock`), both woken the moment the writer before
    them is done. SQLite's own lock and busy timeout stay as they are, underneath."""

    def __init__(self, path):
        self.lock = threading.Lock()
        self.path = f"{path}-writer.lock"
        owner_only(self.path)

    @contextlib.contextmanager
    def turn(self):
        if not self.lock.acquire(timeout=BUSY_TIMEOUT_SECONDS):
            raise sqlite3.OperationalError("database is locked")
        try:
            # Opened for each turn (two system calls), so no file stays open for a database
            # the process no longer uses; closing it lets the next process in.
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)  # waits without the GIL until the file is free
                yield
            finally:
                os.close(fd)
        finally:
            self.lock.release()


_queues = {}
_queues_lock = threading.Lock()


def writer_queue(path):
    """The process's queue of writers to the database file at `path`."""
    queue = _queues.get(path)
    if queue is None:
        with _queues_lock:
            queue = _queues.setdefault(path, None) or WriterQueue(path)
            _queues[path] = queue
    return queue


@contextlib.contextmanager
def write(db=None, draft=False):
    """A write transaction that takes the write lock up front, so concurrent saves queue (in
    the writer queue first, see WriterQueue).

    Every write is atomic and survives the process being killed (WAL). A write is also on the
    disk before it returns (`sync_log` once the lock is let go; within `syncs_deferred`, before
    the caller answers), unless it is a `draft`: a tap on
    a round still being entered, which every phone at the table still shows and which the round's
    save makes durable with it (syncing the log syncs every commit in it), or a phone noted as
    still at the table. A power cut can take back the drafts since the last durable write, never a
    saved round, and never leaves the file damaged."""
    db = db or get_db()
    path = getattr(db, "path", None)
    with writer_queue(path).turn() if path else contextlib.nullcontext():
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.rollback()
            raise
        else:
            db.commit()
    if not draft:
        sync_log(path or _file_of(db))


# The files whose syncs the caller waits for itself, off its thread (see `syncs_deferred`).
_deferred_syncs = contextvars.ContextVar("orchard_deferred_syncs", default=None)


@contextlib.contextmanager
def syncs_deferred():
    """Within it, a write notes its file in the list this yields instead of waiting for the disk;
    the caller syncs them (`sync_logs`) before anything is answered. The server runs a table's
    requests on its event loop (cli/body_first.py): a sync waited for there held up every table of
    its process for as long as the disk took (at 300 tables, 5 ms a sync made taps' p95 136 ms;
    bench/load.py --slow-disk, docs/performance.md)."""
    pending = []
    token = _deferred_syncs.set(pending)
    try:
        yield pending
    finally:
        _deferred_syncs.reset(token)


def sync_logs(paths):
    """Sync each database's log (`sync_log`): what a caller of `syncs_deferred` runs on a thread."""
    for path in paths:
        sync_log(path)


def sync_log(path):
    """Wait until the disk has the database's write-ahead log as it is now, with every commit in it.

    Every connection commits under `synchronous = NORMAL`: the commit is written to the log but not
    synced, so the write lock is let go at once. The sync comes after, outside the lock: under
    FULL, SQLite synced at the commit, and every other writer, in every process, waited for the
    disk behind it (at 300 tables the lock was held 0.60–0.64 ms a write, 0.40–0.48 ms with the
    sync outside; docs/performance.md). Syncing the log afterwards is as durable for this commit:
    its frames are in the log until a checkpoint has copied them into the database file, which
    SQLite syncs before the log starts over. With no log (not in WAL mode), the database file
    itself is synced."""
    if not path:  # a database in memory: no disk to wait for
        return
    pending = _deferred_syncs.get()
    if pending is not None:
        if path not in pending:
            pending.append(path)
        return
    for name in (f"{path}-wal", path):
        try:
            fd = os.open(name, os.O_RDONLY)
        except FileNotFoundError:
            continue
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        return


def _file_of(db):
    """The main database file of a connection opened without `connect` ("" in memory)."""
    return next((row[2] for row in db.execute("PRAGMA database_list").fetchall() if row[1] == "main"), "")


def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def init_app(app):
    migrate(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
