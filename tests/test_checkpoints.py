"""Served, the log is copied into the database file by a thread of each worker process, when it holds
1,000 pages as SQLite would, and never by a writer's commit (store/checkpoints.py): a writer holds the
turn every table waits for."""
import os
import threading
import time

import pytest

import store
from store import checkpoints


@pytest.fixture
def database(tmp_path):
    path = str(tmp_path / "orchard.db")
    store.migrate(path)
    yield path
    store.set_own_checkpoints(True)  # as every other test expects


def write_pages(path, pages):
    """About `pages` pages of the log, in commits of ten, through store.write as the app writes."""
    db = store.connect(path)
    try:
        with store.write(db):
            db.execute("CREATE TABLE IF NOT EXISTS filler (data BLOB)")
        for _ in range(pages // 10):
            with store.write(db, draft=True):
                for _ in range(10):
                    db.execute("INSERT INTO filler VALUES (randomblob(3900))")
    finally:
        db.close()


def test_a_commit_never_checkpoints_and_the_thread_does_once_the_log_is_long(database):
    stopped = threading.Event()
    stopped.set()
    checkpoints.checkpoint_in_background(database, stopped).join(5)  # SQLite's own turned off, no thread
    size = os.path.getsize(database)
    writer = store.connect(database)
    assert writer.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    write_pages(database, 1500)
    assert os.path.getsize(database) == size  # no commit copied the log over
    assert checkpoints.due(database)

    stop = threading.Event()
    thread = checkpoints.checkpoint_in_background(database, stop)
    try:
        deadline = time.monotonic() + 5
        while checkpoints.due(database) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not checkpoints.due(database)
        assert os.path.getsize(database) > size + 1400 * 4096  # the pages are in the file
        assert writer.execute("SELECT count(*) FROM filler").fetchone()[0] == 1500
    finally:
        stop.set()
        thread.join(5)
        writer.close()


def test_a_short_log_is_left_as_it_is(database):
    store.set_own_checkpoints(False)
    reader = store.connect(database)  # the file stays open, and its log with it
    try:
        reader.execute("SELECT 1").fetchall()
        write_pages(database, 50)
        assert os.path.exists(database + "-shm") and not checkpoints.due(database)
    finally:
        reader.close()


def test_an_index_that_cannot_be_read_is_checkpointed_and_a_file_nobody_has_open_is_not(tmp_path):
    assert not checkpoints.due(str(tmp_path / "nothing.db"))
    (tmp_path / "short.db-shm").write_bytes(b"\0" * 20)
    assert checkpoints.due(str(tmp_path / "short.db"))


def test_outside_the_server_sqlite_checkpoints_by_itself(database):
    db = store.connect(database)
    try:
        assert db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000
    finally:
        db.close()


def test_a_served_worker_checkpoints_on_a_thread_and_leaves_its_syncs_off_the_loop(tmp_path, monkeypatch):
    """What `orchard serve` builds in each worker process (cli/serving.py): the checkpoints asked of
    a thread, and the app run with the store's deferred syncs."""
    import store.backup
    from cli import serving

    path = str(tmp_path / "orchard.db")
    monkeypatch.setenv("ORCHARD_DATABASE", path)
    monkeypatch.setattr(serving, "_end_with_parent", lambda: None)  # not this test process
    monkeypatch.setattr(store.backup, "start_daily_backups", lambda database: None)
    asked = []
    monkeypatch.setattr(checkpoints, "checkpoint_in_background", asked.append)
    server = serving.worker_app()
    try:
        assert asked == [path]
        assert server.disk is store and server.syncing is not None
    finally:
        server.threads.shutdown(wait=True)
        server.syncing.shutdown(wait=True)
