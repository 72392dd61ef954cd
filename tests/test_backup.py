"""Backups: the command, and the rolling daily copies beside the database."""
import datetime
import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

from click.testing import CliRunner

from cli import main as orchard_command
from store import connect
from store.backup import CHECK_SECONDS, BackupError, backup, keep_backing_up, rolling_backup, start_daily_backups
from support.loopback import REPO, ServerProcess, free_port
from support.rounds import BIG_COUNTS, BIG_TARGETS


def backup_command(app, path):
    """`orchard backup PATH`, with ORCHARD_DATABASE naming the app's database."""
    return CliRunner().invoke(orchard_command, ["backup", str(path)], env={"ORCHARD_DATABASE": app.config["DATABASE"]})


def test_backup_command_copies_every_round(app, table, tmp_path):
    table.start_game()
    table.save_quick_round(BIG_TARGETS, BIG_COUNTS)
    target = tmp_path / "copies" / "orchard-backup.db"
    result = backup_command(app, target)
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


class Hours:
    """The backup schedule's clock and stop event in one: each wait is that many seconds passing
    (no real waiting), and the schedule is stopped after `looks` waits. `at` runs a step once
    the clock has passed a time."""

    def __init__(self, start, looks, at=()):
        self.now = datetime.datetime.combine(start, datetime.time(9, 30))
        self.looks, self.waits, self.at = looks, [], sorted(at)

    def today(self):
        return self.now.date()

    def wait(self, seconds):
        self.waits.append(seconds)
        self.now += datetime.timedelta(seconds=seconds)
        while self.at and self.at[0][0] <= self.now:
            self.at.pop(0)[1]()
        return len(self.waits) > self.looks


def test_a_running_server_takes_a_copy_each_day_and_keeps_the_newest_seven(app, client, table):
    table.start_game()
    database = app.config["DATABASE"]
    start = datetime.date(2026, 11, 1)
    late = datetime.datetime(2026, 11, 9, 20, 0)  # a crew started on the evening of the 9th
    clock = Hours(start, looks=10 * 24, at=[(late, lambda: client.post("/crews", data={"name": "Late crew"}))])
    keep_backing_up(database, clock, today=clock.today)
    assert set(clock.waits) == {CHECK_SECONDS}  # it looked every hour, for ten days
    folder = Path(database).parent / "backups"
    assert sorted(path.name for path in folder.iterdir()) == [f"orchard-2026-11-{day:02d}.db" for day in range(5, 12)]

    def crews(day):
        return [row["name"] for row in connect(folder / f"orchard-2026-11-{day:02d}.db").query(
            "SELECT name FROM crews ORDER BY id")]

    # Each day's copy was taken in its first hour: the 9th's before the late crew, the 10th's after.
    assert crews(9) == ["Thursday crew"]
    assert crews(10) == crews(11) == ["Thursday crew", "Late crew"]


def test_a_copy_that_fails_is_tried_again_at_the_next_look(app, table, monkeypatch, caplog):
    import store.backup

    import store
    table.start_game()
    database = app.config["DATABASE"]
    real, calls = store.backup.rolling_backup, []

    def once_a_full_disk(source, today=None):
        calls.append(today)
        if len(calls) == 1:
            raise OSError(28, "No space left on device")
        return real(source, today=today)

    monkeypatch.setattr(store.backup, "rolling_backup", once_a_full_disk)
    clock = Hours(datetime.date(2026, 11, 1), looks=2)
    keep_backing_up(database, clock, today=clock.today)
    assert len(calls) == 2
    assert (Path(database).parent / "backups" / "orchard-2026-11-01.db").exists()
    assert "Today's backup of" in caplog.text and "No space left on device" in caplog.text


@pytest.mark.slow
def test_the_served_app_keeps_the_daily_schedule(tmp_path):
    server = ServerProcess(tmp_path / "orchard.db").start()
    try:
        # The worker serving the app holds the schedule's lock: no second process takes it.
        with open(tmp_path / "orchard.db-backup.lock", "rb") as lock:
            with pytest.raises(BlockingIOError):
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert start_daily_backups(str(tmp_path / "orchard.db")) is None
        assert (tmp_path / "backups" / f"orchard-{datetime.date.today().isoformat()}.db").exists()
    finally:
        server.stop()


def test_the_backup_command_will_not_overwrite_a_file_that_is_not_a_database(app, table, tmp_path):
    table.start_game()
    notes = tmp_path / "notes.txt"
    notes.write_text("Thursday: bring the good cards.\n")
    result = backup_command(app, notes)
    assert result.exit_code == 1
    assert result.output.strip() == (f"Error: {notes} exists and is not an SQLite database, so it was left as "
                                     "it is: name a new file or an earlier backup.")
    assert notes.read_text() == "Thursday: bring the good cards.\n"
    folder = backup_command(app, tmp_path)
    assert (folder.exit_code, len(folder.output.strip().splitlines())) == (1, 1)
    assert "is a folder" in folder.output
    # An earlier copy is an SQLite file: it is replaced.
    copy = tmp_path / "copy.db"
    for _ in range(2):
        assert backup_command(app, copy).exit_code == 0
    assert list(connect(copy).query("PRAGMA integrity_check")) == [{"integrity_check": "ok"}]


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
    started = subprocess.run([sys.executable, "-m", "cli", "serve"], cwd=tmp_path, env=env, capture_output=True, text=True,
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


def test_a_read_only_file_system_at_start_is_said_as_such(app, table, tmp_path):
    """The database's folder on a file system mounted read-only (in a mount namespace of its own:
    `unshare` maps this user to root there, so the test needs no privilege)."""
    table.start_crew()
    store_copy = tmp_path / "copy"
    backup(app.config["DATABASE"], store_copy / "orchard.db")
    (store_copy / "secret_key").write_text("k")
    folder = tmp_path / "read-only"
    folder.mkdir()
    script = ('mount -t tmpfs tmpfs "$RO" && cp "$SRC"/* "$RO"/ && mount -o remount,ro "$RO" && '
              f'exec "{sys.executable}" -m cli serve')
    env = {**os.environ, "RO": str(folder), "SRC": str(store_copy), "ORCHARD_DATABASE": str(folder / "orchard.db"),
           "PORT": str(free_port()), "HOST": "127.0.0.1"}
    started = subprocess.run(["unshare", "-rm", "sh", "-c", script], cwd=REPO, env=env, capture_output=True,
                             text=True, timeout=60)
    assert started.returncode == 1, started.stderr
    said = (started.stdout + started.stderr).strip()
    assert said.startswith(f"Orchard cannot start: the database {folder / 'orchard.db'} is on a read-only file "
                           "system"), said
    assert "damaged" not in said and "Traceback" not in said and len(said.splitlines()) == 1
