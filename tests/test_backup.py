"""Backups: the command, and the rolling daily copies beside the database."""
import datetime
import os
import subprocess
import sys
from pathlib import Path

import pytest

from store import connect
from store.backup import BackupError, rolling_backup
from support.loopback import REPO
from support.rounds import BIG_COUNTS, BIG_TARGETS


def test_backup_command_copies_every_round(app, table, tmp_path):
    table.start_game()
    table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    target = tmp_path / "copies" / "orchard-backup.db"
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert f"to {target}" in result.output
    copy = connect(target)
    assert [row["score"] for row in copy.query("SELECT score FROM hands ORDER BY seat")] == [160, 80, 80, 80]
    assert list(copy.query("PRAGMA integrity_check")) == [{"integrity_check": "ok"}]


def test_rolling_backup_keeps_one_copy_a_day_for_a_week(app, table):
    table.start_game()
    database = app.config["DATABASE"]
    start = datetime.date(2026, 11, 1)
    for day in range(10):
        rolling_backup(database, today=start + datetime.timedelta(days=day))
    rolling_backup(database, today=start + datetime.timedelta(days=9))
    names = sorted(path.name for path in (Path(database).parent / "backups").iterdir())
    assert names == [f"orchard-2026-11-{day:02d}.db" for day in range(4, 11)]


def _good_backups(app, table, days=2):
    table.start_game()
    database = app.config["DATABASE"]
    for day in range(1, days + 1):
        rolling_backup(database, today=datetime.date(2026, 11, day))
    folder = Path(database).parent / "backups"
    return database, folder, {path.name: path.read_bytes() for path in folder.iterdir()}


def test_a_damaged_database_is_never_copied_over_the_backups(app, table):
    database, folder, before = _good_backups(app, table)
    Path(database).write_bytes(b"not a database at all " * 500)
    for suffix in ("-wal", "-shm"):
        Path(database + suffix).unlink(missing_ok=True)
    with pytest.raises(BackupError, match="is damaged"):
        rolling_backup(database, today=datetime.date(2026, 11, 3))
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before


def test_an_empty_backup_left_by_a_failed_copy_is_made_again(app, table):
    database, folder, before = _good_backups(app, table, days=1)
    today = folder / "orchard-2026-11-02.db"
    today.write_bytes(b"")
    rolling_backup(database, today=datetime.date(2026, 11, 2))
    assert [row["name"] for row in connect(today).query("SELECT name FROM crews")] == ["Thursday crew"]


def test_a_damaged_database_at_start_is_one_clear_sentence(tmp_path):
    database = tmp_path / "orchard.db"
    database.write_bytes(b"not a database at all " * 500)
    env = {**os.environ, "ORCHARD_DATABASE": str(database), "PORT": "1", "HOST": "127.0.0.1"}
    started = subprocess.run([sys.executable, "app.py"], cwd=REPO, env=env, capture_output=True, text=True,
                             timeout=60)
    assert started.returncode == 1
    said = (started.stdout + started.stderr).strip()
    assert said.startswith(f"Orchard cannot start: the database {database} is damaged or unreadable")
    assert "Traceback" not in said and len(said.splitlines()) == 1


def test_a_full_disk_gets_a_clear_503_page(app, client, table, monkeypatch):
    import store

    table.start_crew()
    real_connect = store.connect

    def full_disk(path):
        db = real_connect(path)
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite then answers "database or disk is full"
        return db

    monkeypatch.setattr(store, "connect", full_disk)
    store.close_thread_connections()  # connections are kept per thread: the next one is full
    response = client.post("/crews", data={"name": "X" * 40})
    for _ in range(200):  # fill the last free page, whatever room it had
        if response.status_code != 303:
            break
        response = client.post("/crews", data={"name": "X" * 40})
    assert response.status_code == 503
    page = response.get_data(as_text=True)
    assert "The server's disk is full, so this change was not saved." in page


def test_a_save_that_cannot_get_the_write_lock_gets_a_clear_503_page(app, client, table, monkeypatch):
    import sqlite3

    import store

    table.start_crew()
    monkeypatch.setattr(store, "BUSY_TIMEOUT_SECONDS", 0)
    store.close_thread_connections()  # the kept connection waits 10 s: the next one opens with 0
    holder = sqlite3.connect(app.config["DATABASE"])
    holder.execute("BEGIN IMMEDIATE")
    try:
        response = client.post("/crews", data={"name": "Waiting"})
    finally:
        holder.rollback()
        holder.close()
    assert response.status_code == 503
    assert "too busy to save this change" in response.get_data(as_text=True)
