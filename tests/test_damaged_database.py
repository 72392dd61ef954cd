"""A database file damaged on the disk (issue 38.3): never served, whatever the backups hold; pages
and the health probe say so alike; the refusal names the damage once (issue 38.8)."""
import datetime
import shutil
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import store
from app import cannot_start
from store.backup import BackupError, backup
from support.loopback import REPO, Phone, ServerProcess, free_port

PAGE = 4096


def _damage(database, middle=False, table="games"):
    """Write garbage over one page inside the file: the root of `table`, or the middle page."""
    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", [table]).fetchone()[0]
        if middle:
            page = conn.execute("PRAGMA page_count").fetchone()[0] // 2
    with open(database, "r+b") as file:
        file.seek((page - 1) * PAGE)
        file.write(b"\xa5" * PAGE)


def _served_then_damaged(tmp_path, middle=False):
    """A crew with a game of three rounds served by `orchard serve` (which took today's copy at
    start), then the server stopped and the file damaged mid-file."""
    database = tmp_path / "orchard.db"
    server = ServerProcess(database).start()
    try:
        phone = Phone(server.base)
        crew = phone.start_crew("Damaged crew")
        game = phone.start_game(crew)
        for _ in range(3):
            assert phone.enter_round(game)[1].status == 303
    finally:
        server.stop()
    _damage(database, middle)
    return database, crew


def _first_complaint(database):
    """SQLite's first complaint as a start reads the file (its integrity check)."""
    with sqlite3.connect(database) as conn:
        try:
            rows = conn.execute("PRAGMA integrity_check").fetchall()  # what a start runs
        except sqlite3.DatabaseError as error:
            return str(error)
    return [line for line in rows[0][0].splitlines() if not line.startswith("***")][0]


@pytest.mark.slow
@pytest.mark.parametrize("where", ["the games table's root", "a page in the middle"])
def test_a_damaged_database_does_not_start_though_todays_copy_is_there(tmp_path, where):
    database, _ = _served_then_damaged(tmp_path, middle=where == "a page in the middle")
    backups = tmp_path / "backups"
    today = backups / f"orchard-{datetime.date.today().isoformat()}.db"
    assert today.exists()
    before = database.read_bytes()
    env = {**os.environ, "ORCHARD_DATABASE": str(database), "PORT": str(free_port()), "HOST": "127.0.0.1"}
    started = subprocess.run([sys.executable, "-m", "cli", "serve"], cwd=REPO, env=env, capture_output=True,
                             text=True, timeout=20)
    assert started.returncode == 1
    assert started.stdout == ""
    assert started.stderr == (
        f"Orchard cannot start: the database {database} is damaged or unreadable ({_first_complaint(database)}); "
        f"the daily copies in {backups} are untouched: move the damaged file aside and copy the newest of them "
        f"({today.name}) in its place.\n")
    assert database.read_bytes() == before  # nothing was written into it


def test_the_damage_is_said_once_in_the_sentence(tmp_path):
    """The copy's own sentence used to be put inside the start's: "is damaged or unreadable (The
    database … is damaged or unreadable (database disk image is malformed).)"."""
    database = tmp_path / "orchard.db"
    error = BackupError(f"The database {database} is damaged or unreadable (database disk image is malformed).",
                        detail="database disk image is malformed")
    assert cannot_start(error, database) == (
        f"Orchard cannot start: the database {database} is damaged or unreadable (database disk image is "
        f"malformed); there are no daily copies in {tmp_path / 'backups'}: move the damaged file aside "
        "(SQLite's .recover command may save some of what it holds) and start again.")


@pytest.mark.slow
def test_a_copy_of_a_damaged_database_fails_with_the_damage_as_its_detail(tmp_path):
    database, _ = _served_then_damaged(tmp_path)
    with pytest.raises(BackupError) as refused:
        backup(database, tmp_path / "copy.db")
    assert refused.value.detail == _first_complaint(database)
    assert str(refused.value).count(" is damaged") == 1


def _crew_with_a_game(table):
    crew = table.start_crew()
    table.start_game()
    return crew


def test_pages_on_a_file_damaged_while_serving_answer_503_and_so_does_the_probe(app, client, table):
    crew = _crew_with_a_game(table)
    database = Path(app.config["DATABASE"])
    store.close_thread_connections()  # the next request opens the file as it is on the disk
    _damage(database)
    page = client.get(crew)
    assert page.status_code == 503
    assert "The server's database is damaged" in page.get_data(as_text=True)
    sizes = {path.name: path.stat().st_size for path in database.parent.glob("orchard.db*")}
    # Every page now says so, without writing into the file: a new crew is not started in it.
    answer = client.post("/crews", data={"name": "Into the damage"})
    assert answer.status_code == 503
    assert {path.name: path.stat().st_size for path in database.parent.glob("orchard.db*")} == sizes
    probe = client.get("/healthz")
    assert probe.status_code == 503
    # A link nobody gave out is no different: the damage page, not "not found" from a damaged file.
    assert client.get("/c/" + "x" * 43 + "/").status_code == 503
    with client.get("/static/app.css") as style:  # files that need no database are still served
        assert style.status_code == 200


def test_the_probe_finds_damage_before_any_page_does(app, client, table):
    """The issue's case: the crews table reads, so the probe's own read passed while the crew's
    page failed. The probe reads the whole file through (once a minute at most per process)."""
    _crew_with_a_game(table)
    store.close_thread_connections()
    _damage(Path(app.config["DATABASE"]))
    assert client.get("/healthz").status_code == 503


@pytest.mark.slow
def test_a_whole_database_passes_the_probe_and_starts(tmp_path):
    server = ServerProcess(tmp_path / "orchard.db").start()
    try:
        assert Phone(server.base).get("/healthz").status == 200
    finally:
        server.stop()


def test_errors_that_only_look_like_damage_have_the_file_read_through_once_in_a_while(app, monkeypatch):
    """A whole file is not read through for every such error (150 ms for a 17.5 MB file)."""
    from services import health

    looks = []
    monkeypatch.setattr(health, "first_problem", lambda conn: looks.append(conn) and None)
    with app.test_request_context("/"):
        for _ in range(20):
            assert health.confirmed_damage(sqlite3.DatabaseError("database disk image is malformed")) is None
        assert health.confirmed_damage(sqlite3.IntegrityError("UNIQUE constraint failed")) is None
    assert len(looks) == 1


@pytest.mark.slow
def test_damage_one_process_found_is_answered_503_by_every_process(app, client, table, monkeypatch, tmp_path):
    """Issue 46, item 2: the process that found the damage marks it beside the file; another
    process (here: this one with its memory of the damage wiped) answers 503 from its first
    request, and writes nothing: a new crew is not started in the damaged file. A start that
    finds the file whole again (a good copy put in its place) takes the mark away."""
    from services import health

    crew = _crew_with_a_game(table)
    database = Path(app.config["DATABASE"])
    good = backup(database, tmp_path / "good.db")
    store.close_thread_connections()
    _damage(database)
    assert client.get(crew).status_code == 503
    assert (database.parent / "orchard.db-damaged").exists()
    monkeypatch.setattr(health, "_damage", {})  # another process: it has found nothing itself
    monkeypatch.setattr(health, "_looked", {})
    sizes = {path.name: path.stat().st_size for path in database.parent.glob("orchard.db*")}
    answer = client.post("/crews", data={"name": "Into the damage"})
    assert answer.status_code == 503 and "The server's database is damaged" in answer.get_data(as_text=True)
    assert client.get("/healthz").status_code == 503
    assert {path.name: path.stat().st_size for path in database.parent.glob("orchard.db*")} == sizes
    store.close_thread_connections()
    for companion in database.parent.glob("orchard.db-*"):
        if companion.name in ("orchard.db-wal", "orchard.db-shm"):
            companion.unlink()
    shutil.copy(good, database)  # the operator puts the good copy in place and starts again
    server = ServerProcess(database).start()
    try:
        assert not (database.parent / "orchard.db-damaged").exists()
        assert Phone(server.base).get("/healthz").status == 200
    finally:
        server.stop()


def test_a_failure_of_any_kind_on_a_damaged_file_is_the_damage_page(app, table, monkeypatch):
    """A damaged row can fail as anything (a KeyError, a bad JSON text), not only as SQLite's own
    complaint: once the file is read through and found damaged, the answer is the 503 page, never
    a bare 500."""
    from web import crews as crew_views

    crew = _crew_with_a_game(table)
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as served: the error handlers answer
    store.close_thread_connections()
    _damage(Path(app.config["DATABASE"]), middle=True)
    monkeypatch.setattr(crew_views, "load_crew", lambda token: {}["a row the damage took"])
    answer = app.test_client().get(crew)
    assert answer.status_code == 503
    assert "The server's database is damaged" in answer.get_data(as_text=True)
